"""Vestige: game modes compared, and nemesis win rate by difficulty (rulebook pp. 26-29)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import filters, stats, store, ui
from dashboards.vestige import charts as vc
from dashboards.vestige import queries as vq
from dashboards.vestige.sections import pick_kind

st.title("Vestige: modes and nemeses")
st.caption(
    "Competitive, team vs team, solo and co-operative games side by side: rounds, the winner's "
    "leverage and margin, how often everyone lost (a tie) or a nemesis won. Nemeses play after "
    "the players; Nuisance resolves the current threat level only, Menace every level up to it. "
    "A nemesis that meets its unique goal wins outright."
)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db, game=vq.GAME)
    kind = pick_kind(db, f, "vmodes_kind")
    games = vq.modes(db, f)
    games = games.filter(pl.col("kind") == kind) if not games.is_empty() else games
    if kind is None or games.is_empty():
        ui.empty_state("No Vestige games match. " + ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    games = games.with_columns(
        pl.col("mode").replace_strict(vq.MODE_NAMES, default=pl.col("mode")).alias("mode_name"))
    rounds = stats.summarise(games.filter(pl.col("rounds").is_not_null()), ["mode_name"], "rounds")
    ui.show_chart(vc.mode_chart(rounds, "Rounds by mode", "Rounds"), "vestige-mode-rounds")
    table = (games.group_by("mode_name")
             .agg(pl.len().alias("games"), pl.col("rounds").mean().round(2).alias("mean_rounds"),
                  pl.col("total_minutes").mean().round(1).alias("mean_minutes"),
                  pl.col("top_leverage").mean().round(1).alias("mean_top_leverage"),
                  pl.col("margin").mean().round(2).alias("mean_margin"),
                  pl.col("everyone_lost").fill_null(False).mean().round(3)
                  .alias("everyone_lost_share"),
                  pl.col("nemesis_won").fill_null(False).mean().round(3).alias("nemesis_won_share"))
             .sort("mode_name"))
    ui.show_table(table, "vestige-modes")
    margins = games.filter(pl.col("margin").is_not_null())
    if not margins.is_empty():
        ui.show_chart(vc.mode_chart(stats.summarise(margins, ["mode_name"], "margin"),
                                    "Winner's margin over the runner-up by mode", "Leverage"),
                      "vestige-mode-margin")

    st.subheader("Nemesis win rate by difficulty")
    nem = vq.nemeses(db, f)
    nem = nem.filter(pl.col("kind") == kind) if not nem.is_empty() else nem
    if nem.is_empty():
        ui.empty_state("No games with a nemesis match (solo and co-op games include one or more; "
                       "Bone is the rulebook's worked example).")
    else:
        rows = []
        for (name, diff), grp in nem.group_by(["nemesis", "difficulty"]):
            n = grp["game_id"].n_unique()
            won = grp.filter(pl.col("won").fill_null(False))["game_id"].n_unique()
            lo, hi = stats.wilson(won, n)
            rows.append({"nemesis": ui.words(name), "difficulty": ui.words(diff) if diff
                         else "not recorded", "games": n,
                         "won": won, "rate": won / n if n else 0.0, "low": lo, "high": hi})
        rates = pl.DataFrame(rows).sort(["nemesis", "difficulty"])
        ui.show_chart(vc.nemesis_win_rate(rates), "vestige-nemesis-win-rate")
        ui.show_table(rates, "vestige-nemesis-win-rate")
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
