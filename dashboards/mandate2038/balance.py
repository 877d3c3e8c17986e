"""Mandate 2038's Balance section (its declaration's ``balance.section``): the designers' balance checks (contract strategic-unsolvability-v3) per player count,
physical evidence and a study folder side by side, with a verdict only where the sample decides.

Definitions: docs/balance.md; queries: :mod:`ingest.mandate2038.balance` (through the app's
cache, :class:`Source`); the page: ``dashboards/views/balance.py``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import stats, ui
from dashboards.balance_queries import CachedSource
from dashboards.queries import Filters
from ingest.balance import ARM_MARK, split_kind
from ingest.mandate2038 import balance as bq


@dataclass(frozen=True)
class Source(CachedSource, bq.Source):
    """Mandate 2038's source (a study folder's ``seat_balance``) with the app's cache."""


#: how each kind of game is named on this page (simulated games are always labelled)
KIND_LABELS = {
    "human": "Human playtests",
    "simulated": "Simulated (warehouse bots)",
    "walkthrough": "Walkthroughs",
    "illustrative": "Illustrative examples",
    "study": "Study (simulated)",
}
STUDY_KEY = "balance_study_folder"


def _fmt(v: float | None, metric: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if metric == "policy_fallbacks":
        return f"{v:.0f}"
    return f"{v:.3f}"


def _interval(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return "–"
    return f"{low:.3f} to {high:.3f}"


#: a verdict's colour on the scorecard (Streamlit's coloured text)
VERDICT_COLOURS = {stats.WITHIN: "green", stats.OUTSIDE: "red", stats.NOT_ENOUGH: "orange",
                   "no value": "gray"}


def _threshold(key: str, bound: str) -> str:
    return f"{'≤' if bound == 'max' else '≥'} {stats.thresholds().get(key, math.nan):g}"


def scorecard(frames: dict[str, pl.DataFrame], n: int) -> str:
    """The one-glance scorecard: a Markdown table, one row per check, one column per source,
    each cell the verdict in its colour (within green, outside red, not enough games orange)."""
    labels = list(frames)
    head = "| check | threshold | " + " | ".join(labels) + " |"
    lines = [head, "|---|---|" + "---|" * len(labels)]
    for mid, name, key, bound in bq.METRICS:
        cells = []
        for label in labels:
            df = frames[label]
            part = df.filter((pl.col("player_count") == n) & (pl.col("metric") == mid))
            v = part["verdict"][0] if part.height else "no value"
            cells.append(f":{VERDICT_COLOURS.get(v, 'gray')}[{v}]")
        lines.append(f"| {name} | {_threshold(key, bound)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _checks_table(frames: dict[str, pl.DataFrame], n: int) -> pl.DataFrame:
    """The checks in detail, one row per check and source (long, so that it stays narrow
    whatever the number of sources): games, value, 95% interval, threshold, verdict."""
    rows = []
    for mid, name, key, bound in bq.METRICS:
        for label, df in frames.items():
            part = df.filter((pl.col("player_count") == n) & (pl.col("metric") == mid))
            for r in part.iter_rows(named=True):
                seen = r.get("value_seen") is not None
                # an entropy's verdict is on the designers' scale (the ids seen): its value
                # there, the fixed scale's (the ids possible) beside it
                value = (f"{_fmt(r['value_seen'], mid)} over the {r['ids_seen']} seen "
                         f"(fixed scale {_fmt(r['value'], mid)})" if seen
                         else _fmt(r["value"], mid))
                rows.append({"metric (designers' name)": name, "games from": label, "games": r["games"], "value": value,
                             "95% interval": _interval(r["low_seen"], r["high_seen"]) if seen
                             else _interval(r["low"], r["high"]),
                             "threshold": _threshold(key, bound),
                             "verdict": r["verdict"] + _needed(r)})
    return pl.DataFrame(rows)


def _needed(r: dict[str, Any]) -> str:
    """The games that would settle a check with "not enough games" at its current effect size
    (80% chance; :func:`ingest.stats.games_needed`): bots in whole line-ups, and physical
    tables (the checks only bots have: none)."""
    bots, tables = r.get("games_needed"), r.get("tables_needed")
    if bots is None:
        return ""
    return (f" (settled by ~{bots:,} bot games; "
            + (f"{tables:,} at tables)" if tables is not None else "bots only)"))


def _notes(frames: dict[str, pl.DataFrame], n: int) -> list[str]:
    out = []
    for label, df in frames.items():
        part = df.filter((pl.col("player_count") == n) & (pl.col("note") != ""))
        seen: dict[str, list[str]] = {}
        for r in part.iter_rows(named=True):
            seen.setdefault(r["note"], []).append(r["metric"])
        names = {mid: name for mid, name, _key, _bound in bq.METRICS}
        for note, mids in seen.items():
            out.append(f"**{label}** ({', '.join(names.get(m, m) for m in mids)}): {note}.")
    return out


#: session key of the chosen player count, kept across pages
KEPT_COUNT = "_balance_player_count_kept"


#: the columns of the win-share charts' data (and of the tables under them)
SHARE_COLUMNS = ("source", "appearances", "wins", "share", "low", "high", "expected")


def _share_data(df: pl.DataFrame, by: str) -> pl.DataFrame:
    """The win-share chart's data: one row per source and group (NaN as null)."""
    cols = [SHARE_COLUMNS[0], by, *SHARE_COLUMNS[1:]]
    return df.select(cols).with_columns(pl.col(pl.Float64).fill_nan(None))


def _share_spec(by: str, title: str) -> dict[str, Any]:
    """Vega-Lite spec of win shares with their intervals and the even share, without its data
    (:func:`_share_data`; built directly: Altair's schema validation costs more than the whole
    page's queries)."""
    axis = {"turn_order": "Turn order (0 = first Initiative)", "faction": "Faction",
            "profile": "Strategy profile"}[by]
    y = {"field": by, "type": "nominal", "title": axis}
    colour = {"field": "source", "type": "nominal", "title": "Games"}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": title,
        "layer": [
            {"mark": {"type": "rule", "strokeWidth": 2},
             "encoding": {"x": {"field": "low", "type": "quantitative"},
                          "x2": {"field": "high"}, "y": y,
                          "yOffset": {"field": "source"}, "color": colour}},
            {"mark": {"type": "point", "filled": True, "size": 80},
             "encoding": {"x": {"field": "share", "type": "quantitative",
                                "title": "Win share (joint wins 1/k)",
                                "scale": {"domain": [0, 1]}},
                          "y": y, "yOffset": {"field": "source"}, "color": colour,
                          "tooltip": [{"field": c, "title": t} for c, t in (
                              ("source", "Games"), (by, axis), ("appearances", "Appearances"),
                              ("wins", "Wins"), ("share", "Win share"),
                              ("low", "Interval low"), ("high", "Interval high"),
                              ("expected", "Even share"))]}},
            {"mark": {"type": "tick", "color": "black", "thickness": 2, "size": 16},
             "encoding": {"x": {"field": "expected", "type": "quantitative"}, "y": y}},
        ],
    }


def _show_spec(spec: dict[str, Any], data: pl.DataFrame, name: str) -> None:
    """Draw a Vega-Lite spec on ``data`` full width with PNG and SVG downloads (vl-convert, on
    demand). The data goes to Streamlit as an Arrow table (it would turn a list of rows into
    pandas first); the downloads embed it as values when asked for."""
    import json

    st.vega_lite_chart(data.to_arrow(), spec=spec, width="stretch")

    def text() -> str:
        return json.dumps({**spec, "data": {"values": data.to_dicts()}})

    def png() -> bytes:
        import vl_convert as vlc

        return bytes(vlc.vegalite_to_png(text(), scale=2))

    def svg() -> str:
        import vl_convert as vlc

        return str(vlc.vegalite_to_svg(text()))

    c1, c2, _ = st.columns([1, 1, 4])
    c1.download_button("PNG", data=png, file_name=f"{name}.png", mime="image/png",
                       key=f"png-{name}", on_click="ignore", icon=":material/download:")
    c2.download_button("SVG", data=svg, file_name=f"{name}.svg", mime="image/svg+xml",
                       key=f"svg-{name}", on_click="ignore", icon=":material/download:")


def source_label(src: bq.Source, kind: str, study_name: str) -> str:
    """How a kind of game is named on the page: the warehouse's kinds in words; a study's
    games by the study and the policy mix that played them (never pooled unlabelled)."""
    base, arm = split_kind(kind)  # a study arm of its own, where the games hold several
    arm_label = f"{ARM_MARK}{arm}" if arm is not None else ""
    if src.study is None:
        return KIND_LABELS.get(base, base) + arm_label
    mix = base.removeprefix("study: ")
    return f"Study {study_name}: {mix} line-ups{arm_label}"


@functools.cache
def _names() -> dict[str, dict[str, str]]:
    """Printed names of factions (the content pack) and strategy profiles (the default
    profile set); an id without a name is shown as it is."""
    out: dict[str, dict[str, str]] = {"faction": {}, "profile": {}}
    try:
        from schemas.packs import load_pack

        pack = load_pack("mandate2038", "0.8.0-rc.17-test")
        out["faction"] = {f.id: f.name for f in pack.factions}
    except Exception:  # noqa: BLE001 - names are a nicety: ids are shown without them
        pass
    try:
        from schemas.mandate2038.profiles import load_profiles

        out["profile"] = {k: str(getattr(v, "name", k)) for k, v in
                          load_profiles("default").items()}
    except Exception:  # noqa: BLE001
        pass
    return out


def named(df: pl.DataFrame, by: str) -> pl.DataFrame:
    """``df`` with faction and profile ids in column ``by`` replaced by their printed names."""
    names = _names().get(by)
    if not names or by not in df.columns:
        return df
    return df.with_columns(pl.col(by).cast(pl.Utf8).replace(names))


def _shares(sources: dict[str, bq.Source], f: Filters, by: str, n: int) -> pl.DataFrame:
    parts = []
    for label, src in sources.items():
        df = bq.shares(src, f, by, n)
        if df.is_empty():
            continue
        for (kind,), part in df.group_by(["kind"], maintain_order=True):
            name = source_label(src, str(kind), label)
            parts.append(named(part.with_columns(pl.lit(name).alias("source"),
                                                 pl.col(by).cast(pl.Utf8)), by))
    return pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()


#: the Variants page (A/B of a rule), when the app has it
VARIANTS_PAGE = "views/variants.py"


def _variants_link() -> None:
    """Where the Variants view is linked from: rule variants compared on the same checks."""
    if (Path(__file__).resolve().parent.parent / VARIANTS_PAGE).is_file():
        st.page_link(VARIANTS_PAGE, label="Variants: a rule's A/B on these checks",
                     icon=":material/compare_arrows:")


def section(db: Path, f: Filters) -> None:
    """Mandate 2038's checks on the games ``f`` selects in the warehouse ``db`` (and a study
    folder named in the sidebar), under the page's title."""
    th = stats.thresholds()
    st.caption(
        "The designers' balance checks (contract strategic-unsolvability-v3, provisional "
        "thresholds, docs/balance.md, Verdicts), computed with their definitions (docs/balance.md, "
        "Definitions): per "
        "player count, joint wins credited 1/k, seat = turn order from first Initiative, the "
        "Era II leader read at the end of Era II Production. Physical evidence and each "
        "study's policy mix are shown side by side, never pooled. Four players is the balance "
        "authority."
    )
    study_text = st.sidebar.text_input(
        "Study folder", key=STUDY_KEY,
        help="A folder written by `playtest study` (Parquet tables). Its results are shown "
             "beside the warehouse's, never pooled with them, one column per policy mix. "
             "PLAYTEST_STUDY sets the default.",
    )
    study = bq.study_path(study_text)
    if (study_text or "").strip() and study is None:
        st.warning(f"{study_text!r} is not a study folder (it needs games/ and seats/ Parquet "
                   "tables); showing the warehouse only.", icon=":material/warning:")

    sources: dict[str, bq.Source] = {"warehouse": Source(db=db)}
    if study is not None:
        sources[study.name] = Source(study=study)
    counted: dict[str, dict[int, int]] = {}
    for name, src in sources.items():
        for (kind, n), games in bq.games_by_count(src, f).items():
            counted.setdefault(source_label(src, kind, name), {})[n] = games
    if not counted:
        ui.empty_state("No complete games match. " + ui.NO_GAMES + " A study folder written by "
                       "`playtest study` can be named in the sidebar.")
        return

    counts = sorted({n for per in counted.values() for n in per})
    # the choice is kept for the session: coming back from another page, the radio is a new
    # widget that would start again from 4 players
    kept = st.session_state.get(KEPT_COUNT)
    default = kept if kept in counts else (4 if 4 in counts else counts[0])
    n = int(st.radio("Player count", counts, index=counts.index(default),
                     horizontal=True, key="balance_player_count",
                     format_func=lambda k: f"{k} players"))
    st.session_state[KEPT_COUNT] = n
    fn = bq.for_count(f, n)  # the same figures for n players, from their games only
    frames: dict[str, pl.DataFrame] = {}
    for name, src in sources.items():
        m = bq.metrics(src, fn, n)
        if m.is_empty():
            continue
        for (kind,), part in m.group_by(["kind"], maintain_order=True):
            frames[source_label(src, str(kind), name)] = part
    st.subheader(f"Scorecard ({n} players)")
    st.markdown(scorecard(frames, n))
    st.caption("Games: " + "; ".join(f"{k}: {v[n]}" for k, v in counted.items() if v.get(n)))
    st.markdown(
        f"**Verdicts** follow the contract's rule (equivalence intervals inside the tolerances; "
        f"non-significance is not enough): *{stats.WITHIN}* when the whole 95% interval is on "
        f"the allowed side of the threshold, *{stats.OUTSIDE}* when it is wholly beyond it, "
        f"otherwise *{stats.NOT_ENOUGH}*; fewer than {stats.MIN_VERDICT_GAMES} games get no "
        "verdict. Intervals are taken over common-seed "
        "blocks of games (a range or a maximum from simultaneous intervals of its groups, "
        "anything else by a bias-corrected cluster bootstrap); `playtest calibrate "
        "--null-check` measures how often a verdict is wrong (docs/balance.md). An entropy "
        "is judged on the designers' scale (normalised by the log of the ids seen, as their "
        "floor is defined), the fixed scale beside it. *Settled by*: for a check with "
        f"*{stats.NOT_ENOUGH}*, the games that would give a verdict with an "
        f"{stats.POWER:.0%} chance if the present estimate were the truth (the same bootstrap, "
        "its interval shrinking with more games), for bots (whole line-ups) and for physical "
        "tables (each game its own deal, assuming a table's game varies as a bot's does)."
    )
    _variants_link()
    st.subheader("The checks in detail")
    ui.show_table(_checks_table(frames, n), f"balance-checks-{n}p")
    for note in _notes(frames, n):
        st.caption(note)
    for by, title, limit in (
        ("turn_order", "Win share by turn order", th["seatWinShareRangeMax"]),
        ("faction", "Win share by faction", th["factionWinShareRangeMax"]),
        ("profile", "Win share by strategy profile", th["profileWinShareRangeMax"]),
    ):
        df = _shares(sources, fn, by, n)
        if df.is_empty():
            continue
        st.subheader(f"{title} ({n} players)")
        _show_spec(_share_spec(by, f"{title}, {n} players (95% interval over common-seed "
                                   f"blocks; tick = even share; range limit {limit:g})"),
                   _share_data(df, by), f"win-share-{by}-{n}p")
        ui.show_table(df.select("source", by, "appearances", "wins", "share", "low", "high",
                                "expected"), f"win-share-{by}-{n}p")
