"""Live-entry drafts: one append-only JSON-lines file per game, fsynced after every line.

A draft lives in ``<db dir>/drafts/<draft id>.jsonl``. Its lines are records:

* ``{"kind": "header", "header": {...}, "created": "<UTC time>"}`` (first line);
* ``{"kind": "event", "event": {...}}``: one recorded event, in order;
* ``{"kind": "undo", "at": ...}``: takes back the last event still standing;
* ``{"kind": "finished", "game_id": ..., "at": ...}``: archived and loaded;
* ``{"kind": "abandoned", "at": ...}``: put aside by the facilitator (kept, never deleted).

Nothing is ever rewritten: undo is a new line, so the file is the full history of the entry
session and survives a browser refresh, a server restart or a crash (a torn last line from a
crash is skipped with a note; every complete line before it is kept). An append after a crash
first ends the torn tail with a newline, so the new record always starts a line of its own and
is never glued to the broken one.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DRAFT_ID = re.compile(r"^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$")


class DraftError(Exception):
    """A draft that cannot be used (unknown id, not a draft file); the message says why."""


def now_utc() -> str:
    """The current UTC time as ISO 8601 (seconds)."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


@dataclass(slots=True)
class Draft:
    """A draft read back: header, the events still standing, and its status."""

    id: str
    path: Path
    header: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    created: str | None = None
    status: str = "open"  # open, finished, abandoned
    game_id: str | None = None
    undone: int = 0
    problems: list[str] = field(default_factory=list)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _ends_mid_line(path: Path) -> bool:
    """True when the file's last byte is not a newline (a write torn by a crash)."""
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() == 0:
            return False
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) != b"\n"


def _append(path: Path, record: dict[str, Any]) -> None:
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"
    if _ends_mid_line(path):  # recovery: close the torn tail so this record starts a fresh line
        line = "\n" + line
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())


def path_of(directory: Path, draft_id: str) -> Path:
    """The file of draft ``draft_id`` (the id is checked, so no path can be smuggled in)."""
    if not DRAFT_ID.match(draft_id or ""):
        raise DraftError(f"{draft_id!r} is not a draft id")
    return directory / f"{draft_id}.jsonl"


def create(directory: Path, header: dict[str, Any]) -> Draft:
    """Start a new draft with ``header`` (the canonical header as a dict)."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    draft_id = f"{stamp}-{secrets.token_hex(3)}"
    path = path_of(directory, draft_id)
    created = now_utc()
    with open(path, "x", encoding="utf-8") as fh:
        fh.write(json.dumps({"kind": "header", "header": header, "created": created},
                            ensure_ascii=False, separators=(",", ":"), default=str) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    _fsync_dir(directory)
    return Draft(id=draft_id, path=path, header=header, created=created)


def append_event(directory: Path, draft_id: str, event: dict[str, Any]) -> None:
    """Append one event (written and fsynced before this returns)."""
    _append(_existing(directory, draft_id), {"kind": "event", "event": event})


def append_at(directory: Path, draft_id: str, at: int, events: list[dict[str, Any]]) -> bool:
    """Append ``events`` only while the open draft still stands at ``at`` events (the position
    the decision they answer was drawn for); False, and nothing written, for a stale one (a
    double tap, a second tap on a decision already answered, a closed draft)."""
    d = load(directory, draft_id)
    if d.status != "open" or len(d.events) != at:
        return False
    for event in events:
        _append(d.path, {"kind": "event", "event": event})
    return True


def undo_at(directory: Path, draft_id: str, at: int) -> bool:
    """Take back the last event only while the open draft stands at ``at`` events (so a double
    tap on Undo takes back one); False, and nothing written, otherwise."""
    d = load(directory, draft_id)
    if d.status != "open" or len(d.events) != at or not d.events:
        return False
    _append(d.path, {"kind": "undo", "at": now_utc()})
    return True


def undo(directory: Path, draft_id: str) -> None:
    """Take back the last event (recorded as an ``undo`` line)."""
    _append(_existing(directory, draft_id), {"kind": "undo", "at": now_utc()})


def mark(directory: Path, draft_id: str, kind: str, **extra: Any) -> None:
    """Record that the draft was ``finished`` or ``abandoned``."""
    if kind not in ("finished", "abandoned", "reopened"):
        raise DraftError(f"unknown draft mark {kind!r}")
    _append(_existing(directory, draft_id), {"kind": kind, "at": now_utc(), **extra})


def _existing(directory: Path, draft_id: str) -> Path:
    path = path_of(directory, draft_id)
    if not path.is_file():
        raise DraftError(f"there is no draft {draft_id} in {directory}")
    return path


def load(directory: Path, draft_id: str) -> Draft:
    """Read a draft back, applying undo lines; bad lines are skipped and noted."""
    path = _existing(directory, draft_id)
    d = Draft(id=draft_id, path=path)
    with open(path, encoding="utf-8", errors="replace") as fh:
        for no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
            except json.JSONDecodeError:
                d.problems.append(f"line {no} is not complete JSON (a crash while writing?); skipped")
                continue
            kind = rec.get("kind") if isinstance(rec, dict) else None
            if kind == "header" and not d.header:
                d.header = rec.get("header") or {}
                d.created = rec.get("created")
            elif kind == "event" and isinstance(rec.get("event"), dict):
                d.events.append(rec["event"])
            elif kind == "undo":
                if d.events:
                    d.events.pop()
                    d.undone += 1
            elif kind == "finished":
                d.status, d.game_id = "finished", rec.get("game_id")
            elif kind == "abandoned":
                d.status = "abandoned"
            elif kind == "reopened":
                d.status = "open"
            else:
                d.problems.append(f"line {no}: unknown record {kind!r}; skipped")
    if not d.header:
        d.problems.append("the draft has no header line")
    return d


def list_drafts(directory: Path) -> list[Draft]:
    """Every draft in ``directory``, newest first."""
    if not directory.is_dir():
        return []
    out = []
    for p in sorted(directory.glob("*.jsonl"), reverse=True):
        if DRAFT_ID.match(p.stem):
            try:
                out.append(load(directory, p.stem))
            except (OSError, DraftError) as err:
                out.append(Draft(id=p.stem, path=p, status="unreadable", problems=[str(err)]))
    return out
