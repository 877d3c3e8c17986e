"""Versioned warehouse migrations: ``(version, name, SQL)``, each applied in one transaction,
then each registered game's declared tables.

A migration, once released, is never edited: a change to the shared tables is a new entry
appended to :data:`MIGRATIONS` (and the matching change to :mod:`ingest.warehouse.schema`, which a
test checks against the migrated database). Applied versions are recorded in
``schema_migrations``. Migrations 1-7 also created Mandate 2038's tables as they were then.
Migration 4 is the one edited: it created only Vestige's tables, and now does nothing, because
the declaration creates the same tables (same columns, same order) right after. From now on
**a game's tables come from its declaration** (``Ruleset.tables``, engine/core/game.py): after
the numbered migrations, :func:`declared_ddl` creates every declared table the database lacks
and adds every declared column it lacks (a game's own columns of the shared ``seats`` and
``outcomes`` tables too), so a game installed as its own package needs no migration written
here. A declared column whose type differs from the database's is an error
(a game may add columns, never retype them).
"""

from __future__ import annotations

from collections.abc import Collection

import duckdb

from ingest.archive import now_utc
from ingest.db import StorageError
from ingest.warehouse import balance as _balance
from ingest.warehouse import game_totals as _game_totals
from ingest.warehouse import summaries as _summaries

_V1 = """
CREATE TABLE games (
    game_id VARCHAR PRIMARY KEY,
    game VARCHAR,
    rules_version VARCHAR,
    profile VARCHAR,
    session_type VARCHAR,
    is_human BOOLEAN,
    illustrative BOOLEAN,
    player_count INTEGER,
    date DATE,
    venue VARCHAR,
    facilitator VARCHAR,
    protocol VARCHAR,
    detail VARCHAR,
    status VARCHAR,
    n_events INTEGER,
    n_errors INTEGER,
    n_warnings INTEGER,
    complete BOOLEAN,
    evidence BOOLEAN,
    evidence_reasons VARCHAR[],
    duration_evidence BOOLEAN,
    duration_reasons VARCHAR[],
    total_minutes DOUBLE,
    setup_minutes DOUBLE,
    source_format VARCHAR,
    source_name VARCHAR,
    raw_sha256 VARCHAR,
    archive_path VARCHAR,
    ingested_at TIMESTAMP,
    receipt JSON,
    rules_deviations VARCHAR[],
    interventions VARCHAR[],
    unchecked VARCHAR[]
);
CREATE TABLE seats (
    game_id VARCHAR,
    seat INTEGER,
    faction VARCHAR,
    player VARCHAR,
    final_mandate INTEGER,
    final_runway INTEGER,
    final_compute INTEGER,
    final_capability INTEGER,
    final_customers INTEGER,
    final_trust INTEGER,
    provisional_winner BOOLEAN,
    winner BOOLEAN
);
CREATE TABLE events (
    game_id VARCHAR,
    idx INTEGER,
    type VARCHAR,
    seat INTEGER,
    era INTEGER,
    cycle INTEGER,
    t TIMESTAMP,
    line INTEGER,
    payload JSON
);
CREATE TABLE findings (
    game_id VARCHAR,
    n INTEGER,
    code VARCHAR,
    severity VARCHAR,
    rule VARCHAR,
    message VARCHAR,
    event INTEGER,
    line INTEGER,
    era INTEGER,
    cycle INTEGER,
    seat INTEGER,
    expected JSON,
    recorded JSON
);
CREATE TABLE ledger (
    game_id VARCHAR,
    n INTEGER,
    seat INTEGER,
    era INTEGER,
    cycle INTEGER,
    event INTEGER,
    source VARCHAR,
    amount INTEGER,
    total INTEGER,
    detail VARCHAR
);
CREATE TABLE phases (
    game_id VARCHAR,
    phase VARCHAR,
    era INTEGER,
    cycle INTEGER,
    start_t TIMESTAMP,
    end_t TIMESTAMP,
    minutes DOUBLE
);
CREATE TABLE turn_times (
    game_id VARCHAR,
    era INTEGER,
    cycle INTEGER,
    seat INTEGER,
    action VARCHAR,
    event INTEGER,
    seconds DOUBLE
);
CREATE TABLE selections (
    game_id VARCHAR,
    era INTEGER,
    cycle INTEGER,
    seat INTEGER,
    pick VARCHAR,
    kind VARCHAR
);
CREATE TABLE turns (
    game_id VARCHAR,
    era INTEGER,
    cycle INTEGER,
    seat INTEGER,
    action VARCHAR,
    piece VARCHAR,
    from_hex VARCHAR,
    to_hex VARCHAR,
    distance INTEGER,
    tile VARCHAR,
    blocked BOOLEAN,
    event INTEGER
);
CREATE TABLE training_runs (
    game_id VARCHAR,
    era INTEGER,
    cycle INTEGER,
    seat INTEGER,
    event INTEGER,
    cards VARCHAR[],
    outcome VARCHAR,
    banked INTEGER,
    unique_domains INTEGER
);
CREATE TABLE audits (
    game_id VARCHAR,
    era INTEGER,
    seat INTEGER,
    cubes_drawn INTEGER,
    runway_lost INTEGER,
    trust_lost INTEGER
);
CREATE TABLE audit_draws (
    game_id VARCHAR,
    era INTEGER,
    expected INTEGER,
    drawn INTEGER,
    black INTEGER,
    bag_before INTEGER
);
CREATE TABLE dossiers (
    game_id VARCHAR,
    seat INTEGER,
    era INTEGER,
    card VARCHAR,
    orientation VARCHAR
);
CREATE TABLE production (
    game_id VARCHAR,
    era INTEGER,
    seat INTEGER,
    facilities_built INTEGER,
    facilities_powered INTEGER,
    demand_satisfied INTEGER,
    compute_produced INTEGER,
    runway_produced INTEGER
);
CREATE TABLE era_states (
    game_id VARCHAR,
    era INTEGER,
    seat INTEGER,
    mandate INTEGER,
    runway INTEGER,
    compute INTEGER,
    capability INTEGER,
    customers INTEGER,
    trust INTEGER,
    scrutiny INTEGER
);
CREATE TABLE era_mandates (
    game_id VARCHAR,
    era INTEGER,
    mandate VARCHAR,
    seat INTEGER,
    value DOUBLE,
    qualifies BOOLEAN,
    scored INTEGER
);
CREATE TABLE headlines (
    game_id VARCHAR,
    era INTEGER,
    cycle INTEGER,
    headline VARCHAR
);
CREATE TABLE outcomes (
    game_id VARCHAR,
    complete BOOLEAN,
    provisional_winners INTEGER[],
    winners INTEGER[],
    agi BOOLEAN,
    claimant INTEGER,
    ending VARCHAR,
    open BOOLEAN,
    collective_trust INTEGER,
    setup_collective_trust INTEGER,
    open_threshold INTEGER,
    trust_margin INTEGER,
    systemic_risk INTEGER,
    systemic_risk_limit INTEGER,
    details JSON
);
CREATE TABLE claims (
    game_id VARCHAR,
    seat INTEGER,
    publication BOOLEAN,
    paid BOOLEAN,
    modules_supported INTEGER,
    eligible BOOLEAN,
    strength INTEGER
);
CREATE TABLE observations (
    game_id VARCHAR,
    idx INTEGER,
    category VARCHAR,
    rule VARCHAR,
    seat INTEGER,
    era INTEGER,
    cycle INTEGER,
    text VARCHAR,
    minutes DOUBLE,
    t TIMESTAMP
);
CREATE TABLE survey (
    game_id VARCHAR,
    idx INTEGER,
    seat INTEGER,
    item VARCHAR,
    value_text VARCHAR,
    value_num DOUBLE
);
"""

_V2 = """
CREATE TABLE capture (
    game_id VARCHAR,
    item_id VARCHAR,
    grp VARCHAR,
    captured BOOLEAN,
    reason VARCHAR
);
"""

# seats.turn_order: 0 = the seat holding Initiative at the start (the designers' seat, counted
# from first Initiative). Ingest and rebuild fill it from the replay; rows already loaded get it
# from the first turn resolved in Era I cycle 1 (resolution runs clockwise from Initiative).
_V3 = """
ALTER TABLE seats ADD COLUMN turn_order INTEGER;
UPDATE seats AS s
SET turn_order = ((s.seat - f.first_seat) % f.n + f.n) % f.n
FROM (
    SELECT t.game_id, arg_min(t.seat, t.event) AS first_seat, any_value(g.player_count) AS n
    FROM turns t JOIN games g USING (game_id)
    WHERE t.era = 1 AND t.cycle = 1 AND t.seat IS NOT NULL
    GROUP BY t.game_id
) AS f
WHERE s.game_id = f.game_id AND f.n > 0;
"""

# Migration 4 created the tables of the second game (Vestige) as they were then: a game's own
# tables now come from its declaration (``Ruleset.tables``; engine/vestige/warehouse.py TABLES
# for those), created by :func:`migrate_declared` after the numbered migrations with the same
# columns in the same order. A database migrated before keeps them as they are; a new one (or
# one at version 3) gets them from the declaration, so migration 4 itself does nothing now.
_V4 = "-- a game's own tables: created from its declaration (migrate_declared)\n"

# findings.rulings: the rulings a finding rests on ("ID=OPTION, ..."; docs/engine.md, Rulings);
# rows loaded before it have none (a rebuild fills them)
_V5 = """
ALTER TABLE findings ADD COLUMN rulings VARCHAR;
"""

# seat_balance: one row per seat with what the designers' balance metrics read, derived from the
# loaded tables (ingest.warehouse.balance); filled in every load and here for games loaded before
_V6 = f"""
{_balance.CREATE_SQL};
INSERT INTO seat_balance BY NAME {_balance.select_sql("TRUE")};
"""

# Game-agnostic shared tables (issue 8): the shared columns of seats and outcomes first, then the
# columns a ruleset adds (Mandate 2038's, declared in engine/mandate2038/warehouse.py); a
# generic result for team, co-op and solo games; a ``round`` location part (Vestige) beside era
# and cycle. Existing Mandate 2038 outcomes are competitive.
_V7 = """
CREATE TABLE seats_v7 AS SELECT
    game_id, seat, faction, player, provisional_winner, winner, final_mandate, final_runway,
    final_compute, final_capability, final_customers, final_trust, turn_order
FROM seats;
DROP TABLE seats;
ALTER TABLE seats_v7 RENAME TO seats;
CREATE TABLE outcomes_v7 AS SELECT
    game_id, complete, provisional_winners, winners, ending, details,
    CAST('competitive' AS VARCHAR) AS mode, CAST(NULL AS VARCHAR) AS winning_team,
    CAST(NULL AS VARCHAR) AS result, agi, claimant, open, collective_trust,
    setup_collective_trust, open_threshold, trust_margin, systemic_risk, systemic_risk_limit
FROM outcomes;
DROP TABLE outcomes;
ALTER TABLE outcomes_v7 RENAME TO outcomes;
ALTER TABLE events ADD COLUMN round INTEGER;
ALTER TABLE findings ADD COLUMN round INTEGER;
ALTER TABLE ledger ADD COLUMN round INTEGER;
ALTER TABLE observations ADD COLUMN round INTEGER;
"""

# per-game summaries of findings, observations and phase minutes, written by every load
# (ingest.warehouse.summaries) and here for games loaded before; the pages read them
_V8 = _summaries.migration_sql()

# games.variant_name, variant_content_hash, variant_changes: the rules variant a game was played
# under, from its header's stamp (docs/variants.md): name, content hash, and the changes, paused
# abilities and options as JSON; NULL for the rules as printed. Rows loaded before it have none
# (``playtest rebuild`` fills them from the archive).
_V9 = """
ALTER TABLE games ADD COLUMN variant_name VARCHAR;
ALTER TABLE games ADD COLUMN variant_content_hash VARCHAR;
ALTER TABLE games ADD COLUMN variant_changes JSON;
"""

MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "tables of docs/warehouse.md", _V1),
    (2, "capture: checklist items of the game's observation protocol", _V2),
    (3, "seats.turn_order: turn order counted from first Initiative", _V3),
    (4, "a game's own tables: created from its declaration after the numbered migrations",
     _V4),
    (5, "findings.rulings: the rulings a finding rests on", _V5),
    (6, "seat_balance: per-seat inputs of the balance metrics", _V6),
    (7, "shared tables for every game: ruleset columns after the shared ones, outcome mode and "
        "result, round", _V7),
    (8, "game_findings, game_observations, game_phases: per-game summaries the pages read",
     _V8),
    (9, "games.variant_name, variant_content_hash, variant_changes: the rules variant played",
     _V9),
    (10, "finding_totals, observation_totals, turn_totals: totals per filtered games' values",
     _summaries.migration_10_sql()),
    (11, "game_rows: where each game's events, findings and seats are stored (row ids); "
         "survey_totals",
     _summaries.migration_11_sql()),
    (12, "seat_totals: seat-games and games per faction and winner flag, per filtered games' "
         "values", _game_totals.migration_12_sql()),
    (13, "phase_totals, duration_totals: games per phase and minutes, and per total minutes, "
         "per filtered games' values; "
         "protocol_rows: where each game's capture and survey rows are stored (row ids)",
     _summaries.migration_13_sql()),
    (14, "protocol_rows: where each game's observations are stored (row ids)",
     _summaries.migration_14_sql()),
    (15, "protocol_sessions: each human session's filtered values and protocol check rows",
     _summaries.migration_15_sql()),
]

_CREATE_LOG = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name VARCHAR NOT NULL,
    applied_at TIMESTAMP NOT NULL
)
"""


def _existing(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, str]]:
    """Table -> column -> DuckDB type, of the main schema."""
    out: dict[str, dict[str, str]] = {}
    rows = con.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position").fetchall()
    for table, column, dtype in rows:
        out.setdefault(str(table), {})[str(column)] = str(dtype)
    return out


def _ident(name: str) -> str:
    if not name.replace("_", "").isalnum():  # declarations are checked; this is a second lock
        raise StorageError(f"{name!r} is not a table or column name")
    return f'"{name}"'


def declared_ddl(existing: dict[str, dict[str, str]],
                 games: Collection[str] | None = None) -> list[str]:
    """The statements that bring a database with the tables ``existing`` (table -> column ->
    type) up to every registered game's declared tables (or only ``games``'), in registry
    order."""
    from engine.core.registry import rulesets

    statements: list[str] = []
    have = {t: dict(cols) for t, cols in existing.items()}
    for game, rs in rulesets().items():
        if games is not None and game not in games:
            continue
        for table, cols in rs.tables.items():
            if table not in have:
                body = ",\n    ".join(["game_id VARCHAR",
                                         *(f"{_ident(c)} {ty}" for c, ty in cols)])
                statements.append(f"CREATE TABLE {_ident(table)} (\n    {body}\n)")
                have[table] = {"game_id": "VARCHAR", **dict(cols)}
                continue
            for column, dtype in cols:
                found = have[table].get(column)
                if found is None:
                    statements.append(f"ALTER TABLE {_ident(table)} ADD COLUMN {_ident(column)} "
                                      f"{dtype}")
                    have[table][column] = dtype
                elif found != dtype:
                    raise StorageError(
                        f"the {game} game declares {table}.{column} as {dtype}, but the "
                        f"database has it as {found}; a game may add columns, not retype them")
    return statements


def migrate_declared(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Create or extend every registered game's declared tables (one transaction); return the
    statements run."""
    statements = declared_ddl(_existing(con))
    if not statements:
        return []
    con.execute("BEGIN TRANSACTION")
    try:
        for sql in statements:
            con.execute(sql)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return statements


def current_version(con: duckdb.DuckDBPyConnection) -> int:
    """The highest applied migration version (0 for an empty database)."""
    con.execute(_CREATE_LOG)
    rows = con.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchall()
    return int(rows[0][0]) if rows else 0


def migrate(con: duckdb.DuckDBPyConnection) -> list[int]:
    """Apply every migration not yet applied, each in its own transaction, then every registered
    game's declared tables (:func:`migrate_declared`); return the versions applied now. A
    database newer than this code is an error (it would be misread)."""
    have = current_version(con)
    latest = MIGRATIONS[-1][0]
    if have > latest:
        raise StorageError(
            f"the database is at schema version {have}, newer than this toolkit ({latest}); "
            "update the toolkit"
        )
    applied = []
    for version, name, sql in MIGRATIONS:
        if version <= have:
            continue
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(sql)
            con.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, CAST(? AS TIMESTAMP))",
                [version, name, now_utc().replace("+00:00", "")],
            )
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        applied.append(version)
    migrate_declared(con)
    return applied
