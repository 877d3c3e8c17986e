"""Each major illegal move produces its finding code (and no cascade)."""

from __future__ import annotations

from typing import Any

import pytest
from test_engine_support import OPENING, codes, reveal, run, seat

pytestmark = pytest.mark.needs_game("mandate2038")

START = [
    {"type": "era_start", "era": 1, "mandate": "quarter_humanity_notices"},
    {"type": "headline", "cycle": 1, "headline": "employee_free_unicorn"},
]


def one_turn(picks: tuple[str, ...], *turns: dict[str, Any]) -> list[dict[str, Any]]:
    return START + [reveal(*picks), *turns]


# Partial logs that start at Era k: Initiative passes every cycle, so with four players seat 1
# holds it in Era k cycle 1 when the first Initiative was seat k.
def partial_era(era: int, *events: dict[str, Any], headline: str | None = None,
                mandate: str | None = None) -> list[dict[str, Any]]:
    h: dict[str, Any] = {"type": "headline", "cycle": 1}
    if headline:
        h["headline"] = headline
    return [{"type": "era_start", "era": era, "mandate": mandate}, h, *events]


def test_facility_on_frontier_stays_where_built() -> None:
    r = run(one_turn(("build", "fund", "fund", "fund"),
                     {"type": "build", "seat": 1, "path": ["F"]}))
    assert codes(r) == ["build/facility-on-frontier"]
    assert seat(r, 1).facilities[1].hex == "F"
    assert seat(r, 1).runway == 5  # 2 Runway - Industrial Velocity, no more findings


def test_third_facility_on_one_hex() -> None:
    r = run(one_turn(("build", "build", "build", "fund"),
                     {"type": "build", "seat": 1, "path": ["F", "I1"]},
                     {"type": "build", "seat": 2, "path": ["F", "I1"]},
                     {"type": "build", "seat": 3, "path": ["F", "I1"]},
                     {"type": "fund", "seat": 4, "path": ["F"]}))
    assert codes(r) == ["build/no-facility-space"]


def test_generator_in_era_one() -> None:
    r = run(one_turn(("build", "fund", "fund", "fund"),
                     {"type": "build", "seat": 1, "mode": "generator", "path": ["F", "I6"]}))
    assert codes(r) == ["build/generator-locked"]


def test_generator_off_energy_and_slots_full() -> None:
    gens = [{"type": "build", "seat": s, "mode": "generator", "path": ["F", "I6"]}
            for s in (1, 2, 3, 4)]
    r = run(partial_era(2, reveal("build", "build", "build", "build"), *gens),
            detail="partial", first_initiative=2)
    assert codes(r) == ["build/generator-slots-full"]
    r = run(partial_era(2, reveal("build", "fund", "fund", "fund"),
                        {"type": "build", "seat": 1, "mode": "generator", "path": ["F", "I1"]}),
            detail="partial", first_initiative=2)
    assert codes(r) == ["build/generator-not-energy"]


def test_path_not_adjacent_and_piece_not_there() -> None:
    r = run(one_turn(("fund", "fund", "fund", "fund"),
                     {"type": "fund", "seat": 1, "path": ["F", "O1"]},
                     {"type": "fund", "seat": 2, "path": ["I1", "I2"]},
                     {"type": "fund", "seat": 3, "path": ["F"]},
                     {"type": "fund", "seat": 4, "path": ["F"]}))
    assert codes(r) == ["move/not-adjacent", "move/piece-not-there"]
    assert seat(r, 2).ceo == "I2"


def test_order_and_selection() -> None:
    r = run(one_turn(("fund", "fund", "fund", "fund"),
                     {"type": "fund", "seat": 2, "path": ["F"]},
                     {"type": "research", "seat": 1, "path": ["F"]},
                     {"type": "draw", "seat": 1, "card": "code"},
                     {"type": "run_end", "seat": 1, "outcome": "bank"},
                     {"type": "fund", "seat": 3, "path": ["F"]},
                     {"type": "fund", "seat": 4, "path": ["F"]},
                     {"type": "fund", "seat": 4, "path": ["F"]}))
    # seat 4's second Fund repeats its turn exactly (a line written twice): one finding, and
    # the repeat is not applied again (issue 21: one slip, one finding)
    assert codes(r) == ["turn/out-of-order", "turn/not-selected", "turn/twice"]


def test_exhausted_action_and_missing_selection() -> None:
    evs = OPENING + [
        {"type": "headline", "cycle": 2, "headline": "employee_free_unicorn"},
        {"type": "reveal", "selections": [{"seat": 1, "pick": "build"},
                                          {"seat": 2, "pick": "fund"},
                                          {"seat": 3, "pick": "deploy"}]},
    ]
    r = run(evs)
    got = codes(r)
    assert "select/action-exhausted" in got  # seat 1 built in cycle 1
    assert "select/missing-seat" in got  # seat 4
    assert "select/ineligible" in got  # seat 3 has Capability 1, Customer #1 needs 2


def test_program_locked_in_era_one() -> None:
    r = run(one_turn(("covenant", "fund", "fund", "fund")))
    assert codes(r) == ["select/program-locked"]  # no marker is its consequence


def test_deploy_capability_too_low() -> None:
    r = run(one_turn(("deploy", "fund", "fund", "fund"),
                     {"type": "deploy", "seat": 1, "path": ["F"]}))
    assert codes(r) == ["select/ineligible", "deploy/capability-too-low"]
    assert seat(r, 1).customers == 1  # what the table did


@pytest.mark.parametrize(("draws", "outcome", "expected"), [
    (["code", "code", "web"], "bank", ["research/draw-after-duplicate"]),
    (["code", "code"], "bank", ["research/bank-after-duplicate"]),
    (["code", "web"], "crash", ["research/crash-without-duplicate"]),
    (["code"], "protect", ["research/protect-without-duplicate"]),
    (["human_evaluation", "code"], "bank", ["research/draw-after-human-evaluation"]),
    (["code", "code"], "method", ["research/method-unavailable"]),
])
def test_training_run_errors(draws: list[str], outcome: str, expected: list[str]) -> None:
    evs = one_turn(("research", "fund", "fund", "fund"),
                   {"type": "research", "seat": 1, "path": ["F"]},
                   *[{"type": "draw", "seat": 1, "card": c} for c in draws],
                   {"type": "run_end", "seat": 1, "outcome": outcome})
    assert codes(r := run(evs)) == expected, r.findings


def test_curated_corpus_and_banked_mismatch() -> None:
    evs = one_turn(("research", "fund", "fund", "fund"),
                   {"type": "research", "seat": 1, "path": ["F"]},
                   {"type": "draw", "seat": 1, "card": "code"},
                   {"type": "draw", "seat": 1, "card": "curated_corpus", "domain": "code"},
                   {"type": "run_end", "seat": 1, "outcome": "bank", "banked": 5})
    r = run(evs)
    assert codes(r) == ["research/curated-domain", "research/banked-mismatch"]
    assert seat(r, 1).capability == 5  # the table's banked value is kept (no cascade)


def test_protection_spent_and_crash() -> None:
    # Research protection: one per Era; the second protected duplicate has none left
    evs = one_turn(("research", "fund", "fund", "fund"),
                   {"type": "research", "seat": 1, "path": ["F"]},
                   {"type": "draw", "seat": 1, "card": "code"},
                   {"type": "draw", "seat": 1, "card": "code"},
                   {"type": "run_end", "seat": 1, "outcome": "crash"})
    r = run(evs)
    assert codes(r) == []
    assert seat(r, 1).capability == 0 and seat(r, 1).bag == 1


def test_card_unavailable() -> None:
    draws = [{"type": "draw", "seat": 1, "card": "video"} for _ in range(5)]
    r = run(START + draws)
    got = codes(r)
    assert got.count("research/draw-outside-run") == 5
    assert got.count("research/card-unavailable") == 1


def test_trades() -> None:
    evs = one_turn(("fund", "fund", "fund", "fund"),
                   {"type": "trade", "seat": 2, "rival": 3, "give": "runway", "accepted": True},
                   {"type": "trade", "seat": 1, "rival": 1, "give": "runway", "accepted": True},
                   {"type": "fund", "seat": 1, "path": ["F"]})
    got = codes(run(evs))
    assert got == ["trade/not-active-player", "turn/out-of-order", "trade/self"] or (
        "trade/not-active-player" in got and "trade/self" in got)


def test_second_trade_offer() -> None:
    evs = one_turn(("fund", "fund", "fund", "fund"),
                   {"type": "trade", "seat": 1, "rival": 2, "give": "runway", "accepted": False},
                   {"type": "trade", "seat": 1, "rival": 3, "give": "runway", "accepted": True},
                   {"type": "fund", "seat": 1, "path": ["F"]})
    r = run(evs)
    assert codes(r) == ["trade/second-offer"]
    assert seat(r, 1).compute == 4 and seat(r, 3).runway == 6  # the accepted trade happened


def test_influence_not_political_and_jv_locked() -> None:
    r = run(one_turn(("influence", "influence", "fund", "fund"),
                     {"type": "influence", "seat": 1, "path": ["F", "I1"], "mode": "trust"},
                     {"type": "influence", "seat": 2, "path": ["F"], "mode": "jv", "facility": 1,
                      "partner": 1, "partner_facility": 1, "accepted": True}))
    got = codes(r)
    assert got[0] == "influence/not-political"
    assert "influence/jv-locked" in got


def test_relocate_and_recruit() -> None:
    r = run(one_turn(("build", "organize", "organize", "fund"),
                     {"type": "build", "seat": 1, "path": ["F", "I1"]},
                     {"type": "organize", "seat": 2, "path": ["F", "I1"], "mode": "relocate",
                      "facility": 1, "to": "O1"},
                     {"type": "organize", "seat": 3, "path": ["F"], "mode": "recruit",
                      "recruits": 2, "then": {"piece": "ceo", "path": ["F", "I1", "O1", "O2"]}}))
    got = codes(r)
    assert got == ["organize/relocate-invalid", "organize/headline-not-active",
                   "organize/extra-move-too-far"]
    assert len(seat(r, 3).teams) == 3 and seat(r, 3).teams_supply == 0


def test_audit_errors() -> None:
    evs = one_turn(("fund", "fund", "fund", "fund"),
                   {"type": "fund", "seat": 1, "path": ["F"], "mode": "venture"},
                   {"type": "fund", "seat": 2, "path": ["F"]},
                   {"type": "fund", "seat": 3, "path": ["F"]},
                   {"type": "fund", "seat": 4, "path": ["F"]},
                   {"type": "audit", "draws": [2]})
    got = codes(run(evs))
    assert "audit/cube-not-in-bag" in got and "audit/wrong-draw-count" in got
    # a partial log does not know the bag, so it cannot tell which cubes were in it
    assert codes(run(evs, detail="partial", first_initiative=1)) == []


def test_era_mandate_scorers_compared_then_table_followed() -> None:
    from test_engine_opening import ERA_ONE

    evs = [e for e in ERA_ONE if e.get("type") != "era_mandate"] + [
        {"type": "era_mandate", "scorers": [2]}]
    r = run(evs)
    assert codes(r) == ["mandate/era-mandate-scorers"]
    assert seat(r, 2).mandate == 6  # the table's scoring is kept
    f = next(f for f in r.findings if f.code == "mandate/era-mandate-scorers")
    assert f.expected == [3, 4] and f.recorded == [2]


def test_programs() -> None:
    r = run(partial_era(3, reveal("narrative_capture", "covenant", "covenant", "fund"),
                        {"type": "narrative_capture", "seat": 1, "path": ["F"],
                         "mode": "give_scrutiny", "target": 2},
                        {"type": "covenant", "seat": 2, "path": ["F"]},
                        {"type": "covenant", "seat": 3, "path": ["F"]}),
            detail="partial", first_initiative=3)
    got = codes(r)
    assert got == ["program/narrative-invalid"]
    assert seat(r, 4).capability == 2  # two Covenants: every player +1 each


def test_fusion_only_once() -> None:
    evs = partial_era(4, reveal("fusion", "fusion", "fund", "fund"),
                      {"type": "fusion", "seat": 1, "path": ["F", "I6"]},
                      {"type": "fusion", "seat": 2, "path": ["F", "I6"]})
    r = run(evs, detail="partial", first_initiative=4)
    assert codes(r) == ["program/fusion-invalid"]
    assert r.state.fusion_owner == 1
    assert seat(r, 1).mandate == 4  # 2 printed + 2 Fusion


def test_agent_swarm() -> None:
    evs = partial_era(4, reveal("agent_swarm", "fund", "fund", "fund"),
                      {"type": "agent_swarm", "seat": 1, "path": ["F", "I4"],
                       "actions": ["fund", "deploy"], "bonus_to": "fund"},
                      {"type": "fund", "seat": 1, "swarm": True},
                      {"type": "fund", "seat": 2, "path": ["F"]})
    r = run(evs, detail="partial", first_initiative=4)
    assert codes(r) == ["program/swarm-invalid"]  # deploy never resolved
    assert seat(r, 1).runway == 9  # 6 + 2 + 1 (Allocation Exchange bonus to Fund)
    assert seat(r, 1).bag == 3


def test_blocked_claimed() -> None:
    r = run(one_turn(("fund", "build", "fund", "fund"),
                     {"type": "fund", "seat": 1, "path": ["F"], "blocked": True},
                     {"type": "build", "seat": 2, "path": ["F", "I1"], "blocked": True}))
    assert codes(r) == ["turn/blocked-claimed", "turn/blocked-claimed"]
    assert seat(r, 1).runway == 6 and not seat(r, 2).facilities  # nothing happened
    assert all(f.severity == "warning" for f in r.findings if f.code == "turn/blocked-claimed")


def test_first_initiative_inferred_when_not_recorded() -> None:
    evs = one_turn(("fund", "fund", "fund", "fund"),
                   *[{"type": "fund", "seat": s, "path": ["F"]} for s in (3, 4, 1, 2)])
    r = run(evs, first_initiative=None)
    assert codes(r) == []
    assert r.state.first_initiative == 3
    r = run(evs)  # the header says seat 1 holds Initiative
    assert codes(r) == ["turn/out-of-order"]


def test_research_without_compute_is_ineligible_unless_an_estate_is_near() -> None:
    from test_engine_support import MAP

    evs = [{"type": "era_start", "era": 1},
           {"type": "checkpoint", "seats": [{"seat": 1, "compute": 0}]},
           {"type": "headline", "cycle": 1}, reveal("research", "fund", "fund", "fund")]
    # from Frontier a Compute Estate (I2) is within reach: its visit makes Research free
    assert codes(run(evs)) == ["checkpoint/mismatch"]
    # Compute Estates clustered east (I1, O1, O2); the seat's CEO and Team walk to O7 first
    east = dict(MAP, I1="cloud", I2="research", O1="cloud", O3="research", O2="cloud",
                O9="consumer")
    far = [
        {"type": "era_start", "era": 1},
        {"type": "checkpoint", "seats": [{"seat": 1, "compute": 0}]},
        {"type": "headline", "cycle": 1},
        reveal("organize", "fund", "fund", "fund"),
        {"type": "organize", "seat": 1, "path": ["F"], "mode": "redistribute",
         "moves": [{"piece": "ceo", "path": ["F", "I4", "O7"]},
                   {"piece": "team", "path": ["F", "I4", "O7"]}]},
        {"type": "fund", "seat": 2, "path": ["F"]},
        {"type": "fund", "seat": 3, "path": ["F"]},
        {"type": "fund", "seat": 4, "path": ["F"]},
        {"type": "headline", "cycle": 2},
        reveal("research", "research", "research", "research"),
    ]
    assert codes(run(far, map=east)) == ["checkpoint/mismatch", "select/ineligible"]


def test_program_marked_as_swarm_action() -> None:
    evs = [{"type": "era_start", "era": 3}, {"type": "headline", "cycle": 1},
           reveal("covenant", "fund", "fund", "fund"),
           {"type": "covenant", "seat": 1, "swarm": True}]
    r = run(evs, detail="partial", first_initiative=3)
    assert codes(r) == ["program/swarm-invalid"]
    assert seat(r, 1).trust == 2 + 2  # the Covenant still resolved


def test_build_without_runway_is_ineligible() -> None:
    evs = [{"type": "era_start", "era": 1},
           {"type": "checkpoint", "seats": [{"seat": 1, "runway": 0}, {"seat": 2, "runway": 0}]},
           {"type": "headline", "cycle": 1}, reveal("build", "build", "fund", "fund")]
    got = codes(run(evs))
    # seat 1 (Kestralyn): Fabrication Corridor and Industrial Velocity make a Facility free;
    # seat 2 (Mirevanta) would still owe 1 Runway there
    assert got == ["checkpoint/mismatch", "checkpoint/mismatch", "select/ineligible"]
    assert run(evs).findings[2].where.seat == 2
