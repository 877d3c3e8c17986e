"""Vestige: duration by rounds and player count (migration 4's vestige_games with games)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import filters, stats, store, ui
from dashboards import vestige_charts as vc
from dashboards import vestige_queries as vq

st.title("Vestige: duration")
st.caption(
    "Vestige ends when 2 endgame conditions are met (3 solo): the next round is the final one "
    "(rulebook p. 25). Rounds played are counted for every game; minutes only for human "
    "sessions unless asked otherwise (bots cannot estimate human play time). Intervals are 95% "
    "t-intervals of the mean."
)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    include = st.checkbox(
        "Include non-human sessions (simulations, walkthroughs)", key="vdur_nonhuman",
        value=True, help="Rounds from simulated games are labelled simulated in every chart.",
    )
    games = vq.durations(db, f, include_non_human=include)
    if games.is_empty():
        ui.empty_state("No Vestige games with rounds recorded match. " + ui.NO_GAMES)
        filters.show_exclusions(db, f, "duration_evidence")
        return
    st.subheader("Rounds by player count")
    ui.show_chart(vc.rounds_by_players(games), "vestige-rounds-by-players")
    summary = stats.summarise(games, ["player_count"], "rounds")
    ui.show_chart(vc.summary_bars(summary, "player_count", "Mean rounds by player count",
                                  "Players", "Rounds"), "vestige-rounds-summary")
    ui.show_table(summary, "vestige-rounds-by-players")
    small = summary.filter(pl.col("n") < stats.MIN_GAMES_WARNING)
    if not small.is_empty():
        st.warning("Small samples: " + ", ".join(
            f"{r['player_count']} players n={r['n']}" for r in small.iter_rows(named=True))
            + f" (fewer than {stats.MIN_GAMES_WARNING} games: indicative only).",
            icon=":material/warning:")
    timed = games.filter(pl.col("total_minutes").is_not_null())
    st.subheader("Minutes")
    if timed.is_empty():
        ui.empty_state("No timed Vestige games match (record setup and game end times).")
    else:
        ui.show_chart(vc.minutes_by_rounds(timed), "vestige-minutes-by-rounds")
        ui.show_table(stats.summarise(timed, ["player_count"], "total_minutes"),
                      "vestige-minutes-by-players")
    filters.show_exclusions(db, f, "duration_evidence")


ui.guarded(render)
