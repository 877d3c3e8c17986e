"""Vestige: which endgame conditions end games and when; mastery (rulebook p. 25)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import filters, store, ui
from dashboards import vestige_charts as vc
from dashboards import vestige_queries as vq

st.title("Vestige: endgame and mastery")
st.caption(
    "As soon as 2 endgame conditions are met (3 solo) the next round is the final one; a met "
    "condition cannot be unmet. 'Ended the game' marks the conditions that made that count. "
    "Mastery: the most cards of a colour claims its tile; a tie leaves it unclaimed; "
    "incomplete jobs do not count (p. 25)."
)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    cond = vq.endgame_conditions(db, f)
    if cond.is_empty():
        ui.empty_state("No Vestige endgame conditions recorded in the matching games. "
                       + ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    enders = (cond.group_by("condition")
              .agg(pl.col("met").fill_null(False).sum().alias("met"),
                   pl.col("triggered_final").fill_null(False).sum().alias("triggered"),
                   pl.len().alias("revealed"))
              .sort("triggered", descending=True))
    ui.show_chart(vc.endgame_enders(enders), "vestige-endgame-enders")
    ui.show_table(enders, "vestige-endgame-enders")
    games = (cond.select("game_id", "final_round", "player_count").unique()
             .filter(pl.col("final_round").is_not_null()))
    if not games.is_empty():
        hist = (games.with_columns((pl.col("final_round") - 1).alias("triggered_round"))
                .group_by(["final_round", "player_count"]).agg(pl.len().alias("games"))
                .sort(["final_round", "player_count"]))
        st.caption("The round in which the final round was triggered is the one before it.")
        ui.show_chart(vc.final_round_histogram(hist), "vestige-final-round")
    met = cond.filter(pl.col("met").fill_null(False) & pl.col("met_round").is_not_null())
    if not met.is_empty():
        ui.show_chart(vc.met_round_chart(met), "vestige-met-round")

    st.subheader("Mastery")
    m = vq.mastery(db, f)
    if m.is_empty():
        ui.empty_state("No mastery rows in the matching games.")
    else:
        per = (m.group_by(["game_id", "colour"])
               .agg(pl.col("claimed").any().alias("claimed"), pl.col("cards").max().alias("top"))
               .with_columns(pl.when(pl.col("claimed")).then(pl.lit("claimed"))
                             .when(pl.col("top") > 0).then(pl.lit("tied: unclaimed"))
                             .otherwise(pl.lit("no cards")).alias("outcome")))
        dist = (per.group_by(["colour", "outcome"]).agg(pl.len().alias("games"))
                .with_columns((pl.col("games") / pl.col("games").sum().over("colour"))
                              .round(3).alias("share"))
                .sort(["colour", "outcome"]))
        ui.show_chart(vc.mastery_chart(dist), "vestige-mastery")
        ui.show_table(dist, "vestige-mastery")
        wins = (m.filter(pl.col("claimed")).group_by(["colour", "cards"])
                .agg(pl.len().alias("games")).sort(["colour", "cards"]))
        if not wins.is_empty():
            ui.show_chart(vc.mastery_cards_chart(wins), "vestige-mastery-cards")
    filters.show_exclusions(db, f)


ui.guarded(render)
