"""Legal moves of Mandate 2038 (Default Game): what may be recorded next, as complete events.

:func:`legal_moves` reads the engine's :class:`~engine.mandate2038.state.GameState` and returns
an :class:`engine.core.ruleset.Decision`:

* ``chance`` nodes: the Era Mandate reveal, the Headline reveal, every Training draw and the
  Audit draws, weighted by what is left in the deck or bag. Forced bookkeeping events (the
  ``phase: production`` marker, the Era IV Dossier reveal, the Era Mandate scoring and the final
  record, which the table writes from the visible state) are chance nodes with a single option
  of weight 1.
* ``simultaneous``: the secret selection; ``per_seat`` lists each seat's eligible picks (Core
  Actions, and Programs while it holds a marker) and ``combine`` builds the ``reveal`` event.
* ``player``: every turn (piece, path, mode and targets in one event), the optional immediate
  trade (offered as alternative options before the turn event), bank-or-continue during a
  Training Run, Production allocations, Dossier filings and faction-ability windows.

Some windows are optional and record nothing when declined (continue a Training Run, open the
Allocation Window, call the Emergency Pause). Their "decline" option is a :class:`Pass`; the
caller records no event and asks again with ``passed`` holding :attr:`Pass.key` (the simulator
clears ``passed`` after every event it applies).

Option lists are deliberately small but varied: each destination within two steps is reached
by one path; Organize and Reorganization offer a few representative movement plans; answers of
rivals (trade acceptance, Joint Venture consent) are part of the acting player's options.
Affordability checks are conservative (a discount that only sometimes applies is ignored), so
every option is legal; a choice is offered only when it has a legal resolution now (core rules
§2). Nothing here does I/O or uses randomness.

This module is the dispatcher (:func:`legal_moves`, :func:`simulation_legal_moves`); the
options come from :mod:`~engine.mandate2038.lazy_options` (lazy options, paths, tiles),
:mod:`~engine.mandate2038.selection_moves` (faction windows, the secret selection, the turn
decision and its trades), :mod:`~engine.mandate2038.turn_moves` (every resolution of a pick)
and :mod:`~engine.mandate2038.phase_moves` (Era start, Headlines, Training Runs, Production,
Dossier, Audit, and the values the table writes). The names other code uses are re-exported
here (``__all__``).
"""

from __future__ import annotations

from typing import Any

from engine.core.ruleset import Decision, Pass
from engine.mandate2038.lazy_options import (
    PATHS,
    Options,
    Spec,
    _built,
    _forced,
    _spec_class,
    _tiles,
)
from engine.mandate2038.phase_moves import (
    _allocation_options,
    _audit,
    _audit_options,
    _copy,
    _dossier,
    _era_start,
    _final_scoring_copy,
    _final_values,
    _headline_reveal,
    _option,
    _production,
    _production_begins,
    _record_from,
    _scored_copy,
    _training_decision,
    _workforce,
    allocation_options,
    banked_value,
    checkpoint_event,
    dossier_reveal_event,
    era_mandate_event,
    final_record_event,
)
from engine.mandate2038.selection_moves import (
    _before_selection,
    _eligible_picks,
    _quick_resolution,
    _Selection,
    _trade_options,
    _turn_decision,
    _unlocked_programs,
    eligible_picks,
    selection_decision,
)
from engine.mandate2038.state import GameState
from engine.mandate2038.turn_moves import _swarm_decision, _turn_events
from schemas import mandate2038 as ev


def legal_moves(state: GameState, pack: Any = None, passed: frozenset[str] = frozenset(),
                lazy: bool = False) -> Decision:
    """The next decision of the game in ``state``: who decides and what may be recorded.

    ``pack`` is accepted for symmetry with the ruleset protocol; the state's indexed content
    (``state.c``) is what is read. ``passed`` holds the keys of :class:`Pass` options already
    chosen since the last event. With ``lazy`` the turn options (and trades) are
    :class:`Spec` objects: call ``materialize()`` on the chosen one to get its event.

    The mode is this call's own (passed down, no module state): eager and lazy calls may run
    at once in threads, or one inside the other (``tests/test_movegen_reentrant.py``).
    """
    return _legal_moves(state, passed, lazy)


def simulation_legal_moves(state: GameState, passed: frozenset[str] = frozenset()) -> Decision:
    """``legal_moves(state, passed=passed, lazy=True)``, for the simulator's loop: called
    directly it saves the partial's keyword handling (about 2,500 instructions of a decision,
    160 decisions per game)."""
    return _legal_moves(state, passed, True)


def _legal_moves(state: GameState, passed: frozenset[str], lazy: bool) -> Decision:
    st = state
    if st.ended or st.phase == "ended" or st.final_done:
        return Decision(kind="end", label="the game is over")
    if st.run is not None:
        return _training_decision(st, passed, lazy)
    t = st.turn
    if t is not None and t.swarm_left:
        return _swarm_decision(st, t, lazy)
    if st.era == 0:
        return _era_start(st, 1, lazy)
    if not st.production_started and not st.production_done:
        if st.cycle == 0:
            return _headline_reveal(st, 1, lazy)
        if not st.revealed:
            return _before_selection(st, passed, lazy)
        if st.to_resolve:
            return _turn_decision(st, st.to_resolve[0], lazy)
        if st.cycle < 3:
            return _headline_reveal(st, st.cycle + 1, lazy)
        return _production_begins(lazy)
    if not st.production_done:
        return _production(st, lazy)
    if not any(st.era in x.dossier for x in st.seats):
        d = _workforce(st, passed, lazy)
        if d is not None:
            return d
    for seat in st.initiative_order():
        if st.era not in st.seat(seat).dossier:
            return _dossier(st, seat, lazy)
    if st.era == 4 and not st.dossier_revealed:
        return _forced(dossier_reveal_event(st), "reveal every Dossier")
    if not st.audit_done:
        return _audit(st, lazy)
    if not st.era_mandate_done:
        return _forced(era_mandate_event(st, lazy), "score the Era Mandate")
    if st.era < 4:
        return _era_start(st, st.era + 1, lazy)
    return _forced(final_record_event(st), "final scoring: the public record")


__all__ = [
    "Options",
    "PATHS",
    "Pass",
    "Spec",
    "_Selection",
    "_allocation_options",
    "_audit_options",
    "_built",
    "_copy",
    "_eligible_picks",
    "_final_scoring_copy",
    "_final_values",
    "_option",
    "_quick_resolution",
    "_record_from",
    "_scored_copy",
    "_spec_class",
    "_tiles",
    "_trade_options",
    "_turn_events",
    "_unlocked_programs",
    "allocation_options",
    "banked_value",
    "checkpoint_event",
    "eligible_picks",
    "ev",
    "final_record_event",
    "legal_moves",
    "selection_decision",
    "simulation_legal_moves",
]
