"""Simulated Mandate 2038 games (the ruleset's ``simulate_one``): random factions, seats, map and
first Initiative, all from the seed; bots by seat; a checkpoint after each Era Mandate. The game
loop itself is the game-agnostic :func:`engine.simulate.simulate_game`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core.registry import get_ruleset
from engine.mandate2038.board import INNER, OUTER
from engine.mandate2038.bots import make_bot
from engine.mandate2038.moves import checkpoint_event
from engine.simulate import SIMULATOR_VERSION, simulate_game
from schemas.log import Provenance, SeatInfo
from schemas.mandate2038 import EraMandate, MandateHeader
from schemas.packs import load_pack

PLAYER_COUNTS = (3, 4, 5)
BOT_CHOICES = ("random", "heuristic", "mixed")


def random_map(pack: Any, rng: random.Random) -> dict[str, str]:
    """Frontier at the centre; each ring pool shuffled independently (core rules §1 step 1)."""
    centre, inner_pool, outer_pool = _ring_pools(pack)
    inner, outer = list(inner_pool), list(outer_pool)
    rng.shuffle(inner)
    rng.shuffle(outer)
    layout = {"F": centre}
    layout.update(zip(INNER, inner, strict=True))
    layout.update(zip(OUTER, outer, strict=True))
    return layout


#: id(pack) -> (pack, its Frontier tile, inner ring pool, outer ring pool): read once per pack
_POOLS: dict[int, tuple[Any, str, tuple[str, ...], tuple[str, ...]]] = {}


def _ring_pools(pack: Any) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The pack's Frontier tile and its inner and outer ring pools (tile ids, pack order)."""
    got = _POOLS.get(id(pack))
    if got is None or got[0] is not pack:
        got = _POOLS[id(pack)] = (
            pack,
            next(t.id for t in pack.tiles if t.pool.center),
            tuple(t.id for t in pack.tiles for _ in range(t.pool.inner)),
            tuple(t.id for t in pack.tiles for _ in range(t.pool.outer)),
        )
    return got[1], got[2], got[3]


def game_header(pack: Any, players: int, rng: random.Random, seat_bots: list[str], *, seed: Any,
                index: int) -> Any:
    """The header of simulated game ``index``: random factions, map and first Initiative."""
    factions = rng.sample([f.id for f in pack.factions], players)
    layout = random_map(pack, rng)
    first = rng.randint(1, players)
    bots_txt = ",".join(f"{i + 1}:{b}" for i, b in enumerate(seat_bots))
    return MandateHeader(
        session_type="simulation",
        game_id=f"sim-{seed}-{index:05d}",
        seats=[SeatInfo(seat=i + 1, faction=f, player=f"bot:{seat_bots[i]}") for i, f in enumerate(factions)],
        map=layout,
        first_initiative=first,
        provenance=Provenance(
            source_format="simulator",
            generator=(f"playtest simulate {SIMULATOR_VERSION} bots={bots_txt} "
                       f"seed={seed} game={index}"),
            description=f"simulated game {index} of seed {seed}; bots by seat: {bots_txt}",
        ),
        notes="Simulated by bots through the engine; not a human playtest.",
    )


_NONE: tuple[Any, ...] = ()
#: the events after which the checkpoint hook can return something
_AFTER_TYPES = (EraMandate,)


def _mandate_checkpoints(state: Any, event: Any) -> Sequence[Any]:
    """The simulator's ``after_event`` hook: the table's checkpoint after each Era Mandate
    (:func:`simulate_one` calls it only after Era Mandates; other callers may call it after
    every event, so the common case returns at once)."""
    if event.type != "era_mandate":
        return _NONE
    return [checkpoint_event(state, f"end of Era {state.era}")]


#: the content pack the simulator deals from
SIMULATION_PACK = "0.8.0-rc.17-test"


def simulate_one(seed: Any, index: int, players: int, bots: str = "mixed",
                 variant: Any = None) -> Any:
    """Game ``index`` of a run with ``seed``: reproducible on its own from (seed, index);
    ``variant``: the rules variant played (a stamp in the header: setup builds its pack)."""
    if bots not in BOT_CHOICES:
        raise ValueError(f"unknown bot choice {bots!r}; choose one of {', '.join(BOT_CHOICES)}")
    if not 3 <= players <= 5:
        raise ValueError(f"the simulator plays 3, 4 or 5 players, not {players}")
    ruleset = get_ruleset("mandate2038")
    if ruleset is None:
        raise RuntimeError("the mandate2038 ruleset is not registered")
    pack = load_pack("mandate2038", SIMULATION_PACK)
    rng = random.Random(f"{seed}:{index}")
    if bots == "mixed":
        seat_bots = [rng.choice(("random", "heuristic")) for _ in range(players)]
    else:
        seat_bots = [bots] * players
    header = game_header(pack, players, rng, seat_bots, seed=seed, index=index)
    if variant is not None:
        header = header.model_copy(update={"variant": variant})
    seat_objs = {i + 1: make_bot(b, random.Random(f"{seed}:{index}:bot{i + 1}"))
                 for i, b in enumerate(seat_bots)}
    return simulate_game(ruleset, header, seat_objs, rng, after_event=_mandate_checkpoints,
                         after_types=_AFTER_TYPES)
