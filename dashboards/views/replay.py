"""Replay viewer: step through any game of any registered game event by event and see the table
at that moment (the board picture and state panel come from the game's app part,
:mod:`dashboards.gameapps`)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import gameapps, gamelog, queries, replay_view, store, ui
from dashboards.ui import md_text, plural
from engine.core.ruleset import Ruleset

#: games offered by the picker (any other opens by its id)
PICKER_GAMES = 1000

st.title("Replay viewer")
st.caption("The state comes from replaying the archived log up to the chosen event with the "
           "rules engine. Links from the Audit page open here at the finding's event "
           "(query parameters `game` and `event`).")


@st.cache_resource(max_entries=16, show_spinner=False)
def _load(db: str, game_id: str, stamp: float, _seats: pl.DataFrame | None = None
          ) -> gamelog.GameLog:
    """The archived game (cached per database file version; ``_seats``, the game's seats
    as the picker read them, is not part of the key: they are the game's in that version)."""
    return gamelog.load(Path(db), game_id, _seats)


def _step(delta: int, last: int) -> None:
    st.session_state["rv_event"] = max(-1, min(last, st.session_state.get("rv_event", -1) + delta))


def render() -> None:
    db = store.db_path()
    qp_game, qp_event = st.query_params.get("game"), st.query_params.get("event")
    typed = st.session_state.get("rv_find")
    wanted = [str(g) for g in (qp_game, st.session_state.get("rv_game"), typed) if g]
    games = queries.game_choices(db, None, "newest", PICKER_GAMES, wanted)
    if games.is_empty():
        ui.empty_state(ui.NO_GAMES)
        return
    ids = games["game_id"].to_list()
    total = int(games["total"][0])
    if typed and typed in ids and st.session_state.get("_rv_typed") != typed:
        st.session_state["rv_game"] = typed  # a game opened by its id
        st.session_state.pop("rv_event", None)
    st.session_state["_rv_typed"] = typed
    # follow the address when it changed (a link from Audit) or when the widgets' state was
    # dropped on a page change; otherwise the widgets lead and the address follows them
    stale = st.session_state.get("rv_game") not in ids
    if qp_game in ids and (stale or st.session_state.get("_rv_synced") != (qp_game, qp_event)):
        st.session_state["rv_game"] = qp_game
        if qp_event is not None and qp_event.lstrip("-").isdigit():
            st.session_state["rv_event"] = int(qp_event)
        else:
            st.session_state.pop("rv_event", None)
        st.session_state["_rv_synced"] = (qp_game, qp_event)
    elif qp_game is not None and qp_game not in ids:
        st.warning(f"Game {qp_game!r} is not in the warehouse; showing the newest game instead.")
    # the picker's seats: its lines' factions, and the chosen game's header when it is rebuilt
    # from the warehouse (no archive file, no receipt)
    seats = queries.picker_seats(db, ids)
    labels = ui.game_labels(games, queries.factions_of(seats))
    if st.session_state.get("rv_game") not in ids:
        st.session_state["rv_game"] = ids[0]
    gid = st.selectbox("Game", ids, format_func=lambda g: labels.get(g, g), key="rv_game")
    if total > PICKER_GAMES:
        st.text_input("Open a game by its id",
                      key="rv_find", help=f"The list holds the newest {PICKER_GAMES:,} of "
                      f"{total:,} games; any other opens by its id (or `?game=<id>`).")
        if typed and typed not in ids:
            st.warning(f"No game {typed!r} in the warehouse.")
    stamp = db.stat().st_mtime if db.exists() else 0.0
    log = _load(str(db), gid, stamp,
                seats.filter(pl.col("game_id") == gid) if "game_id" in seats.columns else None)
    for p in log.problems[:5]:
        st.caption(f"Note: {p}")
    if not log.readable:
        st.error("This game's log could not be read for replay.")
        return
    ga = gameapps.app(str(getattr(log.header, "game", "") or ""))
    st.caption(f"{ga.title} · {plural(len(log.events), 'event')}")
    n = len(log.events)
    if n == 0:
        ui.empty_state("This game has no events to step through.")
        return
    last = n - 1
    if not isinstance(st.session_state.get("rv_event"), int) or not -1 <= st.session_state["rv_event"] <= last:
        st.session_state["rv_event"] = last
    c1, c2, c3 = st.columns([1, 1, 8])
    c1.button("◀ Prev", on_click=_step, args=(-1, last), key="rv_prev", width="stretch")
    c2.button("Next ▶", on_click=_step, args=(1, last), key="rv_next", width="stretch")
    pos = c3.slider("Event (−1 = after setup)", min_value=-1, max_value=last, key="rv_event")
    st.query_params.update({"game": gid, "event": str(pos)})
    st.session_state["_rv_synced"] = (gid, str(pos))
    if pos >= 0:
        ev = log.events[pos]
        line = log.lines[pos] if pos < len(log.lines) else None
        st.markdown(f"**Event {pos}**{f' (line {line})' if line else ''}: "
                    f"{md_text(_label(ga, ev))}")
    else:
        st.markdown("**After setup**, before the first event.")

    try:
        from engine.core.registry import get_ruleset

        rs = get_ruleset(ga.id)
    except Exception as err:  # the engine failing to import must not take the page down
        rs = None
        st.caption(f"Engine import failed: {err}")
    if rs is None or not hasattr(rs, "apply"):
        st.warning("The rules engine for this game is not available in this checkout yet, so "
                   "the state cannot be rebuilt; the events are listed instead.")
        _event_list(ga, log, pos)
        return
    try:
        result = replay_view.replay_until(log, pos)
    except Exception as err:  # an engine bug: show it as a message, keep the page alive
        st.error(f"The engine could not replay this game to event {pos}: {err}")
        _event_list(ga, log, pos)
        return
    here = [f for f in result.findings if f.where.event == pos] if pos >= 0 else []
    for f in here:  # the finding at this event, in full: message, expected and recorded
        box = st.error if f.severity == "error" else st.warning
        values = replay_view.findings_table([f]).row(0, named=True)
        extra = "".join(f"  \n**{k.capitalize()}**: {md_text(values[k])}"
                        for k in ("expected", "recorded") if values[k] is not None)
        box(f"**{f.code}** ({md_text(f.rule)}) at event {pos}: {md_text(f.message)}{extra}",
            icon=":material/report:")
    panel = ga.board_picture or generic_panel
    panel(gid, log, pos, result, rs)
    _event_list(ga, log, pos)


def _label(ga: gameapps.GameApp, ev: object) -> str:
    """An event in words, by the game's own labeller (else the shared one)."""
    fn = ga.part("event_label") or replay_view.event_label
    try:
        return str(fn(ev))
    except Exception:  # a labeller bug must not hide the event
        return replay_view.event_label(ev)


def generic_panel(gid: str, log: gamelog.GameLog, pos: int, result: object,
                  rs: Ruleset | None) -> None:
    """The state panel of a game without its own: the engine's findings so far and snapshot."""
    found = list(getattr(result, "findings", []) or [])
    st.markdown(f"**Findings so far**: {len(found)}")
    if found:
        ui.table(replay_view.findings_table(found))
    snap = rs.snapshot if rs is not None else None
    if callable(snap):
        with st.expander("The table at this event (engine snapshot)", expanded=True):
            try:
                st.json(json.loads(json.dumps(snap(getattr(result, "state", None)), default=str)))
            except Exception as err:
                st.caption(f"The snapshot is not available: {err}")


def _event_list(ga: gameapps.GameApp, log: gamelog.GameLog, pos: int) -> None:
    lo = max(0, pos - 8)
    rows = [{"event": i, "line": log.lines[i] if i < len(log.lines) else None,
             "": "▶" if i == pos else "", "what": _label(ga, log.events[i])}
            for i in range(lo, min(len(log.events), pos + 9))]
    with st.expander("Events around this one", expanded=True):
        ui.table(pl.DataFrame(rows))


ui.guarded(render, reads_only=True)
