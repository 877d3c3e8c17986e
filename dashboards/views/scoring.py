"""Scoring sources: where Mandate comes from, by faction, by Era, and winners vs others."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import charts, filters, queries, store, tables, ui

st.title("Scoring sources")
st.caption(
    "Every Mandate change from the engine's score ledger: starting Mandate, Customers, "
    "Capability and Trust thresholds, Era Mandates, Headlines, Fusion, faction abilities and "
    "the offline penalty. Values are means per seat-game (a seat in one game)."
)

MEAN_COLUMNS = {
    "faction": "Faction", "source_name": "Source", "group": "Seats",
    "per_seat": st.column_config.NumberColumn("Mean Mandate per seat-game", format="%.2f"),
    "mandate": st.column_config.NumberColumn("Mandate (sum)", format="%d"),
    "seat_games": st.column_config.NumberColumn("Seat-games", format="%d"),
}


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    ledger = queries.ledger_by_source(db, f)
    seats = queries.seat_counts(db, f)  # seat-games per kind, faction and winner flag
    if ledger.is_empty() or seats.is_empty():
        ui.empty_state("No score ledger for the matching games. " + ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    # one kind of game at a time: bot, human and illustrative games are never pooled
    counts = queries.kind_sizes(db, f)
    kind = ui.pick_kind({r["kind"]: f"{ui.plural(r['games'], 'game')}, "
                         f"{ui.plural(r['seats'], 'seat-game')}" for r in counts.iter_rows(named=True)},
                        "score_kind")
    ledger = ledger.filter(pl.col("kind") == kind)
    seats = seats.filter(pl.col("kind") == kind)
    ledger = ui.with_names(ledger, "faction")
    seats = ui.with_names(seats, "faction")
    by_faction = tables.mandate_by_faction(ledger, seats)
    ui.show_chart(charts.ledger_by_faction(by_faction), "mandate-by-faction")
    ui.show_table(by_faction, "mandate-by-faction", column_config=MEAN_COLUMNS)

    by_era = tables.mandate_by_era(ledger)
    ui.show_chart(charts.ledger_by_era(by_era), "mandate-by-era")

    win = tables.mandate_winners(ledger, seats)
    ui.show_chart(charts.ledger_winners(win), "mandate-winners-vs-others")
    ui.show_table(win, "mandate-winners-vs-others", column_config=MEAN_COLUMNS)
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
