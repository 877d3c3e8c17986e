"""Game states from simulated Mandate 2038 games, for tests that need a real table (a real
board, pieces and markers) at a given point: replayed by the engine with no finding."""

from __future__ import annotations

from typing import Any

from engine.core.findings import FindingSink
from engine.core.registry import get_ruleset
from engine.simulate import simulate_one


def state_at_era(seed: str, players: int, era: int) -> Any:
    """Game 0 of ``seed`` at ``players`` (heuristic bots) replayed to its ``era_start`` of
    ``era`` (that event applied)."""
    log = simulate_one(seed, 0, players, "heuristic")
    rs = get_ruleset("mandate2038")
    sink = FindingSink(rs.catalogue)
    st = rs.setup(log.header, sink)
    for e in log.events:
        rs.apply(st, e, sink)
        if e.type == "era_start" and e.era == era:
            break
    assert st.era == era and not sink.findings
    return st
