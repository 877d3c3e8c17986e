"""Observation protocols: observations by category, Era and rule; capture completeness; survey."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import charts, filters, protocols, queries, store, ui

st.title("Observation protocols")


@st.cache_data(show_spinner="Reading capture completeness...", max_entries=8)
def _completeness(db: str, stamp: float,
                  games: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Capture completeness per game, from the warehouse table ``capture`` (scored at ingest;
    re-scoring the archived logs only for a warehouse without it). Cached per database file
    version and game list."""
    return protocols.completeness(Path(db), games)

st.caption(
    "What the facilitators captured (FACTS.md §11.2-11.4): observations by category, Era and "
    "rule section; rules lookups and interventions; each session's capture completeness against "
    "its versioned protocol; and the post-game survey."
)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    protocol, problem = protocols.load(None)
    names = {c.id: c.name for c in protocol.categories} if protocol is not None else {}
    obs = queries.observations(db, f)
    if obs.is_empty():
        ui.empty_state("No observations in the matching games. " + ui.NO_GAMES)
    else:
        obs = obs.with_columns(
            pl.col("category").replace_strict(names, default=pl.col("category"))
            .alias("category"),
            pl.col("era").cast(pl.Utf8).fill_null("(no Era)").alias("era"),
        )
        by = st.radio("Split by", ["era", "rule"], horizontal=True, key="obs_split")
        ui.show_chart(charts.observations_chart(obs, by), f"observations-by-{by}")
        st.subheader("Rules lookups and interventions")
        lookups = obs.filter(pl.col("category").str.to_lowercase().str.contains(
            "lookup|intervention|deviation"))
        if lookups.is_empty():
            st.write("No rules lookups or interventions were observed in the matching games.")
        else:
            ui.show_table(lookups.select("game_id", "category", "rule", "era", "cycle", "seat",
                                         "text", "minutes"), "rules-lookups")
        with st.expander(f"All {obs.height} observations"):
            ui.show_table(obs, "observations")
    recorded = queries.interventions(db, f)
    if not recorded.is_empty():
        st.subheader("Interventions and deviations in the receipts")
        ui.show_table(recorded, "receipt-interventions")

    st.subheader("Capture completeness")
    if problem:
        st.warning(problem, icon=":material/warning:")
    else:
        st.caption(f"Protocol: {protocol.title} ({protocol.reference}), "
                   f"{len(protocol.checklist)} checklist items.")
    others = st.checkbox("Score simulations and walkthroughs too", key="obs_nonhuman",
                         help="The protocol is for physical sessions; off by default.")
    games = queries.protocol_games(db, f, others)
    if games.is_empty():
        ui.empty_state("No human sessions match; tick the box above to score the others. "
                       + ui.NO_GAMES)
    else:
        limit = 100
        stamp = db.stat().st_mtime if db.exists() else 0.0
        per_game, per_item, misfits = _completeness(str(db), stamp, games.head(limit))
        if not store.table_exists(db, "capture"):
            st.caption("This warehouse predates the `capture` table: the archived logs were "
                       "re-scored. Run `playtest rebuild` to score them at ingest.")
        if "completeness" in per_game.columns and per_game["completeness"].drop_nulls().len():
            ui.show_chart(charts.completeness_chart(per_game.drop_nulls("completeness")),
                          "capture-completeness")
        ui.show_table(per_game, "capture-completeness")
        if not per_item.is_empty():
            missed = (per_item.group_by(["item", "group"])
                      .agg((~pl.col("captured")).sum().alias("sessions_missing"),
                           pl.len().alias("sessions"))
                      .sort("sessions_missing", descending=True))
            by_group = (per_item.group_by("group")
                        .agg(pl.col("captured").mean().round(3).alias("share_captured"),
                             pl.len().alias("items_x_sessions"))
                        .sort("share_captured"))
            st.caption("By checklist group (share of items captured over all sessions):")
            st.dataframe(by_group, hide_index=True)
            with st.expander("Which checklist items are missed most"):
                ui.show_table(missed, "capture-items")
        if not misfits.is_empty():
            st.warning(f"{ui.plural(misfits.height, 'observation or survey event')} "
                       f"{'does' if misfits.height == 1 else 'do'} not fit the "
                       "protocol (unknown category or item, invalid answer, wrong seat).",
                       icon=":material/warning:")
            with st.expander("Events that do not fit the protocol"):
                ui.show_table(misfits, "protocol-misfits")
        if games.height > limit:
            st.caption(f"Scored the newest {limit} of {games.height} sessions "
                       "(narrow the filters to see others).")

    st.subheader("Survey")
    sv = queries.survey(db, f)
    if sv.is_empty():
        ui.empty_state("No survey answers in the matching games.")
    else:
        questions = {s.id: s.question for s in protocol.survey} if protocol is not None else {}
        numeric = sv.filter(pl.col("value_num").is_not_null() & pl.col("value_text").is_null())
        if not numeric.is_empty():
            ui.show_chart(charts.survey_chart(numeric), "survey-scales")
            summary = (numeric.group_by("item").agg(pl.len().alias("answers"),
                                                    pl.col("value_num").mean().round(2).alias("mean"))
                       .with_columns(pl.col("item").replace_strict(questions, default="")
                                     .alias("question")).sort("item"))
            ui.show_table(summary, "survey-summary")
        text = sv.filter(pl.col("value_text").is_not_null()).with_columns(
            pl.col("item").replace_strict(questions, default="").alias("question"))
        if not text.is_empty():
            st.caption("Answers in words: could every player explain why the winner won; each "
                       "institution's signature moment.")
            ui.show_table(text.select("game_id", "seat", "faction", "item", "question",
                                      "value_text"), "survey-text")
    filters.show_exclusions(db, f)


ui.guarded(render)
