"""Bots that play Vestige through the legal moves: a random one and a greedy heuristic one.

``choose(state, seat, options, label)`` returns one of ``options``. The heuristic bot scores each
option by what it is likely to earn soon (leverage from control, cards and jobs; attributes a
held job needs; moves that put useful tiles in reach), ties broken by its random generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.vestige.board import adjacent_tiles
from engine.vestige.moves import Intent, Option
from engine.vestige.state import GameState

BOT_VERSION = "1"


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, seat: int | None, options: Sequence[Option],
               label: str = "") -> Option:
        return options[self.rng.randrange(len(options))]


_BASE = {
    "complete": 9.0, "control": 7.0, "pickup": 6.0, "visit": 5.0, "activate": 4.5,
    "convert": 4.0, "move": 3.0, "rest": 1.0, "effect": 0.5, "recover": 2.0,
    "speed_boost": 0.2, "turn_end": 0.1,
}


class HeuristicBot:
    name = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def score(self, st: GameState, o: Option) -> float:
        if isinstance(o, Intent):
            return 8.5 if o.key.startswith("complete:") else 0.3
        t = o.type
        v = _BASE.get(t, 1.0)
        if t == "visit":
            region = getattr(o, "region", None)
            low = st.seats[getattr(o, "seat", 1)].blocks.get("influence", 0) < 4
            v += {"oasis": 3.0 if low else -2.0, "lawmaker_ridge": 2.0, "mercenary_camp": 2.0,
                  "smugglers_lair": 2.0, "underground": 1.5, "chop_shop": 1.0,
                  "garage": 2.5, "obelisk": -2.0, "trench": -3.0, "jump_point": -3.0,
                  "observatory": 0.5}.get(str(region), 0.0)
        if t == "move":
            path = getattr(o, "path", [])
            end = path[-1] if path else 0
            regions = {st.map.get(p) for p in adjacent_tiles(end)}
            wanted = set()
            for job, (owner, _w) in st.jobs.items():
                p = st.printed.get(job)
                if owner == getattr(o, "seat", 0) and p is not None:
                    wanted.add(p.complete_at)
            for stack in ("artifact", "augmentation", "bounty"):
                card = st.display.get(stack)
                if card and card in st.printed:
                    wanted.add(st.printed[card].pickup)
            v += 1.5 * len(regions & wanted) + 0.3 * len(regions)
        return v + self.rng.random()

    def choose(self, state: GameState, seat: int | None, options: Sequence[Option],
               label: str = "") -> Option:
        return max(options, key=lambda o: self.score(state, o))


def make_bot(kind: str, rng: random.Random) -> RandomBot | HeuristicBot:
    if kind == "random":
        return RandomBot(rng)
    if kind == "heuristic":
        return HeuristicBot(rng)
    raise ValueError(f"unknown bot {kind!r}; choose random or heuristic")
