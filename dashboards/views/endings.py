"""End conditions: how each game ends (Mandate 2038's World Endings, Vestige's endgame
conditions), one section per game."""

from __future__ import annotations

import streamlit as st

from dashboards import filters, gameapps, generic_sections, store, ui

st.title("End conditions")
st.caption(
    "How the games end, in each game's own terms: Mandate 2038's World Endings (AGI and the "
    "Open test), Vestige's endgame conditions and mastery. One section per game; simulated, "
    "walkthrough, illustrative and human games are shown one kind at a time."
)


def _section(ga: gameapps.GameApp, f: filters.Filters) -> None:
    (ga.part("endings") or generic_sections.endings)(store.db_path(), f)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    gameapps.each_game(db, f, _section)
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
