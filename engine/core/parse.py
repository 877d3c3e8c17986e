"""Tolerant conversion of a decoded JSON object into a header and validated events.

Pure (no I/O): the readers in ``ingest/`` decode bytes and call :func:`parse_log`. A bad event
becomes a finding with its location and the rest are still read (python-chess ``Game.errors``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter, ValidationError

from engine.core.findings import CORE_RULES, Catalogue, FindingSink
from engine.core.registry import DEFAULT_GAME, get_ruleset
from engine.core.ruleset import Ruleset
from schemas.findings import Finding

_CORE = Catalogue(CORE_RULES)


@dataclass(slots=True)
class ParsedLog:
    """A log read as far as possible: ``header`` is None when it could not be read."""

    header: Any = None
    events: list[Any] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)  # raw index of each kept event
    findings: list[Finding] = field(default_factory=list)
    ruleset: Ruleset | None = None
    raw_event_count: int = 0

    @property
    def readable(self) -> bool:
        return self.header is not None and self.ruleset is not None


def describe_validation_error(err: ValidationError, limit: int = 3) -> str:
    """A short human sentence for a pydantic error: 'field: message; ...'."""
    parts = []
    for e in err.errors()[:limit]:
        loc = ".".join(str(p) for p in e.get("loc", ()) if p != "__root__")
        msg = e.get("msg", "invalid")
        parts.append(f"{loc}: {msg}" if loc else msg)
    more = len(err.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def _list_adapter(rs: Ruleset) -> TypeAdapter[Any] | None:
    """The ruleset's adapter for a whole list of events, when it provides one."""
    adapter: TypeAdapter[Any] | None = rs.events_adapter
    return adapter


def _sink(event: int | None = None, line: int | None = None) -> FindingSink:
    s = FindingSink(_CORE)
    s.event, s.line = event, line
    return s


def parse_log(
    obj: Any,
    *,
    header_line: int | None = None,
    event_lines: Sequence[int | None] | None = None,
) -> ParsedLog:
    """Validate a decoded log object. Never raises."""
    out = ParsedLog()
    if not isinstance(obj, dict):
        sink = _sink(line=header_line)
        sink.report(
            "log/unreadable",
            f"expected a JSON object with 'header' and 'events', got {type(obj).__name__}",
        )
        out.findings = sink.findings
        return out
    header_obj = obj.get("header")
    events_obj = obj.get("events", [])
    sink = _sink(line=header_line)
    if not isinstance(header_obj, dict):
        sink.report("log/invalid-header", "the log has no 'header' object")
        out.findings = sink.findings
        return out
    game = header_obj.get("game", DEFAULT_GAME)
    rs = get_ruleset(game) if isinstance(game, str) else None
    if rs is None:
        sink.report("log/unknown-game", f"no ruleset is registered for game {game!r}", recorded=game)
        out.findings = sink.findings
        return out
    out.ruleset = rs
    try:
        out.header = rs.header_model.model_validate(header_obj)
    except ValidationError as err:
        sink.report("log/invalid-header", f"the header is not valid: {describe_validation_error(err)}")
        out.findings = sink.findings
        return out
    if not isinstance(events_obj, list):
        sink.report("log/invalid-event", "'events' is not a list; no events were read")
        out.findings = sink.findings
        return out
    out.raw_event_count = len(events_obj)
    # Fast path: a well-formed log validates in one call; only a log with a bad event falls back
    # to event-by-event validation, which locates every bad event (measured in docs/engine.md).
    list_adapter = _list_adapter(rs)
    try:
        out.events = list(list_adapter.validate_python(events_obj)) if list_adapter else []
    except ValidationError:
        out.events = []
    if list_adapter is not None and len(out.events) == len(events_obj):
        n = len(out.events)
        out.indices = list(range(n))
        out.lines = [
            event_lines[i] if event_lines is not None and i < len(event_lines) else None
            for i in range(n)
        ]
        out.findings = sink.findings
        return out
    adapter = rs.event_adapter
    for i, raw in enumerate(events_obj):
        line = event_lines[i] if event_lines is not None and i < len(event_lines) else None
        sink.event, sink.line = i, line
        kind = raw.get("type") if isinstance(raw, dict) else None
        if isinstance(raw, dict) and not (isinstance(kind, str) and kind in rs.event_types):
            shown = kind if isinstance(kind, str | int | float | None) else repr(kind)[:60]
            sink.report(
                "log/unknown-event",
                f"unknown event type {shown!r}; the event was skipped",
                recorded=shown,
            )
            continue
        try:
            ev = adapter.validate_python(raw)
        except ValidationError as err:
            kind = raw.get("type") if isinstance(raw, dict) else type(raw).__name__
            sink.report(
                "log/invalid-event",
                f"{kind!r} event is not valid ({describe_validation_error(err)}); it was skipped",
            )
            continue
        out.events.append(ev)
        out.lines.append(line)
        out.indices.append(i)
    out.findings = sink.findings
    return out


#: the header's ``game`` near the start of a canonical log (the header precedes the events)
_GAME = re.compile(rb'"game"\s*:\s*"([^"\\]{1,80})"')


def parse_text(
    text: str | bytes,
    *,
    header_line: int | None = None,
    event_lines: Sequence[int | None] | None = None,
) -> ParsedLog:
    """Read a log from its JSON text. Never raises.

    Fast path: a well-formed log of a registered game is validated in one pydantic-core call
    straight from the text (``log_model.model_validate_json``: no Python dicts in between), so
    reading costs about one JSON decode less. Anything that path refuses (bad JSON, a bad event,
    an unknown key...) is read by ``json.loads`` + :func:`parse_log`, which locates every problem;
    both give the same header and events for a good log."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    m = _GAME.search(raw, 0, 4096)
    game = m.group(1).decode("utf-8", "replace") if m else DEFAULT_GAME
    rs = get_ruleset(game)
    if rs is not None:
        try:
            log = rs.log_model.model_validate_json(raw)
        except (ValidationError, ValueError):
            log = None
        header = getattr(log, "header", None)
        if log is not None and getattr(header, "game", None) == game:
            events = list(getattr(log, "events", []))
            n = len(events)
            return ParsedLog(
                header=header, events=events,
                lines=[event_lines[i] if event_lines is not None and i < len(event_lines)
                       else None for i in range(n)],
                indices=list(range(n)), findings=[], ruleset=rs, raw_event_count=n)
    try:
        obj = json.loads(raw)
    except ValueError as err:
        sink = _sink(line=header_line)
        sink.report("log/unreadable", f"not valid JSON: {err}")
        return ParsedLog(findings=sink.findings)
    return parse_log(obj, header_line=header_line, event_lines=event_lines)
