"""Games: every game in the warehouse that passes the filters, with its game and evidence status."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import filters, gameapps, queries, store, ui

st.title("Games")
st.caption("Every loaded game of every registered game that passes the sidebar filters. "
           "Simulated games are labelled; illustrative samples are flagged and never count as "
           "evidence. The counts are per game: two games' numbers are never added together.")


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    games = queries.games(db, f)
    if games.is_empty():
        ui.empty_state(ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    counts = []
    for g in gameapps.shown_games(db, f.games):
        part = games.filter(pl.col("game") == g)
        if part.is_empty():
            continue
        counts.append({
            "Game": gameapps.title(g), "Games": part.height,
            "Count as evidence": int(part["evidence"].fill_null(False).sum()),
            "Human playtests": int((part["kind"] == "human").sum()),
            "Walkthroughs": int((part["kind"] == "walkthrough").sum()),
            "Illustrative": int((part["kind"] == "illustrative").sum()),
            "Simulated": int((part["kind"] == "simulated").sum()),
            "With rule errors": int((part["n_errors"].fill_null(0) > 0).sum()),
        })
    st.dataframe(pl.DataFrame(counts), hide_index=True, width="stretch")
    show = games.with_columns(
        pl.col("evidence_reasons").list.join("; ").alias("why not evidence"),
    ).drop("evidence_reasons", "illustrative")
    ui.show_table(show.head(ui.TABLE_ROWS), "games", total=show.height, full=lambda: show)
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
