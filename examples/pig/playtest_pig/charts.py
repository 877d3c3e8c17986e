"""Chart builders of the Pig page: pure ``frame -> alt.Chart`` functions."""

from __future__ import annotations

import math

import altair as alt
import polars as pl


def faces(frame: pl.DataFrame) -> alt.LayerChart:
    """Share of each face with its 95% interval (``face``, ``share``, ``low``, ``high``,
    ``rolls``) against a fair die's 1/6."""
    base = alt.Chart(frame).encode(x=alt.X("face:O", title="Face rolled"))
    bars = base.mark_bar().encode(
        y=alt.Y("share:Q", title="Share of rolls", axis=alt.Axis(format="%")),
        tooltip=[alt.Tooltip("face:O", title="Face"), alt.Tooltip("rolls:Q", title="Rolls"),
                 alt.Tooltip("share:Q", title="Share of rolls", format=".1%")])
    rules = base.mark_rule().encode(y="low:Q", y2="high:Q")
    fair = alt.Chart(pl.DataFrame({"fair": [1 / 6]})).mark_rule(strokeDash=[4, 4]).encode(
        y="fair:Q")
    return (bars + rules + fair).properties(title="Faces rolled (dashed: a fair die, 1/6)",
                                            height=260)


def banked_totals(frame: pl.DataFrame) -> alt.Chart:
    """Histogram of the turn totals held (``banked``)."""
    return alt.Chart(frame).mark_bar().encode(
        x=alt.X("banked:Q", bin=alt.Bin(step=5), title="Turn total held"),
        y=alt.Y("count():Q", title="Held turns"),
    ).properties(title="Turn totals at the hold", height=260)


def win_rates(frame: pl.DataFrame, by: str, title: str) -> alt.Chart:
    """Win rate with its 95% interval (``rate``, ``low``, ``high``) for each value of ``by``."""
    data = frame.with_columns(pl.col(by).cast(pl.String))
    base = alt.Chart(data).encode(y=alt.Y(f"{by}:N", title=title,
                                          axis=alt.Axis(labelLimit=260)))
    bars = base.mark_bar().encode(
        x=alt.X("rate:Q", title="Win rate", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip(f"{by}:N", title=title), alt.Tooltip("games:Q", title="Games"),
                 alt.Tooltip("won:Q", title="Won"),
                 alt.Tooltip("rate:Q", title="Win rate", format=".1%")])
    rules = base.mark_rule().encode(x="low:Q", x2="high:Q")
    return (bars + rules).properties(height=alt.Step(28))


def even_share(players: int) -> float:
    """The win rate of a seat if the game were fair: 1 / players."""
    return 1 / players if players else math.nan


def race(frame: pl.DataFrame, target: int) -> alt.LayerChart:
    """Every seat's banked score and the turn total at stake (``seat``, ``part``, ``points``),
    stacked, against the target (a rule)."""
    bars = alt.Chart(frame).mark_bar().encode(
        y=alt.Y("seat:N", title=None, sort=None),
        x=alt.X("sum(points):Q", title="Points", scale=alt.Scale(domain=[0, max(target, 1)])),
        color=alt.Color("part:N", title=None, sort=["Banked", "Turn total at stake"]),
        order=alt.Order("part:N"),
        tooltip=[alt.Tooltip("seat:N", title="Seat"), alt.Tooltip("part:N", title="Part"),
                 alt.Tooltip("points:Q", title="Points")])
    goal = alt.Chart(pl.DataFrame({"target": [target]})).mark_rule(strokeDash=[4, 4]).encode(
        x="target:Q")
    return (bars + goal).properties(title=f"The race to {target}", height=alt.Step(30))
