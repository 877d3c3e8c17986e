"""Audit: findings across games by code and rule section, and one game's findings in order."""

from __future__ import annotations

import json
from typing import Any

import polars as pl
import streamlit as st

from dashboards import charts, filters, gameapps, queries, store, ui
from dashboards import variant_queries as vq
from dashboards.navigation import SHARED

#: games offered by the picker (the rest are reached through the filters or ``?game=``)
PICKER_GAMES = 1000

st.title("Audit")
st.caption("Every finding the engine reported, located by event and source line, with the rule "
           "section it enforces and (column rulings) the rulings it rests on (docs/engine.md). "
           "Open a finding in the Replay viewer to see the table's state "
           "at that event.")


def findings_section(ga: gameapps.GameApp, f: filters.Filters) -> None:
    """One game's findings across its filtered games, by code and rule section."""
    db = store.db_path()
    by_code = queries.findings_by_code(db, f)
    if by_code.is_empty():
        ui.empty_state(f"No findings in the matching {ga.title} games: they replay clean.")
    else:
        c = st.columns(3)
        c[0].metric("Findings", int(by_code["findings"].sum()))
        c[1].metric("Codes", by_code["code"].n_unique())  # rows are code, rule, severity
        c[2].metric("Errors", int(by_code.filter(by_code["severity"] == "error")["findings"].sum()))
        ui.show_chart(charts.findings_by_code(by_code), "findings-by-code")
        ui.show_chart(charts.findings_by_rule(by_code), "findings-by-rule")
        ui.show_table(by_code, "findings-by-code")


def _in_words(text: str | None, missing: str) -> str:
    """A finding's expected or recorded value (the warehouse's JSON text) in words: no
    ``None``, quotes or ``[]`` (``playtest validate``'s text report says them alike)."""
    from schemas.findings import value_words

    if text is None:
        return missing
    try:
        value: Any = json.loads(text)
    except ValueError:
        value = text
    return value_words(value, missing)


def _values_in_words(found: pl.DataFrame) -> pl.DataFrame:
    missing = {"expected": "—", "recorded": "nothing recorded"}

    def words(c: str) -> pl.Series:
        # each distinct value once (a game's 180 findings hold 39 and 84 at a million games)
        said: dict[str | None, str] = {}
        return pl.Series(c, [said[v] if v in said else said.setdefault(v, _in_words(v, missing[c]))
                             for v in found[c].to_list()], dtype=pl.Utf8)

    return found.with_columns(words(c) for c in missing if c in found.columns)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    gameapps.each_game(db, f, findings_section)

    st.subheader("One game's findings")
    wanted = st.query_params.get("game")
    games = queries.game_choices(db, f, "most_errors", PICKER_GAMES,
                                 [str(g) for g in (wanted, st.session_state.get("audit_game"))
                                  if g])
    if games.is_empty():
        ui.empty_state(ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    ids = games["game_id"].to_list()  # games with the most errors first
    index = ids.index(wanted) if wanted in ids else 0
    labels = ui.game_labels(games, queries.seat_factions(db, ids))
    total = int(games["total"][0])
    if total > PICKER_GAMES:
        st.caption(f"The list holds the {PICKER_GAMES:,} games with the most errors of "
                   f"{total:,}; narrow the filters to reach the others, or open a game's "
                   "address with `?game=<id>`.")
    gid = st.selectbox("Game", ids, index=index, format_func=lambda g: labels.get(g, g),
                       key="audit_game")
    st.markdown(vq.variant_sentence(vq.game_variant(db, gid)))
    found = _values_in_words(queries.game_findings(db, gid))
    if found.is_empty():
        st.success("This game replays clean: no findings.", icon=":material/check_circle:")
    else:
        ui.show_table(found, f"findings-{gid}")
        st.caption("Open a finding at its place in the replay:")
        # the page as st.navigation registered it, resolved once: a link given the file's
        # path resolved it again (the app's folder, the file's real path) for each of 60 links
        replay = next(st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path)
                      for p in SHARED["Check"] if p.path == "views/replay.py")
        for r in found.head(60).iter_rows(named=True):
            where = f"event {r['event']}" if r["event"] is not None else "end of game"
            label = (f"{ui.words(r['severity'])} · {r['code']} · {where}"
                     f"{' · line ' + str(r['line']) if r['line'] is not None else ''}: {r['message']}")
            params = {"game": gid}
            if r["event"] is not None:
                params["event"] = str(r["event"])
            st.page_link(replay, label=label[:180], icon=":material/open_in_new:",
                         query_params=params)
        if found.height > 60:
            st.caption(f"... and {found.height - 60} more (see the table above).")
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
