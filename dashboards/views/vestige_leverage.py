"""Vestige: where leverage comes from (the engine's ledger, grouped by source)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import filters, store, ui
from dashboards import vestige_charts as vc
from dashboards import vestige_queries as vq

st.title("Vestige: leverage sources")
st.caption(
    "Every leverage gain the engine replayed: regions (endgame value of regions controlled), "
    "control (taking a region; the controller's leverage when others visit it), cards, the "
    "speed track, bounties, covert ops and mastery (rulebook pp. 10-25). Values are means per "
    "seat-game (one seat in one game)."
)


def _per_seat(ledger: pl.DataFrame, by: str) -> pl.DataFrame:
    seat_games = ledger.select("game_id", "seat", by).unique().group_by(by).agg(
        pl.len().alias("seat_games"))
    return (
        ledger.group_by([by, "source"]).agg(pl.col("leverage").sum())
        .join(seat_games, on=by)
        .with_columns((pl.col("leverage") / pl.col("seat_games")).round(2).alias("per_seat"),
                      pl.col("source").replace_strict(vq.SOURCE_NAMES, default=pl.col("source"))
                      .alias("source_name"),
                      pl.col(by).cast(pl.Utf8))
        .sort([by, "source"])
    )


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    ledger = vq.leverage_by_source(db, f)
    if ledger.is_empty():
        ui.empty_state("No Vestige leverage ledger for the matching games. " + ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    kinds = sorted(ledger["kind"].unique().to_list())
    if len(kinds) > 1:
        kind = st.segmented_control("Games", ["all", *kinds], default="all", key="vlev_kind")
        if kind and kind != "all":
            ledger = ledger.filter(pl.col("kind") == kind)
    by_players = _per_seat(ledger, "player_count")
    ui.show_chart(vc.leverage_sources(by_players, "player_count",
                                      "Leverage per seat-game by source and player count"),
                  "vestige-leverage-by-players")
    ui.show_table(by_players, "vestige-leverage-by-players")
    groups = ledger.with_columns(
        pl.when(pl.col("winner")).then(pl.lit("winners")).otherwise(pl.lit("others"))
        .alias("group"))
    win = _per_seat(groups, "group")
    ui.show_chart(vc.leverage_sources(win, "group", "Winners vs others: leverage by source"),
                  "vestige-leverage-winners")
    ui.show_table(win, "vestige-leverage-winners")

    st.subheader("Regions")
    regions = vq.regions(db, f)
    if regions.is_empty():
        ui.empty_state("No region rows for the matching games.")
    else:
        per_region = (regions.filter(pl.col("region").is_not_null())
                      .group_by("region").agg(pl.col("visits").sum(),
                                              pl.col("control_changes").sum(),
                                              pl.col("visit_leverage").sum(),
                                              pl.len().alias("games"))
                      .sort("visits", descending=True))
        ui.show_chart(vc.region_chart(per_region), "vestige-regions")
        ui.show_table(per_region, "vestige-regions")
    filters.show_exclusions(db, f)


ui.guarded(render)
