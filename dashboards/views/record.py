"""Record a game: live entry at the table for every registered game, guided by its engine.

One page for every game: the drafts of every game are listed (open ones first; finished and
abandoned ones on request) and each reopens in its game's recorder; a new session starts with
the game's own setup form (:mod:`dashboards.gameapps`). The draft id is in the address
(``?draft=...``), so a refresh or a restart loses nothing.
"""

from __future__ import annotations

import streamlit as st

from dashboards import drafts, gameapps, record_nav, store, ui
from dashboards.filters import SESSION_TYPE_LABELS
from engine.core.registry import DEFAULT_GAME

st.title("Record a game")


def _game(d: drafts.Draft) -> str:
    return str(d.header.get("game") or DEFAULT_GAME)


def draft_list() -> None:
    """Every draft of every game, reopenable."""
    st.subheader("Drafts")
    every = drafts.list_drafts(record_nav.ddir())
    show_all = st.toggle("Show finished and abandoned drafts too", key="drafts_all")
    rows = [d for d in every if show_all or d.status == "open"]
    hidden = len(every) - len(rows)
    if not rows:
        ui.empty_state("No open drafts. Start a new session below."
                       + (f" ({ui.plural(hidden, 'finished or abandoned draft')} "
                          "hidden: switch them on above.)" if hidden else ""))
        return
    for d in rows[:60]:
        ga = gameapps.app(_game(d))
        rec = ga.recorder
        try:
            seats = rec.draft_seats(d.header) if rec is not None else ""
        except Exception:  # a damaged header must not hide the other drafts
            seats = "seats not readable"
        kind = SESSION_TYPE_LABELS.get(d.header.get("session_type", ""), "session type not set")
        started = (d.created or "")[:16].replace("T", " ") or "start time not recorded"
        c1, c2 = st.columns([6, 1])
        c1.markdown(f"**{ga.title}** · {ui.md_text(seats or 'no seats')} · {kind} · started {started} UTC · "
                    f"{ui.plural(len(d.events), 'event')} · {d.status}")
        c2.button("Resume" if d.status == "open" else "Open", key=f"resume_{d.id}",
                  on_click=record_nav.open_draft, args=(d.id,), width="stretch")
    if len(rows) > 60:
        st.caption(f"The 60 newest of {len(rows)} drafts are listed.")


def _has_recorder(game: str) -> bool:
    """Whether ``game``'s declaration names a recorder (the reference only: resolving it
    imports the game's recorder, which only the chosen game's form needs)."""
    declaration = gameapps.app(game).declaration
    return declaration is not None and declaration.recorder is not None


def new_session() -> None:
    st.subheader("New session")
    ids = gameapps.game_ids()
    recordable = [g for g in ids if _has_recorder(g)]
    if not recordable:
        ui.empty_state("No registered game has a recorder.")
        return
    game = st.radio("Game", recordable, format_func=gameapps.title, horizontal=True,
                    key="new_game")
    recorder = gameapps.app(game).recorder
    if recorder is not None:
        # the form only reads the warehouse (the variants recorded before): its reads share one
        # connection (store.page); it writes a draft file, never the warehouse
        with store.page(store.db_path()):
            recorder.new_session()


def render() -> None:
    if not ui.write_access():
        return
    record_nav.fit_controls()
    current = record_nav.current()
    if current:
        d = drafts.load(record_nav.ddir(), current)
        record_nav.drawn(d.id, len(d.events))  # when its next decision was first drawn
        for p in d.problems:
            st.caption(f"Draft note: {p}")
        ga = gameapps.app(_game(d))
        recorder = ga.recorder
        if recorder is None:
            st.error(f"{ga.title} has no recorder in this app; the draft is kept on disk.")
            st.button("Back to the list", on_click=record_nav.open_draft, args=(None,))
            return
        recorder.recording(current)
        return
    st.caption("Record a game as it is played: every event is written to a draft file on disk "
               "at once, so a refresh or a restart loses nothing.")
    draft_list()
    st.divider()
    new_session()


ui.guarded(render)
