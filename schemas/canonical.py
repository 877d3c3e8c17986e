"""Canonical serialisation of a game log.

The canonical JSON text puts the header on one line and each event on its own line, so that a
finding's ``line`` points at the event in the file and diffs of two logs read event by event::

    {"format": "playtest-log", "format_version": 1,
    "header": {...},
    "events": [
    {"type": "era_start", "era": 1, ...},
    ...
    ]}

Fields equal to their default are left out (``type``, ``game`` and ``rules_version`` never are),
so a recorded log stays short; reading it back restores the defaults, so the round trip is exact.

Game ids are the sha256 of this text, so it must never change for a given log. The text is
exactly what ``json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))`` gives for the
header and for each event dict; :func:`dumps_log` reaches the same bytes faster by calling the
models' serializers directly and one prebuilt C encoder (tests/test_storage_canonical.py compares
it with that reference on many logs).
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

_SEPARATORS = (", ", ": ")


def dump_event(event: BaseModel) -> dict[str, Any]:
    """One event as a canonical dict (``type`` first, defaults left out)."""
    body = event.model_dump(mode="json", exclude_defaults=True)
    body.pop("type", None)
    return {"type": event.type, **body}  # type: ignore[attr-defined]


def dump_header(header: BaseModel) -> dict[str, Any]:
    body = header.model_dump(mode="json", exclude_defaults=True)
    body.pop("game", None)
    body.pop("rules_version", None)
    return {"game": header.game, "rules_version": header.rules_version, **body}  # type: ignore[attr-defined]


def dump_log(log: BaseModel) -> dict[str, Any]:
    """The whole log as a canonical dict."""
    return {
        "format": "playtest-log",
        "format_version": 1,
        "header": dump_header(log.header),  # type: ignore[attr-defined]
        "events": [dump_event(e) for e in log.events],  # type: ignore[attr-defined]
    }


def _make_encoder() -> Callable[[Any], str]:
    """``obj -> text`` equal to ``json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))``.

    ``json.dumps`` with keyword arguments builds a JSONEncoder, which builds a C encoder, on every
    call; here the C encoder is built once. It runs without the circular-reference check, which
    only changes the error raised for a self-containing value (model dumps never contain one).
    """
    c_make = getattr(json.encoder, "c_make_encoder", None)
    if c_make is None:  # no C accelerator: the reference call itself
        enc = json.JSONEncoder(ensure_ascii=False, separators=_SEPARATORS)
        return enc.encode
    c_enc = c_make(
        None,  # markers (circular check off)
        json.JSONEncoder(ensure_ascii=False).default,  # raises TypeError like json.dumps
        json.encoder.encode_basestring,  # ensure_ascii=False
        None,  # indent
        _SEPARATORS[1], _SEPARATORS[0],
        False,  # sort_keys
        False,  # skipkeys
        True,  # allow_nan
    )
    join = "".join

    def encode(obj: Any) -> str:
        if isinstance(obj, str):
            return json.encoder.encode_basestring(obj)
        return join(c_enc(obj, 0))

    return encode


_j = _make_encoder()


def _event_line(event: BaseModel) -> str:
    # dump_event without the Python layers of model_dump (same serializer, same arguments).
    body = event.__pydantic_serializer__.to_python(event, mode="json", exclude_defaults=True)
    body.pop("type", None)
    return _j({"type": event.type, **body})  # type: ignore[attr-defined]


#: :class:`LineMemo`'s default capacity: the reader's parsed-line cache holds as many lines
#: (``ingest.formats.jsonlog.LINE_CACHE_LINES``), hence as many shared events at most
MEMO_LINES = 8192


class LineMemo:
    """Event (by identity) -> its canonical line, for events that many logs share.

    The canonical reader hands out one validated event for every byte-identical event line
    (its parsed-line cache; events are immutable), so the logs of an ingest share most of their
    event objects, and each shared event's line need only be written once. Only events of a
    frozen model are kept (an event that may change after its line was written never is); a
    kept event is held by the memo, so its ``id`` cannot be reused while its line is kept. The
    first :attr:`capacity` events are kept (those shared most are met early, as in the reader's
    cache); :meth:`clear` forgets them. Threads may share one memo (each ``dict`` call is
    atomic under the GIL; a race can only keep an event or two beyond the capacity)."""

    __slots__ = ("capacity", "_lines", "_frozen")

    def __init__(self, capacity: int = MEMO_LINES) -> None:
        self.capacity = capacity
        self._lines: dict[int, tuple[BaseModel, str]] = {}
        self._frozen: dict[type, bool] = {}  # event class -> whether its events may be kept

    def __len__(self) -> int:
        return len(self._lines)

    def lines(self, events: Any) -> list[str]:
        """The canonical line of each event (as :func:`dumps_log` writes it, without the
        separating comma)."""
        get = self._lines.get
        out = []
        for e in events:
            hit = get(id(e))
            if hit is None:
                line = _event_line(e)
                if len(self._lines) < self.capacity and self._keepable(type(e)):
                    self._lines[id(e)] = (e, line)
                out.append(line)
            else:
                out.append(hit[1])
        return out

    def _keepable(self, cls: type) -> bool:
        try:
            return self._frozen[cls]
        except KeyError:
            config = getattr(cls, "model_config", None) or {}
            ok = self._frozen[cls] = config.get("frozen") is True
            return ok

    def clear(self) -> None:
        self._lines.clear()
        self._frozen.clear()


def dumps_log(log: BaseModel, memo: LineMemo | None = None) -> str:
    """The canonical JSON text (one event per line, trailing newline). ``memo``: reuse the lines
    of events met before (:class:`LineMemo`; the text is the same with or without it)."""
    header = _j(dump_header(log.header))  # type: ignore[attr-defined]
    lines = ['{"format": "playtest-log", "format_version": 1,', f'"header": {header},', '"events": [']
    events = log.events  # type: ignore[attr-defined]
    if events:
        body = [_event_line(e) for e in events] if memo is None else memo.lines(events)
        lines.append(",\n".join(body))
    lines.append("]}\n")
    return "\n".join(lines)
