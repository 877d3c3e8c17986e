"""The canonical log schema: exported JSON Schema is current; canonical text round-trips."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from schemas.canonical import dumps_log
from schemas.export import OUT, rendered
from schemas.mandate2038 import EVENT_TYPES, MandateLog


def test_exported_json_schema_is_current() -> None:
    stale = [
        name
        for name, text in rendered().items()
        if not (OUT / name).exists() or (OUT / name).read_text(encoding="utf-8") != text
    ]
    assert not stale, f"run `python -m schemas.export`: stale {stale}"


def _log(events: list[dict]) -> MandateLog:
    return MandateLog.model_validate(
        {
            "header": {
                "session_type": "facilitated_playtest",
                "seats": [
                    {"seat": 1, "faction": "mirevanta", "player": "Ana"},
                    {"seat": 2, "faction": "kestralyn"},
                    {"seat": 3, "faction": "corthaven"},
                ],
                "first_initiative": 2,
            },
            "events": events,
        }
    )


def test_canonical_text_round_trips_and_keeps_type() -> None:
    log = _log(
        [
            {"type": "era_start", "era": 1, "mandate": "quarter_humanity_notices"},
            {"type": "headline", "cycle": 1, "headline": "open_weights_drop", "t": "2026-11-01T19:02:00"},
            {"type": "reveal", "selections": [{"seat": 1, "pick": "research"}, {"seat": 2, "pick": "fund"}, {"seat": 3, "pick": "build"}]},
            {"type": "fund", "seat": 2, "path": ["F"]},
            {"type": "audit", "draws": [1, "black"]},
        ]
    )
    text = dumps_log(log)
    lines = text.splitlines()
    assert lines[3].startswith('{"type": "era_start"')  # one event per line, type first
    assert '"type": "fund"' in lines[6]  # defaults dropped but the type kept
    assert MandateLog.model_validate(json.loads(text)) == log


def test_unknown_fields_are_rejected_not_dropped() -> None:
    with pytest.raises(ValidationError):
        _log([{"type": "fund", "seat": 1, "mood": "venture"}])


def test_every_event_type_is_in_the_union() -> None:
    assert {"era_start", "headline", "reveal", "draw", "run_end", "allocate", "audit",
            "dossier", "dossier_reveal", "era_mandate", "final_record", "checkpoint",
            "observation", "survey", "trade"} <= EVENT_TYPES
