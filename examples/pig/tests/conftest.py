"""Helpers for the Pig package's tests: logs written turn by turn, replayed through the core."""

from __future__ import annotations

from typing import Any

import pytest
from playtest_pig.ruleset import RULESET
from playtest_pig.schema import EVENT_ADAPTER, PigHeader

from engine.core.replay import ReplayResult, replay


def header(players: int = 2, **fields: Any) -> PigHeader:
    return PigHeader.model_validate({
        "session_type": "developer_walkthrough",
        "seats": [{"seat": i + 1} for i in range(players)], **fields})


def turns(*lines: str) -> list[Any]:
    """Events from score-sheet-like lines: ``"1: 4 6 h"`` (seat 1 rolls 4 and 6, holds),
    ``"2: 1"``, ``"1: 5 h=15"`` (hold, the table writing 15)."""
    out = []
    for line in lines:
        seat_text, _, rest = line.partition(":")
        seat = int(seat_text)
        for word in rest.split():
            if word.startswith("h"):
                score = int(word[2:]) if word.startswith("h=") else None
                out.append(EVENT_ADAPTER.validate_python(
                    {"type": "hold", "seat": seat, "score": score}))
            else:
                out.append(EVENT_ADAPTER.validate_python(
                    {"type": "roll", "seat": seat, "face": int(word)}))
    return out


def event(**fields: Any) -> Any:
    return EVENT_ADAPTER.validate_python(fields)


def run(hdr: PigHeader, events: list[Any]) -> ReplayResult:
    return replay(hdr, events, ruleset=RULESET)


def codes(result: ReplayResult) -> list[str]:
    return [f.code for f in result.findings]


@pytest.fixture
def two() -> PigHeader:
    return header(2)
