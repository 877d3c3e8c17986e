"""The Vestige playtest sheet (CSV): header rows, then one row per event.

Layout (docs/formats.md, "Vestige sheet"; template ``data/templates/vestige-sheet.csv``):

* rows whose first cell starts with ``#`` are instructions and are ignored; blank rows too;
* header rows: a field name and its value, as in the notation (``mode,solo``,
  ``nemeses,(name=bone)``); ``seat,1,blue,Ana`` per seat. A text field's cell is taken
  verbatim unless the whole cell is a JSON string literal (``"..."``);
* the column row ``time,round,seat,event,args,comment`` starts the event rows: ``event`` is the
  notation's verb, ``args`` the rest of its notation line (positional and ``key=value`` fields),
  ``comment`` free text. ``round`` is optional on every row; when given it must be the round of
  the latest ``round_start`` (the round_start row itself gives its own number).

:func:`read_vestige_sheet` never raises: a bad row is a ``log/parse-error`` finding naming file,
line, column and reason. :func:`write_vestige_sheet` is its exact inverse on every valid log.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import types
import typing
from typing import Any

from ingest.formats._common import LoadedLog, Problems, csv_rows, seat_of
from ingest.formats.cells import restore
from ingest.formats.tokens import INT_RE, ParseError, fmt_time, parse_time, quote, tokenize
from ingest.mandate2038.sheet import _SafeWriter
from ingest.vestige.codec import fmt_value, model_items, read_value, strip
from ingest.vestige.notation import (
    _SECTIONS,
    MODEL_BY_TYPE,
    parse_event_tokens,
    parse_header_line,
    read_text,
    write_event_line,
)
from schemas.log import SeatInfo
from schemas.vestige import VestigeHeader, VestigeLog

COLUMNS = ("time", "round", "seat", "event", "args", "comment")
_DECODER = json.JSONDecoder()


def _verbatim(s: str) -> str:
    """A text cell that reads back as ``s`` (quoted only when it otherwise would not)."""
    if s and s == s.strip() and not s.startswith('"') and "\n" not in s and "\r" not in s:
        return s
    return quote(s)


def _cell(cell: str, col: int) -> str:
    s = cell.strip()
    if s.startswith('"') and len(s) > 1:
        try:
            v, end = _DECODER.raw_decode(s)
        except json.JSONDecodeError as err:
            raise ParseError(col, f"bad quoted cell: {err.msg}") from None
        if end == len(s) and isinstance(v, str):
            return v
    return s


# --- writing ----------------------------------------------------------------------------------


def _header_rows(h: VestigeHeader) -> list[list[str]]:
    rows: list[list[str]] = [["game", "vestige"]]
    for name, tp, v in model_items(h):
        if name == "game":
            continue
        if name == "seats":
            for s in v:
                rows.append(["seat", str(s.seat),
                             "" if s.faction is None else _verbatim(s.faction),
                             "" if s.player is None else _verbatim(s.player),
                             *[f"{k}={fmt_value(tp, x, top=True)}" for k, tp, x in model_items(s)
                               if k not in ("seat", "faction", "player")]])
        elif name in _SECTIONS:
            subs = model_items(v)
            for sub, stp, sv in subs:
                rows.append([f"{name}.{sub}", _value_cell(stp, sv)])
            if not subs:
                rows.append([name, "()"])
        else:
            rows.append([name, _value_cell(tp, v)])
    return rows


def _value_cell(tp: Any, v: Any) -> str:
    if _is_plain_str(tp):
        return _verbatim(v)
    return fmt_value(tp, v, top=True)


def _is_plain_str(tp: Any) -> bool:
    tp = strip(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        rest = [strip(a) for a in typing.get_args(tp) if a is not type(None)]
        return rest == [str]
    return tp is str


def write_vestige_sheet(log: VestigeLog) -> str:
    """The sheet text of a valid Vestige log; reading it back gives the same log."""
    buf = io.StringIO()
    # every cell neutralised against formula injection, as in Mandate's sheet (cells.py)
    w = _SafeWriter(csv.writer(buf, lineterminator="\n"))
    w.writerow(["# Vestige playtest sheet (docs/formats.md). Rows starting with # are ignored."])
    for row in _header_rows(log.header):
        w.writerow(row)
    w.writerow(COLUMNS)
    date = log.header.date
    rnd: int | None = None
    for ev in log.events:
        line = write_event_line(ev.model_copy(update={"t": None, "comment": None}), None)
        toks = line.split(" ", 2) if line.split(" ", 1)[0].isdigit() else [""] + line.split(" ", 1)
        seat, verb = toks[0], toks[1]
        args = toks[2] if len(toks) > 2 else ""
        if ev.type == "round_start":
            rnd = ev.round
        t = getattr(ev, "t", None)
        comment = getattr(ev, "comment", None)
        w.writerow([
            fmt_time(t, date) if t is not None else "",
            "" if rnd is None else str(rnd),
            seat, verb, args,
            "" if comment is None else _verbatim(comment),
        ])
    return buf.getvalue()


# --- reading ----------------------------------------------------------------------------------


def parse_vestige_sheet(text: str, source: str) -> tuple[dict[str, Any], int | None,
                                                           list[int | None], Problems]:
    """(log object, header line, event lines, problems) of a sheet's text."""
    problems = Problems(source)
    header: dict[str, Any] = {}
    header_line: int | None = None
    events: list[dict[str, Any]] = []
    lines: list[int | None] = []
    columns: list[str] | None = None
    rnd: tuple[int, ...] | None = None  # the round, and one the table wrote against it
    for n, cells in csv_rows(text, ",", problems):  # an unterminated quote: one problem
        row = [restore(c) for c in cells]  # the writer's formula escaping undone (cells.py)
        if not row or all(not c.strip() for c in row) or row[0].strip().startswith("#"):
            continue
        try:
            if columns is None:
                first = row[0].strip().lower()
                if first == "time":
                    columns = [c.strip().lower() for c in row]
                    missing = [c for c in ("event",) if c not in columns]
                    if missing:
                        raise ParseError(1, f"the column row lacks {', '.join(missing)}")
                    continue
                _header_row(row, header)
                header_line = header_line or n
                continue
            ev, rnd, cell_problem = _event_row(row, columns, header, rnd)
            events.append(ev)
            lines.append(n)
            if cell_problem is not None:  # reported, and the row is kept (like the Mandate sheet)
                # (its event was read whole and applied: no value of its seat is in doubt, only
                # what the row itself gives)
                problems.error(n, cell_problem.col, cell_problem.message)
        except ParseError as err:
            problems.error(n, err.col, err.message, seat=_seat_cell(row, columns))
        except (ValueError, TypeError, RecursionError) as err:
            problems.error(n, None, f"could not read the row ({type(err).__name__}: {err})",
                           seat=_seat_cell(row, columns))
    if header or events:
        header.setdefault("game", "vestige")
    obj = {"format": "playtest-log", "format_version": 1, "header": header, "events": events}
    return obj, header_line, lines, problems


def _seat_cell(row: list[str], columns: list[str] | None) -> int | None:
    """The seat an event row's seat cell names, or None (a header row, no seat column): a row
    that could not be read implicates that seat only (engine/core/findings.py)."""
    if columns is None or "seat" not in columns:
        return None
    i = columns.index("seat")
    return seat_of(row[i]) if i < len(row) else None


def _header_row(row: list[str], header: dict[str, Any]) -> None:
    name = row[0].strip()
    cells = [_cell(c, i + 2) for i, c in enumerate(row[1:])]
    while cells and cells[-1] == "" and not row[len(cells)].strip():
        cells.pop()
    if name.lower() == "seat":
        raw = [c.strip() for c in row[1:]]
        while raw and raw[-1] == "":
            raw.pop()
        if len(raw) < 1 or not INT_RE.fullmatch(raw[0]):
            raise ParseError(2, "a seat row is seat,NUMBER,COLOUR,player[,key=value ...]")
        seat: dict[str, Any] = {"seat": int(raw[0])}
        for i, key in ((1, "faction"), (2, "player")):
            if i < len(raw) and raw[i] != "":
                seat[key] = _cell(raw[i], i + 2)
        for i, cell in enumerate(raw[3:], start=5):
            k, eq, text = cell.partition("=")
            field = SeatInfo.model_fields.get(k)
            if not eq or field is None or k in seat:
                raise ParseError(i, f"unexpected seat cell {cell!r} (expected key=value)")
            seat[k] = read_value(field.annotation, text, i)
        header.setdefault("seats", []).append(seat)
        return
    if len(cells) != 1:
        raise ParseError(2, f"header row {name!r} needs exactly one value cell")
    value = row[1].strip()
    key = name.lower()
    section, dot, sub = key.partition(".")
    fields = (_SECTIONS[section].model_fields if dot and section in _SECTIONS
              else VestigeHeader.model_fields)
    field = fields.get(sub if dot else key)
    if field is not None and _is_plain_str(field.annotation):
        # text cells are verbatim (or one JSON string): pass them on as a quoted notation value
        value = quote(cells[0])
    parse_header_line(f"[{name} {value}]", header)


def _event_row(row: list[str], columns: list[str], header: dict[str, Any],
               rnd: tuple[int, ...] | None
               ) -> tuple[dict[str, Any], tuple[int, ...] | None, ParseError | None]:
    """(event, the round now, a cell that disagrees but does not lose the row). A round cell
    that disagrees with the latest ``round_start`` is reported once: the rows after it that
    carry the same round are read as the table wrote them (the round is the table's)."""
    cells = {c: (row[i] if i < len(row) else "") for i, c in enumerate(columns)}
    col_of = {c: i + 1 for i, c in enumerate(columns)}
    extra = [c for c in row[len(columns):] if c.strip()]
    if extra:
        raise ParseError(len(columns) + 1, "more cells than columns")
    verb = cells.get("event", "").strip()
    if not verb:
        raise ParseError(col_of["event"], "an event row needs its event")
    if verb.lower() not in MODEL_BY_TYPE:
        raise ParseError(col_of["event"], f"unknown event type {verb!r}")
    seat = cells.get("seat", "").strip()
    args = cells.get("args", "")
    line = " ".join(p for p in (seat, verb, args.strip()) if p)
    try:
        toks = tokenize(line)
    except ParseError as err:
        raise ParseError(col_of.get("args", 1), f"args: {err.message}") from None
    if any(t.comment is not None or t.text.startswith("@") for t in toks):
        raise ParseError(col_of.get("args", 1), "args hold fields only: the time and comment "
                         "have their own columns")
    try:
        ev = parse_event_tokens(toks, None)
    except ParseError as err:
        raise ParseError(col_of.get("args", 1), f"args: {err.message}") from None
    t = cells.get("time", "").strip()
    if t:
        date = header.get("date") if isinstance(header.get("date"), dt.date) else None
        ev["t"] = parse_time(t, col_of["time"], date)
    comment = cells.get("comment", "")
    if comment.strip():
        ev["comment"] = _cell(comment, col_of["comment"])
    if ev["type"] == "round_start" and isinstance(ev.get("round"), int):
        rnd = (ev["round"],)
    r = cells.get("round", "").strip()
    problem = None
    if r:
        if not INT_RE.fullmatch(r):
            problem = ParseError(col_of["round"], f"expected a round number, found {r!r}")
        elif rnd is not None and int(r) not in rnd:
            what = (f"this round_start row begins round {rnd[0]}" if ev["type"] == "round_start"
                    else f"the latest round_start began round {rnd[0]}")
            problem = ParseError(col_of["round"], f"column round: this row says round {r}, but "
                                 f"{what}; the row is kept")
            # one slip, one problem: until the next round_start, rows saying either are read
            rnd = (rnd[0], int(r))
    return ev, rnd, problem


def read_vestige_sheet(data: bytes, source: str) -> LoadedLog:
    """Read a Vestige sheet. Never raises; problems are findings with their line and column."""
    return read_text(data, source, "csv", parse_vestige_sheet, "sheet")


def loads_vestige_sheet(text: str) -> VestigeLog:
    """Parse sheet text into a log, raising ValueError on the first problem."""
    obj, _, _, problems = parse_vestige_sheet(text, "<text>")
    if problems.findings:
        raise ValueError(problems.findings[0].message)
    return VestigeLog.model_validate(obj)
