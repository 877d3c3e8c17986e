"""Mandate 2038's recorder (the Record page's part for this game): live entry at the table,
guided by the rules engine.

Set up a session, then record the game as it is played: the page shows the phase, whose
decision it is and only the legal choices (complete events from the engine's legal-move
generator). Each event is timestamped and appended to a draft file on disk at once (fsynced),
so a browser refresh or a server restart loses nothing: the draft id is in the address
(``?draft=...``) and every draft can be resumed from the list.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import (
    drafts,
    protocols,
    record_nav,
    replay_view,
    store,
    ui,
    variant_pick,
)
from dashboards.filters import SESSION_TYPE_LABELS
from dashboards.gameapps import Recorder
from dashboards.mandate2038 import hexmap, live
from dashboards.ui import plural
from schemas.log import HUMAN_SESSION_TYPES

SESSION_TYPES = ["facilitated_playtest", "blind_playtest", "developer_walkthrough",
                 "browser_walkthrough"]
SESSION_A = ["mirevanta", "kestralyn", "corthaven", "loopfold", "dovetalis", "orisonix"]
MANY = 10  # above this many options, a picker replaces one button per option
#: the setup form's choices in words (the header keeps the ids)
PROFILES = {"default": "Default game", "advanced": "Advanced game"}
DETAILS = {"full": "Every decision", "partial": "Only some events"}


def _protocol_words(ref: str) -> str:
    """``mandate2038-observation@1`` as "Observation protocol, version 1"."""
    if ref == "(none)":
        return "No observation protocol"
    version = ref.rpartition("@")[2]
    return f"Mandate 2038 observation protocol, version {version}"


def _ddir() -> Path:
    return record_nav.ddir()


def _open(draft_id: str | None) -> None:
    record_nav.open_draft(draft_id)


def _record(draft_id: str, at: tuple[int, int], event: dict[str, Any]) -> None:
    """Append one event to the draft (fsynced) with the time now, answering the decision drawn
    at position ``at`` (events recorded, options passed): a stale answer writes nothing."""
    if not _current(draft_id, at):
        return
    if record_nav.record_at(draft_id, at[0], [live.stamp(event)]):
        st.session_state["passed"] = frozenset()
        st.session_state["last_recorded"] = event.get("type")


def _unpass() -> None:
    st.session_state["passed"] = frozenset()


def _pass(draft_id: str, at: tuple[int, int], key: str) -> None:
    if _current(draft_id, at) and len(drafts.load(_ddir(), draft_id).events) == at[0]:
        st.session_state["passed"] = frozenset(st.session_state.get("passed", frozenset())
                                               | {key})
    else:
        st.toast(record_nav.STALE, icon=":material/touch_app:")


def _current(draft_id: str, at: tuple[int, int]) -> bool:
    """True while no option was passed since the decision at ``at`` was drawn (a stale tap on a
    decision drawn before a pass is refused quietly)."""
    if len(st.session_state.get("passed", frozenset())) == at[1]:
        return True
    st.toast(record_nav.STALE, icon=":material/touch_app:")
    return False


def _position(n_events: int) -> tuple[int, int]:
    """Where a decision is drawn: the events recorded and the options passed since."""
    return n_events, len(st.session_state.get("passed", frozenset()))


# --- a new session ----------------------------------------------------------------------------


def new_session() -> None:
    """The new-session form; "Start recording" creates the draft and opens it."""
    pack = live.pack()
    names = live.factions(pack)
    n = st.number_input("Players", min_value=2, max_value=6, value=4, key="new_n",
                        help="3-5 suggested; 4 is the balance authority.")
    if not 3 <= int(n) <= 5:
        st.warning(f"The rulebook suggests 3-5 players (core rules, front page); a "
                   f"{int(n)}-player game is outside it. It can be recorded, but the audit "
                   "flags the player count and it is not Default Game evidence.",
                   icon=":material/group:")
    seats: list[tuple[str, str | None]] = []
    cols = st.columns(int(n))
    fids = list(names)
    for i in range(int(n)):
        with cols[i]:
            default = SESSION_A[i] if SESSION_A[i] in fids else fids[i % len(fids)]
            fac = st.selectbox(f"Seat {i + 1} faction", fids, index=fids.index(default),
                               format_func=lambda f: names.get(f, f), key=f"new_fac_{i}")
            player = st.text_input(f"Seat {i + 1} player", key=f"new_player_{i}",
                                   placeholder="name or initials (optional)")
            seats.append((fac, player.strip() or None))
    c1, c2, c3 = st.columns(3)
    session_type = c1.selectbox(
        "Session type", SESSION_TYPES, key="new_type",
        format_func=lambda v: SESSION_TYPE_LABELS.get(v, v),
        help="Blind playtest only when players used the supplied rules and components without "
        "designer answers. Simulations are written by `playtest simulate`, never here.")
    profile = c2.radio("Profile", list(PROFILES), horizontal=True, key="new_profile",
                       format_func=PROFILES.__getitem__)
    versions = []
    try:
        from schemas.packs import available_protocol_versions

        versions = available_protocol_versions(protocols.DEFAULT_PROTOCOL)
    except Exception:
        versions = []
    proto_opts = [f"{protocols.DEFAULT_PROTOCOL}@{v}" for v in reversed(versions)] + ["(none)"]
    protocol = c3.selectbox("Observation protocol", proto_opts, key="new_protocol",
                            format_func=_protocol_words)
    detail = st.radio(
        "Detail", list(DETAILS), horizontal=True, key="new_detail",
        format_func=DETAILS.__getitem__,
        help="Every decision: the whole game will be recorded. Only some events: e.g. Era "
        "checkpoints and the final record, so missing structure is not an error.")
    c4, c5, c6 = st.columns(3)
    date = c4.date_input("Date", value=dt.date.today(), key="new_date")
    venue = c5.text_input("Venue", key="new_venue")
    facilitator = c6.text_input("Facilitator", key="new_facilitator")

    st.markdown("**Map**")
    how = st.radio("Layout", ["Shuffle the ring pools now (seeded)", "Enter each position",
                              "Not recorded"], horizontal=True, key="new_maphow")
    layout: dict[str, str] | None = None
    seed_note = None
    if how.startswith("Shuffle"):
        if "new_seed" not in st.session_state:
            st.session_state["new_seed"] = secrets.token_hex(4)
        seed = st.text_input("Map seed", key="new_seed")
        layout = live.random_layout(pack, seed) if pack is not None else None
        seed_note = f"map shuffled by the dashboard with seed {seed!r}"
    elif how.startswith("Enter"):
        tiles = live.tile_names(pack)
        ids = [t for t in tiles if t != "frontier"]
        layout = {"F": "frontier"}
        grid = st.columns(6)
        for k, pos in enumerate(live.INNER + live.OUTER):
            layout[pos] = grid[k % 6].selectbox(pos, ids, key=f"new_pos_{pos}",
                                                format_func=lambda t: tiles.get(t, t))
    if layout:
        view: dict[str, Any] = {"tiles": layout, "seats": [], "fusion_hex": None}
        with st.expander("Map preview", expanded=False):
            st.image(hexmap.render_svg(view, live.tile_names(pack)), width=480)

    st.markdown("**Initiative**")
    ini_opts = ["Draw at random now"] + [f"Seat {i}" for i in range(1, int(n) + 1)]
    ini = st.selectbox("First Initiative", ini_opts, key="new_ini")
    start_setup = st.checkbox("Setup starts now (record the setup start time)", value=True,
                              key="new_setup_now")
    variant, usable = variant_pick.pick("mandate2038", "new_variant")
    if st.button("Start recording", type="primary", key="new_start", disabled=not usable):
        if len({f for f, _ in seats}) != len(seats):
            st.error("Each seat needs a different faction.")
            return
        first = (secrets.SystemRandom().randint(1, int(n)) if ini.startswith("Draw")
                 else int(ini.split()[-1]))
        header, problem = live.new_header(
            seats=seats, session_type=session_type, layout=layout, first_initiative=first,
            protocol=None if protocol == "(none)" else protocol, profile=profile,
            date=date if isinstance(date, dt.date) else None, venue=venue.strip() or None,
            facilitator=facilitator.strip() or None, notes=seed_note, detail=detail,
            variant=variant)
        if problem or header is None:
            st.error(problem or "the session could not be created")
            return
        d = drafts.create(_ddir(), header)
        if start_setup:
            drafts.append_event(_ddir(), d.id, live.stamp({"type": "phase", "name": "setup"}))
        _open(d.id)
        st.rerun()


def draft_seats(header: dict[str, Any]) -> str:
    """The seats of a draft in words (faction names)."""
    names = live.factions(live.pack())
    return ", ".join(names.get(s.get("faction", "?"), s.get("faction", "?"))
                     for s in header.get("seats", []))


# --- recording ----------------------------------------------------------------------------------


def observation_popover(draft_id: str, at: tuple[int, int], era: int | None,
                        cycle: int | None) -> None:
    protocol, _ = protocols.load(None)
    cats: list[tuple[str, str]] = [(c.id, c.name) for c in protocol.categories] if protocol is not None else [
        ("rules_lookup", "Rules lookup"), ("intervention", "Facilitator intervention"),
        ("deviation", "Rules deviation"), ("moment", "Moment")]
    with st.popover("Add observation", icon=":material/visibility:"), \
            st.form("obs_form", clear_on_submit=True, border=False):
        cat_names = dict(cats)
        cat = st.selectbox("Category", [c for c, _ in cats],
                           format_func=lambda c: cat_names.get(c, c), key="obs_cat")
        text = st.text_input("What happened", key="obs_text")
        c1, c2 = st.columns(2)
        rule = c1.text_input("Rule section (optional)", key="obs_rule")
        minutes = c2.number_input("Minutes (optional)", min_value=0.0, value=0.0,
                                  step=0.5, key="obs_minutes")
        if st.form_submit_button("Add", type="primary"):
            if not text.strip():
                st.error("Write what happened.")
            else:
                ev: dict[str, Any] = {"type": "observation", "category": cat,
                                      "text": text.strip()}
                if rule.strip():
                    ev["rule"] = rule.strip()
                if minutes:
                    ev["minutes"] = float(minutes)
                _record(draft_id, at, ev)
                st.toast("Observation recorded", icon=":material/check:")
                st.rerun()


def decision_panel(draft_id: str, nxt: live.Next, seat_names: dict[int, str],
                   places: dict[str, str], at_event: int = 0) -> None:
    """The next decision's choices. ``at_event`` (events recorded so far) keys the secret
    selection pickers, so each selection round starts empty instead of repeating the last, and
    (with the options passed) every choice's key and answer: a tap on a decision no longer on
    the screen's server side is refused (:func:`dashboards.record_nav.record_at`)."""
    pos = _position(at_event)
    tag = f"{pos[0]}_{pos[1]}"
    who = f"Seat {nxt.seat} ({seat_names.get(nxt.seat, '?')})" if nxt.seat else "The table"
    if nxt.kind == "end":
        st.success(f"{nxt.label or 'The game is over'}. Finish below to archive and load it.",
                   icon=":material/flag:")
        return
    if nxt.kind == "unknown":
        st.info(f"No guided choices: {nxt.problem}. Use the event form below.",
                icon=":material/info:")
        return
    if nxt.kind == "simultaneous":
        st.markdown(f"**Secret selection** — every seat picks, then reveal. {nxt.label}")
        st.caption("Nothing is picked in advance: choose each seat's card as it is revealed.")
        picks: dict[int, Any] = {}
        cols = st.columns(max(1, len(nxt.per_seat)))
        for k, (seat, opts) in enumerate(sorted(nxt.per_seat.items())):
            picks[seat] = cols[k].selectbox(f"Seat {seat} ({seat_names.get(seat, '?')})", opts,
                                            format_func=live.option_label, index=None,
                                            placeholder="Choose the revealed card",
                                            key=f"sel_{at_event}_{seat}")
        if st.button("Reveal selections", type="primary", key=f"reveal_go_{tag}"):
            missing = [seat for seat, pick in picks.items() if pick is None]
            if missing:
                st.error("Choose the selection of " + ", ".join(f"Seat {m}" for m in missing)
                         + " first: nothing was recorded.")
                return
            try:
                event = nxt.combine(picks) if nxt.combine else None
            except Exception as err:
                st.error(f"These selections could not be combined: {err}")
                return
            if event is None:
                st.error("The engine gave no reveal event for these selections; use the form below.")
                return
            _record(draft_id, pos, live.event_dict(event))
            st.rerun()
        return
    heading = "What happened?" if nxt.kind == "chance" else f"{who} decides"
    st.markdown(f"**{heading}** — {nxt.label}")
    options = [o for o in nxt.options if getattr(o, "type", None) != "trade"]
    trades = [o for o in nxt.options if getattr(o, "type", None) == "trade"]
    if not options and not trades:
        st.info("No legal option is listed here; use the event form below.")
        return
    if trades:
        with st.popover(f"Immediate trade first ({len(trades)} offers)", icon=":material/swap_horiz:"):
            st.caption("Before resolving, the acting player may make one 1-for-1 offer to one rival.")
            tl = [live.option_label(o, places) for o in trades]
            ti = st.selectbox("Offer and answer", range(len(trades)), format_func=lambda i: tl[i],
                              key="trade_pick")
            st.button("Record trade", key=f"trade_go_{tag}", on_click=_record,
                      args=(draft_id, pos, live.event_dict(trades[ti])))
    if not options:
        return
    if len(options) <= MANY:
        cols = st.columns(min(len(options), 3))
        for k, opt in enumerate(options):
            label = live.option_label(opt, places)
            if live.is_pass(opt):
                cols[k % 3].button(label, key=f"opt_{tag}_{k}", on_click=_pass,
                                   args=(draft_id, pos, opt.key),
                                   width="stretch")
            else:
                cols[k % 3].button(label, key=f"opt_{tag}_{k}", on_click=_record,
                                   args=(draft_id, pos, live.event_dict(opt)), width="stretch",
                                   type="primary" if len(options) == 1 else "secondary")
        return
    moves: dict[tuple[str, tuple[str, ...]], list[Any]] = {}
    others = []
    for o in options:
        m = live.move_of(o)
        if m is None:
            others.append(o)
        else:
            moves.setdefault(m, []).append(o)
    if len(moves) > 1 and len(others) <= MANY:
        # a turn: pick the acting piece's move, then what it does there
        keys = list(moves)
        mk = st.selectbox(f"Acting piece and move ({len(keys)} moves, {len(options)} choices)",
                          range(len(keys)), format_func=lambda i: live.move_label(keys[i], places),
                          key=f"opt_move_{tag}")
        variants = moves[keys[mk]]
        cols = st.columns(min(len(variants), 3))
        for j, opt in enumerate(variants):
            cols[j % 3].button(live.variant_label(opt), key=f"opt_var_{tag}_{j}",
                               on_click=_record, args=(draft_id, pos, live.event_dict(opt)),
                               width="stretch",
                               type="primary" if len(variants) == 1 else "secondary")
        for k, opt in enumerate(others):
            label = live.option_label(opt, places)
            if live.is_pass(opt):
                st.button(label, key=f"opt_other_{tag}_{k}", on_click=_pass,
                          args=(draft_id, pos, opt.key))
            else:
                st.button(label, key=f"opt_other_{tag}_{k}", on_click=_record,
                          args=(draft_id, pos, live.event_dict(opt)))
        with st.expander(f"All {len(options)} choices as one list"):
            _full_list(draft_id, pos, options, places)
        return
    _full_list(draft_id, pos, options, places)


def _full_list(draft_id: str, pos: tuple[int, int], options: list[Any],
               places: dict[str, str]) -> None:
    tag = f"{pos[0]}_{pos[1]}"
    labels = [live.option_label(o, places) for o in options]
    pick = st.selectbox(f"{len(options)} legal choices", range(len(options)),
                        format_func=lambda i: labels[i], key=f"opt_pick_{tag}")
    chosen = options[pick]
    if live.is_pass(chosen):
        st.button("Decline", key=f"opt_go_{tag}", on_click=_pass,
                  args=(draft_id, pos, chosen.key))
    else:
        st.button("Record", type="primary", key=f"opt_go_{tag}", on_click=_record,
                  args=(draft_id, pos, live.event_dict(chosen)))


def manual_form(draft_id: str, at: tuple[int, int], expanded: bool) -> None:
    with st.expander("Record an event by hand", expanded=expanded,
                     icon=":material/keyboard:"):
        st.caption("For anything the guided choices do not list (or when the engine's "
                   "legal-move generator is not available). The event is checked against the "
                   "log schema before it is written.")
        types_ = live.event_types()
        etype = st.selectbox("Event type", types_, key="man_type")
        values: dict[str, Any] = {}
        specs = live.event_fields(etype)
        cols = st.columns(3)
        for k, spec in enumerate(specs):
            col = cols[k % 3]
            key = f"man_{etype}_{spec.name}"
            label = spec.name + ("" if spec.required else " (optional)")
            if spec.kind == "choice":
                opts = ([] if spec.required else ["(none)"]) + [c for c in spec.choices]
                default = spec.default if spec.default in opts else opts[0]
                values[spec.name] = col.selectbox(label, opts, index=opts.index(default), key=key)
            elif spec.kind == "bool":
                values[spec.name] = col.checkbox(spec.name, value=bool(spec.default), key=key)
            elif spec.kind == "int":
                values[spec.name] = col.text_input(
                    label, value="" if spec.default is None else str(spec.default), key=key,
                    max_chars=live.MAX_INT_DIGITS + 1)  # checked by live.build_event
            else:
                values[spec.name] = col.text_input(label, key=key, help=spec.help or None)
        if st.button("Record this event", key="man_go"):
            event, problem = live.build_event(etype, values)
            if problem or event is None:
                st.error(f"Not recorded: {problem}")
            else:
                _record(draft_id, at, event)
                st.rerun()


def survey_form(draft_id: str, at: tuple[int, int], seats: list[int]) -> None:
    protocol, problem = protocols.load(None)
    with st.expander("Post-game survey", icon=":material/quiz:"):
        if protocol is None:
            st.caption(problem or "no protocol")
            return
        item = st.selectbox("Question", [s.id for s in protocol.survey],
                            format_func=lambda i: protocol.survey_item(i).question, key="sv_item")
        spec = protocol.survey_item(item)
        seat = None
        if spec.per_seat:
            seat = st.selectbox("Seat", seats, key="sv_seat")
        if spec.answer == "scale":
            value: Any = st.slider(f"{spec.low or spec.minimum} … {spec.high or spec.maximum}",
                                   spec.minimum or 1, spec.maximum or 5, key="sv_scale")
        elif spec.answer == "yes_no":
            value = st.radio("Answer", ["yes", "no"], horizontal=True, key="sv_yes")
        else:
            value = st.text_input("Answer", key="sv_text")
        if st.button("Record answer", key="sv_go"):
            bad = spec.problem(value)
            if bad:
                st.error(bad)
            else:
                ev = {"type": "survey", "item": item, "value": value}
                if seat is not None:
                    ev["seat"] = seat
                _record(draft_id, at, ev)
                st.toast("Answer recorded", icon=":material/check:")
                st.rerun()


def recording(draft_id: str) -> None:
    ddir = _ddir()
    d = drafts.load(ddir, draft_id)
    for p in d.problems:
        st.caption(f"Draft note: {p}")
    header = d.header
    names = live.factions(live.pack())
    seat_names = {s["seat"]: names.get(s["faction"], s["faction"]) for s in header.get("seats", [])}
    top = st.columns([4, 1, 1])
    kind = SESSION_TYPE_LABELS.get(header.get("session_type", ""), "session type not set")
    variant = variant_pick.variant_words(header)
    top[0].markdown(f"**Mandate 2038** · {kind} · "
                    + (f"{variant} · " if variant else "")
                    + ", ".join(f"{k}: {v}" for k, v in seat_names.items()))
    top[1].button("Leave", key="leave", on_click=_open, args=(None,),
                  help="Back to the list; the draft stays on disk and can be resumed.")
    if d.status != "open":
        if st.session_state.get("just_finished") == d.id:
            st.success(f"Archived and loaded{f' as game `{d.game_id}`' if d.game_id else ''}.",
                       icon=":material/check_circle:")
            if d.game_id:
                st.page_link("views/audit.py", label="Open in Audit",
                             query_params={"game": d.game_id})
                st.page_link("views/replay.py", label="Open in the Replay viewer",
                             query_params={"game": d.game_id})
        st.info(f"This draft is {d.status}" + (f" (game `{d.game_id}`)" if d.game_id else "")
                + "; nothing more can be recorded in it.", icon=":material/inventory_2:")
        if d.status == "abandoned" and top[2].button("Reopen", key="reopen"):
            drafts.mark(ddir, d.id, "reopened")
            st.rerun()
        _events_table(d)
        return
    rep = live.replay_draft(header, d.events)
    state = getattr(rep.result, "state", None)
    era, cycle = getattr(state, "era", None), getattr(state, "cycle", None)
    nxt = live.next_decision(rep.result, st.session_state.get("passed", frozenset()))
    status = st.columns([3, 1])
    with status[0]:
        if state is not None:
            st.markdown(f"**Era** {replay_view.ROMAN.get(era or 0, str(era or '-'))} · **cycle** "
                        f"{cycle or '-'} · **phase** {ui.words(getattr(state, 'phase', None))} · "
                        f"**Initiative** seat {getattr(state, 'initiative', '?')} · "
                        f"**{plural(len(d.events), 'event')}**")
        else:
            st.markdown(f"**{plural(len(d.events), 'event')}** recorded")
            if rep.engine_problem:
                st.caption(f"Engine: {rep.engine_problem}")
    with status[1]:
        observation_popover(d.id, _position(len(d.events)), era, cycle)
    for b in rep.bad_events:
        st.error(b)

    findings = list(getattr(rep.result, "findings", []) or [])
    if findings:
        last = len(d.events) - 1
        fresh = [f for f in findings if f.where.event == last]
        for f in fresh:
            st.warning(f"**{f.code}** ({f.rule}): {f.message}", icon=":material/report:")
        with st.expander(f"Findings so far: {len(findings)}", expanded=bool(fresh)):
            ui.table(replay_view.findings_table(findings))

    decision_panel(d.id, nxt, seat_names, live.places(state, live.pack()), len(d.events))

    pos = _position(len(d.events))
    tag = f"{pos[0]}_{pos[1]}"
    c = st.columns([2, 1, 1, 1])
    if d.events:
        c[0].button(f"Undo: {replay_view.event_label(d.events[-1])[:60]}", key="undo",
                    on_click=_ask, args=("undo",), icon=":material/undo:")
    c[1].button("Setup finished", key=f"mk_setup_end_{tag}", on_click=_record,
                args=(d.id, pos, {"type": "phase", "name": "setup_end"}))
    c[2].button("Break", key=f"mk_break_{tag}", on_click=_record,
                args=(d.id, pos, {"type": "phase", "name": "break"}))
    c[3].button("Resume", key=f"mk_resume_{tag}", on_click=_record,
                args=(d.id, pos, {"type": "phase", "name": "resume"}))

    if st.session_state.get("confirm") == "undo" and d.events:
        record_nav.ask_undo(d.id, len(d.events), replay_view.event_label(d.events[-1]), "undo",
                            lambda: _ask(None), _unpass)
    manual_form(d.id, pos, expanded=nxt.kind == "unknown")
    if state is not None:
        with st.expander("Map and resources", icon=":material/hexagon:"):
            m1, m2 = st.columns([3, 2])
            m1.image(hexmap.render_svg(hexmap.board_view(state), live.tile_names(live.pack()),
                                       replay_view.content_names()), width="stretch")
            with m2:
                ui.table(replay_view.seat_table(state))
    survey_form(d.id, pos, sorted(seat_names))
    _events_table(d)
    finish_panel(d)


def _events_table(d: drafts.Draft) -> None:
    with st.expander(f"Events recorded ({len(d.events)}; {d.undone} undone)",
                     icon=":material/list:"):
        rows = [{"event": i, "time": e.get("t"), "what": replay_view.event_label(e)}
                for i, e in enumerate(d.events)]
        st.dataframe(pl.DataFrame(rows, schema={"event": pl.Int64, "time": pl.Utf8,
                                                "what": pl.Utf8}),
                     hide_index=True, width="stretch")


def _ask(what: str | None) -> None:
    st.session_state["confirm"] = what


def finish_panel(d: drafts.Draft) -> None:
    """Finish (archive and load) or abandon the draft; both ask once more before acting."""
    st.divider()
    st.markdown("**Finish**: archive the game and load it into the warehouse.")
    try:
        text = json.dumps({"format": "playtest-log", "format_version": 1, "header": d.header,
                           "events": d.events}, ensure_ascii=False, indent=1)
    except (TypeError, ValueError):
        text = ""
    asking = st.session_state.get("confirm")
    c = st.columns([1, 1, 1, 3])
    c[0].button("Finish and load", type="primary", key="finish", on_click=_ask,
                args=("finish",))
    c[1].download_button("Download log (JSON)", text, file_name=f"draft-{d.id}.json",
                         mime="application/json", key="dl_draft", on_click="ignore")
    c[2].button("Abandon", key="abandon", on_click=_ask, args=("abandon",),
                help="Keep the file but take it off the list.")
    if d.header.get("session_type") not in HUMAN_SESSION_TYPES:
        c[3].caption("This session type is not a human playtest: it will not count as evidence.")
    cancel = lambda: _ask(None)  # noqa: E731
    if asking == "finish":
        if ui.confirm(ui.finish_question(len(d.events)), "Yes, finish and load", "finish",
                      cancel):
            _ask(None)
            result, problem = live.finish(d.header, d.events, store.db_path(), d.id)
            if problem:
                st.error(problem)
                return
            drafts.mark(_ddir(), d.id, "finished", game_id=live.game_id_of(result))
            st.session_state["just_finished"] = d.id
            st.rerun()
    elif asking == "abandon":
        record_nav.ask_aside(d.id, "abandon", cancel)


#: what the game's declaration names as its ``recorder`` (dashboards.gameapps.Recorder)
RECORDER = Recorder(new_session=new_session, recording=recording, draft_seats=draft_seats)
