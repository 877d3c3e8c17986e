"""The shared filter sidebar of every analytics page.

Every analytics page draws it first; the choices are kept in session state, so a choice made
on one page holds on the next. An empty multiselect means "all". The "Game" filter (Mandate 2038,
Vestige) is kept like the others; a page about one game calls ``sidebar(db, game="vestige")``
(or :func:`for_game`), which shows that game fixed on the page and leaves the choice kept for the
other pages untouched. The "Evidence only" switch applies
the evidence rules (DESIGN.md §6): a game counts only when ``games.evidence`` is true (for
durations, ``games.duration_evidence``); every page lists the games it excluded and why.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import queries, store
from dashboards.queries import Filters as Filters  # the pages name it filters.Filters

STATE_KEY = "playtest_filters"
KEPT = "playtest_filter_values"
WIDGET_KEYS = ("flt_games", "flt_versions", "flt_counts", "flt_types", "flt_profiles", "flt_dates",
               "flt_evidence")

SESSION_TYPE_LABELS = {
    "facilitated_playtest": "Facilitated playtest",
    "blind_playtest": "Blind playtest",
    "browser_walkthrough": "Browser walkthrough",
    "simulation": "Simulation (bots)",
    "developer_walkthrough": "Developer walkthrough",
}


def game_title(game: str) -> str:
    """A game's name as the designers write it (its ruleset's title), else its id."""
    from engine.core.registry import get_ruleset

    rs = get_ruleset(game)
    return rs.title if rs is not None else game


def for_game(f: Filters, game: str) -> Filters:
    """``f`` restricted to one game (for a page about that game's own tables)."""
    return dataclasses.replace(f, games=(game,))


def sidebar(db: Path, game: str | None = None) -> Filters:
    """Draw the filters in the sidebar and return the choice (also kept in session state).

    ``game``: the page is about that game only; the Game filter shows it fixed and the result is
    restricted to it, while the game choice kept for other pages stays as it was."""
    opts = queries.filter_options(db)
    kept = st.session_state.setdefault(KEPT, {})
    for key in WIDGET_KEYS:
        # ``kept`` is the truth (each widget's on_change writes it): a widget met on another
        # page is a new widget that would start from its default, even with its key still in
        # session state, unless the value is set again before it is drawn
        if key in kept:
            st.session_state[key] = kept[key]
    _drop_unknown(opts)
    sb = st.sidebar
    sb.header("Filters")
    versions = sb.multiselect("Rules version", opts["rules_versions"], key="flt_versions",
                              on_change=_remember, args=("flt_versions",),
                              placeholder="All versions")
    counts = sb.multiselect("Player count", opts["player_counts"], key="flt_counts",
                            on_change=_remember, args=("flt_counts",),
                            placeholder="All player counts")
    types = sb.multiselect(
        "Session type", opts["session_types"], key="flt_types",
        on_change=_remember, args=("flt_types",), placeholder="All session types",
        format_func=lambda v: SESSION_TYPE_LABELS.get(v, v),
    )
    profiles = sb.multiselect("Profile", opts["profiles"], key="flt_profiles",
                              on_change=_remember, args=("flt_profiles",),
                              placeholder="Default and Advanced")
    if game is None:
        games = sb.multiselect("Game", opts["games"], key="flt_games", on_change=_remember,
                               args=("flt_games",), placeholder="All games",
                               format_func=game_title)
    else:
        sb.multiselect("Game", [game], default=[game], disabled=True, key=f"flt_game_{game}",
                       format_func=game_title, help="This page is about one game.")
        games = [game]
    date_from = date_to = None
    lo, hi = opts["date_min"], opts["date_max"]
    if isinstance(lo, dt.date) and isinstance(hi, dt.date):
        full_before = st.session_state.get("_flt_dates_full")
        if "flt_dates" not in st.session_state or (
            full_before != (lo, hi) and st.session_state.get("flt_dates") == full_before
        ):  # untouched range: follow the data when new games widen it
            st.session_state["flt_dates"] = (lo, hi)
        st.session_state["_flt_dates_full"] = (lo, hi)
        picked = sb.date_input("Date", min_value=lo, max_value=hi, key="flt_dates",
                               on_change=_remember, args=("flt_dates",))
        if isinstance(picked, tuple) and len(picked) == 2 and (picked[0], picked[1]) != (lo, hi):
            date_from, date_to = picked
    else:
        sb.caption("Date: no dated games yet.")
    evidence = sb.toggle(
        "Evidence only", key="flt_evidence", on_change=_remember, args=("flt_evidence",),
        help="Keep only games that count as evidence under the designers' policy (session type, "
        "profile, no secret objectives or Tactics, complete, ...). Each page lists the games "
        "this excludes and why.",
    )
    sb.caption(f"{_plural(opts['n_games'], 'game')} in the warehouse.")
    for key in WIDGET_KEYS:
        if key in st.session_state:
            kept[key] = st.session_state[key]
    f = Filters(tuple(versions), tuple(int(c) for c in counts), tuple(types), tuple(profiles),
                date_from, date_to, bool(evidence), tuple(games))
    st.session_state[STATE_KEY] = f
    return f


def _remember(key: str) -> None:
    """on_change of a filter widget: keep its new value for every page of the session."""
    st.session_state.setdefault(KEPT, {})[key] = st.session_state.get(key)


def _drop_unknown(opts: dict[str, Any]) -> None:
    """Forget remembered choices that are no longer offered (e.g. after a rebuild)."""
    for key, field in (("flt_games", "games"), ("flt_versions", "rules_versions"), ("flt_counts", "player_counts"),
                       ("flt_types", "session_types"), ("flt_profiles", "profiles")):
        chosen = st.session_state.get(key)
        if isinstance(chosen, list):
            st.session_state[key] = [c for c in chosen if c in opts[field]]
            st.session_state.setdefault(KEPT, {})[key] = st.session_state[key]
    dates = st.session_state.get("flt_dates")
    lo, hi = opts["date_min"], opts["date_max"]
    if isinstance(dates, tuple) and (lo is None or any(d < lo or d > hi for d in dates)):
        st.session_state.pop("flt_dates", None)
        st.session_state.get(KEPT, {}).pop("flt_dates", None)


def _plural(n: int, word: str) -> str:
    from dashboards.ui import plural

    return plural(n, word)


def current() -> Filters:
    """The filters chosen in the sidebar during this run (no restriction if none drawn)."""
    f = st.session_state.get(STATE_KEY)
    return f if isinstance(f, Filters) else Filters()


def partial_games(db: Path, f: Filters, limit: int | None = None) -> pl.DataFrame:
    """The games the filters keep (the evidence switch aside) whose log stops before the game's
    end: finished early at the table or recorded in part (the first ``limit`` when given)."""
    where, params = f.without_evidence().where("g", "evidence")
    cap = ""
    if limit is not None:
        cap, params = " LIMIT ?", [*params, int(limit)]
    return store.query(
        db, f"SELECT g.game, g.date, g.player_count, g.source_format FROM games g "
        f"WHERE {where} AND NOT coalesce(g.complete, FALSE) ORDER BY g.date NULLS LAST, "
        f"g.game_id{cap}", params)


def partial_count(db: Path, f: Filters) -> int:
    """How many games :func:`partial_games` lists, counted from the load step's
    ``game_totals`` (complete is in its key) where the warehouse has it, else from ``games``."""
    where, params = f.without_evidence().where("g", "evidence")
    if queries.summarised(db, "game_totals"):
        n, source = "CAST(coalesce(sum(g.games), 0) AS BIGINT)", "game_totals"
    else:
        n, source = "count(*)", "games"
    df = store.query(db, f"SELECT {n} AS n FROM {source} g "
                         f"WHERE {where} AND NOT coalesce(g.complete, FALSE)", params)
    return int(df["n"][0]) if not df.is_empty() else 0


def show_partial(db: Path, f: Filters) -> None:
    """Say how many of the games that match are partial (they never count as evidence, and a
    page's counts of complete games leave them out), naming the first three: counted in SQL,
    only those three read (not every partial game of a million)."""
    n = partial_count(db, f)
    if n == 0:
        return
    part = partial_games(db, f, limit=3)
    seen = ", ".join(
        f"{game_title(str(r['game']))} ({r['player_count']} players, {r['date'] or 'no date'}, "
        f"{SOURCE_WORDS.get(str(r['source_format']), 'imported')})"
        for r in part.iter_rows(named=True))
    more = f" and {n - 3:,} more" if n > 3 else ""
    st.caption(f"{_plural(n, 'partial game')} (stopped before the game's end, e.g. "
               f"finished early at the table) among the games that match: {seen}{more}. A "
               "partial game never counts as evidence; counts of complete games leave it out.")


#: where a game's log came from, in words
SOURCE_WORDS = {"live": "recorded live", "simulator": "simulated", "json": "imported log",
                "notation": "imported notation", "csv": "imported spreadsheet",
                "session-folder": "imported session folder"}


def show_exclusions(db: Path, f: Filters, evidence: str = "evidence") -> None:
    """Under an analytics page: how many of the games that match are partial; which games the
    evidence switch left out, and why."""
    show_partial(db, f)
    if not f.evidence_only:
        return
    excluded = queries.excluded_games(db, f, evidence)
    label = "duration evidence" if evidence == "duration_evidence" else "evidence"
    with st.expander(f"Excluded from {label}: {_plural(excluded.height, 'game')}"):
        if excluded.is_empty():
            st.write("Every game that matches the filters counts.")
            return
        show = excluded.select("game_id", "date", "session_type", "player_count", "profile",
                               pl.col("reasons").replace("", "(no reason recorded)"))
        from dashboards import ui

        ui.table(show)
