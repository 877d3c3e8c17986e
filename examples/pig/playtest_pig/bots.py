"""Bots for Pig: each picks "roll again" or "hold" from the legal options (moves.py).

* ``hold20``: hold once the turn total reaches 20 (the turn total that maximises the expected
  points of a turn), or when holding reaches the target.
* ``pace``: Neller and Presser's "keep pace and end race" for two players, generalised to the
  best opponent: hold when holding wins; if anyone has 71 or more, roll on to win; otherwise
  hold at 21 + round((opponent - own score) / 8).
* ``random``: holds with probability 1/3 (and always when holding wins): a weak player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.api import Pass
from playtest_pig.state import GameState

BOT_NAMES = ("hold20", "pace", "random")
#: what each bot is called on a page
BOT_LABELS = {"hold20": "Hold at 20", "pace": "Keep pace and end race",
              "random": "Random (holds 1 time in 3)"}


def _split(options: Sequence[Any]) -> tuple[Any, Any]:
    roll = next(o for o in options if isinstance(o, Pass))
    hold = next(o for o in options if not isinstance(o, Pass))
    return roll, hold


class Hold20:
    name = "hold20"

    def choose(self, state: GameState, seat: int | None, options: Sequence[Any],
               label: str) -> Any:
        roll, hold = _split(options)
        mine = state.scores[state.active] + state.turn_total
        return hold if state.turn_total >= 20 or mine >= state.target else roll


class KeepPace:
    name = "pace"

    def choose(self, state: GameState, seat: int | None, options: Sequence[Any],
               label: str) -> Any:
        roll, hold = _split(options)
        own = state.scores[state.active]
        if own + state.turn_total >= state.target:
            return hold
        other = max((v for s, v in state.scores.items() if s != state.active), default=0)
        end_race = state.target * 71 // 100
        if own >= end_race or other >= end_race:
            return roll
        limit = 21 + round((other - own) / 8)
        return hold if state.turn_total >= limit else roll


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, seat: int | None, options: Sequence[Any],
               label: str) -> Any:
        roll, hold = _split(options)
        if state.scores[state.active] + state.turn_total >= state.target:
            return hold
        return hold if self.rng.random() < 1 / 3 else roll


def make_bot(name: str, rng: random.Random) -> Any:
    """The bot called ``name`` (ValueError for another name)."""
    if name == "hold20":
        return Hold20()
    if name == "pace":
        return KeepPace()
    if name == "random":
        return RandomBot(rng)
    raise ValueError(f"unknown Pig bot {name!r}; choose one of {', '.join(BOT_NAMES)}")
