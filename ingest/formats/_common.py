"""Shared pieces of the format readers: the LoadedLog record and finding helpers.

Readers never raise on bad content. A problem becomes a :class:`~schemas.findings.Finding`
with a code from the core catalogue (``log/unreadable``, ``log/parse-error``); its message starts
with ``<source>:<line>:<column>:`` so a user can jump to the place, and ``where.line`` carries
the line for tools.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.findings import CORE_RULES, Catalogue, FindingSink
from engine.core.parse import ParsedLog, parse_log
from schemas.findings import Finding

_CORE = Catalogue(CORE_RULES)


@dataclass(slots=True)
class LoadedLog:
    """One game log read from one input.

    ``source``: the path or upload name, plus ``#member`` for a file inside a folder or zip.
    ``format``: ``json`` | ``notation`` | ``csv`` | ``session-folder``.
    ``parsed``: the validated header/events with their source lines and every finding.
    ``raw``: the exact input bytes (for a session folder: a deterministic zip of its files).
    ``unreadable``: why nothing could be read, else None (then ``parsed.header`` may still be
    None when the header was invalid; that is reported as a finding, not here).
    """

    source: str
    format: str
    parsed: ParsedLog
    raw: bytes
    unreadable: str | None = None

    @property
    def findings(self) -> list[Finding]:
        return self.parsed.findings


@dataclass(slots=True)
class Problems:
    """Collects parse problems of one source, each located by line and column."""

    source: str
    findings: list[Finding] = field(default_factory=list)

    def error(self, line: int | None, col: int | None, message: str, code: str = "log/parse-error") -> None:
        """Record one problem at ``line``:``col`` (1-based; None when unknown)."""
        self.findings.append(make_finding(code, self.source, line, col, message))


def make_finding(code: str, source: str, line: int | None, col: int | None, message: str) -> Finding:
    """A core-catalogue finding whose message names ``source:line:column``."""
    loc = source
    if line is not None:
        loc += f":{line}"
        if col is not None:
            loc += f":{col}"
    sink = FindingSink(_CORE)
    sink.line = line
    return sink.report(code, f"{loc}: {message}")


def unreadable(source: str, fmt: str, raw: bytes, reason: str, line: int | None = None,
               col: int | None = None) -> LoadedLog:
    """A LoadedLog for input that could not be read at all."""
    parsed = ParsedLog()
    parsed.findings = [make_finding("log/unreadable", source, line, col, reason)]
    return LoadedLog(source=source, format=fmt, parsed=parsed, raw=raw, unreadable=reason)


def validate(
    obj: Any,
    *,
    source: str,
    fmt: str,
    raw: bytes,
    header_line: int | None,
    event_lines: list[int | None] | None,
    problems: list[Finding] | None = None,
) -> LoadedLog:
    """Run the tolerant validator on a decoded log object and wrap the result.

    ``problems`` (the reader's own parse findings) come first. ``parse_log`` belongs to the
    engine; should it ever raise on odd input, the input is reported unreadable instead of
    raising (see docs/notes/formats.md)."""
    if isinstance(obj, dict) and isinstance(obj.get("events"), list):
        # parse_log looks event types up in a set; an unhashable "type" (a list or an object)
        # would raise there, so it is shown as text and reported as an unknown type instead.
        obj = {**obj, "events": [
            {**e, "type": json.dumps(e["type"])} if isinstance(e, dict) and isinstance(e.get("type"), list | dict) else e
            for e in obj["events"]
        ]}
    try:
        parsed = parse_log(obj, header_line=header_line, event_lines=event_lines)
    except Exception as err:  # noqa: BLE001 - the reader's contract is "never raises"
        reason = f"the log could not be validated ({type(err).__name__}: {err})"
        out = unreadable(source, fmt, raw, reason)
        out.parsed.findings[:0] = list(problems or [])
        return out
    located = [_prefix(f, source) for f in parsed.findings]
    parsed.findings = list(problems or []) + located
    return LoadedLog(source=source, format=fmt, parsed=parsed, raw=raw, unreadable=None)


def _prefix(f: Finding, source: str) -> Finding:
    """Name the source (and line) in a validator finding's message."""
    if f.message.startswith(source + ":"):
        return f
    loc = source if f.where.line is None else f"{source}:{f.where.line}"
    return f.model_copy(update={"message": f"{loc}: {f.message}"})


class LineIndex:
    """Maps character offsets of a text to 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        self._starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self._starts.append(i + 1)

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def line_col(self, offset: int) -> tuple[int, int]:
        ln = bisect.bisect_right(self._starts, offset)
        return ln, offset - self._starts[ln - 1] + 1


def decode_text(data: bytes) -> tuple[str | None, str | None, int | None, int | None]:
    """UTF-8 text of ``data`` (a BOM is dropped; UTF-16 with a BOM is accepted too):
    (text, None, None, None) or
    (None, reason, line, column) naming the first invalid byte."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a BOM (spreadsheet "Unicode text")
        try:
            return data.decode("utf-16"), None, None, None
        except UnicodeDecodeError as err:
            return None, f"not valid UTF-16 text (byte offset {err.start})", None, None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        head = data[: err.start]
        line = head.count(b"\n") + 1
        col = err.start - (head.rfind(b"\n") + 1) + 1
        return None, f"not UTF-8 text (byte 0x{data[err.start]:02x} at byte offset {err.start})", line, col
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None, None, None


TextParser = Callable[[str, str], "tuple[dict[str, Any], int | None, list[int | None], Problems]"]


def read_text_log(data: bytes, source: str, fmt: str, parse: TextParser, *, what: str,
                  empty: str) -> LoadedLog:
    """Decode a text log (notation or sheet), parse it with ``parse`` and validate it.

    Never raises: undecodable bytes or a file with neither header nor events is unreadable
    (``not a Mandate 2038 <what> (<first problem or empty>)``); every other problem is a finding.
    """
    text, reason, line, col = decode_text(data)
    if text is None:
        return unreadable(source, fmt, data, reason or "unreadable", line, col)
    obj, header_line, event_lines, problems = parse(text, source)
    if not obj["header"] and not obj["events"]:
        first = problems.findings[0].message if problems.findings else empty
        out = unreadable(source, fmt, data, f"not a Mandate 2038 {what} ({first})")
        out.parsed.findings += problems.findings
        return out
    return validate(obj, source=source, fmt=fmt, raw=data, header_line=header_line,
                    event_lines=event_lines, problems=problems.findings)
