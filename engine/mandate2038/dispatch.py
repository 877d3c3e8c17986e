"""The per-event entry points of Mandate 2038's declaration (``MandateRuleset.apply``,
``ended`` and ``location``), as plain functions over the dispatch tables that ruleset.py
fills once (:func:`install`).

They live here, not as methods of the declaration, so that the optional compiled engine
(setup.py, docs/engine.md "The compiled engine (optional)") compiles them: the replay calls
them once per event, and mypyc refuses the declaration class itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.findings import FindingSink
from engine.mandate2038.state import GameState
from schemas.mandate2038 import MandateEvent

Handler = Callable[[GameState, Any, FindingSink], None]

#: event class -> (its ``type``, its handler); event type -> handler (ruleset.py's tables)
BY_CLASS: dict[type, tuple[str, Handler]] = {}
HANDLERS: dict[str, Handler] = {}


def _noop(st: GameState, ev: MandateEvent, sink: FindingSink) -> None:
    return None


def _no_citing(st: GameState, ev: MandateEvent | None, sink: FindingSink, start: int) -> None:
    return None


#: names the rulings behind an event's findings (ruleset.py's ``_cite_rulings``)
_CITE: list[Callable[[GameState, Any, FindingSink, int], None]] = [_no_citing]


def install(by_class: dict[type, tuple[str, Handler]], handlers: dict[str, Handler],
            cite: Callable[[GameState, Any, FindingSink, int], None]) -> None:
    """Fill the tables (ruleset.py, once, at import)."""
    BY_CLASS.clear()
    BY_CLASS.update(by_class)
    HANDLERS.clear()
    HANDLERS.update(handlers)
    _CITE[0] = cite


def apply(state: GameState, event: Any, sink: FindingSink) -> None:
    """Fold one event into the state (mutates it), reporting findings on ``sink``."""
    sink.era = state.era or None  # where the event happens (apply_locates)
    sink.cycle = state.cycle or None
    known = BY_CLASS.get(type(event))
    if known is not None:
        kind, handler = known
    else:  # not one of the log's event classes: dispatch on its type
        kind = event.type
        handler = HANDLERS.get(kind, _noop)
    i = sink.event
    state.event_index = i
    state.cause = state.event_cause = (i, kind)  # the step trace's cause (trace.py)
    n = len(sink.findings)
    handler(state, event, sink)
    if state.event_rulings or (kind == "checkpoint" and state.seat_rulings):
        _CITE[0](state, event, sink, n)


def ended(state: GameState) -> bool:
    return state.ended


def location(state: GameState) -> tuple[int | None, int | None]:
    return (state.era or None, state.cycle or None)
