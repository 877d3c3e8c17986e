"""Chart builders of the Variants view: pure ``frame -> alt.Chart`` functions over
:func:`dashboards.variant_queries.rows_frame` (docs/variants.md)."""

from __future__ import annotations

import altair as alt
import polars as pl


def deltas_chart(rows: pl.DataFrame, title: str = "") -> alt.LayerChart:
    """Paired difference (variant - baseline) per metric, one row per metric, with its interval
    as a bar and a rule at zero; a significant difference is drawn in its own colour."""
    df = rows.select("metric", "difference", "low", "high", "significant").with_columns(
        pl.when(pl.col("significant")).then(pl.lit("interval excludes 0"))
        .otherwise(pl.lit("within noise")).alias("reading"))
    base = alt.Chart(df.to_pandas()).encode(
        y=alt.Y("metric:N", sort=None, title=None))
    band = base.mark_rule(strokeWidth=3).encode(
        x=alt.X("low:Q", title="difference (variant - baseline)"), x2="high:Q",
        color=alt.Color("reading:N", title=None,
                        scale=alt.Scale(domain=["interval excludes 0", "within noise"],
                                        range=["#d62728", "#9e9e9e"])))
    point = base.mark_point(filled=True, size=60, color="black").encode(
        x="difference:Q",
        tooltip=["metric", alt.Tooltip("difference:Q", format=".3f"),
                 alt.Tooltip("low:Q", format=".3f"), alt.Tooltip("high:Q", format=".3f")])
    zero = alt.Chart(pl.DataFrame({"x": [0.0]}).to_pandas()).mark_rule(
        strokeDash=[4, 4]).encode(x="x:Q")
    return (band + point + zero).properties(title=title, height=alt.Step(22))


def sweep_chart(sweep: pl.DataFrame) -> alt.FacetChart:
    """A knob's sweep: per metric, the difference from the baseline at each level as a line
    with its interval (one small panel per metric)."""
    df = sweep.select("metric", "knob", "level", "difference", "low", "high").to_pandas()
    knob = str(df["knob"].iloc[0]) if len(df) else "knob"
    base = alt.Chart(df).encode(x=alt.X("level:O", title=f"{knob} value"))
    line = base.mark_line(point=True).encode(y=alt.Y("difference:Q", title="difference"))
    band = base.mark_errorbar().encode(y=alt.Y("low:Q", title="difference"), y2="high:Q")
    zero = alt.Chart(df).mark_rule(strokeDash=[4, 4], color="gray").encode(y=alt.datum(0))
    return (band + line + zero).properties(width=180, height=120).facet(
        facet=alt.Facet("metric:N", title=None, sort=None), columns=4,
        title=f"{knob}: difference from the printed rules (intervals as bars)",
    ).resolve_scale(y="independent")


#: what the Variants page says above a study's sweeps
SWEEP_CAPTION = ("A knob over a range (`--sweep KNOB=LO..HI`): the difference from the baseline "
                 "at each value, with its interval, per metric.")


def sweep_charts(frame: pl.DataFrame) -> list[tuple[str, alt.FacetChart]]:
    """Each knob swept in a comparison's rows (:func:`dashboards.variant_queries.rows_frame`,
    one player count) with its :func:`sweep_chart`; empty when the study holds no sweep."""
    from dashboards.variant_queries import sweep_frame

    sweep = sweep_frame(frame)
    if sweep.is_empty():
        return []
    return [(str(knob), sweep_chart(sweep.filter(pl.col("knob") == knob)))
            for knob in sweep["knob"].unique(maintain_order=True).to_list()]
