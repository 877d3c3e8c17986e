"""Map geometry of Mandate 2038 (core rules §4 Modular hex board; FACTS.md §2).

The nineteen map positions are named ``F`` (Frontier, the centre), ``I1``..``I6`` (the
operational ring) and ``O1``..``O12`` (the public ring), in the axial order of the designers'
executable (see ``schemas/mandate2038.py``). One movement step crosses one shared tile edge, so
two positions are adjacent exactly when their axial hex distance is 1.

Everything here is computed once at import and is read-only: ``ADJACENT[pos]`` is a frozenset of
neighbouring positions, ``DISTANCE[a][b]`` the number of steps between two positions.
"""

from __future__ import annotations

from schemas.mandate2038 import HEX_POSITIONS

#: axial coordinates (q, r) of every position (FACTS.md §2, [ENG])
COORDS: dict[str, tuple[int, int]] = {
    "F": (0, 0),
    "I1": (1, 0), "I2": (0, 1), "I3": (-1, 1), "I4": (-1, 0), "I5": (0, -1), "I6": (1, -1),
    "O1": (2, 0), "O2": (1, 1), "O3": (0, 2), "O4": (-1, 2), "O5": (-2, 2), "O6": (-2, 1),
    "O7": (-2, 0), "O8": (-1, -1), "O9": (0, -2), "O10": (1, -2), "O11": (2, -2), "O12": (2, -1),
}

POSITIONS: tuple[str, ...] = HEX_POSITIONS
POSITION_SET: frozenset[str] = frozenset(POSITIONS)
FRONTIER = "F"
INNER: tuple[str, ...] = tuple(p for p in POSITIONS if p.startswith("I"))
OUTER: tuple[str, ...] = tuple(p for p in POSITIONS if p.startswith("O"))


def ring(pos: str) -> str:
    """``center``, ``inner`` or ``outer``: the ring pool a position draws its tile from."""
    if pos == FRONTIER:
        return "center"
    return "inner" if pos.startswith("I") else "outer"


def _axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


DISTANCE: dict[str, dict[str, int]] = {
    a: {b: _axial_distance(COORDS[a], COORDS[b]) for b in POSITIONS} for a in POSITIONS
}
ADJACENT: dict[str, frozenset[str]] = {
    a: frozenset(b for b in POSITIONS if DISTANCE[a][b] == 1) for a in POSITIONS
}
#: positions within two steps (the ordinary move range), including the position itself
WITHIN_TWO: dict[str, frozenset[str]] = {
    a: frozenset(b for b in POSITIONS if DISTANCE[a][b] <= 2) for a in POSITIONS
}


def adjacent(a: str, b: str) -> bool:
    """True when positions ``a`` and ``b`` share an edge (unknown names: False)."""
    n = ADJACENT.get(a)
    return n is not None and b in n


def distance(a: str, b: str) -> int | None:
    """Steps between two positions, or None when either is not a map position."""
    row = DISTANCE.get(a)
    if row is None:
        return None
    return row.get(b)


def path_problem(path: list[str], max_steps: int | None = 2) -> str | None:
    """Why ``path`` is not a legal move, or None when it is.

    ``path[0]`` is the starting position and each later entry one step. ``max_steps`` None
    means no step limit (the caller counts steps itself).
    """
    for p in path:
        if p not in POSITION_SET:
            return f"{p!r} is not a map position"
    if max_steps is not None and len(path) - 1 > max_steps:
        return f"{len(path) - 1} steps, at most {max_steps} allowed"
    for a, b in zip(path, path[1:], strict=False):
        if b not in ADJACENT[a]:
            return f"{a} and {b} do not share an edge"
    return None


class Board:
    """One game's map: the tile id on every position (the header's ``map``), fixed all game.

    ``tile_at[pos]`` is the tile id, or None when the log did not record the map. Tile facts
    (category, Facility spaces, Generator slots, political, production) come from the content
    pack and are looked up by the rules modules through :attr:`tile_at`.
    """

    __slots__ = ("tile_at", "known")

    def __init__(self, layout: dict[str, str] | None) -> None:
        self.known = bool(layout)
        self.tile_at: dict[str, str | None] = {p: None for p in POSITIONS}
        if layout:
            for pos, tile in layout.items():
                if pos in self.tile_at:
                    self.tile_at[pos] = tile
        self.tile_at[FRONTIER] = self.tile_at[FRONTIER] or ("frontier" if layout else None)

    def tile(self, pos: str) -> str | None:
        """Tile id at ``pos`` (None when unknown)."""
        return self.tile_at.get(pos)

    def positions_of(self, tile_id: str) -> list[str]:
        """Every position holding a copy of ``tile_id``."""
        return [p for p in POSITIONS if self.tile_at[p] == tile_id]
