"""Issue 9, "every finding names the rule that makes it wrong": a negative final standing in a
designers' session folder is a §11 finding, claim findings explain the strength, and a
checkpoint mismatch says which steps produced the engine's number."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.needs_game("mandate2038")

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "mandate2038"


def _validate(path: Path) -> list[dict]:
    from cli.main import _read_one, validate_one

    return [x for item in _read_one(path) for x in validate_one(item)["findings"]]


def test_session_folder_with_a_negative_standing_is_a_finding(tmp_path: Path) -> None:
    """scores.json shows a standing the rules cannot produce (below zero after the offline
    penalty): reported with core rules §11 and expected 0, not hidden by adding the penalty
    back (the reader keeps a negative standing as recorded)."""
    folder = tmp_path / "session"
    shutil.copytree(ROOT / "data" / "samples" / "session-folder", folder)
    assert not [x for x in _validate(folder) if x["severity"] == "error"]
    scores = json.loads((folder / "scores.json").read_text(encoding="utf-8"))
    last = scores["finalStandings"][-1]
    last["score"] = -1
    last["offlinePenalty"] = 2
    (folder / "scores.json").write_text(json.dumps(scores), encoding="utf-8")
    found = [x for x in _validate(folder) if x["code"] == "resource/out-of-range"]
    assert len(found) == 1, found
    assert found[0]["rule"].startswith("core rules §11 Final scoring")
    assert found[0]["expected"] == 0 and found[0]["recorded"] == -1


def test_claim_strength_finding_explains_the_strength() -> None:
    found = [x for x in _validate(GOLDEN / "final_wrong_claim_strength.json")
             if x["code"] == "final/claim-strength"]
    assert len(found) == 1
    msg = found[0]["message"]
    for part in ("Publication +", "supported (", "Capability thresholds reached"):
        assert part in msg, msg


def test_checkpoint_mismatch_lists_the_steps_and_cites_the_rule() -> None:
    found = [x for x in _validate(GOLDEN / "checkpoint_mismatch_cites_the_customer_rule.json")
             if x["code"] == "checkpoint/mismatch"]
    assert len(found) == 1
    assert found[0]["rule"].startswith("core rules §3 Resources, Customers")
    assert "since the last checkpoint" in found[0]["message"]
    assert "the step at issue: +2" in found[0]["message"]


def test_a_second_rule_broken_by_the_same_seat_stands_as_its_own_error() -> None:
    """One slip, one finding must not hide a planted error (issue 26, provenance): a plain rule
    error puts nothing in doubt, so a later rule broken by the same seat, a second rule broken
    by the same event and a later checkpoint mismatch are each an error of their own. After a
    garbled line (a turn out of order, an unreadable line) a later finding is a note only when a
    value it reads is one the slip put in doubt, and it names that value; a checkpoint that
    records the value ends the doubt."""
    from engine.core.findings import FindingSink
    from engine.core.registry import get_ruleset

    rs = get_ruleset("mandate2038")

    def sink() -> FindingSink:
        return FindingSink(rs.catalogue, reads=rs.reads, doubts=rs.doubts,
                           value_words=rs.value_words)

    s = sink()
    s.event = 10
    s.report("deploy/capability-too-low", "planted 1", seat=2)
    s.report("resource/insufficient", "planted 2, same event", seat=2)
    s.event = 12
    s.report("build/cannot-pay", "planted 3, a later event", seat=2)
    s.event = 14
    s.report("checkpoint/mismatch", "planted 4", seat=2, reads=("runway",))
    assert [f.severity for f in s.findings] == ["error"] * 4

    s = sink()
    s.event = 10
    s.report("turn/out-of-order", "a Build line in the wrong place", seat=2,
             touches=("runway", "facilities"))
    s.event = 11
    note = s.report("build/cannot-pay", "what the garbled line changed", seat=2)
    assert note.severity == "info" and "seat 2's Runway in doubt" in note.message
    other = s.report("build/cannot-pay", "another seat", seat=3)
    assert other.severity == "error"
    trust = s.report("checkpoint/mismatch", "a value the slip never touched", seat=2,
                     reads=("trust",))
    assert trust.severity == "error"
    s.resolve(2, ("runway",))  # a checkpoint recorded it
    assert s.report("build/cannot-pay", "after the checkpoint", seat=2).severity == "error"
    s.doubtful_line(40, 3)  # line 40 of seat 3 could not be read
    assert s.report("resource/insufficient", "after it", seat=3).severity == "info"
    s.doubtful_line(41, None)  # a line with no seat in its layout
    assert s.report("mandate/era-mandate-scorers", "after it, about no seat",
                    reads=("era",), involves=(1,)).severity == "error"
