"""Mandate 2038's columns in the shared warehouse tables (docs/warehouse.md): each seat's final
Mandate and resources (``seats``) and how the game ended (``outcomes``: the AGI claim, Collective
Trust, Systemic Risk). The ruleset returns them with its records as ``"seats"`` and
``"outcomes"`` rows; the ingest layer adds them to the shared rows without knowing their names.
"""

from __future__ import annotations

from typing import Any

from engine.core.replay import Outcome
from engine.mandate2038.state import GameState

SEAT_RESOURCES = ("runway", "compute", "capability", "customers", "trust")
OUTCOME_DETAILS = ("agi", "claimant", "open", "collective_trust", "setup_collective_trust",
                   "open_threshold", "trust_margin", "systemic_risk", "systemic_risk_limit")


def seat_rows(st: GameState, era_states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: the score ledger's last total (``final_mandate``) and the resources of its last
    Era-end state (``final_runway`` ... ``final_trust``; None before the first Era ends)."""
    last_total: dict[int, int] = {}
    for e in st.ledger:
        last_total[e.seat] = e.total
    last_state: dict[int, dict[str, Any]] = {}
    for r in era_states:
        seat = r.get("seat")
        if isinstance(seat, int) and (r.get("era") or 0) >= (last_state.get(seat, {}).get("era") or 0):
            last_state[seat] = r
    rows = []
    for s in st.seats:
        state = last_state.get(s.seat, {})
        row: dict[str, Any] = {"seat": s.seat, "final_mandate": last_total.get(s.seat),
                               "turn_order": turn_order(st, s.seat)}
        row.update({f"final_{k}": state.get(k) for k in SEAT_RESOURCES})
        rows.append(row)
    return rows


def turn_order(st: GameState, seat: int) -> int | None:
    """The seat's place in turn order counted from first Initiative (§1 Setup step 9): 0 for
    the seat holding Initiative at the start, 1 the next clockwise, ... The state's first
    Initiative is the header's, or inferred from the first turn when the header lacks it."""
    first = st.first_initiative
    if not isinstance(first, int) or not 1 <= first <= st.n:
        return None
    return (seat - first) % st.n


def outcome_rows(outcome: Outcome | None) -> list[dict[str, Any]]:
    """The outcome's Mandate 2038 details as one row (none without an outcome)."""
    if outcome is None:
        return []
    d = outcome.details or {}
    return [{k: d.get(k) for k in OUTCOME_DETAILS}]
