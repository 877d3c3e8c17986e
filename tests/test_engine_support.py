"""Shared helpers for the engine tests (hand-built Mandate 2038 logs) and their self-check."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.parse import parse_log
from engine.core.replay import ReplayResult, replay

pytestmark = pytest.mark.needs_game("mandate2038")

# A legal map: Frontier, the six operational tiles on the inner ring, the public pool outside.
MAP = {
    "F": "frontier", "I1": "research", "I2": "cloud", "I3": "foundry", "I4": "capital",
    "I5": "talent", "I6": "grid_reactor",
    "O1": "research", "O2": "consumer", "O3": "cloud", "O4": "media", "O5": "government",
    "O6": "renewable_basin", "O7": "research", "O8": "consumer", "O9": "cloud", "O10": "media",
    "O11": "government", "O12": "renewable_basin",
}
FACTIONS = ("kestralyn", "mirevanta", "corthaven", "loopfold")


def header(factions: tuple[str, ...] = FACTIONS, **kw: Any) -> dict[str, Any]:
    h = {
        "game": "mandate2038", "rules_version": "0.8.0-rc.17-test",
        "session_type": "facilitated_playtest",
        "seats": [{"seat": i + 1, "faction": f} for i, f in enumerate(factions)],
        "map": MAP, "first_initiative": 1,
    }
    h.update(kw)
    return h


def run(events: list[dict[str, Any]], **hkw: Any) -> ReplayResult:
    """Validate and replay a hand-built log; the log itself must be schema-valid."""
    factions = hkw.pop("factions", FACTIONS)
    log = {"format": "playtest-log", "format_version": 1,
           "header": header(factions, **hkw), "events": events}
    parsed = parse_log(log)
    assert not parsed.findings, [f.message for f in parsed.findings]
    return replay(parsed.header, parsed.events)


def codes(result: ReplayResult, *, ignore: tuple[str, ...] = ("log/partial",)) -> list[str]:
    return [f.code for f in result.findings if f.code not in ignore]


def seat(result: ReplayResult, no: int) -> Any:
    return result.state.seat(no)


def reveal(*picks: str) -> dict[str, Any]:
    return {"type": "reveal",
            "selections": [{"seat": i + 1, "pick": p} for i, p in enumerate(picks)]}


# Era I cycle 1 of the hand-checked opening (see test_engine_opening.py)
OPENING = [
    {"type": "era_start", "era": 1, "mandate": "quarter_humanity_notices"},
    {"type": "headline", "cycle": 1, "headline": "open_weights_drop"},
    reveal("build", "research", "fund", "fund"),
    {"type": "build", "seat": 1, "path": ["F", "I3"]},
    {"type": "research", "seat": 2, "path": ["F", "I1"]},
    {"type": "draw", "seat": 2, "card": "code"},
    {"type": "draw", "seat": 2, "card": "science"},
    {"type": "draw", "seat": 2, "card": "code"},
    {"type": "run_end", "seat": 2, "outcome": "protect", "banked": 2},
    {"type": "fund", "seat": 3, "path": ["F", "I4"], "mode": "venture"},
    {"type": "fund", "seat": 4, "path": ["F"]},
]


def test_support_map_is_legal() -> None:
    r = run([])
    assert codes(r) == []
    assert [f.code for f in r.findings] == ["log/partial"]
