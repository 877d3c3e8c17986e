"""Chart builders of the Pig page: pure ``frame -> alt.Chart`` functions."""

from __future__ import annotations

import math

import altair as alt
import polars as pl


def pig_out_by_rolls(frame: pl.DataFrame) -> alt.Chart:
    """Share of turns that ended on a 1, by the number of rolls the turn lasted (``rolls``,
    ``pig_out_share``, ``turns``)."""
    return alt.Chart(frame).mark_bar().encode(
        x=alt.X("rolls:O", title="Rolls in the turn"),
        y=alt.Y("pig_out_share:Q", title="Turns that ended on a 1", axis=alt.Axis(format="%")),
        tooltip=["rolls", "turns", alt.Tooltip("pig_out_share:Q", format=".1%")],
    ).properties(title="How a turn ends, by its length", height=260)


def banked_totals(frame: pl.DataFrame) -> alt.Chart:
    """Histogram of the turn totals held (``banked``)."""
    return alt.Chart(frame).mark_bar().encode(
        x=alt.X("banked:Q", bin=alt.Bin(step=5), title="Turn total held"),
        y=alt.Y("count():Q", title="Held turns"),
    ).properties(title="Turn totals at the hold", height=260)


def win_rates(frame: pl.DataFrame, by: str, title: str) -> alt.Chart:
    """Win rate with its 95% interval (``rate``, ``low``, ``high``) for each value of ``by``."""
    data = frame.with_columns(pl.col(by).cast(pl.String))
    base = alt.Chart(data).encode(y=alt.Y(f"{by}:N", title=title))
    bars = base.mark_bar().encode(
        x=alt.X("rate:Q", title="Win rate", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        tooltip=[by, "games", "won", alt.Tooltip("rate:Q", format=".1%")])
    rules = base.mark_rule().encode(x="low:Q", x2="high:Q")
    return (bars + rules).properties(height=alt.Step(28))


def even_share(players: int) -> float:
    """The win rate of a seat if the game were fair: 1 / players."""
    return 1 / players if players else math.nan
