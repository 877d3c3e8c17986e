"""The logic behind the live-entry page (Record a game), kept out of the page code.

* :func:`new_header` builds the canonical header of a new session (map laid out from the ring
  pools with a recorded seed, or entered position by position);
* :func:`replay_draft` replays a draft with the engine after every event, so findings show at
  once and the next decision is known;
* :func:`next_decision` asks the ruleset's legal-move generator (when the engine provides it)
  who decides next and what may be recorded; options are complete events;
* :func:`event_fields` / :func:`build_event` give a plain form for any event type, used when no
  legal-move generator is available or the table did something the options do not list;
* :func:`finish` turns a draft into a canonical log and hands it to the ingest pipeline.
"""

from __future__ import annotations

import datetime as dt
import inspect
import json
import math
import random
import re
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from schemas.canonical import dump_event, dump_header
from schemas.mandate2038 import EVENT_ADAPTER, HEX_POSITIONS, MandateHeader, MandateLog

GAME = "mandate2038"
INNER = [p for p in HEX_POSITIONS if p.startswith("I")]
OUTER = [p for p in HEX_POSITIONS if p.startswith("O")]
#: events the page offers as quick timing markers whatever the engine expects next
TIMING_MARKERS = ("setup_end", "break", "resume")


def pack() -> Any:
    """The content pack of the current rules version, or None when it cannot be loaded."""
    try:
        from schemas.mandate2038 import RULES_VERSION
        from schemas.packs import load_pack

        return load_pack(GAME, RULES_VERSION)
    except Exception:
        return None


def factions(p: Any) -> dict[str, str]:
    """Faction id -> name from the pack (ids only when the pack is missing)."""
    if p is None:
        return {k: k for k in ("dovetalis", "loopfold", "mirevanta", "kestralyn", "orisonix",
                               "corthaven")}
    return {f.id: f.name for f in p.factions}


def places(state: Any, p: Any) -> dict[str, str]:
    """Map position -> printed tile name for the game in ``state`` (empty when unknown)."""
    names = tile_names(p)
    board = getattr(state, "board", None)
    tiles = getattr(board, "tile_at", {}) or {}
    return {pos: names.get(t, t) for pos, t in tiles.items() if t}


def tile_names(p: Any) -> dict[str, str]:
    """Tile id -> name from the pack."""
    return {t.id: t.name for t in getattr(p, "tiles", [])} if p is not None else {}


def random_layout(p: Any, seed: str) -> dict[str, str]:
    """Shuffle each ring pool with a seeded generator (Frontier fixed at the centre).

    The seed is written in the header's notes so the layout can be reproduced.
    """
    inner: list[str] = []
    outer: list[str] = []
    for t in getattr(p, "tiles", []):
        inner += [t.id] * t.pool.inner
        outer += [t.id] * t.pool.outer
    rng = random.Random(f"{seed}:map")
    rng.shuffle(inner)
    rng.shuffle(outer)
    layout = {"F": "frontier"}
    layout.update(dict(zip(INNER, inner, strict=False)))
    layout.update(dict(zip(OUTER, outer, strict=False)))
    return layout


def new_header(
    *,
    seats: list[tuple[str, str | None]],
    session_type: str,
    layout: dict[str, str] | None,
    first_initiative: int | None,
    protocol: str | None,
    profile: str = "default",
    date: dt.date | None = None,
    venue: str | None = None,
    facilitator: str | None = None,
    notes: str | None = None,
    detail: str = "full",
    variant: dict[str, Any] | None = None,
) -> tuple[dict[str, Any] | None, str | None]:
    """(canonical header dict, problem). The header is validated by the log schema."""
    body: dict[str, Any] = {
        "game": GAME,
        "session_type": session_type,
        "profile": profile,
        "seats": [{"seat": i, "faction": f, **({"player": p} if p else {})}
                  for i, (f, p) in enumerate(seats, start=1)],
        "date": (date or dt.date.today()).isoformat(),
        "detail": detail,
        "provenance": {"source_format": "live", "source_name": "live entry (dashboard)"},
    }
    for key, value in (("map", layout), ("first_initiative", first_initiative),
                       ("protocol", protocol), ("venue", venue), ("facilitator", facilitator),
                       ("notes", notes), ("variant", variant)):
        if value:
            body[key] = value
    try:
        header = MandateHeader.model_validate(body)
    except ValidationError as err:
        from engine.core.parse import describe_validation_error

        return None, f"the session is not valid: {describe_validation_error(err)}"
    return dump_header(header), None


def header_model(header: dict[str, Any]) -> MandateHeader:
    """The header dict of a draft as the schema model."""
    return MandateHeader.model_validate(header)


def event_model(event: dict[str, Any]) -> Any:
    """One event dict as its schema model (raises ``ValidationError`` when invalid)."""
    return EVENT_ADAPTER.validate_python(event)


def event_dict(event: Any) -> dict[str, Any]:
    """An event model as its canonical dict."""
    return dump_event(event) if isinstance(event, BaseModel) else dict(event)


def stamp(event: dict[str, Any]) -> dict[str, Any]:
    """The event with the wall-clock time ``t`` set now (unless the table gave one)."""
    if event.get("t"):
        return event
    return {**event, "t": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()}


@dataclass(slots=True)
class DraftReplay:
    """A draft replayed: the engine result (None without an engine) and events it could not read."""

    result: Any = None
    engine_problem: str | None = None
    bad_events: list[str] = field(default_factory=list)
    models: list[Any] = field(default_factory=list)


def replay_draft(header: dict[str, Any], events: list[dict[str, Any]]) -> DraftReplay:
    """Replay the draft with the engine. Never raises: problems come back as text."""
    out = DraftReplay()
    try:
        h = header_model(header)
    except ValidationError as err:
        out.engine_problem = f"the draft's header is not valid: {err}"
        return out
    for i, e in enumerate(events):
        try:
            out.models.append(event_model(e))
        except ValidationError as err:
            out.bad_events.append(f"event {i} ({e.get('type')!r}) is not valid: {err.errors()[0]['msg']}")
    try:
        from engine.core.registry import get_ruleset

        rs = get_ruleset(GAME)
    except Exception as err:
        out.engine_problem = f"the rules engine could not be loaded: {err}"
        return out
    if rs is None:
        out.engine_problem = "the Mandate 2038 rules engine is not available in this checkout yet"
        return out
    try:
        from engine.core.replay import replay

        # upto: stop after the last event without the end-of-log checks (``finish``), which
        # would close the open turn and report the game as incomplete while it is being played
        out.result = replay(h, out.models, ruleset=rs, upto=len(out.models) - 1)
    except Exception as err:  # an engine bug must not lose the facilitator's page
        out.engine_problem = f"the engine failed while replaying the draft: {err}"
    return out


@dataclass(slots=True)
class Next:
    """The next decision as the page shows it."""

    kind: str  # player, chance, simultaneous, end, unknown
    seat: int | None = None
    label: str = ""
    options: list[Any] = field(default_factory=list)
    per_seat: dict[int, list[Any]] = field(default_factory=dict)
    combine: Any = None
    problem: str | None = None


def next_decision(result: Any, passed: frozenset[str] = frozenset()) -> Next:
    """What the legal-move generator says comes next (``kind`` "unknown" when it cannot)."""
    if result is None or getattr(result, "state", None) is None:
        return Next("unknown", problem="no engine state")
    try:
        from engine.core.registry import get_ruleset

        rs = get_ruleset(GAME)
        fn = rs.legal_moves if rs is not None else None
        if fn is None:
            return Next("unknown", problem="the engine has no legal-move generator yet")
        params = inspect.signature(fn).parameters
        decision = fn(result.state, passed=passed) if "passed" in params else fn(result.state)
    except Exception as err:
        return Next("unknown", problem=f"the legal-move generator failed: {err}")
    return Next(
        kind=decision.kind, seat=decision.seat, label=decision.label or "",
        options=list(decision.options or []),
        per_seat={int(k): list(v) for k, v in (decision.per_seat or {}).items()},
        combine=decision.combine,
    )


def is_pass(option: Any) -> bool:
    """True for a decline option that records no event (``moves.Pass``)."""
    return not isinstance(option, BaseModel | dict) and hasattr(option, "key") and hasattr(option, "label")


def option_label(option: Any, places: dict[str, str] | None = None) -> str:
    """A readable label for one legal option (``places``: position -> tile name)."""
    from dashboards.replay_view import ACTION_WORDS, event_label

    if is_pass(option):
        return f"Decline: {option.label}"
    if isinstance(option, str):
        return ACTION_WORDS.get(option, option)
    return event_label(option, places)


def move_of(option: Any) -> tuple[str, tuple[str, ...]] | None:
    """(piece, path) of a turn option that moves a piece, else None."""
    path = getattr(option, "path", None)
    if not path or is_pass(option):
        return None
    return (str(getattr(option, "piece", "ceo")), tuple(path))


def move_label(move: tuple[str, tuple[str, ...]], places: dict[str, str] | None = None) -> str:
    """'CEO Frontier → I1 Research Commons' for a (piece, path) pair."""
    from dashboards.replay_view import position

    piece, path = move
    who = "CEO" if piece == "ceo" else "Team"
    dest = path[-1]
    name = f" {places[dest]}" if places and dest in places and dest != "F" else ""
    if len(path) == 1:
        return f"{who} stays at {position(dest)}{name}"
    return f"{who} {' → '.join(position(p) for p in path)}{name}"


def variant_label(option: Any) -> str:
    """What a turn option does once the move is fixed: the action and its choices."""
    from dashboards.replay_view import ACTION_WORDS

    body = event_dict(option)
    action = str(ACTION_WORDS.get(body.get("type", ""), body.get("type", "?")))
    rest = [words(v) if k == "mode" else
            f"{k.replace('_', ' ')} {words(v)}" if not isinstance(v, bool) else k.replace("_", " ")
            for k, v in body.items()
            if k not in ("type", "seat", "piece", "path", "t", "comment") and v not in (None, False)]
    return action + (": " + ", ".join(rest) if rest else "")


def words(value: Any) -> str:
    """A value of an event for a button or a table, never a Python repr: content ids by their
    printed names, lists joined, mappings as "key value" pairs."""
    from dashboards.replay_view import content_names

    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')} {words(v)}" for k, v in value.items()
                         if v not in (None, False, [], {}))
    if isinstance(value, list | tuple | set | frozenset):
        return " ".join(words(v) for v in value) if all(
            isinstance(v, str) and len(v) <= 3 for v in value) else ", ".join(words(v) for v in value)
    if isinstance(value, BaseModel):
        return words(value.model_dump(exclude_none=True))
    if isinstance(value, str):
        return content_names().get(value, value.replace("_", " "))
    return str(value)


# --- plain forms for any event type -----------------------------------------------------------


@dataclass(slots=True)
class FieldSpec:
    """One form field of an event type."""

    name: str
    kind: str  # choice, int, bool, text, hexes, json
    choices: list[Any] = field(default_factory=list)
    required: bool = False
    default: Any = None
    help: str = ""


def event_types() -> list[str]:
    """Every event type of the log schema, in schema order."""
    from schemas.mandate2038 import MandateEvent

    union = typing.get_args(MandateEvent)[0]
    return [m.model_fields["type"].default for m in typing.get_args(union)]


def _model_for(event_type: str) -> type[BaseModel]:
    from schemas.mandate2038 import MandateEvent

    union = typing.get_args(MandateEvent)[0]
    for m in typing.get_args(union):
        if m.model_fields["type"].default == event_type:
            return cast("type[BaseModel]", m)
    raise KeyError(event_type)


def _literal_choices(tp: Any) -> list[Any] | None:
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return list(typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        out: list[Any] = []
        for a in typing.get_args(tp):
            if a is type(None):
                continue
            ch = _literal_choices(a)
            if ch is None:
                return None
            out += ch
        return out
    if origin is typing.Annotated:
        return _literal_choices(typing.get_args(tp)[0])
    return None


def _base(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _base(typing.get_args(tp)[0])
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return _base(args[0]) if len(args) == 1 else tp
    return tp


def event_fields(event_type: str) -> list[FieldSpec]:
    """The form fields of ``event_type`` (``t`` and ``comment`` are added by the page)."""
    model = _model_for(event_type)
    specs = []
    for name, info in model.model_fields.items():
        if name in ("type", "t"):
            continue
        tp = info.annotation
        required = info.is_required()
        default = None if required or info.default_factory is not None else info.default
        choices = _literal_choices(tp)
        base = _base(tp)
        if choices is not None:
            specs.append(FieldSpec(name, "choice", choices, required, default))
        elif base is bool:
            specs.append(FieldSpec(name, "bool", required=required, default=default))
        elif base is int:
            specs.append(FieldSpec(name, "int", required=required, default=default))
        elif base is str or base is float:
            specs.append(FieldSpec(name, "text", required=required, default=default))
        elif name in ("path", "return_teams"):
            specs.append(FieldSpec(name, "hexes", required=required, default=default,
                                   help="positions separated by spaces, e.g. F I1 O2"))
        else:
            specs.append(FieldSpec(name, "json", required=required, default=default,
                                   help="JSON, e.g. [1, 2] or {\"seat\": 1, \"pick\": \"fund\"}"))
    return specs


#: limits of the hand-entry form: whole numbers are plain ASCII digits (no "٣", no "²"), and
#: nothing a person types at the table needs more than these
MAX_INT_DIGITS = 15
MAX_TEXT_CHARS = 2_000
MAX_JSON_CHARS = 10_000
MAX_JSON_DEPTH = 8
_INT = re.compile(rf"-?[0-9]{{1,{MAX_INT_DIGITS}}}")
_NUMBER = re.compile(r"-?[0-9]{1,9}(?:\.[0-9]{1,6})?")


class FormValueError(ValueError):
    """A form value that cannot go into an event; the message names the field and says why."""


def _shown(raw: str, limit: int = 40) -> str:
    text = raw if len(raw) <= limit else raw[:limit] + f"... ({len(raw):,} characters)"
    return repr(text)


def parse_int(name: str, raw: Any) -> int:
    """A whole number typed in the form: ASCII digits only, at most ``MAX_INT_DIGITS`` of them."""
    if isinstance(raw, bool):
        raise FormValueError(f"{name}: expected a whole number, got {raw}")
    if isinstance(raw, int):
        text = str(raw) if abs(raw) < 10 ** MAX_INT_DIGITS else "x" * (MAX_INT_DIGITS + 1)
    else:
        text = str(raw).strip()
    if not _INT.fullmatch(text):
        raise FormValueError(f"{name}: expected a whole number written with the digits 0-9 (at "
                             f"most {MAX_INT_DIGITS} of them), got {_shown(text)}")
    return int(text)


def parse_number(name: str, raw: Any) -> float:
    """A decimal number typed in the form (finite, at most 9 digits before the point)."""
    text = str(raw).strip()
    if not _NUMBER.fullmatch(text):
        raise FormValueError(f"{name}: expected a number such as 12 or 7.5 (digits 0-9; no "
                             f"inf, NaN or exponent), got {_shown(text)}")
    return float(text)


def _reject_constant(word: str) -> Any:
    raise FormValueError(f"{word} is not a number a log can hold")


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise FormValueError(f"a number with {len(text.lstrip('-')):,} digits is too long "
                             f"(at most {MAX_INT_DIGITS})")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or len(text) > 30:
        raise FormValueError(f"{_shown(text)} is not a finite number of sensible size")
    return value


def _depth(text: str) -> int:
    """The deepest bracket nesting of JSON ``text`` (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json(name: str, raw: Any) -> Any:
    """A JSON value typed in the form: bounded in size and depth; no NaN, Infinity or huge
    numbers (they are not JSON a log can keep)."""
    text = str(raw)
    if len(text) > MAX_JSON_CHARS:
        raise FormValueError(f"{name}: {len(text):,} characters is too long for one field "
                             f"(at most {MAX_JSON_CHARS:,})")
    if _depth(text) > MAX_JSON_DEPTH:
        raise FormValueError(f"{name}: nested more than {MAX_JSON_DEPTH} levels deep; an event "
                             "field never needs that")
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_int=_json_int,
                          parse_float=_json_float)
    except FormValueError as err:
        raise FormValueError(f"{name}: {err}") from None
    except json.JSONDecodeError as err:
        raise FormValueError(f"{name}: not valid JSON ({err.msg} at character {err.pos + 1})") from None
    except (ValueError, RecursionError) as err:
        raise FormValueError(f"{name}: not usable JSON ({type(err).__name__})") from None


def _field_value(event_type: str, spec: FieldSpec, raw: Any) -> Any:
    if spec.kind == "hexes":
        return str(raw).replace(",", " ").split()
    if spec.kind == "json":
        return parse_json(spec.name, raw)
    if spec.kind == "int":
        return parse_int(spec.name, raw)
    if spec.kind == "text":
        text = str(raw)
        if len(text) > MAX_TEXT_CHARS:
            raise FormValueError(f"{spec.name}: {len(text):,} characters is too long (at most "
                                 f"{MAX_TEXT_CHARS:,})")
        if _base(_model_for(event_type).model_fields[spec.name].annotation) is float:
            return parse_number(spec.name, text)
        return text
    return raw


def build_event(event_type: str, values: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """(event dict, problem) from form values; empty values are left out; validated.

    Never raises: whatever was typed, the answer is an event or a sentence saying what is wrong.
    """
    try:
        specs = {s.name: s for s in event_fields(event_type)}
    except KeyError:
        return None, f"{event_type!r} is not an event type of the log"
    body: dict[str, Any] = {"type": event_type}
    for name, raw in values.items():
        spec = specs.get(name)
        if spec is None or raw is None or raw == "" or raw == "(none)":
            continue
        if isinstance(raw, str) and not raw.strip() and spec.kind != "text":
            continue
        try:
            body[name] = _field_value(event_type, spec, raw)
        except FormValueError as err:
            return None, str(err)
    try:
        model = event_model(body)
        return event_dict(model), None
    except ValidationError as err:
        from engine.core.parse import describe_validation_error

        return None, describe_validation_error(err)
    except (ValueError, TypeError, RecursionError) as err:
        return None, f"the event could not be built: {type(err).__name__}"


# --- finishing ----------------------------------------------------------------------------------


def as_log(header: dict[str, Any], events: list[dict[str, Any]]) -> MandateLog:
    """The draft as a canonical log (raises ``ValidationError`` when an event is invalid)."""
    return MandateLog.model_validate({"header": header, "events": events})


def finish(header: dict[str, Any], events: list[dict[str, Any]], db: Path, draft_id: str) -> tuple[Any, str | None]:
    """Archive and load the draft's game; (ingest result, problem)."""
    try:
        log = as_log(header, events)
    except ValidationError as err:
        from engine.core.parse import describe_validation_error

        return None, f"the draft is not a valid log: {describe_validation_error(err)}"
    from ingest.pipeline import ingest_log
    try:
        return ingest_log(log, db, source=f"live:{draft_id}"), None
    except Exception as err:  # storage busy, archive problem: keep the draft, say why
        return None, f"loading failed: {err}; the draft is kept and can be finished again"


def game_id_of(result: Any) -> str | None:
    """The game id in an ingest result, whatever its shape."""
    if result is None:
        return None
    for attr in ("game_id", "id"):
        v = result.get(attr) if isinstance(result, dict) else getattr(result, attr, None)
        if isinstance(v, str):
            return v
    for attr in ("game_ids", "loaded", "recovered", "skipped", "reports", "files", "results"):
        v = result.get(attr) if isinstance(result, dict) else getattr(result, attr, None)
        if isinstance(v, list | tuple) and v:
            return game_id_of(v[0]) if not isinstance(v[0], str) else v[0]
    return None
