"""Line-ups: which strategy profile and policy sits at which seat of a simulated game.

A study plays blocks of games on common seeds: the games of one block share the map, the
factions by seat, the first Initiative and the chance stream (``random.Random`` seeded from the
block), and rotate the block's profiles over the seats, so that every profile plays every seat
(and so every faction and turn order) of the block once. With P profiles and n players, block b
takes the profiles ``P[(b + k) % len(P)]`` for k = 0..n-1 (at 5 players with 4 profiles one
repeats, a different one in each block); game r of the block (r = index mod n) puts profile
``(k + r) mod n`` of that list at seat k + 1.

A line-up's **policy mix** is one of :data:`POLICY_MIXES`: every seat ``greedy`` or every seat
``weighted`` (homogeneous), ``default`` (each profile's own), or the designers' alternating
backends: ``alternating-weighted-first`` (seats 1, 3, 5 weighted, seats 2, 4 greedy) and
``alternating-greedy-first`` (the other way round). Their exact-ecology studies pool the two
homogeneous and the two alternating regimes (``playtest study --policy designers``).

Game ``index`` is reproducible on its own from (seed, players, index, profiles, policy).
Nothing here does I/O: profiles arrive validated (``schemas.mandate2038.profiles.load_profiles``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.mandate2038.bots import make_bot
from engine.mandate2038.profiles import ProfileBot

BUILTIN_BOTS = ("heuristic", "random")

#: the policy mixes a line-up may play (module docstring)
ALTERNATING = {"alternating-weighted-first": ("weighted", "greedy"),
               "alternating-greedy-first": ("greedy", "weighted")}
POLICY_MIXES = ("greedy", "weighted", "default", *ALTERNATING)


@dataclass(frozen=True)
class SeatPlan:
    seat: int
    profile: str  # a profile id, or a built-in bot name
    policy: str  # greedy / weighted, or "builtin"


def plan_seats(profile_ids: Sequence[str], players: int, index: int, policy: str,
               profiles: dict[str, Any]) -> list[SeatPlan]:
    """The profile and policy of every seat of game ``index`` (see the module docstring)."""
    if not profile_ids:
        raise ValueError("a line-up needs at least one profile")
    block, r = divmod(index, players)
    base = [profile_ids[(block + k) % len(profile_ids)] for k in range(players)]
    out = []
    for k in range(players):
        pid = base[(k + r) % players]
        if pid in BUILTIN_BOTS:
            pol = "builtin"
        elif pid not in profiles:
            raise ValueError(f"unknown profile {pid!r}; known: {', '.join([*profiles, *BUILTIN_BOTS])}")
        elif policy == "default":
            pol = profiles[pid].default_policy
        elif policy in ALTERNATING:
            pol = ALTERNATING[policy][k % 2]
        else:
            pol = policy
        out.append(SeatPlan(seat=k + 1, profile=pid, policy=pol))
    return out


def make_seat_bot(plan: SeatPlan, profiles: dict[str, Any], rng: random.Random) -> Any:
    if plan.policy == "builtin":
        return make_bot(plan.profile, rng)
    return ProfileBot(profiles[plan.profile], plan.policy, rng)


def play_lineup_game(seed: Any, index: int, players: int, profile_ids: Sequence[str], policy: str,
                     profiles: dict[str, Any], pack: Any, variant: Any = None,
                     ) -> tuple[Any, list[SeatPlan], dict[int, Any]]:
    """Play game ``index`` of a line-up study: (log, seat plans, bots by seat).

    ``variant`` (a header's :class:`schemas.log.VariantStamp`) plays the game under that rules
    variant on the same seed: the same line-up, factions, seats, map and chance stream as the
    rules as printed (the deal comes from ``pack``, the printed pack), as far as the rules
    allow (docs/variants.md)."""
    from engine.core.registry import get_ruleset
    from engine.mandate2038.simulation import _mandate_checkpoints, game_header
    from engine.simulate import simulate_game

    if policy not in POLICY_MIXES:
        raise ValueError(f"unknown policy {policy!r}; choose {', '.join(POLICY_MIXES)}")
    if not 3 <= players <= 5:
        raise ValueError(f"the simulator plays 3, 4 or 5 players, not {players}")
    ruleset = get_ruleset("mandate2038")
    if ruleset is None:
        raise RuntimeError("the mandate2038 ruleset is not registered")
    block = index // players
    plans = plan_seats(profile_ids, players, index, policy, profiles)
    names = [p.profile if p.policy == "builtin" else f"{p.profile}:{p.policy}" for p in plans]
    deal_rng = random.Random(f"{seed}:{players}:block{block}")
    header = game_header(pack, players, deal_rng, names, seed=f"{seed}:p{players}", index=index)
    gid = f"study-{seed}-{policy}-p{players}-{index:06d}"
    if variant is not None:
        gid = f"study-{seed}-{variant.name}-{policy}-p{players}-{index:06d}"
    header = header.model_copy(update={"game_id": gid, "variant": variant})
    bots = {p.seat: make_seat_bot(p, profiles, random.Random(f"{seed}:{players}:{index}:seat{p.seat}"))
            for p in plans}
    for b in bots.values():
        if isinstance(b, ProfileBot):
            b.table = bots
    chance = random.Random(f"{seed}:{players}:block{block}:chance")
    log = simulate_game(ruleset, header, bots, chance, after_event=_mandate_checkpoints)
    return log, plans, bots
