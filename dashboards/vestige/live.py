"""Engine-guided recording of a Vestige game (the *Record a Vestige game* page's logic, no UI).

A draft is the shared append-only draft file of :mod:`dashboards.drafts` (header, then one line
per event, undo as a new line), so a reload, a restart or a crash loses nothing. The next
decision comes from the Vestige ruleset's legal moves; the facilitator picks what happened at
the table (for chance: the card drawn, the die face). Options that record nothing (declining an
optional step) are kept in the page's state as "passed" until the next event.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

import engine.vestige  # noqa: F401 - registers the ruleset
from dashboards.vestige.labels import decision_label, event_label, intent_label, seat_name, words
from engine.core.findings import FindingSink
from engine.vestige.ruleset import RULESET
from engine.vestige.simulate import random_map
from schemas.vestige import EVENT_ADAPTER, VestigeHeader, VestigeLog

COLOURS = ("blue", "green", "purple", "orange")
PROTOCOL = "vestige-observation@1"


def new_header(players: list[tuple[str, str]], *, mode: str = "competitive",
               nemesis: str | None = None, difficulty: str | None = None,
               session_type: str = "facilitated_playtest", map_seed: str = "",
               facilitator: str | None = None, venue: str | None = None,
               variant: dict[str, Any] | None = None) -> dict[str, Any]:
    """A validated header dict: ``players`` are (colour, name) in seat order; ``variant``: the
    stamp of the rules variant the table plays (dashboards.variant_pick), None as printed."""
    rng = random.Random(map_seed or dt.datetime.now(dt.UTC).isoformat())
    header = {
        "game": "vestige", "session_type": session_type, "date": dt.date.today().isoformat(),
        "seats": [{"seat": i + 1, "faction": c, "player": n or None}
                  for i, (c, n) in enumerate(players)],
        "mode": mode, "map": random_map(rng), "first_player": 1, "protocol": PROTOCOL,
        "facilitator": facilitator or None, "venue": venue or None,
        "provenance": {"source_format": "live"},
    }
    if variant:
        header["variant"] = variant
    if nemesis:
        header["nemeses"] = [{"name": nemesis}]
        header["difficulty"] = difficulty or "nuisance"
    # "game" is kept although it is the model's default: readers dispatch on it
    return {"game": "vestige",
            **VestigeHeader.model_validate(header).model_dump(mode="json", exclude_defaults=True)}


@dataclass
class Replayed:
    """A draft replayed: the engine state, its findings, and the events as models."""

    state: Any
    events: list[Any]
    findings: list[Any] = field(default_factory=list)


def replay_draft(header: dict[str, Any], events: list[dict[str, Any]]) -> Replayed:
    h = VestigeHeader.model_validate(header)
    sink = FindingSink(RULESET.catalogue)
    state = RULESET.setup(h, sink)
    models = []
    for i, e in enumerate(events):
        ev = EVENT_ADAPTER.validate_python(e)
        sink.event = i
        RULESET.apply(state, ev, sink)
        models.append(ev)
    return Replayed(state, models, list(sink.findings))


@dataclass
class Choice:
    label: str
    option: Any
    records: bool  # False: an option that records no event (it is remembered as passed)


@dataclass
class Next:
    kind: str  # player | chance | end
    actor: str
    label: str
    choices: list[Choice]

    @property
    def forced(self) -> bool:
        """Only one thing can happen: the page records it in one action."""
        return len(self.choices) == 1


def seat_names(header: dict[str, Any]) -> dict[int, str]:
    """Seat number -> "Blue, Ann" (colour and the player's name when given)."""
    out = {}
    for s in header.get("seats", []):
        bits = [words(s.get("faction"))] + ([str(s["player"])] if s.get("player") else [])
        out[int(s["seat"])] = ", ".join(bits)
    return out


def next_decision(r: Replayed, passed: frozenset[str] = frozenset(),
                  seats: dict[int, str] | None = None) -> Next:
    """The next decision, each choice named in words (:mod:`dashboards.vestige.labels`)."""
    d = RULESET.legal_moves(r.state, passed)
    if d.kind == "end":
        return Next("end", "", "the game is over: finish it to archive and load it", [])
    actor = (seat_name(d.seat, seats) if d.seat is not None
             else str(getattr(d, "actor", None) or ("The table" if d.kind == "chance" else "")))
    choices = []
    for o in d.options:
        materialize = getattr(o, "materialize", None)
        opt = materialize() if materialize is not None else o
        if isinstance(opt, BaseModel):
            choices.append(Choice(event_label(opt, seats), opt, True))
        else:
            text = str(getattr(opt, "label", "") or "") or intent_label(getattr(opt, "key", ""))
            choices.append(Choice(text, opt, False))
    return Next(d.kind, actor, decision_label(d.kind, str(getattr(d, "label", "") or "")),
                choices)


def event_dict(ev: BaseModel) -> dict[str, Any]:
    return {"type": getattr(ev, "type", None), **ev.model_dump(mode="json", exclude_defaults=True)}


def stamp(event: dict[str, Any]) -> dict[str, Any]:
    """The event with the wall-clock time it was recorded (UTC)."""
    return {**event, "t": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()}


def as_log(header: dict[str, Any], events: list[dict[str, Any]]) -> VestigeLog:
    return VestigeLog.model_validate({"header": header, "events": events})


def finish(header: dict[str, Any], events: list[dict[str, Any]], db: Path,
           over: bool = True) -> tuple[Any, str | None]:
    """Archive and load the game; (result, problem). A game finished before it is ``over``
    (a short session at the table) is kept and audited as a partial log (``detail: partial``:
    what was recorded is checked, the missing end is not an error)."""
    from ingest.pipeline import ingest_log

    if not over:
        header = {**header, "detail": "partial"}
    try:
        return ingest_log(as_log(header, events), db), None
    except Exception as err:  # storage problems are shown on the page
        return None, f"{type(err).__name__}: {err}"
