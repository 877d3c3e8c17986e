"""How long a game of Pig took, from the times the table recorded (events' ``t``): the
declaration's ``timing`` member, called by the toolkit's ingest.

* phases: the whole game, from ``phase game_start`` to ``phase game_end`` (or the last timed
  event), breaks left out (``ingest.timing.phase_timing``);
* turn times: each turn's seconds, from the end of the turn before (or the first timed event)
  to the event that ends it: a hold (§3.4) or a roll of 1 (§3.2); a turn whose ends are not both
  timed has no row. Rows carry the seat, how the turn ended (``hold`` / ``pig_out``) and the
  index of that event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.api import Timing, naive_utc, phase_timing
from playtest_pig.schema import TIMED_PHASES


def pig_timing(events: Sequence[Any], indices: Sequence[int] | None = None) -> Timing:
    """The phases, turn times and totals of one game's events (validated event models)."""
    out = phase_timing(events, TIMED_PHASES, indices)
    idx = list(indices) if indices is not None else list(range(len(events)))
    previous = None  # when the turn before ended (None: unknown)
    started = False  # a timed event or the end of a turn has been seen
    for ev, ix in zip(events, idx, strict=False):
        t = naive_utc(getattr(ev, "t", None))
        if not started and t is not None:  # the first turn runs from the first timed event
            previous, started = t, True
        ends = ev.type == "hold" or (ev.type == "roll" and ev.face == 1)
        if not ends:
            continue
        started = True
        if t is not None and previous is not None and t >= previous:
            out.turn_times.append({
                "era": None, "cycle": None, "seat": ev.seat,
                "action": "hold" if ev.type == "hold" else "pig_out", "event": ix,
                "seconds": round((t - previous).total_seconds(), 3)})
        previous = t
    return out
