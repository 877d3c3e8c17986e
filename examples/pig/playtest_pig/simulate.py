"""Simulated games of Pig: a table dealt from the seed, played by bots through the engine's legal
moves (``engine.simulate.simulate_game``), labelled ``session_type: simulation`` with the bots,
version and seed in ``provenance.generator``.

Game ``index`` of seed ``S`` uses ``random.Random(f"pig:{S}:{index}")`` only, so each game is
reproducible on its own.
"""

from __future__ import annotations

import random
from typing import Any

from engine.api import SIMULATOR_VERSION, simulate_game
from playtest_pig.bots import BOT_NAMES, make_bot
from playtest_pig.loop import PRINTED_TARGET, target_of
from playtest_pig.schema import PigHeader, PigLog

BOT_CHOICES = (*BOT_NAMES, "mixed")
PLAYER_COUNTS = (2, 3, 4, 5, 6)


def game_header(players: int, rng: random.Random, seat_bots: list[str], *, seed: object,
                index: int, variant: Any = None) -> PigHeader:
    """The header of simulated game ``index``: seats, the first player drawn (§2.4); under
    ``variant`` (a stamp), its target (§2.3) and the stamp."""
    bots_txt = ",".join(f"{i + 1}:{b}" for i, b in enumerate(seat_bots))
    # a variant's target and stamp only when played: a printed-rules header is as before
    played = ({"target": target_of(variant, PRINTED_TARGET), "variant": variant.model_dump()}
              if variant is not None else {})
    return PigHeader.model_validate({
        "session_type": "simulation",
        "game_id": f"sim-pig-{seed}-{index:05d}",
        "seats": [{"seat": i + 1, "player": f"bot:{b}"} for i, b in enumerate(seat_bots)],
        "first_player": rng.randint(1, players),
        "provenance": {
            "source_format": "simulator",
            "generator": (f"playtest simulate {SIMULATOR_VERSION} game=pig bots={bots_txt} "
                          f"seed={seed} game_index={index}"),
            "description": f"simulated Pig game {index} of seed {seed}",
        },
        "notes": "Simulated by bots through the engine; not a human playtest.",
        **played,
    })


def simulate_one(seed: object, index: int, players: int, bots: str = "mixed",
                 variant: Any = None) -> PigLog:
    """Game ``index`` of seed ``seed`` with ``players`` seats (2-6); ``bots`` one bot name for
    every seat, or ``mixed`` (each seat draws one); ``variant``: the rules variant played (a
    stamp; the same deal under every variant)."""
    if bots not in BOT_CHOICES:
        raise ValueError(f"unknown bot choice {bots!r}; choose one of {', '.join(BOT_CHOICES)}")
    if players not in PLAYER_COUNTS:
        raise ValueError(f"the Pig simulator plays 2 to 6 players, not {players}")
    from playtest_pig.ruleset import RULESET

    tag = f"pig:{seed}:{index}"
    rng = random.Random(tag)
    seat_bots = ([rng.choice(BOT_NAMES) for _ in range(players)] if bots == "mixed"
                 else [bots] * players)
    header = game_header(players, rng, seat_bots, seed=seed, index=index, variant=variant)
    seat_objs = {i + 1: make_bot(b, random.Random(f"{tag}:bot{i + 1}"))
                 for i, b in enumerate(seat_bots)}
    log = simulate_game(RULESET, header, seat_objs, rng)
    assert isinstance(log, PigLog)
    return log
