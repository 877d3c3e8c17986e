"""Checkpoints (resync once), partial-log invariants, and final scoring on a constructed end."""

from __future__ import annotations

from typing import Any

import pytest
from test_engine_support import OPENING, codes, reveal, run, seat

pytestmark = pytest.mark.needs_game("mandate2038")


def cp(label: str, *seats: dict[str, Any], systemic_risk: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "checkpoint", "label": label, "seats": list(seats)}
    if systemic_risk is not None:
        out["systemic_risk"] = systemic_risk
    return out


def test_mismatch_reported_once_then_resync() -> None:
    evs = OPENING + [
        cp("after cycle 1", {"seat": 3, "runway": 9}),
        {"type": "headline", "cycle": 2},
        reveal("fund", "fund", "build", "build"),
        {"type": "fund", "seat": 2, "path": ["I1"]},
        {"type": "build", "seat": 3, "path": ["I4", "I5"]},
        cp("after seat 3 built", {"seat": 3, "runway": 7}),
    ]
    r = run(evs)
    assert codes(r) == ["checkpoint/mismatch"]
    f = r.findings[0]
    assert f.expected == 10 and f.recorded == 9 and f.where.seat == 3
    assert seat(r, 3).runway == 7  # 9 (the table's) - 2


def test_over_cap_and_mandate_resync_in_ledger() -> None:
    r = run(OPENING + [cp("x", {"seat": 3, "runway": 13, "mandate": 5})])
    assert codes(r) == ["checkpoint/mismatch", "resource/over-cap"]
    assert seat(r, 3).runway == 12 and seat(r, 3).mandate == 5
    assert r.ledger[-1].source == "checkpoint" and r.ledger[-1].amount == 3


def test_partial_invariants() -> None:
    evs = [
        {"type": "era_start", "era": 1},
        cp("era 1", {"seat": 1, "mandate": 5, "capability": 3, "customers": 0, "trust": 2}),
        {"type": "era_start", "era": 3},
        cp("era 3", {"seat": 1, "mandate": 4, "capability": 2}),
        cp("era 3 later", {"seat": 1, "mandate": 4, "capability": 6, "customers": 4}),
    ]
    r = run(evs, detail="partial")
    got = codes(r)
    assert got == ["mandate/decreased", "resource/capability-decreased",
                   "deploy/capability-too-low", "mandate/threshold-not-scored"], got
    last = [f for f in r.findings if f.code == "mandate/threshold-not-scored"][0]
    assert "Capability 6" in last.message and "Customer #4" in last.message


def test_partial_log_reports_no_missing_structure() -> None:
    evs = [
        {"type": "era_start", "era": 2},
        cp("era 2", {"seat": 1, "mandate": 8, "capability": 3, "trust": 4}),
        {"type": "era_start", "era": 4},
    ]
    r = run(evs, detail="partial")
    assert [f.code for f in r.findings] == ["log/partial"]


def test_partial_threshold_scored_is_fine() -> None:
    evs = [
        {"type": "era_start", "era": 1},
        cp("a", {"seat": 2, "mandate": 2, "capability": 0, "trust": 3}),
        cp("b", {"seat": 2, "mandate": 6, "capability": 3, "trust": 4}),
    ]
    assert codes(run(evs, detail="partial")) == []


# --- final scoring on a constructed end state ------------------------------------------------
# Three players (Dovetalis, Orisonix, Corthaven): Setup Collective Trust 3 + 5 + 3 = 11, Open
# threshold 14. Seat 1 commits all four Dossier cards but has 3 Compute for 4 -> unpaid.
# Seat 2 commits Benchmark, Authority and Publication and pays 3 of 4 Compute; Benchmark
# (Capability 9) and Authority (Trust 6) are supported -> eligible, strength 1 + 2 + 3 (three
# Capability thresholds) = 6. The Era IV Audit draws 4 (round(5 x 3 / 4) = 3.75 -> 4): two of
# seat 1, one black (seat 1 has 3 Customers: -1 Runway), one of seat 2. Systemic Risk left 0.
# One offline Facility costs seat 1 one Mandate (20 -> 19). Provisional winner seat 2 (20);
# the claim also names seat 2; Collective Trust 5 + 6 + 2 = 13 < 14 -> Closed: The Closed Loop.

FINAL = [
    {"type": "era_start", "era": 4},
    cp("start of Era IV",
       {"seat": 1, "mandate": 20, "runway": 5, "compute": 3, "capability": 7, "customers": 3,
        "trust": 5, "scrutiny": 2},
       {"seat": 2, "mandate": 20, "runway": 4, "compute": 4, "capability": 9, "customers": 2,
        "trust": 6, "scrutiny": 0},
       {"seat": 3, "mandate": 18, "runway": 4, "compute": 5, "capability": 3, "customers": 1,
        "trust": 2, "scrutiny": 0},
       systemic_risk=1),
    {"type": "dossier_reveal", "hands": [
        {"seat": 1, "benchmark": "commit", "deployment": "commit", "authority": "commit",
         "publication": "commit"},
        {"seat": 2, "benchmark": "commit", "deployment": "hedge", "authority": "commit",
         "publication": "commit"},
        {"seat": 3, "benchmark": "hedge", "deployment": "hedge", "authority": "hedge",
         "publication": "hedge"}]},
    {"type": "audit", "draws": [1, 1, "black", 2]},
]
RECORD = {"type": "final_record", "offline": {"1": 1, "2": 0, "3": 0}, "collective_trust": 13,
          "open_threshold": 14, "systemic_risk": 0, "provisional_winners": [2],
          "claims": [{"seat": 2, "strength": 6}], "agi": True, "claimant": 2, "winners": [2],
          "open": False, "ending": "closed_loop"}
FACTIONS3 = ("dovetalis", "orisonix", "corthaven")


def _final(record: dict[str, Any]) -> Any:
    return run(FINAL + [record, {"type": "phase", "name": "game_end"}], detail="partial",
               factions=FACTIONS3)


def test_constructed_final_scoring() -> None:
    r = _final(RECORD)
    assert [f.code for f in r.findings] == []
    o = r.outcome
    assert o is not None and o.complete
    assert o.provisional_winners == [2] and o.winners == [2] and o.ending == "closed_loop"
    d = o.details
    assert d["agi"] is True and d["claimant"] == 2 and d["open"] is False
    assert d["collective_trust"] == 13 and d["setup_collective_trust"] == 11
    assert d["open_threshold"] == 14 and d["trust_margin"] == -1
    assert d["systemic_risk"] == 0 and d["systemic_risk_limit"] == 3
    assert d["final_mandate"] == {1: 19, 2: 20, 3: 18}
    assert seat(r, 1).compute == 0 and seat(r, 2).compute == 1
    assert seat(r, 1).runway == 2 and seat(r, 2).runway == 3
    assert r.ledger[-1].source == "offline_penalty" and r.ledger[-1].amount == -1
    claims = {c["seat"]: c for c in r.records["claims"]}
    assert claims[1]["paid"] is False and claims[1]["eligible"] is False
    assert claims[2]["strength"] == 6 and claims[3]["publication"] is False


@pytest.mark.parametrize(("field", "value", "code"), [
    ("ending", "singularity", "final/world-ending"),
    ("open", True, "final/open"),
    ("collective_trust", 14, "final/collective-trust"),
    ("systemic_risk", 1, "final/systemic-risk"),
    ("provisional_winners", [1], "final/provisional-winner"),
    ("winners", [1], "final/winner"),
    ("claims", [{"seat": 2, "strength": 5}], "final/claim-strength"),
    ("claimant", 1, "final/claimant"),
])
def test_final_record_mismatches(field: str, value: Any, code: str) -> None:
    rec = dict(RECORD)
    rec[field] = value
    assert codes(_final(rec)) == [code]


def test_agi_unsupported_and_no_claim() -> None:
    evs = [dict(e) for e in FINAL]
    evs[2] = {"type": "dossier_reveal", "hands": [
        {"seat": s, "benchmark": "commit", "deployment": "hedge", "authority": "hedge",
         "publication": "commit"} for s in (1, 2, 3)]}
    rec = dict(RECORD, claims=None, claimant=None, winners=[2], ending="closed_loop")
    r = run(evs + [rec], detail="partial", factions=FACTIONS3)
    assert codes(r) == ["final/agi-unsupported"]
    assert r.outcome is not None and r.outcome.details["agi"] is False
    assert r.outcome.ending == "assured_continuity"


def test_provisional_tie_breaks_by_trust() -> None:
    evs = [
        {"type": "era_start", "era": 4},
        cp("end", {"seat": 1, "mandate": 10, "trust": 3}, {"seat": 2, "mandate": 10, "trust": 4},
           {"seat": 3, "mandate": 9}),
        {"type": "final_record", "provisional_winners": [2], "winners": [2]},
    ]
    r = run(evs, detail="partial", factions=FACTIONS3)
    assert codes(r) == []
    assert r.outcome is not None and r.outcome.provisional_winners == [2]


def test_partial_final_without_production_takes_table_claimant() -> None:
    evs = [dict(e) for e in FINAL]
    hands = [dict(h) for h in evs[2]["hands"]]
    hands[1]["deployment"] = "commit"  # seat 2 now also commits Deployment (4 Compute: paid)
    evs[2] = {"type": "dossier_reveal", "hands": hands}
    # no Production was logged in Era IV: whether Deployment is supported is unknown
    rec = dict(RECORD, claims=[{"seat": 2, "strength": 7}])
    r = run(evs + [rec], detail="partial", factions=FACTIONS3)
    assert codes(r) == []
    assert r.outcome is not None and r.outcome.details["claimant"] == 2
    rec = dict(RECORD, claims=None, agi=True, claimant=2, winners=[2], open=True)
    assert codes(run(evs + [rec], detail="partial", factions=FACTIONS3)) == ["final/open"]


def test_partial_final_scoring_phase_waits_for_the_record() -> None:
    evs = [
        {"type": "era_start", "era": 4},
        cp("end", {"seat": 1, "mandate": 10, "trust": 3}, {"seat": 2, "mandate": 12, "trust": 4},
           {"seat": 3, "mandate": 9}),
        {"type": "phase", "name": "final_scoring"},
        {"type": "final_record", "offline": {"3": 1}, "winners": [2]},
        {"type": "phase", "name": "game_end"},
    ]
    r = run(evs, detail="partial", factions=FACTIONS3)
    assert [f.code for f in r.findings] == []
    assert r.outcome is not None and r.outcome.details["final_mandate"] == {1: 10, 2: 12, 3: 8}


def test_two_interleaved_replays_never_share_the_step_trace() -> None:
    """The step trace's cursor lives in each game's state (trace.py has no module state): two
    games folded event by event in turn give the same checkpoint explanations as each alone."""
    import json
    from pathlib import Path

    import engine.mandate2038.trace as trace
    from engine.core.findings import FindingSink
    from engine.core.parse import parse_log
    from engine.core.replay import replay

    assert not hasattr(trace, "CUR")
    golden = Path(__file__).parent / "golden" / "mandate2038"
    logs = [parse_log(json.loads((golden / f"{n}.json").read_text(encoding="utf-8")))
            for n in ("checkpoint_mismatch_cites_the_customer_rule",
                      "checkpoint_wrong_mandate_no_cascade")]

    def messages(findings: list[Any]) -> list[str]:
        return [f.message for f in findings if f.code == "checkpoint/mismatch"]

    alone = [messages(replay(p.header, p.events, ruleset=p.ruleset).findings) for p in logs]
    assert all(alone) and all("+2 at setup (§1 Setup" in ms[0] for ms in alone)
    rs = logs[0].ruleset
    sinks = [FindingSink(rs.catalogue), FindingSink(rs.catalogue)]
    # the second game is set up after the first has applied 10 events (its Setup steps must
    # not carry the first game's event), then both advance one event at a time
    states: list[Any] = [rs.setup(logs[0].header, sinks[0])]
    done = [0, 0]

    def advance(g: int) -> None:
        if done[g] < len(logs[g].events):
            sinks[g].event = done[g]
            rs.apply(states[g], logs[g].events[done[g]], sinks[g])
            done[g] += 1

    for _ in range(10):
        advance(0)
    states.append(rs.setup(logs[1].header, sinks[1]))
    while done[0] < len(logs[0].events) or done[1] < len(logs[1].events):
        advance(1)
        advance(0)
    assert [messages(k.findings) for k in sinks] == alone
