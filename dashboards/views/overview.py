"""Games: every game in the warehouse that passes the filters, with its evidence status."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import filters, queries, store, ui

st.title("Games")
st.caption("Every loaded game that passes the sidebar filters. Simulated games are labelled "
           "`simulated`; illustrative samples are flagged and never count as evidence.")


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    games = queries.games(db, f)
    if games.is_empty():
        ui.empty_state(ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    c = st.columns(4)
    c[0].metric("Games", games.height)
    c[1].metric("Count as evidence", int(games["evidence"].fill_null(False).sum()))
    c[2].metric("Simulated", int((games["kind"] == "simulated").sum()))
    c[3].metric("With rule errors", int((games["n_errors"].fill_null(0) > 0).sum()))
    show = games.with_columns(
        pl.col("evidence_reasons").list.join("; ").alias("why not evidence")
    ).drop("evidence_reasons")
    ui.show_table(show.head(ui.TABLE_ROWS), "games", total=show.height, full=lambda: show)
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
