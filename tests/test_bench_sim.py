"""The simulator's yardstick commands run and measure what they say (no timing asserted)."""

from __future__ import annotations

import gc

import pytest

from cli.bench import sim as bench_sim

pytestmark = pytest.mark.needs_game("mandate2038")


def test_speed_plays_games_and_restores_the_collector() -> None:
    before = gc.get_threshold()
    assert bench_sim.speed(games=2, rounds=1) > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_play_and_speed_commands(capsys) -> None:  # type: ignore[no-untyped-def]
    assert bench_sim.main(["play", "--games", "1"]) == 0
    assert capsys.readouterr().out == ""
    assert bench_sim.main(["speed", "--games", "1", "--rounds", "1"]) == 0
    assert "games per CPU-second" in capsys.readouterr().out


def test_prepare_simulation_does_the_start_up_before_the_clock() -> None:
    """``playtest simulate`` times games after ``prepare_simulation``: in a fresh interpreter
    it imports each ruleset's simulator (first used otherwise inside the first timed game)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from engine.simulate import ruleset_for\n"
        "for game, module in (('mandate2038', 'engine.mandate2038.simulation'),\n"
        "                     ('vestige', 'engine.vestige.simulate')):\n"
        "    assert module not in sys.modules, module\n"
        "    ruleset_for(game).prepare_simulation()\n"
        "    assert module in sys.modules, module\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
