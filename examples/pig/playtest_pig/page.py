"""Pig: turn risk and the first player's edge (the game's own app page).

Reads the warehouse tables that Pig declares (``pig_turns``, ``pig_seats``) through parameterised
queries (``queries.py``) and pure chart builders (``charts.py``); each kind of game (simulated,
human playtest, illustrative walkthrough) is shown in its own section, never pooled.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import stats, store, ui
from playtest_pig import charts, queries


def _rates(frame: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    rows = []
    for key, grp in frame.group_by(by, maintain_order=True):
        n, won = grp.height, int(grp["winner"].sum())
        lo, hi = stats.wilson(won, n)
        rows.append({**dict(zip(by, key, strict=True)), "games": n, "won": won,
                     "rate": won / n, "low": lo, "high": hi})
    return pl.DataFrame(rows).sort(by)


def _kind_section(kind: str, turns: pl.DataFrame, seats: pl.DataFrame) -> None:
    st.subheader(kind)
    n_games = turns["game_id"].n_unique()
    st.caption(f"{ui.plural(n_games, 'game')}, {ui.plural(turns.height, 'turn')}.")
    by_rolls = (turns.group_by("rolls").agg(
        pl.len().alias("turns"), (pl.col("ended") == "pig_out").mean().alias("pig_out_share"))
        .sort("rolls"))
    left, right = st.columns(2)
    with left:
        ui.show_chart(charts.pig_out_by_rolls(by_rolls), f"pig-pig-outs-{kind}")
    held = turns.filter(pl.col("ended") == "hold")
    with right:
        if held.is_empty():
            ui.empty_state("No held turns.")
        else:
            ui.show_chart(charts.banked_totals(held), f"pig-banked-{kind}")
    if seats.is_empty():
        ui.empty_state("No complete games: win rates need a winner.")
        return
    st.markdown("**Win rate by place in the turn order** (1 = the first player; a fair game "
                "gives every place 1 / players)")
    order = _rates(seats, ["player_count", "order_no"])
    ui.show_chart(charts.win_rates(order.with_columns(
        (pl.col("player_count").cast(pl.String) + " players, place "
         + pl.col("order_no").cast(pl.String)).alias("place")), "place", "Place"),
        f"pig-order-{kind}")
    ui.show_table(order, f"pig-order-{kind}")
    bots = seats.filter(pl.col("player").fill_null("").str.starts_with("bot:"))
    if not bots.is_empty():
        st.markdown("**Win rate by bot** (simulated games: hold20, pace, random)")
        rates = _rates(bots.with_columns(pl.col("player").str.strip_prefix("bot:")), ["player"])
        ui.show_chart(charts.win_rates(rates, "player", "Bot"), f"pig-bots-{kind}")
        ui.show_table(rates, f"pig-bots-{kind}")


def render() -> None:
    db = store.db_path()
    turns = queries.turns(db)
    if turns.is_empty():
        ui.empty_state("No Pig games yet. Simulate some (`playtest simulate --game pig --games "
                       "20 --out DIR`) and load them (`playtest ingest DIR`).")
        return
    seats = queries.seats(db)
    for kind in sorted(turns["kind"].unique().to_list()):
        _kind_section(kind, turns.filter(pl.col("kind") == kind),
                      seats.filter(pl.col("kind") == kind) if not seats.is_empty() else seats)


st.title("Pig: turn risk")
st.caption("How long turns last before a 1 ends them, what players bank, and whether the first "
           "player has an edge (rules: examples/pig/README.md).")
ui.guarded(render, reads_only=True)
