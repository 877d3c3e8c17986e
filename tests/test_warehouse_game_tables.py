"""Game tables come from the games' declarations (issue 27), and a database migrated before
still opens and migrates: migration 4 created Vestige's tables with the DDL below (kept here as
released); it now does nothing and :func:`migrate_declared` creates them from the declaration,
with the same columns in the same order."""

from __future__ import annotations

import duckdb
import pytest

from engine.core.registry import get_ruleset
from ingest.warehouse.migrations import MIGRATIONS, _existing, declared_ddl, migrate

pytestmark = pytest.mark.needs_game("vestige")

# migration 4 as released (ingest/warehouse/migrations.py before issue 27)
_RELEASED_V4 = """
CREATE TABLE vestige_games (
    game_id VARCHAR,
    mode VARCHAR,
    rounds INTEGER,
    final_round INTEGER,
    conditions_needed INTEGER,
    conditions_met INTEGER,
    nemeses INTEGER,
    difficulty VARCHAR,
    result VARCHAR,
    everyone_lost BOOLEAN,
    nemesis_won BOOLEAN,
    declared_values VARCHAR[]
);
CREATE TABLE vestige_seats (
    game_id VARCHAR,
    seat INTEGER,
    colour VARCHAR,
    team VARCHAR,
    final_leverage INTEGER,
    speed INTEGER,
    regions_controlled INTEGER,
    cards INTEGER,
    covert_ops_completed INTEGER,
    winner BOOLEAN
);
CREATE TABLE vestige_regions (
    game_id VARCHAR,
    region VARCHAR,
    position VARCHAR,
    revealed_round INTEGER,
    visits INTEGER,
    visits_by_others INTEGER,
    control_changes INTEGER,
    controller_seat INTEGER,
    controller_nemesis VARCHAR,
    visit_leverage INTEGER
);
CREATE TABLE vestige_control (
    game_id VARCHAR,
    event INTEGER,
    round INTEGER,
    region VARCHAR,
    seat INTEGER,
    nemesis VARCHAR,
    previous_seat INTEGER,
    previous_nemesis VARCHAR,
    conviction INTEGER,
    takeover BOOLEAN
);
CREATE TABLE vestige_endgame (
    game_id VARCHAR,
    condition VARCHAR,
    revealed_round INTEGER,
    revealed_event INTEGER,
    met BOOLEAN,
    met_round INTEGER,
    met_event INTEGER,
    triggered_final BOOLEAN
);
CREATE TABLE vestige_mastery (
    game_id VARCHAR,
    colour VARCHAR,
    seat INTEGER,
    team VARCHAR,
    nemesis VARCHAR,
    cards INTEGER,
    claimed BOOLEAN,
    leverage INTEGER
);
CREATE TABLE vestige_jobs (
    game_id VARCHAR,
    seat INTEGER,
    card VARCHAR,
    kind VARCHAR,
    character VARCHAR,
    picked_round INTEGER,
    picked_event INTEGER,
    completed_round INTEGER,
    completed_event INTEGER,
    die VARCHAR,
    severed BOOLEAN,
    leverage INTEGER
);
CREATE TABLE vestige_nemesis (
    game_id VARCHAR,
    nemesis VARCHAR,
    difficulty VARCHAR,
    team BOOLEAN,
    final_threat INTEGER,
    final_leverage INTEGER,
    regions_controlled INTEGER,
    goal_met BOOLEAN,
    won BOOLEAN
);
"""


def _vestige(cols: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    return {t: c for t, c in cols.items() if t.startswith("vestige_")}


def _migrated_before(upto: int) -> duckdb.DuckDBPyConnection:
    """A database migrated by the released migrations up to ``upto`` (migration 4 with its
    released DDL), as a toolkit before issue 27 left it."""
    con = duckdb.connect()
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                "name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
    for version, name, sql in MIGRATIONS:
        if version > upto:
            break
        con.execute(_RELEASED_V4 if version == 4 else sql)
        con.execute("INSERT INTO schema_migrations VALUES (?, ?, TIMESTAMP '2026-01-01')",
                    [version, name])
    return con


def test_a_new_database_gets_the_game_tables_of_the_released_migration() -> None:
    released = _vestige(_existing(_migrated_before(MIGRATIONS[-1][0])))
    con = duckdb.connect()
    migrate(con)
    now = _vestige(_existing(con))
    assert now == released  # same tables, same columns, same order, same types
    assert {t: list(c) for t, c in now.items()} == {t: list(c) for t, c in released.items()}
    rs = get_ruleset("vestige")
    assert rs is not None and set(now) == set(rs.tables)


@pytest.mark.parametrize("upto", [3, 4, MIGRATIONS[-1][0]])
def test_a_database_migrated_before_still_migrates(upto: int) -> None:
    con = _migrated_before(upto)
    con.execute("INSERT INTO vestige_games (game_id, mode) VALUES ('g1', 'team')"
                if upto >= 4 else "SELECT 1")
    applied = migrate(con)
    assert applied == [v for v, _n, _s in MIGRATIONS if v > upto]
    cols = _existing(con)
    assert declared_ddl(cols) == []  # every declared table and column is there
    fresh = duckdb.connect()
    migrate(fresh)
    assert _vestige(cols) == _vestige(_existing(fresh))
    if upto >= 4:  # the rows loaded before are kept
        assert con.execute("SELECT game_id, mode FROM vestige_games").fetchall() == [("g1", "team")]
    assert migrate(con) == []
