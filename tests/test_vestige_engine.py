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
