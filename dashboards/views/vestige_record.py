"""Record a Vestige game: engine-guided entry, autosaved after every event, with undo.

The next decision comes from the Vestige ruleset's legal moves; the facilitator picks what
happened at the table. Every event is appended (fsynced) to a draft file at once, so a reload,
a restart or a crash loses nothing: the draft id is in the address (``?vdraft=...``) and every
open Vestige draft can be resumed from the list. Undo appends an undo line; nothing is rewritten.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboards import drafts, store, ui
from dashboards import vestige_live as vl
from dashboards import vestige_map as vm
from engine.vestige.ruleset import RULESET

st.title("Record a Vestige game")
st.caption(
    "Pick what happened at the table from the moves the rules allow (rulebook pp. 10-29); "
    "each one is saved at once. Undo takes back the last event. A game against a nemesis "
    "records the nemesis turns after the players' (p. 26)."
)
QP = "vdraft"
PASSED = "vrec_passed"


def _ddir() -> Any:
    return store.drafts_dir(store.db_path())


def _current() -> str | None:
    qp = st.query_params.get(QP)
    if qp:
        try:
            if drafts.path_of(_ddir(), qp).is_file():
                return str(qp)
        except drafts.DraftError:
            pass
        st.warning(f"No draft {qp!r} here; choose one from the list.")
        del st.query_params[QP]
    return None


def _open(draft_id: str | None) -> None:
    st.session_state.pop(PASSED, None)
    if draft_id:
        st.query_params[QP] = draft_id
    elif QP in st.query_params:
        del st.query_params[QP]


def _start() -> None:
    st.subheader("Start a new game")
    with st.form("vrec_new"):
        n = st.number_input("Players", min_value=1, max_value=4, value=2, step=1)
        names = st.text_input("Player names (comma-separated, in seat order)", "")
        mode = st.selectbox("Mode", ["competitive", "team", "solo", "coop"])
        nemesis = st.selectbox("Nemesis", ["(none)", "bone"])
        difficulty = st.selectbox("Difficulty", ["nuisance", "menace"])
        session = st.selectbox("Session type", ["facilitated_playtest", "blind_playtest",
                                                "developer_walkthrough"])
        seed = st.text_input("Map seed (blank: random)", "")
        go = st.form_submit_button("Start recording")
    if go:
        given = [x.strip() for x in names.split(",")] if names.strip() else []
        players = [(vl.COLOURS[i], given[i] if i < len(given) else "") for i in range(int(n))]
        try:
            header = vl.new_header(players, mode=mode,
                                   nemesis=None if nemesis == "(none)" else nemesis,
                                   difficulty=difficulty, session_type=session, map_seed=seed)
        except ValueError as err:
            st.error(f"The header is not valid: {err}")
            return
        d = drafts.create(_ddir(), header)
        _open(d.id)
        st.rerun()


def _list() -> None:
    open_drafts = [d for d in drafts.list_drafts(_ddir())
                   if d.status == "open" and d.header.get("game") == "vestige"]
    st.subheader("Open Vestige drafts")
    if not open_drafts:
        ui.empty_state("No open Vestige draft: start a new game below.")
    for d in open_drafts:
        seats = ", ".join(str(s.get("faction")) for s in d.header.get("seats", []))
        if st.button(f"Resume {d.id} ({seats}; {len(d.events)} events)", key=f"vres-{d.id}"):
            _open(d.id)
            st.rerun()


def _recording(draft_id: str) -> None:
    d = drafts.load(_ddir(), draft_id)
    st.write(f"Draft **{d.id}** (saved after every event; the address keeps it across reloads).")
    if d.status != "open":
        st.info(f"This draft is {d.status}" + (f" (game {d.game_id})." if d.game_id else "."))
        if st.button("Back to the list"):
            _open(None)
            st.rerun()
        return
    r = vl.replay_draft(d.header, d.events)
    for f in r.findings:
        st.warning(f"{f.code}: {f.message}", icon=":material/rule:")
    snap = RULESET.snapshot(r.state)
    c = st.columns(3)
    c[0].metric("Events recorded", len(d.events))
    c[1].metric("Round", snap.get("round") or "setup")
    c[2].metric("Final round", snap.get("final_round") or "not yet")
    st.image(vm.render_svg(snap), caption="The map now (declared geometry)")
    st.dataframe([{"seat": s["seat"], "colour": s["colour"], "leverage": s["leverage"],
                   "speed": s["speed"], "space": s["space"], "regions": ", ".join(s["regions"])}
                  for s in snap.get("seats", [])], hide_index=True)
    passed = frozenset(st.session_state.get(PASSED, {}).get(len(d.events), ()))
    nxt = vl.next_decision(r, passed)
    cols = st.columns(3)
    if cols[0].button("Undo last event", disabled=not d.events, key="vrec_undo"):
        drafts.undo(_ddir(), d.id)
        st.session_state.pop(PASSED, None)
        st.rerun()
    if cols[1].button("Put this draft aside", key="vrec_abandon"):
        drafts.mark(_ddir(), d.id, "abandoned")
        _open(None)
        st.rerun()
    if nxt.kind == "end":
        st.success("The game is over.")
        if cols[2].button("Finish: archive and load", key="vrec_finish", type="primary"):
            result, problem = vl.finish(d.header, d.events, store.db_path())
            if problem:
                st.error(f"The game could not be stored: {problem}")
                return
            gid = result.reports[0].game_id if result and result.reports else None
            drafts.mark(_ddir(), d.id, "finished", game_id=gid)
            _open(None)
            st.rerun()
        return
    who = f"{nxt.actor} decides" if nxt.kind == "player" else "what the table drew or rolled"
    st.subheader(f"Next: {who}" + (f" ({nxt.label})" if nxt.label else ""))
    if not nxt.choices:
        st.error("The rules allow no move here; undo the last event.")
        return
    labels = [ch.label for ch in nxt.choices]
    pick = st.selectbox("What happened", range(len(labels)), format_func=lambda i: labels[i],
                        key=f"vrec_pick_{len(d.events)}")
    if st.button("Record", type="primary", key="vrec_record"):
        ch = nxt.choices[int(pick)]
        if ch.records:
            drafts.append_event(_ddir(), d.id, vl.stamp(vl.event_dict(ch.option)))
            st.session_state.pop(PASSED, None)
        else:
            kept = st.session_state.setdefault(PASSED, {})
            kept.setdefault(len(d.events), set()).add(getattr(ch.option, "key", ""))
        st.rerun()
    if st.button("Back to the list", key="vrec_list"):
        _open(None)
        st.rerun()


def render() -> None:
    if not ui.write_access():
        return
    draft_id = _current()
    if draft_id:
        _recording(draft_id)
        return
    _list()
    _start()


ui.guarded(render)
