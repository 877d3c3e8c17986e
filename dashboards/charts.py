"""Pure chart builders: ``frame -> alt.Chart``. No I/O, no Streamlit.

Each builder takes the frame a query (or :mod:`dashboards.stats`) returned and gives a chart
whose titles say what is shown. Simulated games are told apart by a ``kind`` colour or facet
wherever a frame carries ``kind``. The charts of every game's frames are here; a game's own
charts (its sources, Eras, endings) are in its room (``dashboards/<game>/charts.py``).
"""

from __future__ import annotations

import re
from typing import Any

import altair as alt
import polars as pl

#: what the builders return (``alt.layer`` may give a layer or a facet chart)
ChartLike = alt.Chart | alt.LayerChart | alt.FacetChart

#: seat colours when a game declares none for a seat's faction
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#17becf", "#bcbd22")
KIND_COLOURS = {"human": "#1f77b4", "simulated": "#ff7f0e", "walkthrough": "#7f7f7f",
                "illustrative": "#9467bd"}
#: the kinds of game in the order pages offer them, and their names in the interface
KIND_ORDER = ["human", "simulated", "walkthrough", "illustrative"]
KIND_LABELS = {"human": "Human playtests", "simulated": "Simulated games (bots)",
               "walkthrough": "Walkthroughs", "illustrative": "Illustrative examples"}
SEVERITY_COLOURS = {"error": "#d62728", "warning": "#ff9f1a", "info": "#7f7f7f"}


def _count_axis(title: str) -> alt.Axis:
    """An axis of whole numbers: no 0.5 ticks on a count."""
    return alt.Axis(title=title, tickMinStep=1, format="d")


def _clean(df: pl.DataFrame) -> pl.DataFrame:
    """Cast columns Vega-Lite cannot type (all-null, objects, decimals) to plain types."""
    fixes = []
    for name, dtype in df.schema.items():
        if dtype == pl.Null or dtype == pl.Object:
            fixes.append(pl.col(name).cast(pl.Utf8))
        elif isinstance(dtype, pl.Decimal):
            fixes.append(pl.col(name).cast(pl.Float64))
        elif isinstance(dtype, pl.List | pl.Struct | pl.Array):
            fixes.append(pl.col(name).map_elements(str, return_dtype=pl.Utf8))
    return df.with_columns(fixes) if fixes else df


#: channel classes for shorthand strings given to ``encode``
_CHANNELS: dict[str, Any] = {
    "x": alt.X, "y": alt.Y, "x2": alt.X2, "y2": alt.Y2, "color": alt.Color, "shape": alt.Shape,
    "xOffset": alt.XOffset, "yOffset": alt.YOffset, "tooltip": alt.Tooltip,
    "strokeDash": alt.StrokeDash, "size": alt.Size, "opacity": alt.Opacity,
}


#: a column's title in a chart's tooltip or legend where its builder gives none (any other
#: column: its name with spaces, capitalised); a reader never sees ``player_count`` or ``lo``
FIELD_TITLES = {
    "game_id": "Game", "game": "Game", "player_count": "Players", "session_type": "Session type",
    "kind": "Kind of game", "n": "Games", "games": "Games", "mean": "Mean", "median": "Median",
    "low": "95% interval: from", "high": "95% interval: to", "lo": "Lowest", "hi": "Highest",
    "q1": "Lower quartile", "q3": "Upper quartile", "source_name": "Source", "source": "Source",
    "ending_name": "World Ending", "ending": "World Ending", "seat_games": "Seat-games",
    "per_seat": "Mean per seat-game", "share": "Share", "expected": "Even share",
    "wins": "Wins", "won": "Won", "findings": "Findings", "code": "Finding code",
    "rule": "Rule section", "severity": "Severity", "total_minutes": "Minutes",
    "turn_order": "Turn order", "mode_name": "Mode", "era_label": "Era", "met_round": "Round met",
    "final_round": "Round the final round began", "what": "What", "count": "Count",
    "group": "Group", "leverage": "Leverage", "mandate": "Mandate", "appearances": "Appearances",
    "rate": "Rate", "completeness": "Share captured", "missing": "Missing items",
    "protocol": "Protocol", "pick": "Selection", "item": "Item", "label": "Band",
}
_SHORTHAND = re.compile(r"^(?:(\w+)\()?([^():]*)\)?(?::[A-Za-z]+)?$")
#: channels whose title a reader sees in a legend (positional titles are each builder's: a
#: title added to one layer's x would merge with its sibling's, "Win share, Lowest")
_LEGENDS = ("color", "fill", "stroke", "shape", "size", "opacity", "strokeDash")


def field_title(shorthand: str) -> str:
    """The words for a column (``player_count`` -> "Players", ``sum(observations)`` ->
    "Observations")."""
    m = _SHORTHAND.match(shorthand)
    field = (m.group(2) if m else shorthand) or (m.group(1) if m else "") or shorthand
    return FIELD_TITLES.get(field, field.replace("_", " ").strip().capitalize())


def _titled(value: Any) -> Any:
    """A channel object with a title in words where it had none."""
    kwds = getattr(value, "_kwds", {})
    if kwds.get("title", alt.Undefined) is not alt.Undefined:
        return value
    field = kwds.get("shorthand", alt.Undefined)
    if not isinstance(field, str) or not field:
        field = kwds.get("field", alt.Undefined)
    if not isinstance(field, str) or not field:
        return value
    out = value.copy(deep=False)
    out.title = field_title(field)
    return out


def _channel(name: str, value: Any) -> Any:
    if isinstance(value, str) and name in _CHANNELS:
        value = _CHANNELS[name](value)
    if isinstance(value, list) and name == "tooltip":
        return [_titled(alt.Tooltip(v) if isinstance(v, str) else v) for v in value]
    if name == "tooltip" and isinstance(value, alt.Tooltip):
        return _titled(value)
    if name in _LEGENDS and hasattr(value, "to_dict"):
        return _titled(value)
    return value


class _Chart(alt.Chart):
    """``alt.Chart`` whose ``encode`` turns shorthand strings into channel objects first.

    Altair wraps a bare string (``"low:Q"``, each tooltip field) with ``from_dict``, which
    hashes the JSON of every schema class each time: about 7 ms per string, 0.1-0.25 s per
    page. The chart is the same; only the way it is built changes."""

    def encode(self, *args: Any, **kwargs: Any) -> Any:
        return super().encode(*args, **{k: _channel(k, v) for k, v in kwargs.items()})


def interval_layers(summary: pl.DataFrame, x: alt.X) -> list[alt.Chart]:
    """The 95% interval (error bar) and the mean (tick) per player count of a duration
    summary; none when no interval was computed."""
    if summary.is_empty() or summary["low"].drop_nulls().len() == 0:
        return []
    ci = summary.filter(pl.col("low").is_not_null())
    return [
        _chart(ci).mark_errorbar(thickness=2, color="black")
        .encode(x=x, y=alt.Y("low:Q", title="Minutes"), y2="high:Q",
                tooltip=["player_count", "n", "mean", "low", "high"]),
        _chart(ci).mark_tick(color="black", thickness=2, size=24)
        .encode(x=x, y=alt.Y("mean:Q", title="Minutes")),
    ]


def _chart(df: pl.DataFrame, **kwargs: object) -> alt.Chart:
    return _Chart(_clean(df), **kwargs)  # type: ignore[arg-type]


def _kind_colour(title: str = "Games") -> alt.Color:
    return alt.Color(
        "kind:N",
        title=title,
        scale=alt.Scale(domain=list(KIND_COLOURS), range=list(KIND_COLOURS.values())),
    )


def findings_by_code(df: pl.DataFrame) -> alt.Chart:
    """Horizontal bars: findings per code, coloured by severity, rule section in the tooltip."""
    return (
        _chart(df, title="Findings by code")
        .mark_bar()
        .encode(
            y=alt.Y("code:N", sort="-x", title="Finding code", axis=alt.Axis(labelLimit=320)),
            x=alt.X("findings:Q", axis=_count_axis("Findings")),
            color=alt.Color(
                "severity:N",
                scale=alt.Scale(domain=list(SEVERITY_COLOURS), range=list(SEVERITY_COLOURS.values())),
            ),
            tooltip=["code", "rule", "severity", "findings", "games"],
        )
    )


def findings_by_rule(df: pl.DataFrame) -> alt.Chart:
    """Bars: findings per cited rule section."""
    agg = df.group_by("rule").agg(pl.col("findings").sum(), pl.col("games").sum())
    return (
        _chart(agg, title="Findings by rule section")
        .mark_bar()
        .encode(
            y=alt.Y("rule:N", sort="-x", title="Rule section", axis=alt.Axis(labelLimit=420)),
            x=alt.X("findings:Q", axis=_count_axis("Findings")),
            tooltip=["rule", "findings"],
        )
    )


def duration_chart(games: pl.DataFrame, summary: pl.DataFrame, band: tuple[float, float],
                   band_players: int = 4) -> ChartLike:
    """Total minutes per game by player count, the mean's 95% interval, and the hypothesis band.

    ``band`` is the designers' duration hypothesis (75-100 minutes) drawn at ``band_players``.
    """
    band_df = pl.DataFrame(
        {"player_count": [band_players], "low": [band[0]], "high": [band[1]],
         "label": [f"hypothesis {band[0]:.0f}-{band[1]:.0f} min at {band_players} players"]}
    )
    counts = sorted({int(v) for v in games["player_count"].drop_nulls().to_list()} | {band_players})
    x = alt.X("player_count:O", title="Players", scale=alt.Scale(domain=counts),
              axis=alt.Axis(labelAngle=0))
    band_layer = (  # a rect fills its player count's band, at any width (screen or file)
        _chart(band_df)
        .mark_rect(opacity=0.18, color="#2ca02c")
        .encode(x=x, y=alt.Y("low:Q", title="Minutes"), y2="high:Q", tooltip=["label"])
    )
    points = (
        _chart(games)
        .mark_circle(size=70, opacity=0.75)
        .encode(
            x=x,
            y=alt.Y("total_minutes:Q", title="Minutes"),
            color=_kind_colour(),
            tooltip=["game_id", "player_count", "session_type", "total_minutes"],
        )
    )
    layers: list[alt.Chart] = [band_layer, points]
    layers += interval_layers(summary, x)
    return alt.layer(*layers, title="Total duration by player count (band: designers' hypothesis)")


def turn_time_chart(df: pl.DataFrame) -> ChartLike:
    """Box plot (min to max) of recorded per-turn seconds by action and player count, from the
    statistics :func:`dashboards.queries.turn_time_stats` computed."""
    return box_chart(df, "action", "Action", "Seconds", colour="player_count",
                     title="Recorded turn times by action")


def observations_chart(df: pl.DataFrame, by: str) -> alt.Chart:
    """Observation counts by category, split by ``by`` (era or rule).

    ``df`` holds counts (``observations``) per category and ``by``, counted in SQL: the bars
    sum them, as ``count()`` over one row per observation did (that sent every observation of
    the warehouse to the browser)."""
    return (
        _chart(df, title=f"Observations by category and {by}")
        .mark_bar()
        .encode(
            y=alt.Y("category:N", title="Category", sort="-x"),
            x=alt.X("sum(observations):Q", axis=_count_axis("Observations")),
            color=alt.Color(f"{by}:N", title=by.capitalize()),
            tooltip=["category", by, alt.Tooltip("sum(observations):Q", title="Observations")],
        )
    )


def completeness_chart(df: pl.DataFrame) -> alt.Chart:
    """Capture completeness (0-1) of each session against its protocol."""
    return (
        _chart(df, title="Capture completeness by session")
        .mark_bar()
        .encode(
            y=alt.Y("game_id:N", title="Game", sort="x"),
            x=alt.X("completeness:Q", title="Share of protocol items captured",
                    scale=alt.Scale(domain=[0, 1])),
            tooltip=["game_id", "protocol", "completeness", "missing"],
        )
    )


def box_chart(df: pl.DataFrame, category: str, category_title: str, value_title: str,
              horizontal: bool = False, colour: str | None = None,
              title: str | None = None) -> ChartLike:
    """A min-max box plot from statistics computed in SQL (``lo``, ``q1``, ``median``, ``q3``,
    ``hi`` per group; DuckDB's ``quantile_cont`` interpolates as Vega's box plot does):
    whiskers from the lowest to the highest value, the box between the quartiles, a tick at
    the median; one box per ``category`` (beside each other per ``colour`` when given).
    Sending every value to the browser for ``mark_boxplot`` cost seconds."""
    cat: Any = (alt.Y if horizontal else alt.X)(
        f"{category}:N", title=category_title,
        axis=alt.Axis(labelAngle=0) if not horizontal else alt.Axis())
    val: Any = alt.X if horizontal else alt.Y
    end = "x2" if horizontal else "y2"
    extra: dict[str, Any] = {}
    tip = [category, "lo", "q1", "median", "q3", "hi"]
    if colour is not None:
        label = "Players" if colour == "player_count" else colour.replace("_", " ").capitalize()
        extra = {("yOffset" if horizontal else "xOffset"): f"{colour}:N",
                 "color": alt.Color(f"{colour}:N", title=label)}
        tip.insert(1, colour)
    whisker = _chart(df).mark_rule().encode(cat, val("lo:Q", title=value_title),
                                            **{end: "hi:Q"}, **extra)
    box = _chart(df).mark_bar(size=14).encode(cat, val("q1:Q", title=value_title),
                                              **{end: "q3:Q"}, **extra, tooltip=tip)
    extra.pop("color", None)
    median = _chart(df).mark_tick(color="white", size=14).encode(
        cat, val("median:Q", title=value_title), **extra)
    return alt.layer(whisker, box, median, title=title or "")


def survey_chart(df: pl.DataFrame) -> ChartLike:
    """Numeric survey answers: distribution per item (box statistics per ``item``)."""
    return box_chart(df, "item", "Item", "Answer", horizontal=True,
                     title="Survey answers (numeric items)")


def win_share_chart(df: pl.DataFrame, by: str, title: str) -> ChartLike:
    """Win share per ``by`` with Wilson 95% intervals and the even-share mark, by kind."""
    y = alt.Y(f"{by}:N", title=by.capitalize())
    points = (
        _chart(df)
        .mark_point(filled=True, size=90)
        .encode(
            x=alt.X("share:Q", title="Win share", scale=alt.Scale(domain=[0, 1])),
            y=y,
            yOffset="kind:N",
            color=_kind_colour(),
            tooltip=[by, "kind", "games", "wins", "share", "low", "high", "expected"],
        )
    )
    bars = (
        _chart(df)
        .mark_rule(strokeWidth=2)
        .encode(x="low:Q", x2="high:Q", y=y, yOffset="kind:N", color=_kind_colour())
    )
    even = (
        _chart(df)
        .mark_tick(color="black", thickness=2, size=18)
        .encode(x="expected:Q", y=y, tooltip=["expected"])
    )
    return alt.layer(bars, points, even, title=title)


def selection_share_chart(df: pl.DataFrame) -> alt.Chart:
    """Share of each pick among all selections, by kind of game."""
    return (
        _chart(df, title="Action choice: share of selections")
        .mark_bar()
        .encode(
            x=alt.X("share:Q", title="Share of selections"),
            y=alt.Y("pick:N", title="Selection", sort="-x"),
            yOffset="kind:N",
            color=_kind_colour(),
            tooltip=["pick", "kind", "n", "share"],
        )
    )
