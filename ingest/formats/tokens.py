"""Tokens and value codecs shared by the text notation and the spreadsheet sheet.

A line is split into tokens separated by blanks. A ``"`` starts a JSON string literal (it may
hold blanks and any escape JSON allows) that is part of the surrounding token, so
``label="Era I end"`` is one token. ``{...}`` is a comment token; ``{"..."}`` holds a
JSON-quoted comment (needed for ``}``, newlines, or surrounding blanks).

Values are written compactly, without blanks, so that every field fits in one token; see
docs/formats.md for the table of value forms.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import Any

_DECODER = json.JSONDecoder()

#: strings written without quotes (ASCII, no separators the grammar uses)
SAFE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:/+\-]*")
HEX = r"(?:F|I[1-6]|O(?:1[0-2]|[1-9]))"
HEX_RE = re.compile(HEX)
PATH_RE = re.compile(rf"{HEX}(?:[->]{HEX})*")  # written with "-"; "F>I1" reads too
INT_RE = re.compile(r"-?[0-9]+")
FLOAT_RE = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
#: characters that editors may show as line breaks; always escaped when written
_BREAKS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


class ParseError(Exception):
    """A problem at a column of the current line (1-based)."""

    def __init__(self, col: int, message: str) -> None:
        super().__init__(message)
        self.col = col
        self.message = message


@dataclass(slots=True)
class Token:
    """One token: ``text`` as written, ``col`` its 1-based column; ``comment`` is the decoded
    comment text for comment tokens (else None); ``raw`` marks a sheet cell."""

    text: str
    col: int
    comment: str | None = None
    raw: bool = False  # a spreadsheet cell: taken verbatim, never unquoted


def _scan_string(line: str, i: int) -> int:
    """End offset (exclusive) of the JSON string literal starting at ``line[i] == '"'``."""
    j = i + 1
    n = len(line)
    while j < n:
        c = line[j]
        if c == "\\":
            j += 2
            continue
        if c == '"':
            return j + 1
        j += 1
    raise ParseError(i + 1, 'unterminated string: expected a closing "')


def tokenize(line: str, col0: int = 1) -> list[Token]:
    """Split one line into tokens; raises :class:`ParseError` on an unterminated string or
    comment. ``col0`` is the column of ``line[0]``."""
    out: list[Token] = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c in " \t\r":
            i += 1
            continue
        if c == "{":
            j = i + 1
            while j < n and line[j] in " \t":
                j += 1
            if j < n and line[j] == '"':
                try:
                    s, k = _DECODER.raw_decode(line, j)
                except json.JSONDecodeError:
                    s, k = None, -1
                if isinstance(s, str) and k < n and line[k] == "}":
                    out.append(Token(line[i : k + 1], i + col0, s))
                    i = k + 1
                    continue
            k = line.find("}", i + 1)
            if k < 0:
                raise ParseError(i + col0, "unterminated comment: expected '}'")
            out.append(Token(line[i : k + 1], i + col0, line[i + 1 : k].strip()))
            i = k + 1
            continue
        start = i
        while i < n and line[i] not in " \t\r{":
            if line[i] == '"':
                try:
                    i = _scan_string(line, i)
                except ParseError as err:
                    raise ParseError(err.col + col0 - 1, err.message) from None
                continue
            i += 1
        out.append(Token(line[start:i], start + col0))
    return out


_SURROGATE = re.compile("[\ud800-\udfff]")


def quote(s: str) -> str:
    """A JSON string literal that stays on one line and encodes as UTF-8 (line-break-like
    characters and lone surrogates, which JSON input may carry, are written as escapes)."""
    q = json.dumps(s, ensure_ascii=False)
    for ch, esc in _BREAKS.items():
        q = q.replace(ch, esc)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", q)


def fmt_str(s: str) -> str:
    """A string value: bare when safe, else JSON-quoted."""
    return s if SAFE.fullmatch(s) else quote(s)


def parse_str(text: str, col: int) -> str:
    """A string value: a JSON string literal (the whole text) or a bare word."""
    if text.startswith('"'):
        try:
            s, end = _DECODER.raw_decode(text)
        except json.JSONDecodeError as err:
            raise ParseError(col + err.pos, f"bad quoted string: {err.msg}") from None
        if end != len(text) or not isinstance(s, str):
            raise ParseError(col + end, "unexpected text after the closing quote")
        return s
    if text == "":
        raise ParseError(col, "expected a value")
    if '"' in text:
        raise ParseError(col + text.index('"'), "a quote may only start a value")
    return text


def fmt_comment(s: str) -> str:
    """A comment token: ``{text}`` when that reads back exactly, else ``{"json"}``."""
    plain = ("{" not in s and "}" not in s and s == s.strip() and not s.startswith('"')
             and s.isprintable())
    return "{" + (s if plain else quote(s)) + "}"


def parse_int(text: str, col: int, what: str = "a whole number") -> int:
    if not INT_RE.fullmatch(text):
        raise ParseError(col, f"expected {what}, found {text!r}")
    return int(text)


def parse_float(text: str, col: int) -> float:
    if not FLOAT_RE.fullmatch(text):
        raise ParseError(col, f"expected a number, found {text!r}")
    return float(text)


def fmt_float(x: float) -> str:
    return repr(float(x))


BOOL_WORDS = {"yes": True, "true": True, "no": False, "false": False}


def parse_bool(text: str, col: int) -> bool:
    v = BOOL_WORDS.get(text.lower())
    if v is None:
        raise ParseError(col, f"expected yes or no, found {text!r}")
    return v


def fmt_bool(b: bool) -> str:
    return "yes" if b else "no"


def parse_path(text: str, col: int) -> list[str]:
    if not PATH_RE.fullmatch(text):
        raise ParseError(col, f"expected a path of hexes like F-I1-O2, found {text!r}")
    return re.split("[->]", text)


def parse_list(text: str, col: int, item: Any) -> list[Any]:
    """A comma-separated list (``-`` is the empty list); ``item(text, col)`` reads one."""
    if text == "-":
        return []
    out = []
    pos = 0
    for part in text.split(","):
        out.append(item(part, col + pos))
        pos += len(part) + 1
    return out


def fmt_list(items: list[str]) -> str:
    return ",".join(items) if items else "-"


# --- times -----------------------------------------------------------------------------------

_TIME_RE = re.compile(
    r"([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,6}))?)?(Z|[+-][0-9]{2}:[0-9]{2})?"
)


def parse_time(text: str, col: int, date: dt.date | None) -> dt.datetime:
    """``HH:MM[:SS[.ffffff]][Z|+HH:MM]`` on ``date``, or a full ISO date-time."""
    m = _TIME_RE.fullmatch(text)
    if m:
        if date is None:
            raise ParseError(col, "a time of day needs the date: add a [Date YYYY-MM-DD] tag "
                                  "or write the full date-time (2026-11-29T19:42)")
        hh, mm, ss, frac, off = m.groups()
        iso = f"{date.isoformat()}T{int(hh):02d}:{mm}:{ss or '00'}"
        if frac:
            iso += "." + frac.ljust(6, "0")
        iso += off or ""
        try:
            return dt.datetime.fromisoformat(iso)
        except ValueError as err:
            raise ParseError(col, f"not a valid time: {err}") from None
    if "T" in text or " " in text:
        try:
            return dt.datetime.fromisoformat(text)
        except ValueError:
            pass
    raise ParseError(col, f"expected a time like 19:42, 19:42:05 or 2026-11-29T19:42, found {text!r}")


def _offset(t: dt.datetime) -> str | None:
    off = t.utcoffset()
    if off is None:
        return ""
    secs = int(off.total_seconds())
    if off.microseconds or secs % 60:
        return None
    if secs == 0:
        return "Z"
    sign = "+" if secs > 0 else "-"
    secs = abs(secs)
    return f"{sign}{secs // 3600:02d}:{secs % 3600 // 60:02d}"


def fmt_time(t: dt.datetime, date: dt.date | None) -> str:
    """The shortest form that reads back to exactly ``t`` given the header ``date``."""
    off = _offset(t)
    if date is not None and off is not None and t.date() == date:
        s = f"{t.hour:02d}:{t.minute:02d}"
        if t.second or t.microsecond:
            s += f":{t.second:02d}"
        if t.microsecond:
            s += f".{t.microsecond:06d}"
        return s + off
    return t.isoformat()
