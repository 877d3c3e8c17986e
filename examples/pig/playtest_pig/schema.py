"""The canonical log of Pig (rules: ``examples/pig/README.md``).

A log is the toolkit's ``playtest-log`` document: a header (:class:`PigHeader`) and events, one
per roll and per hold (§5.1), optionally the table's own values (a hold's ``score``, the
``final`` record: §5.2) and the toolkit's shared ``phase``, ``observation`` and ``survey``
events. Every event may carry ``t`` (wall-clock time) and ``comment``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.api import (
    LOG_FORMAT,
    LOG_FORMAT_VERSION,
    BaseHeader,
    Observation,
    PhaseMarker,
    Strict,
    SurveyAnswer,
)
from engine.api import Event as _Event

GAME_ID = "pig"
TITLE = "Pig"
RULES_VERSION = "traditional-1"

#: the phases a game of Pig is timed by (``phase`` event names; playtest_pig/timing.py)
TIMED_PHASES: tuple[str, ...] = ("game_start",)

SeatNo = Annotated[int, Field(ge=1, le=6)]
Face = Annotated[int, Field(ge=1, le=6)]


class PigHeader(BaseHeader):
    """Header of a Pig log: the shared fields plus the target (§2.3) and first player (§2.4).
    The end rule (§4.1, or the equal-turns house rule of §4.2) is a ruling: the shared
    ``rulings`` field names it (``"equal-turns"``; rulings/traditional-1.json)."""

    game: Literal["pig"] = "pig"
    rules_version: str = RULES_VERSION
    target: int = Field(default=100, ge=1, le=10_000)
    first_player: SeatNo = 1


class Roll(_Event):
    """A roll of the die by the seat on turn (§3.1): the number shown; ``total`` is the running
    turn total the table wrote down after it (0 after a 1), if any (§5.2)."""

    type: Literal["roll"] = "roll"
    seat: SeatNo
    face: Face
    total: int | None = Field(default=None, ge=0)


class Hold(_Event):
    """The seat on turn holds (§3.4); ``score`` is the new score the table wrote down, if any."""

    type: Literal["hold"] = "hold"
    seat: SeatNo
    score: int | None = Field(default=None, ge=0)


class Final(_Event):
    """The table's final record (§5.2): every seat's score and the winners, as written down."""

    type: Literal["final"] = "final"
    scores: dict[SeatNo, int] | None = None
    winners: list[SeatNo] | None = None


class Phase(PhaseMarker):
    """A timing marker (the toolkit's timed phases): the game's start and end, a break."""

    name: Literal["game_start", "game_end", "break", "resume"]


PigEvent = Annotated[
    Roll | Hold | Final | Phase | Observation | SurveyAnswer,
    Field(discriminator="type"),
]
EVENT_MODELS: tuple[type[_Event], ...] = (Roll, Hold, Final, Phase, Observation, SurveyAnswer)
EVENT_ADAPTER: TypeAdapter[PigEvent] = TypeAdapter(PigEvent)
EVENTS_ADAPTER: TypeAdapter[list[PigEvent]] = TypeAdapter(list[PigEvent])
EVENT_TYPES: frozenset[str] = frozenset(str(m.model_fields["type"].default) for m in EVENT_MODELS)


class PigLog(Strict):
    """A whole Pig game log: the canonical JSON document."""

    format: Literal["playtest-log"] = LOG_FORMAT
    format_version: Literal[1] = LOG_FORMAT_VERSION
    header: PigHeader
    events: list[PigEvent] = Field(default_factory=list)
