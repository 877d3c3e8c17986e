"""Mandate 2038's charts: its faction colours, its score sources, Eras, phases and World
Endings, and the builders of its sections of the shared Scoring, End conditions and Duration
pages (:mod:`dashboards.mandate2038.sections`). Pure ``frame -> alt.Chart`` functions, like the
shared builders in :mod:`dashboards.charts` whose helpers they use."""

from __future__ import annotations

import altair as alt
import polars as pl

from dashboards.charts import ChartLike, _chart, _count_axis, _kind_colour, interval_layers
from engine.mandate2038.ruleset import VOCABULARY

#: colours of the six institutions (FACTS.md §1, the designers' faction colours)
FACTION_COLOURS: dict[str, str] = {
    "coalition_lab": "#ff003c",
    "platform_empire": "#0066ff",
    "imperial_research_lab": "#00c060",
    "vertical_empire": "#e000bb",
    "safety_laboratory": "#00b8d4",
    "foundry": "#e6c800",
    # the content pack's own ids (data/content/mandate2038): same institutions, same colours
    "dovetalis": "#ff003c",
    "loopfold": "#0066ff",
    "mirevanta": "#00c060",
    "kestralyn": "#e000bb",
    "orisonix": "#00b8d4",
    "corthaven": "#e6c800",
}
#: the words of its ledger sources, World Endings and phases: its declaration's vocabulary
ENDING_NAMES: dict[str, str] = dict(VOCABULARY.end_conditions)
SOURCE_NAMES: dict[str, str] = dict(VOCABULARY.score_sources)
#: one colour per ledger source, whatever the filter leaves on screen (a source keeps its
#: colour when another source has no entries in the filtered games)
SOURCE_COLOURS = {
    "Starting Mandate": "#bab0ac", "Customers": "#4c78a8", "Capability thresholds": "#f58518",
    "Trust thresholds": "#54a24b", "Era Mandates": "#b279a2", "Headlines": "#eeca3b",
    "Fusion": "#e45756", "Faction abilities": "#72b7b2", "Offline penalty": "#9d755d",
}  # checkpoint resyncs are not a source of Mandate: the queries leave them out
#: Era labels in play order (the ledger's entries with no Era: start and final scoring)
ERA_LABELS = ["Start", "Era I", "Era II", "Era III", "Era IV", "Final scoring"]
PHASE_NAMES: dict[str, str] = dict(VOCABULARY.phases)  # declared in play order
PHASE_ORDER = list(PHASE_NAMES)
#: phase names in play order (chart axes and tables share it)
PHASE_SEQUENCE = [PHASE_NAMES[p] for p in PHASE_ORDER]


def _source_colour() -> alt.Color:
    return alt.Color("source_name:N", title="Source",
                     scale=alt.Scale(domain=list(SOURCE_COLOURS), range=list(SOURCE_COLOURS.values())))


def phase_chart(summary: pl.DataFrame) -> ChartLike:
    """Mean minutes per phase (with 95% interval) for each player count.

    ``phase`` holds the phase names (:data:`PHASE_NAMES`); they are drawn in play order.
    """
    x = alt.X("phase:N", sort=PHASE_SEQUENCE, title="Phase", axis=alt.Axis(labelAngle=0))
    bars = (
        _chart(summary)
        .mark_bar(opacity=0.8)
        .encode(
            x=x,
            xOffset="player_count:N",
            y=alt.Y("mean:Q", title="Mean minutes (95% interval)"),
            color=alt.Color("player_count:N", title="Players"),
            tooltip=["phase", "player_count", "n", "mean", "median", "low", "high"],
        )
    )
    err = (
        _chart(summary.filter(pl.col("low").is_not_null()) if "low" in summary.columns else summary)
        .mark_errorbar(color="black")
        .encode(x=x, xOffset="player_count:N",
                y=alt.Y("low:Q", title="Mean minutes (95% interval)"), y2="high:Q")
    )
    return alt.layer(bars, err, title="Minutes per phase by player count")


def ledger_by_faction(df: pl.DataFrame) -> alt.Chart:
    """Mean Mandate per seat by source, for each faction (stacked bars)."""
    return (
        _chart(df, title="Mean Mandate per seat-game by source and faction",
               height=alt.Step(30))
        .mark_bar()
        .encode(
            y=alt.Y("faction:N", title="Faction", scale=alt.Scale(paddingInner=0.25),
                    axis=alt.Axis(labelLimit=220)),
            x=alt.X("per_seat:Q", title="Mean Mandate per seat-game", stack="zero"),
            color=_source_colour(),
            tooltip=["faction", "source_name", "per_seat", "mandate", "seat_games"],
        )
    )


def ledger_by_era(df: pl.DataFrame) -> alt.Chart:
    """Total Mandate by source in each Era (Era empty: start or final scoring)."""
    return (
        _chart(df, title="Mandate by source and Era")
        .mark_bar()
        .encode(
            x=alt.X("era_label:N", title="Era", sort=ERA_LABELS, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("mandate:Q", axis=_count_axis("Mandate (sum)")),
            color=_source_colour(),
            tooltip=["era_label", "source_name", "mandate"],
        )
    )


def ledger_winners(df: pl.DataFrame) -> alt.Chart:
    """Mean Mandate per seat by source: winners against the others."""
    return (
        _chart(df, title="Winners vs others: mean Mandate per seat by source")
        .mark_bar()
        .encode(
            x=alt.X("per_seat:Q", title="Mean Mandate per seat-game"),
            y=alt.Y("source_name:N", title="Source"),
            yOffset="group:N",
            color=alt.Color("group:N", title="Seats"),
            tooltip=["group", "source_name", "per_seat", "seat_games"],
        )
    )


def endings_chart(df: pl.DataFrame, facet: str) -> alt.Chart:
    """Frequency of the four World Endings, split by ``facet`` (a column of ``df``)."""
    return (
        _chart(df, title=f"World Endings by {facet.replace('_', ' ')}")
        .mark_bar()
        .encode(
            x=alt.X("games:Q", axis=_count_axis("Games")),
            y=alt.Y("ending_name:N", title="World Ending",
                    scale=alt.Scale(domain=list(ENDING_NAMES.values())),
                    axis=alt.Axis(labelLimit=320)),
            color=alt.Color(f"{facet}:N", title=facet.replace("_", " ").capitalize()),
            yOffset=f"{facet}:N",
            tooltip=["ending_name", facet, "games", "share"],
        )
    )


def open_margins_chart(df: pl.DataFrame) -> ChartLike:
    """The games' Open test: Collective Trust margin vs Systemic Risk margin, one circle per
    margin pair, kind and result, its area by how many games it stands for (``df``:
    :func:`dashboards.mandate2038.sections.margin_points`, counted in SQL).

    Open needs trust margin >= 0 and Systemic Risk below the player count (risk margin > 0).
    """
    df = df.with_columns(pl.when(pl.col("open")).then(pl.lit("Open")).otherwise(pl.lit("Not open"))
                         .alias("open"))
    pts = (
        _chart(df)
        .mark_circle(opacity=0.8)
        .encode(
            x=alt.X("trust_margin:Q", axis=_count_axis("Collective Trust − Open threshold")),
            y=alt.Y("risk_margin:Q",
                    axis=alt.Axis(title="Player count − unresolved Systemic Risk", tickMinStep=1,
                                  format="d", titlePadding=12)),
            size=alt.Size("games:Q", title="Games"),
            color=_kind_colour(),
            shape=alt.Shape("open:N", title="Open test",
                            scale=alt.Scale(domain=["Open", "Not open"])),
            tooltip=["games", "kind", "open", "trust_margin", "risk_margin"],
        )
    )
    zero_x = _chart(pl.DataFrame({"v": [0]})).mark_rule(strokeDash=[4, 4]).encode(x="v:Q")
    zero_y = _chart(pl.DataFrame({"v": [0.5]})).mark_rule(strokeDash=[4, 4]).encode(y="v:Q")
    return alt.layer(pts, zero_x, zero_y, title="Open test margins (Open: right of and above the lines)")


def claim_strength_chart(df: pl.DataFrame) -> alt.Chart:
    """Histogram of Dossier claim strengths, eligible claims apart (``df``: claims counted per
    strength and eligibility in SQL, :func:`dashboards.mandate2038.queries.claim_strengths`)."""
    df = df.with_columns(pl.when(pl.col("eligible")).then(pl.lit("Eligible"))
                         .otherwise(pl.lit("Not eligible")).alias("eligible"))
    return (
        _chart(df, title="Dossier claim strengths")
        .mark_bar()
        .encode(
            x=alt.X("strength:O", title="Claim strength", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("sum(claims):Q", axis=_count_axis("Claims")),
            color=alt.Color("eligible:N", title="Claim",
                            scale=alt.Scale(domain=["Eligible", "Not eligible"])),
        )
    )


def duration_chart(points: pl.DataFrame, summary: pl.DataFrame, band: tuple[float, float],
                   band_players: int = 4) -> ChartLike:
    """Total minutes by player count: one circle per player count, kind and whole minute, its
    area by the games it stands for (``points``:
    :func:`dashboards.mandate2038.queries.duration_points`, counted in SQL; ``game_id`` names
    the game of a one-game circle), the mean's 95% interval (``summary``) and the designers'
    hypothesis band drawn at ``band_players``."""
    band_df = pl.DataFrame(
        {"player_count": [band_players], "low": [band[0]], "high": [band[1]],
         "label": [f"hypothesis {band[0]:.0f}-{band[1]:.0f} min at {band_players} players"]}
    )
    counts = sorted({int(v) for v in points["player_count"].drop_nulls().to_list()} | {band_players})
    x = alt.X("player_count:O", title="Players", scale=alt.Scale(domain=counts),
              axis=alt.Axis(labelAngle=0))
    y = alt.Y("minute:Q", title="Minutes")
    band_layer = (  # a rect fills its player count's band, at any width (screen or file)
        _chart(band_df)
        .mark_rect(opacity=0.18, color="#2ca02c")
        .encode(x=x, y=alt.Y("low:Q", title="Minutes"), y2="high:Q", tooltip=["label"])
    )
    dots = (
        _chart(points)
        .mark_circle(opacity=0.75)
        .encode(
            x=x, y=y,
            size=alt.Size("games:Q", title="Games", scale=alt.Scale(range=[30, 400])),
            color=_kind_colour(),
            tooltip=["player_count", "kind",
                     alt.Tooltip("minute:Q", title="minutes (whole)"), "games",
                     alt.Tooltip("game_id:N", title="game (a single game)")],
        )
    )
    layers: list[alt.Chart] = [band_layer, dots]
    layers += interval_layers(summary, x)
    return alt.layer(*layers, title="Total duration by player count (band: designers' hypothesis; "
                     "circles: games per whole minute)")
