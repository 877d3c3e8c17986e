"""Pig's recorder (the toolkit's Record page, through the declaration's ``recorder``):
engine-guided live entry, saved after every event, with undo.

The facilitator records what the table does, as the table says it: "Rolled 4", "Hold". The
next decision comes from the rules engine: a turn begins with a roll (§3.5), so only the six
faces are offered until the seat on turn has rolled; then the six faces (roll again) and "Hold"
with what it banks. A roll's running turn total and a hold's new score are written by the engine
(§5.2). When the rules end the game (§4), the final record is one button (a forced option,
recorded in one action). Every event is appended (fsynced) to the draft file with the time it
was recorded; "Undo" appends an undo line; putting the draft aside and finishing it each ask
once more.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import streamlit as st

from dashboards import drafts, record_nav, store, ui
from engine.api import SESSION_TYPE_LABELS, Recorder, ReplayResult, replay
from playtest_pig import charts
from playtest_pig.board import race
from playtest_pig.records import snapshot
from playtest_pig.ruleset import RULESET
from playtest_pig.schema import PigHeader, PigLog

SESSION_TYPES = ["facilitated_playtest", "blind_playtest", "developer_walkthrough"]
END_RULES = {"immediate": "At once, when a player reaches the target (§4.1)",
             "equal_turns": "Play the round out: equal turns (§4.2, house rule)"}
CONFIRM = "confirm"  # dropped by the Record page when another draft is opened


def draft_seats(header: dict[str, Any]) -> str:
    """The seats of a draft in words ("Seat 1: Ada; Seat 2"; a seat without a name is just
    its number)."""
    return "; ".join(f"Seat {s.get('seat')}" + (f": {s['player']}" if s.get("player") else "")
                     for s in header.get("seats", []))


def new_header(names: list[str], *, target: int, first: int, end: str,
               session_type: str) -> dict[str, Any]:
    """A validated header for a new game, as the draft keeps it (JSON)."""
    header = PigHeader.model_validate({
        "session_type": session_type, "target": target, "first_player": first,
        "date": dt.date.today().isoformat(),
        "rulings": None if end == "immediate" else f"end={end}",
        "seats": [{"seat": i + 1, **({"player": n} if n else {})} for i, n in enumerate(names)],
        "provenance": {"source_format": "live"},
    })
    return header.model_dump(mode="json", exclude_defaults=True) | {"game": "pig"}


def new_session() -> None:
    """The new-game form; "Start recording" creates the draft and opens it."""
    with st.form("pigrec_new"):
        c = st.columns(3)
        n = c[0].number_input("Players", min_value=2, max_value=6, value=2, step=1)
        target = c[1].number_input("Target score (§2.3)", min_value=1, max_value=10_000,
                                   value=100, step=10)
        first = c[2].number_input("First player's seat (§2.4)", min_value=1, max_value=6,
                                  value=1, step=1)
        names = st.text_input("Player names (comma-separated, in seat order)", "")
        cols = st.columns(2)
        end = cols[0].selectbox("When the game ends", list(END_RULES),
                                format_func=lambda v: END_RULES[v])
        session = cols[1].selectbox("Session type", SESSION_TYPES,
                                 format_func=lambda v: SESSION_TYPE_LABELS.get(v, v))
        go = st.form_submit_button("Start recording", type="primary")
    if go:
        given = [x.strip() for x in names.split(",")] if names.strip() else []
        seats = [given[i] if i < len(given) else "" for i in range(int(n))]
        if int(first) > int(n):
            st.error(f"The first player's seat must be 1 to {int(n)}.")
            return
        header = new_header(seats, target=int(target), first=int(first), end=str(end),
                            session_type=session)
        d = drafts.create(record_nav.ddir(), header)
        drafts.append_event(record_nav.ddir(), d.id, _stamp({"type": "phase",
                                                              "name": "game_start"}))
        record_nav.open_draft(d.id)
        st.rerun()


def _stamp(event: dict[str, Any]) -> dict[str, Any]:
    """The event with the wall-clock time it was recorded (UTC)."""
    return {**event, "t": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()}


def as_log(header: dict[str, Any], events: list[dict[str, Any]]) -> PigLog:
    return PigLog.model_validate({"header": header, "events": events})


def replay_draft(header: dict[str, Any], events: list[dict[str, Any]]) -> ReplayResult:
    log = as_log(header, events)
    return replay(log.header, log.events, ruleset=RULESET)


def _record(draft_id: str, at: int, events: list[dict[str, Any]]) -> None:
    """Answer the decision drawn when the draft stood at ``at`` events (a stale tap, such as the
    second of a double tap, writes nothing)."""
    record_nav.record_at(draft_id, at, [_stamp(ev) for ev in events])


def _ask(what: str | None) -> None:
    st.session_state[CONFIRM] = what


def label(ev: dict[str, Any], names: dict[int, str]) -> str:
    """An event as a facilitator says it."""
    who = names.get(ev.get("seat", 0), f"Seat {ev.get('seat')}")
    kind = ev.get("type")
    if kind == "roll":
        return f"{who} rolled {ev['face']}" + (" (turn lost)" if ev["face"] == 1 else
                                              f" (turn total {ev.get('total')})")
    if kind == "hold":
        return f"{who} held (score {ev.get('score')})"
    if kind == "final":
        won = ", ".join(names.get(w, f"Seat {w}") for w in ev.get("winners") or [])
        return f"Final record: {won or 'no winner'} won"
    if kind == "phase":
        name = str(ev.get("name"))
        return {"game_start": "Game started", "game_end": "Game ended"}.get(name, name)
    return str(kind)


def decision(draft_id: str, r: ReplayResult, names: dict[int, str], at: int) -> None:
    """The next decision, as buttons (nothing pre-selected), drawn at position ``at`` (events
    recorded): every button's key and answer carry it, so a stale tap records nothing."""
    st_ = r.state
    if st_.over and not st_.closed:
        won = ", ".join(names[w] for w in st_.winners)
        st.markdown(f"**The game is over: {won} won.** Write the final record (the only "
                    "choice):")
        final = {"type": "final", "scores": {str(k): v for k, v in st_.scores.items()},
                 "winners": list(st_.winners)}
        st.button(f"Final record: {won} won", key=f"pigrec_final_{at}", type="primary",
                  on_click=_record, args=(draft_id, at, [final, {"type": "phase",
                                                             "name": "game_end"}]))
        return
    seat = st_.active
    who = names[seat]
    if st_.rolled:
        st.markdown(f"**{who}**: turn total {st_.turn_total}. Roll again (the number rolled) "
                    "or hold:")
    else:
        st.markdown(f"**{who}** begins a turn: a turn begins with a roll (§3.5). The number "
                    "rolled:")
    faces = st.columns(6)
    for face in range(1, 7):
        total = 0 if face == 1 else st_.turn_total + face
        faces[face - 1].button(
            f"Rolled {face}", key=f"pigrec_face{face}_{at}", width="stretch",
            help="Turn lost (§3.2)" if face == 1 else f"Turn total {total}",
            on_click=_record, args=(draft_id, at, [{"type": "roll", "seat": seat, "face": face,
                                                    "total": total}]))
    if st_.rolled:
        score = st_.scores[seat] + st_.turn_total
        st.button(f"Hold: bank {st_.turn_total} (score {score})", key=f"pigrec_hold_{at}",
                  type="primary", on_click=_record,
                  args=(draft_id, at, [{"type": "hold", "seat": seat, "score": score}]))


def recording(draft_id: str) -> None:
    """Record the Pig game of draft ``draft_id``."""
    ddir = record_nav.ddir()
    d = drafts.load(ddir, draft_id)
    names = {int(s["seat"]): s.get("player") or f"Seat {s['seat']}"
             for s in d.header.get("seats", [])}
    title = f"**Pig** to {d.header.get('target', 100)} · " + ui.md_text(draft_seats(d.header))
    if not record_nav.draft_top(d, title, "pigrec"):
        return
    r = replay_draft(d.header, d.events)
    left, right = st.columns([3, 2])
    with left:
        for f in [f for f in r.findings if f.where.event == len(d.events) - 1]:
            st.warning(f"{f.message} ({f.rule})", icon=":material/rule:")
        if r.state.closed:
            st.success("The game is over and its final record written: finish it to archive "
                       "and load it.", icon=":material/flag:")
        else:
            decision(d.id, r, names, len(d.events))
        _controls(d, names, r.state.closed)
    with right:
        snap = snapshot(r.state)
        st.caption(f"Round {snap['round']} · turn {snap['turn']}")
        st.altair_chart(charts.race(race(snap), snap["target"]), width="stretch")
    with st.expander(f"Events recorded ({len(d.events)}; {d.undone} undone)"):
        st.dataframe([{"Event": i + 1, "Time": e.get("t") or "–",
                       "What happened": label(e, names)} for i, e in enumerate(d.events)],
                     hide_index=True, width="stretch")


def _controls(d: drafts.Draft, names: dict[int, str], over: bool) -> None:
    """Undo, put aside and finish; the last two ask once more before acting."""
    asking = st.session_state.get(CONFIRM)
    c = st.columns(3)
    if d.events:
        c[0].button("Undo last event", key="pigrec_undo", icon=":material/undo:",
                    on_click=_ask, args=("undo",),
                    help=f"Takes back: {label(d.events[-1], names)}")
    c[1].button("Put this draft aside", key="pigrec_abandon", on_click=_ask, args=("abandon",))
    if over:
        c[2].button("Finish: archive and load", key="pigrec_finish", type="primary",
                    on_click=_ask, args=("finish",))
    cancel = lambda: _ask(None)  # noqa: E731
    if asking == "undo" and d.events:
        record_nav.ask_undo(d.id, len(d.events), label(d.events[-1], names), "pigrec_undo",
                            cancel)
    elif asking == "abandon":
        record_nav.ask_aside(d.id, "pigrec_abandon", cancel)
    elif asking == "finish" and over and ui.confirm(
            ui.finish_question(len(d.events)), "Yes, finish and load", "pigrec_finish", cancel):
        _ask(None)
        from engine.api import ingest_log

        try:
            summary = ingest_log(as_log(d.header, d.events), store.db_path())
        except Exception as err:  # storage problems are shown on the page
            st.error(f"The game could not be stored: {type(err).__name__}: {err}")
            return
        gid = summary.reports[0].game_id if summary.reports else None
        drafts.mark(record_nav.ddir(), d.id, "finished", game_id=gid)
        st.rerun()


#: what the declaration names as its ``recorder`` (dashboards.gameapps.Recorder)
RECORDER = Recorder(new_session=new_session, recording=recording, draft_seats=draft_seats)
