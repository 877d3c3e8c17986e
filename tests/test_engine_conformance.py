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
