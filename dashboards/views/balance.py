"""Balance: the designers' balance checks (contract strategic-unsolvability-v3) per player count,
physical evidence and a study folder side by side, with a verdict only where the sample decides.

Definitions: docs/balance.md; queries: :mod:`dashboards.balance_queries`.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl
import streamlit as st

from dashboards import balance_queries as bq
from dashboards import filters, stats, store, ui
from dashboards.queries import Filters

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


def _checks_table(frames: dict[str, pl.DataFrame], n: int) -> pl.DataFrame:
    """One row per metric; per source: value, 95% interval, verdict (and games)."""
    th = stats.thresholds()
    rows: dict[str, dict[str, object]] = {}
    for mid, name, key, bound in bq.METRICS:
        rows[mid] = {"metric (designers' name)": name, "contract check": mid,
                     "threshold": f"{'≤' if bound == 'max' else '≥'} {th.get(key, math.nan):g}"}
    for label, df in frames.items():
        part = df.filter(pl.col("player_count") == n)
        for r in part.iter_rows(named=True):
            row = rows[r["metric"]]
            row[f"{label}: value"] = _fmt(r["value"], r["metric"])
            row[f"{label}: 95% interval"] = _interval(r["low"], r["high"])
            row[f"{label}: verdict"] = r["verdict"]
    return pl.DataFrame(list(rows.values()))


def _notes(frames: dict[str, pl.DataFrame], n: int) -> list[str]:
    out = []
    for label, df in frames.items():
        part = df.filter((pl.col("player_count") == n) & (pl.col("note") != ""))
        seen: dict[str, list[str]] = {}
        for r in part.iter_rows(named=True):
            seen.setdefault(r["note"], []).append(r["metric"])
        for note, mids in seen.items():
            out.append(f"**{label}** ({', '.join(mids)}): {note}.")
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
                          "tooltip": [{"field": c} for c in ("source", by, "appearances",
                                                              "wins", "share", "low", "high",
                                                              "expected")]}},
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


def _shares(sources: dict[str, bq.Source], f: Filters, by: str, n: int) -> pl.DataFrame:
    parts = []
    for label, src in sources.items():
        df = bq.shares(src, f, by, n)
        if df.is_empty():
            continue
        for (kind,), part in df.group_by(["kind"], maintain_order=True):
            name = label if src.study is not None else KIND_LABELS.get(str(kind), str(kind))
            parts.append(part.with_columns(pl.lit(name).alias("source"),
                                           pl.col(by).cast(pl.Utf8)))
    return pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    st.title("Balance")
    th = stats.thresholds()
    st.caption(
        "The designers' balance checks (contract strategic-unsolvability-v3, provisional "
        "thresholds; FACTS.md §11.5), computed with their definitions (docs/balance.md): per "
        "player count, joint wins credited 1/k, seat = turn order from first Initiative, the "
        "Era II leader read at the end of Era II Production. Physical evidence and a study "
        "folder are shown side by side, never pooled. Four players is the balance authority."
    )
    study_text = st.sidebar.text_input(
        "Study folder", key=STUDY_KEY,
        help="A folder written by `playtest study` (Parquet tables). Its results are shown "
             "beside the warehouse's, never pooled with them. PLAYTEST_STUDY sets the default.",
    )
    study = bq.study_path(study_text)
    if (study_text or "").strip() and study is None:
        st.warning(f"{study_text!r} is not a study folder (it needs games/ and seats/ Parquet "
                   "tables); showing the warehouse only.", icon=":material/warning:")

    wh = bq.Source(db=db)
    sources: dict[str, bq.Source] = {"warehouse": wh}
    if study is not None:
        label = f"Study {study.name} (simulated)"
        sources[label] = bq.Source(study=study)
    counted: dict[str, dict[int, int]] = {}
    for name, src in sources.items():
        for (kind, n), games in bq.games_by_count(src, f).items():
            label = name if src.study is not None else KIND_LABELS.get(kind, kind)
            counted.setdefault(label, {})[n] = games
    if not counted:
        ui.empty_state("No complete games match. " + ui.NO_GAMES + " A study folder written by "
                       "`playtest study` can be named in the sidebar.")
        filters.show_exclusions(db, f)
        return

    st.markdown(
        f"**Verdicts** follow the contract's rule (equivalence intervals inside the tolerances; "
        f"non-significance is not enough): *{stats.WITHIN}* when the whole 95% interval is on "
        f"the allowed side of the threshold, *{stats.OUTSIDE}* when it is wholly beyond it, "
        f"otherwise *{stats.NOT_ENOUGH}*; groups of fewer than {stats.MIN_VERDICT_GAMES} games "
        "get no verdict. Intervals are delete-one-block jackknife intervals over "
        f"{stats.BLOCKS} blocks of games."
    )
    counts = sorted({n for per in counted.values() for n in per})
    # the choice is kept for the session: coming back from another page, the radio is a new
    # widget that would start again from 4 players
    kept = st.session_state.get(KEPT_COUNT)
    default = kept if kept in counts else (4 if 4 in counts else counts[0])
    n = int(st.radio("Player count", counts, index=counts.index(default),
                     horizontal=True, key="balance_player_count",
                     format_func=lambda k: f"{k} players"))
    st.session_state[KEPT_COUNT] = n
    st.caption("Games: " + "; ".join(f"{k}: {v[n]}" for k, v in counted.items() if v.get(n)))
    fn = bq.for_count(f, n)  # the same figures for n players, from their games only
    frames: dict[str, pl.DataFrame] = {}
    for name, src in sources.items():
        m = bq.metrics(src, fn, n)
        if m.is_empty():
            continue
        if src.study is not None:
            frames[name] = m
            continue
        for (kind,), part in m.group_by(["kind"], maintain_order=True):
            frames[KIND_LABELS.get(str(kind), str(kind))] = part
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
        _show_spec(_share_spec(by, f"{title}, {n} players (95% jackknife; tick = even "
                                   f"share; range limit {limit:g})"),
                   _share_data(df, by), f"win-share-{by}-{n}p")
        ui.show_table(df.select("source", by, "appearances", "wins", "share", "low", "high",
                                "expected"), f"win-share-{by}-{n}p")
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
