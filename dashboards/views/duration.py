"""Duration: total and per-phase minutes by player count against the designers' hypothesis."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import charts, filters, queries, stats, store, tables, ui

HYPOTHESIS = (75.0, 100.0)  # minutes at four players: a hypothesis (FACTS.md §10, §11.4)

st.title("Duration")
st.caption(
    "Human playtests only unless asked otherwise: bot and LLM sessions cannot estimate human "
    "play time, and illustrative examples have made-up times. The green band is the designers' hypothesis of 75-100 minutes at four players; "
    "three- and five-player durations need their own blind tests. Intervals are 95% "
    "t-intervals of the mean."
)


def minutes_columns(unit: str) -> dict[str, object]:
    """Headers of a summary table: the mean and its interval, in ``unit``."""
    num = st.column_config.NumberColumn
    return {"mean": num(f"Mean ({unit})", format="%.1f"),
            "median": num(f"Median ({unit})", format="%.1f"),
            "low": num(f"95% interval of the mean: from ({unit})", format="%.1f",
                       help="None with a single game: one game gives no interval"),
            "high": num(f"to ({unit})", format="%.1f")}


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    include = st.checkbox(
        "Include other sessions (simulations, walkthroughs, illustrative examples)",
        key="dur_nonhuman",
        help="Off by default: only facilitated and blind playtests that are not illustrative "
        "examples measure human duration.",
    )
    games = queries.durations(db, f, include)
    if games.is_empty():
        ui.empty_state(
            "No timed game matches." + ("" if include else
                                        " Only human playtests count here; tick **Include "
                                        "other sessions** to see simulated, walkthrough and "
                                        "illustrative games.") + " " + ui.NO_GAMES.replace(
                "No games match. ", ""))
        filters.show_exclusions(db, f, "duration_evidence")
        return
    summary = stats.summarise(games, ["player_count"], "total_minutes")
    ui.show_chart(charts.duration_chart(games, summary, HYPOTHESIS), "duration-total")
    small = summary.filter(pl.col("n") < stats.MIN_GAMES_WARNING)
    if not small.is_empty():
        st.warning(
            "Small samples: "
            + ", ".join(f"{r['player_count']} players n={r['n']}" for r in small.iter_rows(named=True))
            + f" (fewer than {stats.MIN_GAMES_WARNING} games: intervals are wide; treat as "
            "indicative).",
            icon=":material/warning:",
        )
    st.subheader("Total minutes by player count")
    ui.show_table(summary, "duration-summary", column_config=minutes_columns("minutes"))

    st.subheader("Per phase")
    st.caption("Setup, each Era, and the Production, Audit and scoring steps (summed over the "
               "game's four Eras), per game.")
    phases = queries.phase_moments(db, f, include)  # summed per game, summarised in SQL
    if phases.is_empty():
        ui.empty_state("No phase times recorded in the matching games.")
    else:
        psum = tables.in_phase_order(stats.summary_from_moments(phases, ["phase", "player_count"]))
        ui.show_chart(charts.phase_chart(psum), "duration-phases")
        ui.show_table(psum, "duration-phases", column_config=minutes_columns("minutes"))

    st.subheader("Per turn")
    turns = queries.turn_time_stats(db, f, include)
    if turns["boxes"].is_empty():
        ui.empty_state("No per-turn times recorded in the matching games.")
    else:
        ui.show_chart(charts.turn_time_chart(turns["boxes"]), "duration-turns")
        ui.show_table(stats.summary_from_moments(turns["moments"], ["action"]), "turn-times",
                      column_config=minutes_columns("seconds"))
    filters.show_exclusions(db, f, "duration_evidence")


ui.guarded(render, reads_only=True)
