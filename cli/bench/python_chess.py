"""The issue's yardstick, measured in the same run: python-chess reading and validating PGN.

``python -m cli.bench.python_chess [--games 300] [--seed 1]`` writes ``--games`` random legal chess
games (uniform random legal moves from a seeded generator, at most 160 plies, to a PGN text in
memory), then times ``chess.pgn.read_game`` over them (it parses every SAN move and checks it
against the legal moves of the position) and prints moves per CPU-second, best of three passes,
start-up excluded. Compare with ``playtest bench`` row (c) run right before or after.

python-chess is not a dependency of the toolkit: it is in the ``bench`` and ``dev`` extras
(the command says so and exits 2 when it is missing).
"""

from __future__ import annotations

import argparse
import importlib
import io
import random
import sys
import time
from typing import Any


def _chess() -> tuple[Any, Any]:
    return importlib.import_module("chess"), importlib.import_module("chess.pgn")


def make_pgns(games: int, seed: int, max_plies: int = 160) -> tuple[list[str], int]:
    """``games`` random legal games as PGN texts, and their total number of moves (plies)."""
    chess, pgn = _chess()
    rng = random.Random(seed)
    texts: list[str] = []
    plies = 0
    for _ in range(games):
        board = chess.Board()
        for _ply in range(max_plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        plies += len(board.move_stack)
        texts.append(str(pgn.Game.from_board(board)))
    return texts, plies


def one_pass(texts: list[str]) -> float:
    """CPU seconds of one pass reading (and validating) every game (``playtest bench --chess``
    runs one after each of its validate passes, so that both see the same load)."""
    _chess_mod, pgn = _chess()
    t0 = time.process_time()
    for text in texts:
        game = pgn.read_game(io.StringIO(text))
        if game is None or game.errors:
            raise RuntimeError(f"python-chess refused a generated game: {game and game.errors}")
    return time.process_time() - t0


def measure(texts: list[str], repeat: int = 3) -> float:
    """Best CPU seconds of ``repeat`` passes reading (and validating) every game."""
    return min(one_pass(texts) for _ in range(repeat))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cli.bench.python_chess", description=__doc__)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        _chess()
    except ImportError:
        print("python-chess is not installed: pip install -e \".[bench]\"", file=sys.stderr)
        return 2
    texts, plies = make_pgns(args.games, args.seed)
    secs = measure(texts)
    print(f"python-chess {_chess()[0].__version__}: {args.games} games, {plies} moves, "
          f"read and validated at {plies / secs:,.0f} moves per CPU-second (best of 3, "
          f"{secs:.3f} CPU s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
