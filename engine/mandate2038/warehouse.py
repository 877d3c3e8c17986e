"""Mandate 2038's columns in the shared warehouse tables (docs/warehouse.md): each seat's final
Mandate and resources (``seats``) and how the game ended (``outcomes``: the AGI claim, Collective
Trust, Systemic Risk). The ruleset returns them with its records as ``"seats"`` and
``"outcomes"`` rows; the ingest layer adds them to the shared rows without knowing their names.
"""

from __future__ import annotations

from typing import Any

from engine.core.replay import Outcome
from engine.core.ruleset import TableColumns
from engine.mandate2038.state import GameState

# Mandate 2038's warehouse tables (docs/warehouse.md): (column, DuckDB type), without game_id.
TABLES: dict[str, TableColumns] = {
    "selections": (
        ("era", "INTEGER"), ("cycle", "INTEGER"), ("seat", "INTEGER"), ("pick", "VARCHAR"),
        ("kind", "VARCHAR"),
    ),
    "turns": (
        ("era", "INTEGER"), ("cycle", "INTEGER"), ("seat", "INTEGER"), ("action", "VARCHAR"),
        ("piece", "VARCHAR"), ("from_hex", "VARCHAR"), ("to_hex", "VARCHAR"),
        ("distance", "INTEGER"), ("tile", "VARCHAR"), ("blocked", "BOOLEAN"),
        ("event", "INTEGER"),
    ),
    "training_runs": (
        ("era", "INTEGER"), ("cycle", "INTEGER"), ("seat", "INTEGER"), ("event", "INTEGER"),
        ("cards", "VARCHAR[]"), ("outcome", "VARCHAR"), ("banked", "INTEGER"),
        ("unique_domains", "INTEGER"),
    ),
    "audits": (
        ("era", "INTEGER"), ("seat", "INTEGER"), ("cubes_drawn", "INTEGER"),
        ("runway_lost", "INTEGER"), ("trust_lost", "INTEGER"),
    ),
    "audit_draws": (
        ("era", "INTEGER"), ("expected", "INTEGER"), ("drawn", "INTEGER"), ("black", "INTEGER"),
        ("bag_before", "INTEGER"),
    ),
    "dossiers": (
        ("seat", "INTEGER"), ("era", "INTEGER"), ("card", "VARCHAR"), ("orientation", "VARCHAR"),
    ),
    "production": (
        ("era", "INTEGER"), ("seat", "INTEGER"), ("facilities_built", "INTEGER"),
        ("facilities_powered", "INTEGER"), ("demand_satisfied", "INTEGER"),
        ("compute_produced", "INTEGER"), ("runway_produced", "INTEGER"),
    ),
    "era_states": (
        ("era", "INTEGER"), ("seat", "INTEGER"), ("mandate", "INTEGER"), ("runway", "INTEGER"),
        ("compute", "INTEGER"), ("capability", "INTEGER"), ("customers", "INTEGER"),
        ("trust", "INTEGER"), ("scrutiny", "INTEGER"),
    ),
    "era_mandates": (
        ("era", "INTEGER"), ("mandate", "VARCHAR"), ("seat", "INTEGER"), ("value", "DOUBLE"),
        ("qualifies", "BOOLEAN"), ("scored", "INTEGER"),
    ),
    "headlines": (
        ("era", "INTEGER"), ("cycle", "INTEGER"), ("headline", "VARCHAR"),
    ),
    "claims": (
        ("seat", "INTEGER"), ("publication", "BOOLEAN"), ("paid", "BOOLEAN"),
        ("modules_supported", "INTEGER"), ("eligible", "BOOLEAN"), ("strength", "INTEGER"),
    ),
    # Mandate 2038's columns of the shared tables
    "seats": (
        ("final_mandate", "INTEGER"), ("final_runway", "INTEGER"), ("final_compute", "INTEGER"),
        ("final_capability", "INTEGER"), ("final_customers", "INTEGER"), ("final_trust", "INTEGER"),
        ("turn_order", "INTEGER"),
    ),
    "outcomes": (
        ("agi", "BOOLEAN"), ("claimant", "INTEGER"), ("open", "BOOLEAN"),
        ("collective_trust", "INTEGER"), ("setup_collective_trust", "INTEGER"),
        ("open_threshold", "INTEGER"), ("trust_margin", "INTEGER"), ("systemic_risk", "INTEGER"),
        ("systemic_risk_limit", "INTEGER"),
    ),
}

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
