"""Golden games are the spec (STYLE.md principle 7): replay every file in tests/golden/ and
compare with its authored expectation.

* the set of (code, rule, event) of error and warning findings must equal the expectation
  exactly (info findings, e.g. ``log/partial`` for a log that stops mid-game, are ignored);
* a complete game must also match the expected outcome (provisional winners, final winners,
  World Ending, AGI, Open/Closed) and the score ledger (seat, source, amount per entry, compared
  as a multiset), and each seat's final Mandate (the ledger's sum).

Regenerate the files with ``python -m tests.golden.regen``; see docs/golden.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.needs_game("mandate2038")

GOLDEN = Path(__file__).parent / "golden" / "mandate2038"
FILES = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))

ENDING = {
    "singularity": (True, True),
    "closed_loop": (True, False),
    "plural_future": (False, True),
    "assured_continuity": (False, False),
}


def _replay(path: Path):
    from engine.core.parse import parse_log
    from engine.core.replay import replay

    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    # canonical layout: line 1 format, line 2 header, line 3 '"events": [', events from line 4
    event_lines = list(range(4, len(lines) - 1))
    parsed = parse_log(json.loads(text), header_line=2, event_lines=event_lines)
    assert parsed.readable, [f.message for f in parsed.findings]
    result = replay(parsed.header, parsed.events, lines=parsed.lines, indices=parsed.indices,
                    ruleset=parsed.ruleset)
    return parsed.findings + result.findings, result


def _key(f) -> tuple:
    return (f.code, f.rule, f.where.event)


def test_golden_corpus_is_not_empty():
    assert len(FILES) >= 60


def test_every_golden_file_has_an_expectation():
    for p in FILES:
        assert p.with_name(p.name[: -len(".json")] + ".expected.json").exists(), p.name


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden(path: Path):
    from engine.core.registry import get_ruleset

    if get_ruleset("mandate2038") is None:
        pytest.fail("the mandate2038 ruleset is not registered yet")
    exp = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
    findings, result = _replay(path)
    got = Counter(_key(f) for f in findings if f.severity in ("error", "warning"))
    want = Counter((f["code"], f["rule"], f["event"]) for f in exp["findings"])
    detail = "\n".join(
        f"  {f.severity} {f.code} @event {f.where.event}: {f.message}" for f in findings
    )
    assert got == want, f"findings differ for {path.name}\nexpected {sorted(want)}\ngot:\n{detail}"

    if "outcome" in exp:
        o = exp["outcome"]
        out = result.outcome
        assert out is not None and out.complete, "a complete game must reach final scoring"
        assert sorted(out.provisional_winners) == sorted(o["provisional_winners"])
        assert sorted(out.winners) == sorted(o["winners"])
        assert out.ending == o["ending"]
        assert ENDING[o["ending"]] == (o["agi"], o["open"])  # the expectation is self-consistent
        for k in ("agi", "open"):
            if k in out.details:
                assert out.details[k] == o[k], k
    if "ledger" in exp:
        got_l = Counter((e.seat, e.source, e.amount) for e in result.ledger)
        want_l = Counter((e["seat"], e["source"], e["amount"]) for e in exp["ledger"])
        assert got_l == want_l, (
            f"ledger differs\nmissing: {sorted((want_l - got_l).elements())}\n"
            f"unexpected: {sorted((got_l - want_l).elements())}"
        )
    if "outcome" in exp and "mandate" in exp["outcome"]:
        totals: Counter = Counter()
        for e in result.ledger:
            totals[e.seat] += e.amount
        want_m = {int(k): v for k, v in exp["outcome"]["mandate"].items()}
        assert dict(totals) == want_m


def test_golden_files_are_current():
    """The files are generated: regenerating them from tests/golden/cases gives the same bytes
    (run ``python -m tests.golden.regen`` after editing a case; never edit the JSON by hand)."""
    import importlib
    import inspect
    import sys

    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:  # the repository root, so that tests.golden is importable
        sys.path.insert(0, root)
    importlib.import_module("tests.golden.cases")
    CASES = importlib.import_module("tests.golden.build").CASES

    assert {p.stem for p in FILES} == set(CASES)
    for name, fn in CASES.items():
        g = fn()
        assert (GOLDEN / f"{name}.json").read_text(encoding="utf-8") == g.log_text(), name
        exp = g.expectation(name, inspect.cleandoc(fn.__doc__ or ""))
        assert json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8")) == \
            json.loads(json.dumps(exp)), name
