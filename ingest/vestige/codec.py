"""Value and line codec of the Vestige text notation and sheet, driven by ``schemas/vestige/log.py``.

Every field is written as one token without blanks (docs/formats.md, "Vestige"):

* scalars: a bare word (letters, digits, ``_ . : / + -``) or a JSON string literal ``"..."``;
  whole numbers as digits, yes/no for booleans, ``~`` for an explicit null;
* a list at the top of a field: items separated by ``,`` (``-`` is the empty list), e.g.
  ``path=12,13,7``; a list inside another value is bracketed: ``[1,2]``;
* a mapping or a nested record: ``(key=value;key=value)``, e.g. ``pay=(guile=2)``.

Parsing is directed by the field's type, so ``12`` is a number in ``path`` and a name in a
``card`` field. A problem raises :class:`~ingest.formats.tokens.ParseError` with its column.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import types
import typing
from typing import Any, Union

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from ingest.formats.tokens import (
    FLOAT_RE,
    INT_RE,
    ParseError,
    fmt_bool,
    fmt_float,
    quote,
)

_DECODER = json.JSONDecoder()
_BARE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:/+\-]*")
_STOP = set(",;=()[] \t\r\n{}")
_KEY = re.compile(r"[a-z_][a-z0-9_.]*=")
_SCALARS = (str, int, float, bool)


def strip(tp: Any) -> Any:
    """``tp`` without ``Annotated`` metadata."""
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _union_args(tp: Any) -> tuple[Any, ...] | None:
    if typing.get_origin(tp) in (Union, types.UnionType):
        return tuple(strip(a) for a in typing.get_args(tp))
    return None


def is_scalar_type(tp: Any) -> bool:
    tp = strip(tp)
    args = _union_args(tp)
    if args is not None:
        return all(is_scalar_type(a) for a in args if a is not type(None))
    if typing.get_origin(tp) is typing.Literal:
        return True
    return tp in (str, int, float, bool, dt.date, dt.datetime)


# --- writing ----------------------------------------------------------------------------------


def _fmt_str(s: str) -> str:
    return s if _BARE.fullmatch(s) else quote(s)


def fmt_value(tp: Any, v: Any, top: bool = False) -> str:
    """The token text of ``v``, a value of type ``tp``."""
    tp = strip(tp)
    if v is None:
        return "~"
    if tp is Any and isinstance(v, str):  # a free value (a variant's): strings always quoted,
        return quote(v)  # so that "2" and 2 stay apart
    args = _union_args(tp)
    if args is not None:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return fmt_value(rest[0], v, top)
        if all(a in _SCALARS for a in rest):  # str | int | float | bool: strings always quoted
            if isinstance(v, str):
                return quote(v)
            return fmt_value(type(v), v, top)
        for a in rest:  # a union of other kinds: the first that fits the value
            if _fits(a, v):
                return fmt_value(a, v, top)
        raise TypeError(f"no member of {tp} fits {v!r}")
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return "(" + ";".join(f"{k}={fmt_value(tt, vv)}" for k, tt, vv in model_items(v)) + ")"
    origin = typing.get_origin(tp)
    if origin in (list, tuple):
        items = typing.get_args(tp)
        item_tp = items[0] if items else Any
        body = ",".join(fmt_value(item_tp, x) for x in v)
        if top:
            return body if v else "-"
        return "[" + body + "]"
    if origin is dict:
        kt, vt = typing.get_args(tp)
        return "(" + ";".join(f"{fmt_value(kt, k)}={fmt_value(vt, x)}" for k, x in v.items()) + ")"
    if isinstance(v, bool):
        return fmt_bool(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return fmt_float(v)
    if isinstance(v, dt.datetime | dt.date):
        return v.isoformat()
    if isinstance(v, str):
        return _fmt_str(v)
    raise TypeError(f"cannot write {v!r} as {tp}")


def _fits(tp: Any, v: Any) -> bool:
    tp = strip(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return isinstance(v, tp)
    origin = typing.get_origin(tp)
    if origin in (list, tuple):
        return isinstance(v, list | tuple)
    if origin is dict:
        return isinstance(v, dict)
    if origin is typing.Literal:
        return v in typing.get_args(tp)
    return isinstance(tp, type) and isinstance(v, tp)


def _default(info: FieldInfo) -> Any:
    if info.default_factory is not None:
        return info.default_factory()  # type: ignore[call-arg]
    return info.default


def model_items(m: BaseModel, skip: tuple[str, ...] = ()) -> list[tuple[str, Any, Any]]:
    """(name, type, value) of the fields of ``m`` that differ from their defaults, in order."""
    out = []
    for name, info in type(m).model_fields.items():
        if name in skip:
            continue
        v = getattr(m, name)
        if not info.is_required() and v == _default(info) and type(v) is type(_default(info)):
            continue
        out.append((name, info.annotation, v))
    return out


# --- reading ----------------------------------------------------------------------------------


class ValueReader:
    """Reads one token's text as a value of a given type."""

    def __init__(self, text: str, col: int) -> None:
        self.s = text
        self.i = 0
        self.col = col

    def err(self, message: str, at: int | None = None) -> ParseError:
        return ParseError(self.col + (self.i if at is None else at), message)

    def at_end(self) -> bool:
        return self.i >= len(self.s)

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            found = repr(self.peek()) if self.peek() else "the end"
            raise self.err(f"expected {ch!r}, found {found}")
        self.i += 1

    def word(self) -> tuple[str, bool]:
        """A scalar: (text, quoted)."""
        if self.peek() == '"':
            try:
                s, end = _DECODER.raw_decode(self.s, self.i)
            except json.JSONDecodeError as err:
                raise self.err(f"bad quoted string: {err.msg}", err.pos) from None
            if not isinstance(s, str):
                raise self.err("expected a quoted string")
            self.i = end
            return s, True
        j = self.i
        while j < len(self.s) and self.s[j] not in _STOP:
            j += 1
        if j == self.i:
            found = repr(self.peek()) if self.peek() else "the end"
            raise self.err(f"expected a value, found {found}")
        w = self.s[self.i : j]
        if '"' in w:
            raise self.err("a quote may only start a value", self.i + w.index('"'))
        self.i = j
        return w, False

    def value(self, tp: Any, top: bool = False) -> Any:
        tp = strip(tp)
        if self.s.startswith("~", self.i) and (self.i + 1 == len(self.s)
                                                or self.s[self.i + 1] in _STOP):
            self.i += 1
            return None
        if tp is Any:  # a free value: quoted text, yes/no, a number, else a bare word
            w, quoted = self.word()
            if quoted:
                return w
            if w in ("yes", "no"):
                return w == "yes"
            if INT_RE.fullmatch(w):
                return int(w)
            if FLOAT_RE.fullmatch(w):
                return float(w)
            return w
        args = _union_args(tp)
        if args is not None:
            rest = [a for a in args if a is not type(None)]
            if len(rest) == 1:
                return self.value(rest[0], top)
            if all(a in _SCALARS for a in rest):
                start = self.i
                w, quoted = self.word()
                if quoted:
                    return w
                if w.lower() in ("yes", "no", "true", "false") and bool in rest:
                    return w.lower() in ("yes", "true")
                if INT_RE.fullmatch(w) and int in rest:
                    return int(w)
                if FLOAT_RE.fullmatch(w) and float in rest:
                    return float(w)
                if str in rest:
                    return w
                raise self.err(f"unexpected {w!r}", start)
            start = self.i
            problems = []
            for a in rest:
                self.i = start
                try:
                    return self.value(a, top)
                except ParseError as e:
                    problems.append(e.message)
            raise self.err("; ".join(problems), start)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return self.record(tp)
        origin = typing.get_origin(tp)
        if origin in (list, tuple):
            items = typing.get_args(tp)
            item_tp = items[0] if items else Any
            return self.sequence(item_tp, top)
        if origin is dict:
            kt, vt = typing.get_args(tp)
            return self.mapping(kt, vt)
        start = self.i
        w, quoted = self.word()
        if origin is typing.Literal:
            lits = typing.get_args(tp)
            if not quoted and INT_RE.fullmatch(w) and any(isinstance(x, int) for x in lits):
                return int(w)
            return w
        if tp is str:
            return w
        if quoted:
            raise self.err(f"expected {_name(tp)}, found a quoted string", start)
        if tp is bool:
            b = {"yes": True, "true": True, "no": False, "false": False}.get(w.lower())
            if b is None:
                raise self.err(f"expected yes or no, found {w!r}", start)
            return b
        if tp is int:
            if not INT_RE.fullmatch(w):
                raise self.err(f"expected a whole number, found {w!r}", start)
            return int(w)
        if tp is float:
            if not FLOAT_RE.fullmatch(w):
                raise self.err(f"expected a number, found {w!r}", start)
            return float(w)
        if tp is dt.datetime:
            try:
                return dt.datetime.fromisoformat(w)
            except ValueError:
                raise self.err(f"expected a date-time, found {w!r}", start) from None
        if tp is dt.date:
            try:
                return dt.date.fromisoformat(w)
            except ValueError:
                raise self.err(f"expected a date YYYY-MM-DD, found {w!r}", start) from None
        return w

    def sequence(self, item_tp: Any, top: bool) -> list[Any]:
        if top:
            if self.s[self.i :] == "-":
                self.i = len(self.s)
                return []
            out = [self.value(item_tp)]
            while self.peek() == ",":
                self.i += 1
                out.append(self.value(item_tp))
            return out
        self.expect("[")
        out = []
        if self.peek() == "]":
            self.i += 1
            return out
        out.append(self.value(item_tp))
        while self.peek() == ",":
            self.i += 1
            out.append(self.value(item_tp))
        self.expect("]")
        return out

    def mapping(self, kt: Any, vt: Any) -> dict[Any, Any]:
        self.expect("(")
        out: dict[Any, Any] = {}
        if self.peek() == ")":
            self.i += 1
            return out
        while True:
            k = self.value(kt)
            self.expect("=")
            out[k] = self.value(vt)
            if self.peek() == ";":
                self.i += 1
                continue
            self.expect(")")
            return out

    def record(self, model: type[BaseModel]) -> dict[str, Any]:
        self.expect("(")
        out: dict[str, Any] = {}
        fields = model.model_fields
        if self.peek() == ")":
            self.i += 1
            return out
        while True:
            start = self.i
            name, _ = self.word()
            if name not in fields:
                raise self.err(f"unknown field {name!r} (expected one of {', '.join(fields)})",
                               start)
            self.expect("=")
            out[name] = self.value(fields[name].annotation)
            if self.peek() == ";":
                self.i += 1
                continue
            self.expect(")")
            return out


def _name(tp: Any) -> str:
    return {int: "a whole number", float: "a number", bool: "yes or no"}.get(tp, str(tp))


def read_value(tp: Any, text: str, col: int, top: bool = True) -> Any:
    """The whole of ``text`` read as a value of ``tp`` (``top``: a field's own value)."""
    r = ValueReader(text, col)
    v = r.value(tp, top)
    if not r.at_end():
        raise r.err(f"unexpected {r.s[r.i:]!r} after the value")
    return v


def is_key(text: str) -> bool:
    """True when a token is ``key=value``."""
    return bool(_KEY.match(text))
