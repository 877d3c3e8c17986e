"""Pure chart builders for the Vestige pages: ``frame -> alt.Chart``. No I/O, no Streamlit.

Each takes a frame from :mod:`dashboards.vestige.queries` (or a summary of one) and returns a chart
whose title says what is shown; wherever a frame carries ``kind``, simulated games are told apart
by colour.
"""

from __future__ import annotations

import altair as alt
import polars as pl

from dashboards.charts import KIND_COLOURS, ChartLike, _chart, _count_axis, field_title
from dashboards.vestige.labels import words

#: the seven mastery colours and the attribute each stands for (rulebook p. 25, "Claim Mastery")
MASTERY_COLOURS: dict[str, str] = {
    "orange": "#f28e2b",
    "green": "#59a14f",
    "purple": "#8e5fa8",
    "blue": "#4e79a7",
    "red": "#e15759",
    "yellow": "#edc948",
    "grey": "#9c9c9c",
}
DIFFICULTY_ORDER = ["nuisance", "menace"]


def _kind() -> alt.Color:
    return alt.Color("kind:N", title="Games",
                     scale=alt.Scale(domain=list(KIND_COLOURS), range=list(KIND_COLOURS.values())))


def rounds_by_players(df: pl.DataFrame) -> alt.Chart:
    """Rounds played per game by player count (one point per game, coloured by kind)."""
    return _chart(df, title="Rounds per game by player count").mark_circle(
        size=60, opacity=0.6
    ).encode(
        x=alt.X("player_count:O", title="Players"),
        y=alt.Y("rounds:Q", title="Rounds"),
        xOffset=alt.XOffset("jitter:Q"),
        color=_kind(),
        tooltip=["game_id", "player_count", "rounds", "kind", "mode"],
    ).transform_calculate(jitter="random()")


def minutes_by_rounds(df: pl.DataFrame) -> alt.Chart:
    """Total minutes against rounds, coloured by player count."""
    return _chart(df, title="Minutes by rounds played").mark_circle(size=70).encode(
        x=alt.X("rounds:Q", title="Rounds"),
        y=alt.Y("total_minutes:Q", title="Total minutes"),
        color=alt.Color("player_count:N", title="Players"),
        shape=alt.Shape("kind:N", title="Games"),
        tooltip=["game_id", "player_count", "rounds", "total_minutes", "kind"],
    )


def summary_bars(summary: pl.DataFrame, x: str, title: str, x_title: str,
                 y_title: str) -> ChartLike:
    """Means with 95% intervals (``mean``, ``low``, ``high`` from ``stats.summarise``)."""
    base = _chart(summary, title=title)
    bars = base.mark_bar(opacity=0.7).encode(
        x=alt.X(f"{x}:O", title=x_title),
        y=alt.Y("mean:Q", title=y_title),
        tooltip=[x, "n", "mean", "low", "high"],
    )
    rules = base.mark_rule().encode(x=f"{x}:O", y="low:Q", y2="high:Q")
    return alt.layer(bars, rules)


def leverage_sources(df: pl.DataFrame, by: str, title: str) -> alt.Chart:
    """Mean leverage per seat-game from each source (``source_name``, ``per_seat``), split by
    ``by`` (player count, winners vs others, mode)."""
    return _chart(df, title=title).mark_bar().encode(
        x=alt.X(f"{by}:N", title={"player_count": "Players", "group": "Seats"}.get(
            by, field_title(by)), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("per_seat:Q", title="Leverage per seat-game", stack="zero"),
        color=alt.Color("source_name:N", title="Source"),
        tooltip=[by, "source_name", "per_seat", "leverage", "seat_games"],
    )


def endgame_enders(df: pl.DataFrame) -> alt.Chart:
    """How often each condition was met and how often it was one that triggered the end."""
    long = df.unpivot(index="condition", on=["met", "triggered"], variable_name="what",
                      value_name="games").with_columns(pl.col("what").replace_strict(
                          {"met": "Met", "triggered": "Ended the game"}, default=pl.col("what")))
    return _chart(long, title="Endgame conditions: met, and among those that ended the game").mark_bar().encode(
        y=alt.Y("condition:N", title="Condition", sort="-x"),
        x=alt.X("games:Q", axis=_count_axis("Games")),
        color=alt.Color("what:N", title=""),
        yOffset="what:N",
        tooltip=["condition", "what", "games"],
    )


def final_round_histogram(df: pl.DataFrame) -> alt.Chart:
    """In which round the final round was triggered, by player count."""
    return _chart(df, title="Round in which the final round was triggered").mark_bar().encode(
        x=alt.X("final_round:O", title="Round", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("games:Q", axis=_count_axis("Games")),
        color=alt.Color("player_count:N", title="Players"),
        tooltip=["final_round", "player_count", "games"],
    )


def met_round_chart(df: pl.DataFrame) -> alt.Chart:
    """When each condition was met (round), one point per game."""
    return _chart(df, title="Round each endgame condition was met").mark_tick(thickness=2).encode(
        y=alt.Y("condition:N", title="Condition"),
        x=alt.X("met_round:Q", title="Round met"),
        color=_kind(),
        tooltip=["game_id", "condition", "met_round", "kind"],
    )


def mastery_chart(df: pl.DataFrame) -> alt.Chart:
    """Per mastery colour: share of games claimed, tied (unclaimed), nobody had a card."""
    return _chart(df, title="Mastery tiles: claimed or left unclaimed").mark_bar().encode(
        x=alt.X("share:Q", title="Share of games", stack="normalize",
                axis=alt.Axis(format="%")),
        y=alt.Y("colour:N", title="Mastery colour"),
        color=alt.Color("outcome:N", title="Outcome"),
        tooltip=["colour", "outcome", "games", "share"],
    )


def mastery_cards_chart(df: pl.DataFrame) -> alt.Chart:
    """Distribution of the winning card count per colour (claimed tiles only)."""
    df = df.with_columns(pl.col("colour").map_elements(words, return_dtype=pl.Utf8))
    return _chart(df, title="Cards needed to claim mastery").mark_bar().encode(
        x=alt.X("cards:O", title="Cards of the colour", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("games:Q", axis=_count_axis("Claims")),
        color=alt.Color("colour:N", title="Colour",
                        scale=alt.Scale(domain=[words(c) for c in MASTERY_COLOURS],
                                        range=list(MASTERY_COLOURS.values()))),
        tooltip=["colour", "cards", "games"],
    )


def nemesis_win_rate(df: pl.DataFrame) -> ChartLike:
    """Nemesis win rate by difficulty with 95% Wilson intervals (``rate``, ``low``, ``high``)."""
    base = _chart(df, title="Nemesis win rate by difficulty")
    bars = base.mark_bar(opacity=0.75).encode(
        x=alt.X("difficulty:N", title="Difficulty", sort=DIFFICULTY_ORDER),
        y=alt.Y("rate:Q", title="Games the nemesis side won", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("nemesis:N", title="Nemesis"),
        xOffset="nemesis:N",
        tooltip=["nemesis", "difficulty", "games", "won", "rate", "low", "high"],
    )
    rules = base.mark_rule().encode(x=alt.X("difficulty:N", sort=DIFFICULTY_ORDER),
                                    xOffset="nemesis:N", y="low:Q", y2="high:Q")
    return alt.layer(bars, rules)


def mode_chart(df: pl.DataFrame, title: str, y_title: str) -> ChartLike:
    """A per-mode summary (``mode_name``, ``mean``, ``low``, ``high``, ``n``) as bars with
    intervals."""
    base = _chart(df, title=title)
    bars = base.mark_bar(opacity=0.7).encode(
        x=alt.X("mode_name:N", title="Mode"),
        y=alt.Y("mean:Q", title=y_title),
        color=alt.Color("mode_name:N", legend=None),
        tooltip=["mode_name", "n", "mean", "low", "high"],
    )
    rules = base.mark_rule().encode(x="mode_name:N", y="low:Q", y2="high:Q")
    return alt.layer(bars, rules)


def region_chart(df: pl.DataFrame) -> alt.Chart:
    """Visits and control changes per region, summed over the games."""
    long = df.unpivot(index="region", on=["visits", "control_changes"], variable_name="what",
                      value_name="count").with_columns(
        pl.col("region").map_elements(words, return_dtype=pl.Utf8),
        pl.col("what").replace_strict({"visits": "Visits", "control_changes": "Control changes"},
                                      default=pl.col("what")))
    return _chart(long, title="Regions: visits and control changes").mark_bar().encode(
        y=alt.Y("region:N", title="Region", sort="-x"),
        x=alt.X("count:Q", axis=_count_axis("Count (all games)")),
        color=alt.Color("what:N", title=""),
        yOffset="what:N",
        tooltip=["region", alt.Tooltip("what:N", title="Counted"), "count"],
    )
