"""Hypothesis strategies for valid Mandate 2038 logs, built from the pydantic models.

The builder walks each model's fields (types, ``Literal`` values, ``Field`` bounds, patterns,
list lengths), so every event type and every field is covered and a schema change is picked up
without editing this file. Times cluster around two dates so that the notation's short
``@HH:MM`` form and the full date-time form are both exercised.
"""

from __future__ import annotations

import datetime as dt
import types
import typing
from typing import Any

import annotated_types
from hypothesis import strategies as st
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from schemas.mandate2038 import EVENT_ADAPTER, MandateHeader, MandateLog

_MISSING = object()
DATES = (dt.date(2026, 11, 29), dt.date(2026, 11, 30))
_OFFSETS = [dt.UTC, dt.timezone(dt.timedelta(hours=2)), dt.timezone(dt.timedelta(hours=-5, minutes=-30))]

# text that stresses quoting: separators of the grammar, quotes, braces, line breaks, unicode
# (no lone surrogate: it is not a character, and a log holding one is rejected with its line,
# tests/test_formats_hardening.py)
_TRICKY = st.sampled_from(["", " ", "a b", '"', "{", "}", "=", ",", ":", "@19:42", "+frontier",
                           "§7", "f2", "1", "yes", "-", "#", "\n", "\r\n", "\u2028", "\x85", "é", "=1+1", "@x", "'-", "\t",
                           "Ana", "black", "nobody", "sealed", "team", "F-I1", "domain", "card"])
TEXT = st.one_of(_TRICKY, st.text(max_size=12), st.lists(_TRICKY, max_size=4).map("".join))


def _datetimes() -> st.SearchStrategy[dt.datetime]:
    tz = st.one_of(st.none(), st.sampled_from(_OFFSETS))
    return st.datetimes(min_value=dt.datetime(2026, 11, 28, 20), max_value=dt.datetime(2026, 12, 1, 3),
                        timezones=tz)


def _bounds(meta: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for m in meta:
        if isinstance(m, annotated_types.Ge):
            out["min"] = m.ge
        elif isinstance(m, annotated_types.Le):
            out["max"] = m.le
        elif isinstance(m, annotated_types.MinLen):
            out["min_len"] = m.min_length
        elif isinstance(m, annotated_types.MaxLen):
            out["max_len"] = m.max_length
        elif getattr(m, "pattern", None):
            out["pattern"] = m.pattern
        elif isinstance(m, FieldInfo):
            out.update(_bounds(list(m.metadata)))
    return out


def for_type(tp: Any, meta: list[Any] | None = None) -> st.SearchStrategy[Any]:
    """A strategy for values of annotation ``tp`` satisfying ``meta`` constraints."""
    meta = list(meta or [])
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        base, *extra = typing.get_args(tp)
        return for_type(base, meta + extra)
    b = _bounds(meta)
    if origin is typing.Literal:
        return st.sampled_from(typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        return st.one_of([for_type(a, meta) for a in typing.get_args(tp)])
    if tp is type(None):
        return st.none()
    if tp is typing.Any:  # a JSON value (e.g. a variant's changed value)
        return st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), TEXT)
    if tp is bool:
        return st.booleans()
    if tp is int:
        # a log holds 32-bit integers (the warehouse's INTEGER; larger values are refused)
        return st.integers(min_value=b.get("min", -(2**31)), max_value=b.get("max", 2**31 - 1))
    if tp is float:
        return st.floats(min_value=b.get("min"), allow_nan=False, allow_infinity=False)
    if tp is str:
        if "pattern" in b:
            return st.from_regex(b["pattern"], fullmatch=True)
        return TEXT
    if tp is dt.datetime:
        return _datetimes()
    if tp is dt.date:
        return st.sampled_from(DATES)
    if origin is list:
        (item,) = typing.get_args(tp)
        lo = b.get("min_len", 0)
        return st.lists(for_type(item), min_size=lo, max_size=min(b.get("max_len", 4), lo + 4))
    if origin is tuple:
        return st.tuples(*[for_type(a) for a in typing.get_args(tp)])
    if origin is dict:
        k, v = typing.get_args(tp)
        return st.dictionaries(for_type(k), for_type(v), max_size=4)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return model_dicts(tp).map(tp.model_validate)
    raise TypeError(f"no hypothesis strategy for field type {tp!r}: add one to for_type()")


def model_dicts(model: type[BaseModel]) -> st.SearchStrategy[dict[str, Any]]:
    """Field dicts of ``model``: required fields always, optional ones sometimes."""
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for name, f in model.model_fields.items():
        s = for_type(f.annotation, list(f.metadata))
        parts[name] = s if f.is_required() else st.one_of(st.just(_MISSING), s)
    return st.fixed_dictionaries(parts).map(lambda d: {k: v for k, v in d.items() if v is not _MISSING})


EVENT_MODELS: list[type[BaseModel]] = list(
    typing.get_args(typing.get_args(typing.get_type_hints(MandateLog, include_extras=True)["events"])[0])[0].__args__
)
EVENTS = st.one_of([model_dicts(m).map(m.model_validate) for m in EVENT_MODELS])


def _with_factions(d: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Every Mandate 2038 seat plays a faction (the shared SeatInfo leaves it optional)."""
    seats = d["seats"]
    return st.tuples(*[TEXT for _ in seats]).map(lambda fs: {**d, "seats": [
        s if s.faction is not None else s.model_copy(update={"faction": f})
        for s, f in zip(seats, fs, strict=True)]})


HEADERS = model_dicts(MandateHeader).flatmap(_with_factions).map(MandateHeader.model_validate)


@st.composite
def logs(draw: st.DrawFn, max_events: int = 12) -> MandateLog:
    """A valid MandateLog with any mix of events."""
    header = draw(HEADERS)
    events = draw(st.lists(EVENTS, max_size=max_events))
    return MandateLog(header=header, events=events)


def test_strategies_cover_every_event_type() -> None:
    """The union the strategies draw from is exactly the schema's event union."""
    names = {m.model_fields["type"].default for m in EVENT_MODELS}
    assert names == set(EVENT_ADAPTER.json_schema()["discriminator"]["mapping"])
