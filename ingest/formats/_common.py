"""Shared pieces of the format readers: the LoadedLog record and finding helpers.

Readers never raise on bad content. A problem becomes a :class:`~schemas.findings.Finding`
with a code from the core catalogue (``log/unreadable``, ``log/parse-error``); its message starts
with ``<source>:<line>:<column>:`` so a user can jump to the place, and ``where.line`` carries
the line for tools.
"""

from __future__ import annotations

import bisect
import json
import math
import re
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
    #: lines whose one problem is already said (an unterminated quote): what else goes wrong
    #: reading that line follows from it and is not reported again
    settled: set[int] = field(default_factory=set)

    def error(self, line: int | None, col: int | None, message: str, code: str = "log/parse-error",
              seat: int | None = None) -> None:
        """Record one problem at ``line``:``col`` (1-based; None when unknown); ``seat``: the
        seat the line names, when it can be told (the engine links what follows to it)."""
        if line is not None and line in self.settled:
            return
        self.findings.append(make_finding(code, self.source, line, col, message, seat))


def make_finding(code: str, source: str, line: int | None, col: int | None, message: str,
                 seat: int | None = None) -> Finding:
    """A core-catalogue finding whose message names ``source:line:column``."""
    loc = source
    if line is not None:
        loc += f":{line}"
        if col is not None:
            loc += f":{col}"
    sink = FindingSink(_CORE)
    sink.line = line
    return sink.report(code, f"{loc}: {message}", seat=seat)


def seat_of(first: str) -> int | None:
    """The seat a line's first word or cell names (``3`` in ``3 reserch ...``), or None."""
    first = first.strip()
    return int(first) if first.isdigit() and 0 < len(first) <= 2 else None


def unreadable_lines(parsed: Any) -> list[tuple[int, int | None]]:
    """(line, seat or None) of each source line whose reading had a problem (a reader's
    ``log/parse-error`` or ``log/invalid-event``: the line was lost, or its row was kept with a
    cell in doubt), for ``replay(unreadable=...)``: what follows from it, at that line or after,
    links to that problem instead of standing as a rule error."""
    return [(f.where.line, f.where.seat) for f in parsed.findings
            if f.code in ("log/parse-error", "log/invalid-event") and f.where.line is not None]


def unreadable(source: str, fmt: str, raw: bytes, reason: str, line: int | None = None,
               col: int | None = None) -> LoadedLog:
    """A LoadedLog for input that could not be read at all."""
    parsed = ParsedLog()
    parsed.findings = [make_finding("log/unreadable", source, line, col, reason)]
    return LoadedLog(source=source, format=fmt, parsed=parsed, raw=raw, unreadable=reason)


#: parse errors listed for a text input that held no log at all (a README, a services file):
#: its first lines say what it is; every line of it would say nothing more
MAX_LISTED_WHEN_UNREADABLE = 3


def not_a_log(source: str, fmt: str, raw: bytes, reason: str, problems: list[Finding]) -> LoadedLog:
    """An unreadable LoadedLog for text in which no header and no event could be read: its
    first :data:`MAX_LISTED_WHEN_UNREADABLE` parse errors, then one finding counting the rest."""
    out = unreadable(source, fmt, raw, reason)
    out.parsed.findings += problems[:MAX_LISTED_WHEN_UNREADABLE]
    rest = problems[MAX_LISTED_WHEN_UNREADABLE:]
    if rest:
        lines = sorted({f.where.line for f in rest if f.where.line is not None})
        span = f" (lines {lines[0]}-{lines[-1]})" if lines else ""
        out.parsed.findings.append(make_finding(
            "log/parse-error", source, lines[0] if lines else None, None,
            f"{len(rest):,} more lines could not be read either{span}; not listed, the input "
            "holds no game log"))
    return out


#: whole numbers a log may hold: the warehouse stores them as INTEGER (32 bits)
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
#: raw bytes that may hold a value :func:`bad_value` rejects (a 10+ digit number, NaN,
#: Infinity, a 3-digit exponent, a surrogate escape); other inputs skip the walk
_SUSPECT = re.compile(rb"[0-9]{10}|NaN|Infinity|[0-9][eE][+-]?[0-9]{3}|\\u[dD][89a-fA-F]")
#: the longest text a log may hold in one value (a player name, a note, a faction): a 10 MB
#: faction was stored whole (issue 19); longer text makes its event (or the header) invalid
MAX_TEXT = 20_000


def _long_line(raw: bytes) -> bool:
    """Whether ``raw`` has a line of :data:`MAX_TEXT` bytes or more (one that could hold a text
    too long): one ``find`` per line, ~35 ms for a 47 MB log."""
    if len(raw) < MAX_TEXT:
        return False
    find, start = raw.find, 0
    while True:
        end = find(b"\n", start, start + MAX_TEXT)
        if end < 0:
            return len(raw) - start >= MAX_TEXT
        start = end + 1


#: :func:`suspect`'s byte map: a digit becomes ``0``, ``e``/``E`` becomes ``e``, a sign ``+``,
#: anything else a space; then ``_SUSPECT``'s number patterns are plain substrings
_NUMBER_SHAPE = bytes(
    ord("0") if chr(b).isdigit() and b < 128 else ord("e") if b in b"eE"
    else ord("+") if b in b"+-" else ord(" ") for b in range(256))
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def suspect(raw: bytes) -> bool:
    """Whether ``raw`` may hold a value :func:`bad_value` rejects (then the decoded log is
    walked value by value; other inputs skip the walk).

    The same answer as ``_SUSPECT.search(raw)`` (tests/test_ingest_suspect.py), about 20 times
    faster: that regex scans every byte in Python's engine (about 0.7 ms for a 16 KB log, a
    quarter of reading it); here substring searches and one ``bytes.translate`` run in C."""
    # a one-byte search is a memchr; a longer one is not, so it runs only when the byte is there
    if (b"N" in raw and b"NaN" in raw) or (b"I" in raw and b"Infinity" in raw):
        return True
    if b"\\" in raw and b"\\u" in raw and _SURROGATE_ESCAPE.search(raw):
        return True
    shape = raw.translate(_NUMBER_SHAPE)
    if b"0000000000" in shape or b"0e000" in shape or b"0e+000" in shape:
        return True
    return _long_line(raw)


_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_SHOWN = 80  # characters of an offending value quoted in a message


class Oversized(str):
    """A JSON number too long to convert (Python refuses more than 4,300 digits); the reader
    keeps its digits as this marker so that :func:`bad_value` reports it with its line."""


def shown(value: str, limit: int = MAX_SHOWN) -> str:
    """``value`` cut to ``limit`` characters for a message (its full length said)."""
    if len(value) <= limit:
        return value
    return f"{value[:limit]}... ({len(value):,} characters)"


def value_problem(err: ValueError) -> str:
    """The message for a ValueError a reader got converting a number (Python refuses to convert
    more than 4,300 digits)."""
    if "digits" in str(err):
        return "a number with more than 4,300 digits is too large to store"
    return f"a value could not be read ({shown(str(err))})"


def bad_value(value: Any, path: str = "") -> str | None:
    """Why a decoded value cannot be stored, or None: a whole number outside the 32-bit range
    the warehouse holds, a number too long to read, NaN or an infinity (not JSON), or a string
    with a lone UTF-16 surrogate (not a character; it cannot be written as UTF-8)."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, v = stack.pop()
        at = f"{where}: " if where else ""
        if isinstance(v, Oversized):
            return f"{at}a number with {len(v.lstrip('-')):,} digits is too large to store"
        if isinstance(v, str):
            if len(v) > MAX_TEXT:
                return (f"{at}a text of {len(v):,} characters is longer than the {MAX_TEXT:,} a "
                        f"log may hold ({shown(v, 40)})")
            m = _SURROGATE.search(v)
            if m:
                return (f"{at}the text holds a lone surrogate \\u{ord(m.group()):04x} "
                        "(not a Unicode character)")
        elif isinstance(v, bool):
            continue
        elif isinstance(v, int):
            if not INT_MIN <= v <= INT_MAX:
                return f"{at}{shown(str(v), 20)} is outside the range a log may hold ({INT_MIN} to {INT_MAX})"
        elif isinstance(v, float):
            if not math.isfinite(v):
                return f"{at}{v} is not a number JSON can hold (NaN and infinities are not allowed)"
        elif isinstance(v, dict):
            stack.extend((f"{where}.{k}" if where else str(k), x) for k, x in reversed(v.items()))
            stack.extend((f"{where}: key" if where else "key", k) for k in v if isinstance(k, str))
        elif isinstance(v, list):
            stack.extend((f"{where}.{i}" if where else str(i), x) for i, x in reversed(list(enumerate(v))))
    return None


def _checked(parsed: ParsedLog, obj: Any, source: str, fmt: str, raw: bytes,
             header_line: int | None, problems: list[Finding] | None) -> LoadedLog | None:
    """Apply :func:`bad_value` to a validated log: a bad header makes the input unreadable (the
    returned LoadedLog); a bad event is skipped with a ``log/invalid-event`` finding at its line
    (``parsed`` is changed in place; None is returned)."""
    header_obj = obj.get("header") if isinstance(obj, dict) else None
    why = bad_value(header_obj)
    if why is not None:
        out = unreadable(source, fmt, raw, f"the header is not valid ({why})", header_line)
        out.parsed.findings[:0] = parsed.findings
        return out
    events = obj.get("events") if isinstance(obj, dict) else None
    if not isinstance(events, list):
        return None
    keep: list[int] = []
    for k, i in enumerate(parsed.indices):
        why = bad_value(events[i])
        if why is None:
            keep.append(k)
            continue
        kind = events[i].get("type") if isinstance(events[i], dict) else None
        sink = FindingSink(_CORE)
        sink.event, sink.line = i, parsed.lines[k]
        loc = source if parsed.lines[k] is None else f"{source}:{parsed.lines[k]}"
        parsed.findings.append(sink.report(
            "log/invalid-event",
            f"{loc}: {shown(str(kind), 40)!r} event is not valid ({why}); it was skipped"))
    if len(keep) != len(parsed.indices):
        parsed.events = [parsed.events[k] for k in keep]
        parsed.lines = [parsed.lines[k] for k in keep]
        parsed.indices = [parsed.indices[k] for k in keep]
    return None


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
    said = {f.where.line for f in problems or [] if f.where.line is not None}
    if said:  # one slip, one finding: a line the reader already reported is not reported again
        located = [f for f in located if not (f.code == "log/invalid-event" and f.where.line in said)]
    parsed.findings = list(problems or []) + located
    if fmt == "session-folder" or suspect(raw):
        bad = _checked(parsed, obj, source, fmt, raw, header_line, problems)
        if bad is not None:
            return bad
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
                  empty: str, title: str = "Mandate 2038") -> LoadedLog:
    """Decode a text log (notation or sheet), parse it with ``parse`` and validate it.

    Never raises: undecodable bytes or a file with neither header nor events is unreadable
    (``not a <title> <what> (<first problem or empty>)``); every other problem is a finding.
    """
    text, reason, line, col = decode_text(data)
    if text is None:
        return unreadable(source, fmt, data, reason or "unreadable", line, col)
    obj, header_line, event_lines, problems = parse(text, source)
    if not obj["header"] and not obj["events"]:
        first = problems.findings[0].message if problems.findings else empty
        return not_a_log(source, fmt, data, f"not a {title} {what} ({first})",
                         problems.findings)
    return validate(obj, source=source, fmt=fmt, raw=data, header_line=header_line,
                    event_lines=event_lines, problems=problems.findings)


def csv_rows(text: str, delimiter: str, problems: Problems) -> list[tuple[int, list[str]]]:
    """The rows of a CSV text as (first line, cells), one slip costing one problem.

    A quoted cell may hold line breaks (a spreadsheet's multi-line cell), but a quote left open
    must not swallow the rows after it (a checkpoint cell cut inside its quote used to eat the
    next four rows and shift the rest of the Era): a quote still open at a line end continues
    only onto lines that read as the rest of that cell (no delimiter before its closing quote,
    or no delimiter at all). Otherwise the quote is reported as unterminated, the row is read
    with the cell closed at its line's end, and reading resumes at the next line."""
    if "\r" in text and "\n" not in text:
        text = text.replace("\r", "\n")  # old Mac line ends
    lines = text.split("\n")
    out: list[tuple[int, list[str]]] = []
    i = 0
    while i < len(lines):
        start = i
        chunk = lines[i].removesuffix("\r")
        row, open_at = _csv_line(chunk, delimiter)
        while open_at is not None and i + 1 < len(lines):
            nxt = lines[i + 1].removesuffix("\r")
            close = _closing_quote(nxt)
            head = nxt if close is None else nxt[:close]
            if delimiter in head:
                break  # the next line is a row of its own: the quote was left open
            # the line break inside the cell as written (a cell's own "\r\n" is kept)
            brk = "\r\n" if lines[i].endswith("\r") else "\n"
            i += 1
            chunk = f"{chunk}{brk}{nxt}"
            row, open_at = _csv_line(chunk, delimiter)
        if open_at is not None:
            problems.error(start + 1, open_at,
                           "unterminated quote: the quote opened in this cell is never closed; "
                           "the cell was read to the end of the line and reading resumed at the "
                           "next line")
            problems.settled.add(start + 1)
            chunk = lines[start].removesuffix("\r")
            i = start
            row, _ = _csv_line(chunk + '"', delimiter)
        if row is not None:
            out.append((start + 1, row))
        i += 1
    return out


def _csv_line(chunk: str, delimiter: str) -> tuple[list[str] | None, int | None]:
    """(cells, None) of one CSV record, or (None, None) for an empty one; (cells read so far,
    1-based column of the open cell) when a quoted cell is still open at the end."""
    if chunk == "":
        return None, None
    cells: list[str] = []
    cur: list[str] = []
    quoted = False
    at_start = True
    opened = 0
    col = 1
    k = 0
    n = len(chunk)
    while k < n:
        ch = chunk[k]
        if quoted:
            if ch == '"':
                if k + 1 < n and chunk[k + 1] == '"':
                    cur.append('"')
                    k += 2
                    continue
                quoted = False
            else:
                cur.append(ch)
        elif ch == delimiter:
            cells.append("".join(cur))
            cur, at_start = [], True
            col += 1
            k += 1
            continue
        elif ch == '"' and at_start:
            quoted, opened = True, col
        else:
            cur.append(ch)
        at_start = False
        k += 1
    cells.append("".join(cur))
    return cells, (opened if quoted else None)


def _closing_quote(line: str) -> int | None:
    """Index of the first single (undoubled) quote of ``line``: where an open cell closes."""
    k = 0
    while k < len(line):
        if line[k] == '"':
            if k + 1 < len(line) and line[k + 1] == '"':
                k += 2
                continue
            return k
        k += 1
    return None
