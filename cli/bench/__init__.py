"""The benchmarks, in one folder at the top of the layers (they drive every layer below):

* :mod:`cli.bench.run`: ``playtest bench``, replay-validate throughput (and ``--pages``);
* :mod:`cli.bench.sim`: simulated games' speed and the digest that proves no game changed
  (``python -m cli.bench.sim digest``);
* :mod:`cli.bench.python_chess`: python-chess on random legal games, the reference row;
* :mod:`cli.bench.warehouse`: ingest and rebuild time and memory on synthetic logs;
* :mod:`cli.bench.pages`: server render time of every dashboard page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def synthetic_source(game: str | None = None) -> tuple[str, Callable[..., Any]]:
    """``(game id, generator)``: the synthetic-log generator ``game`` declares (its
    ``synthetic_log`` member), or that of the first registered game declaring one. The benches
    name no game: a game offers synthetic logs by declaring them (tests/test_game_rooms.py)."""
    from engine.core.game import resolve
    from engine.core.registry import rulesets

    for gid, rs in rulesets().items():
        ref = rs.synthetic_log
        if (game is None or gid == game) and ref is not None:
            return gid, resolve(ref)
    raise LookupError(f"no registered game {'named ' + repr(game) + ' ' if game else ''}"
                      "declares synthetic_log (engine.core.game.Game.synthetic_log)")
