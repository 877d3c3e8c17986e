"""Scoring sources: where each game's points come from, by the game's own score sources."""

from __future__ import annotations

import streamlit as st

from dashboards import filters, gameapps, generic_sections, store, ui

st.title("Scoring sources")
st.caption(
    "Every score change the engine replayed, grouped by the game's own score sources "
    "(Mandate for Mandate 2038, leverage for Vestige). Each game has its own section: two "
    "games' points are never added together, and simulated, walkthrough, illustrative and "
    "human games are shown one kind at a time."
)


def _section(ga: gameapps.GameApp, f: filters.Filters) -> None:
    (ga.part("scoring") or generic_sections.scoring)(store.db_path(), f)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    gameapps.each_game(db, f, _section)
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
