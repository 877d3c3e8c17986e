"""The Mandate 2038 text notation (``.m38``): a PGN-like log a facilitator can type at the table.

Grammar and examples: docs/formats.md. In short: ``[Tag value]`` header lines, then one line per
event: ``== Era I mandate`` and ``-- Cycle 1 headline`` markers, ``-- Production`` phase
markers, ``[SEAT] VERB ARGS [@time] [{comment}]`` for everything else, ``! category "text"``
for observations and ``? item value`` for survey answers. ``#`` starts a line that is a remark
about the file itself and is not part of the game log.

:func:`read_notation` never raises: each bad line becomes a ``log/parse-error`` finding naming
its line and column, and the other lines are still read. :func:`write_notation` is its exact
inverse on every valid log: ``read(write(log)) == log``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from ingest.formats._common import LoadedLog, Problems, read_text_log, seat_of, value_problem
from ingest.formats.tokens import (
    INT_RE,
    SAFE,
    ParseError,
    Token,
    fmt_bool,
    fmt_comment,
    fmt_str,
    fmt_time,
    parse_bool,
    parse_int,
    parse_str,
    quote,
    tokenize,
)
from ingest.mandate2038.events import (
    PHASES,
    ROMAN_OF,
    SPEC_BY_VERB,
    Written,
    fmt_survey_value,
    parse_event,
    write_event,
)
from schemas.mandate2038 import MandateLog

# tag -> (section, field, kind); section "" is the header itself
TAGS: dict[str, tuple[str, str, str]] = {
    "Game": ("", "game", "str"),
    "Rules": ("", "rules_version", "str"),
    "Session": ("", "session_type", "str"),
    "Profile": ("", "profile", "str"),
    "GameId": ("", "game_id", "str"),
    "Date": ("", "date", "date"),
    "Venue": ("", "venue", "str"),
    "Facilitator": ("", "facilitator", "str"),
    "Protocol": ("", "protocol", "str"),
    "Detail": ("", "detail", "str"),
    "FirstInitiative": ("", "first_initiative", "int"),
    "PacedPlay": ("", "paced_play", "bool"),
    "Rulings": ("", "rulings", "str"),
    # the rules variant played (docs/variants.md): its stamp as one JSON object
    "Variant": ("", "variant", "json"),
    "SecretObjectives": ("", "secret_objectives", "bool"),
    "Tactics": ("", "tactics", "bool"),
    "Notes": ("", "notes", "str"),
    "SessionId": ("receipt", "session_id", "str"),
    "PlayedAt": ("receipt", "played_at", "datetime"),
    "ReceiptRules": ("receipt", "rules_version", "str"),
    "ExecutableVersion": ("receipt", "executable_version", "str"),
    "SourceCommit": ("receipt", "source_commit", "str"),
    "RulesetFingerprint": ("receipt", "ruleset_fingerprint", "str"),
    "KitFingerprint": ("receipt", "playtest_kit_fingerprint", "str"),
    "VariantFingerprint": ("receipt", "variant_fingerprint", "str"),
    "KitId": ("receipt", "kit_id", "str"),
    "ComponentRevision": ("receipt", "component_revision", "str"),
    "ExecutableRevision": ("receipt", "executable_revision", "str"),
    "KitLabel": ("receipt", "kit_label", "str"),
    "MixedRevisions": ("receipt", "mixed_revisions", "bool"),
    "KitException": ("receipt", "kit_exceptions", "list"),
    "BoardSeed": ("receipt", "board_seed", "str"),
    "Deviation": ("receipt", "rules_deviations", "list"),
    "Intervention": ("receipt", "facilitator_interventions", "list"),
    "SourceFormat": ("provenance", "source_format", "str"),
    "SourceName": ("provenance", "source_name", "str"),
    "Generator": ("provenance", "generator", "str"),
    "Illustrative": ("provenance", "illustrative", "bool"),
    "Description": ("provenance", "description", "str"),
}
_TAG_BY_LOWER = {k.lower(): k for k in (*TAGS, "Seat", "Map", "Receipt")}
_FAC = re.compile(r"f[0-9]+")
_TAG_OF_FIELD = {(sec, f): tag for tag, (sec, f, _) in TAGS.items()}


# --- reading ----------------------------------------------------------------------------------


def json_value(text: str, col: int) -> Any:
    """A header value written as one JSON object (a variant's stamp)."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ParseError(col, f"expected a JSON object, found {text[:60]!r} ({exc})") from None
    if not isinstance(value, dict):
        raise ParseError(col, f"expected a JSON object, found {text[:60]!r}")
    return value


def json_text(value: Any) -> str:
    """The JSON text of a header value written as one object (:func:`json_value` reads it)."""
    data = value.model_dump() if hasattr(value, "model_dump") else value
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # key order kept


def _tag_value(kind: str, tok: Token) -> Any:
    if kind == "str" or kind == "list":
        return parse_str(tok.text, tok.col)
    if kind == "json":
        return json_value(parse_str(tok.text, tok.col), tok.col)
    if kind == "bool":
        return parse_bool(tok.text, tok.col)
    if kind == "int":
        return parse_int(tok.text, tok.col)
    if kind == "date":
        try:
            return dt.date.fromisoformat(tok.text)
        except ValueError:
            raise ParseError(tok.col, f"expected a date YYYY-MM-DD, found {tok.text!r}") from None
    try:
        return dt.datetime.fromisoformat(tok.text)
    except ValueError:
        raise ParseError(tok.col, f"expected a date-time like 2026-11-29T19:00:00Z, found {tok.text!r}") from None


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.lines = text.split("\n")
        self.problems = Problems(source)
        self.header: dict[str, Any] = {}
        self.header_line: int | None = None
        self.events: list[dict[str, Any]] = []
        self.event_lines: list[int | None] = []
        self.date: dt.date | None = None

    def run(self) -> None:
        # tags first, so that the [Date] tag applies to every @time wherever it is written
        for n, line in enumerate(self.lines, 1):
            s = line.strip()
            if s.startswith("["):
                self._guard(n, line, self._tag)
        date = self.header.get("date")
        self.date = date if isinstance(date, dt.date) else None
        for n, line in enumerate(self.lines, 1):
            s = line.strip()
            if not s or s.startswith("#") or s.startswith("["):
                continue
            self._guard(n, line, self._event)

    def _guard(self, n: int, line: str, fn: Any) -> None:
        try:
            fn(n, line.rstrip("\r"))
        except ParseError as err:
            first = line.split(None, 1)[0] if line.split() else ""
            self.problems.error(n, err.col, err.message, seat=seat_of(first))
        except ValueError as err:  # int()/float() of an absurd number (over 4,300 digits)
            self.problems.error(n, None, value_problem(err))

    # [Tag value ...]
    def _tag(self, n: int, line: str) -> None:
        start = line.index("[")
        end = line.rstrip().rfind("]")
        if end <= start:
            raise ParseError(len(line.rstrip()) + 1, "expected ']' at the end of the tag line")
        if line[end + 1 :].strip():
            raise ParseError(end + 2 + len(line[end + 1 :]) - len(line[end + 1 :].lstrip()),
                             "unexpected text after ']'; a tag line holds one tag")
        toks = tokenize(line[start + 1 : end], start + 2)
        if not toks:
            raise ParseError(start + 1, "empty tag: expected [Name value]")
        name = _TAG_BY_LOWER.get(toks[0].text.lower())
        if name is None:
            raise ParseError(toks[0].col, f"unknown tag {toks[0].text!r}; known tags: "
                             + ", ".join(sorted(_TAG_BY_LOWER.values())))
        if self.header_line is None:
            self.header_line = n
        args = toks[1:]
        if name == "Seat":
            self._seat_tag(toks[0], args)
        elif name == "Map":
            self._map_tag(args)
        elif name == "Receipt":
            if args:
                raise ParseError(args[0].col, "[Receipt] takes no value")
            self.header.setdefault("receipt", {})
        else:
            section, fieldname, kind = TAGS[name]
            if len(args) != 1:
                col = args[1].col if len(args) > 1 else toks[0].col + len(toks[0].text)
                raise ParseError(col, f"[{name}] takes exactly one value (quote it if it has blanks)")
            value = _tag_value(kind, args[0])
            target = self.header if not section else self.header.setdefault(section, {})
            if kind == "list":
                target.setdefault(fieldname, []).append(value)
            elif fieldname in target:
                raise ParseError(toks[0].col, f"[{name}] is given twice")
            else:
                target[fieldname] = value

    def _seat_tag(self, tag: Token, args: list[Token]) -> None:
        if len(args) not in (2, 3):
            raise ParseError(tag.col, '[Seat] expects: [Seat NUMBER FACTION "PLAYER"]')
        faction, player = args[1], args[2] if len(args) == 3 else None
        if player is not None and faction.text.startswith('"') and not player.text.startswith('"'):
            faction, player = player, faction  # [Seat 1 "Ana" mirevanta] reads too
        seat: dict[str, Any] = {
            "seat": parse_int(args[0].text, args[0].col, "a seat number"),
            "faction": parse_str(faction.text, faction.col),
        }
        if player is not None:
            seat["player"] = parse_str(player.text, player.col)
        self.header.setdefault("seats", []).append(seat)

    def _map_tag(self, args: list[Token]) -> None:
        if "map" in self.header:
            raise ParseError(args[0].col if args else 1, "[Map] is given twice")
        tiles: dict[str, str] = {}
        for tok in args:
            pos, eq, tile = tok.text.partition("=")
            if not eq:
                raise ParseError(tok.col, f"expected POSITION=TILE like I1=research, found {tok.text!r}")
            if pos in tiles:
                raise ParseError(tok.col, f"map position {pos} is given twice")
            tiles[pos] = parse_str(tile, tok.col + len(pos) + 1)
        self.header["map"] = tiles

    # event lines
    def _event(self, n: int, line: str) -> None:
        stripped = line.lstrip()
        col0 = len(line) - len(stripped) + 1
        seat: int | None = None
        if stripped.startswith("=="):
            toks = tokenize(stripped[2:], col0 + 2)
            if not toks or toks[0].text.lower() != "era":
                raise ParseError(col0 + 2, "expected '== Era N' (an Era marker)")
            verb, args = "era", toks[1:]
        elif stripped.startswith("--"):
            toks = tokenize(stripped[2:], col0 + 2)
            if not toks:
                raise ParseError(col0 + 2, "expected '-- Cycle N' or a phase such as '-- Production'")
            if toks[0].text.lower() == "cycle":
                verb, args = "cycle", toks[1:]
            else:
                words: list[str] = []
                while toks and toks[0].comment is None and SAFE.fullmatch(toks[0].text) and "=" not in toks[0].text:
                    words.append(toks.pop(0).text.lower())
                name = "_".join(words)
                if name not in PHASES:
                    raise ParseError(col0 + 2, f"unknown marker '-- {' '.join(words)}'; expected Cycle N "
                                     "or one of: " + ", ".join(p.replace("_", " ") for p in PHASES))
                verb, args = "phase", [Token(name, col0 + 3), *toks]
        elif stripped.startswith("{") and len(toks := tokenize(stripped, col0)) == 1:
            assert toks[0].comment is not None
            self._add(n, {"type": "observation", "category": "other", "text": toks[0].comment})
            return
        else:
            toks = tokenize(stripped, col0)
            if toks and INT_RE.fullmatch(toks[0].text):
                seat = int(toks[0].text)
                toks = toks[1:]
                if not toks:
                    raise ParseError(col0 + len(stripped), "expected an event after the seat number")
            first = toks[0]
            if first.comment is not None:
                raise ParseError(first.col, "expected an event before the comment")
            if first.text[:1] in "!?" and len(first.text) > 1:
                toks = [Token(first.text[0], first.col), Token(first.text[1:], first.col + 1), *toks[1:]]
            verb, args = toks[0].text.lower(), toks[1:]
        spec = SPEC_BY_VERB.get(verb)
        if spec is None:
            raise ParseError(col0 if seat is None else toks[0].col,
                             f"unknown event {verb!r}; expected one of: "
                             + ", ".join(sorted(SPEC_BY_VERB)))
        if spec.seat == "required" and seat is None and args and INT_RE.fullmatch(args[0].text):
            seat, args = int(args[0].text), args[1:]  # "allocate 1 f1 f2" reads as "1 allocate f1 f2"
        if spec.seat == "required" and seat is None:
            raise ParseError(col0, f"{verb!r} needs the acting seat first, e.g. '2 {verb} ...'")
        if spec.seat == "none" and seat is not None:
            raise ParseError(col0, f"{verb!r} is not done by one seat; remove the seat number")
        ev = parse_event(spec, verb, seat, args, line=line, col0=1, date=self.date)
        self._add(n, ev)

    def _add(self, n: int, ev: dict[str, Any]) -> None:
        self.events.append(ev)
        self.event_lines.append(n)


def parse_notation(text: str, source: str) -> tuple[dict[str, Any], int | None, list[int | None], Problems]:
    """Read notation text into a raw log dict (not yet validated), the header line, each
    event's line, and the parse problems. Never raises."""
    r = _Reader(text, source)
    r.run()
    obj = {"format": "playtest-log", "format_version": 1, "header": r.header, "events": r.events}
    return obj, r.header_line, r.event_lines, r.problems


def read_notation(data: bytes, source: str) -> LoadedLog:
    """Read a notation file. Never raises; every problem is a finding."""
    return read_text_log(data, source, "notation", parse_notation, what="notation file", empty="no tags and no events")


# --- writing ----------------------------------------------------------------------------------


def _header_lines(log: MandateLog) -> list[str]:
    h = log.header
    present = h.model_dump(exclude_defaults=True)
    out = [f"[Game {fmt_str(h.game)}]", f"[Rules {fmt_str(h.rules_version)}]"]

    def put(section: str, fieldname: str, value: Any) -> None:
        tag = _TAG_OF_FIELD[(section, fieldname)]
        kind = TAGS[tag][2]
        if kind == "list":
            out.extend(f"[{tag} {quote(v)}]" for v in value)
        elif kind == "bool":
            out.append(f"[{tag} {fmt_bool(value)}]")
        elif kind in ("int", "date", "datetime"):
            out.append(f"[{tag} {value.isoformat() if kind != 'int' else value}]")
        elif kind == "json":
            out.append(f"[{tag} {quote(json_text(value))}]")
        else:
            out.append(f"[{tag} {fmt_str(value)}]")

    for f in ("session_type", "profile", "game_id", "date", "venue", "facilitator", "protocol",
              "detail", "first_initiative", "paced_play", "rulings", "variant", "secret_objectives",
              "tactics"):
        if f in present:
            put("", f, getattr(h, f))
    for s in h.seats:
        parts = [str(s.seat), fmt_str(s.faction or "")] + ([quote(s.player)] if s.player is not None else [])
        out.append(f"[Seat {' '.join(parts)}]")
    if h.map is not None:
        out.append("[Map" + "".join(f" {k}={fmt_str(v)}" for k, v in h.map.items()) + "]")
    if "notes" in present:
        out.append(f"[Notes {quote(h.notes or '')}]")
    if h.receipt is not None:
        rec = h.receipt.model_dump(exclude_defaults=True)
        if not rec:
            out.append("[Receipt]")
        for f in type(h.receipt).model_fields:
            if f in rec:
                put("receipt", f, getattr(h.receipt, f))
    prov = h.provenance.model_dump(exclude_defaults=True)
    for f in type(h.provenance).model_fields:
        if f in prov:
            put("provenance", f, getattr(h.provenance, f))
    return out


def format_line(w: Written, date: dt.date | None) -> str:
    """One event line of the notation."""
    parts: list[str] = []
    if w.verb == "era":
        parts += ["==", "Era", ROMAN_OF.get(w.number or 0, str(w.number))]
    elif w.verb == "cycle":
        parts += ["--", "Cycle", str(w.number)]
    elif w.verb == "phase":
        parts += ["--", (w.what or "").replace("_", " ").capitalize()]
    else:
        if w.seat is not None:
            parts.append(str(w.seat))
        parts.append(w.verb)
    args = list(w.args)
    if w.verb == "checkpoint" and w.text is not None:
        parts.append(quote(w.text))
    if w.what is not None and w.verb != "phase":
        what = fmt_str(w.what)
        if w.verb == "cycle" and (INT_RE.fullmatch(what) or _FAC.fullmatch(what)):
            what = quote(w.what)  # would read back as the cycle or a Facility
        if (w.verb == "draw" and args and args[0].startswith("domain=") and SAFE.fullmatch(w.what)
                and w.what not in ("card", "domain", "seat", "t", "comment")):
            what += args.pop(0)[len("domain"):]
        parts.append(what)
    if w.piece is not None:
        parts.append(w.piece)
    if w.path is not None:
        parts.append(w.path)
    parts += args
    if w.text is not None and w.verb != "checkpoint":
        parts.append(quote(w.text))
    if w.has_value:
        parts.append(fmt_survey_value(w.value, raw=False))
    if w.t is not None:
        parts.append("@" + fmt_time(w.t, date))
    if w.comment is not None:
        parts.append(fmt_comment(w.comment))
    return " ".join(parts)


def write_notation(log: MandateLog) -> str:
    """The notation text of a valid log (exact inverse of :func:`read_notation`)."""
    out = _header_lines(log)
    date = log.header.date
    for ev in log.events:
        if ev.type == "era_start":
            out.append("")
        out.append(format_line(write_event(ev), date))
    return "\n".join(out) + "\n"
