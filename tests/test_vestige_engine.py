"""Vestige engine: simulated games replay clean; registry; records; declared values listed."""

from __future__ import annotations

import json

import pytest

from engine.core.registry import get_ruleset
from engine.core.replay import replay, replay_to
from engine.vestige import RULESET
from engine.vestige.simulate import simulate_one
from schemas.canonical import dumps_log
from schemas.vestige import VestigeLog


def test_both_rulesets_registered() -> None:
    assert get_ruleset("vestige") is RULESET
    assert get_ruleset("mandate2038") is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulated_games_replay_clean(players: int) -> None:
    for index in range(3):
        log = simulate_one(8, index, players)
        assert log.header.session_type == "simulation"
        r = replay(log.header, log.events, ruleset=RULESET)
        assert r.findings == [], [f.message for f in r.findings[:5]]
        assert r.outcome is not None and r.outcome.complete
        assert r.outcome.ending in {"most_leverage", "tie"}
        totals = {s: sum(e.amount for e in r.ledger if e.seat == s) for s in range(1, players + 1)}
        assert totals == r.outcome.details["final_leverage"]
        again = VestigeLog.model_validate(json.loads(dumps_log(log)))
        assert again == log


def test_records_and_declared_values() -> None:
    log = simulate_one(8, 5, 3)
    r = replay(log.header, log.events, ruleset=RULESET)
    from engine.vestige.records import rows

    rec = rows(r.state)  # the engine's working rows (r.records: the declared tables)
    assert set(r.records) == set(RULESET.tables)
    assert rec["seats"] and len(rec["seats"]) == 3
    assert {row["colour"] for row in rec["mastery"]} == {
        "ambition", "cunning", "might", "guile", "intrigue", "ingenuity", "chop_bot"}
    assert any(row["change"] == "met" for row in rec["endgame"])
    declared = {row["value"] for row in rec["declared"]}
    assert "region_leverage" in declared and all(row["note"] for row in rec["declared"])
    assert r.unchecked


def test_snapshot_at_positions_is_json() -> None:
    log = simulate_one(8, 6, 4)
    for pos in range(0, len(log.events), 37):
        r = replay_to(log.header, log.events, pos, ruleset=RULESET)
        json.dumps(RULESET.snapshot(r.state))


def test_partial_log_checked_by_invariants() -> None:
    log = VestigeLog.model_validate({
        "header": {"game": "vestige", "session_type": "facilitated_playtest", "detail": "partial",
                   "seats": [{"seat": 1, "faction": "blue"}, {"seat": 2, "faction": "green"}]},
        "events": [
            {"type": "checkpoint", "round": 1, "seats": [{"seat": 1, "leverage": 4},
                                                         {"seat": 2, "leverage": 6}]},
            {"type": "checkpoint", "round": 2, "seats": [{"seat": 1, "leverage": -1},
                                                         {"seat": 2, "leverage": 9}]},
            {"type": "checkpoint", "round": 1, "seats": [{"seat": 1, "leverage": 5}]},
            {"type": "phase", "name": "final_scoring"},
            {"type": "final_scoring", "scores": [{"seat": 1, "total": 30}, {"seat": 2, "total": 30}],
             "winners": ["1"]},
        ],
    })
    r = replay(log.header, log.events, ruleset=RULESET)
    codes = [f.code for f in r.findings]
    assert codes == ["vestige-partial/negative-leverage", "vestige-round/out-of-order",
                     "vestige-final/winners"]


@pytest.mark.parametrize(("mode", "players"), [("team", 4), ("coop", 2), ("coop", 3)])
def test_simulated_modes_replay_clean(mode: str, players: int) -> None:
    for index in range(2):
        log = simulate_one(9, index, players, "heuristic", mode)
        assert log.header.mode == mode
        r = replay(log.header, log.events, ruleset=RULESET)
        assert r.findings == [], [f.message for f in r.findings[:5]]
        assert r.outcome is not None and r.outcome.complete
        labels = r.outcome.details["winners"]
        o = r.outcome
        assert o.mode == mode
        if mode == "coop":
            assert labels in ([], ["bone"], [str(s) for s in range(1, players + 1)])
            assert o.result == ("won" if labels not in ([], ["bone"]) else "lost")
            assert o.winners == (list(range(1, players + 1)) if o.result == "won" else [])
        else:
            assert labels in ([], ["1", "3"], ["2", "4"])
            assert o.winning_team in (None, "team:1", "team:2")
            assert o.winners == [int(x) for x in labels]
        assert all(e.round is not None and e.era is None for e in r.ledger)


def test_ruleset_simulation_hooks() -> None:
    assert RULESET.player_counts == (2, 3, 4)
    log = RULESET.simulate_one(3, 0, 2)
    assert log.header.game == "vestige" and log.header.session_type == "simulation"
    with pytest.raises(ValueError):
        simulate_one(3, 0, 1)


SIM_MODES = [("competitive", 2, "bone"), ("competitive", 3, "bone"), ("competitive", 4, "bone"),
             ("team", 4, "bone"), ("coop", 2, "bone"), ("coop", 3, "dunecrest"),
             ("coop", 4, "happy"), ("solo", 1, "bone"), ("solo", 1, "dunecrest"),
             ("solo", 1, "happy")]


@pytest.mark.parametrize(("mode", "players", "nemesis"), SIM_MODES)
def test_every_mode_and_nemesis_simulates_and_replays_clean(mode: str, players: int,
                                                           nemesis: str) -> None:
    """Issue 20: bots play legally in every mode (competitive 2-4, team, co-op, solo) and
    against each nemesis, with every check in force (the simulator is strict: a finding on a
    chosen move raises; the replay must be clean too)."""
    for index in range(2):
        log = simulate_one("modes", index, players, "mixed", mode, nemesis)
        assert log.header.mode == mode and len(log.header.seats) == players
        if mode in ("coop", "solo"):
            assert [n.name for n in log.header.nemeses] == [nemesis]
        r = replay(log.header, log.events, ruleset=RULESET)
        assert r.findings == [], [f.message for f in r.findings[:5]]
        assert r.outcome is not None and r.outcome.complete


def test_simulated_jobs_are_picked_up_where_the_stack_top_points() -> None:
    """p. 14: every simulated pickup is next to the tile the stack's top card shows (not the
    face-up card's own back), and every face-up job taken is replaced before play goes on."""
    from engine.core.findings import FindingSink
    from engine.vestige.board import adjacent_tiles

    pickups = differ = 0
    for index in range(4):
        log = simulate_one("pickups", index, 3)
        sink = FindingSink(RULESET.catalogue)
        st = RULESET.setup(log.header, sink)
        for i, ev in enumerate(log.events):
            if ev.type == "pickup":
                shows = st.stack_top[ev.stack]
                s = st.seats[ev.seat]
                assert ev.at in adjacent_tiles(s.space or 0) and st.map[ev.at] == shows
                pickups += 1
                differ += st.printed[ev.card].pickup != shows
            sink.event = i
            RULESET.apply(st, ev, sink)
        assert not sink.findings
    assert pickups > 0 and differ > 0  # the face-up card's own back usually points elsewhere


def _box_from_rulebook() -> dict[str, int]:
    """The component list of the rulebook itself (its counts, shipped in
    tests/data/reference-facts.json by tests/data/make_reference_facts.py)."""
    import json
    from pathlib import Path

    facts = Path(__file__).resolve().parent / "data" / "reference-facts.json"
    box: dict[str, int] = json.loads(facts.read_text(encoding="utf-8"))["vestige_box"]
    return box


def test_box_counts_are_the_rulebooks() -> None:
    from engine.vestige.content import CONTENT

    assert _box_from_rulebook() == CONTENT.box
    assert CONTENT.box_blocks == 21 and CONTENT.stated["blocks_per_seat"] == 20


@pytest.mark.parametrize(("mode", "players", "nemesis"),
                         [("competitive", 4, "bone"), ("coop", 3, "bone"), ("solo", 1, "bone")])
def test_simulated_component_counts_fit_the_box(mode: str, players: int, nemesis: str) -> None:
    """The simulator never has more of a component in play than the box holds (Game Components:
    12 of each contact, chop bot and job type; 20 blocks and a speed counter per colour; 16
    blocks per nemesis colour); Bone's mercenaries come from the same 12. Bone's own pack is not
    in the component list, so no count of his cards is asserted beyond the shared stacks."""
    from engine.core.findings import FindingSink
    from engine.vestige.cards import cards_out
    from engine.vestige.content import CONTENT

    most: dict[str, int] = {}
    for index in range(3):
        log = simulate_one("box", index, players, "mixed", mode, nemesis)
        sink = FindingSink(RULESET.catalogue)
        st = RULESET.setup(log.header, sink)
        for i, ev in enumerate(log.events):
            sink.event = i
            RULESET.apply(st, ev, sink)
            for s in st.seats.values():
                if s.set_up:
                    assert s.total_blocks() == CONTENT.stated["blocks_per_seat"]
            for nem in st.nemeses.values():
                assert len(nem.regions) <= CONTENT.box_nemesis_blocks
            assert len(st.market) <= 3
            for kind in ("lawmaker", "mercenary", "smuggler", "chop_bot", "artifact",
                         "augmentation", "bounty"):
                most[kind] = max(most.get(kind, 0), cards_out(st, kind))
        covert = sum(s.covert_held for s in st.seats.values())
        assert covert <= CONTENT.box["covert_op"]
        assert len(st.endgame_active) <= CONTENT.box["endgame"]
        assert not sink.findings
    for kind, count in most.items():
        assert count <= CONTENT.box[kind], (kind, count)
    assert most["mercenary"] > 0
