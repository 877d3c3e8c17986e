"""The map mat (Game Space Overview, p. 7; Main Actions: Move, p. 12): 19 region tiles, pawns on
the spaces between them.

The rulebook does not print the mat, so the geometry is *declared* (docs/vestige.md): the tiles
form a radius-2 hexagon named like Mandate 2038's map (``C`` the centre, ``I1``..``I6``,
``O1``..``O12``) and the pawn spaces are the 54 tile corners (each touches 1-3 tiles), numbered
top to bottom, left to right. Two spaces are neighbours when they share a tile edge.
"""

from __future__ import annotations

AXIAL: dict[str, tuple[int, int]] = {
    "C": (0, 0),
    "I1": (1, 0), "I2": (0, 1), "I3": (-1, 1), "I4": (-1, 0), "I5": (0, -1), "I6": (1, -1),
    "O1": (2, 0), "O2": (1, 1), "O3": (0, 2), "O4": (-1, 2), "O5": (-2, 2), "O6": (-2, 1),
    "O7": (-2, 0), "O8": (-1, -1), "O9": (0, -2), "O10": (1, -2), "O11": (2, -2), "O12": (2, -1),
}
POSITIONS: tuple[str, ...] = tuple(AXIAL)

# pointy-top hexes in integer coordinates: x = a * sqrt(3)/2, y = b / 2
_CORNERS = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


def _build() -> tuple[dict[int, frozenset[str]], dict[int, frozenset[int]], dict[str, frozenset[int]]]:
    corner_tiles: dict[tuple[int, int], set[str]] = {}
    for pos, (q, r) in AXIAL.items():
        a, b = 2 * q + r, 3 * r
        for da, db in _CORNERS:
            corner_tiles.setdefault((a + da, b + db), set()).add(pos)
    ordered = sorted(corner_tiles, key=lambda p: (-p[1], p[0]))
    number = {p: i + 1 for i, p in enumerate(ordered)}
    tiles = {number[p]: frozenset(ts) for p, ts in corner_tiles.items()}
    nbrs: dict[int, frozenset[int]] = {}
    steps = ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 2), (0, -2))
    for p in ordered:
        nbrs[number[p]] = frozenset(
            number[(p[0] + da, p[1] + db)] for da, db in steps if (p[0] + da, p[1] + db) in number
            # a step is an edge only when both ends share a tile
            and tiles[number[p]] & tiles[number[(p[0] + da, p[1] + db)]]
        )
    by_tile: dict[str, set[int]] = {pos: set() for pos in AXIAL}
    for s, ts in tiles.items():
        for t in ts:
            by_tile[t].add(s)
    return tiles, nbrs, {k: frozenset(v) for k, v in by_tile.items()}


SPACE_TILES, NEIGHBOURS, TILE_SPACES = _build()
SPACES: tuple[int, ...] = tuple(sorted(SPACE_TILES))


def adjacent_tiles(space: int) -> frozenset[str]:
    """The region positions a pawn on ``space`` is adjacent to (empty for an unknown space)."""
    return SPACE_TILES.get(space, frozenset())


def tile_neighbours(pos: str) -> frozenset[str]:
    """Tiles sharing an edge with ``pos``."""
    q, r = AXIAL[pos]
    out = set()
    for other, (q2, r2) in AXIAL.items():
        dq, dr = q - q2, r - r2
        if max(abs(dq), abs(dr), abs(dq + dr)) == 1:
            out.add(other)
    return frozenset(out)


def spaces_adjacent(a: int, b: int) -> bool:
    """Two pawn spaces are one step apart."""
    return b in NEIGHBOURS.get(a, frozenset())


def reachable(start: int, steps: int, blocked: frozenset[int]) -> dict[int, list[int]]:
    """Every space reachable in 1..``steps`` steps, with one shortest path (``path[0]`` = start).
    Pawns may pass through ``blocked`` spaces but never end there, nor on ``start``."""
    paths: dict[int, list[int]] = {start: [start]}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for s in frontier:
            for n in sorted(NEIGHBOURS[s]):
                if n not in paths:
                    paths[n] = paths[s] + [n]
                    nxt.append(n)
        frontier = nxt
    return {s: p for s, p in paths.items() if s != start and s not in blocked}
