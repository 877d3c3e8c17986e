"""World Endings: how often each ending happens, AGI emergence, claims and the Open test."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import charts, filters, queries, stats, store, ui
from dashboards.filters import SESSION_TYPE_LABELS

st.title("World Endings")
st.caption(
    "AGI emerges only when a fully paid Publication claim with two supported modules wins. "
    "The ending is Open only if final Collective Trust reaches Setup Collective Trust plus the "
    "player count and unresolved Systemic Risk stays below the player count (core rules §11)."
)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    ends = queries.endings(db, f)
    if ends.is_empty():
        ui.empty_state("No complete games match. " + ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    per_kind = ends.group_by("kind").len()
    kind = ui.pick_kind({r["kind"]: ui.plural(r["len"], "complete game")
                         for r in per_kind.iter_rows(named=True)}, "end_kind")
    ends = ends.filter(pl.col("kind") == kind)
    n = ends.height
    agi = int(ends["agi"].fill_null(False).sum())
    opened = int(ends["open"].fill_null(False).sum())
    lo, hi = stats.wilson(agi, n)
    olo, ohi = stats.wilson(opened, n)
    c = st.columns(3)
    c[0].metric("Complete games", n)
    c[1].metric("AGI emergence rate", f"{agi / n:.0%}", help=f"95% Wilson interval {lo:.0%}-{hi:.0%}")
    c[2].metric("Open endings", f"{opened / n:.0%}", help=f"95% Wilson interval {olo:.0%}-{ohi:.0%}")
    st.caption(f"AGI {agi}/{n} (95% interval {lo:.0%}-{hi:.0%}); Open {opened}/{n} "
               f"(95% interval {olo:.0%}-{ohi:.0%}).")
    if n < stats.MIN_GAMES_WARNING:
        st.warning(f"Only {ui.plural(n, 'complete game')}: these frequencies are indicative, "
                   "not a finding.", icon=":material/warning:")
    facet = st.selectbox("Split by", ["player_count", "profile", "session_type"],
                         key="end_facet", format_func=lambda v: v.replace("_", " "))
    counts = (
        ends.with_columns(
            pl.col("ending").replace_strict(charts.ENDING_NAMES, default=pl.col("ending"))
            .fill_null("(not recorded)").alias("ending_name"),
            pl.col(facet).cast(pl.Utf8).replace_strict(SESSION_TYPE_LABELS, default=pl.col(facet).cast(pl.Utf8)),
        )
        .group_by(["ending_name", facet]).agg(pl.len().alias("games"))
        .with_columns((pl.col("games") / pl.col("games").sum().over(facet)).round(3).alias("share"))
        .sort(["ending_name", facet])
    )
    ui.show_chart(charts.endings_chart(counts, facet), f"endings-by-{facet}")
    ui.show_table(counts, f"endings-by-{facet}")

    st.subheader("The Open test's margins")
    ui.show_chart(charts.open_margins_chart(ends), "open-test-margins")
    outcomes = ends.drop("kind")
    ui.show_table(outcomes.head(ui.TABLE_ROWS), "outcomes", total=outcomes.height,
                  full=lambda: outcomes)

    st.subheader("Claim strengths")
    strengths = queries.claim_strengths(db, f)  # counted in SQL
    strengths = (strengths.filter(pl.col("kind") == kind).drop("kind")
                 if not strengths.is_empty() else strengths)
    if strengths.is_empty():
        ui.empty_state("No Dossier claims recorded in the matching games.")
    else:
        ui.show_chart(charts.claim_strength_chart(strengths), "claim-strengths")
        first = queries.claims(db, f, kind, ui.TABLE_ROWS).drop("kind")
        ui.show_table(ui.with_names(first, "faction"), "claims",
                      total=int(strengths["claims"].sum()),
                      full=lambda: ui.with_names(queries.claims(db, f, kind).drop("kind"),
                                                 "faction"))
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
