"""Read an archived game back for the Replay viewer, the Audit links and the protocol page.

The archive file named by ``games.archive_path`` is the system of record. It is read with the
formats package when present (``ingest.formats.read_bytes``), else as canonical JSON through the
engine's tolerant parser. When the archive file cannot be found the events are rebuilt from the
warehouse's ``events.payload`` column (and the page says so).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dashboards import queries
from engine.core.registry import DEFAULT_GAME


@dataclass(slots=True)
class GameLog:
    """A game read for replay: validated header and events, and where they came from."""

    header: Any = None
    events: list[Any] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)
    source: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def readable(self) -> bool:
        return self.header is not None

    def as_log(self) -> Any:
        """The game as the ruleset's log model (e.g. ``MandateLog``), or None."""
        if self.header is None:
            return None
        try:
            from engine.core.registry import get_ruleset

            rs = get_ruleset(self.header.game)
            model = rs.log_model if rs is not None else None
        except Exception:
            model = None
        if model is None:
            return None
        return model(header=self.header, events=list(self.events))


def _archive_file(db: Path, archive_path: str | None) -> Path | None:
    if not archive_path:
        return None
    p = Path(archive_path)
    candidates = [p] if p.is_absolute() else [db.parent / p, db.parent / "archive" / p, p]
    for c in candidates:
        if c.is_file():
            return c
    return None


def parse_text(data: bytes, name: str) -> GameLog:
    """Parse one log file's bytes (any format the formats package reads; JSON otherwise)."""
    out = GameLog(source=name)
    read_bytes: Any
    try:
        from ingest.formats import read_bytes
    except Exception:
        read_bytes = None
    if read_bytes is not None:
        try:
            loaded = read_bytes(data, name)
        except Exception as err:  # a reader bug must not take the page down
            out.problems.append(f"the formats reader failed on {name}: {err}")
            loaded = []
        if loaded:
            first = loaded[0]
            log = getattr(first, "log", None)
            parsed = getattr(first, "parsed", None)
            if parsed is not None and getattr(parsed, "header", None) is not None:
                out.header, out.events = parsed.header, list(parsed.events)
                out.lines = list(getattr(parsed, "lines", []) or [])
                out.indices = list(getattr(parsed, "indices", []) or [])
                return out
            if log is not None and getattr(log, "header", None) is not None:
                out.header, out.events = log.header, list(log.events)
                return out
    from engine.core.parse import parse_log

    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        out.problems.append(f"{name} is not a canonical JSON log: {err}")
        return out
    # canonical text: header on line 2, event i on line 4 + i (see schemas/canonical.py)
    n = len(obj.get("events", [])) if isinstance(obj, dict) else 0
    parsed_log = parse_log(obj, header_line=2, event_lines=[4 + i for i in range(n)])
    out.header, out.events = parsed_log.header, list(parsed_log.events)
    out.lines, out.indices = list(parsed_log.lines), list(parsed_log.indices)
    out.problems.extend(f.message for f in parsed_log.findings)
    return out


def load(db: Path, game_id: str, seats: Any = None) -> GameLog:
    """The game ``game_id`` read from its archive file (or rebuilt from the warehouse).

    ``seats``: the game's ``seats`` rows (seat, faction, player) when the caller read them
    already (the Replay viewer's picker, :func:`dashboards.queries.picker_seats`); a game
    rebuilt from the warehouse without a receipt takes its header's seats from them instead
    of reading them again."""
    row = queries.game_row(db, game_id)
    if row is None:
        return GameLog(problems=[f"no game {game_id!r} in the warehouse"])
    path = _archive_file(db, row.get("archive_path"))
    if path is not None:
        try:
            return parse_text(path.read_bytes(), path.name)
        except OSError as err:
            problem = f"the archive file {path} could not be read: {err}"
        else:  # pragma: no cover
            problem = ""
    else:
        problem = f"the archive file for {game_id} was not found ({row.get('archive_path')!r})"
    return _from_warehouse(db, game_id, row, problem, seats)


def _from_warehouse(db: Path, game_id: str, row: dict[str, Any], problem: str,
                    known_seats: Any = None) -> GameLog:
    out = GameLog(source="warehouse events", problems=[problem])
    header_obj = None
    receipt = row.get("receipt")
    if isinstance(receipt, str):
        try:
            receipt_obj = json.loads(receipt)
            header_obj = receipt_obj.get("header") if isinstance(receipt_obj, dict) else None
        except json.JSONDecodeError:
            header_obj = None
    if header_obj is None:
        seats = (queries.game_seats(db, game_id) if known_seats is None
                 else known_seats.sort("seat") if "seat" in known_seats.columns
                 else known_seats)
        if seats.is_empty():
            return out
        header_obj = {
            "game": row.get("game") or DEFAULT_GAME,
            "rules_version": row.get("rules_version"),
            "profile": row.get("profile") or "default",
            "session_type": row.get("session_type"),
            "seats": [{"seat": s["seat"], "faction": s["faction"], "player": s.get("player")}
                      for s in seats.iter_rows(named=True)],
        }
    ev = queries.game_events(db, game_id)
    events = []
    for r in ev.iter_rows(named=True):
        try:
            events.append(json.loads(r["payload"]) if isinstance(r["payload"], str) else r["payload"])
        except (json.JSONDecodeError, TypeError):
            events.append({"type": r["type"]})
    from engine.core.parse import parse_log

    parsed = parse_log({"header": header_obj, "events": events},
                       event_lines=ev["line"].to_list() if not ev.is_empty() else None)
    out.header, out.events = parsed.header, list(parsed.events)
    out.lines, out.indices = list(parsed.lines), list(parsed.indices)
    out.problems.extend(f.message for f in parsed.findings)
    return out
