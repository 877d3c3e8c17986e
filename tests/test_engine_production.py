"""Production (§6C), Joint Ventures (§4), overflow and Systemic Risk (§6E), Headlines (§9)."""

from __future__ import annotations

from typing import Any

import pytest
from test_engine_support import codes, reveal, run, seat

pytestmark = pytest.mark.needs_game("mandate2038")

ERA3 = [
    {"type": "era_start", "era": 3, "mandate": "voluntary_coordination_triumphs"},
    {"type": "headline", "cycle": 1},
    reveal("build", "build", "fund", "fund"),
    {"type": "build", "seat": 1, "path": ["F", "I1"]},
    {"type": "build", "seat": 2, "path": ["F", "I2"]},
    {"type": "fund", "seat": 3, "path": ["F"]},
    {"type": "fund", "seat": 4, "path": ["F"]},
    {"type": "headline", "cycle": 2},
    reveal("influence", "fund", "organize", "organize"),
    {"type": "fund", "seat": 2, "path": ["I2"]},
    {"type": "organize", "seat": 3, "path": ["F"], "mode": "redistribute"},
    {"type": "organize", "seat": 4, "path": ["F"], "mode": "redistribute"},
    {"type": "influence", "seat": 1, "path": ["I1"], "mode": "jv", "facility": 1, "partner": 2,
     "partner_facility": 1, "accepted": True},
    {"type": "phase", "name": "production"},
    {"type": "allocate", "seat": 1, "facilities": [1]},
    {"type": "allocate", "seat": 2, "facilities": [1]},
    {"type": "phase", "name": "scoring"},
    {"type": "era_mandate"},
]


def _run(events: list[dict[str, Any]], **kw: Any) -> Any:
    return run(events, detail="partial", first_initiative=3, **kw)


def test_joint_venture_production_and_era_mandate() -> None:
    r = _run(ERA3)
    assert codes(r) == []
    # Research Commons +1, Compute Estate +2; each partner gains the other host's icon (Compute)
    assert seat(r, 1).compute == 3 + 1 + 1 and seat(r, 2).compute == 3 + 2 + 1
    assert seat(r, 4).runway == 4 + 2 + 1  # Fund, then one Customer pays one Runway
    prod = {row["seat"]: row for row in r.records["production"]}
    assert prod[1]["compute_produced"] == 2 and prod[2]["compute_produced"] == 3
    assert r.state.jvs[1].active
    # both partners created an active Joint Venture this Era: tied, one Mandate each
    assert [(e.seat, e.amount) for e in r.ledger if e.source == "era_mandate"] == [(1, 1), (2, 1)]


def test_unpowered_allocation_and_mega_cluster_demand() -> None:
    evs = [e for e in ERA3 if e.get("type") != "allocate"]
    i = evs.index({"type": "phase", "name": "production"}) + 1
    evs[i:i] = [
        {"type": "allocate", "seat": 1, "facilities": [1, 2]},
        {"type": "allocate", "seat": 2, "facilities": [1], "mega_clusters": [1]},
        {"type": "allocate", "seat": 3, "facilities": [], "emergency": 1},
    ]
    got = codes(_run(evs))
    assert got == ["production/not-powered", "production/mega-cluster-demand",
                   "production/emergency-power"], got


def test_jv_needs_adjacent_hosts_and_era_three() -> None:
    evs = [e for e in ERA3 if e.get("type") not in ("allocate",)]
    evs[3] = {"type": "build", "seat": 1, "path": ["F", "I4"]}  # not adjacent to I2
    evs[12] = dict(evs[12], path=["I4"])
    r = _run(evs)
    assert codes(r) == ["influence/jv-invalid"]


def test_missing_allocation_in_full_log() -> None:
    from test_engine_opening import ERA_ONE

    evs = [e for e in ERA_ONE if e != {"type": "allocate", "seat": 2, "facilities": [1]}]
    r = run(evs)
    assert codes(r) == ["production/missing-allocation"]
    assert seat(r, 2).compute == 2  # its Facility was offline
    assert not r.state.seat(2).facilities[1].powered


def test_overflow_costs_runway() -> None:
    evs = [
        {"type": "era_start", "era": 1},
        {"type": "checkpoint", "seats": [{"seat": 1, "runway": 1, "scrutiny": 10}]},
        {"type": "headline", "cycle": 1},
        reveal("fund", "fund", "fund", "fund"),
        {"type": "fund", "seat": 1, "path": ["F"], "mode": "venture"},
    ]
    r = run(evs, detail="partial")
    assert codes(r) == []
    assert seat(r, 1).runway == 3 and seat(r, 1).bag == 10  # 1 + 4, then two overflow cubes


def test_systemic_risk_from_crash_and_black_draw() -> None:
    evs = [
        {"type": "era_start", "era": 4},
        {"type": "checkpoint", "seats": [
            {"seat": s, "customers": {2: 3, 4: 1}.get(s, 0), "scrutiny": 0, "runway": 2,
             "capability": 6} for s in (1, 2, 3, 4)], "systemic_risk": 0},
        {"type": "headline", "cycle": 1, "headline": "recursive_self_improvement"},
        reveal("research", "fund", "fund", "fund"),
        {"type": "research", "seat": 1, "path": ["F"]},
        {"type": "draw", "seat": 1, "card": "code"},
        {"type": "draw", "seat": 1, "card": "code"},
        {"type": "run_end", "seat": 1, "outcome": "crash"},
        {"type": "audit", "draws": ["black", 1]},
    ]
    r = run(evs, detail="partial", first_initiative=4)
    assert codes(r) == []
    assert seat(r, 1).bag == 2 and seat(r, 1).runway == 1  # 3 Scrutiny, 1 drawn
    assert seat(r, 2).runway == 1  # 3 Customers: the black cube's penalty
    assert r.state.black == 0 and r.state.systemic_risk_final == 0
    assert r.records["audits"][0]["runway_lost"] == 1


def test_audit_draw_counts_round_half_up() -> None:
    from engine.mandate2038 import RULESET

    c = RULESET.content()
    assert [c.audit_draws(e, 3) for e in (1, 2, 3, 4)] == [2, 2, 3, 4]
    assert [c.audit_draws(e, 4) for e in (1, 2, 3, 4)] == [2, 3, 4, 5]
    assert [c.audit_draws(e, 5) for e in (1, 2, 3, 4)] == [3, 4, 5, 6]
    assert [c.audit_draws(e, 2) for e in (1, 2, 3, 4)] == [1, 2, 2, 3]
    assert [c.audit_draws(e, 6) for e in (1, 2, 3, 4)] == [3, 5, 6, 8]


def test_headline_checks() -> None:
    evs = [
        {"type": "era_start", "era": 1},
        {"type": "headline", "cycle": 1, "headline": "talent_gold_rush"},
        {"type": "headline", "cycle": 2, "headline": "boardroom_coup"},
        {"type": "headline", "cycle": 3, "headline": "no_such_card"},
    ]
    got = codes(run(evs, detail="partial"))
    assert got == ["cycle/headline-advanced", "cycle/headline-wrong-era",
                   "cycle/headline-advanced", "cycle/unknown-headline"]
    # an Advanced game records Advanced Headlines without error and lists what it did not check
    r = run(evs[:2], detail="partial", profile="advanced")
    assert codes(r) == ["setup/advanced-unchecked"]
    assert r.unchecked and "Advanced" in r.unchecked[0]


def test_initiative_passes_each_cycle_and_era() -> None:
    evs = [{"type": "era_start", "era": 1}, {"type": "headline", "cycle": 1},
           {"type": "headline", "cycle": 2}, {"type": "headline", "cycle": 3}]
    r = run(evs, detail="partial", first_initiative=2)
    assert r.state.initiative == 4
    r = run(evs + [{"type": "era_start", "era": 2}, {"type": "headline", "cycle": 1}],
            detail="partial", first_initiative=2)
    assert r.state.initiative == 1


def test_generator_mega_cluster_and_fusion_by_hand() -> None:
    """Kestralyn: Facility 1 on Research Commons I1 (Era II), Emergency Power Complex on the
    Power Corridor I6 (Era III), Facility 2 on Thermal and Water Basin O12 (Era IV, next to both),
    a Mega-Cluster over I1-O12, then Fusion on I6. Production: the starting grid powers
    Facility 1, the Generator Facility 2 and the Mega-Cluster's +2 demand."""
    one = lambda pick: {"type": "reveal", "selections": [{"seat": 1, "pick": pick}]}  # noqa: E731
    evs = [
        {"type": "era_start", "era": 2}, {"type": "headline", "cycle": 1}, one("build"),
        {"type": "build", "seat": 1, "path": ["F", "I1"]},
        {"type": "era_start", "era": 3}, {"type": "headline", "cycle": 1}, one("build"),
        {"type": "build", "seat": 1, "path": ["I1", "I6"], "mode": "generator"},
        {"type": "era_start", "era": 4},
        {"type": "checkpoint", "seats": [{"seat": 1, "runway": 10}]},
        {"type": "headline", "cycle": 1}, one("build"),
        {"type": "build", "seat": 1, "path": ["I6", "O12"]},
        {"type": "headline", "cycle": 2}, one("mega_cluster"),
        {"type": "mega_cluster", "seat": 1, "path": ["O12"], "hosts": [1, 2]},
        {"type": "headline", "cycle": 3}, one("fusion"),
        {"type": "fusion", "seat": 1, "path": ["O12", "I6"]},
        {"type": "phase", "name": "production"},
        {"type": "allocate", "seat": 1, "facilities": [1, 2], "mega_clusters": [1]},
        {"type": "phase", "name": "dossier"},
    ]
    r = run(evs, detail="partial", factions=("kestralyn", "corthaven", "mirevanta", "loopfold"))
    assert codes(r) == []
    s = seat(r, 1)
    # Runway 10 - 1 (Facility 2, Industrial Velocity) - 3 (Mega-Cluster) - 5 (Fusion) = 1
    # Compute 3 - 2 + 1 (Research Commons) + 3 (Mega-Cluster) = 5
    # Scrutiny 2 (Mega-Cluster) + 3 (Fusion) + 1 (Emergency Power Complex) - 1 (Basin) = 5
    # Mandate 2 + 1 + 1 (Industrial Velocity in Eras II and IV) + 2 (Fusion) = 6
    assert (s.runway, s.compute, s.bag, s.mandate) == (1, 5, 5, 6)
    assert s.era.demand_satisfied == 4 and s.era.compute_produced == 4
    assert r.state.fusion_owner == 1 and len(r.state.gen_slots["I6"]) == 2
    assert seat(r, 2).runway == 6  # The Shovels
    assert [e.source for e in r.ledger if e.seat == 1][-1] == "fusion"
