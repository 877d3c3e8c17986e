"""Variants: a study's rules variants against its baseline on common seeds, metric by metric,
with the physical playtests of each variant beside the simulated evidence (docs/variants.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import balance_queries as bq
from dashboards import filters, store, ui
from dashboards import variant_charts as vc
from dashboards import variant_queries as vq

st.title("Variants")
st.caption(
    "What a rules variant does: each metric of the designers' balance contract (and AGI "
    "emergence) under the rules as printed and under the variant, on the same seeds (same "
    "line-ups, factions, seats, map and chance stream), the paired difference and its "
    "interval from a block bootstrap over common seeds. An interval that excludes 0 is a real "
    "difference; the intervals are simultaneous over the metrics of a comparison. Make a study "
    "with `playtest study --variant FILE ...` or `--sweep KNOB=LO..HI`.")


@st.cache_data(show_spinner="Comparing the variants with the baseline...", max_entries=8)
def _compare(folder: str, version: Any) -> dict[str, Any]:
    del version  # part of the cache key: a study that grew is compared again
    return vq.compare(Path(folder), replicates=1000)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)  # the physical playtests shown below follow the shared filters
    text = st.sidebar.text_input(
        "Study folder", key="variants_study", value="",
        help="A folder written by `playtest study --variant ...` (Parquet tables). "
             "PLAYTEST_STUDY sets the default.")
    study = bq.study_path(text)
    physical = vq.physical_by_variant(db, f)
    if study is None:
        ui.empty_state("No study folder with variants. Play one with `playtest study --variant "
                       "examples/variants/dossier-compute-2.toml --games 400 --players 4 --seed "
                       "1 --out DIR` and name DIR in the sidebar (or set PLAYTEST_STUDY).")
        _physical(physical, pl.DataFrame())
        filters.show_exclusions(db, f)
        return
    version = bq._study_version(bq.study_tables(study))
    try:
        result = _compare(str(study), version)
    except vq.CompareError as exc:
        ui.empty_state(str(exc))
        _physical(physical, pl.DataFrame())
        filters.show_exclusions(db, f)
        return
    frame = vq.rows_frame(result)
    summary = pl.DataFrame(result["variants"])
    st.caption(f"Intervals: {result['interval']}; {result['replicates']} replicates.")
    names = summary["variant"].unique(maintain_order=True).to_list()
    name = st.selectbox("Variant", names, key="variants_pick")
    counts = summary.filter(pl.col("variant") == name)["player_count"].to_list()
    n = st.selectbox("Players", counts, key="variants_players") if len(counts) > 1 else counts[0]
    one = summary.filter((pl.col("variant") == name) & (pl.col("player_count") == n)).row(
        0, named=True)
    c = st.columns(3)
    c[0].metric("Common games", one["common_games"])
    c[1].metric("Played differently", one["games_differing"])
    c[2].metric("Metrics that differ", len(one["significant"]))
    rows = frame.filter((pl.col("variant") == name) & (pl.col("player_count") == n))
    ui.show_chart(vc.deltas_chart(rows, f"{name} - baseline, {n} players"),
                  f"variant-deltas-{name}")
    table = rows.select("metric", "baseline", "value", "difference", "low", "high",
                        "significant", *[c for c in ("baseline_verdict", "variant_verdict",
                                                     "verdict_changes") if c in rows.columns])
    ui.show_table(table, f"variant-rows-{name}")
    sweep = vq.sweep_frame(frame.filter(pl.col("player_count") == n))
    if not sweep.is_empty():
        st.subheader("Sweeps")
        st.caption("A knob over a range (`--sweep KNOB=LO..HI`): the difference from the "
                   "baseline at each value, with its interval, per metric.")
        for knob in sweep["knob"].unique(maintain_order=True).to_list():
            ui.show_chart(vc.sweep_chart(sweep.filter(pl.col("knob") == knob)),
                          f"sweep-{knob}")
    _physical(physical, vq.simulated_by_variant(study))
    filters.show_exclusions(db, f)


def _physical(physical: pl.DataFrame, simulated: pl.DataFrame) -> None:
    st.subheader("Physical playtests beside the simulated evidence")
    st.caption("Physical playtests (facilitated and blind, among the games the sidebar's "
               "filters select; illustrative samples never count) of each game and variant, as "
               "the warehouse records the variant their logs' headers name (`baseline`: the "
               "rules as printed), by status: complete, or partial (finished early at the "
               "table, or recorded in part; a partial game gives no AGI share). Next to them "
               "the study's simulated games: two kinds of evidence side by side, never pooled "
               "into one figure.")
    beside = vq.evidence_beside(physical, simulated)
    if beside.is_empty():
        st.info("No physical playtest and no study yet.")
        return
    ui.show_table(beside, "variant-evidence")
    said = [f"- {ui.md_text(r['game'])} · **{ui.md_text(r['variant'])}**: physical playtests "
            f"{r['physical playtests']}; {r['simulated games']} simulated games"
            for r in beside.iter_rows(named=True) if r["physical playtests"] != "none"]
    if said:
        st.markdown("\n".join(said))


ui.guarded(render, reads_only=True)
