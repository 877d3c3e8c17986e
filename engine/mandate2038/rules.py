"""Functional entry points over the ruleset object, for callers that hold a state
(``moves.py``, the simulator): ``apply(state, event, sink)`` folds one event in place."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.mandate2038.ruleset import HANDLERS, _noop
from engine.mandate2038.state import GameState
from schemas.mandate2038 import MandateEvent


def apply(state: GameState, event: MandateEvent, sink: FindingSink) -> None:
    """Fold one validated event into ``state`` (mutates it), reporting on ``sink``."""
    state.event_index = sink.event
    HANDLERS.get(event.type, _noop)(state, event, sink)
