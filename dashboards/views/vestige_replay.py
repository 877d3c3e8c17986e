"""Vestige replay: step through an archived Vestige game and see its map at every event."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import gamelog, replay_view, store, ui
from dashboards import vestige_map as vm
from dashboards import vestige_queries as vq
from dashboards.queries import Filters
from ingest.formats.vestige_notation import write_event_line

st.title("Vestige replay")
st.caption(
    "The engine rebuilds the game up to the chosen event. Tiles: grey while face down; a thick "
    "border in the controller's colour; numbered dots are the pawn spaces; pawns carry their "
    "seat number. The map mat is not printed in the rulebook: its geometry is declared "
    "(docs/vestige.md)."
)


def _step(delta: int, last: int) -> None:
    st.session_state["vrv_event"] = max(-1, min(last, st.session_state.get("vrv_event", -1) + delta))


def render() -> None:
    db = store.db_path()
    games = vq.games(db, Filters())
    if games.is_empty():
        ui.empty_state("No Vestige games yet. " + ui.NO_GAMES)
        return
    ids = games["game_id"].to_list()
    labels = {r["game_id"]: f"{r['game_id']} · {r['kind']} · {r['player_count']}p · "
              f"{r['mode'] or ''} · {r['rounds'] or '?'} rounds" for r in games.iter_rows(named=True)}
    qp = st.query_params.get("game")
    if qp in ids and st.session_state.get("vrv_game") != qp:
        st.session_state["vrv_game"] = qp
        st.session_state.pop("vrv_event", None)
    if st.session_state.get("vrv_game") not in ids:
        st.session_state["vrv_game"] = ids[0]
    gid = st.selectbox("Game", ids, format_func=lambda g: labels.get(g, g), key="vrv_game")
    st.query_params["game"] = gid
    log = gamelog.load(db, gid)
    if not log.readable:
        st.error("This game's log could not be read for replay.")
        return
    n = len(log.events)
    if n == 0:
        ui.empty_state("This game has no events to step through.")
        return
    last = n - 1
    if not isinstance(st.session_state.get("vrv_event"), int) or not -1 <= st.session_state["vrv_event"] <= last:
        st.session_state["vrv_event"] = last
    c1, c2, c3 = st.columns([1, 1, 8])
    c1.button("◀ Prev", on_click=_step, args=(-1, last), key="vrv_prev")
    c2.button("Next ▶", on_click=_step, args=(1, last), key="vrv_next")
    pos = c3.slider("Event (−1 = after setup)", min_value=-1, max_value=last, key="vrv_event")
    if pos >= 0:
        st.markdown(f"**Event {pos}**: `{write_event_line(log.events[pos], None)}`")
    try:
        result = replay_view.replay_until(log, pos)
    except Exception as err:  # an engine bug must not take the page down
        st.error(f"The engine could not replay this game to event {pos}: {err}")
        return
    from engine.vestige.ruleset import RULESET

    snap = RULESET.snapshot(result.state)
    caption = f"Round {snap.get('round') or 'setup'}, after event {pos}"
    svg = vm.render_svg(snap, caption)
    left, right = st.columns([3, 2])
    with left:
        st.image(svg, caption=caption, width="stretch")
        st.download_button("Map as SVG", svg, file_name=f"vestige-map-{gid}-{pos}.svg",
                           mime="image/svg+xml", key="vrv_svg", on_click="ignore")
    with right:
        st.dataframe(pl.DataFrame([
            {"seat": s["seat"], "colour": s["colour"], "leverage": s["leverage"],
             "speed": s["speed"], "space": s["space"], "regions": len(s["regions"]),
             "cards": len(s["cards"])} for s in snap.get("seats", [])]), hide_index=True)
        if snap.get("nemeses"):
            st.dataframe(pl.DataFrame(snap["nemeses"]).with_columns(
                pl.col("regions").list.len()), hide_index=True)
        st.write("Endgame conditions met: " + (", ".join(snap.get("endgame_met") or []) or "none"))
        if result.findings:
            st.dataframe(replay_view.findings_table(result.findings), hide_index=True)


ui.guarded(render)
