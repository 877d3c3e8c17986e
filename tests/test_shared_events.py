"""Simulated logs never change after their game ends.

The move generator shares read-only option events between games of one process (trade offers,
Training draws, run ends, allocations, Dossier filings, reveals: docs/simulator.md, "Speed").
That is safe only while nothing changes an event once it is recorded. This test plays games in
one process, keeps each log's canonical text as its game ends, and checks every earlier log is
still the same text after the later games: a shared event changed by a later game (or by the
engine applying it again) changes an earlier log and fails here.
"""

from __future__ import annotations

import pytest

from engine.simulate import simulate_one
from schemas.canonical import dumps_log


@pytest.mark.needs_game("mandate2038")  # Mandate 2038's bots
@pytest.mark.parametrize("bots", ["mixed", "heuristic", "random"])
def test_recorded_logs_stay_unchanged_while_later_games_share_their_events(bots: str) -> None:
    logs, texts = [], []
    for i in range(6):
        log = simulate_one("shared", i, 3 + i % 3, bots)
        logs.append(log)
        texts.append(dumps_log(log))
    assert [dumps_log(log) for log in logs] == texts
    # and the sharing is real: some event object appears in more than one game's log
    seen: dict[int, int] = {}
    for g, log in enumerate(logs):
        for e in log.events:
            seen.setdefault(id(e), g)
    shared = sum(1 for g, log in enumerate(logs) for e in log.events if seen[id(e)] != g)
    assert shared > 0
