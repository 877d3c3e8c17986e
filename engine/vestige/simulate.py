"""Simulated Vestige games: deal a table and play it through the engine's legal moves
(engine.simulate.simulate_game). Every log is labelled ``session_type: simulation`` with bots,
version and seed in ``provenance.generator``; its cards are made-up simulator cards (see
engine/vestige/moves.py), never the real ones.

Game ``index`` of seed ``S`` uses ``random.Random(f"vestige:{S}:{index}")`` only, so each game is
reproducible on its own. Bots can stall (no leverage, so no endgame condition is ever revealed):
such a deal is abandoned after ``MAX_EVENTS`` events and re-dealt from ``...:retry<k>``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from engine.simulate import SIMULATOR_VERSION, SimulationError, simulate_game
from engine.vestige.board import POSITIONS
from engine.vestige.bots import make_bot
from engine.vestige.content import CONTENT
from engine.vestige.ruleset import RULESET
from schemas.log import Provenance, SeatInfo, VariantStamp
from schemas.vestige import VestigeHeader, VestigeLog

BOT_CHOICES = ("random", "heuristic", "mixed")
MAX_EVENTS = 6000
COLOURS = ("blue", "green", "purple", "orange")


def random_map(rng: random.Random) -> dict[str, str]:
    """19 tiles: the 13 with a lock (declared set) and 6 others from the base game."""
    pool = [r for r, n in CONTENT.base_regions.items() for _ in range(n)]
    chosen = sorted(CONTENT.locked_regions)
    for r in chosen:
        pool.remove(r)
    rng.shuffle(pool)
    tiles = chosen + pool[: 19 - len(chosen)]
    rng.shuffle(tiles)
    return dict(zip(POSITIONS, tiles, strict=True))


def game_header(players: int, rng: random.Random, seat_bots: list[str], *, seed: object,
                index: int, mode: str = "competitive",
                nemesis: str | None = None, variant: VariantStamp | None = None) -> VestigeHeader:
    bots_txt = ",".join(f"{i + 1}:{b}" for i, b in enumerate(seat_bots))
    colours = rng.sample(COLOURS, players)
    # a variant only when played: a header of the printed rules is written as before
    played = {"variant": variant.model_dump()} if variant is not None else {}
    return VestigeHeader.model_validate({
        "session_type": "simulation",
        "game_id": f"sim-vestige-{seed}-{index:05d}",
        "seats": [SeatInfo(seat=i + 1, faction=c, player=f"bot:{seat_bots[i]}").model_dump()
                  for i, c in enumerate(colours)],
        "mode": mode,
        "teams": [[1, 3], [2, 4]] if mode == "team" else None,
        "nemeses": [{"name": nemesis, "team": mode == "coop"}] if nemesis else [],
        "difficulty": rng.choice(("nuisance", "menace")) if nemesis else None,
        "map": random_map(rng),
        "first_player": rng.randint(1, players),
        "provenance": Provenance(
            source_format="simulator",
            generator=(f"playtest simulate {SIMULATOR_VERSION} game=vestige bots={bots_txt} "
                       f"seed={seed} game_index={index}"),
            description=f"simulated Vestige game {index} of seed {seed}; simulator cards "
                        "(not the real card texts); declared component values",
        ).model_dump(),
        "notes": "Simulated by bots through the engine; not a human playtest.",
        **played,
    })


def simulate_one(seed: object, index: int, players: int, bots: str = "mixed",
                 mode: str | None = None, nemesis: str | None = None,
                 variant: VariantStamp | None = None) -> VestigeLog:
    """Game ``index`` of seed ``seed``: ``players`` 2-4; ``mode`` competitive (default),
    ``team`` (4 players, seats 1+3 against 2+4), ``coop`` (2-4 players against ``nemesis`` as
    a team) or ``solo`` (1 player against ``nemesis``; ``players`` is taken as 1).
    ``nemesis``: bone (the rulebook's worked example, the only one whose threat table is
    printed), dunecrest or happy (their turns gain nothing: their tables are not printed);
    co-op and solo default to Bone, competitive and team games have none unless named.
    ``variant``: the rules variant played (its stamp in the header; the deal is the same
    under every variant: common seeds)."""
    mode = mode or "competitive"
    if mode not in MODES:
        raise ValueError(f"the simulator plays {', '.join(MODES)} games, not {mode!r}")
    if mode == "team" and players != 4:
        raise ValueError(f"team mode is simulated with 4 players, not {players}")
    if bots not in BOT_CHOICES:
        raise ValueError(f"unknown bot choice {bots!r}; choose one of {', '.join(BOT_CHOICES)}")
    if nemesis is None and mode in ("solo", "coop"):
        nemesis = "bone"
    if nemesis is not None and nemesis not in NEMESES:
        raise ValueError(f"unknown nemesis {nemesis!r}; choose one of {', '.join(NEMESES)}")
    if mode == "solo":
        players = 1
    elif not 2 <= players <= 4:
        raise ValueError(f"the Vestige simulator plays 2, 3 or 4 players, not {players}")
    for attempt in range(5):
        try:
            return _play(seed, index, players, bots, attempt, mode, nemesis, variant)
        except SimulationError as e:
            if "did not end" not in str(e):
                raise
    raise SimulationError(f"game {index} of seed {seed} stalled five times", [], [])


def _play(seed: object, index: int, players: int, bots: str, attempt: int,
          mode: str, nemesis: str | None = None,
          variant: VariantStamp | None = None) -> VestigeLog:
    """One deal; ``attempt`` > 0 re-deals a game whose bots stalled (no leverage, no end)."""
    tag = f"vestige:{seed}:{index}" + (f":retry{attempt}" if attempt else "")
    rng = random.Random(tag)
    seat_bots = ([rng.choice(("random", "heuristic")) for _ in range(players)]
                 if bots == "mixed" else [bots] * players)
    header = game_header(players, rng, seat_bots, seed=seed, index=index, mode=mode,
                         nemesis=nemesis, variant=variant)
    seat_objs = {i + 1: make_bot(b, random.Random(f"{tag}:bot{i + 1}"))
                 for i, b in enumerate(seat_bots)}
    log = simulate_game(RULESET, header, seat_objs, rng, max_events=MAX_EVENTS)
    assert isinstance(log, VestigeLog)
    return log


def simulate(n_games: int, players: int | Sequence[int], seed: object, bots: str = "mixed", *,
             start: int = 0, mode: str | None = None) -> Iterator[VestigeLog]:
    counts = [players] if isinstance(players, int) else list(players)
    for i in range(start, start + n_games):
        yield simulate_one(seed, i, counts[i % len(counts)], bots, mode)


MODES = ("competitive", "team", "coop", "solo")
NEMESES = ("bone", "dunecrest", "happy")
PLAYER_COUNTS = (2, 3, 4)
