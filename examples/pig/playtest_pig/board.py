"""The board picture of the Replay viewer: Pig's score sheet at a position (the declaration's
``board_picture``; the app calls it as ``fn(game_id, log, pos, result, ruleset)``).

A game of Pig has no board: its picture is the race to the target, every seat's banked score
with the turn total at stake for the seat on turn, and the findings so far.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from playtest_pig import charts
from playtest_pig.records import snapshot


def race(snap: dict[str, Any]) -> pl.DataFrame:
    """One row per seat: ``seat`` (a label), ``part`` (banked / at stake), ``points``."""
    rows = []
    for seat, score in snap["scores"].items():
        label = f"Seat {seat}"
        rows.append({"seat": label, "part": "Banked", "points": score})
        at_stake = snap["turn_total"] if int(seat) == snap["active"] and not snap["over"] else 0
        rows.append({"seat": label, "part": "Turn total at stake", "points": at_stake})
    return pl.DataFrame(rows, schema={"seat": pl.String, "part": pl.String, "points": pl.Int64})


def score_track(game_id: str, log: Any, pos: int, result: Any, ruleset: Any) -> None:
    """Draw the race at event ``pos`` (``result``: the replay up to it)."""
    state = getattr(result, "state", None)
    if state is None:
        st.info("The game could not be replayed to this event.")
        return
    snap = snapshot(state)
    if snap["over"]:
        who = ", ".join(f"seat {w}" for w in snap["winners"])
        st.markdown(f"**The game is over**: {who} won (round {snap['round']}).")
    else:
        rolls = ", ".join(str(f) for f in snap["rolls_this_turn"]) or "none yet"
        st.markdown(f"**Round {snap['round']}, turn {snap['turn']}**: seat {snap['active']} is "
                    f"on turn; rolls so far {rolls} (turn total {snap['turn_total']}).")
    st.altair_chart(charts.race(race(snap), snap["target"]), width="stretch")
    found = list(getattr(result, "findings", []) or [])
    st.markdown(f"**Findings so far**: {len(found)}")
    for f in found[-5:]:
        st.caption(f"{f.code} ({f.rule}): {f.message}")
