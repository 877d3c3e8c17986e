"""The events every game's log shares: the base of every event (``t``, ``comment``), the
observation protocol's ``observation`` and ``survey`` events and the ``phase`` timing marker.

A game's log model lists :class:`Observation` and :class:`SurveyAnswer` in its event union as
they are, and derives its own ``Phase`` from :class:`PhaseMarker`, naming its timed phases::

    class Phase(PhaseMarker):
        name: Literal["game_start", "game_end", "break", "resume"]
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from schemas.log import Frozen

SeatNo = Annotated[int, Field(ge=1, le=6)]


class Event(Frozen):
    """Base of every game's events: every event may carry ``t`` (wall-clock time) and
    ``comment`` (free text kept verbatim). Events are immutable (:class:`~schemas.log.Frozen`)."""

    t: dt.datetime | None = None
    comment: str | None = None


class PhaseMarker(Event):
    """A timing marker; a game's ``Phase`` narrows ``name`` to the phases it times."""

    type: Literal["phase"] = "phase"
    name: str


class Observation(Event):
    """Something an observer noted: a rules lookup, an intervention, a deviation, a moment."""

    type: Literal["observation"] = "observation"
    category: str
    text: str
    rule: str | None = None
    seat: SeatNo | None = None
    minutes: float | None = Field(default=None, ge=0)


class SurveyAnswer(Event):
    """A post-game survey answer of the observation protocol (``seat`` None: the whole table)."""

    type: Literal["survey"] = "survey"
    item: str
    value: str | int | float | bool
    seat: SeatNo | None = None
