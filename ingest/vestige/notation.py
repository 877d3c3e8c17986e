"""The Vestige text notation (``.vst``): a line-per-event log a facilitator can type at a table.

Grammar (docs/formats.md, "Vestige notation"; the values are those of
:mod:`ingest.vestige.codec`)::

    # a remark about the file (not part of the log)
    [game vestige]                      header fields: [name value], [receipt.name value], ...
    [seat 1 blue "Ana"]                 one line per seat: number, colour, player (optional)
    round_start 1 @19:20                an event: verb, positional fields, key=value fields,
    1 move 12,13,7 reveals=(position=I2;region=garage)    @time, {comment}
    1 visit I2 garage gain=might,might {Scrapyard}

A line starting with a whole number is that seat's event. Each event type has a few positional
fields (:data:`POSITIONAL`); every other field is ``key=value``. :func:`read_vestige_notation`
never raises: a bad line is a ``log/parse-error`` finding naming file, line, column and reason,
and the other lines are still read. :func:`write_vestige_notation` is its exact inverse on every
valid log: reading what it writes gives the same log.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel

from ingest.formats._common import (
    LoadedLog,
    Problems,
    decode_text,
    not_a_log,
    seat_of,
    unreadable,
    validate,
)
from ingest.formats.tokens import (
    INT_RE,
    ParseError,
    Token,
    fmt_comment,
    fmt_time,
    parse_time,
    tokenize,
)
from ingest.vestige.codec import fmt_value, is_key, model_items, read_value
from schemas.log import Provenance, ReceiptIdentity, SeatInfo
from schemas.vestige import EVENT_MODELS, VestigeHeader, VestigeLog

FORMAT = "vestige-notation"
SUFFIX = ".vst"
MODEL_BY_TYPE: dict[str, type[BaseModel]] = {
    str(m.model_fields["type"].default): m for m in EVENT_MODELS
}
#: fields written without ``key=``, in order, after the verb
POSITIONAL: dict[str, tuple[str, ...]] = {
    "card": ("name", "printed"),
    "phase": ("name",),
    "seat_setup": ("start",),
    "reveal": ("tiles",),
    "display": ("stack", "card"),
    "endgame_reveal": ("card",),
    "round_start": ("round",),
    "activate": ("card", "gain"),
    "move": ("path",),
    "visit": ("position", "region"),
    "rest": ("upgrade",),
    "draw": ("stack", "card"),
    "pickup": ("stack", "card"),
    "roll": ("face",),
    "complete": ("card", "face"),
    "convert": ("spend", "into"),
    "recover": ("source", "n"),
    "control": ("position",),
    "speed_boost": ("downgrade",),
    "reset": ("action",),
    "effect": ("card", "via"),
    "attach": ("card", "to"),
    "covert_op": ("action", "card"),
    "transfer": ("card", "to"),
    "trigger": ("point",),
    "endgame_met": ("card",),
    "nemesis_turn": ("nemesis", "threat"),
    "nemesis_gain": ("nemesis",),
    "threat_removed": ("nemesis", "card"),
    "checkpoint": ("label",),
    "observation": ("category", "text"),
    "survey": ("item", "value"),
}
_SPECIAL = ("type", "t", "comment", "seat")
_SECTIONS: dict[str, type[BaseModel]] = {"receipt": ReceiptIdentity, "provenance": Provenance}
_HEADER_FIELDS = VestigeHeader.model_fields


# --- writing ----------------------------------------------------------------------------------


def write_event_line(ev: BaseModel, date: dt.date | None) -> str:
    """One event as its notation line (without a newline)."""
    kind = str(getattr(ev, "type", ""))
    parts: list[str] = []
    seat = getattr(ev, "seat", None)
    if "seat" in type(ev).model_fields and seat is not None:
        parts.append(str(seat))
    parts.append(kind)
    items = model_items(ev, skip=_SPECIAL)
    have = {name: (tp, v) for name, tp, v in items}
    done: set[str] = set()
    for name in POSITIONAL.get(kind, ()):
        if name not in have:
            break
        tp, v = have[name]
        parts.append(fmt_value(tp, v, top=True))
        done.add(name)
    for name, tp, v in items:
        if name not in done:
            parts.append(f"{name}={fmt_value(tp, v, top=True)}")
    t = getattr(ev, "t", None)
    if t is not None:
        parts.append("@" + fmt_time(t, date))
    comment = getattr(ev, "comment", None)
    if comment is not None:
        parts.append(fmt_comment(comment))
    return " ".join(parts)


def seat_tokens(s: SeatInfo) -> list[str]:
    """A seat as tokens: number, colour (``~`` when none), player (when recorded), then any
    other field as ``key=value``."""
    out = [str(s.seat), fmt_value(str | None, s.faction)]
    if s.player is not None:
        out.append(fmt_value(str, s.player))
    out += [f"{k}={fmt_value(tp, v, top=True)}" for k, tp, v in model_items(s)
            if k not in ("seat", "faction", "player")]
    return out


def read_seat(toks: list[Token], col: int) -> dict[str, Any]:
    """A seat from its tokens (see :func:`seat_tokens`); raises ParseError."""
    usage = 'a seat is NUMBER COLOUR ["player"] [key=value ...]'
    if len(toks) < 2 or not INT_RE.fullmatch(toks[0].text) or is_key(toks[1].text):
        raise ParseError(toks[0].col if toks else col, usage)
    seat: dict[str, Any] = {"seat": int(toks[0].text),
                            "faction": read_value(str | None, toks[1].text, toks[1].col)}
    fields = SeatInfo.model_fields
    for tok in toks[2:]:
        if is_key(tok.text):
            name, _, text = tok.text.partition("=")
            if name not in fields or name in seat:
                raise ParseError(tok.col, f"a seat has no field {name!r} (or it is given twice)")
            seat[name] = read_value(fields[name].annotation, text, tok.col + len(name) + 1)
        elif "player" not in seat:
            seat["player"] = read_value(str, tok.text, tok.col)
        else:
            raise ParseError(tok.col, usage)
    return seat


def header_lines(h: VestigeHeader) -> list[str]:
    out = []
    for name, tp, v in model_items(h):
        if name == "seats":
            for s in v:
                out.append("[seat " + " ".join(seat_tokens(s)) + "]")
        elif name in _SECTIONS:
            for sub, stp, sv in model_items(v):
                out.append(f"[{name}.{sub} {fmt_value(stp, sv, top=True)}]")
            if not model_items(v):
                out.append(f"[{name} ()]")
        else:
            out.append(f"[{name} {fmt_value(tp, v, top=True)}]")
    if "game" not in {n for n, _, _ in model_items(h)}:
        out.insert(0, "[game vestige]")
    return out


def write_vestige_notation(log: VestigeLog) -> str:
    """The notation text of a valid Vestige log; reading it back gives the same log."""
    lines = ["# Vestige notation (docs/formats.md)"]
    lines += header_lines(log.header)
    lines.append("")
    date = log.header.date
    lines += [write_event_line(e, date) for e in log.events]
    return "\n".join(lines) + "\n"


# --- reading ----------------------------------------------------------------------------------


def parse_event_tokens(toks: list[Token], date: dt.date | None) -> dict[str, Any]:
    """An event dict from the tokens of one line; raises ParseError at a column."""
    out: dict[str, Any] = {}
    i = 0
    if toks and INT_RE.fullmatch(toks[0].text) and not toks[0].comment:
        out["seat"] = int(toks[0].text)
        i = 1
    if i >= len(toks) or toks[i].comment is not None:
        raise ParseError(toks[0].col if toks else 1, "expected an event type after the seat")
    verb_tok = toks[i]
    kind = verb_tok.text.lower()
    model = MODEL_BY_TYPE.get(kind)
    if model is None:
        raise ParseError(verb_tok.col, f"unknown event type {verb_tok.text!r} (expected one of "
                         f"{', '.join(sorted(MODEL_BY_TYPE))})")
    out["type"] = kind
    fields = model.model_fields
    if "seat" in out and "seat" not in fields:
        raise ParseError(toks[0].col, f"a {kind} event has no seat")
    positional = list(POSITIONAL.get(kind, ()))
    for tok in toks[i + 1 :]:
        if tok.comment is not None:
            if "comment" in out:
                raise ParseError(tok.col, "a second comment on one line")
            out["comment"] = tok.comment
            continue
        if tok.text.startswith("@"):
            if "t" in out:
                raise ParseError(tok.col, "a second time on one line")
            out["t"] = parse_time(tok.text[1:], tok.col + 1, date)
            continue
        if is_key(tok.text):
            name, _, text = tok.text.partition("=")
            if name not in fields or name in ("type", "t", "comment"):
                raise ParseError(tok.col, f"a {kind} event has no field {name!r}")
            if name in out:
                raise ParseError(tok.col, f"field {name!r} given twice")
            out[name] = read_value(fields[name].annotation, text, tok.col + len(name) + 1)
            if name in positional:
                positional = positional[positional.index(name) + 1 :]
            continue
        if not positional:
            raise ParseError(tok.col, f"unexpected {tok.text!r}: write further {kind} fields as "
                             "key=value")
        name = positional.pop(0)
        if name in out:
            raise ParseError(tok.col, f"field {name!r} given twice")
        out[name] = read_value(fields[name].annotation, tok.text, tok.col)
    return out


def parse_header_line(line: str, header: dict[str, Any]) -> None:
    """Read one ``[name value]`` line into ``header``; raises ParseError at a column."""
    body = line.strip()
    lead = len(line) - len(line.lstrip())
    if not body.endswith("]"):
        raise ParseError(lead + len(body) + 1, "a header line ends with ']'")
    inner = body[1:-1]
    name, _, value = inner.strip().partition(" ")
    value = value.strip()
    col = lead + 2 + inner.index(name) if name else lead + 2
    vcol = lead + 2 + (inner.index(value, len(name)) if value else len(inner))
    key = name.lower()
    if key == "seat":
        header.setdefault("seats", []).append(read_seat(tokenize(value, vcol), vcol))
        return
    if not value:
        raise ParseError(col, f"header field {name!r} has no value")
    section, dot, sub = key.partition(".")
    if dot:
        if section not in _SECTIONS:
            raise ParseError(col, f"unknown header section {section!r}")
        sfields = _SECTIONS[section].model_fields
        if sub not in sfields:
            raise ParseError(col, f"unknown field {sub!r} of {section}")
        target = header.setdefault(section, {})
        if not isinstance(target, dict):
            raise ParseError(col, f"{section} given twice")
        if sub in target:
            raise ParseError(col, f"header field {key!r} given twice")
        target[sub] = read_value(sfields[sub].annotation, value, vcol)
        return
    if key not in _HEADER_FIELDS or key == "seats":
        raise ParseError(col, f"unknown header field {name!r}")
    if key in header:
        raise ParseError(col, f"header field {key!r} given twice")
    header[key] = read_value(_HEADER_FIELDS[key].annotation, value, vcol)


def parse_vestige_text(text: str, source: str) -> tuple[dict[str, Any], int | None,
                                                          list[int | None], Problems]:
    """(log object, header line, event lines, problems) of a notation text."""
    problems = Problems(source)
    header: dict[str, Any] = {}
    header_line: int | None = None
    events: list[dict[str, Any]] = []
    lines: list[int | None] = []
    for n, raw_line in enumerate(text.split("\n"), start=1):
        line = raw_line.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            if stripped.startswith("["):
                if events:
                    raise ParseError(1, "header lines come before the first event")
                parse_header_line(line, header)
                header_line = header_line or n
                continue
            date = header.get("date") if isinstance(header.get("date"), dt.date) else None
            events.append(parse_event_tokens(tokenize(line), date))
            lines.append(n)
        except ParseError as err:
            problems.error(n, err.col, err.message, seat=_seat_of(stripped))
        except (ValueError, TypeError, RecursionError) as err:  # belt and braces: never raise
            problems.error(n, None, f"could not read the line ({type(err).__name__}: {err})",
                           seat=_seat_of(stripped))
    if header or events:
        header.setdefault("game", "vestige")
    obj = {"format": "playtest-log", "format_version": 1, "header": header, "events": events}
    return obj, header_line, lines, problems


def _seat_of(stripped: str) -> int | None:
    """The seat an event line's layout names (its first word, ``2 vsit O3 ...``), or None: a
    line that could not be read implicates that seat only (engine/core/findings.py)."""
    return None if stripped.startswith("[") else seat_of(stripped.split(" ", 1)[0])


def read_text(data: bytes, source: str, fmt: str, parse: Any, what: str) -> LoadedLog:
    """Decode, parse with ``parse`` and validate; never raises."""
    try:
        text, reason, line, col = decode_text(data)
        if text is None:
            return unreadable(source, fmt, data, reason or "unreadable", line, col)
        obj, header_line, event_lines, problems = parse(text, source)
    except Exception as err:  # noqa: BLE001 - a reader never raises
        return unreadable(source, fmt, data, f"could not read the {what} ({type(err).__name__}: "
                                               f"{err})")
    if not obj["header"] and not obj["events"]:
        first = problems.findings[0].message if problems.findings else "it is empty"
        return not_a_log(source, fmt, data, f"not a Vestige {what} ({first})", problems.findings)
    return validate(obj, source=source, fmt=fmt, raw=data, header_line=header_line,
                    event_lines=event_lines, problems=problems.findings)


def read_vestige_notation(data: bytes, source: str) -> LoadedLog:
    """Read Vestige notation bytes. Never raises; problems are findings with their line."""
    return read_text(data, source, "notation", parse_vestige_text, "notation")


def loads_vestige_notation(text: str) -> VestigeLog:
    """Parse notation text into a log, raising ValueError on the first problem (for tests and
    tools that want an exception)."""
    obj, _, _, problems = parse_vestige_text(text, "<text>")
    if problems.findings:
        raise ValueError(problems.findings[0].message)
    return VestigeLog.model_validate(obj)


__all__ = [
    "POSITIONAL",
    "loads_vestige_notation",
    "parse_vestige_text",
    "read_vestige_notation",
    "write_vestige_notation",
]
