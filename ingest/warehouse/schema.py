"""The current shape of every warehouse table, as polars dtypes.

This is the Python side of the tables that :mod:`ingest.warehouse.migrations` creates; a test
checks that the migrated database has exactly these columns and types, so the two cannot drift.
Frames for loading are built with these dtypes (strict: a value of the wrong type is an error,
never a silent null). ``game_id`` is the first column of every game table.
"""

from __future__ import annotations

import polars as pl

S: pl.DataType = pl.String()
I: pl.DataType = pl.Int32()  # noqa: E741 - short names keep the table list readable
D: pl.DataType = pl.Float64()
B: pl.DataType = pl.Boolean()
TS: pl.DataType = pl.Datetime("us")
DATE: pl.DataType = pl.Date()
J: pl.DataType = pl.String()  # JSON text; DuckDB stores it as JSON
SL: pl.DataType = pl.List(pl.String())
IL: pl.DataType = pl.List(pl.Int32())

# table -> ordered (column, polars dtype, DuckDB type)
TABLES: dict[str, list[tuple[str, pl.DataType, str]]] = {}


def _t(name: str, *cols: tuple[str, pl.DataType, str]) -> None:
    TABLES[name] = [("game_id", S, "VARCHAR"), *cols]


def _c(name: str, dtype: pl.DataType) -> tuple[str, pl.DataType, str]:
    duck = {
        S: "VARCHAR", I: "INTEGER", D: "DOUBLE", B: "BOOLEAN", TS: "TIMESTAMP",
        SL: "VARCHAR[]", IL: "INTEGER[]", DATE: "DATE",
    }[dtype]
    return (name, dtype, duck)


def _json(name: str) -> tuple[str, pl.DataType, str]:
    return (name, J, "JSON")


_t(
    "games",
    _c("game", S), _c("rules_version", S), _c("profile", S), _c("session_type", S),
    _c("is_human", B), _c("illustrative", B), _c("player_count", I), _c("date", DATE),
    _c("venue", S), _c("facilitator", S), _c("protocol", S), _c("detail", S), _c("status", S),
    _c("n_events", I), _c("n_errors", I), _c("n_warnings", I), _c("complete", B),
    _c("evidence", B), _c("evidence_reasons", SL), _c("duration_evidence", B),
    _c("duration_reasons", SL), _c("total_minutes", D), _c("setup_minutes", D),
    _c("source_format", S), _c("source_name", S), _c("raw_sha256", S), _c("archive_path", S),
    _c("ingested_at", TS), _json("receipt"), _c("rules_deviations", SL),
    _c("interventions", SL), _c("unchecked", SL),
)
_t(
    "seats",
    _c("seat", I), _c("faction", S), _c("player", S), _c("final_mandate", I),
    _c("final_runway", I), _c("final_compute", I), _c("final_capability", I),
    _c("final_customers", I), _c("final_trust", I), _c("provisional_winner", B), _c("winner", B),
    _c("turn_order", I),
)
_t(
    "events",
    _c("idx", I), _c("type", S), _c("seat", I), _c("era", I), _c("cycle", I), _c("t", TS),
    _c("line", I), _json("payload"),
)
_t(
    "findings",
    _c("n", I), _c("code", S), _c("severity", S), _c("rule", S), _c("message", S),
    _c("event", I), _c("line", I), _c("era", I), _c("cycle", I), _c("seat", I),
    _json("expected"), _json("recorded"), _c("rulings", S),
)
_t(
    "ledger",
    _c("n", I), _c("seat", I), _c("era", I), _c("cycle", I), _c("event", I), _c("source", S),
    _c("amount", I), _c("total", I), _c("detail", S),
)
_t(
    "phases",
    _c("phase", S), _c("era", I), _c("cycle", I), _c("start_t", TS), _c("end_t", TS),
    _c("minutes", D),
)
_t(
    "turn_times",
    _c("era", I), _c("cycle", I), _c("seat", I), _c("action", S), _c("event", I),
    _c("seconds", D),
)
_t("selections", _c("era", I), _c("cycle", I), _c("seat", I), _c("pick", S), _c("kind", S))
_t(
    "turns",
    _c("era", I), _c("cycle", I), _c("seat", I), _c("action", S), _c("piece", S),
    _c("from_hex", S), _c("to_hex", S), _c("distance", I), _c("tile", S), _c("blocked", B),
    _c("event", I),
)
_t(
    "training_runs",
    _c("era", I), _c("cycle", I), _c("seat", I), _c("event", I), _c("cards", SL),
    _c("outcome", S), _c("banked", I), _c("unique_domains", I),
)
_t(
    "audits",
    _c("era", I), _c("seat", I), _c("cubes_drawn", I), _c("runway_lost", I), _c("trust_lost", I),
)
_t(
    "audit_draws",
    _c("era", I), _c("expected", I), _c("drawn", I), _c("black", I), _c("bag_before", I),
)
_t("dossiers", _c("seat", I), _c("era", I), _c("card", S), _c("orientation", S))
_t(
    "production",
    _c("era", I), _c("seat", I), _c("facilities_built", I), _c("facilities_powered", I),
    _c("demand_satisfied", I), _c("compute_produced", I), _c("runway_produced", I),
)
_t(
    "era_states",
    _c("era", I), _c("seat", I), _c("mandate", I), _c("runway", I), _c("compute", I),
    _c("capability", I), _c("customers", I), _c("trust", I), _c("scrutiny", I),
)
_t(
    "era_mandates",
    _c("era", I), _c("mandate", S), _c("seat", I), _c("value", D), _c("qualifies", B),
    _c("scored", I),
)
_t("headlines", _c("era", I), _c("cycle", I), _c("headline", S))
_t(
    "outcomes",
    _c("complete", B), _c("provisional_winners", IL), _c("winners", IL), _c("agi", B),
    _c("claimant", I), _c("ending", S), _c("open", B), _c("collective_trust", I),
    _c("setup_collective_trust", I), _c("open_threshold", I), _c("trust_margin", I),
    _c("systemic_risk", I), _c("systemic_risk_limit", I), _json("details"),
)
_t(
    "claims",
    _c("seat", I), _c("publication", B), _c("paid", B), _c("modules_supported", I),
    _c("eligible", B), _c("strength", I),
)
_t(
    "observations",
    _c("idx", I), _c("category", S), _c("rule", S), _c("seat", I), _c("era", I),
    _c("cycle", I), _c("text", S), _c("minutes", D), _c("t", TS),
)
_t(
    "survey",
    _c("idx", I), _c("seat", I), _c("item", S), _c("value_text", S), _c("value_num", D),
)

_t(
    "capture",
    _c("item_id", S), _c("grp", S), _c("captured", B), _c("reason", S),
)

# Vestige's own tables (migration 4; docs/vestige.md, filled by ingest/warehouse/vestige.py).
_t(
    "vestige_games",
    _c("mode", S), _c("rounds", I), _c("final_round", I), _c("conditions_needed", I),
    _c("conditions_met", I), _c("nemeses", I), _c("difficulty", S), _c("result", S),
    _c("everyone_lost", B), _c("nemesis_won", B), _c("declared_values", SL),
)
_t(
    "vestige_seats",
    _c("seat", I), _c("colour", S), _c("team", S), _c("final_leverage", I), _c("speed", I),
    _c("regions_controlled", I), _c("cards", I), _c("covert_ops_completed", I), _c("winner", B),
)
_t(
    "vestige_regions",
    _c("region", S), _c("position", S), _c("revealed_round", I), _c("visits", I),
    _c("visits_by_others", I), _c("control_changes", I), _c("controller_seat", I),
    _c("controller_nemesis", S), _c("visit_leverage", I),
)
_t(
    "vestige_control",
    _c("event", I), _c("round", I), _c("region", S), _c("seat", I), _c("nemesis", S),
    _c("previous_seat", I), _c("previous_nemesis", S), _c("conviction", I), _c("takeover", B),
)
_t(
    "vestige_endgame",
    _c("condition", S), _c("revealed_round", I), _c("revealed_event", I), _c("met", B),
    _c("met_round", I), _c("met_event", I), _c("triggered_final", B),
)
_t(
    "vestige_mastery",
    _c("colour", S), _c("seat", I), _c("team", S), _c("nemesis", S), _c("cards", I),
    _c("claimed", B), _c("leverage", I),
)
_t(
    "vestige_jobs",
    _c("seat", I), _c("card", S), _c("kind", S), _c("character", S), _c("picked_round", I),
    _c("picked_event", I), _c("completed_round", I), _c("completed_event", I), _c("die", S),
    _c("severed", B), _c("leverage", I),
)
_t(
    "vestige_nemesis",
    _c("nemesis", S), _c("difficulty", S), _c("team", B), _c("final_threat", I),
    _c("final_leverage", I), _c("regions_controlled", I), _c("goal_met", B), _c("won", B),
)
VESTIGE_TABLES: tuple[str, ...] = tuple(t for t in TABLES if t.startswith("vestige_"))

# Tables filled from ReplayResult.records (the engine's rows), by name.
RECORD_TABLES: frozenset[str] = frozenset(
    {
        "selections", "turns", "training_runs", "audits", "audit_draws", "dossiers",
        "production", "era_states", "era_mandates", "headlines", "claims",
        *VESTIGE_TABLES,
    }
)
GAME_TABLES: tuple[str, ...] = tuple(TABLES)


def polars_schema(table: str) -> dict[str, pl.DataType]:
    """The polars schema of ``table``."""
    return {name: dtype for name, dtype, _ in TABLES[table]}


def empty_frame(table: str) -> pl.DataFrame:
    """An empty frame with the columns and dtypes of ``table``."""
    return pl.DataFrame(schema=polars_schema(table))
