"""A picture of the Mandate 2038 map at one moment of a game, as an SVG document.

:func:`board_view` reads the engine's game state (the field names of
``engine/mandate2038/state.py`` are a contract) into a plain dict; :func:`render_svg` draws
it: the nineteen hexes with tile names and colours, CEOs, Teams, Facilities (filled when
powered in the latest Production, hollow when offline), Generators with their Power, and
Fusion, each in its seat's colour. Both are pure.
"""

from __future__ import annotations

import html
import math
from typing import Any

from dashboards.charts import SEAT_COLOURS
from dashboards.mandate2038.charts import FACTION_COLOURS

COORDS: dict[str, tuple[int, int]] = {
    "F": (0, 0),
    "I1": (1, 0), "I2": (0, 1), "I3": (-1, 1), "I4": (-1, 0), "I5": (0, -1), "I6": (1, -1),
    "O1": (2, 0), "O2": (1, 1), "O3": (0, 2), "O4": (-1, 2), "O5": (-2, 2), "O6": (-2, 1),
    "O7": (-2, 0), "O8": (-1, -1), "O9": (0, -2), "O10": (1, -2), "O11": (2, -2), "O12": (2, -1),
}

TILE_NAMES = {
    "frontier": "Frontier", "research": "Research Commons", "cloud": "Compute Estate",
    "consumer": "Human Access District", "foundry": "Fabrication Corridor",
    "capital": "Allocation Exchange", "talent": "Workforce Transition District",
    "media": "Consensus Network", "government": "Civic Permission Authority",
    "grid_reactor": "Power Corridor", "renewable_basin": "Thermal and Water Basin",
}
TILE_FILL = {
    "frontier": "#f4f1e8", "research": "#dbe9f6", "cloud": "#d7e3f0", "consumer": "#fbe3d4",
    "foundry": "#e6dccd", "capital": "#f6efc9", "talent": "#e3f1dd", "media": "#ecdff3",
    "government": "#f3dede", "grid_reactor": "#ffe9b3", "renewable_basin": "#d3f0ee",
}
POWER = {"emergency_power_complex": 4, "civic_heat_battery": 3, "fusion": 6}
SIZE = 62.0


def seat_colour(seat: int, faction: str | None) -> str:
    """The seat's colour: its institution's colour, else a fixed per-seat colour."""
    if faction and faction in FACTION_COLOURS:
        return FACTION_COLOURS[faction]
    return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]


def board_view(state: Any) -> dict[str, Any]:
    """Everything the picture needs from an engine ``GameState`` (missing fields: left out)."""
    board = getattr(state, "board", None)
    tiles: dict[str, str | None] = dict(getattr(board, "tile_at", {}) or {})
    seats = []
    for s in getattr(state, "seats", []) or []:
        facilities = []
        for f in (getattr(s, "facilities", {}) or {}).values():
            facilities.append({"number": f.number, "hex": f.hex, "powered": bool(f.powered),
                               "mega": f.mega, "jvs": list(f.jvs)})
        seats.append({
            "seat": s.seat, "faction": s.faction, "ceo": getattr(s, "ceo", None),
            "teams": list(getattr(s, "teams", []) or []), "facilities": facilities,
            "generator": getattr(s, "generator", None),
            "generator_kind": getattr(s, "generator_kind", None),
            "colour": seat_colour(s.seat, s.faction),
        })
    return {
        "tiles": tiles, "seats": seats,
        "fusion_hex": getattr(state, "fusion_hex", None),
        "fusion_owner": getattr(state, "fusion_owner", None),
        "era": getattr(state, "era", None), "cycle": getattr(state, "cycle", None),
        "phase": getattr(state, "phase", None),
    }


def _centre(pos: str) -> tuple[float, float]:
    q, r = COORDS[pos]
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _hexagon(cx: float, cy: float, size: float) -> str:
    pts = []
    for k in range(6):
        a = math.radians(60 * k - 30)
        pts.append(f"{cx + size * math.cos(a):.1f},{cy + size * math.sin(a):.1f}")
    return " ".join(pts)


def _wrap(name: str, width: int = 13) -> list[str]:
    words, lines, cur = name.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        lines.append(cur)
    return lines[:3]


def render_svg(view: dict[str, Any], tile_names: dict[str, str] | None = None,
               faction_names: dict[str, str] | None = None) -> str:
    """The map as an SVG string (``tile_names`` / ``faction_names`` give printed names)."""
    names = {**TILE_NAMES, **(tile_names or {})}
    fnames = faction_names or {}
    e = html.escape
    w, h = SIZE * math.sqrt(3) * 5 + 40, SIZE * 8 + 40
    ox, oy = w / 2, h / 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0f} {h + 70:.0f}" '
           f'width="{w:.0f}" height="{h + 70:.0f}" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="white"/>']
    # pieces grouped by hex
    by_hex: dict[str, dict[str, list[Any]]] = {p: {"ceo": [], "team": [], "fac": [], "gen": []}
                                               for p in COORDS}
    for s in view["seats"]:
        if s.get("ceo") in by_hex:
            by_hex[s["ceo"]]["ceo"].append(s)
        for t in s.get("teams", []):
            if t in by_hex:
                by_hex[t]["team"].append(s)
        for f in s.get("facilities", []):
            if f["hex"] in by_hex:
                by_hex[f["hex"]]["fac"].append((s, f))
        if s.get("generator") in by_hex:
            by_hex[s["generator"]]["gen"].append((s, s.get("generator_kind")))
    for pos, (_q, _r) in COORDS.items():
        cx, cy = _centre(pos)
        cx, cy = cx + ox, cy + oy
        tile = view["tiles"].get(pos)
        fill = TILE_FILL.get(tile or "", "#eeeeee")
        out.append(f'<polygon points="{_hexagon(cx, cy, SIZE - 1.5)}" fill="{fill}" '
                   f'stroke="#555" stroke-width="1.5"><title>{e(pos)}: '
                   f'{e(names.get(tile or "", tile or "unknown tile"))}</title></polygon>')
        out.append(f'<text x="{cx:.1f}" y="{cy - SIZE * 0.62:.1f}" font-size="9" '
                   f'text-anchor="middle" fill="#666">{e(pos)}</text>')
        label = names.get(tile or "", tile or "(tile not recorded)")
        for k, line in enumerate(_wrap(label)):
            out.append(f'<text x="{cx:.1f}" y="{cy - SIZE * 0.42 + 10 * k:.1f}" font-size="9" '
                       f'text-anchor="middle" fill="#222">{e(line)}</text>')
        pieces = by_hex[pos]
        # Facilities: squares along the lower part, filled when powered
        for k, (s, f) in enumerate(pieces["fac"]):
            x, y = cx - 22 + 24 * (k % 3), cy + 20 + 14 * (k // 3)
            fill_f = s["colour"] if f["powered"] else "white"
            state = "powered" if f["powered"] else "offline"
            out.append(f'<rect x="{x - 8:.1f}" y="{y - 8:.1f}" width="16" height="16" '
                       f'fill="{fill_f}" stroke="{s["colour"]}" stroke-width="2.5">'
                       f'<title>Seat {s["seat"]} Facility {f["number"]} ({state})</title></rect>')
            out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="10" text-anchor="middle" '
                       f'fill="{"white" if f["powered"] else "#222"}">{f["number"]}</text>')
        # CEOs (big circles) and Teams (small circles) in the middle band
        tokens = [("ceo", s) for s in pieces["ceo"]] + [("team", s) for s in pieces["team"]]
        for k, (kind, s) in enumerate(tokens[:10]):
            x = cx - 30 + 13 * (k % 5)
            y = cy + 3 + 13 * (k // 5) - 6
            rad = 6.5 if kind == "ceo" else 4.5
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad}" fill="{s["colour"]}" '
                       f'stroke="black" stroke-width="{1.5 if kind == "ceo" else 0.8}">'
                       f'<title>Seat {s["seat"]} {"CEO" if kind == "ceo" else "Team"}</title></circle>')
        if len(tokens) > 10:
            out.append(f'<text x="{cx + 36:.1f}" y="{cy + 3:.1f}" font-size="9">+{len(tokens) - 10}</text>')
        # Generators: triangles at the right with their Power
        gens = list(pieces["gen"])
        if view.get("fusion_hex") == pos:
            owner = next((s for s in view["seats"] if s["seat"] == view.get("fusion_owner")), None)
            if owner is not None:
                gens.append((owner, "fusion"))
        for k, (s, kind) in enumerate(gens):
            x, y = cx + 34, cy - 14 + 16 * k
            power = POWER.get(kind or "", "?")
            out.append(f'<polygon points="{x:.1f},{y - 7:.1f} {x - 7:.1f},{y + 6:.1f} '
                       f'{x + 7:.1f},{y + 6:.1f}" fill="{s["colour"]}" stroke="black">'
                       f'<title>Seat {s["seat"]} {e(str(kind or "Generator"))}: {power} Power'
                       f'</title></polygon>')
            out.append(f'<text x="{x + 9:.1f}" y="{y + 5:.1f}" font-size="9">{power}</text>')
    # legend
    ly = h + 10
    for k, s in enumerate(view["seats"]):
        x = 16 + 150 * (k % 3)
        y = ly + 20 * (k // 3)
        out.append(f'<circle cx="{x}" cy="{y}" r="6" fill="{s["colour"]}" stroke="black"/>')
        out.append(f'<text x="{x + 10}" y="{y + 4}" font-size="11">Seat {s["seat"]}: '
                   f'{e(fnames.get(str(s["faction"]), str(s["faction"])))}</text>')
    out.append(f'<text x="16" y="{ly + 48}" font-size="10" fill="#444">Large circle CEO, small '
               'circle Team, square Facility (filled: powered, hollow: offline), triangle '
               'Generator with its Power.</text>')
    out.append("</svg>")
    return "\n".join(out)
