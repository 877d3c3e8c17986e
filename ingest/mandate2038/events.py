"""One event <-> one line of arguments: the event grammar shared by the notation and the sheet.

An event is written as ``[SEAT] VERB ARGUMENT...`` (docs/formats.md has the grammar). Every field
of every event can be written as ``field=value``; the common fields also have short forms
(``venture``, ``team``, ``F-I1``, ``+frontier``, ``f2``, ``accepted``, ``1:build`` ...) which the
writer uses. :func:`parse_event` turns tokens into a plain dict for the validator;
:func:`write_event` turns a validated event into :class:`Written` parts that the notation and
the sheet lay out in their own way.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ingest.formats.tokens import (
    FLOAT_RE,
    INT_RE,
    PATH_RE,
    ParseError,
    Token,
    fmt_bool,
    fmt_float,
    fmt_list,
    fmt_str,
    parse_bool,
    parse_float,
    parse_int,
    parse_list,
    parse_path,
    parse_str,
    parse_time,
    quote,
)

ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}
ROMAN_OF = {v: k for k, v in ROMAN.items()}
SEAT_VALUE_KEYS = {  # short key -> SeatValues field
    "m": "mandate", "r": "runway", "c": "compute", "cap": "capability", "cu": "customers",
    "t": "trust", "s": "scrutiny",
}
SEAT_VALUE_SHORT = {v: k for k, v in SEAT_VALUE_KEYS.items()}
SEAT_VALUE_ORDER = ["mandate", "runway", "compute", "capability", "customers", "trust", "scrutiny"]
_SV_RE = re.compile(r"(cap|cu|m|r|c|t|s)(-?[0-9]+)")
_FAC_RE = re.compile(r"f([0-9]+)")
_MC_RE = re.compile(r"mc(-?[0-9]+)")
_SEATPAIR_RE = re.compile(r"([0-9]+):(.*)")
PHASES = ("setup", "setup_end", "production", "dossier", "audit", "scoring", "final_scoring",
          "game_end", "break", "resume")


# --- value kinds for field=value --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kind:
    """How one field's value is written in one token and read back."""

    parse: Callable[[str, int], Any]
    fmt: Callable[[Any], str]


def _word(text: str, col: int) -> str:
    return parse_str(text, col)


def _hexlist_item(text: str, col: int) -> str:
    return text


def _step_parse(text: str, col: int) -> dict[str, Any]:
    piece, sep, path = text.partition(":")
    if not sep or piece not in ("ceo", "team"):
        raise ParseError(col, f"expected PIECE:PATH like team:I1-I2, found {text!r}")
    return {"piece": piece, "path": parse_path(path, col + len(piece) + 1)}


def _step_fmt(step: dict[str, Any]) -> str:
    return f"{step['piece']}:{'-'.join(step['path'])}"


def _orbital_parse(text: str, col: int) -> dict[str, Any]:
    fac, sep, to = text.partition(":")
    m = _FAC_RE.fullmatch(fac) or (re.fullmatch(r"([0-9]+)", fac))
    if not sep or not m:
        raise ParseError(col, f"expected FACILITY:HEX like f2:O5, found {text!r}")
    return {"facility": int(m.group(1)), "to": to}


def _pair_parse(text: str, col: int) -> tuple[int, int]:
    seat, sep, val = text.partition(":")
    if not sep:
        raise ParseError(col, f"expected SEAT:NUMBER like 2:1, found {text!r}")
    return parse_int(seat, col, "a seat number"), parse_int(val, col + len(seat) + 1)


INT = Kind(lambda t, c: parse_int(t, c), str)
FLOAT = Kind(lambda t, c: parse_float(t, c), fmt_float)
BOOL = Kind(lambda t, c: parse_bool(t, c), fmt_bool)
STR = Kind(_word, fmt_str)
PATH = Kind(lambda t, c: parse_path(t, c), lambda v: "-".join(v))
HEXLIST = Kind(lambda t, c: parse_list(t, c, _hexlist_item), lambda v: fmt_list(list(v)))
INTLIST = Kind(lambda t, c: parse_list(t, c, lambda x, k: parse_int(x, k)),
               lambda v: fmt_list([str(x) for x in v]))
STRLIST = Kind(lambda t, c: parse_list(t, c, _word), lambda v: fmt_list([fmt_str(x) for x in v]))
STEP = Kind(_step_parse, _step_fmt)
STEPLIST = Kind(lambda t, c: parse_list(t, c, _step_parse), lambda v: fmt_list([_step_fmt(s) for s in v]))
TEAMMOVES = Kind(
    lambda t, c: [{"path": p} for p in parse_list(t, c, lambda x, k: parse_path(x, k))],
    lambda v: fmt_list(["-".join(m["path"]) for m in v]),
)
ORBITAL = Kind(_orbital_parse, lambda v: f"f{v['facility']}:{v['to']}")
OFFLINE = Kind(
    lambda t, c: dict(parse_list(t, c, _pair_parse)),
    lambda v: fmt_list([f"{k}:{n}" for k, n in v.items()]),
)
CLAIMS = Kind(
    lambda t, c: [{"seat": s, "strength": n} for s, n in parse_list(t, c, _pair_parse)],
    lambda v: fmt_list([f"{x['seat']}:{x['strength']}" for x in v]),
)

TURN_KEYS: dict[str, Kind] = {
    "piece": STR, "path": PATH, "frontier_bonus": BOOL, "swarm": BOOL, "orbital": ORBITAL,
    "blocked": BOOL,
}
TURN_FLAGS = {"+frontier": "frontier_bonus", "+swarm": "swarm", "+blocked": "blocked"}
TURN_FLAG_OF = {v: k for k, v in TURN_FLAGS.items()}


# --- parsing ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Ctx:
    """The event being read from one line: tokens fill ``ev``; each field at most once."""

    spec: Spec
    ev: dict[str, Any]
    line: str = ""
    col0: int = 1
    date: dt.date | None = None
    time_token: Token | None = None
    stop: bool = False

    def set(self, name: str, value: Any, tok: Token) -> None:
        if name in self.ev:
            raise ParseError(tok.col, f"{name} is given twice")
        self.ev[name] = value

    def text(self, tok: Token) -> str:
        """A string argument: raw sheet cells verbatim, notation tokens unquoted."""
        if tok.raw:
            return tok.text
        return parse_str(tok.text, tok.col)


Positional = Callable[[Ctx, Token], bool]


@dataclass(slots=True)
class Spec:
    """The grammar of one event type."""

    type: str
    verbs: tuple[str, ...]
    seat: str  # "required" | "optional" | "none"
    keys: dict[str, Kind]
    positional: Positional | None = None
    expected: str = ""  # what the positional arguments look like, for error messages
    modes: tuple[str, ...] = ()
    mode_field: str = "mode"
    flags: dict[str, str] = field(default_factory=dict)
    facility_sugar: bool = False


def _turn_positional(ctx: Ctx, tok: Token) -> bool:
    s, t = ctx.spec, tok.text
    if not PATH_RE.fullmatch(t):
        t = t.lower()  # the fixed words (modes, pieces, flags, fN) read in any case
    if t in s.modes:
        ctx.set(s.mode_field, t, tok)
    elif t in ("ceo", "team"):
        ctx.set("piece", t, tok)
    elif t in s.flags:
        ctx.set(s.flags[t], True, tok)
    elif PATH_RE.fullmatch(t):
        ctx.set("path", re.split("[->]", t), tok)
    elif s.facility_sugar and _FAC_RE.fullmatch(t):
        ctx.set("facility", int(t[1:]), tok)
    elif s.type == "influence" and t in ("accepted", "rejected"):
        ctx.set("accepted", t == "accepted", tok)
    else:
        return False
    return True


def _era_positional(ctx: Ctx, tok: Token) -> bool:
    if "era" not in ctx.ev and (tok.text.upper() in ROMAN or INT_RE.fullmatch(tok.text)):
        ctx.set("era", ROMAN.get(tok.text.upper()) or int(tok.text), tok)
    elif "era" in ctx.ev and "mandate" not in ctx.ev:
        ctx.set("mandate", ctx.text(tok), tok)
    else:
        return False
    return True


def _cycle_positional(ctx: Ctx, tok: Token) -> bool:
    if "cycle" not in ctx.ev and INT_RE.fullmatch(tok.text):
        ctx.set("cycle", int(tok.text), tok)
    elif _FAC_RE.fullmatch(tok.text) and not tok.raw:
        ctx.set("facility", int(tok.text[1:]), tok)
    elif "cycle" in ctx.ev and "headline" not in ctx.ev:
        ctx.set("headline", ctx.text(tok), tok)
    else:
        return False
    return True


def _phase_positional(ctx: Ctx, tok: Token) -> bool:
    if "name" in ctx.ev:
        return False
    ctx.set("name", ctx.text(tok).strip().lower().replace(" ", "_"), tok)
    return True


def _one_word(fieldname: str) -> Positional:
    def handler(ctx: Ctx, tok: Token) -> bool:
        if fieldname in ctx.ev:
            return False
        ctx.set(fieldname, ctx.text(tok), tok)
        return True

    return handler


def _window_positional(ctx: Ctx, tok: Token) -> bool:
    parts = tok.text.split(":")
    if len(parts) < 2:
        return False
    offer: dict[str, Any] = {
        "to": parse_int(parts[0], tok.col, "a seat number"),
        "price": parse_int(parts[1], tok.col + len(parts[0]) + 1, "a Runway price"),
    }
    rest = parts[2:]
    if rest and not INT_RE.fullmatch(rest[0]) and rest[0].lower() not in ("yes", "no"):
        offer["answer"] = rest.pop(0)
    for part in rest:
        if INT_RE.fullmatch(part) and "counter_price" not in offer:
            offer["counter_price"] = int(part)
        elif part.lower() in ("yes", "no") and "counter_accepted" not in offer:
            offer["counter_accepted"] = part.lower() == "yes"
        else:
            raise ParseError(tok.col, f"expected TO:PRICE[:ANSWER][:COUNTER][:yes|no], found {tok.text!r}")
    ctx.ev.setdefault("offers", []).append(offer)
    return True


def _reveal_positional(ctx: Ctx, tok: Token) -> bool:
    m = _SEATPAIR_RE.fullmatch(tok.text)
    if not m:
        return False
    ctx.ev.setdefault("selections", []).append({"seat": int(m.group(1)), "pick": m.group(2)})
    return True


def _trade_positional(ctx: Ctx, tok: Token) -> bool:
    t = tok.text.lower()
    if t == "give" and "give" not in ctx.ev:
        return True
    if INT_RE.fullmatch(t):
        ctx.set("rival", int(t), tok)
    elif t in ("runway", "compute"):
        ctx.set("give", t, tok)
    elif t in ("accepted", "rejected"):
        ctx.set("accepted", t == "accepted", tok)
    else:
        return False
    return True




def _draw_positional(ctx: Ctx, tok: Token) -> bool:
    if "card" in ctx.ev:
        return False
    text = tok.text
    if not tok.raw and not text.startswith('"') and "=" in text:
        card, _, domain = text.partition("=")
        ctx.set("card", card, tok)
        ctx.set("domain", parse_str(domain, tok.col + len(card) + 1), tok)
    else:
        ctx.set("card", ctx.text(tok), tok)
    return True


def _run_end_positional(ctx: Ctx, tok: Token) -> bool:
    if tok.text in ("bank", "crash", "protect", "method"):
        ctx.set("outcome", tok.text, tok)
    elif INT_RE.fullmatch(tok.text):
        ctx.set("banked", int(tok.text), tok)
    else:
        return False
    return True


def _allocate_positional(ctx: Ctx, tok: Token) -> bool:
    items = tok.text.split(",")
    if all(_FAC_RE.fullmatch(x) for x in items):
        ctx.ev.setdefault("facilities", []).extend(int(x[1:]) for x in items)
    elif all(_MC_RE.fullmatch(x) for x in items):
        ctx.ev.setdefault("mega_clusters", []).extend(int(x[2:]) for x in items)
    else:
        return False
    return True


def _workforce_positional(ctx: Ctx, tok: Token) -> bool:
    if _FAC_RE.fullmatch(tok.text):
        ctx.set("facility", int(tok.text[1:]), tok)
    elif PATH_RE.fullmatch(tok.text):
        ctx.set("path", re.split("[->]", tok.text), tok)
    else:
        return False
    return True


def _dossier_positional(ctx: Ctx, tok: Token) -> bool:
    t = tok.text.lower()
    if t in ("commit", "hedge"):
        ctx.set("orientation", t, tok)
    elif t == "sealed":
        ctx.set("orientation", None, tok)
    else:
        return False
    return True


_ORIENT = {"c": "commit", "h": "hedge"}
DOSSIER_CARDS = ("benchmark", "deployment", "authority", "publication")


def _hands_positional(ctx: Ctx, tok: Token) -> bool:
    m = _SEATPAIR_RE.fullmatch(tok.text)
    if not m:
        return False
    letters = m.group(2).lower()
    if len(letters) != 4 or any(c not in _ORIENT for c in letters):
        raise ParseError(tok.col + len(m.group(1)) + 1,
                         "expected four letters C (commit) or H (hedge) for Benchmark, "
                         f"Deployment, Authority, Publication; found {m.group(2)!r}")
    hand: dict[str, Any] = {"seat": int(m.group(1))}
    for card, c in zip(DOSSIER_CARDS, letters, strict=True):
        hand[card] = _ORIENT[c]
    ctx.ev.setdefault("hands", []).append(hand)
    return True


def _audit_positional(ctx: Ctx, tok: Token) -> bool:
    draws = ctx.ev.setdefault("draws", [])
    for i, part in enumerate(tok.text.split(",")):
        if part == "black":
            draws.append("black")
        elif INT_RE.fullmatch(part):
            draws.append(int(part))
        elif i == 0:
            return False
        else:
            raise ParseError(tok.col, f"expected a seat number or black, found {part!r}")
    return True


def _mandate_positional(ctx: Ctx, tok: Token) -> bool:
    if tok.text == "nobody" and not ctx.ev.get("scorers"):
        ctx.set("scorers", [], tok)
        return True
    if all(INT_RE.fullmatch(x) for x in tok.text.split(",")) and ctx.ev.get("scorers") != []:
        ctx.ev.setdefault("scorers", []).extend(int(x) for x in tok.text.split(","))
        return True
    return False


def _checkpoint_positional(ctx: Ctx, tok: Token) -> bool:
    m = _SEATPAIR_RE.fullmatch(tok.text) if not tok.raw else None
    if m:
        values: dict[str, Any] = {"seat": int(m.group(1))}
        body = m.group(2)
        if body not in ("", "-"):
            pos = tok.col + len(m.group(1)) + 1
            for part in body.split(","):
                key, eq, val = part.partition("=")
                if eq:
                    name = SEAT_VALUE_KEYS.get(key, key)
                    if name not in SEAT_VALUE_ORDER:
                        raise ParseError(pos, f"unknown seat value {key!r}")
                    values[name] = parse_int(val, pos + len(key) + 1)
                else:
                    sv = _SV_RE.fullmatch(part)
                    if not sv:
                        raise ParseError(pos, "expected seat values like m6 r3 c2 cap3 cu1 t3 s2 "
                                              f"(Mandate Runway Compute Capability Customers Trust Scrutiny), found {part!r}")
                    name = SEAT_VALUE_KEYS[sv.group(1)]
                    values[name] = int(sv.group(2))
                pos += len(part) + 1
        ctx.ev.setdefault("seats", []).append(values)
        return True
    if "label" not in ctx.ev and (tok.raw or tok.text.startswith('"')):
        ctx.set("label", ctx.text(tok), tok)
        return True
    return False


def _observation_positional(ctx: Ctx, tok: Token) -> bool:
    if "category" not in ctx.ev:
        ctx.set("category", ctx.text(tok), tok)
        return True
    if not tok.raw and tok.text.startswith("§") and "rule" not in ctx.ev:
        ctx.set("rule", tok.text, tok)
        return True
    if "text" in ctx.ev:
        return False
    if tok.raw or tok.text.startswith('"'):
        ctx.set("text", ctx.text(tok), tok)
    else:  # the rest of the line is the text, verbatim
        start = tok.col - ctx.col0
        ctx.set("text", ctx.line[start:].rstrip(), tok)
        ctx.stop = True
    return True


def survey_value(text: str, raw: bool, col: int) -> Any:
    """A survey answer: a number, yes/no/true/false, a JSON string, or else a plain word."""
    if INT_RE.fullmatch(text):
        return int(text)
    if FLOAT_RE.fullmatch(text):
        return float(text)
    if text in ("true", "false", "yes", "no"):
        return text in ("true", "yes")
    if text.startswith('"'):
        try:
            v = json.loads(text)
        except json.JSONDecodeError:
            v = None
        if isinstance(v, str):
            return v
        if not raw:
            raise ParseError(col, f"bad quoted string {text!r}")
    return text


def fmt_survey_value(v: Any, raw: bool) -> str:
    """The written form of a survey answer that reads back to the same type and value."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return fmt_float(v)
    s = str(v)
    if raw:
        plain = (s == s.strip() and s != "" and survey_value(s, True, 1) == s
                 and type(survey_value(s, True, 1)) is str and quote(s)[1:-1] == json.dumps(s, ensure_ascii=False)[1:-1])
        return s if plain else quote(s)
    return fmt_str(s) if fmt_str(s) == s and type(survey_value(s, False, 1)) is str else quote(s)


def _survey_positional(ctx: Ctx, tok: Token) -> bool:
    if "item" not in ctx.ev:
        ctx.set("item", ctx.text(tok), tok)
    elif "value" not in ctx.ev:
        ctx.set("value", survey_value(tok.text, tok.raw, tok.col), tok)
    else:
        return False
    return True


SURVEY_VALUE = Kind(lambda t, c: survey_value(t, False, c), lambda v: fmt_survey_value(v, False))
_TURN_EXPECTED = "MODE, ceo|team, a path like F-I1, +frontier, +swarm, +blocked or field=value"


def _turn(type_: str, keys: dict[str, Kind] | None = None, modes: tuple[str, ...] = (),
          flags: dict[str, str] | None = None, facility: bool = False) -> Spec:
    mode = {"mode": STR} if modes else {}
    return Spec(type_, (type_,), "required", {**TURN_KEYS, **mode, **(keys or {})}, _turn_positional,
                _TURN_EXPECTED, modes=modes, flags={**TURN_FLAGS, **(flags or {})},
                facility_sugar=facility)


SPECS: list[Spec] = [
    Spec("phase", ("phase",), "none", {"name": STR}, _phase_positional, "a phase name"),
    Spec("era_start", ("era", "era_start"), "none", {"era": INT, "mandate": STR}, _era_positional,
         "the Era number (I-IV) and the Era Mandate id"),
    Spec("headline", ("cycle", "headline"), "none",
         {"cycle": INT, "headline": STR, "action": STR, "facility": INT, "target": INT},
         _cycle_positional,
         "the cycle number (1-3) and the Headline id"),
    Spec("emergency_pause", ("pause", "emergency_pause"), "required", {"program": STR},
         _one_word("program"), "the Program that nobody may select"),
    Spec("allocation_window", ("window", "allocation_window"), "required", {}, _window_positional,
         "offers TO:PRICE[:ANSWER][:COUNTER][:yes|no]"),
    Spec("reveal", ("reveal",), "none", {"tie_choice": STR}, _reveal_positional,
         "selections SEAT:ACTION [tie_choice=ACTION]"),
    Spec("trade", ("trade",), "required", {"rival": INT, "give": STR, "accepted": BOOL},
         _trade_positional, "RIVAL give runway|compute accepted|rejected"),
    _turn("fund", modes=("conservative", "venture")),
    _turn("research", {"breakthrough": BOOL}, flags={"+breakthrough": "breakthrough"}),
    Spec("draw", ("draw",), "required", {"card": STR, "domain": STR}, _draw_positional,
         "the Training card (CARD or curated_corpus=DOMAIN)"),
    Spec("run_end", ("run_end", "bank", "crash", "protect", "method"), "required",
         {"outcome": STR, "banked": INT}, _run_end_positional, "bank|crash|protect|method [BANKED]"),
    _turn("build", {"facility": INT}, modes=("facility", "generator")),
    _turn("organize", {"recruits": INT, "then": STEP, "moves": STEPLIST, "facility": INT,
                       "to": STR, "return_teams": HEXLIST},
          modes=("recruit", "redistribute", "relocate"), facility=True),
    _turn("deploy", {"remote": STR}),
    _turn("influence", {"facility": INT, "partner": INT, "partner_facility": INT,
                        "accepted": BOOL, "contract": INT},
          modes=("trust", "scrutiny", "jv", "terminate"), facility=True),
    _turn("mega_cluster", {"hosts": INTLIST}),
    _turn("reorganization", {"team_moves": TEAMMOVES, "return_team": STR}),
    _turn("covenant"),
    _turn("narrative_capture", {"target": INT}, modes=("remove_scrutiny", "runway", "give_scrutiny")),
    _turn("agent_swarm", {"actions": STRLIST, "bonus_to": STR}),
    _turn("fusion"),
    Spec("allocate", ("allocate",), "required",
         {"facilities": INTLIST, "mega_clusters": INTLIST, "emergency": INT},
         _allocate_positional, "powered Facilities f1 f2 and Mega-Clusters mc1"),
    Spec("workforce_move", ("workforce", "workforce_move"), "required",
         {"facility": INT, "path": PATH}, _workforce_positional, "the Facility fN and the Team's path"),
    Spec("dossier", ("dossier",), "required", {"orientation": STR}, _dossier_positional,
         "commit, hedge or sealed"),
    Spec("dossier_reveal", ("dossier_reveal",), "none", {}, _hands_positional,
         "hands SEAT:XXXX (C or H for Benchmark, Deployment, Authority, Publication)"),
    Spec("audit", ("audit",), "none", {}, _audit_positional, "the cubes drawn: seat numbers or black"),
    Spec("era_mandate", ("mandate", "era_mandate"), "none", {}, _mandate_positional,
         "the seats that scored, or nobody"),
    Spec("final_record", ("final", "final_record"), "none",
         {"offline": OFFLINE, "collective_trust": INT, "open_threshold": INT, "systemic_risk": INT,
          "provisional_winners": INTLIST, "claims": CLAIMS, "agi": BOOL, "claimant": INT,
          "winners": INTLIST, "open": BOOL, "ending": STR}, None, "field=value"),
    Spec("checkpoint", ("checkpoint",), "none", {"label": STR, "systemic_risk": INT},
         _checkpoint_positional, '"LABEL", SEAT:m6,r3,... and systemic_risk=N'),
    Spec("observation", ("!", "observation"), "optional",
         {"category": STR, "text": STR, "rule": STR, "seat": INT, "minutes": FLOAT},
         _observation_positional, "CATEGORY [§RULE] TEXT"),
    Spec("survey", ("?", "survey"), "optional", {"item": STR, "value": SURVEY_VALUE, "seat": INT},
         _survey_positional, "ITEM VALUE"),
]
SPEC_BY_TYPE: dict[str, Spec] = {s.type: s for s in SPECS}
SPEC_BY_VERB: dict[str, Spec] = {v: s for s in SPECS for v in s.verbs}
KEY_ALIASES = {"risk": "systemic_risk"}


def parse_event(spec: Spec, verb: str, seat: int | None, tokens: list[Token], *, line: str = "",
                col0: int = 1, date: dt.date | None = None,
                preset: dict[str, Any] | None = None) -> dict[str, Any]:
    """Build the event dict from its verb and argument tokens; raises :class:`ParseError`.
    ``preset`` holds fields already read (the sheet's text, time and comment columns)."""
    ctx = Ctx(spec, {"type": spec.type, **(preset or {})}, line=line, col0=col0, date=date)
    if "t" in ctx.ev:
        ctx.time_token = Token("@", col0)
    if spec.type == "run_end" and verb != "run_end":
        ctx.ev["outcome"] = verb
    if seat is not None:
        ctx.ev["seat"] = seat
    for tok in tokens:
        if ctx.stop:
            break
        if tok.comment is not None:
            if "comment" in ctx.ev:
                raise ParseError(tok.col, "only one {comment} per line")
            ctx.ev["comment"] = tok.comment
            continue
        if tok.text.startswith("@") and not tok.raw:
            if ctx.time_token is not None:
                raise ParseError(tok.col, "only one @time per line")
            ctx.time_token = tok
            ctx.ev["t"] = parse_time(tok.text[1:], tok.col + 1, date)
            continue
        key, eq, value = tok.text.partition("=")
        key = KEY_ALIASES.get(key, key)
        if eq and not tok.raw and key in spec.keys:
            ctx.set(key, spec.keys[key].parse(value, tok.col + len(tok.text) - len(value)), tok)
            continue
        if eq and not tok.raw and key == "t":
            ctx.set("t", parse_time(value, tok.col + 2, date), tok)
            continue
        if eq and not tok.raw and key == "comment":
            ctx.set("comment", parse_str(value, tok.col + 8), tok)
            continue
        if spec.positional is not None and spec.positional(ctx, tok):
            continue
        shown = tok.text if len(tok.text) <= 40 else tok.text[:37] + "..."
        expected = spec.expected.replace("MODE", "|".join(spec.modes)) if spec.modes else spec.expected.replace("MODE, ", "")
        raise ParseError(tok.col, f"unexpected {shown!r} in {spec.verbs[0]!r}; expected {expected}")
    if spec.type in _REQUIRED_LISTS:  # an empty list is written as no arguments at all
        ctx.ev.setdefault(_REQUIRED_LISTS[spec.type], [])
    return ctx.ev


_REQUIRED_LISTS = {"reveal": "selections", "dossier_reveal": "hands", "audit": "draws",
                   "checkpoint": "seats"}


# --- writing ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Written:
    """An event laid out for a writer: the parts the sheet puts in their own columns, and
    ``args`` (encoded tokens) for the rest."""

    verb: str
    seat: int | None = None
    number: int | None = None  # the Era of ``era``, the cycle of ``cycle``
    what: str | None = None  # raw (unencoded) main word: mode, Headline, card, category ...
    piece: str | None = None
    path: str | None = None
    args: list[str] = field(default_factory=list)
    text: str | None = None  # raw free text: observation text, checkpoint label
    value: Any = None  # survey value (typed)
    has_value: bool = False
    t: dt.datetime | None = None
    comment: str | None = None


def write_event(event: Any) -> Written:
    """Lay out one validated event (a pydantic model of ``schemas.mandate2038``)."""
    spec = SPEC_BY_TYPE[event.type]
    full = event.model_dump()
    rest = event.model_dump(exclude_defaults=True)
    rest.pop("type", None)
    w = Written(spec.verbs[0], t=rest.pop("t", None), comment=rest.pop("comment", None))
    if "seat" in full and spec.seat != "none":
        w.seat = rest.pop("seat", None)
    typ = event.type
    if typ == "phase":
        w.what = rest.pop("name")
    elif typ == "era_start":
        w.number = rest.pop("era")
        if "mandate" in rest:
            w.what = rest.pop("mandate")
    elif typ == "headline":
        w.number = rest.pop("cycle")
        if "headline" in rest:
            w.what = rest.pop("headline")
        if "facility" in rest:
            w.args.append(f"f{rest.pop('facility')}")
    elif typ == "emergency_pause":
        w.what = rest.pop("program")
    elif typ == "allocation_window":
        rest.pop("offers", None)
        for o in full["offers"]:
            tok = f"{o['to']}:{o['price']}"
            if o["answer"] != "none" or o["counter_price"] is not None or o["counter_accepted"] is not None:
                tok += f":{o['answer']}"
            if o["counter_price"] is not None:
                tok += f":{o['counter_price']}"
            if o["counter_accepted"] is not None:
                tok += ":" + fmt_bool(o["counter_accepted"])
            w.args.append(tok)
    elif typ == "reveal":
        w.args += [f"{s['seat']}:{s['pick']}" for s in rest.pop("selections", [])]
    elif typ == "trade":
        w.args += [str(rest.pop("rival")), "give", rest.pop("give"),
                   "accepted" if rest.pop("accepted") else "rejected"]
    elif typ == "draw":
        w.what = rest.pop("card")
        if "domain" in rest:
            w.args.append(f"domain={fmt_str(rest.pop('domain'))}")
    elif typ == "run_end":
        w.verb = rest.pop("outcome")
        if "banked" in rest:
            w.args.append(str(rest.pop("banked")))
    elif typ in TURN_TYPES:
        if spec.modes:
            w.what = full[spec.mode_field]
            rest.pop(spec.mode_field, None)
        path = rest.pop("path", [])
        if full["piece"] == "team" or path:
            w.piece = full["piece"]
        rest.pop("piece", None)
        if path:
            w.path = "-".join(path)
        if spec.facility_sugar and "facility" in rest:
            w.args.append(f"f{rest.pop('facility')}")
        if typ == "influence" and "accepted" in rest and rest["accepted"] is not None:
            w.args.append("accepted" if rest.pop("accepted") else "rejected")
        for fname, flag in ((f, k) for k, f in spec.flags.items()):
            if rest.pop(fname, False):
                w.args.append(flag)
    elif typ == "allocate":
        w.args += [f"f{n}" for n in rest.pop("facilities", [])]
        mcs = rest.pop("mega_clusters", [])
        if all(n >= 0 for n in mcs):
            w.args += [f"mc{n}" for n in mcs]
        else:
            w.args.append("mega_clusters=" + INTLIST.fmt(mcs))
    elif typ == "workforce_move":
        w.args += [f"f{rest.pop('facility')}", "-".join(rest.pop("path"))]
    elif typ == "dossier":
        w.what = rest.pop("orientation", None) or "sealed"
    elif typ == "dossier_reveal":
        for h in rest.pop("hands", []):
            w.args.append(f"{h['seat']}:" + "".join(h[c][0].upper() for c in DOSSIER_CARDS))
    elif typ == "audit":
        w.args += [str(d) for d in rest.pop("draws", [])]
    elif typ == "era_mandate":
        scorers = rest.pop("scorers", None)
        if scorers is not None:
            w.args += [str(s) for s in scorers] if scorers else ["nobody"]
    elif typ == "checkpoint":
        if "label" in rest:
            w.text = rest.pop("label")
        for sv in rest.pop("seats", []):
            parts = [f"{SEAT_VALUE_SHORT[k]}{sv[k]}" for k in SEAT_VALUE_ORDER if sv.get(k) is not None]
            w.args.append(f"{sv['seat']}:" + (",".join(parts) or "-"))
    elif typ == "observation":
        w.what = rest.pop("category")
        w.text = rest.pop("text")
        rule = rest.get("rule")
        if isinstance(rule, str) and rule.startswith("§") and _RULE_BARE.fullmatch(rule):
            w.args.append(rest.pop("rule"))
    elif typ == "survey":
        w.what = rest.pop("item")
        w.value, w.has_value = rest.pop("value"), True
    for name, value in rest.items():
        kind = spec.keys.get(name)
        if kind is None:  # pragma: no cover - a schema field this grammar does not know
            raise ValueError(f"no notation for field {typ}.{name}")
        w.args.append(f"{name}={kind.fmt(value)}")
    return w


_RULE_BARE = re.compile(r"§[^\s\"{}=]*")
TURN_TYPES = frozenset({
    "fund", "research", "build", "organize", "deploy", "influence", "mega_cluster",
    "reorganization", "covenant", "narrative_capture", "agent_swarm", "fusion",
})
