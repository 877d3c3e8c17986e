"""Mandate 2038's phase durations and per-turn times, from the events' recorded times (``t``):
its declaration's ``timing`` (the shared part, :class:`ingest.timing.Timing`, is the toolkit's).

Phases (FACTS.md §11.4 asks for setup, cycle, Era, Production, Audit, scoring and total time):

* ``setup``: ``phase setup`` until ``phase setup_end`` (or the first ``era_start``);
* ``era1`` .. ``era4``: ``era_start`` until the next ``era_start``, ``phase final_scoring``,
  ``final_record`` or ``phase game_end``;
* within an Era: ``cycle`` (``headline``, one per cycle), ``production`` (``phase production``
  or the first ``allocate``), ``dossier`` (``phase dossier`` or the first ``dossier`` event),
  ``audit`` (``phase audit`` or the ``audit`` draw) and ``scoring`` (``phase scoring`` or
  ``era_mandate``); each runs until the next marker of its level or above;
* ``final_scoring``: ``phase final_scoring`` (or ``final_record``) until ``phase game_end`` or
  the last timed event.

A phase is reported only when both ends carry a time. Time between ``phase break`` and
``phase resume`` is left out of every phase it overlaps and of the total. ``total_minutes`` runs
from the first to the last timed event (``phase game_end`` when present). Turn times: for each
turn event with a time, the seconds since the previous turn or ``reveal`` of the same cycle.
Times with a timezone are converted to UTC without one; times without a zone are kept as the
table's local clock. Pure functions, no I/O.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ingest.timing import Timing, event_times, minutes_without_breaks
from schemas.mandate2038 import TURN_TYPES

TOP_LEVEL = ("setup", "era", "final_scoring")
ERA_PARTS = ("cycle", "production", "dossier", "audit", "scoring")


@dataclass(slots=True)
class _Open:
    phase: str
    era: int | None
    cycle: int | None
    start: dt.datetime | None


def _marker(ev: Any, seen_in_era: set[str]) -> tuple[str, str, int | None] | None:
    """(level, phase, cycle) when ``ev`` starts a phase, else None."""
    kind = ev.type
    if kind == "phase":
        name = ev.name
        if name == "setup":
            return ("top", "setup", None)
        if name == "setup_end":
            return ("end-setup", "", None)
        if name == "final_scoring":
            return ("top", "final_scoring", None)
        if name == "game_end":
            return ("end", "", None)
        if name in ("production", "dossier", "audit", "scoring"):
            return ("era", name, None)
        return None
    if kind == "era_start":
        return ("top", "era", None)
    if kind == "headline":
        return ("era", "cycle", ev.cycle)
    implicit = {"allocate": "production", "dossier": "dossier", "audit": "audit",
                "era_mandate": "scoring"}.get(kind)
    if implicit and implicit not in seen_in_era:
        return ("era", implicit, None)
    if kind == "final_record":
        return ("top", "final_scoring", None)
    return None


def compute_timing(events: Sequence[Any], indices: Sequence[int] | None = None) -> Timing:
    """Phase and turn times of a game's events (validated event models)."""
    out = Timing()
    times = event_times(events)
    timed = [t for t in times if t is not None]
    out.timed_events = len(timed)
    if not timed:
        return out  # no time recorded: no phases, no turn times, no totals
    # Breaks: phase break .. phase resume (an unterminated break runs to the end).
    breaks: list[tuple[dt.datetime, dt.datetime]] = []
    open_break: dt.datetime | None = None
    for ev, t in zip(events, times, strict=True):
        if ev.type == "phase" and t is not None:
            if ev.name == "break" and open_break is None:
                open_break = t
            elif ev.name == "resume" and open_break is not None:
                breaks.append((open_break, t))
                open_break = None
    last_t = max(timed) if timed else None
    if open_break is not None and last_t is not None:
        breaks.append((open_break, last_t))

    top: _Open | None = None
    part: _Open | None = None
    era: int | None = None
    cycle: int | None = None
    seen_in_era: set[str] = set()
    final_seen = False

    def close(o: _Open | None, end: dt.datetime | None) -> None:
        if o is None or o.start is None or end is None or end < o.start:
            return
        out.phases.append(
            {"phase": o.phase, "era": o.era, "cycle": o.cycle, "start_t": o.start, "end_t": end,
             "minutes": minutes_without_breaks(o.start, end, breaks)}
        )

    for ev, t in zip(events, times, strict=True):
        if ev.type == "era_start":
            era, cycle = ev.era, None
        elif ev.type == "headline":
            cycle = ev.cycle
        m = _marker(ev, seen_in_era)
        if m is None:
            continue
        level, phase, mcycle = m
        if level == "end":
            close(part, t)
            close(top, t)
            part = top = None
            continue
        if level == "end-setup":
            if top is not None and top.phase == "setup":
                close(top, t)
                top = None
            continue
        if level == "top":
            if phase == "final_scoring":
                if final_seen:
                    continue
                final_seen = True
            close(part, t)
            part = None
            close(top, t)
            seen_in_era = set()
            if phase == "era":
                top = _Open(f"era{ev.era}", ev.era, None, t)
            elif phase == "final_scoring":
                top = _Open("final_scoring", None, None, t)
            else:
                top = _Open("setup", None, None, t)
            continue
        # Era part.
        if top is not None and top.phase == "setup":
            close(top, t)  # setup ends when play starts even without setup_end
            top = None
        close(part, t)
        seen_in_era.add(phase)
        part = _Open(phase, era, mcycle if phase == "cycle" else None, t)
    close(part, last_t)
    close(top, last_t)
    out.phases.sort(key=lambda r: (r["start_t"], 0 if r["phase"].startswith(("era", "setup", "final")) else 1))

    if timed:
        first = min(timed)
        end = last_t
        for ev, t in zip(events, times, strict=True):
            if ev.type == "phase" and ev.name == "game_end" and t is not None:
                end = t
        if end is not None and end > first:
            out.total_minutes = minutes_without_breaks(first, end, breaks)
    setup = [p["minutes"] for p in out.phases if p["phase"] == "setup"]
    out.setup_minutes = round(sum(setup), 4) if setup else None

    # Turn times.
    era = cycle = None
    ref: dt.datetime | None = None
    for i, (ev, t) in enumerate(zip(events, times, strict=True)):
        kind = ev.type
        if kind == "era_start":
            era, cycle, ref = ev.era, None, None
        elif kind == "headline":
            cycle, ref = ev.cycle, None
        elif kind == "reveal":
            ref = t
        elif kind in TURN_TYPES:
            if t is not None and ref is not None and t >= ref:
                out.turn_times.append(
                    {"era": era, "cycle": cycle, "seat": ev.seat, "action": kind,
                     "event": indices[i] if indices is not None else i,
                     "seconds": round((t - ref).total_seconds(), 3)}
                )
            ref = t
    return out
