"""Pig: turn risk: the die's faces, turn totals held, the first player's edge, the bots (the
game's own app page).

Reads the warehouse tables that Pig declares (``pig_turns``, ``pig_seats``) through parameterised
queries (``queries.py``) and pure chart builders (``charts.py``); each kind of game (simulated,
human playtest, illustrative walkthrough) is shown in its own section, never pooled.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import stats, store, ui
from playtest_pig import charts, queries
from playtest_pig.bots import BOT_LABELS

#: the win-rate tables' columns in words
RATE_COLUMNS = {
    "player_count": st.column_config.NumberColumn("Players", format="%d"),
    "order_no": st.column_config.NumberColumn("Place in the turn order", format="%d"),
    "player": "Bot", "games": st.column_config.NumberColumn("Games", format="%d"),
    "won": st.column_config.NumberColumn("Won", format="%d"),
    "rate": st.column_config.NumberColumn("Win rate", format="percent"),
    "low": st.column_config.NumberColumn("95% interval from", format="percent"),
    "high": st.column_config.NumberColumn("to", format="percent"),
}


def _rates(frame: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    rows = []
    for key, grp in frame.group_by(by, maintain_order=True):
        n, won = grp.height, int(grp["winner"].sum())
        lo, hi = stats.wilson(won, n)
        rows.append({**dict(zip(by, key, strict=True)), "games": n, "won": won,
                     "rate": won / n, "low": lo, "high": hi})
    return pl.DataFrame(rows).sort(by)


def _face_shares(faces: pl.DataFrame) -> pl.DataFrame:
    total = int(faces["rolls"].sum())
    rows = []
    for face, n in zip(faces["face"].to_list(), faces["rolls"].to_list(), strict=True):
        lo, hi = stats.wilson(n, total)
        rows.append({"face": face, "rolls": n, "share": n / total, "low": lo, "high": hi})
    return pl.DataFrame(rows)


def _kind_section(kind: str, turns: pl.DataFrame, seats: pl.DataFrame,
                  faces: pl.DataFrame) -> None:
    st.subheader(kind)
    n_games = turns["game_id"].n_unique()
    pig_outs = turns.filter(pl.col("ended") == "pig_out").height
    st.caption(f"{ui.plural(n_games, 'game')}, {ui.plural(turns.height, 'turn')}; "
               f"{pig_outs / turns.height:.0%} of the turns ended on a 1.")
    left, right = st.columns(2)
    with left:
        if faces.is_empty():
            ui.empty_state("No rolls recorded.")
        else:
            ui.show_chart(charts.faces(_face_shares(faces)), f"pig-faces-{kind}")
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
    ui.show_table(order, f"pig-order-{kind}", column_config=RATE_COLUMNS)
    bots = seats.filter(pl.col("player").fill_null("").str.starts_with("bot:"))
    if not bots.is_empty():
        st.markdown("**Win rate by bot** (a seat's bot against whatever bots the others were)")
        names = pl.col("player").str.strip_prefix("bot:")
        rates = _rates(bots.with_columns(names.replace_strict(BOT_LABELS, default=names)),
                       ["player"])
        ui.show_chart(charts.win_rates(rates, "player", "Bot"), f"pig-bots-{kind}")
        ui.show_table(rates, f"pig-bots-{kind}", column_config=RATE_COLUMNS)


def render() -> None:
    db = store.db_path()
    turns = queries.turns(db)
    if turns.is_empty():
        ui.empty_state("No Pig games yet. Simulate some (`playtest simulate --game pig --games "
                       "20 --out DIR`) and load them (`playtest ingest DIR`).")
        return
    seats = queries.seats(db)
    faces = queries.faces(db)
    for kind in sorted(turns["kind"].unique().to_list()):
        _kind_section(kind, turns.filter(pl.col("kind") == kind),
                      seats.filter(pl.col("kind") == kind) if not seats.is_empty() else seats,
                      faces.filter(pl.col("kind") == kind))


st.title("Pig: turn risk")
st.caption("Whether the die behaved (the rules take the numbers recorded as rolled), what "
           "players bank, whether the first player has an edge, and how the bots fare (rules: "
           "examples/pig/README.md). Each kind of game has its own section.")
ui.guarded(render, reads_only=True)
