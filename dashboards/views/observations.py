"""Observation protocols: observations by category, part of the game and rule; capture
completeness against each game's own protocol; survey. One section per game."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import charts, filters, gameapps, protocols, queries, store, ui

st.title("Observation protocols")


@st.cache_resource(show_spinner="Reading capture completeness...", max_entries=8)
def _completeness(db: str, stamp: tuple[object, ...], games: tuple[tuple[str, str | None], ...],
                  shown: int | None = None) -> protocols.Completeness:
    """Capture completeness per game (``games``: game id and protocol), from the warehouse
    table ``capture`` (scored at ingest; re-scoring the archived logs only for a warehouse
    without it), with the first ``shown`` misfits (all when None: the CSV) and their number.
    Cached per database version (``stamp``, :func:`store.version`) and game list; kept as
    objects (the frames are never modified), not pickled as ``st.cache_data`` would."""
    frame = pl.DataFrame(list(games), schema={"game_id": pl.Utf8, "protocol": pl.Utf8},
                         orient="row")
    return protocols.completeness_shown(Path(db), frame, shown)


@st.cache_resource(show_spinner="Reading capture completeness...", max_entries=8)
def _session_completeness(db: str, stamp: tuple[object, ...], f: filters.Filters, limit: int,
                          shown: int | None = None) -> tuple[pl.DataFrame,
                                                             protocols.Completeness] | None:
    """The newest ``limit`` human sessions passing ``f`` and their capture completeness (as
    :func:`_completeness`), from the load step's ``protocol_sessions`` (one read); None for a
    warehouse without it. Cached as :func:`_completeness`."""
    sessions = queries.protocol_sessions(Path(db), f, limit)
    if sessions is None:
        return None
    return sessions, protocols.completeness_of_sessions(Path(db), sessions, shown)


st.caption(
    "What the facilitators captured, one section per game against that game's own versioned "
    "observation protocol: observations by category, part of the game (Mandate 2038's Era) and "
    "rule section; rules lookups and interventions; each session's capture completeness; and "
    "the post-game survey."
)


def _named(obs: pl.DataFrame, names: dict[str, str]) -> pl.DataFrame:
    """Observation rows with the protocol's category names and Eras as words."""
    return obs.with_columns(
        pl.col("category").replace_strict(names, default=pl.col("category")).alias("category"),
        pl.col("era").cast(pl.Utf8).fill_null("not recorded").alias("era"),
    )


def _opened(label: str, name: str) -> st.delta_generator.DeltaGenerator | None:
    """An expander whose content is drawn only once it is opened (a rerun when it is): the
    container to draw into then, else None. Its tables' reads are not part of the first
    draw (the first observations, a misfit's events: 0.04-0.06 CPU s at a million games)."""
    box = st.expander(label, key=gameapps.key(name), on_change="rerun")
    return box if box.open else None


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    gameapps.each_game(db, f, section)
    filters.show_exclusions(db, f)


def section(ga: gameapps.GameApp, f: filters.Filters) -> None:
    """One game's observations, scored against its own protocol."""
    db = store.db_path()
    protocol, problem = protocols.load(ga.part("PROTOCOL") or f"{ga.id}-observation", ga.id)
    names = {c.id: c.name for c in protocol.categories} if protocol is not None else {}
    rows = ui.TABLE_ROWS
    # counted in SQL, on one connection; the first observations when their expander is open
    data = queries.observation_page(db, f, rows, first=False)
    counts = data["counts"]
    shown = data["names"]  # the rows naming the games of the tables below (no lookup)
    if counts.is_empty():
        n = queries.game_count(db, f)
        ui.empty_state(
            f"No observations in the {ui.plural(n, f'matching {ga.title} game')} yet. "
            f"Record them at the table by {ga.title}'s observation protocol (named under "
            "Capture completeness below): observation events in the game's log, written live "
            "or imported." if n else ui.NO_GAMES)
    else:
        total = int(counts["observations"].sum())
        by = st.radio("Split by", ["era", "rule"], horizontal=True, key=gameapps.key("obs_split"))
        bars = (_named(counts, names).group_by(["category", by])
                .agg(pl.col("observations").sum()).sort(["category", by]))
        ui.show_chart(charts.observations_chart(bars, by), f"observations-by-{by}")
        st.subheader("Rules lookups and interventions")
        wanted = [c for c in counts["category"].drop_nulls().unique().sort().to_list()
                  if re.search("lookup|intervention|deviation", names.get(c, c).lower())]
        n_lookups = int(counts.filter(pl.col("category").is_in(wanted))["observations"].sum())
        if not n_lookups:
            st.write("No rules lookups or interventions were observed in the matching games.")
        else:
            cols = ("game_id", "category", "rule", "era", "cycle", "seat", "text", "minutes")
            first, lookups = ui.split_names(queries.observations(db, f, wanted, rows,
                                                                 names=True))
            ui.show_table(_named(first, names).select(cols), "rules-lookups", total=n_lookups,
                          full=lambda: _named(queries.observations(db, f, wanted),
                                              names).select(cols), names=lookups)
        box = _opened(f"All {total} observations", "obs_all")
        if box is not None:
            with box:
                first, first_names = ui.split_names(queries.observations(db, f, limit=rows,
                                                                         names=True))
                ui.show_table(_named(first, names), "observations", total=total,
                              full=lambda: _named(queries.observations(db, f), names),
                              names=first_names)
    recorded = data["interventions"]
    if not recorded.is_empty():
        st.subheader("Interventions and deviations in the receipts")
        ui.show_table(recorded, "receipt-interventions", names=shown)

    st.subheader("Capture completeness")
    if problem:
        st.warning(problem, icon=":material/warning:")
    else:
        st.caption(f"Protocol: {protocol.title} ({protocol.reference}), "
                   f"{len(protocol.checklist)} checklist items.")
    others = st.checkbox("Score simulations and walkthroughs too", key=gameapps.key("obs_nonhuman"),
                         help="The protocol is for physical sessions; off by default.")
    limit = 100
    # the misfits' events are read when their expander is opened (none: only their number)
    checked = None if others else _session_completeness(str(db), store.version(db), f, limit, 0)
    games = checked[0] if checked is not None else queries.protocol_games(db, f, others, limit)
    if games.is_empty():
        ui.empty_state("No human playtest matches (illustrative samples and simulations are "
                       "not sessions a facilitator observed); tick the box above to score the "
                       "others.")
    else:
        n_games = int(games["total"][0])
        scored = tuple(games.select("game_id", "protocol").iter_rows())
        sessions = games.select(list(ui.NAME_COLUMNS))  # their names, read with them
        per_game, per_item, misfits, n_misfits = checked[1] if checked is not None else (
            _completeness(str(db), store.version(db), scored, ui.TABLE_ROWS))
        if checked is None and not store.table_exists(db, "capture"):
            st.caption("This warehouse predates the `capture` table: the archived logs were "
                       "re-scored. Run `playtest rebuild` to score them at ingest.")
        if "completeness" in per_game.columns and per_game["completeness"].drop_nulls().len():
            called = ui.game_name_frame(frame=sessions)
            named = per_game.drop_nulls("completeness").with_columns(  # a game in words
                pl.col("game_id").replace_strict(called["game_id"], called["name"],
                                                 default=pl.col("game_id")))
            ui.show_chart(charts.completeness_chart(named), "capture-completeness")
        ui.show_table(per_game, "capture-completeness", names=sessions)
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
            box = _opened("Which checklist items are missed most", "obs_missed")
            if box is not None:
                with box:
                    ui.show_table(missed, "capture-items")
        if n_misfits:
            st.warning(f"{ui.plural(n_misfits, 'observation or survey event')} "
                       f"{'does' if n_misfits == 1 else 'do'} not fit the "
                       "protocol (unknown category or item, invalid answer, wrong seat).",
                       icon=":material/warning:")
            box = _opened("Events that do not fit the protocol", "obs_misfits")
            if box is not None:
                with box:
                    if checked is not None:  # their first rows' events, read now
                        found = _session_completeness(str(db), store.version(db), f, limit,
                                                      ui.TABLE_ROWS)
                        misfits = found[1].misfits if found is not None else misfits
                    # the first rows' events only; every misfit's when the CSV is downloaded
                    ui.show_table(misfits, "protocol-misfits", total=n_misfits,
                                  full=lambda: _completeness(str(db), store.version(db),
                                                             scored).misfits, names=sessions)
        if n_games > limit:
            st.caption(f"Scored the newest {limit} of {n_games} sessions "
                       "(narrow the filters to see others).")

    st.subheader("Survey")
    numeric, text = data["survey_numeric"], data["survey_text"]
    if numeric.is_empty() and text.is_empty():
        ui.empty_state("No survey answers in the matching games.")
    else:
        questions = {s.id: s.question for s in protocol.survey} if protocol is not None else {}
        if not numeric.is_empty():
            ui.show_chart(charts.survey_chart(numeric), "survey-scales")
            summary = numeric.select(
                pl.col("item").replace_strict(questions, default=pl.col("item"))
                .alias("question"), "answers", pl.col("mean").round(2))
            ui.show_table(summary, "survey-summary")
        if not text.is_empty():
            st.caption("Answers in words: could every player explain why the winner won; each "
                       "institution's signature moment.")
            words_cols = ("game_id", "seat", "faction", "question", "value_text")

            def words(frame: pl.DataFrame) -> pl.DataFrame:
                return ui.with_names(frame.with_columns(
                    pl.col("item").replace_strict(questions, default=pl.col("item"))
                    .alias("question")), "faction").select(words_cols)

            ui.show_table(words(text), "survey-text", total=int(text["total"][0]),
                          full=lambda: words(queries.survey(db, f).filter(
                              pl.col("value_text").is_not_null())), names=shown)


ui.guarded(render, reads_only=True)
