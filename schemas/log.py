"""The game-agnostic part of the canonical game log.

A log is ``{"format": "playtest-log", "format_version": 1, "header": {...}, "events": [...]}``.
Each ruleset subclasses :class:`BaseHeader` and defines its own event union
(see ``schemas/mandate2038/log.py``). The header fields here are shared by every game.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

SessionType = Literal[
    "facilitated_playtest",
    "blind_playtest",
    "browser_walkthrough",
    "simulation",
    "developer_walkthrough",
]
HUMAN_SESSION_TYPES: frozenset[str] = frozenset({"facilitated_playtest", "blind_playtest"})

Profile = Literal["default", "advanced"]

LOG_FORMAT: Final = "playtest-log"
LOG_FORMAT_VERSION: Final = 1
#: changes, paused abilities and options of one rules variant (a file's and a stamp's bound)
MAX_VARIANT_CHANGES: Final = 64


class Strict(BaseModel):
    """Base for canonical models: unknown fields are an error, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class Frozen(Strict):
    """Base of every event and of every model nested in an event: :class:`Strict`, and
    immutable (assigning a field raises pydantic's ``ValidationError``, ``frozen_instance``).
    A read event may be handed out more than once (the canonical reader's parsed-line cache,
    ``ingest/formats/jsonlog.py``), so nothing may change one in place: derive a changed event
    with ``model_copy(update=...)`` or build a new one. (Frozen stops assignment only; the
    lists and dicts an event holds are no copies either, and nothing mutates them.)"""

    model_config = ConfigDict(extra="forbid", frozen=True)


def model_classes(core_schema: Any) -> set[type[BaseModel]]:
    """Every pydantic model class a validator can build, nested ones included: the ``cls`` of
    every ``model`` schema in ``core_schema`` (a ``TypeAdapter``'s ``core_schema``)."""
    found: set[type[BaseModel]] = set()
    todo: list[Any] = [core_schema]
    seen: set[int] = set()
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            cls = node.get("cls")
            if node.get("type") == "model" and isinstance(cls, type) and issubclass(cls, BaseModel):
                found.add(cls)
            todo.extend(node.values())
        elif isinstance(node, (list, tuple)):
            todo.extend(node)
    return found


def all_frozen(core_schema: Any) -> bool:
    """True when every model ``core_schema`` builds is frozen (:class:`Frozen`'s
    ``model_config``), so that one validated value may be handed out more than once."""
    return all(m.model_config.get("frozen") is True for m in model_classes(core_schema))


class SeatInfo(Strict):
    """One seat at the table. Seats are numbered 1..N clockwise. ``faction`` is what the seat
    plays when the game has factions (Mandate 2038; Vestige: the player's colour); a game
    without them leaves it out, and a ruleset that needs one reports it missing."""

    seat: int = Field(ge=1, le=6)
    faction: str | None = None
    player: str | None = None


class ReceiptIdentity(Strict):
    """Identity fields of the designers' playtest receipt (FACTS.md §11.1), where known."""

    session_id: str | None = None
    played_at: dt.datetime | None = None
    rules_version: str | None = None
    executable_version: str | None = None
    source_commit: str | None = None
    ruleset_fingerprint: str | None = None
    playtest_kit_fingerprint: str | None = None
    variant_fingerprint: str | None = None
    kit_id: str | None = None
    component_revision: str | None = None
    executable_revision: str | None = None
    kit_label: str | None = None
    mixed_revisions: bool | None = None
    kit_exceptions: list[str] = Field(default_factory=list)
    board_seed: str | None = None
    rules_deviations: list[str] = Field(default_factory=list)
    facilitator_interventions: list[str] = Field(default_factory=list)


class Provenance(Strict):
    """Where a log came from: who or what produced it, and from which source file."""

    source_format: str | None = None  # json, notation, csv, session-folder, live, simulator
    source_name: str | None = None
    generator: str | None = None  # e.g. "playtest simulate 0.1.0 bot=heuristic seed=7"
    illustrative: bool = False  # True for hand-made sample games that are not real sessions
    description: str | None = None


class VariantStamp(Strict):
    """The rules variant a game was played under, as its header stores it (docs/variants.md):
    name, content hash and the changes themselves (content pack paths to values, paused
    abilities ``faction/ability``, unwritten-rule option ids to values), so that the log is
    audited under its variant without the variant's file."""

    # a variant's name names study files and columns: the variant file's form, no newline
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._=+-]*$", max_length=200)
    hash: str = Field(max_length=64)
    changes: dict[str, Any] = Field(default_factory=dict)
    paused: list[str] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _bounded(self) -> VariantStamp:
        # the audit replays the game once per change (which change a finding rests on)
        count = len(self.changes) + len(self.paused) + len(self.options)
        if count > MAX_VARIANT_CHANGES:
            raise ValueError(f"the variant stamp holds {count:,} changes; a variant makes at "
                             f"most {MAX_VARIANT_CHANGES}")
        return self


class BaseHeader(Strict):
    """Header fields shared by every game."""

    game: str
    rules_version: str
    profile: Profile = "default"
    session_type: SessionType
    game_id: str | None = None
    date: dt.date | None = None
    venue: str | None = None
    facilitator: str | None = None
    seats: list[SeatInfo] = Field(min_length=1, max_length=6)
    protocol: str | None = None  # observation protocol id@version used at the table
    # "full": every decision was recorded; "partial": only some events (e.g. Era checkpoints and
    # the final record) were logged, so missing structure is not an error.
    detail: Literal["full", "partial"] = "full"
    secret_objectives: bool = False
    tactics: bool = False
    receipt: ReceiptIdentity | None = None
    provenance: Provenance = Field(default_factory=Provenance)
    notes: str | None = None
    # The rulings this game was played under (engine/core/options.py): a set name and/or
    # ID=OPTION pairs, e.g. "executable" or "garage_speed=declared"; None: the defaults.
    # ``playtest validate --rulings`` replays under another.
    rulings: str | None = None
    variant: VariantStamp | None = None  # the rules variant played (None: the rules as printed)

    @property
    def player_count(self) -> int:
        return len(self.seats)
