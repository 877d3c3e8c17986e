"""The simulator's yardstick commands run and measure what they say (no timing asserted)."""

from __future__ import annotations

import gc

from engine import bench_sim


def test_speed_plays_games_and_restores_the_collector() -> None:
    before = gc.get_threshold()
    assert bench_sim.speed(games=2, rounds=1) > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_play_and_speed_commands(capsys) -> None:  # type: ignore[no-untyped-def]
    assert bench_sim.main(["play", "--games", "1"]) == 0
    assert capsys.readouterr().out == ""
    assert bench_sim.main(["speed", "--games", "1", "--rounds", "1"]) == 0
    assert "games per CPU-second" in capsys.readouterr().out
