"""The Pig score sheet (``.pig``): the game written the way a scorekeeper writes it (README, "The
log").

::

    # Pig score sheet                 (a line starting with # is a comment)
    game: pig
    session_type: facilitated_playtest
    seats: 1=Ada, 2=Brook
    target: 100
    1: 4 6(10) hold =10               (a turn: the seat, its rolls, hold and the score written;
                                       "6(10)": a roll of 6, the running turn total 10)
    2: 1                              (a turn that ended on a 1)
    final: 1=104 2=71 winners=1       (the final record)

Header lines (``key: value``) come first: ``game``, ``rules_version``, ``session_type``,
``game_id``, ``date``, ``venue``, ``facilitator``, ``protocol``, ``detail``, ``notes``,
``target``, ``first_player``, ``rulings`` (e.g. ``equal-turns``: the house rule of §4.2),
``seats`` and
``provenance.<field>``. Then one line per turn (a turn may run over several lines: a line is one
seat's run of rolls). :func:`read_pig_sheet` never raises: a bad line or word is a
``log/parse-error`` finding with its line and column, and the rest is still read.
:func:`write_pig_sheet` is its exact inverse on every log it can express (rolls, holds, the final
record, the header fields above); a log with more (timestamps, comments, observations) raises
ValueError: write it as JSON.
"""

from __future__ import annotations

import re
from typing import Any

from engine.api import LoadedLog, Problems, read_text_log, unreadable
from playtest_pig.schema import Final, Hold, PigHeader, PigLog, Roll

FORMAT = "pig-sheet"
SUFFIXES = (".pig",)
#: finds a Pig sheet whatever its name: a ``game: pig`` line
MARK = rb"(?im)^[ \t]*game[ \t]*:[ \t]*pig[ \t]*\r?$"

HEADER_KEYS = ("game", "rules_version", "session_type", "game_id", "date", "venue",
               "facilitator", "protocol", "detail", "notes", "target", "first_player",
               "rulings")
PROVENANCE_KEYS = ("source_format", "source_name", "generator", "illustrative", "description")
_TURN = re.compile(r"^\s*(\d+)\s*:(.*)$")
_HEAD = re.compile(r"^\s*([A-Za-z_][A-Za-z_.]*)\s*:(.*)$")


class _Bad(Exception):
    def __init__(self, col: int, message: str) -> None:
        super().__init__(message)
        self.col, self.message = col, message


def _words(text: str, offset: int) -> list[tuple[int, str]]:
    """(1-based column, word) of every word of ``text``, which starts at column ``offset``."""
    return [(m.start() + offset, m.group()) for m in re.finditer(r"\S+", text)]


def _int(word: str, col: int, what: str) -> int:
    if not re.fullmatch(r"-?\d{1,9}", word):
        raise _Bad(col, f"{what} must be a whole number, not {word[:40]!r}")
    return int(word)


def _turn(seat: int, rest: str, col0: int, line: int, problems: Problems,
          events: list[dict[str, Any]], lines: list[int | None]) -> None:
    words = _words(rest, col0)
    i = 0
    while i < len(words):
        col, word = words[i]
        try:
            if word.lower() in ("hold", "h"):
                ev: dict[str, Any] = {"type": "hold", "seat": seat}
                events.append(ev)
                lines.append(line)
                if i + 1 < len(words) and words[i + 1][1].startswith("="):
                    i += 1
                    ncol, nword = words[i]
                    ev["score"] = _int(nword[1:], ncol + 1, "the score after '='")
                i += 1
                continue
            if word.startswith("="):
                raise _Bad(col, "a written score '=N' follows 'hold'")
            face_text, paren, total_text = word.partition("(")
            roll: dict[str, Any] = {"type": "roll", "seat": seat,
                                    "face": _int(face_text, col, "a roll")}
            if paren:
                if not total_text.endswith(")"):
                    raise _Bad(col, f"a running total is written 'roll(total)', not {word[:40]!r}")
                roll["total"] = _int(total_text[:-1], col + len(face_text) + 1,
                                     "the running total in '(...)'")
            events.append(roll)
            lines.append(line)
        except _Bad as err:
            problems.error(line, err.col, err.message)
        i += 1


def _final(rest: str, col0: int) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "final"}
    for col, word in _words(rest, col0):
        key, sep, value = word.partition("=")
        if not sep:
            raise _Bad(col, f"expected seat=score or winners=..., not {word[:40]!r}")
        if key.lower() == "winners":
            ev["winners"] = [_int(w, col, "a winner") for w in value.split(",") if w]
        else:
            seat = _int(key, col, "a seat")
            ev.setdefault("scores", {})[seat] = _int(value, col + len(key) + 1, "a score")
    return ev


def _seats(value: str, col: int) -> list[dict[str, Any]]:
    seats = []
    for part in value.split(","):
        seat_text, sep, player = part.strip().partition("=")
        seat: dict[str, Any] = {"seat": _int(seat_text.strip(), col, "a seat number")}
        if sep:
            seat["player"] = player.strip()
        seats.append(seat)
    return seats


def _header_line(key: str, value: str, col: int, header: dict[str, Any]) -> None:
    low = key.lower()
    if low == "seats":
        target, name = header, "seats"
        parsed: Any = _seats(value, col)
    elif low.startswith("provenance.") and low[len("provenance."):] in PROVENANCE_KEYS:
        name = low[len("provenance."):]
        target = header.setdefault("provenance", {})
        parsed = value.lower() == "true" if name == "illustrative" else value
    elif low in HEADER_KEYS:
        target, name = header, low
        parsed = _int(value, col, low) if low in ("target", "first_player") else value
    else:
        raise _Bad(1, f"unknown header field {key[:40]!r}")
    if name in target:
        raise _Bad(1, f"header field {key[:40]!r} given twice")
    target[name] = parsed


def parse_pig_sheet(text: str, source: str) -> tuple[dict[str, Any], int | None,
                                                     list[int | None], Problems]:
    """(log object, header line, event lines, problems) of a score sheet's text."""
    problems = Problems(source)
    header: dict[str, Any] = {}
    header_line: int | None = None
    events: list[dict[str, Any]] = []
    lines: list[int | None] = []
    for n, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            turn = _TURN.match(line)
            if turn:
                seat = int(turn.group(1)) if len(turn.group(1)) < 4 else 0
                _turn(seat, turn.group(2), turn.start(2) + 1, n, problems, events, lines)
                continue
            head = _HEAD.match(line)
            if head is None:
                raise _Bad(1, "expected 'key: value', 'seat: rolls ... hold' or 'final: ...'")
            key, value = head.group(1), head.group(2).strip()
            if key.lower() == "final":
                events.append(_final(head.group(2), head.start(2) + 1))
                lines.append(n)
                continue
            if events:
                raise _Bad(1, "header lines come before the first turn")
            _header_line(key, value, head.start(2) + 1, header)
            header_line = header_line or n
        except _Bad as err:
            problems.error(n, err.col, err.message)
    if header or events:
        header.setdefault("game", "pig")
    obj = {"format": "playtest-log", "format_version": 1, "header": header, "events": events}
    return obj, header_line, lines, problems


def read_pig_sheet(data: bytes, source: str) -> LoadedLog:
    """Read a score sheet's bytes. Never raises; problems are findings with their line."""
    try:
        return read_text_log(data, source, FORMAT, parse_pig_sheet, what="score sheet",
                             empty="it is empty", title="Pig")
    except Exception as err:  # noqa: BLE001 - a reader never raises
        return unreadable(source, FORMAT, data,
                          f"could not read the Pig score sheet ({type(err).__name__}: {err})")


def loads_pig_sheet(text: str) -> PigLog:
    """A score sheet's text as a log; ValueError on the first problem (tests and tools)."""
    obj, _, _, problems = parse_pig_sheet(text, "<text>")
    if problems.findings:
        raise ValueError(problems.findings[0].message)
    return PigLog.model_validate(obj)


def _one_line(key: str, value: Any) -> str:
    text = str(value)
    if "\n" in text or "\r" in text or text != text.strip() or (key == "player" and "," in text):
        raise ValueError(f"the {key} {text[:40]!r} cannot be written on one sheet line; "
                         "write the log as JSON")
    return text


def _header_lines(h: PigHeader) -> list[str]:
    body = h.model_dump(mode="json", exclude_defaults=True)
    out = ["game: pig"]
    extra = set(body) - set(HEADER_KEYS) - {"seats", "provenance"}
    if extra:
        raise ValueError(f"the header's {sorted(extra)} cannot be written on a Pig score sheet; "
                         "write the log as JSON")
    for key in HEADER_KEYS[1:]:
        if key == "rules_version" or key in body:
            out.append(f"{key}: {_one_line(key, getattr(h, key))}")
    seats = []
    for s in h.seats:
        if s.faction is not None:
            raise ValueError("Pig seats have no faction; write the log as JSON")
        seats.append(str(s.seat) if s.player is None else f"{s.seat}={_one_line('player', s.player)}")
    out.append("seats: " + ", ".join(seats))
    for key, value in body.get("provenance", {}).items():
        text = str(value).lower() if isinstance(value, bool) else _one_line(key, value)
        out.append(f"provenance.{key}: {text}")
    return out


def write_pig_sheet(log: PigLog) -> str:
    """The score sheet of ``log``; ValueError for what a sheet cannot hold (write JSON)."""
    out = ["# Pig score sheet (examples/pig/README.md)", *_header_lines(log.header)]
    run: list[str] = []
    run_seat: int | None = None

    def flush() -> None:
        nonlocal run, run_seat
        if run_seat is not None:
            out.append(f"{run_seat}: " + " ".join(run))
        run, run_seat = [], None

    for ev in log.events:
        if getattr(ev, "t", None) is not None or getattr(ev, "comment", None) is not None:
            raise ValueError("a Pig score sheet has no times or comments; write the log as JSON")
        if isinstance(ev, Roll | Hold):
            if run_seat is not None and run_seat != ev.seat:
                flush()
            run_seat = ev.seat
            if isinstance(ev, Roll):
                run.append(str(ev.face) if ev.total is None else f"{ev.face}({ev.total})")
                if ev.face == 1:
                    flush()
            else:
                run.append("hold" if ev.score is None else f"hold ={ev.score}")
                flush()
        elif isinstance(ev, Final):
            flush()
            words = [f"{s}={v}" for s, v in (ev.scores or {}).items()]
            if ev.winners is not None:
                words.append("winners=" + ",".join(map(str, ev.winners)))
            out.append(" ".join(["final:", *words]).rstrip())
        else:
            raise ValueError(f"a Pig score sheet has no {ev.type!r} events; write the log as JSON")
    flush()
    return "\n".join(out) + "\n"
