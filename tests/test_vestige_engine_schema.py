"""The Vestige canonical log schema: a log validates, round-trips canonically, rejects junk."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from schemas.canonical import dumps_log
from schemas.vestige import EVENT_ADAPTER, EVENT_TYPES, VestigeLog


def _log(events: list[dict[str, object]]) -> VestigeLog:
    return VestigeLog.model_validate({
        "header": {"game": "vestige", "session_type": "facilitated_playtest",
                   "seats": [{"seat": 1, "faction": "blue"}, {"seat": 2, "faction": "green"}]},
        "events": events,
    })


def test_round_trip() -> None:
    log = _log([
        {"type": "seat_setup", "seat": 1, "start": 3, "chop_bot": "Bartholomew"},
        {"type": "card", "name": "Bartholomew",
         "printed": {"kind": "chop_bot", "attributes": ["ambition", "cunning", "might"],
                     "jobs": ["artifact"], "leverage": 1, "colour": "chop_bot"}},
        {"type": "round_start", "round": 1},
        {"type": "turn_start", "seat": 1},
        {"type": "move", "seat": 1, "path": [3, 4, 5]},
        {"type": "visit", "seat": 1, "position": "I2", "region": "archives", "gain": ["ambition"] * 2},
        {"type": "recover", "seat": 1, "source": "card:Bartholomew"},
        {"type": "turn_end", "seat": 1},
    ])
    text = dumps_log(log)
    again = VestigeLog.model_validate(json.loads(text))
    assert again == log
    assert again.header.game == "vestige" and again.header.mode == "competitive"


def test_every_event_type_is_in_the_union() -> None:
    assert {"move", "visit", "rest", "pickup", "complete", "roll", "convert", "control",
            "nemesis_turn", "final_scoring", "checkpoint", "trigger", "endgame_met"} <= EVENT_TYPES


@pytest.mark.parametrize("bad", [
    {"type": "move", "seat": 1, "path": []},
    {"type": "visit", "seat": 1, "position": "Z9"},
    {"type": "recover", "seat": 1, "source": "pocket"},
    {"type": "roll", "seat": 1, "face": "critical"},
    {"type": "teleport", "seat": 1},
])
def test_rejects_malformed_events(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        EVENT_ADAPTER.validate_python(bad)
