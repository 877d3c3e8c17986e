"""Core rules §2 "Universal tie rule" and Initiative (§2 step 9, §6B step 5: "Pass Initiative
clockwise"): who holds Initiative in each cycle, the tied seat nearest Initiative clockwise, and
"the Civic Permission Authority controller" that Headlines name (ruling cpa-controller).
"""

from __future__ import annotations

from engine.mandate2038.hex_board import controller
from engine.mandate2038.rulings import option, used
from engine.mandate2038.state import GameState


def initiative_for(st: GameState, era: int, cycle: int) -> int:
    """The seat holding Initiative in (era, cycle): it passes clockwise every cycle."""
    first = st.first_initiative
    k = 3 * (max(era, 1) - 1) + (max(cycle, 1) - 1)
    return ((first - 1 + k) % st.n) + 1


def tie_pick(st: GameState, seats: list[int]) -> int | None:
    """Universal tie rule: the tied seat nearest Initiative clockwise."""
    if not seats:
        return None
    order = st.initiative_order()
    return min(seats, key=order.index)


def most(st: GameState, values: dict[int, int], lowest: bool = False) -> int | None:
    """The seat with the most (or least) of something, ties by the universal tie rule."""
    if not values:
        return None
    best = min(values.values()) if lowest else max(values.values())
    return tie_pick(st, [k for k, v in values.items() if v == best])


def government_controller(st: GameState) -> int | None:
    """"The Civic Permission Authority controller": the seat controlling the most Civic
    Permission Authority hexes (ties by the universal tie rule); None when nobody controls
    one (interpretation for two copies: docs/engine.md)."""
    counts: dict[int, int] = {}
    for pos in st.board.positions_of("government"):
        c = controller(st, pos)
        if c is not None:
            counts[c] = counts.get(c, 0) + 1
    return most(st, counts)


def government_controllers(st: GameState) -> list[int]:
    """The seats an effect treats as "the Civic Permission Authority's controller" (ruling
    cpa-controller: ``each-copy``, every seat controlling a copy; ``most-copies``, the one
    :func:`government_controller`)."""
    ctrls = sorted({c for pos in st.board.positions_of("government")
                    if (c := controller(st, pos)) is not None})
    if len(ctrls) < 2:
        return ctrls
    used(st, "cpa-controller")
    if option(st, "cpa-controller") == "each-copy":
        return ctrls
    one = government_controller(st)
    return [one] if one is not None else []
