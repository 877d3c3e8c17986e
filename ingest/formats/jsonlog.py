"""The canonical JSON log reader (the writer is ``schemas.canonical.dumps_log``).

Decoding problems (invalid UTF-8, not JSON, not an object) make the input unreadable with the
line and column from the decoder. Each event keeps the line where its object starts, for the
canonical one-event-per-line text and for pretty-printed JSON alike.
"""

from __future__ import annotations

import json
from typing import Any, Final

from engine.core.parse import parse_log
from ingest.formats._common import (
    LineIndex,
    LoadedLog,
    Oversized,
    decode_text,
    suspect,
    unreadable,
    validate,
)
from schemas.log import all_frozen

_WS = " \t\n\r"
_DECODER = json.JSONDecoder()


def _parse_int(digits: str) -> int:
    # Python refuses to convert more than 4,300 digits (ValueError); keep them as a marker
    # that the validator reports with the line (ingest.formats._common.bad_value)
    return int(digits) if len(digits) <= 4300 else Oversized(digits)  # type: ignore[return-value]


#: used only after the default decoder raised ValueError for an over-long number
_BIG_INT_DECODER = json.JSONDecoder(parse_int=_parse_int)
MAX_DEPTH = 200  # deeper values are decoded whole, without recording positions


def _skip(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def scan_positions(text: str, start: int = 0, max_depth: int = MAX_DEPTH,
                   decoder: json.JSONDecoder = _DECODER) -> tuple[Any, int, dict[tuple[Any, ...], int]]:
    """Decode one JSON value at ``start`` and return (value, end, positions).

    ``positions`` maps the path of every object member / array element (paths up to
    ``max_depth`` long) to the character offset where its value starts; deeper values are
    decoded whole by the C decoder. Raises ``json.JSONDecodeError`` (or
    ``RecursionError`` on absurd nesting) like ``json.loads``; callers catch both."""
    positions: dict[tuple[Any, ...], int] = {}

    def value(i: int, path: tuple[Any, ...]) -> tuple[Any, int]:
        i = _skip(text, i)
        positions[path] = i
        if len(path) >= max_depth or i >= len(text) or text[i] not in "{[":
            return decoder.raw_decode(text, i)
        if text[i] == "[":
            out: list[Any] = []
            i = _skip(text, i + 1)
            if i < len(text) and text[i] == "]":
                return out, i + 1
            while True:
                v, i = value(i, (*path, len(out)))
                out.append(v)
                i = _skip(text, i)
                if i < len(text) and text[i] == ",":
                    i += 1
                    continue
                if i < len(text) and text[i] == "]":
                    return out, i + 1
                raise json.JSONDecodeError("Expecting ',' delimiter", text, i)
        obj: dict[str, Any] = {}
        i = _skip(text, i + 1)
        if i < len(text) and text[i] == "}":
            return obj, i + 1
        while True:
            i = _skip(text, i)
            if i >= len(text) or text[i] != '"':
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, i)
            key, i = decoder.raw_decode(text, i)
            i = _skip(text, i)
            if i >= len(text) or text[i] != ":":
                raise json.JSONDecodeError("Expecting ':' delimiter", text, i)
            v, i = value(i + 1, (*path, key))
            obj[key] = v
            i = _skip(text, i)
            if i < len(text) and text[i] == ",":
                i += 1
                continue
            if i < len(text) and text[i] == "}":
                return obj, i + 1
            raise json.JSONDecodeError("Expecting ',' delimiter", text, i)

    v, end = value(start, ())
    return v, end, positions


def decode_json(text: str, max_depth: int = MAX_DEPTH) -> tuple[Any, dict[tuple[Any, ...], int]]:
    """The whole text as one JSON document with positions; raises like :func:`scan_positions`
    (plus ``json.JSONDecodeError`` for trailing data). A number too long for Python to convert
    is kept as an :class:`~ingest.formats._common.Oversized` marker."""
    try:
        v, end, positions = scan_positions(text, 0, max_depth)
    except json.JSONDecodeError:
        raise
    except ValueError:  # more than 4,300 digits: decode again, keeping such numbers as text
        v, end, positions = scan_positions(text, 0, max_depth, _BIG_INT_DECODER)
    end = _skip(text, end)
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return v, positions


def load_json_document(data: bytes, max_depth: int = MAX_DEPTH) -> tuple[Any, dict[tuple[Any, ...], int], LineIndex | None, str | None, int | None, int | None]:
    """Decode bytes as one JSON document: (value, positions, index, error, line, col)."""
    text, reason, line, col = decode_text(data)
    if text is None:
        return None, {}, None, reason, line, col
    index = LineIndex(text)
    try:
        obj, positions = decode_json(text, max_depth)
    except json.JSONDecodeError as err:
        return None, {}, index, f"not valid JSON: {err.msg}", err.lineno, err.colno
    except RecursionError:
        return None, {}, index, "not valid JSON: nested too deeply", None, None
    return obj, positions, index, None, None, None


#: The parsed-line cache's capacity: at most this many event lines (over every game's event
#: validator together) are kept with their event. 8,192 lines hold 15.5 MB of events and
#: keys and hit 74.5% of the event lines of 1,000 simulated 4-player games read in turn (20,000
#: lines would hit 80.4% for ~38 MB, every distinct line 81.3%: docs/engine.md).
LINE_CACHE_LINES: Final = 8192


class LineCache:
    """The canonical reader's parsed-line cache: an event line's exact bytes -> its validated
    event, one table per event validator (a game's ``event_adapter``).

    Many lines of an archive are byte-identical (the same decision, draw or marker in game
    after game); events are immutable (:class:`schemas.log.Frozen`), so the reader hands the
    one validated event out again instead of validating the line once more. Validation is a
    pure function of the line's bytes (no event model has a validator that reads anything else),
    so a cached event equals the one validating would give. Only valid lines are kept (an
    invalid line sends the whole file to the general reader, uncached), and nothing in a cached
    event says where it was read: its line number and file are the reader's (``parsed.lines``,
    ``LoadedLog.source``). A validator that builds any model not frozen is never cached. The
    first :data:`LINE_CACHE_LINES` distinct lines are kept (those that repeat most come early
    and stay; keeping the first lines hits more than clearing when full, 74.5% against 67.8% on
    1,000 simulated games); :meth:`clear` empties it. Readers in several threads (the app) share
    it: each ``dict`` call is atomic under the GIL, and a race on the counts can only keep a
    line or two beyond the capacity or miscount a hit."""

    __slots__ = ("capacity", "held", "hits", "misses", "_tables")

    def __init__(self, capacity: int = LINE_CACHE_LINES) -> None:
        self.capacity = capacity
        self.held = 0  # lines kept, over every table
        self.hits = 0  # event lines whose event came from the cache
        self.misses = 0  # event lines validated (each line read is one or the other)
        #: event adapter -> (line bytes -> event), or None when the adapter's models are not all
        #: frozen (never cached)
        self._tables: dict[Any, dict[bytes, Any] | None] = {}

    def table(self, adapter: Any) -> dict[bytes, Any] | None:
        """The line table of ``adapter`` (a ``TypeAdapter``), None when its events may not be
        shared."""
        try:
            return self._tables[adapter]
        except KeyError:
            table: dict[bytes, Any] | None = {} if all_frozen(adapter.core_schema) else None
            self._tables[adapter] = table
            return table

    def events(self, adapter: Any, rows: list[bytes]) -> list[Any]:
        """The events of ``rows`` (event lines), validated by ``adapter`` or from the cache;
        raises what ``validate_json`` raises for an invalid line."""
        validate_json = adapter.validator.validate_json  # (no Python wrapper per line)
        table = self.table(adapter)
        if table is None or self.capacity <= 0:
            self.misses += len(rows)
            return list(map(validate_json, rows))
        # one C-level map of lookups; the lines not held are validated one by one
        events: list[Any] = list(map(table.get, rows))
        missed = [i for i, ev in enumerate(events) if ev is None]
        validated = 0
        for i in missed:
            row = rows[i]
            ev = table.get(row)  # an earlier line of this file may have added it
            if ev is None:
                ev = validate_json(row)
                validated += 1
                if self.held < self.capacity:
                    table[row] = ev
                    self.held += 1
            events[i] = ev
        self.misses += validated
        self.hits += len(rows) - validated
        return events

    def clear(self) -> None:
        """Forget every line and zero the counts."""
        self._tables.clear()
        self.held = self.hits = self.misses = 0


#: the process's parsed-line cache (``read_json`` and ``playtest validate``)
LINE_CACHE = LineCache()


_CANONICAL_HEAD = '{"format": "playtest-log", "format_version": 1,'
_HEADER_PREFIX = '"header": '
_EVENTS_OPEN = '"events": ['
_CANONICAL_HEAD_BYTES = _CANONICAL_HEAD.encode()
_EVENTS_OPEN_BYTES = _EVENTS_OPEN.encode()


def _read_canonical(data: bytes, source: str) -> LoadedLog | None:
    """Read the canonical one-event-per-line layout (``schemas.canonical.dumps_log``) fast.

    Applies when ``data`` has exactly that layout: line 1 the format line, line 2
    ``"header": {...},``, line 3 ``"events": [``, then one complete JSON value per line (all but
    the last followed by a comma), then ``]}``; and when it is clean: no value the validator
    must look at closely (:func:`~ingest.formats._common.suspect`), a valid header and every
    event valid. Each event line is validated straight from its bytes by pydantic-core
    (``event_adapter.validate_json``: JSON decoding and validation in one call, no Python dict
    in between; a line holding anything but exactly one value is refused), so an event's line is
    its line number by construction and no decoded JSON is ever alive. A line read before is not
    validated again: its event comes from the parsed-line cache (:class:`LineCache`). Returns None for anything
    else; the caller then reads the whole document the general way, which reports every problem
    with its line and column (identical results for clean input: tests/test_storage_reader.py).
    """
    if not data.startswith(b'{"format": "playtest-log", "format_version": 1,\n'):
        return None
    if suspect(data):
        return None
    # the first three lines and the last one; UTF-8 never splits a character at a newline byte
    end1 = data.find(b"\n")
    end2 = data.find(b"\n", end1 + 1)
    end3 = data.find(b"\n", end2 + 1)
    if end3 < 0:
        return None
    tail = data.rfind(b"\n", 0, len(data) - 1 if data.endswith(b"\n") else len(data))
    last_row = data[tail + 1:].removesuffix(b"\n")
    try:
        if (data[:end1] != _CANONICAL_HEAD_BYTES or data[end2 + 1:end3] != _EVENTS_OPEN_BYTES
                or last_row != b"]}" or tail < end3):
            return None
        head = data[end1 + 1:end2].decode("utf-8")
        if not head.startswith(_HEADER_PREFIX) or not head.endswith(","):
            return None
        header_text = head[len(_HEADER_PREFIX):-1]
        header, end = _DECODER.raw_decode(header_text)
        if end != len(header_text) or not isinstance(header, dict):
            return None
        out = parse_log({"format": "playtest-log", "format_version": 1, "header": header,
                         "events": []}, header_line=2)
        rs = out.ruleset
        if out.findings or out.header is None or rs is None:
            return None
        # the event lines (each but the last ends with a comma): split at a comma that ends a
        # line, there must be as many pieces as lines; each is validated from its bytes (or
        # found in the parsed-line cache, :class:`LineCache`)
        body = data[end3 + 1:tail]
        if body:
            rows = body.split(b",\n")
            if len(rows) != body.count(b"\n") + 1:
                return None
            events: list[Any] = LINE_CACHE.events(rs.event_adapter, rows)
        else:
            events = []
    except (ValueError, RecursionError, UnicodeDecodeError):
        # bad JSON or UTF-8, an invalid event (pydantic's ValidationError is a ValueError), or a
        # number too long to convert: the general path says where
        return None
    n = len(events)
    out.events = events
    out.lines = list(range(4, 4 + n))
    out.indices = list(range(n))
    out.raw_event_count = n
    return LoadedLog(source=source, format="json", parsed=out, raw=data, unreadable=None)


def read_json(data: bytes, source: str) -> LoadedLog:
    """Read a canonical (or any pretty-printed) JSON game log. Never raises."""
    fast = _read_canonical(data, source)
    if fast is not None:
        return fast
    # positions of the top-level members and of each event suffice; events decode in C
    obj, positions, index, reason, line, col = load_json_document(data, max_depth=2)
    if reason is not None or index is None:
        return unreadable(source, "json", data, reason or "unreadable", line, col)
    if not isinstance(obj, dict):
        return unreadable(source, "json", data,
                          f"expected a JSON object with 'header' and 'events', got {type(obj).__name__}", 1, 1)
    header_line = index.line(positions[("header",)]) if ("header",) in positions else None
    events = obj.get("events")
    event_lines: list[int | None] | None = None
    if isinstance(events, list):
        event_lines = [
            index.line(positions[("events", i)]) if ("events", i) in positions else None
            for i in range(len(events))
        ]
    return validate(obj, source=source, fmt="json", raw=data, header_line=header_line,
                    event_lines=event_lines)
