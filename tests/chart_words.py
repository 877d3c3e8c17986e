"""The words of a chart as a reader sees them: its Vega-Lite spec and data read back from an
AppTest element (``at.get("vega_lite_chart")``: the element's ``proto.spec`` JSON and its
Arrow datasets). :func:`chart_faults` lists what is not in words: axis, legend and tooltip
titles left as column names (``player_count``), the values a nominal axis, legend or tooltip
shows that are 16-hex game ids, snake_case ids or ``true``/``false``/``None``, and an axis
counting games without whole steps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pyarrow as pa

HEX_ID = re.compile(r"^[0-9a-f]{16}$")
SNAKE_ID = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
#: a column name left as a title: lowercase, no space (``games``, ``player_count``)
COLUMN_NAME = re.compile(r"^[a-z][a-z0-9_]*(\([a-z0-9_]+\))?$")
REPRS = {"true", "false", "none", "null", "nan", "[]"}
#: channels drawn with an axis or a legend, whose title a reader sees
TITLED = ("x", "y", "color", "fill", "stroke", "shape", "size", "opacity", "column", "row",
          "facet", "theta")
#: channels whose categorical values a reader sees (axis labels, legend entries, headers)
SHOWN = ("x", "y", "color", "fill", "stroke", "shape", "column", "row", "facet")
#: pages another engineer owns in issue 29's time (their faults are reported, not failed)
ELSEWHERE: set[str] = set()  # every page is checked (Balance and Variants included)


def _views(spec: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every unit view of a (layered, faceted, concatenated) spec, with the facet's encoding."""
    yield spec
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for sub in spec.get(key, []):
            yield from _views(sub)
    if isinstance(spec.get("spec"), dict):
        yield from _views(spec["spec"])


def _title(ch: dict[str, Any], guide: str) -> object:
    if "title" in ch:
        return ch["title"]
    g = ch.get(guide)
    if isinstance(g, dict) and "title" in g:
        return g["title"]
    if g is None and guide in ch:  # axis: null, legend: null: nothing drawn
        return ""
    return ch.get("field") or ch.get("aggregate")


def frames_of(el: Any) -> list[pa.Table]:
    out = []
    for ds in el.proto.datasets:
        out.append(pa.ipc.open_stream(ds.data.data).read_all())
    if el.proto.HasField("data") and el.proto.data.data:
        out.append(pa.ipc.open_stream(el.proto.data.data).read_all())
    return out


def _values(frames: list[pa.Table], field: str) -> set[str]:
    out: set[str] = set()
    for t in frames:
        if field in t.column_names:
            out |= {str(v) for v in t.column(field).to_pylist()[:500]}
    return out


def _bad_value(v: str) -> str | None:
    if HEX_ID.match(v):
        return "game id"
    if SNAKE_ID.match(v):
        return "snake_case id"
    if v.lower() in REPRS:
        return "repr"
    return None


def chart_faults(spec: dict[str, Any], frames: list[pa.Table]) -> list[tuple[str, ...]]:
    """What a reader of this chart would see that is not in words."""
    found: list[tuple[str, ...]] = []
    title = spec.get("title")
    name = str(title.get("text") if isinstance(title, dict) else title)
    # layers share an axis: a layer's x without a title takes its sibling's explicit one
    explicit = {chan for view in _views(spec) for chan, ch in view.get("encoding", {}).items()
                if isinstance(ch, dict) and (ch.get("title") or (ch.get("axis") or {}).get(
                    "title") or (ch.get("legend") or {}).get("title"))}
    for view in _views(spec):
        enc = view.get("encoding", {})
        for chan, ch in enc.items():
            if chan == "tooltip":
                for tip in ch if isinstance(ch, list) else [ch]:
                    if isinstance(tip, dict) and "field" in tip:
                        t = _title(tip, "")
                        if not isinstance(t, str) or COLUMN_NAME.match(t):
                            found.append((name, "tooltip title", str(t)))
                        if tip.get("type") in ("nominal", "ordinal"):
                            for v in _values(frames, tip["field"]):
                                why = _bad_value(v)
                                if why:
                                    found.append((name, f"tooltip value ({why})", v))
                continue
            if not isinstance(ch, dict) or "field" not in ch and "aggregate" not in ch:
                continue
            guide = "axis" if chan in ("x", "y") else "header" if chan in (
                "column", "row", "facet") else "legend"
            if chan in TITLED and not ("title" not in ch and chan in explicit):
                t = _title(ch, guide)
                if isinstance(t, str) and t and COLUMN_NAME.match(t):
                    found.append((name, f"{chan} title", t))
            kind = ch.get("type")
            if chan in SHOWN and kind in ("nominal", "ordinal") and ch.get(guide, {}) is not None:
                scale = ch.get("scale") or {}
                shown = {str(v) for v in scale.get("domain", []) if isinstance(scale, dict)}
                shown |= _values(frames, ch.get("field", ""))
                if "labelExpr" in (ch.get(guide) or {}):
                    shown = set()  # labels written by an expression: read by the unit tests
                for v in sorted(shown):
                    why = _bad_value(v)
                    if why:
                        found.append((name, f"{chan} value ({why})", v))
            if kind == "quantitative" and chan in ("x", "y"):
                t = str(_title(ch, guide))
                axis = ch.get("axis") or {}
                if re.match(r"^(Games|Seat-games|Number of games|Findings|Observations)\b", t) \
                        and axis.get("tickMinStep") != 1:
                    found.append((name, f"{chan} count axis without whole steps", t))
    return found


def charts_of(at: Any) -> list[Any]:
    return list(at.get("vega_lite_chart")) + list(at.get("arrow_vega_lite_chart"))
