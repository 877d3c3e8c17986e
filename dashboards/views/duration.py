"""Duration: how long each game takes, by player count, in the game's own timed parts."""

from __future__ import annotations

import streamlit as st

from dashboards import filters, gameapps, generic_sections, store, ui

st.title("Duration")
st.caption(
    "Human playtests only unless asked otherwise: bot and LLM sessions cannot estimate human "
    "play time, and illustrative examples have made-up times. One section per game, in its "
    "own timed parts (Mandate 2038's Eras and phases, Vestige's rounds). Intervals are 95% "
    "t-intervals of the mean."
)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    include = st.checkbox(
        "Include other sessions (simulations, walkthroughs, illustrative examples)",
        key="dur_nonhuman",
        help="Off by default: only facilitated and blind playtests that are not illustrative "
        "examples measure human duration.",
    )

    def section(ga: gameapps.GameApp, fg: filters.Filters) -> None:
        (ga.part("duration") or generic_sections.duration)(db, fg, include)

    gameapps.each_game(db, f, section)
    filters.show_exclusions(db, f, "duration_evidence")


ui.guarded(render, reads_only=True)
