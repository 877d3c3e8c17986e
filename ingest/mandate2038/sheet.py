"""The spreadsheet sheet (CSV): a header section, then one row per event.

Layout (docs/formats.md; the template is data/templates/mandate2038-sheet.csv):

* rows whose first cell starts with ``#`` are instructions and are ignored; blank rows too;
* header rows: a tag name and its value(s): ``Session,facilitated_playtest``,
  ``Seat,1,mirevanta,Ana``, ``Map,F=frontier,I1=research,...`` (the notation's tags);
* the column row ``time,era,cycle,seat,event,what,piece,path,details,text,comment`` starts the
  event rows. ``event`` is the notation's verb; ``what`` its main word (mode, Headline, card,
  category ...); ``details`` the remaining notation arguments (``key=value`` ...); ``text`` an
  observation's text, a survey answer or a checkpoint label. ``era`` and ``cycle`` give the Era
  and cycle of ``era`` / ``cycle`` rows; on other rows they are optional and checked.

Cells are read verbatim (surrounding blanks dropped) unless the whole cell is a JSON string
literal (``"..."``), which is decoded: the writer quotes a value only when it would otherwise
read back differently. Errors name the line and the column of the cell. A cell a spreadsheet
could run as a formula (``=``, ``+``, ``-``, ``@`` ...) is written with a leading apostrophe and
read back without it (:mod:`ingest.formats.cells`); plain numbers such as ``-3`` are left alone.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ingest.formats._common import (
    LoadedLog,
    Problems,
    csv_rows,
    read_text_log,
    seat_of,
    value_problem,
)
from ingest.formats.cells import neutralise, restore
from ingest.formats.tokens import (
    _SURROGATE,
    INT_RE,
    ParseError,
    Token,
    fmt_bool,
    fmt_time,
    parse_bool,
    parse_time,
    quote,
    tokenize,
)
from ingest.mandate2038.events import (
    ROMAN,
    ROMAN_OF,
    SPEC_BY_VERB,
    fmt_survey_value,
    parse_event,
    survey_value,
    write_event,
)
from ingest.mandate2038.notation import _TAG_BY_LOWER, _TAG_OF_FIELD, TAGS, json_text, json_value
from schemas.mandate2038 import MandateLog

COLUMNS = ("time", "era", "cycle", "seat", "event", "what", "piece", "path", "details", "text",
           "comment")
_SHEET_VERB = {"!": "observation", "?": "survey"}
_TEXT_FIELD = {"observation": "text", "survey": "value", "checkpoint": "label"}


def cell_value(cell: str) -> str:
    """A cell's value: verbatim without surrounding blanks, or the decoded JSON string."""
    s = cell.strip()
    if len(s) >= 2 and s.startswith('"') and s.endswith('"'):
        try:
            v = json.loads(s)
        except json.JSONDecodeError:
            return s
        if isinstance(v, str):
            return v
    return s


def cell_text(s: str) -> str:
    """The cell for string ``s``: verbatim when that reads back exactly, else JSON-quoted."""
    # a line break inside a cell is JSON-quoted too: the reader reads the sheet line by line
    plain = (s != "" and cell_value(s) == s and not s.startswith("#")
             and "\n" not in s and "\r" not in s and not _SURROGATE.search(s))
    return s if plain else quote(s)


def _era_number(cell: str, col: int) -> int:
    if cell.upper() in ROMAN:
        return ROMAN[cell.upper()]
    if INT_RE.fullmatch(cell):
        return int(cell)
    raise ParseError(col, f"expected an Era number (1-4 or I-IV), found {cell!r}")



def _is_column_row(cells: list[str]) -> bool:
    """Whether a row is the column row (``time,era,cycle,seat,event,...``): it starts with
    ``time``, or names the ``event`` column and does not start with a header tag; a row that
    starts with a tag (``Seat``, ``Rulings``) is the column row only when every cell it names is
    a column (``seat,event,what``), so that a header value spelled ``event`` (``Rulings,EVENT``)
    stays a header row."""
    low = [c.strip().lower() for c in cells]
    if not low or low[0] == "time":
        return bool(low)
    if "event" not in low:
        return False
    if low[0] not in _TAG_BY_LOWER:
        return True
    return all(c in COLUMNS for c in low if c)

class _SheetReader:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.problems = Problems(source)
        self.header: dict[str, Any] = {}
        self.header_line: int | None = None
        self.events: list[dict[str, Any]] = []
        self.event_lines: list[int | None] = []
        self.columns: dict[str, int] | None = None
        self.era: int | None = None
        self.cycle: int | None = None
        self.era_alt: int | None = None  # an Era the rows say against the era row (reported)
        self.cycle_alt: int | None = None  # likewise for the cycle, or the cycle in sequence

    def rows(self) -> list[tuple[int, list[str]]]:
        """Every CSV row with its first line; an unterminated quote is one problem and reading
        resumes at the next line (:func:`ingest.formats._common.csv_rows`)."""
        return [(n, [restore(c) for c in row])
                for n, row in csv_rows(self.text, self.delimiter(), self.problems)]

    def delimiter(self) -> str:
        """``,`` unless the column row is separated by ``;`` (spreadsheets in many locales) or
        tabs (pasted from a spreadsheet)."""
        for line in self.text.split("\n"):
            low = line.strip().lower()
            if low.startswith("time") and "event" in low:
                for d in (",", ";", "\t"):
                    if f"time{d}" in low:
                        return d
        return ","

    def run(self) -> None:
        rows = self.rows()
        for n, row in rows:  # header rows first: the Date applies to every time
            if self.columns is None and row and row[0].strip() and not row[0].lstrip().startswith("#"):
                if _is_column_row(row):
                    self.columns = {}
                    break
                try:
                    self._tag(n, row)
                except ParseError as err:
                    self.problems.error(n, err.col, err.message)
                except ValueError as err:  # int() of an absurd number (over 4,300 digits)
                    self.problems.error(n, None, value_problem(err))
        date = self.header.get("date")
        self.date = date if isinstance(date, dt.date) else None
        self.columns = None
        for n, row in rows:
            cells = [c.strip() for c in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if self.columns is None:
                if _is_column_row(cells):
                    self._column_row(n, cells)
                continue
            try:
                self._event(n, row)
            except ParseError as err:
                name = self._column_name(err.col)
                i = self.columns.get("seat") if self.columns else None
                seat = seat_of(row[i]) if i is not None and i < len(row) else None
                self.problems.error(n, err.col, f"column {name}: {err.message}" if name else err.message,
                                    seat=seat)
            except ValueError as err:  # int()/float() of an absurd number (over 4,300 digits)
                self.problems.error(n, None, value_problem(err))

    def _column_name(self, col: int | None) -> str | None:
        if self.columns is None or col is None:
            return None
        for name, i in self.columns.items():
            if i + 1 == col:
                return name
        return None

    def _tag(self, n: int, row: list[str]) -> None:
        name = _TAG_BY_LOWER.get(row[0].strip().lower())
        if name is None:
            raise ParseError(1, f"unknown header row {row[0].strip()!r}; expected a tag such as "
                             "Session, Date, Seat or Map, or the column row time,era,cycle,seat,event,...")
        if self.header_line is None:
            self.header_line = n
        values = [(i + 2, c) for i, c in enumerate(row[1:])]
        while values and not values[-1][1].strip():
            values.pop()
        if name == "Seat":
            if len(values) not in (2, 3):
                raise ParseError(1, "a Seat row is: Seat, NUMBER, FACTION, PLAYER (player optional)")
            col, num = values[0]
            if not INT_RE.fullmatch(num.strip()):
                raise ParseError(col, f"expected a seat number, found {num!r}")
            seat: dict[str, Any] = {"seat": int(num), "faction": cell_value(values[1][1])}
            if len(values) == 3:
                seat["player"] = cell_value(values[2][1])
            self.header.setdefault("seats", []).append(seat)
            return
        if name == "Map":
            tiles: dict[str, str] = {}
            for col, c in values:
                pos, eq, tile = c.strip().partition("=")
                if not eq:
                    raise ParseError(col, f"expected POSITION=TILE like I1=research, found {c!r}")
                tiles[pos] = cell_value(tile)
            self.header["map"] = tiles
            return
        if name == "Receipt":
            self.header.setdefault("receipt", {})
            return
        section, fieldname, kind = TAGS[name]
        if not values:  # a header row left blank (as in the template): nothing recorded
            return
        if len(values) != 1:
            raise ParseError(2 if not values else values[1][0] if len(values) > 1 else 2,
                             f"a {name} row has exactly one value")
        col, c = values[0]
        raw = cell_value(c)
        value: Any = raw
        if kind == "bool":
            value = parse_bool(raw, col)
        elif kind == "int":
            if not INT_RE.fullmatch(raw):
                raise ParseError(col, f"expected a whole number, found {raw!r}")
            value = int(raw)
        elif kind == "date":
            try:
                value = dt.date.fromisoformat(raw)
            except ValueError:
                raise ParseError(col, f"expected a date YYYY-MM-DD, found {raw!r}") from None
        elif kind == "json":
            value = json_value(raw, col)
        elif kind == "datetime":
            try:
                value = dt.datetime.fromisoformat(raw)
            except ValueError:
                raise ParseError(col, f"expected a date-time like 2026-11-29T19:00:00Z, found {raw!r}") from None
        target = self.header if not section else self.header.setdefault(section, {})
        if kind == "list":
            target.setdefault(fieldname, []).append(value)
        else:
            target[fieldname] = value

    def _column_row(self, n: int, cells: list[str]) -> None:
        self.columns = {}
        for i, c in enumerate(cells):
            name = c.lower()
            if not name:
                continue
            if name not in COLUMNS:
                self.problems.error(n, i + 1, f"unknown column {c!r}; its cells are ignored "
                                    f"(columns: {', '.join(COLUMNS)})")
                continue
            self.columns[name] = i
        if "event" not in self.columns:
            self.problems.error(n, None, "the column row has no 'event' column; no events can be read")

    def _event(self, n: int, row: list[str]) -> None:
        assert self.columns is not None
        cols = self.columns

        def cell(name: str) -> tuple[str, int]:
            i = cols.get(name)
            if i is None or i >= len(row):
                return "", (i or 0) + 1
            return row[i].strip(), i + 1

        verb_cell, vcol = cell("event")
        if not verb_cell:
            raise ParseError(vcol, "this row has no event")
        verb = verb_cell.lower()
        spec = SPEC_BY_VERB.get(verb)
        if spec is None:
            raise ParseError(vcol, f"unknown event {verb_cell!r}; expected one of: " + ", ".join(sorted(SPEC_BY_VERB)))
        seat_cell, scol = cell("seat")
        seat: int | None = None
        if seat_cell:
            if not INT_RE.fullmatch(seat_cell):
                raise ParseError(scol, f"expected a seat number, found {seat_cell!r}")
            seat = int(seat_cell)
        if spec.seat == "required" and seat is None:
            raise ParseError(scol, f"{verb!r} needs the acting seat in the seat column")
        if spec.seat == "none" and seat is not None:
            raise ParseError(scol, f"{verb!r} is not done by one seat; leave the seat column empty")
        tokens: list[Token] = []
        preset: dict[str, Any] = {}
        era_cell, ecol = cell("era")
        cycle_cell, ccol = cell("cycle")
        # one slip, one problem: a column that disagrees is reported once, then the rows that
        # say the same are read as written until the next era or cycle row; a cycle row that
        # skips a number is checked against the next cycle too (what the engine follows)
        if spec.type == "era_start":
            if era_cell:
                tokens.append(Token(era_cell, ecol))
        elif era_cell and self.era is not None and _era_number(era_cell, ecol) not in (
                self.era, self.era_alt):
            self.problems.error(n, ecol, f"column era: this row says Era {era_cell}, but the last era row began Era {self.era}",
                                seat=seat)
            self.era_alt = _era_number(era_cell, ecol)
        if spec.type == "headline":
            if cycle_cell:
                tokens.append(Token(cycle_cell, ccol))
        elif cycle_cell and self.cycle is not None and cycle_cell not in (
                str(self.cycle), str(self.cycle_alt)) and not (
                self.problems.findings and self.problems.findings[-1].where.line == n):
            # (one problem per row: an Era column that disagreed already said this row's slip)
            self.problems.error(n, ccol, f"column cycle: this row says cycle {cycle_cell}, but the last cycle row began cycle {self.cycle}",
                                seat=seat)
            self.cycle_alt = int(cycle_cell) if cycle_cell.isdigit() else None
        for name in ("what", "piece", "path"):
            c, col = cell(name)
            if c:
                tokens.append(Token(cell_value(c), col, raw=True))
        details, dcol = cell("details")
        if details:
            try:
                tokens += [Token(t.text, dcol, t.comment) for t in tokenize(details)]
            except ParseError as err:
                raise ParseError(dcol, f"{err.message} (character {err.col} of the cell)") from None
        text, tcol = cell("text")
        if text:
            target = _TEXT_FIELD.get(spec.type)
            if target is None:
                raise ParseError(tcol, "the text column is only for observation, survey and checkpoint rows")
            preset[target] = survey_value(text, True, tcol) if target == "value" else cell_value(text)
        comment, _ = cell("comment")
        if comment:
            preset["comment"] = cell_value(comment)
        when, wcol = cell("time")
        if when:
            preset["t"] = parse_time(when, wcol, self.date)
        ev = parse_event(spec, verb, seat, tokens, col0=1, date=self.date, preset=preset)
        if spec.type == "era_start":
            self.era, self.cycle = ev.get("era"), None
            self.era_alt, self.cycle_alt = None, None
        elif spec.type == "headline":
            before = self.cycle or 0
            self.cycle = ev.get("cycle")
            self.cycle_alt = before + 1 if self.cycle != before + 1 else None
        self.events.append(ev)
        self.event_lines.append(n)


def parse_sheet(text: str, source: str) -> tuple[dict[str, Any], int | None, list[int | None], Problems]:
    """Read sheet text into a raw log dict, the header line, each event's line and the parse
    problems. Never raises."""
    r = _SheetReader(text, source)
    r.run()
    if r.columns is None and not r.problems.findings:
        r.problems.error(None, None, "no column row (time,era,cycle,seat,event,...) was found; no events were read")
    obj = {"format": "playtest-log", "format_version": 1, "header": r.header, "events": r.events}
    return obj, r.header_line, r.event_lines, r.problems


def read_sheet(data: bytes, source: str) -> LoadedLog:
    """Read a CSV sheet. Never raises; every problem is a finding."""
    return read_text_log(data, source, "csv", parse_sheet, what="sheet", empty="no header rows and no events")


# --- writing ----------------------------------------------------------------------------------

INSTRUCTIONS = [
    "# Mandate 2038 playtest sheet. Rows starting with # are instructions and are ignored.",
]


def _header_rows(log: MandateLog) -> list[list[str]]:
    h = log.header
    rows: list[list[str]] = [["Game", h.game], ["Rules", cell_text(h.rules_version)]]
    present = h.model_dump(exclude_defaults=True)

    def put(section: str, fieldname: str, value: Any) -> None:
        tag = _TAG_OF_FIELD[(section, fieldname)]
        kind = TAGS[tag][2]
        if kind == "list":
            rows.extend([tag, cell_text(v)] for v in value)
        elif kind == "bool":
            rows.append([tag, fmt_bool(value)])
        elif kind == "int":
            rows.append([tag, str(value)])
        elif kind in ("date", "datetime"):
            rows.append([tag, value.isoformat()])
        elif kind == "json":
            rows.append([tag, cell_text(json_text(value))])
        else:
            rows.append([tag, cell_text(value)])

    for f in ("session_type", "profile", "game_id", "date", "venue", "facilitator", "protocol",
              "detail", "first_initiative", "paced_play", "rulings", "variant", "secret_objectives",
              "tactics", "notes"):
        if f in present:
            put("", f, getattr(h, f))
    for s in h.seats:
        rows.append(["Seat", str(s.seat), cell_text(s.faction or "")]
                    + ([cell_text(s.player)] if s.player is not None else []))
    if h.map is not None:
        rows.append(["Map"] + [f"{k}={cell_text(v)}" for k, v in h.map.items()])
    if h.receipt is not None:
        rec = h.receipt.model_dump(exclude_defaults=True)
        if not rec:
            rows.append(["Receipt"])
        for f in type(h.receipt).model_fields:
            if f in rec:
                put("receipt", f, getattr(h.receipt, f))
    prov = h.provenance.model_dump(exclude_defaults=True)
    for f in type(h.provenance).model_fields:
        if f in prov:
            put("provenance", f, getattr(h.provenance, f))
    return rows


class _SafeWriter:
    """A csv writer whose cells are neutralised against formula injection."""

    def __init__(self, writer: Any) -> None:
        self._w = writer

    def writerow(self, row: Sequence[str]) -> None:
        self._w.writerow([neutralise(c) for c in row])

    def writerows(self, rows: Iterable[Sequence[str]]) -> None:
        for row in rows:
            self.writerow(row)


def write_sheet(log: MandateLog, instructions: list[str] | None = None) -> str:
    """The CSV text of a valid log (exact inverse of :func:`read_sheet`)."""
    buf = io.StringIO()
    w = _SafeWriter(csv.writer(buf, lineterminator="\r\n"))
    for line in instructions if instructions is not None else INSTRUCTIONS:
        w.writerow([line])
    w.writerows(_header_rows(log))
    w.writerow([])
    w.writerow(COLUMNS)
    date = log.header.date
    era: int | None = None
    cycle: int | None = None
    for ev in log.events:
        wr = write_event(ev)
        if ev.type == "era_start":
            era, cycle = ev.era, None
        elif ev.type == "headline":
            cycle = ev.cycle
        if wr.has_value:
            text = fmt_survey_value(wr.value, raw=True)
        elif wr.text is not None:
            text = cell_text(wr.text)
        else:
            text = ""
        w.writerow([
            fmt_time(wr.t, date) if wr.t is not None else "",
            ROMAN_OF.get(era, str(era)) if era is not None else "",
            str(cycle) if cycle is not None else "",
            str(wr.seat) if wr.seat is not None else "",
            _SHEET_VERB.get(wr.verb, wr.verb),
            cell_text(wr.what) if wr.what is not None else "",
            wr.piece or "",
            wr.path or "",
            " ".join(wr.args),
            text,
            cell_text(wr.comment) if wr.comment is not None else "",
        ])
    return buf.getvalue()
