"""A clean Era I replays with zero findings and the exact values computed by hand.

Hand computation (4 players: Kestralyn, Mirevanta, Corthaven, Loopfold; Initiative seat 1):

Cycle 1 (Initiative 1), Headline Open Weights Become the Default: everyone +1 Capability; the
fewest-Customer players tie at 0 (seats 1-3), the one nearest Initiative (seat 1) gains 1 Trust.
  1 Build on Fabrication Corridor I3: 2 - 1 (visit) - 1 (Industrial Velocity) = 0 Runway; the
    discount really reduced the price, so +1 Mandate.
  2 Research on Research Commons I1: 1 Compute; Code, Science, Code (duplicate) -> protected
    with the visit's temporary protection, banks 2 -> Capability 3 (+2 Mandate).
  3 Fund venture on Allocation Exchange I4: 4 + 1 Runway, 2 Scrutiny.
  4 Fund conservative on Frontier: +2 Runway.
Cycle 2 (Initiative 2), The Last Clinic Clears Its Waitlist (bank >= 3: +1 Trust):
  2 Build Facility 1 on O1 (Research Commons): 2 Runway.
  3 Research on I1: Images, Video, Books, bank 3 -> Capability 4 (+2), Trust 4 (+2).
  4 Research on Compute Estate I2: the first Compute cost is reduced to 0; Web, Benchmark Leak
    (+2, 1 Scrutiny), bank 3 -> Capability 4 (+2), Trust 3.
  1 Fund on I4: 2 + 1 Runway.
Cycle 3 (Initiative 3), The Company Brain Survives Bankruptcy (no Organize, no effect):
  3 Deploy on Human Access District O2 (free): Customer #1 (+2), 1 Scrutiny.
  4 Deploy on O2 (free): Loopfold's Customer #2 needs Capability 4 (+2), 1 Scrutiny.
  1 Research on I1: Synthetic, bank 1.
  2 Fund venture ending on Frontier: +4, 2 Scrutiny, Frontier bonus +1 Runway +1 Scrutiny.
Production: Facility on Fabrication Corridor +1 Runway +1 Compute (seat 1), on Research Commons
+1 Compute (seat 2); Customers pay 1 Runway each (seat 3: 1, seat 4: 2).
Audit (2 draws at 4 players): a cube of seat 2 and of seat 3: each loses 1 Runway.
Era Mandate (most Capability gained this Era): seats 3 and 4 gained 4, tied: 1 Mandate each.
"""

from __future__ import annotations

import pytest
from test_engine_support import OPENING, codes, reveal, run, seat

pytestmark = pytest.mark.needs_game("mandate2038")

ERA_ONE = OPENING + [
    {"type": "headline", "cycle": 2, "headline": "professional_exam_sweep"},
    reveal("fund", "build", "research", "research"),
    {"type": "build", "seat": 2, "path": ["I1", "O1"]},
    {"type": "research", "seat": 3, "path": ["I4", "F", "I1"]},
    {"type": "draw", "seat": 3, "card": "images"},
    {"type": "draw", "seat": 3, "card": "video"},
    {"type": "draw", "seat": 3, "card": "books"},
    {"type": "run_end", "seat": 3, "outcome": "bank", "banked": 3},
    {"type": "research", "seat": 4, "path": ["F", "I2"]},
    {"type": "draw", "seat": 4, "card": "web"},
    {"type": "draw", "seat": 4, "card": "benchmark_leak"},
    {"type": "run_end", "seat": 4, "outcome": "bank", "banked": 3},
    {"type": "fund", "seat": 1, "path": ["I3", "I4"]},
    {"type": "headline", "cycle": 3, "headline": "employee_free_unicorn"},
    reveal("research", "fund", "deploy", "deploy"),
    {"type": "deploy", "seat": 3, "path": ["I1", "O2"]},
    {"type": "deploy", "seat": 4, "path": ["I2", "O2"]},
    {"type": "research", "seat": 1, "path": ["I4", "F", "I1"]},
    {"type": "draw", "seat": 1, "card": "synthetic"},
    {"type": "run_end", "seat": 1, "outcome": "bank", "banked": 1},
    {"type": "fund", "seat": 2, "path": ["O1", "I1", "F"], "mode": "venture",
     "frontier_bonus": True},
    {"type": "phase", "name": "production"},
    {"type": "allocate", "seat": 1, "facilities": [1]},
    {"type": "allocate", "seat": 2, "facilities": [1]},
    {"type": "phase", "name": "dossier"},
    {"type": "dossier", "seat": 1, "orientation": "commit"},
    {"type": "dossier", "seat": 2, "orientation": "hedge"},
    {"type": "dossier", "seat": 3},
    {"type": "dossier", "seat": 4, "orientation": "commit"},
    {"type": "phase", "name": "audit"},
    {"type": "audit", "draws": [2, 3]},
    {"type": "phase", "name": "scoring"},
    {"type": "era_mandate", "scorers": [3, 4]},
]

EXPECTED = {  # seat: (mandate, runway, compute, capability, customers, trust, scrutiny)
    1: (3, 10, 3, 2, 0, 3, 0),
    2: (4, 5, 3, 3, 0, 3, 2),
    3: (9, 10, 3, 4, 1, 4, 2),
    4: (9, 8, 2, 4, 2, 3, 2),
}


def _values(r, no):  # type: ignore[no-untyped-def]
    s = seat(r, no)
    return (s.mandate, s.runway, s.compute, s.capability, s.customers, s.trust, s.bag)


def test_first_cycle_by_hand() -> None:
    r = run(OPENING)
    assert codes(r) == []
    assert _values(r, 1) == (3, 6, 3, 1, 0, 3, 0)
    assert _values(r, 2) == (4, 3, 2, 3, 0, 3, 0)
    assert _values(r, 3) == (2, 10, 4, 1, 0, 3, 2)
    assert _values(r, 4) == (4, 6, 2, 1, 1, 2, 0)
    assert r.state.seat(1).facilities[1].hex == "I3"


def test_era_one_is_clean_and_exact() -> None:
    r = run(ERA_ONE)
    assert [f.code for f in r.findings] == ["log/partial"]
    for no, exp in EXPECTED.items():
        assert _values(r, no) == exp, no


def test_era_one_checkpoint_agrees() -> None:
    cp = {"type": "checkpoint", "label": "end of Era I", "systemic_risk": 0, "seats": [
        {"seat": no, "mandate": m, "runway": rw, "compute": c, "capability": cap,
         "customers": cu, "trust": t, "scrutiny": sc}
        for no, (m, rw, c, cap, cu, t, sc) in EXPECTED.items()]}
    r = run(ERA_ONE + [cp])
    assert codes(r) == []


def test_ledger_sources() -> None:
    r = run(ERA_ONE)
    by = [(e.seat, e.source, e.amount) for e in r.ledger]
    assert (1, "starting", 2) in by and (4, "starting", 4) in by
    assert (1, "faction_ability", 1) in by
    assert (2, "capability_threshold", 2) in by
    assert (3, "trust_threshold", 2) in by
    assert (3, "customer", 2) in by and (4, "customer", 2) in by
    assert (3, "era_mandate", 1) in by and (4, "era_mandate", 1) in by
    for no in EXPECTED:
        assert sum(e.amount for e in r.ledger if e.seat == no) == EXPECTED[no][0]


def test_records_and_snapshot() -> None:
    r = run(ERA_ONE)
    rec = r.records
    assert len(rec["selections"]) == 12 and len(rec["turns"]) == 12
    assert {row["outcome"] for row in rec["training_runs"]} == {"protect", "bank"}
    assert rec["audit_draws"] == [{"era": 1, "expected": 2, "drawn": 2, "black": 0,
                                   "bag_before": 8}]
    assert [row["scored"] for row in rec["era_mandates"]] == [0, 0, 1, 1]
    assert len(rec["era_states"]) == 0  # the Era has not ended yet (no next Era)
    assert {row["seat"] for row in rec["production"]} == {1, 2, 3, 4}
    assert len(rec["dossiers"]) == 4
    from engine.mandate2038 import RULESET

    snap = RULESET.snapshot(r.state)
    assert snap["era"] == 1 and snap["seats"][0]["facilities"][0]["powered"] is True
    import json

    json.dumps(snap)
