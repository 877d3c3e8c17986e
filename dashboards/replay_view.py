"""Replay a game to one event for the Replay viewer and the live-entry page.

Pure helpers around ``engine.core.replay``: state after event ``position``, each seat's
resources, the score ledger so far, and a readable label for any event.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import polars as pl

ACTION_WORDS = {
    "fund": "Fund", "research": "Research", "build": "Build", "organize": "Organize",
    "deploy": "Deploy", "influence": "Influence", "mega_cluster": "Mega-Cluster",
    "reorganization": "Reorganization", "covenant": "Public Capability Covenant",
    "narrative_capture": "Narrative Capture", "agent_swarm": "Agent Swarm",
    "fusion": "Fusion Demonstrator",
}
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


@cache
def content_names() -> dict[str, str]:
    """Content id -> printed name, from every registered game's declared ``content_names``
    (the registry's order: the first game naming an id wins)."""
    from engine.core.game import resolve
    from engine.core.registry import rulesets

    out: dict[str, str] = {}
    for rs in rulesets().values():
        if rs.content_names is None:
            continue
        try:
            names = resolve(rs.content_names)()
        except Exception:  # noqa: BLE001 - a game's names that cannot be read leave its ids
            continue
        for k, v in names.items():
            out.setdefault(str(k), str(v))
    return out


def _name(content_id: Any) -> str:
    return content_names().get(str(content_id), str(content_id))


def _get(ev: Any, name: str, default: Any = None) -> Any:
    if isinstance(ev, dict):
        return ev.get(name, default)
    return getattr(ev, name, default)


def position(pos: Any) -> str:
    """A map position in words: the centre ``F`` is the Frontier; I1..I6 and O1..O12 are the
    rulebook's inner and outer ring positions and stay as printed."""
    return "Frontier" if pos == "F" else str(pos)


def event_label(ev: Any, places: dict[str, str] | None = None) -> str:
    """A short sentence for an event (model or dict), in the game's words.

    ``places`` maps map positions to tile names, to name a piece's destination.
    """
    t = _get(ev, "type", "?")
    seat = _get(ev, "seat")
    who = f"Seat {seat}" if seat is not None else ""
    path = _get(ev, "path") or []
    dest = path[-1] if path else None
    where = f" {places[dest]}" if places and dest in places and dest != "F" else ""
    via = f" at {position(dest)}{where}" if path else ""
    if len(path) > 1:
        via = f" moving {'→'.join(position(p) for p in path)}{where}"
    piece = _get(ev, "piece") or "ceo"
    piece_w = "CEO" if piece == "ceo" else "Team"
    if t == "era_start":
        m = _get(ev, "mandate")
        return f"Era {ROMAN.get(_get(ev, 'era'), _get(ev, 'era'))} begins" + (f"; Era Mandate {_name(m)}" if m else "")
    if t == "headline":
        h = _get(ev, "headline")
        return f"Cycle {_get(ev, 'cycle')}: Headline {_name(h) if h else '(not recorded)'}"
    if t == "reveal":
        sel = _get(ev, "selections") or []
        return "Reveal: " + ", ".join(
            f"{_get(s, 'seat')} {ACTION_WORDS.get(_get(s, 'pick'), _get(s, 'pick'))}" for s in sel)
    if t == "phase":
        return f"Phase: {str(_get(ev, 'name')).replace('_', ' ')}"
    if t in ACTION_WORDS:
        mode = _get(ev, "mode")
        extra = f" ({mode})" if mode else ""
        if t == "mega_cluster":
            hosts = [str(x) for x in _get(ev, "hosts") or []]
            extra = f" on Facilities {' and '.join(hosts)}" if hosts else ""
        if t == "agent_swarm":
            extra = f": {' + '.join(ACTION_WORDS.get(a, a) for a in _get(ev, 'actions') or [])}"
        if _get(ev, "blocked"):
            extra += " (blocked)"
        return f"{who} {ACTION_WORDS[t]}{extra}, {piece_w}{via}".strip()
    if t == "draw":
        dom = _get(ev, "domain")
        return f"{who} draws {_name(_get(ev, 'card'))}" + (f" as {dom}" if dom else "")
    if t == "run_end":
        b = _get(ev, "banked")
        return f"{who} ends the Training Run: {_get(ev, 'outcome')}" + (f", banks {b}" if b is not None else "")
    if t == "trade":
        give = _get(ev, "give")
        other = "compute" if give == "runway" else "runway"
        ans = "accepted" if _get(ev, "accepted") else "rejected"
        return f"{who} offers seat {_get(ev, 'rival')} 1 {give} for 1 {other}: {ans}"
    if t == "allocate":
        powered = [str(x) for x in _get(ev, "facilities") or []]
        return (f"{who} powers Facilit{'y' if len(powered) == 1 else 'ies'} "
                f"{', '.join(powered)}" if powered else f"{who} powers no Facility")
    if t == "dossier":
        o = _get(ev, "orientation")
        return f"{who} files a Dossier card" + (f" ({o})" if o else " (sealed)")
    if t == "dossier_reveal":
        return "Dossiers revealed and paid"
    if t == "audit":
        draws = _get(ev, "draws") or []
        return "Audit draws: " + (", ".join(str(d) for d in draws) or "none")
    if t == "era_mandate":
        sc = _get(ev, "scorers")
        return "Era Mandate scored: " + ("nobody" if sc == [] else f"seats {sc}" if sc else "by the engine")
    if t == "checkpoint":
        return f"Checkpoint{': ' + _get(ev, 'label') if _get(ev, 'label') else ''}"
    if t == "final_record":
        return "Final record"
    if t == "observation":
        return f"Observation [{_get(ev, 'category')}]: {_get(ev, 'text')}"
    if t == "survey":
        return f"Survey {_get(ev, 'item')}" + (f" (seat {seat})" if seat else "") + f": {_get(ev, 'value')}"
    if t == "workforce_move":
        return f"{who} moves a Team {'→'.join(position(p) for p in _get(ev, 'path') or [])}"
    if t == "emergency_pause":
        return f"{who} Emergency Pause on {_get(ev, 'program')}"
    if t == "allocation_window":
        return f"{who} opens the Allocation Window"
    return f"{t} {who}".strip()


def replay_until(log: Any, position: int | None) -> Any:
    """The engine's replay result after event ``position`` (None: the whole game)."""
    from engine.core.replay import replay

    kw: dict[str, Any] = {}
    if log.lines:
        kw["lines"] = log.lines
    if log.indices:
        kw["indices"] = log.indices
    return replay(log.header, log.events, upto=position, **kw)


SEAT_FIELDS = ("faction", "mandate", "runway", "compute", "capability", "customers", "trust",
               "protection", "bag", "markers")


def seat_table(state: Any) -> pl.DataFrame:
    """Each seat's resources from an engine state (Scrutiny = cubes in the Audit bag)."""
    rows = []
    for s in getattr(state, "seats", []) or []:
        row = {"seat": s.seat}
        for f in SEAT_FIELDS:
            row[f if f != "bag" else "scrutiny_in_bag"] = getattr(s, f, None)
        row["faction"] = _name(row["faction"])
        row["facilities"] = len(getattr(s, "facilities", {}) or {})
        row["powered"] = s.powered_count() if hasattr(s, "powered_count") else None
        row["exhausted"] = ", ".join(sorted(getattr(s, "exhausted", set()) or []))
        rows.append(row)
    return pl.DataFrame(rows)


def ledger_table(result: Any) -> pl.DataFrame:
    """The score ledger so far: seat, amount, running total, source, Era, cycle, event."""
    rows = [
        {"seat": e.seat, "amount": e.amount, "total": e.total, "source": e.source, "era": e.era,
         "cycle": e.cycle, "event": e.event, "detail": e.detail}
        for e in getattr(result, "ledger", []) or []
    ]
    return pl.DataFrame(rows, schema={"seat": pl.Int64, "amount": pl.Int64, "total": pl.Int64,
                                      "source": pl.Utf8, "era": pl.Int64, "cycle": pl.Int64,
                                      "event": pl.Int64, "detail": pl.Utf8})


def _value(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, str):
        return v
    try:
        return json.dumps(v, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(v)


def findings_table(findings: list[Any]) -> pl.DataFrame:
    """Findings as a table in log order: message, expected and recorded first (they are what a
    reader needs; a wide table must not hide them off-screen), the location after."""
    rows = [
        {"event": f.where.event, "severity": f.severity, "message": f.message,
         "expected": _value(getattr(f, "expected", None)),
         "recorded": _value(getattr(f, "recorded", None)), "rule": f.rule, "code": f.code,
         "line": f.where.line, "era": f.where.era, "cycle": f.where.cycle, "seat": f.where.seat}
        for f in findings
    ]
    return pl.DataFrame(rows, schema={"event": pl.Int64, "severity": pl.Utf8, "message": pl.Utf8,
                                      "expected": pl.Utf8, "recorded": pl.Utf8, "rule": pl.Utf8,
                                      "code": pl.Utf8, "line": pl.Int64, "era": pl.Int64,
                                      "cycle": pl.Int64, "seat": pl.Int64})
