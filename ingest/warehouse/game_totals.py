"""Totals per filtered games' values of the ``seats`` table (migration 12), kept like
:data:`ingest.warehouse.summaries.TOTALS`.

``seat_totals`` holds one row per distinct value of every column the sidebar filters on
(:data:`ingest.warehouse.summaries.GAME_KEYS`) and per faction and winner flag: the seat-games
(``seats``) and the games with a seat there counted once each (``games``: a game's first seat,
the least seat number, counts it). The Scoring sources page divides its ledger sums by these
instead of counting the ``seats`` of the filtered games on every draw (4 million rows at a
million games). A page applies the sidebar's condition to it aliased ``g`` as to ``games``.

This module also keeps the totals of :data:`ingest.warehouse.balance.TOTALS` (the Balance,
End conditions and Variants pages'), which are derived from ``seat_balance`` and Mandate 2038's
columns beside it. Each load adds its games' sums in its transaction (:func:`add_loaded`,
called by :func:`ingest.warehouse.load.load_frames` after the batch's ``seat_balance`` rows: a
game's rows are always loaded together, so its first seat is in the same batch);
:func:`compact` merges the rows of one key at the end of an ingest; migration 12 fills them for
a warehouse loaded before; a warehouse without them is read from the rows as before
(``tests/test_game_totals.py`` compares the two).
"""

from __future__ import annotations

import duckdb

from ingest.warehouse import balance as _balance
from ingest.warehouse import summaries
from ingest.warehouse.summaries import GAME_KEYS

_G = ", ".join(f"g.{k}" for k in GAME_KEYS)
_GAME_KEYS_DDL = (
    "game VARCHAR, rules_version VARCHAR, player_count INTEGER, session_type VARCHAR, "
    "profile VARCHAR, date DATE, evidence BOOLEAN, duration_evidence BOOLEAN, "
    "illustrative BOOLEAN, is_human BOOLEAN"
)

#: totals table -> (its source table, CREATE, SELECT over ``{source}`` and ``{games}``, the
#: summed columns)
TOTALS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "seat_totals": (
        "seats",
        f"CREATE TABLE seat_totals ({_GAME_KEYS_DDL}, faction VARCHAR, winner BOOLEAN, "
        "seats BIGINT, games BIGINT)",
        # the games join is inner, as the pages' queries on seats are; a game's first seat
        # (the least seat number) counts the game once
        f"SELECT {_G}, s.faction, coalesce(s.winner, FALSE) AS winner, count(*) AS seats, "
        "count(*) FILTER (WHERE s.first) AS games FROM (SELECT game_id, faction, winner, "
        "row_number() OVER (PARTITION BY game_id ORDER BY seat) = 1 AS first "
        "FROM {source}) s JOIN {games} g USING (game_id) GROUP BY ALL",
        ("seats", "games"),
    ),
}
#: every table this module keeps: :data:`TOTALS` and the Balance page's
#: (:data:`ingest.warehouse.balance.TOTALS`)
TABLES: tuple[str, ...] = (*TOTALS, *_balance.TOTALS)


def _keys_of(create: str, sums: tuple[str, ...]) -> list[str]:
    """The key columns of a totals table (its CREATE's columns less the summed ones)."""
    cols = [c.strip().split()[0] for c in create[create.index("(") + 1:-1].split(",")]
    return [c for c in cols if c not in sums]


def _keys(name: str) -> list[str]:
    """The key columns of the totals table ``name``."""
    if name in TOTALS:
        return _keys_of(TOTALS[name][1], TOTALS[name][3])
    create, sums = _balance.TOTALS[name]
    return _keys_of(create, sums)


def _sums(name: str) -> tuple[str, ...]:
    return TOTALS[name][3] if name in TOTALS else _balance.TOTALS[name][1]


def migration_12_sql() -> str:
    """Create the totals and fill them from the tables loaded (migration 12). A table already
    there (a test that re-runs the migrations after 8 on a warehouse loaded since) is filled
    again from the tables: the same sums."""
    return "\n".join([
        *(f"{create.replace('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS', 1)};\n"
          f"DELETE FROM {name};\nINSERT INTO {name} BY NAME "
          f"{select.format(source=source, games='games')};"
          for name, (source, create, select, _sums) in TOTALS.items()),
        _balance.migration_12_sql()])


def present(con: duckdb.DuckDBPyConnection) -> frozenset[str]:
    """The tables of :data:`TABLES` this warehouse has (none before migration 12)."""
    rows = con.execute("SELECT table_name FROM information_schema.tables "
                       "WHERE list_contains(?::VARCHAR[], table_name)", [list(TABLES)]).fetchall()
    return frozenset(str(r[0]) for r in rows)


def add_loaded(con: duckdb.DuckDBPyConnection, game_ids: list[str],
               have: frozenset[str] | None = None, *, batch: bool = False) -> None:
    """Add the totals of the games ``game_ids`` just loaded (their rows and ``seat_balance``
    written, in the caller's transaction) to the tables of :data:`TABLES` the warehouse has
    (``have``, :func:`present`, when the caller knows them).

    ``batch``: the tables' names stand for the load's own rows, which are exactly these games'
    (the load step's temporary views, ``seat_balance`` included), so nothing is filtered; else
    each table's rows are those of the listed games (``list_contains`` compares each row with
    every id)."""
    ids = sorted(set(game_ids))
    if not ids:
        return
    if have is None:
        have = present(con)
    cond = "{t}" if batch else "(SELECT * FROM {t} WHERE list_contains(?::VARCHAR[], game_id))"
    for name, (source, _create, select, _sums) in TOTALS.items():
        if name in have:
            # identifiers are this module's constants; the ids travel as parameters
            con.execute(f"INSERT INTO {name} BY NAME " + select.format(
                source=cond.format(t=source), games=cond.format(t="games")),
                None if batch else [ids, ids])
    _balance.add_totals(con, ids, have, batch=batch)


def compact(con: duckdb.DuckDBPyConnection) -> None:
    """Merge the rows of one key of each table of :data:`TABLES` (each load adds its own), in
    one transaction; the sums are the same before and after."""
    have = present(con)
    con.execute("BEGIN TRANSACTION")
    try:
        for name in TABLES:
            if name not in have:
                continue
            summed = ", ".join(f"CAST(sum({c}) AS {'DOUBLE' if c in _DOUBLES else 'BIGINT'}) "
                               f"AS {c}" for c in _sums(name))
            summaries.merge_rows(con, name, _keys(name), summed)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


#: the summed columns that are sums of fractions (win credit), kept as doubles
_DOUBLES = frozenset({"credit", "converted", "points"})


def refresh(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute every table of :data:`TABLES` from the tables (in the caller's transaction):
    for a warehouse whose tables were written other than by the load step."""
    have = present(con)
    for name, (source, _create, select, _sums) in TOTALS.items():
        if name in have:
            con.execute(f"DELETE FROM {name}")
            con.execute(f"INSERT INTO {name} BY NAME {select.format(source=source, games='games')}")
    _balance.refresh_totals(con)
