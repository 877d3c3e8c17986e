"""Faction abilities (core rules §9; FACTS.md §3), each exercised on a short partial log."""

from __future__ import annotations

from typing import Any

import pytest
from test_engine_support import codes, reveal, run, seat

pytestmark = pytest.mark.needs_game("mandate2038")


def era(n: int, *events: dict[str, Any], headline: str | None = None) -> list[dict[str, Any]]:
    h: dict[str, Any] = {"type": "headline", "cycle": 1}
    if headline:
        h["headline"] = headline
    return [{"type": "era_start", "era": n}, h, *events]


def _run(era_no: int, events: list[dict[str, Any]], factions: tuple[str, ...]) -> Any:
    # seat 1 holds Initiative in Era k cycle 1 when the first Initiative was seat
    # (1 - 3(k-1)) mod N
    n = len(factions)
    first = ((0 - 3 * (era_no - 1)) % n) + 1
    return run(events, detail="partial", factions=factions, first_initiative=first)


def cp(*seats: dict[str, Any]) -> dict[str, Any]:
    return {"type": "checkpoint", "seats": list(seats)}


F4 = ("mirevanta", "kestralyn", "corthaven", "loopfold")


def test_peer_validation_four_and_five_players() -> None:
    evs = era(3, cp({"seat": 1, "capability": 8}), reveal("covenant", "fund", "fund", "fund"),
              {"type": "covenant", "seat": 1, "path": ["F"]})
    r = _run(3, evs, F4)
    assert codes(r) == []
    assert [(e.seat, e.amount) for e in r.ledger if e.source == "capability_threshold"] == [(1, 1)]
    f5 = (*F4, "orisonix")
    evs = era(3, cp({"seat": 1, "capability": 11}),
              reveal("covenant", "fund", "fund", "fund", "fund"),
              {"type": "covenant", "seat": 1, "path": ["F"]})
    r = _run(3, evs, f5)
    assert [(e.seat, e.amount) for e in r.ledger if e.source == "capability_threshold"] == [(1, 2)]


def test_scientific_method_once_per_era() -> None:
    run_ = [{"type": "research", "seat": 1, "path": ["F"]},
            {"type": "draw", "seat": 1, "card": "code"},
            {"type": "draw", "seat": 1, "card": "code"},
            {"type": "run_end", "seat": 1, "outcome": "method", "banked": 1}]
    evs = era(1, reveal("research", "fund", "fund", "fund"), *run_)
    r = _run(1, evs, F4)
    assert codes(r) == []
    assert seat(r, 1).runway == 2 and seat(r, 1).capability == 1
    evs2 = evs + [{"type": "headline", "cycle": 2}, reveal("research", "fund", "fund", "fund")]
    evs2 += [dict(e) for e in run_]
    # Research was exhausted in cycle 1, so the repeat is also an exhausted selection
    got = codes(_run(1, evs2, F4))
    assert "research/method-unavailable" in got


def test_orisonix_audited_deployment_and_emergency_pause() -> None:
    f = ("orisonix", "kestralyn", "corthaven", "loopfold")
    evs = era(4, cp({"seat": 1, "capability": 2}),
              {"type": "emergency_pause", "seat": 1, "program": "fusion"},
              reveal("deploy", "fusion", "fund", "fund"),
              {"type": "deploy", "seat": 1, "path": ["F"]})
    r = _run(4, evs, f)
    assert codes(r) == ["select/paused-program"]
    s = seat(r, 1)
    assert s.bag == 0 and s.customers == 1  # first Deploy this Era adds no Scrutiny
    assert s.trust == 6 and s.runway == 2  # 5 + 2 (cap 6); 3 - 1


def test_emergency_pause_before_era_four() -> None:
    f = ("orisonix", "kestralyn", "corthaven", "loopfold")
    r = _run(3, era(3, {"type": "emergency_pause", "seat": 1, "program": "covenant"}), f)
    assert codes(r) == ["ability/locked"]


def test_dovetalis_deal_flow_once_per_era() -> None:
    f = ("dovetalis", "kestralyn", "corthaven", "loopfold")
    evs = era(1, reveal("fund", "fund", "fund", "fund"),
              {"type": "trade", "seat": 1, "rival": 2, "give": "runway", "accepted": True},
              {"type": "fund", "seat": 1, "path": ["F"]},
              {"type": "trade", "seat": 2, "rival": 1, "give": "runway", "accepted": True},
              {"type": "fund", "seat": 2, "path": ["F"]})
    r = _run(1, evs, f)
    assert codes(r) == []
    # 5 - 1 + 1 (Deal Flow) + 2 (Fund) + 1 (seat 2's Runway); the second trade pays no bonus
    assert seat(r, 1).runway == 8 and seat(r, 1).compute == 2


def test_loopfold_installed_base_on_consensus_network() -> None:
    f = ("loopfold", "kestralyn", "corthaven", "mirevanta")
    evs = era(1, cp({"seat": 1, "capability": 4}), reveal("deploy", "fund", "fund", "fund"),
              {"type": "deploy", "seat": 1, "path": ["F", "I3", "O4"]})
    r = _run(1, evs, f)
    assert codes(r) == []
    assert seat(r, 1).compute == 2 and seat(r, 1).customers == 2


def test_corthaven_shovels_and_allocation_window() -> None:
    f = ("kestralyn", "corthaven", "mirevanta", "loopfold")
    evs = era(2,
              {"type": "allocation_window", "seat": 2, "offers": [
                  {"to": 1, "price": 2, "answer": "accept"},
                  {"to": 3, "price": 3, "answer": "counter", "counter_price": 1,
                   "counter_accepted": True}]},
              reveal("build", "fund", "fund", "fund"),
              {"type": "build", "seat": 1, "path": ["F", "I1"]})
    r = _run(2, evs, f)
    assert codes(r) == []
    assert seat(r, 2).runway == 5 + 2 + 1 and seat(r, 2).compute == 4
    assert seat(r, 1).compute == 4 and seat(r, 3).compute == 4 and seat(r, 3).runway == 2
    # a second window in the same game is used up
    r = _run(2, evs + [{"type": "headline", "cycle": 2},
                       {"type": "allocation_window", "seat": 2, "offers": []}], f)
    assert codes(r) == ["ability/used-up"]


def test_shovels_on_mega_cluster() -> None:
    # only seat 1 reveals (a partial log), so it resolves first whoever holds Initiative
    f = ("kestralyn", "corthaven", "mirevanta", "loopfold")
    evs = [
        {"type": "era_start", "era": 2}, {"type": "headline", "cycle": 1},
        {"type": "reveal", "selections": [{"seat": 1, "pick": "build"}]},
        {"type": "build", "seat": 1, "path": ["F", "I1"]},
        {"type": "era_start", "era": 3}, {"type": "headline", "cycle": 1},
        {"type": "reveal", "selections": [{"seat": 1, "pick": "build"}]},
        {"type": "build", "seat": 1, "path": ["I1", "I6"], "mode": "generator"},
        {"type": "era_start", "era": 4}, {"type": "headline", "cycle": 1},
        {"type": "reveal", "selections": [{"seat": 1, "pick": "build"}]},
        {"type": "build", "seat": 1, "path": ["I6", "O12"]},
        {"type": "headline", "cycle": 2},
        {"type": "reveal", "selections": [{"seat": 1, "pick": "mega_cluster"}]},
        {"type": "mega_cluster", "seat": 1, "path": ["O12"], "hosts": [1, 2]},
    ]
    r = run(evs, detail="partial", factions=f)
    assert codes(r) == []
    s = seat(r, 1)
    # Runway 6 - 1 (Facility, Industrial Velocity) - 1 (Emergency Power Complex) - 1 (Facility)
    # - 3 (Mega-Cluster); Compute 3 - 2; Mandate 2 + 1 + 1 (Industrial Velocity twice)
    assert (s.runway, s.compute, s.mandate, s.bag) == (0, 1, 4, 2)
    assert r.state.megas[1].hosts == (1, 2) and s.facilities[2].mega == 1
    assert seat(r, 2).runway == 5 + 1  # The Shovels: a rival spent 2 Compute
    # the same Mega-Cluster again: hosts already hold a half; the Program was used
    evs += [{"type": "headline", "cycle": 3},
            {"type": "reveal", "selections": [{"seat": 1, "pick": "mega_cluster"}]},
            {"type": "mega_cluster", "seat": 1, "path": ["O12"], "hosts": [1, 2]}]
    got = codes(run(evs, detail="partial", factions=f))
    assert got == ["select/program-reused", "program/mega-cluster-invalid"]


def test_kestralyn_orbital_compute() -> None:
    f = ("kestralyn", "corthaven", "mirevanta", "loopfold")
    evs = [
        {"type": "era_start", "era": 4}, {"type": "headline", "cycle": 1},
        {"type": "reveal", "selections": [{"seat": 1, "pick": "build"}]},
        {"type": "build", "seat": 1, "path": ["F", "I1"]},
        {"type": "headline", "cycle": 2},
        {"type": "reveal", "selections": [{"seat": 1, "pick": "fund"}]},
        {"type": "fund", "seat": 1, "orbital": {"facility": 1, "to": "I2"}},
    ]
    r = run(evs, detail="partial", factions=f)
    assert codes(r) == []
    s = seat(r, 1)
    assert s.facilities[1].hex == "I2"
    assert s.compute == 3 + 2  # Compute Estate's production once (Facility 1: starting grid)
    assert s.bag == 2 and s.runway == 6 - 1 + 2
    evs += [{"type": "headline", "cycle": 3},
            {"type": "reveal", "selections": [{"seat": 1, "pick": "deploy"}]},
            {"type": "deploy", "seat": 1, "orbital": {"facility": 1, "to": "I1"}}]
    # (Capability is not checked at a partial log's Deploy: it is checked at checkpoints)
    assert codes(run(evs, detail="partial", factions=f)) == ["ability/used-up"]
