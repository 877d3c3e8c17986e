"""``playtest replay``: The state and score ledger at a position of a game."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
    _one_game,
    _replay,
    location_help,
)


def _position(parsed: Any, text: str) -> int:
    """The index (into ``parsed.events``) of the last event to apply for POSITION: an event
    index, ``end``, or ``PART:N`` for a part of the game's locations (``era:N`` for Mandate
    2038, ``round:N`` for Vestige): the last event of Era (round) N."""
    events = parsed.events
    if not events:
        raise CliError("the log has no events")
    t = text.strip().lower()
    if t == "end":
        return len(events) - 1
    rs = parsed.ruleset
    parts = tuple(rs.location_parts)
    name, sep, value = t.partition(":")
    if sep:
        if name not in parts:
            raise CliError(f"--at {text!r}: a {parsed.header.game} game is located by "
                           f"{', '.join(parts)}; write {parts[0]}:N, an event index or end")
        try:
            n = int(value)
        except ValueError:
            raise CliError(f"--at {text!r}: write {name}:N with N a number") from None
        k = parts.index(name)
        here = [loc[k] if isinstance(loc, tuple | list) and k < len(loc) else None
                for loc in _replay(parsed).locations]
        label = rs.vocabulary.location_labels.get(name, name)
        if n not in here:
            raise CliError(f"--at {text!r}: the log has no {label} {n}")
        later = [i for i, v in enumerate(here) if isinstance(v, int) and v > n]
        return later[0] - 1 if later else len(events) - 1
    try:
        raw = int(t)
    except ValueError:
        raise CliError(f"--at {text!r}: give an event index, {parts[0]}:N or end") from None
    n_raw = max(parsed.raw_event_count, len(events))
    if not 0 <= raw < n_raw:
        raise CliError(f"--at {raw}: the log has events 0..{n_raw - 1}")
    pos = -1
    for i, idx in enumerate(parsed.indices):
        if idx <= raw:
            pos = i
    if pos < 0:
        raise CliError(f"--at {raw}: no readable event at or before that index")
    return pos


def _jsonable(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        items = [_jsonable(v) for v in obj]
        return sorted(items, key=str) if isinstance(obj, set | frozenset) else items
    if hasattr(obj, "__dataclass_fields__"):
        return {k: _jsonable(getattr(obj, k)) for k in obj.__dataclass_fields__}
    return obj


def _render_value(v: Any) -> str:
    if isinstance(v, list | tuple):
        return ", ".join(_render_value(x) for x in v) or "-"
    if isinstance(v, dict):
        return "; ".join(f"{k}={_render_value(x)}" for k, x in v.items()) or "-"
    return "-" if v is None else str(v)


def format_snapshot_text(snap: dict[str, Any], ledger: list[dict[str, Any]], at: dict[str, Any],
                         parts: Sequence[tuple[str, str]]) -> str:
    """The state snapshot and score ledger as readable text; ``parts`` are the game's location
    parts with their labels (``("era", "Era")``), each ledger entry placed by those it carries."""
    lines = [f"state after event {at['event']} ({at['type']})"]
    seats = None
    for k, v in snap.items():
        if k in ("seats", "players") and isinstance(v, list):
            seats = v
            continue
        lines.append(f"  {k}: {_render_value(v)}")
    if seats:
        lines.append("")
        lines.append("seats:")
        for s in seats:
            if isinstance(s, dict):
                head = f"  seat {s.get('seat')}" + (f" {s.get('faction')}" if s.get("faction") else "")
                lines.append(head)
                for k, v in s.items():
                    if k in ("seat", "faction"):
                        continue
                    lines.append(f"      {k}: {_render_value(v)}")
            else:
                lines.append(f"  {s}")
    lines.append("")
    lines.append("score ledger:")
    if not ledger:
        lines.append("  (no score changes yet)")
    for e in ledger:
        place = " ".join(f"{label} {e[part] if e[part] is not None else '-'}"
                         for part, label in parts if part in e) or "-"
        where = f"{place} event {e['event'] if e['event'] is not None else '-'}"
        lines.append(f"  seat {e['seat']}: {e['amount']:+d} -> {e['total']}  {e['source']}"
                     + (f" ({e['detail']})" if e.get("detail") else "") + f"  [{where}]")
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    item = _one_game(args.file)
    parsed = item.parsed
    pos = _position(parsed, args.at)
    result = _replay(parsed, upto=pos)
    rs = parsed.ruleset
    snap = _jsonable(rs.snapshot(result.state))
    ledger = [_jsonable(e) for e in result.ledger]
    ev = parsed.events[pos]
    at = {"event": parsed.indices[pos], "type": getattr(ev, "type", None),
          "line": parsed.lines[pos] if pos < len(parsed.lines) else None}
    if args.format == "json":
        print(json.dumps({"path": item.source, "game_id": parsed.header.game_id, "at": at,
                          "snapshot": snap, "ledger": ledger,
                          "findings": [f.to_contract() for f in result.findings]},
                         ensure_ascii=False, indent=2, default=str))
    else:
        labels = rs.vocabulary.location_labels
        parts = [(part, labels.get(part, part)) for part in rs.location_parts]
        print(format_snapshot_text(snap, ledger, at, parts))
        if result.findings:
            print(f"\n{len(result.findings)} finding(s) up to this event (run `playtest validate` for details)")
    return EXIT_OK



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``replay`` to the ``playtest`` subcommands."""
    r = sub.add_parser("replay", help="the state and score ledger at a position of a game")
    r.add_argument("file", metavar="FILE")
    r.add_argument("--at", default="end", metavar="POSITION",
                   help="event index, end, or the last event of a part of the game: "
                        + location_help())
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.set_defaults(func=cmd_replay)
