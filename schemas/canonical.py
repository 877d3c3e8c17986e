"""Canonical serialisation of a game log.

The canonical JSON text puts the header on one line and each event on its own line, so that a
finding's ``line`` points at the event in the file and diffs of two logs read event by event::

    {"format": "playtest-log", "format_version": 1,
    "header": {...},
    "events": [
    {"type": "era_start", "era": 1, ...},
    ...
    ]}

Fields equal to their default are left out (``type``, ``game`` and ``rules_version`` never are),
so a recorded log stays short; reading it back restores the defaults, so the round trip is exact.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel


def dump_event(event: BaseModel) -> dict[str, Any]:
    """One event as a canonical dict (``type`` first, defaults left out)."""
    body = event.model_dump(mode="json", exclude_defaults=True)
    body.pop("type", None)
    return {"type": event.type, **body}  # type: ignore[attr-defined]


def dump_header(header: BaseModel) -> dict[str, Any]:
    body = header.model_dump(mode="json", exclude_defaults=True)
    body.pop("game", None)
    body.pop("rules_version", None)
    return {"game": header.game, "rules_version": header.rules_version, **body}  # type: ignore[attr-defined]


def dump_log(log: BaseModel) -> dict[str, Any]:
    """The whole log as a canonical dict."""
    return {
        "format": "playtest-log",
        "format_version": 1,
        "header": dump_header(log.header),  # type: ignore[attr-defined]
        "events": [dump_event(e) for e in log.events],  # type: ignore[attr-defined]
    }


def _j(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def dumps_log(log: BaseModel) -> str:
    """The canonical JSON text (one event per line, trailing newline)."""
    d = dump_log(log)
    lines = ['{"format": "playtest-log", "format_version": 1,', f'"header": {_j(d["header"])},', '"events": [']
    evs = d["events"]
    for i, e in enumerate(evs):
        lines.append(_j(e) + ("," if i < len(evs) - 1 else ""))
    lines.append("]}")
    return "\n".join(lines) + "\n"
