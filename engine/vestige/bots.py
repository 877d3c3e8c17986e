"""Bots that play Vestige through the legal moves: a random one and a greedy heuristic one.

``choose(state, seat, options, label)`` returns one of ``options``. The heuristic bot scores each
option by what it is likely to earn soon (leverage from control, cards and jobs; attributes a
held job needs; moves that put useful tiles in reach), ties broken by its random generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.vestige.board import NEIGHBOURS, TILE_SPACES, adjacent_tiles
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
    "complete": 9.0, "control": 7.0, "pickup": 6.0, "visit": 3.0, "activate": 4.5,
    "convert": 4.0, "move": 2.0, "rest": 1.0, "effect": 0.5, "recover": 0.05,
    "speed_boost": 0.2, "turn_end": 0.1, "transfer": 0.0, "reset": 0.2,
}
_GAINS = {"archives": "ambition", "black_market": "cunning", "scrapyard": "might"}
_HQ = {"lawmaker_ridge": "ambition", "mercenary_camp": "might", "smugglers_lair": "cunning"}


def region_worth(st: GameState, seat: int, region: str | None, pos: str | None = None) -> float:
    """How much visiting ``region`` now is worth to ``seat`` (a rough guess in leverage)."""
    s = st.seats[seat]
    b = s.blocks
    inf, conv = b.get("influence", 0), b.get("conviction", 0)
    v = 0.0
    if region in _HQ and b.get(_HQ[region], 0) >= 2:
        v = 6.0
    elif region in ("underground", "chop_shop") and conv >= 2:
        v = 4.0
    elif region == "garage" and b.get("might", 0) >= 3:
        v = 5.0
    elif region == "oasis" and inf < 4 and any(c.blocks for c in s.cards.values()):
        v = 4.0
    elif region in _GAINS and inf >= 2:
        want = {a for r, a in _HQ.items()}
        v = 2.5 if _GAINS[region] in want and b.get(_GAINS[region], 0) < 2 else 1.0
    elif region == "observatory" and b.get("cunning", 0) and b.get("potential", 0):
        v = 1.5
    if pos is not None and pos not in s.regions and conv >= (2 if pos in st.controller else 1):
        v += 1.5
    for job, (owner, _w) in st.jobs.items():
        p = st.printed.get(job)
        if owner == seat and p is not None and p.complete_at == region:
            v += 4.0
    return v


def _distance_to_good(st: GameState, seat: int, start: int) -> int:
    """Steps from ``start`` to the nearest space next to a tile worth visiting (99: none)."""
    goals = {sp for pos in st.map if region_worth(st, seat, st.map.get(pos), pos) >= 3.0
             for sp in TILE_SPACES[pos]}
    if not goals:
        return 99
    seen, frontier, d = {start}, [start], 0
    while frontier:
        if any(x in goals for x in frontier):
            return d
        d += 1
        nxt = []
        for x in frontier:
            for n in NEIGHBOURS[x]:
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return 99


class HeuristicBot:
    name = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def score(self, st: GameState, o: Option) -> float:
        if isinstance(o, Intent):
            return 8.5 if o.key.startswith("complete:") else 0.3
        t = o.type
        v = _BASE.get(t, 1.0)
        seat = int(getattr(o, "seat", 0) or 0)
        if t == "recover" and st.seats[seat].blocks.get("influence", 0) == 0:
            v = 3.0
        elif t == "recover" and str(getattr(o, "source", "")).startswith("card:"):
            v = 2.5  # starved of influence: abandon a loaded character (p. 16)
        if t == "visit":
            pos = getattr(o, "position", None)
            v += region_worth(st, seat, st.map.get(pos or ""), pos)
        if t == "move":
            path = getattr(o, "path", [])
            end = path[-1] if path else 0
            best = max((region_worth(st, seat, st.map.get(p), p) for p in adjacent_tiles(end)),
                       default=0.0)
            wanted = set()
            for stack in ("artifact", "augmentation", "bounty"):
                card = st.display.get(stack)
                if card and card in st.printed:
                    wanted.add(st.printed[card].pickup)
            near = {st.map.get(p) for p in adjacent_tiles(end)}
            v += best + 1.0 * len(near & wanted)
            if best < 3.0:  # nothing good next to the end: head for the nearest good tile
                v += 8.0 / (1 + _distance_to_good(st, seat, end))
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
