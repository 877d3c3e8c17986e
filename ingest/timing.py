"""Phase durations, computed from the events' recorded times (``t``): what every game shares.

:class:`Timing` is what a game's timing function returns (``Game.timing``, e.g. Mandate 2038's
``ingest.mandate2038.timing:compute_timing``): phase rows, turn-time rows and the totals of one
game. A game that declares ``timed_phases`` and no timing of its own gets :func:`phase_timing`.
Time between ``phase break`` and ``phase resume`` is left out of every phase it overlaps and of
the total (:func:`minutes_without_breaks`). Times with a timezone are converted to UTC without
one (:func:`naive_utc`); times without a zone are kept as the table's local clock. Pure
functions, no I/O.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any


def naive_utc(t: dt.datetime | None) -> dt.datetime | None:
    """A datetime as naive UTC when it has a timezone, else unchanged."""
    if t is None or t.tzinfo is None:
        return t
    return t.astimezone(dt.UTC).replace(tzinfo=None)


_T = attrgetter("t")


def event_times(events: Sequence[Any]) -> list[dt.datetime | None]:
    """Each event's time ``t`` (None when it has none) as :func:`naive_utc` gives it."""
    try:
        times = list(map(_T, events))  # every event model has the field (one C call)
    except AttributeError:
        times = [getattr(e, "t", None) for e in events]
    if times.count(None) == len(times):  # untimed (simulated) games: nothing to convert
        return times
    return [None if t is None else naive_utc(t) for t in times]


@dataclass(slots=True)
class Timing:
    """Phase rows, turn-time rows and the totals of one game."""

    phases: list[dict[str, Any]] = field(default_factory=list)
    turn_times: list[dict[str, Any]] = field(default_factory=list)
    total_minutes: float | None = None
    setup_minutes: float | None = None
    timed_events: int = 0


def minutes_without_breaks(start: dt.datetime, end: dt.datetime, breaks: list[tuple[dt.datetime, dt.datetime]]) -> float:
    """Minutes from ``start`` to ``end``, less the ``breaks`` they overlap."""
    span = (end - start).total_seconds()
    for b0, b1 in breaks:
        lo, hi = max(start, b0), min(end, b1)
        if hi > lo:
            span -= (hi - lo).total_seconds()
    return round(max(span, 0.0) / 60.0, 4)


def phase_timing(events: Sequence[Any], phases: Sequence[str],
                 indices: Sequence[int] | None = None) -> Timing:
    """The timing of a game that declares no timing function of its own (``Game.timing``):
    each ``phase NAME`` event whose NAME is one of the game's ``timed_phases`` opens that phase,
    which runs until the next ``phase`` event (or the last timed event); breaks (``phase break``
    .. ``phase resume``) are left out as in Mandate 2038's timing, and so are the totals. No turn
    times: which events are a turn is the game's to say."""
    out = Timing()
    times = event_times(events)
    timed = [t for t in times if t is not None]
    out.timed_events = len(timed)
    if not timed:
        return out
    breaks: list[tuple[dt.datetime, dt.datetime]] = []
    open_break: dt.datetime | None = None
    last_t = max(timed)
    wanted = set(phases)
    current: tuple[str, dt.datetime | None] | None = None
    end_t: dt.datetime | None = None

    def close(end: dt.datetime | None) -> None:
        if current is None or current[1] is None or end is None or end < current[1]:
            return
        out.phases.append({"phase": current[0], "era": None, "cycle": None,
                           "start_t": current[1], "end_t": end, "minutes": 0.0})

    for ev, t in zip(events, times, strict=True):
        if ev.type != "phase":
            continue
        name = getattr(ev, "name", None)
        if name == "break" and t is not None and open_break is None:
            open_break = t
            continue
        if name == "resume" and t is not None and open_break is not None:
            breaks.append((open_break, t))
            open_break = None
            continue
        if name in ("break", "resume"):
            continue
        close(t)
        current = (str(name), t) if name in wanted else None
        if name == "game_end" and t is not None:
            end_t = t
    if open_break is not None:
        breaks.append((open_break, last_t))
    close(last_t)
    for row in out.phases:
        row["minutes"] = minutes_without_breaks(row["start_t"], row["end_t"], breaks)
    first = min(timed)
    end = end_t or last_t
    if end > first:
        out.total_minutes = minutes_without_breaks(first, end, breaks)
    setup = [p["minutes"] for p in out.phases if p["phase"] == "setup"]
    out.setup_minutes = round(sum(setup), 4) if setup else None
    return out
