"""A picture of the Vestige map at one moment of a game, as an SVG document (pure).

The geometry is the engine's declared map mat (``engine/vestige/board.py``): 19 pointy-top region
tiles in a radius-2 hexagon named ``C``, ``I1``..``I6``, ``O1``..``O12``, and 54 pawn spaces at
the tile corners, numbered top to bottom, left to right. :func:`render_svg` draws the tiles (face
down in grey, face up with the region's name; a controlled tile gets its controller's colour as
a thick border), the numbered spaces, and each seat's network pawn. Its input is the engine's
snapshot (``RULESET.snapshot(state)``: ``map``, ``face_up``, ``controller``, ``seats``, ...).
"""

from __future__ import annotations

import html
import math
from typing import Any

from engine.vestige.board import AXIAL

S = 30.0  # one coordinate unit in pixels
_CORNERS = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))
COLOURS = {"blue": "#2f6fd0", "green": "#2e9e4f", "purple": "#8a4fc2", "orange": "#e8821e",
           "black": "#222222", "beige": "#c8b48a", "pink": "#e46aa8"}
NEMESIS_COLOUR = "#444444"
REGION_FILL = {
    "archives": "#f3e6c8", "black_dove": "#d9d4e8", "black_market": "#e8d4d4", "trench": "#d6d6d6",
    "chop_shop": "#e2dccf", "garage": "#dfe6ee", "generator": "#fff0b8", "scrapyard": "#e6ddd3",
    "jump_point": "#d8eef0", "lawmaker_ridge": "#f6ecc8", "mercenary_camp": "#f1d8cc",
    "smugglers_lair": "#dcd2ec", "oasis": "#d6efdc", "obelisk": "#ece4f4", "observatory": "#d9e6f7",
    "underground": "#dcdcdc",
}


def _xy(a: int, b: int) -> tuple[float, float]:
    return a * math.sqrt(3) / 2 * S, -b / 2 * S


def _spaces() -> dict[int, tuple[int, int]]:
    corners: set[tuple[int, int]] = set()
    for q, r in AXIAL.values():
        a, b = 2 * q + r, 3 * r
        corners.update((a + da, b + db) for da, db in _CORNERS)
    ordered = sorted(corners, key=lambda p: (-p[1], p[0]))
    return {i + 1: p for i, p in enumerate(ordered)}


SPACE_AT = _spaces()


def region_name(region: str | None) -> str:
    return (region or "").replace("_", " ").title().replace("S Lair", "s' Lair")


def _colour(name: str | None, seat: int | None = None) -> str:
    if name and name in COLOURS:
        return COLOURS[name]
    palette = list(COLOURS.values())
    return palette[((seat or 1) - 1) % len(palette)]


def _label(label: str, cx: float, cy: float) -> str:
    """A tile's name inside its hexagon (about 52 units wide, its border up to 5): a name of
    two words or more on two lines ("Lawmaker" / "Ridge"), a long single word smaller; clear of
    the border (``tests/test_vestige_layout_browser.py`` measures every name in Chromium)."""
    words = label.split()
    if len(label) <= 8 or len(words) < 2:
        size = 9 if len(label) <= 8 else 8 if len(label) <= 10 else 7
        return (f'<text x="{cx:.1f}" y="{cy + 8:.1f}" font-size="{size}" text-anchor="middle" '
                f'font-weight="bold" fill="#222">{html.escape(label)}</text>')
    cut = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i]))
                                                     - len(" ".join(words[i:]))))
    lines = [" ".join(words[:cut]), " ".join(words[cut:])]
    size = 8 if max(map(len, lines)) <= 9 else 7
    spans = "".join(f'<tspan x="{cx:.1f}" dy="{0 if i == 0 else size + 1}">{html.escape(t)}'
                    "</tspan>" for i, t in enumerate(lines))
    return (f'<text x="{cx:.1f}" y="{cy + 5:.1f}" font-size="{size}" text-anchor="middle" '
            f'font-weight="bold" fill="#222">{spans}</text>')


def render_svg(view: dict[str, Any], caption: str | None = None) -> str:
    """The SVG text of the map in ``view`` (an engine snapshot)."""
    tiles = view.get("map") or {}
    face_up = set(view.get("face_up") or [])
    controller = view.get("controller") or {}
    seats = view.get("seats") or []
    seat_colour = {s.get("seat"): _colour(s.get("colour"), s.get("seat")) for s in seats}
    parts: list[str] = []
    for pos, (q, r) in AXIAL.items():
        a, b = 2 * q + r, 3 * r
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (_xy(a + da, b + db) for da, db in _CORNERS))
        region = tiles.get(pos)
        up = pos in face_up or (region is not None and not face_up and bool(tiles))
        fill = REGION_FILL.get(region or "", "#eeeeee") if up else "#9a9a9a"
        owner = controller.get(pos)
        stroke, width = "#555555", 1.2
        if owner is not None:
            stroke = seat_colour.get(owner, NEMESIS_COLOUR) if isinstance(owner, int) else NEMESIS_COLOUR
            width = 5.0
        title = f"{pos}: {region_name(region) if up else 'face down'}"
        if owner is not None:
            title += f", controlled by {'seat ' + str(owner) if isinstance(owner, int) else owner}"
        parts.append(f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="{width}"><title>{html.escape(title)}</title></polygon>')
        cx, cy = _xy(a, b)
        parts.append(f'<text x="{cx:.1f}" y="{cy - 6:.1f}" font-size="9" text-anchor="middle" '
                     f'fill="#333">{html.escape(pos)}</text>')
        parts.append(_label(region_name(region) if up else "?", cx, cy))
    occupied: dict[int, list[dict[str, Any]]] = {}
    for s in seats:
        if isinstance(s.get("space"), int):
            occupied.setdefault(s["space"], []).append(s)
    for n, (a, b) in SPACE_AT.items():
        x, y = _xy(a, b)
        # numbered as the recorder names them ("moves to space 13 (via 9)")
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="#ffffff" stroke="#888" '
                     f'stroke-width="0.8"><title>space {n}</title></circle>')
        parts.append(f'<text class="space-no" x="{x:.1f}" y="{y + 2:.1f}" font-size="6" '
                     f'text-anchor="middle" fill="#444">{n}</text>')
    for n, here in occupied.items():
        if n not in SPACE_AT:
            continue
        x, y = _xy(*SPACE_AT[n])
        for k, s in enumerate(here):
            c = seat_colour.get(s.get("seat"), "#000")
            parts.append(
                f'<circle cx="{x + 8 * k:.1f}" cy="{y:.1f}" r="7" fill="{c}" stroke="#000" '
                f'stroke-width="1"><title>seat {s.get("seat")} ({html.escape(str(s.get("colour")))})'
                f' on space {n}, {s.get("leverage", "?")} leverage</title></circle>')
            parts.append(f'<text x="{x + 8 * k:.1f}" y="{y + 3:.1f}" font-size="8" '
                         f'text-anchor="middle" fill="#fff">{s.get("seat")}</text>')
    xs = [_xy(a, b)[0] for a, b in SPACE_AT.values()]
    ys = [_xy(a, b)[1] for a, b in SPACE_AT.values()]
    pad = 14
    x0, y0 = min(xs) - pad, min(ys) - pad
    w, h = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad + (18 if caption else 0)
    if caption:
        parts.append(f'<text x="{x0 + 4:.1f}" y="{y0 + h - 5:.1f}" font-size="11" '
                     f'fill="#333">{html.escape(caption)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:.1f} {y0:.1f} {w:.1f} {h:.1f}" '
            f'width="{w * 1.4:.0f}" height="{h * 1.4:.0f}" font-family="sans-serif">'
            + "".join(parts) + "</svg>")
