"""Per-game summaries of the large tables, written by the load step and read by the pages.

A page that counts findings, observations or phase minutes across a million games would
otherwise aggregate tens of millions of rows on every draw. These tables hold each game's counts
(per finding code, per observation category, per phase), so a page aggregates a few rows
per game instead; a figure is the same sum either way (``tests/test_warehouse_summaries.py``
compares every summary-based query with the per-event query it replaces).

Each summary is one SELECT over its source table, written once here and run on two sources:
the batch being loaded (the Arrow view :func:`ingest.warehouse.load.load_frames` registers, in
the load's transaction, so a game and its summaries commit together; a rebuild loads the same
way) and, in migration 8, the tables of a warehouse loaded before.

* ``game_findings``: findings per game, code, rule section and severity (``findings``);
* ``game_observations``: observations per game, category, Era and rule section (``rule`` NULL
  when none was cited);
* ``game_phases``: the minutes of each timed phase summed over the game (its Eras and cycles;
  phases without recorded minutes left out).
"""

from __future__ import annotations

import duckdb

#: summary table -> (its source table, CREATE statement, SELECT over ``{source}``)
SUMMARIES: dict[str, tuple[str, str, str]] = {
    "game_findings": (
        "findings",
        "CREATE TABLE game_findings (game_id VARCHAR, code VARCHAR, rule VARCHAR, "
        "severity VARCHAR, n BIGINT)",
        "SELECT game_id, code, rule, severity, count(*) AS n FROM {source} "
        "GROUP BY game_id, code, rule, severity",
    ),
    "game_observations": (
        "observations",
        "CREATE TABLE game_observations (game_id VARCHAR, category VARCHAR, era INTEGER, "
        "rule VARCHAR, n BIGINT)",
        "SELECT game_id, category, era, rule, count(*) AS n FROM {source} "
        "GROUP BY game_id, category, era, rule",
    ),
    "game_phases": (
        "phases",
        "CREATE TABLE game_phases (game_id VARCHAR, phase VARCHAR, minutes DOUBLE)",
        "SELECT game_id, phase, sum(minutes) AS minutes FROM {source} "
        "WHERE minutes IS NOT NULL GROUP BY game_id, phase",
    ),
}

#: the summary tables, for code that copies or lists derived tables
TABLES: tuple[str, ...] = tuple(SUMMARIES)


def migration_sql() -> str:
    """Create every summary table and fill it from the tables already loaded (migration 8)."""
    parts = []
    for name, (source, create, select) in SUMMARIES.items():
        parts.append(f"{create};\nINSERT INTO {name} BY NAME {select.format(source=source)};")
    return "\n".join(parts)


def present(con: duckdb.DuckDBPyConnection) -> frozenset[str]:
    """The summary tables this warehouse has (none before migration 8)."""
    rows = con.execute("SELECT table_name FROM information_schema.tables "
                       "WHERE list_contains(?::VARCHAR[], table_name)", [list(TABLES)]).fetchall()
    return frozenset(str(r[0]) for r in rows)


def add_batch(con: duckdb.DuckDBPyConnection, source: str, view: str,
              have: frozenset[str]) -> None:
    """Insert the summaries of the rows in the registered view ``view`` (a batch's rows of the
    table ``source``) into those of the tables ``have`` (:func:`present`) that summarise it, in
    the caller's transaction."""
    quoted = f'"{view}"'
    for name, (table, _create, select) in SUMMARIES.items():
        if table == source and name in have:
            # identifiers are this module's constants and the loader's view name, never user text
            con.execute(f"INSERT INTO {name} BY NAME {select.format(source=quoted)}")
