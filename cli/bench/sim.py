"""The simulator's speed and identity yardsticks (docs/simulator.md, "Speed").

``python -m cli.bench.sim speed [--games 100] [--rounds 3]`` plays 4-player games of the
mixed bots (as ``playtest simulate`` does, with its garbage-collector setting) and prints games
per CPU-second, best of ``--rounds`` passes, start-up excluded. CPU seconds still vary with the
host's load (+-25% on a shared virtual machine): compare two commits alternately, back to back.

``python -m cli.bench.sim play --games N`` plays N games and prints nothing: run it under
``valgrind --tool=cachegrind --cache-sim=no`` for N = 10 and N = 0 and divide the difference
of the ``I refs`` lines by 10 for instructions per game, which do not depend on the load.

``python -m cli.bench.sim digest`` prints one SHA-256 over the logs of 72 games (3, 4 and 5
players x random, heuristic and mixed bots x 8 games): a speed-up that changes no game leaves it
unchanged; compare it with the commit before.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time


def _play(games: int, seed: str = "0") -> None:
    from engine.simulate import simulate_one

    for i in range(games):
        simulate_one(seed, i, 4, "mixed")


def speed(games: int, rounds: int) -> float:
    """Best games per CPU-second over ``rounds`` passes of ``games`` 4-player mixed games."""
    from ingest.gc_tuning import bulk_play

    _play(1, "warm-up")  # start-up (imports, content, caches of the board) excluded
    best = 0.0
    with bulk_play():
        for _ in range(rounds):
            t = time.process_time()
            _play(games)
            best = max(best, games / max(time.process_time() - t, 1e-9))
    return best


def digest() -> str:
    """SHA-256 over the canonical logs of 72 fixed games (see the module docstring)."""
    from engine.simulate import simulate_one
    from schemas.canonical import dumps_log

    h = hashlib.sha256()
    for players in (3, 4, 5):
        for bots in ("random", "heuristic", "mixed"):
            for i in range(8):
                h.update(dumps_log(simulate_one("digest", i, players, bots)).encode("utf-8"))
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cli.bench.sim", description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("speed", "play", "digest"))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args(argv)
    if a.what == "speed":
        print(f"{speed(a.games, a.rounds):.1f} games per CPU-second (4 players, mixed bots, "
              f"best of {a.rounds} x {a.games} games, start-up excluded)")
    elif a.what == "play":
        _play(a.games)
    else:
        print(digest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
