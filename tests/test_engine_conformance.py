"""Bot games played through the engine's legal moves replay clean, and one mutated event is
caught (a bounded sample; the simulator's own suite covers more)."""

from __future__ import annotations

import pytest

simulate = pytest.importorskip("engine.simulate")

from engine.core.replay import replay  # noqa: E402


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulated_games_replay_clean(players: int) -> None:
    for index in range(2):
        log = simulate.simulate_one(2038, index, players)
        r = replay(log.header, log.events)
        assert r.findings == [], [f.message for f in r.findings[:5]]
        assert r.outcome is not None and r.outcome.complete
        assert r.outcome.ending in {"singularity", "closed_loop", "plural_future",
                                    "assured_continuity"}
        total = {s: sum(e.amount for e in r.ledger if e.seat == s)
                 for s in range(1, players + 1)}
        assert total == r.outcome.details["final_mandate"]


def test_one_mutated_event_is_caught() -> None:
    log = simulate.simulate_one(2038, 0, 4)
    events = list(log.events)
    i = next(k for k, e in enumerate(events) if e.type == "audit" and e.draws)
    events[i] = events[i].model_copy(update={"draws": events[i].draws[:-1]})
    r = replay(log.header, events)
    assert "audit/wrong-draw-count" in [f.code for f in r.findings]


def test_snapshot_at_every_position_is_json() -> None:
    import json

    from engine.core.replay import replay_to
    from engine.mandate2038 import RULESET

    log = simulate.simulate_one(2038, 1, 3)
    for pos in range(0, len(log.events), 11):
        r = replay_to(log.header, log.events, pos)
        snap = RULESET.snapshot(r.state)
        json.dumps(snap)
        assert snap["era"] >= 1 and len(snap["seats"]) == 3


def test_never_raises_on_mutated_logs() -> None:
    import contextlib
    import random

    from schemas.canonical import dump_event
    from schemas.mandate2038 import EVENT_ADAPTER

    rng = random.Random(7)
    log = simulate.simulate_one(2038, 2, 4)
    for _ in range(25):
        events = list(log.events)
        for _ in range(4):
            i = rng.randrange(len(events))
            op = rng.random()
            if op < 0.3:
                del events[i]
            elif op < 0.5:
                events.insert(i, events[rng.randrange(len(events))])
            else:
                d = dump_event(events[i])
                keys = [k for k in d if k != "type" and isinstance(d[k], int)
                        and not isinstance(d[k], bool)]
                if keys:
                    d[rng.choice(keys)] = rng.randint(0, 6)
                    with contextlib.suppress(ValueError):  # pydantic's error is a ValueError
                        events[i] = EVENT_ADAPTER.validate_python(d)
        header = log.header if rng.random() < 0.7 else log.header.model_copy(
            update={"detail": "partial"})
        r = replay(header, events)  # must not raise
        assert r.state is not None


def test_records_of_a_complete_game() -> None:
    log = simulate.simulate_one(2038, 3, 4)
    r = replay(log.header, log.events)
    rec = r.records
    n = 4
    assert len(rec["headlines"]) == 12
    assert len(rec["selections"]) == 12 * n and len(rec["turns"]) >= 12 * n
    for table in ("era_states", "era_mandates", "audits", "production"):
        assert len(rec[table]) == 4 * n, table
    assert [row["era"] for row in rec["audit_draws"]] == [1, 2, 3, 4]
    assert len(rec["dossiers"]) == 4 * n and len(rec["claims"]) == n
    assert {row["seat"] for row in rec["era_states"]} == set(range(1, n + 1))
    # Era IV's end state is before final scoring: only the offline penalty comes after it
    era_end = {row["seat"]: row["mandate"] for row in rec["era_states"] if row["era"] == 4}
    penalty = {s: sum(e.amount for e in r.ledger if e.seat == s and e.source == "offline_penalty")
               for s in era_end}
    assert {s: era_end[s] + penalty[s] for s in era_end} == r.outcome.details["final_mandate"]
