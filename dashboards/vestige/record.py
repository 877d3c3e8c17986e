"""Vestige's recorder (the Record page's part for this game): engine-guided entry, autosaved
after every event, with undo.

The next decision comes from the Vestige ruleset's legal moves, each choice named as a
facilitator says it (:mod:`dashboards.vestige.labels`). Nothing is pre-selected: a decision
with a few choices is one button each, a long one is split by what the seat does (move,
visit, activate, ...) and then one button (or one list) per choice; a forced single option is
shown as such and recorded with one click. The decision comes first on the page, beside the
map, so it is visible without scrolling on a 1366x768 laptop. Every event is appended
(fsynced) to the draft file at once; "Undo" appends an undo line; putting the draft aside and
finishing it and undoing the last event each ask once more.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboards import drafts, record_nav, store, ui, variant_pick
from dashboards.filters import SESSION_TYPE_LABELS
from dashboards.gameapps import Recorder
from dashboards.vestige import live as vl
from dashboards.vestige import map as vm
from dashboards.vestige.labels import event_label, words
from engine.vestige.ruleset import RULESET

PASSED = "vrec_passed"
CONFIRM = "vrec_confirm"
GROUP = "vrec_group"
#: the row of action kinds goes on as many lines as it needs in its column (at 1366x768 the
#: sixth pill was cut off at the map's edge; tests/test_vestige_layout_browser.py measures it)
WRAP_PILLS = """<style>[data-testid="stMain"] [data-testid="stButtonGroup"] div:has(> button)
{ flex-wrap: wrap; row-gap: 0.4rem; }</style>"""
#: above this many choices the decision is split by kind of action first
MANY = 8
MODES = ["competitive", "team", "solo", "coop"]
NEMESES = ["bone"]
DIFFICULTIES = ["nuisance", "menace"]
SESSION_TYPES = ["facilitated_playtest", "blind_playtest", "developer_walkthrough"]
#: what each kind of event is called when a long decision is split by it
GROUP_NAMES = {
    "activate": "Activate a card", "move": "Move", "visit": "Visit a region", "rest": "Rest",
    "draw": "Draw a card", "pickup": "Pick up a job", "roll": "Roll", "complete": "Complete a job",
    "convert": "Convert", "recover": "Recover blocks", "control": "Take control",
    "speed_boost": "Speed boost", "reset": "Reset an action", "effect": "Card effect",
    "attach": "Attach", "covert_op": "Covert op", "transfer": "Give a card",
    "trigger": "Trigger point", "turn_end": "End the turn", "display": "Card on display",
    "card": "Card", "intent": "Other",
}


def draft_seats(header: dict[str, Any]) -> str:
    """The seats of a draft in words ("Blue, Ann; Green, Bo")."""
    return "; ".join(vl.seat_names(header).values())


def new_session() -> None:
    """The new-game form; "Start recording" creates the draft and opens it."""
    variant, usable = variant_pick.pick("vestige", "vrec_variant")
    with st.form("vrec_new"):
        c = st.columns(3)
        n = c[0].number_input("Players", min_value=1, max_value=4, value=2, step=1)
        mode = c[1].selectbox("Mode", MODES, format_func=words)
        session = c[2].selectbox("Session type", SESSION_TYPES,
                                 format_func=lambda v: SESSION_TYPE_LABELS.get(v, v))
        names = st.text_input("Player names (comma-separated, in seat order)", "")
        c = st.columns(3)
        nemesis = c[0].selectbox("Nemesis", ["", *NEMESES],
                                 format_func=lambda v: words(v) if v else "No nemesis")
        difficulty = c[1].selectbox("Difficulty (with a nemesis)", DIFFICULTIES,
                                    format_func=words)
        seed = c[2].text_input("Map seed (blank: random)", "")
        go = st.form_submit_button("Start recording", type="primary", disabled=not usable)
    if go:
        given = [x.strip() for x in names.split(",")] if names.strip() else []
        players = [(vl.COLOURS[i], given[i] if i < len(given) else "") for i in range(int(n))]
        try:
            header = vl.new_header(players, mode=mode, nemesis=nemesis or None,
                                   difficulty=difficulty, session_type=session, map_seed=seed,
                                   variant=variant)
        except ValueError as err:
            st.error(f"The game could not be set up: {err}")
            return
        d = drafts.create(record_nav.ddir(), header)
        record_nav.open_draft(d.id)
        st.rerun()


def _passed(at: int) -> set[str]:
    return set(st.session_state.get(PASSED, {}).get(at, ()))


def _record(draft_id: str, choice: vl.Choice, at: int, n_passed: int) -> None:
    """Record one choice of the decision drawn at position ``at`` (events recorded) after
    ``n_passed`` options passed; an option that records nothing is remembered as passed. A
    stale choice (a double tap, a tap on a decision already answered) writes nothing."""
    if len(_passed(at)) != n_passed:
        st.toast(record_nav.STALE, icon=":material/touch_app:")
        return
    if choice.records:
        if not record_nav.record_at(draft_id, at, [vl.stamp(vl.event_dict(choice.option))]):
            return
        st.session_state.pop(PASSED, None)
    elif len(drafts.load(record_nav.ddir(), draft_id).events) == at:
        kept = st.session_state.setdefault(PASSED, {})
        kept.setdefault(at, set()).add(getattr(choice.option, "key", ""))
    else:
        st.toast(record_nav.STALE, icon=":material/touch_app:")


def _forget() -> None:
    st.session_state.pop(PASSED, None)


def _ask(what: str | None) -> None:
    st.session_state[CONFIRM] = what


def _group(choice: vl.Choice) -> str:
    return str(getattr(choice.option, "type", None) or "intent") if choice.records else "intent"


def decision(draft_id: str, nxt: vl.Next, at: int) -> None:
    """The next decision: a forced option as one button; a few choices as one button each; a
    long decision split by kind of action first. Nothing is pre-selected. Every choice carries
    the position it was drawn for (its key and its answer), so a stale tap records nothing."""
    pos = (at, len(_passed(at)))
    tag = f"{pos[0]}_{pos[1]}"
    heading = f"{nxt.actor} decides" if nxt.kind == "player" else f"What happened? {nxt.label}"
    if nxt.kind == "player" and nxt.label and nxt.label != "Next turn":
        heading += f" ({nxt.label})"
    st.markdown(f"**{heading}**")
    choices = nxt.choices
    if not choices:
        st.error("The rules allow no move here; undo the last event.")
        return
    if nxt.forced:
        st.caption("Only one thing can happen here:")
        st.button(f"Record: {choices[0].label}", type="primary", key=f"vrec_forced_{tag}",
                  on_click=_record, args=(draft_id, choices[0], *pos), width="stretch",
                  icon=":material/check:")
        return
    if len(choices) > MANY:
        groups: dict[str, list[vl.Choice]] = {}
        for ch in choices:
            groups.setdefault(_group(ch), []).append(ch)
        if len(groups) > 1:
            names = list(groups)
            st.html(WRAP_PILLS)
            picked = st.pills(
                f"{len(choices)} choices: what does the seat do?", names,
                format_func=lambda g: f"{GROUP_NAMES.get(g, words(g))} ({len(groups[g])})",
                key=f"{GROUP}_{tag}")
            if picked not in groups:
                st.caption("Choose what the seat does; nothing is chosen for you.")
                return
            choices = groups[picked]
    if len(choices) <= MANY:
        for k, ch in enumerate(choices):
            st.button(ch.label, key=f"vrec_opt_{tag}_{k}", on_click=_record,
                      args=(draft_id, ch, *pos), width="stretch")
        return
    labels = [ch.label for ch in choices]
    pick = st.selectbox(f"{len(choices)} choices", range(len(choices)), index=None,
                        format_func=lambda i: labels[i], placeholder="Choose what happened",
                        key=f"vrec_pick_{tag}")
    st.button("Record", type="primary", key=f"vrec_record_{tag}", disabled=pick is None,
              on_click=_record, args=(draft_id, choices[int(pick or 0)], *pos))


def recording(draft_id: str) -> None:
    """Record the Vestige game of draft ``draft_id``."""
    ddir = record_nav.ddir()
    d = drafts.load(ddir, draft_id)
    names = vl.seat_names(d.header)
    seats = "; ".join(f"Seat {k}: {v}" for k, v in names.items())
    if not record_nav.draft_top(d, f"**Vestige** · {words(d.header.get('mode', 'competitive'))} · "
                                   + ui.md_text(seats), "vrec"):
        return
    r = vl.replay_draft(d.header, d.events)
    snap = RULESET.snapshot(r.state)
    at = len(d.events)
    passed = frozenset(_passed(at))
    nxt = vl.next_decision(r, passed, names)
    left, right = st.columns([3, 2])
    with left:
        fresh = [f for f in r.findings if f.where.event == at - 1]
        for f in fresh:
            st.warning(f"{f.message} ({f.rule})", icon=":material/rule:")
        if nxt.kind == "end":
            st.success("The game is over: finish it to archive and load it.",
                       icon=":material/flag:")
        else:
            decision(d.id, nxt, at)
        _controls(d, nxt.kind == "end")
    with right:
        st.caption(f"Round {snap.get('round') or '(setup)'} · final round: "
                   f"{snap.get('final_round') or 'not yet'}")
        st.image(vm.render_svg(snap), caption="The map now (declared geometry)",
                 width="stretch")
        st.dataframe([{"Seat": seat_label(s, names), "Leverage": s["leverage"],
                       "Speed": s["speed"],
                       "Space": "not placed" if s["space"] is None else str(s["space"]),
                       "Regions": ", ".join(words(x) for x in s["regions"]) or "–"}
                      for s in snap.get("seats", [])], hide_index=True)
    with st.expander(f"Events recorded ({len(d.events)}; {d.undone} undone)"):
        st.dataframe([{"Event": i + 1, "Time": e.get("t") or "–",
                       "What happened": event_label(e, names)}
                      for i, e in enumerate(d.events)], hide_index=True, width="stretch")
    if len(r.findings) > len(fresh):
        with st.expander(f"Findings so far: {len(r.findings)}"):
            for f in r.findings:
                st.caption(f"Event {(f.where.event or 0) + 1}: {f.message} ({f.rule})")


def seat_label(s: dict[str, Any], names: dict[int, str]) -> str:
    return f"{s['seat']}: {names.get(int(s['seat']), words(s.get('colour')))}"


def _controls(d: drafts.Draft, over: bool) -> None:
    """Undo, put aside and finish (at any time: a game not over is finished early as a partial
    game); each asks once more before acting."""
    asking = st.session_state.get(CONFIRM)
    c = st.columns(3)
    last = event_label(d.events[-1], vl.seat_names(d.header)) if d.events else ""
    if d.events:
        c[0].button("Undo last event", key="vrec_undo", on_click=_ask, args=("undo",),
                    icon=":material/undo:", help=f"Takes back: {last}")
    c[1].button("Put this draft aside", key="vrec_abandon", on_click=_ask, args=("abandon",))
    c[2].button("Finish: archive and load" if over else "Finish early (a partial game)",
                key="vrec_finish", type="primary" if over else "secondary", on_click=_ask,
                args=("finish",), disabled=not d.events,
                help=None if over else "The game is not over: archive what was recorded; it is "
                "kept and audited as a partial game.")
    cancel = lambda: _ask(None)  # noqa: E731
    if asking == "undo" and d.events:
        record_nav.ask_undo(d.id, len(d.events), last, "vrec_undo", cancel, _forget)
    elif asking == "abandon":
        record_nav.ask_aside(d.id, "vrec_abandon", cancel)
    elif asking == "finish" and d.events and ui.confirm(
            ui.finish_question(len(d.events)) + ("" if over else " The game is not over: it is "
                                                 "kept and audited as a partial game."),
            "Yes, finish and load", "vrec_finish", cancel):
        _ask(None)
        result, problem = vl.finish(d.header, d.events, store.db_path(), over)
        if problem:
            st.error(f"The game could not be stored: {problem}")
            return
        gid = result.reports[0].game_id if result and result.reports else None
        drafts.mark(record_nav.ddir(), d.id, "finished", game_id=gid)
        st.rerun()


#: what the game's declaration names as its ``recorder`` (dashboards.gameapps.Recorder)
RECORDER = Recorder(new_session=new_session, recording=recording, draft_seats=draft_seats)
