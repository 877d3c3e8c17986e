"""Pig's designer loop (``engine.api.DesignerLoop``; the toolkit's docs/variants.md): one knob,
the target score (§2.3), played by a rules variant; one study game under a variant
(:func:`play`); the study's metrics (:data:`METRICS`): the first player's advantage and the
game's length.

A variant's target replaces the header's: the simulator writes it in the header too, and a
replay of a log stamped with the variant plays to it (playtest_pig/setup.py).
"""

from __future__ import annotations

from typing import Any

from engine.api import Knob

#: the target a simulated game plays to (the schema's default, §2.3)
PRINTED_TARGET = 100

KNOBS: tuple[Knob, ...] = (
    Knob("target", "target", 10, 1000, "§2.3 The target score: the first to bank it wins "
         f"(the simulator's {PRINTED_TARGET})"),
)

#: metric id -> what it measures (``playtest compare``'s rows)
METRICS: dict[str, str] = {
    "first_player_win": "Win rate of the first player (a shared win counts a share)",
    "first_player_edge": "First player's advantage: win rate minus an even share (1/players)",
    "last_player_win": "Win rate of the last player in turn order",
    "turns": "Game length (turns per game)",
    "rounds": "Game length (rounds per game)",
}


def values() -> dict[str, int]:
    """The numbers a Pig variant may change, by path."""
    return {"target": PRINTED_TARGET}


def target_of(variant: Any, default: int) -> int:
    """The target under ``variant`` (a stamp or None): its ``target`` change, else ``default``."""
    changes = getattr(variant, "changes", None) or {}
    value = changes.get("target", default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def play(seed: str, index: int, players: int, variant: Any) -> dict[str, list[dict[str, Any]]]:
    """Study game ``index`` of ``seed`` at ``players`` seats under ``variant``: its ``games``,
    ``seats`` and ``metrics`` rows."""
    from engine.api import replay
    from playtest_pig.simulate import simulate_one

    log = simulate_one(seed, index, players, "mixed", variant=variant)
    out = replay(log.header, log.events).outcome
    winners = list(out.winners) if out is not None else []
    details = out.details if out is not None else {}
    n = len(log.header.seats)
    first = log.header.first_player
    last = (first - 2) % n + 1

    def credit(seat: int) -> float:
        return 1.0 / len(winners) if seat in winners else 0.0

    gid = str(log.header.game_id)
    m = {"first_player_win": (credit(first), 1.0),
         "first_player_edge": (credit(first) - 1.0 / n, 1.0),
         "last_player_win": (credit(last), 1.0),
         "turns": (float(details.get("turns", 0)), 1.0),
         "rounds": (float(details.get("rounds", 0)), 1.0)}
    return {
        "games": [{"game_id": gid, "players": n, "target": int(details.get("target", 0)),
                   "ending": out.ending if out is not None else None,
                   "turns": int(details.get("turns", 0)), "rounds": int(details.get("rounds", 0)),
                   "complete": bool(out and out.complete)}],
        "seats": [{"game_id": gid, "seat": s.seat, "turn_order": (s.seat - first) % n,
                   "bot": s.player, "won": s.seat in winners} for s in log.header.seats],
        "metrics": [{"game_id": gid, "metric": k, "num": v[0], "den": v[1]} for k, v in m.items()],
    }
