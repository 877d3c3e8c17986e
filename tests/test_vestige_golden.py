"""Vestige golden games are the spec: replay every file in tests/golden/vestige/games and compare
with its authored expectation.

* the set of (code, rule, event) of error and warning findings must equal the expectation
  exactly (info findings, e.g. ``log/partial`` for a log that stops mid-game, are ignored);
* a complete game must also match the expected winners, ending and each seat's final leverage,
  and its ledger must sum to that leverage.

Regenerate the files with ``python -m tests.golden.vestige.regen`` (the cases are authored in
``tests/golden/vestige/cases.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.parse import parse_log
from engine.core.replay import ReplayResult, replay
from schemas.findings import Finding

pytestmark = pytest.mark.needs_game("vestige")

GOLDEN = Path(__file__).parent / "golden" / "vestige" / "games"
FILES = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def _replay(path: Path) -> tuple[list[Finding], ReplayResult]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    event_lines = list(range(4, len(lines) - 1))
    parsed = parse_log(json.loads(text), header_line=2, event_lines=event_lines)
    assert parsed.readable, [f.message for f in parsed.findings]
    assert parsed.header is not None and parsed.header.game == "vestige"
    result = replay(parsed.header, parsed.events, lines=parsed.lines, indices=parsed.indices,
                    ruleset=parsed.ruleset)
    return parsed.findings + result.findings, result


def _key(code: str, rule: str, event: int | None) -> tuple[str, str, int]:
    return (code, rule, -1 if event is None else event)


def test_golden_corpus_has_forty_single_error_games() -> None:
    single = 0
    for p in FILES:
        exp = json.loads(p.with_name(p.stem + ".expected.json").read_text(encoding="utf-8"))
        single += len(exp["findings"]) == 1
    assert single >= 40


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game(path: Path) -> None:
    exp: dict[str, Any] = json.loads(path.with_name(path.stem + ".expected.json").read_text(
        encoding="utf-8"))
    findings, result = _replay(path)
    got = {_key(f.code, f.rule, f.where.event) for f in findings if f.severity != "info"}
    want = {_key(x["code"], x["rule"], x["event"]) for x in exp["findings"]}
    assert got == want, [f.message for f in findings]
    for f in findings:  # a finding is located and explained
        assert f.message and f.rule
        if f.where.event is not None:
            assert f.where.line == f.where.event + 4
    if exp["outcome"] is not None:
        o = result.outcome
        assert o is not None and o.complete
        assert o.details["winners"] == exp["outcome"]["winners"]
        assert o.ending == exp["outcome"]["ending"]
        lev = {int(k): v for k, v in exp["outcome"]["final_leverage"].items()}
        assert o.details["final_leverage"] == lev
        for seat, total in lev.items():
            assert sum(e.amount for e in result.ledger if e.seat == seat) == total
