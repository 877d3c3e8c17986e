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
    # counted in SQL; the table below reads one page of rows (a million games are not sent)
    per_game = queries.game_counts(db, f)
    total = int(per_game["games"].sum()) if not per_game.is_empty() else 0
    if total == 0:
        ui.empty_state(ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    counts = []
    by_game = {str(r["game"]): r for r in per_game.iter_rows(named=True)}
    for g in gameapps.shown_games(db, f.games):
        r = by_game.get(g)
        if r is None:
            continue
        counts.append({
            "Game": gameapps.title(g), "Games": r["games"], "Count as evidence": r["evidence"],
            "Human playtests": r["human"], "Walkthroughs": r["walkthrough"],
            "Illustrative": r["illustrative"], "Simulated": r["simulated"],
            "With rule errors": r["with_errors"],
        })
    st.dataframe(pl.DataFrame(counts), hide_index=True, width="stretch")
    pages = -(-total // ui.TABLE_ROWS)
    page = 1
    if pages > 1:
        page = int(st.number_input(f"Page (of {pages:,}, {ui.TABLE_ROWS:,} games each)",
                                   min_value=1, max_value=pages, value=1, key="games_page"))
    rows = queries.games(db, f, limit=ui.TABLE_ROWS, offset=(page - 1) * ui.TABLE_ROWS)

    def shown(games: pl.DataFrame) -> pl.DataFrame:
        return games.with_columns(
            pl.col("evidence_reasons").list.join("; ").alias("why not evidence"),
        ).drop("evidence_reasons", "illustrative")

    if page == 1:
        ui.show_table(shown(rows), "games", total=total,
                      full=lambda: shown(queries.games(db, f)))
    else:
        first = (page - 1) * ui.TABLE_ROWS
        st.caption(f"Games {first + 1:,} to {first + rows.height:,} of {total:,} (page 1's CSV "
                   "holds all of them).")
        ui.show_table(shown(rows), f"games-page-{page}")
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
