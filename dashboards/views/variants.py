"""Variants: a study's rules variants against its baseline on common seeds, metric by metric,
with the physical playtests of each variant beside the simulated evidence (docs/variants.md).

The comparison is the study's game's (its study parts' ``compare``, as ``playtest compare``
runs it). A game whose study parts name their own view (``view``: ``module:function``,
given the study folder and the result, returning the simulated games per arm) is shown by it;
any other game's comparison (:func:`ingest.study.compare_study`'s rows) by the generic view
here: a variant, its differences with their intervals, a table in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import filters, store, ui
from dashboards import variant_charts as vc
from dashboards import variant_queries as vq
from engine.core.game import resolve
from ingest import balance
from ingest.study import StudyParts, folder_game, study_parts

st.title("Variants")
st.caption(
    "What a rules variant does: each metric of the game's comparison under the rules as "
    "printed and under the variant, on the same seeds (only the rules differ), the paired "
    "difference and its interval from a bootstrap over common seeds. An interval that excludes "
    "0 is a real difference; the intervals are simultaneous over the metrics of a comparison. "
    "Make a study with `playtest study --variant FILE ...` (`--game GAME` for another game) or "
    "`--sweep KNOB=LO..HI`.")


def _parts(folder: Path) -> StudyParts:
    return study_parts(folder_game(folder))


@st.cache_data(show_spinner="Comparing the variants with the baseline...", max_entries=8)
def _compare(folder: str, version: Any) -> dict[str, Any]:
    del version  # part of the cache key: a study that grew is compared again
    parts = _parts(Path(folder))
    if parts.compare is None:
        raise ValueError(f"{folder_game(Path(folder))!r} declares no comparison of its studies")
    return parts.compare(Path(folder), None, None, 1000, 0)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)  # the physical playtests shown below follow the shared filters
    text = st.sidebar.text_input(
        "Study folder", key="variants_study", value="",
        help="A folder written by `playtest study --variant ...` (Parquet tables). "
             "PLAYTEST_STUDY sets the default.")
    study = balance.study_path(text)
    physical = vq.physical_by_variant(db, f)
    if study is None:
        ui.empty_state("No study folder with variants. Play one with `playtest study --variant "
                       "examples/variants/dossier-compute-2.toml --games 400 --players 4 --seed "
                       "1 --out DIR` and name DIR in the sidebar (or set PLAYTEST_STUDY).")
        _physical(physical, pl.DataFrame())
        filters.show_exclusions(db, f)
        return
    version = balance.study_version(balance.study_tables(study))
    try:
        result = _compare(str(study), version)
        view = _parts(study).view
    except ValueError as exc:  # the comparison's CompareError, StudyError
        ui.empty_state(str(exc))
        _physical(physical, pl.DataFrame())
        filters.show_exclusions(db, f)
        return
    if view is not None:  # the game's own view of its comparison
        simulated = resolve(view)(study, result)
    else:
        _generic(result)
        simulated = vq.simulated_games(study, str(result.get("game") or folder_game(study)))
    _physical(physical, simulated)
    filters.show_exclusions(db, f)


def _generic(result: dict[str, Any]) -> None:
    """A comparison of :func:`ingest.study.compare_study`'s shape: pick the variant; its
    differences from the baseline with their intervals, and the rows in words."""
    frame = vq.rows_frame(result)
    st.caption(f"Intervals: {result.get('level', '')}; {result.get('replicates')} replicates.")
    if frame.is_empty():
        ui.empty_state("The study has no variant to compare: only its baseline. Play one with "
                       "`playtest study --variant FILE ...`.")
        return
    names = frame["variant"].unique(maintain_order=True).to_list()
    name = st.selectbox("Variant", names, key="variants_pick")
    rows = frame.filter(pl.col("variant") == name)
    c = st.columns(2)
    games = rows.select(pl.col("games").max()).item() if "games" in rows.columns else None
    c[0].metric("Common games", int(games or 0))
    c[1].metric("Metrics that differ", int(rows["significant"].sum()))
    # the metrics in words (their declared labels), not their ids
    worded = rows.with_columns(pl.col("label").alias("metric"))
    ui.show_chart(vc.deltas_chart(worded, f"{name} - baseline"), f"variant-deltas-{name}")
    table = worded.select(
        pl.col("metric"), pl.col("baseline").alias("baseline value"),
        pl.col("value").alias("variant value"), pl.col("difference"),
        pl.col("low").alias("interval low"), pl.col("high").alias("interval high"),
        pl.when(pl.col("significant")).then(pl.lit("yes: the interval excludes 0"))
        .otherwise(pl.lit("no: within noise")).alias("a real difference"),
        *([pl.col("games").alias("common games")] if "games" in worded.columns else []))
    ui.show_table(table, f"variant-rows-{name}")
    every = frame.with_columns(pl.col("label").alias("metric"))  # a sweep's levels: every arm
    for i, (knob, chart) in enumerate(vc.sweep_charts(every)):
        if not i:
            st.subheader("Sweeps")
            st.caption(vc.SWEEP_CAPTION)
        ui.show_chart(chart, f"sweep-{knob}")


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
