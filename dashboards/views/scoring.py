"""Scoring sources: where Mandate comes from, by faction, by Era, and winners vs others."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import charts, filters, queries, store, ui

st.title("Scoring sources")
st.caption(
    "Every Mandate change from the engine's score ledger: starting Mandate, Customers, "
    "Capability and Trust thresholds, Era Mandates, Headlines, Fusion, faction abilities and "
    "the offline penalty. Values are means per seat-game (a seat in one game)."
)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    ledger = queries.ledger_by_source(db, f)
    seats = queries.seats_in_games(db, f)
    if ledger.is_empty() or seats.is_empty():
        ui.empty_state("No score ledger for the matching games. " + ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    kinds = sorted(ledger["kind"].unique().to_list())
    if len(kinds) > 1:
        kind = st.segmented_control("Games", ["all", *kinds], default="all", key="score_kind")
        if kind and kind != "all":
            ledger = ledger.filter(pl.col("kind") == kind)
            seats = seats.filter(pl.col("kind") == kind)
    ledger = ui.with_names(ledger, "faction")
    seats = ui.with_names(seats, "faction")
    ledger = ledger.with_columns(
        pl.col("source").replace_strict(charts.SOURCE_NAMES, default=pl.col("source"))
        .alias("source_name")
    )
    seat_games = seats.group_by("faction").agg(pl.len().alias("seat_games"))
    by_faction = (
        ledger.group_by(["faction", "source_name"]).agg(pl.col("mandate").sum())
        .join(seat_games, on="faction")
        .with_columns((pl.col("mandate") / pl.col("seat_games")).round(2).alias("per_seat"))
        .sort(["faction", "source_name"])
    )
    ui.show_chart(charts.ledger_by_faction(by_faction), "mandate-by-faction")
    ui.show_table(by_faction, "mandate-by-faction")

    by_era = (
        ledger.with_columns(
            pl.col("era").cast(pl.Utf8).fill_null("start / final").alias("era_label"))
        .group_by(["era_label", "source_name"]).agg(pl.col("mandate").sum())
        .sort(["era_label", "source_name"])
    )
    ui.show_chart(charts.ledger_by_era(by_era), "mandate-by-era")

    groups = seats.group_by("winner").agg(pl.len().alias("seat_games"))
    win = (
        ledger.group_by(["winner", "source_name"]).agg(pl.col("mandate").sum())
        .join(groups, on="winner")
        .with_columns(
            (pl.col("mandate") / pl.col("seat_games")).round(2).alias("per_seat"),
            pl.when(pl.col("winner")).then(pl.lit("winners")).otherwise(pl.lit("others"))
            .alias("group"),
        )
        .sort(["group", "source_name"])
    )
    ui.show_chart(charts.ledger_winners(win), "mandate-winners-vs-others")
    ui.show_table(win.drop("winner"), "mandate-winners-vs-others")
    filters.show_exclusions(db, f)


ui.guarded(render)
