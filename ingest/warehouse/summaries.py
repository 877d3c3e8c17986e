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

The score ledger is not per game: per seat, source and Era it kept 3.54 of its 3.67 million
rows at 100,000 games. ``ledger_totals`` sums it instead over the games that share every value
the sidebar filters on (game, rules version, player count, session type, profile, date,
evidence, and what makes a game's kind: illustrative, human), per faction, winner flag, source
and Era, so the Scoring sources page applies the same filters to it as to ``games`` (aliased
``g``) and reads a few rows per distinct combination instead of every entry. Each load adds its
batch's sums as new rows (sums stay sums); :func:`compact` merges rows of the same key at the
end of an ingest or a rebuild.

At a million games the per-game summaries are still millions of rows (5.3 million in
``game_findings``), joined to a million ``games`` on every cold draw. Migration 9 keeps
:data:`TOTALS` the same way as ``ledger_totals``: per the games' filtered values
(:data:`GAME_KEYS`), ``game_totals`` (games, complete and with errors: the sidebar's choices and
the Games page's counts), ``finding_totals`` (findings and games per code, rule, severity),
``observation_totals`` (per category, Era, rule) and ``turn_totals`` (each recorded turn time
and how many turns took it: the Duration page's quantiles and moments, exact). Migration 13
adds ``phase_totals`` (each phase's per-game minutes by value: Duration's per-phase statistics)
and ``duration_totals`` (the timed games by total minutes), and ``protocol_rows``: where each
game's ``capture`` and ``survey`` rows are stored, as ``game_rows`` (migration 11) for events,
findings and seats; migration 14 has it locate each game's ``observations`` too. Migration 15
adds ``protocol_sessions``: each human session's filtered values and the rows its capture check
reads, as lists (the Observation protocols page's newest sessions and their check in one read).
"""

from __future__ import annotations

from collections.abc import Sequence

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

#: the per-game summary tables, for code that copies or lists derived tables
TABLES: tuple[str, ...] = tuple(SUMMARIES)


#: the key of ``ledger_totals``: the games columns the filters read, then the seat and entry's
LEDGER_KEYS: tuple[str, ...] = (
    "game", "rules_version", "player_count", "session_type", "profile", "date", "evidence",
    "illustrative", "is_human", "faction", "winner", "source", "era",
)
LEDGER_TOTALS_CREATE = (
    "CREATE TABLE ledger_totals (game VARCHAR, rules_version VARCHAR, player_count INTEGER, "
    "session_type VARCHAR, profile VARCHAR, date DATE, evidence BOOLEAN, illustrative BOOLEAN, "
    "is_human BOOLEAN, faction VARCHAR, winner BOOLEAN, source VARCHAR, era INTEGER, "
    "amount BIGINT, entries BIGINT)"
)
# the seats join is inner, as the page's query on the ledger was: an entry without a seat of
# the game does not count
LEDGER_TOTALS_SELECT = (
    "SELECT g.game, g.rules_version, g.player_count, g.session_type, g.profile, g.date, "
    "g.evidence, g.illustrative, g.is_human, s.faction, coalesce(s.winner, FALSE) AS winner, "
    "l.source, l.era, CAST(sum(l.amount) AS BIGINT) AS amount, count(*) AS entries "
    "FROM {ledger} l JOIN {games} g USING (game_id) "
    "JOIN {seats} s ON s.game_id = l.game_id AND s.seat = l.seat GROUP BY ALL"
)


#: the games columns every filter-keyed total is kept per: what the sidebar filters on (both
#: evidence flags: the Duration page filters on ``duration_evidence``) and what makes a game's
#: kind; a page applies the sidebar's condition to a totals table aliased ``g`` as to ``games``
GAME_KEYS: tuple[str, ...] = (
    "game", "rules_version", "player_count", "session_type", "profile", "date", "evidence",
    "duration_evidence", "illustrative", "is_human",
)
_GAME_KEYS_DDL = (
    "game VARCHAR, rules_version VARCHAR, player_count INTEGER, session_type VARCHAR, "
    "profile VARCHAR, date DATE, evidence BOOLEAN, duration_evidence BOOLEAN, "
    "illustrative BOOLEAN, is_human BOOLEAN"
)
_G = ", ".join(f"g.{k}" for k in GAME_KEYS)

#: filter-keyed totals (migration 10) -> (its source table, CREATE, SELECT over ``{source}`` and
#: ``{games}``, the summed columns): at a million games the per-game summaries still held 5.3
#: million finding rows, which a page joined to ``games`` on every cold draw
TOTALS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    # the games themselves: the sidebar's choices and the Games page's counts
    "game_totals": (
        "games",
        f"CREATE TABLE game_totals ({_GAME_KEYS_DDL}, complete BOOLEAN, with_errors BOOLEAN, "
        "games BIGINT)",
        f"SELECT {_G}, g.complete, coalesce(g.n_errors, 0) > 0 AS with_errors, "
        "count(*) AS games FROM {games} g GROUP BY ALL",
        ("games",),
    ),
    "finding_totals": (
        "findings",
        f"CREATE TABLE finding_totals ({_GAME_KEYS_DDL}, code VARCHAR, rule VARCHAR, "
        "severity VARCHAR, findings BIGINT, games BIGINT)",
        # games: the games with such a finding (one per-game row each)
        f"SELECT {_G}, f.code, f.rule, f.severity, CAST(sum(f.n) AS BIGINT) AS findings, "
        "count(*) AS games FROM (SELECT game_id, code, rule, severity, count(*) AS n "
        "FROM {source} GROUP BY ALL) f JOIN {games} g USING (game_id) GROUP BY ALL",
        ("findings", "games"),
    ),
    "observation_totals": (
        "observations",
        f"CREATE TABLE observation_totals ({_GAME_KEYS_DDL}, category VARCHAR, era INTEGER, "
        "rule VARCHAR, observations BIGINT)",
        f"SELECT {_G}, o.category, o.era, o.rule, count(*) AS observations "
        "FROM {source} o JOIN {games} g USING (game_id) GROUP BY ALL",
        ("observations",),
    ),
    # the recorded turn times by value: quantiles and moments are exact from (value, count)
    "turn_totals": (
        "turn_times",
        f"CREATE TABLE turn_totals ({_GAME_KEYS_DDL}, action VARCHAR, seconds DOUBLE, n BIGINT)",
        f"SELECT {_G}, t.action, t.seconds, count(*) AS n FROM {{source}} t "
        "JOIN {games} g USING (game_id) WHERE t.seconds IS NOT NULL GROUP BY ALL",
        ("n",),
    ),
    # migration 11: the survey's numeric answers by value (the Observation protocols page's
    # box statistics per item: exact from (value, count), as the turn times)
    "survey_totals": (
        "survey",
        f"CREATE TABLE survey_totals ({_GAME_KEYS_DDL}, item VARCHAR, value_num DOUBLE, "
        "n BIGINT)",
        f"SELECT {_G}, sv.item, sv.value_num, count(*) AS n FROM {{source}} sv "
        "JOIN {games} g USING (game_id) WHERE sv.value_num IS NOT NULL GROUP BY ALL",
        ("n",),
    ),
    # migration 13: each phase's minutes summed per game (as ``game_phases``), by value: how
    # many games spent that long on it (the Duration page's per-phase moments and medians,
    # exact from (value, count) as the turn times; joining 2.2 million ``game_phases`` rows to
    # ``games`` took 0.53 CPU s of the page's 0.94 at a million games)
    "phase_totals": (
        "phases",
        f"CREATE TABLE phase_totals ({_GAME_KEYS_DDL}, phase VARCHAR, minutes DOUBLE, n BIGINT)",
        f"SELECT {_G}, p.phase, p.minutes, count(*) AS n "
        f"FROM ({SUMMARIES['game_phases'][2]}) p JOIN {{games}} g USING (game_id) GROUP BY ALL",
        ("n",),
    ),
    # migration 13: the timed games by total minutes (the Duration page's total minutes:
    # moments, median and the chart's games per whole minute, without reading every game)
    "duration_totals": (
        "games",
        f"CREATE TABLE duration_totals ({_GAME_KEYS_DDL}, total_minutes DOUBLE, n BIGINT)",
        f"SELECT {_G}, g.total_minutes, count(*) AS n FROM {{games}} g "
        "WHERE g.total_minutes IS NOT NULL GROUP BY ALL",
        ("n",),
    ),
}
TOTALS_TABLES: tuple[str, ...] = tuple(TOTALS)
#: the totals migration 10 created (the others are later migrations')
TOTALS_10: tuple[str, ...] = ("game_totals", "finding_totals", "observation_totals", "turn_totals")
#: the totals migration 11 created
TOTALS_11: tuple[str, ...] = ("survey_totals",)
#: the totals migration 13 created
TOTALS_13: tuple[str, ...] = ("phase_totals", "duration_totals")


def _totals_keys(name: str) -> list[str]:
    """The key columns of the totals table ``name`` (its columns less the summed ones)."""
    create = TOTALS[name][1]
    cols = [c.strip().split()[0] for c in create[create.index("(") + 1:-1].split(",")]
    return [c for c in cols if c not in TOTALS[name][3]]


def migration_10_sql() -> str:
    """Create the filter-keyed totals and fill them from the tables loaded (migration 10)."""
    return _totals_sql(TOTALS_10)


def _totals_sql(names: tuple[str, ...]) -> str:
    """Create the totals ``names`` and fill them from the tables loaded."""
    return "\n".join(f"{create};\nINSERT INTO {name} BY NAME "
                     f"{select.format(source=source, games='games')};"
                     for name, (source, create, select, _sums) in TOTALS.items() if name in names)


def migration_sql() -> str:
    """Create every summary table and fill it from the tables already loaded (migration 8)."""
    parts = []
    for name, (source, create, select) in SUMMARIES.items():
        parts.append(f"{create};\nINSERT INTO {name} BY NAME {select.format(source=source)};")
    totals = LEDGER_TOTALS_SELECT.format(ledger="ledger", games="games", seats="seats")
    parts.append(f"{LEDGER_TOTALS_CREATE};\nINSERT INTO ledger_totals BY NAME {totals};")
    return "\n".join(parts)


def add_totals(con: duckdb.DuckDBPyConnection, views: dict[str, str],
               have: frozenset[str]) -> None:
    """Add the ``ledger_totals`` of a batch whose ``games``, ``seats`` and ``ledger`` rows are
    the registered views ``views[table]`` (in the caller's transaction)."""
    for name, (source, _create, select, _sums) in TOTALS.items():
        if name in have and {"games", source} <= set(views):
            con.execute(f"INSERT INTO {name} BY NAME "
                        + select.format(source=f'"{views[source]}"', games=f'"{views["games"]}"'))
    add_sessions(con, views, have)
    if "ledger_totals" not in have or not {"games", "seats", "ledger"} <= set(views):
        return
    sql = LEDGER_TOTALS_SELECT.format(**{t: f'"{views[t]}"' for t in ("games", "seats", "ledger")})
    con.execute(f"INSERT INTO ledger_totals BY NAME {sql}")


def compact(con: duckdb.DuckDBPyConnection) -> None:
    """Merge the rows of one key of ``ledger_totals`` and the :data:`TOTALS` tables (each load
    adds its own), in one transaction; the sums are the same before and after."""
    have = present(con)
    tables = {name: (_totals_keys(name), sums) for name, (*_, sums) in TOTALS.items()}
    tables["ledger_totals"] = (list(LEDGER_KEYS), ("amount", "entries"))
    con.execute("BEGIN TRANSACTION")
    try:
        for name, (key, sums) in tables.items():
            if name not in have:
                continue
            merge_rows(con, name, key, ", ".join(f"CAST(sum({c}) AS BIGINT) AS {c}" for c in sums))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def merge_rows(con: duckdb.DuckDBPyConnection, name: str, key: Sequence[str], summed: str) -> None:
    """Merge the rows of table ``name`` that share ``key`` into one, with the ``summed`` select
    list (``CAST(sum(c) AS ...) AS c, ...``), in the caller's transaction."""
    keys = ", ".join(key)
    con.execute(f"CREATE TEMP TABLE _compact AS SELECT {keys}, {summed} FROM {name} GROUP BY {keys}")
    con.execute(f"DELETE FROM {name}")
    con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM _compact")
    con.execute("DROP TABLE _compact")


#: every table :func:`present` looks for
SUMMARISED: frozenset[str] = frozenset({*TABLES, "ledger_totals", *TOTALS_TABLES, "game_rows",
                                        "protocol_rows", "protocol_sessions"})


def present(con: duckdb.DuckDBPyConnection) -> frozenset[str]:
    """The summary tables this warehouse has (none before migration 8), ``ledger_totals``
    included (those of :data:`SUMMARISED`)."""
    rows = con.execute("SELECT table_name FROM information_schema.tables "
                       "WHERE list_contains(?::VARCHAR[], table_name)",
                       [sorted(SUMMARISED)]).fetchall()
    return frozenset(str(r[0]) for r in rows)


def refresh(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute every summary table from the tables (in the caller's transaction): for a
    warehouse whose tables were written other than by the load step (a test's hand-made rows)."""
    have = present(con)
    for name, (source, _create, select) in SUMMARIES.items():
        if name in have:
            con.execute(f"DELETE FROM {name}")
            con.execute(f"INSERT INTO {name} BY NAME {select.format(source=source)}")
    for name, (source, _create, select, _sums) in TOTALS.items():
        if name in have:
            con.execute(f"DELETE FROM {name}")
            con.execute(f"INSERT INTO {name} BY NAME {select.format(source=source, games='games')}")
    if "ledger_totals" in have:
        con.execute("DELETE FROM ledger_totals")
        con.execute("INSERT INTO ledger_totals BY NAME "
                    + LEDGER_TOTALS_SELECT.format(ledger="ledger", games="games", seats="seats"))
    locate(con)
    sessions(con)


def add_batch(con: duckdb.DuckDBPyConnection, source: str, view: str,
              have: frozenset[str], rows: int | None = None) -> None:
    """Insert the summaries of the rows in the registered view ``view`` (a batch's rows of the
    table ``source``: ``rows`` of them, when the caller knows) into those of the tables
    ``have`` (:func:`present`) that summarise it, in the caller's transaction."""
    quoted = f'"{view}"'
    for name, (table, _create, select) in SUMMARIES.items():
        if table == source and name in have:
            # identifiers are this module's constants and the loader's view name, never user text
            con.execute(f"INSERT INTO {name} BY NAME {select.format(source=quoted)}")
    if source in LOCATIONS and LOCATIONS[source] in have:
        add_locations(con, source, view, rows)


# --- where a game's rows are (migration 11) -------------------------------------------------

#: the per-event tables a page reads one game's rows of (the Replay viewer's events, Audit's
#: findings of one game, a game's seats), by where they are stored
LOCATED: tuple[str, ...] = ("events", "findings", "seats")

#: ``game_rows``: the rows of table ``tbl`` of game ``game_id`` are its ``n`` rows from row id
#: ``lo`` on. A game's rows are loaded together (one INSERT per table per batch, in the batch's
#: order), so they are stored side by side; a page reads them with ``rowid BETWEEN lo AND
#: lo + n - 1``, which DuckDB answers from those row groups alone, where ``game_id = ?`` scans
#: the column of every row (game ids are hashes: zone maps prune nothing). A reader checks
#: that it found ``n`` rows and else reads by game id (:func:`dashboards.queries.game_rows`).
GAME_ROWS_CREATE = "CREATE TABLE game_rows (tbl VARCHAR, game_id VARCHAR, lo BIGINT, n BIGINT)"

#: the tables whose games' rows ``protocol_rows`` locates (migration 13), as ``game_rows``
#: does :data:`LOCATED`'s: what the Observation protocols page's capture check reads of its
#: 100 sessions (``capture``: 8.2 million rows at a million games, read by game id in 0.17 CPU
#: s; by row id in about 0.02). A table of its own: ``game_rows`` stays as migration 11 wrote it.
PROTOCOL_LOCATED_13: tuple[str, ...] = ("capture", "survey")
#: and, since migration 14, ``observations``: the page's check of its 100 sessions read their
#: observation categories from ``game_observations`` by game id (a scan of its game ids: a
#: game's rows there are not stored side by side, they are one load's GROUP BY output) and the
#: events of a category that does not fit from ``observations`` (46 million rows at a million
#: games); a game's observations are loaded together, so their row ids locate them
PROTOCOL_LOCATED: tuple[str, ...] = (*PROTOCOL_LOCATED_13, "observations")
PROTOCOL_ROWS_CREATE = GAME_ROWS_CREATE.replace("game_rows", "protocol_rows")

#: located table -> the table holding its games' locations
LOCATIONS: dict[str, str] = {**{t: "game_rows" for t in LOCATED},
                             **{t: "protocol_rows" for t in PROTOCOL_LOCATED}}


def _locate_sql(table: str) -> str:
    """The locations of every game's rows in ``table`` (one of :data:`LOCATIONS`), from row
    ids."""
    if table not in LOCATIONS:
        raise ValueError(f"{table!r} is not a located table")
    return (f"SELECT '{table}' AS tbl, game_id, min(rowid) AS lo, count(*) AS n "
            f"FROM {table} GROUP BY game_id")


def migration_11_sql() -> str:
    """Create ``game_rows`` and fill it from the tables loaded (migration 11), sorted by table
    and game id (a lookup by game id then reads one of its row groups: zone maps), and
    ``survey_totals``."""
    union = " UNION ALL ".join(_locate_sql(t) for t in LOCATED)
    # recomputed whole when a database already has the table (a copy whose log was rewound)
    create = GAME_ROWS_CREATE.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
    return (f"{create};\nDELETE FROM game_rows;\nINSERT INTO game_rows BY NAME SELECT * FROM "
            f"({union}) ORDER BY tbl, game_id;\n{_totals_sql(TOTALS_11)}")


def migration_13_sql() -> str:
    """Create ``phase_totals`` and ``protocol_rows`` and fill them from the tables loaded
    (migration 13); ``protocol_rows`` sorted by table and game id, as ``game_rows``."""
    union = " UNION ALL ".join(_locate_sql(t) for t in PROTOCOL_LOCATED_13)
    create = PROTOCOL_ROWS_CREATE.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
    # each recomputed whole when the database already has it (the migrations re-run after an
    # older one, a copy whose log was rewound)
    totals = _totals_sql(TOTALS_13).replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
    for name in TOTALS_13:
        totals = totals.replace(f"INSERT INTO {name} BY NAME",
                                f"DELETE FROM {name};\nINSERT INTO {name} BY NAME")
    return (f"{totals}\n{create};\nDELETE FROM protocol_rows;\n"
            f"INSERT INTO protocol_rows BY NAME SELECT * FROM ({union}) ORDER BY tbl, game_id;")


def migration_14_sql() -> str:
    """Add the locations of every game's ``observations`` rows to ``protocol_rows`` (migration
    14), sorted by game id after migration 13's; recomputed when already there (the migrations
    re-run after an older one)."""
    return ("DELETE FROM protocol_rows WHERE tbl = 'observations';\n"
            "INSERT INTO protocol_rows BY NAME SELECT * FROM "
            f"({_locate_sql('observations')}) ORDER BY tbl, game_id;")


def locate(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute ``game_rows`` from the stored row ids (in the caller's transaction): for
    tables written other than by the load step (the page bench's replicated warehouse, a
    test's hand-made rows)."""
    have = present(con)
    for into in ("game_rows", "protocol_rows"):
        if into in have:
            con.execute(f"DELETE FROM {into}")
    for table, into in LOCATIONS.items():
        if into in have:
            con.execute(f"INSERT INTO {into} BY NAME SELECT * FROM ({_locate_sql(table)}) "
                        "ORDER BY game_id")


def add_locations(con: duckdb.DuckDBPyConnection, source: str, view: str,
                  rows: int | None = None) -> None:
    """Add the ``game_rows`` of the batch just inserted into ``source`` from the registered view
    ``view`` (called right after that INSERT, in the load's transaction).

    Rows inserted in a transaction carry row ids of their own until it commits; they are then
    appended after the stored rows in the order inserted. So a game's first row id is the
    stored row count plus its rows' offset among the batch's (its least row id here less the
    batch's least). ``rows``: the view's row count, when the caller knows it."""
    quoted = f'"{view}"'
    total = con.execute(f"SELECT count(*) FROM {source}").fetchall()[0][0]
    batch = rows if rows is not None else con.execute(
        f"SELECT count(*) FROM {quoted}").fetchall()[0][0]
    stored = int(total) - int(batch)  # committed rows: row ids 0 .. stored - 1
    # identifiers are this module's constants and the loader's view name, never user text
    con.execute(
        f"INSERT INTO {LOCATIONS[source]} BY NAME SELECT '{source}' AS tbl, game_id, "
        "? + min(rowid) - (SELECT min(rowid) FROM " + source + " WHERE rowid >= ?) AS lo, "
        f"count(*) AS n FROM {source} WHERE rowid >= ? GROUP BY game_id",
        [stored, stored, stored])


# --- each human session's protocol check, one row (migration 15) ------------------------------

#: ``protocol_sessions``: one row per human session (``is_human`` and not illustrative: the
#: sessions the Observation protocols page scores by default), with the games columns the
#: sidebar filters on and the page shows (:data:`GAME_KEYS`, protocol, archive path, what a
#: game's name is made of) and what its capture check reads of the game, as lists: its
#: ``capture`` rows (stored order), its observation ``categories`` (each with its count, by
#: first event), its ``survey`` answers (log order) and its ``seats``. The page read the
#: newest 100 sessions from ``games`` and then their rows of four tables by location (0.1 CPU
#: s of a cold draw at a million games); this is one read of 100 rows.
PROTOCOL_SESSIONS_CREATE = (
    f"CREATE TABLE protocol_sessions (game_id VARCHAR, {_GAME_KEYS_DDL}, protocol VARCHAR, "
    "archive_path VARCHAR, source_name VARCHAR, source_format VARCHAR, "
    'capture STRUCT(item VARCHAR, "group" VARCHAR, captured BOOLEAN, reason VARCHAR)[], '
    "categories STRUCT(category VARCHAR, n BIGINT)[], "
    "survey STRUCT(idx INTEGER, item VARCHAR, seat INTEGER, value_text VARCHAR, "
    "value_num DOUBLE)[], seats INTEGER[])"
)

#: the sessions ``protocol_sessions`` keeps (on ``games`` aliased ``g``), as
#: ``dashboards.queries.HUMAN_SQL``
PROTOCOL_SESSIONS_WHERE = "g.is_human AND NOT coalesce(g.illustrative, FALSE)"


def _sessions_select(games: str, capture: str, observations: str, survey: str,
                     seats: str, part: str = "TRUE") -> str:
    """The ``protocol_sessions`` rows of the games in ``games`` from the rows in the other
    sources (tables, views or subqueries; ``capture`` with a column ``_r``, its rows' stored
    order), of the games ``part`` holds (a condition on ``game_id``, applied to every source
    before its lists are gathered)."""
    return (
        f"SELECT g.game_id, {_G}, g.protocol, g.archive_path, g.source_name, g.source_format, "
        "c.capture, o.categories, sv.survey, s.seats FROM {games} g "
        "LEFT JOIN (SELECT game_id, list({'item': item_id, 'group': grp, 'captured': captured, "
        f"'reason': reason}} ORDER BY _r) AS capture FROM {capture} WHERE {part} GROUP BY game_id) c "
        "USING (game_id) "
        "LEFT JOIN (SELECT game_id, list({'category': category, 'n': n} ORDER BY first, "
        "category NULLS LAST) AS categories FROM (SELECT game_id, category, count(*) AS n, "
        f"min(idx) AS first FROM {observations} WHERE {part} GROUP BY game_id, category) "
        "GROUP BY game_id) o "
        "USING (game_id) "
        "LEFT JOIN (SELECT game_id, list({'idx': idx, 'item': item, 'seat': seat, "
        "'value_text': value_text, 'value_num': value_num} ORDER BY idx) AS survey "
        f"FROM {survey} WHERE {part} GROUP BY game_id) sv USING (game_id) "
        "LEFT JOIN (SELECT game_id, list(seat ORDER BY seat) AS seats "
        f"FROM {seats} WHERE {part} GROUP BY game_id) s USING (game_id) "
        f"WHERE {PROTOCOL_SESSIONS_WHERE} AND {part.replace('game_id', 'g.game_id')}"
    ).replace("{games}", games)


#: the whole-warehouse fill of ``protocol_sessions`` runs in this many statements, each for the
#: games of one part (by a hash of the game id): an ordered ``list`` aggregate holds its rows in
#: memory, and at a million games (8.2 million capture rows) one statement over every session
#: ran out of the page bench builder's 1 GB (and took 4.5 GB unbounded)
SESSION_PARTS = 16


def _sessions_from_tables(part: str = "TRUE") -> str:
    return _sessions_select("games", f"(SELECT *, rowid AS _r FROM capture WHERE {part})",
                            "observations", "survey", "seats", part)


def _session_parts() -> list[str]:
    """One ``INSERT`` of ``protocol_sessions`` per part of the games (:data:`SESSION_PARTS`)."""
    return [f"INSERT INTO protocol_sessions BY NAME "
            f"{_sessions_from_tables(f'hash(game_id) % {SESSION_PARTS} = {i}')}"
            for i in range(SESSION_PARTS)]


def migration_15_sql() -> str:
    """Create ``protocol_sessions`` and fill it from the tables loaded (migration 15; recomputed
    when the database already has it: the migrations re-run after an older one), part by part."""
    create = PROTOCOL_SESSIONS_CREATE.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
    return ";\n".join([create, "DELETE FROM protocol_sessions", *_session_parts()]) + ";"


def sessions(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute ``protocol_sessions`` from the tables (in the caller's transaction), when the
    warehouse has it: for tables written other than by the load step (the page bench's
    replicated warehouse, a test's hand-made rows), part by part."""
    if "protocol_sessions" in present(con):
        con.execute("DELETE FROM protocol_sessions")
        for insert in _session_parts():
            con.execute(insert)


def add_sessions(con: duckdb.DuckDBPyConnection, views: dict[str, str],
                 have: frozenset[str]) -> None:
    """Add the ``protocol_sessions`` rows of a batch whose rows are the registered views
    ``views[table]``, just inserted (in the load's transaction). Its capture rows are read
    from the table, where they were inserted in their order (a view's aggregate has no order):
    those after the committed rows."""
    if "protocol_sessions" not in have or "games" not in views:
        return

    def source(table: str) -> str:
        return f'"{views[table]}"' if table in views else f"(SELECT * FROM {table} WHERE FALSE)"

    if "capture" in views:
        total = con.execute("SELECT count(*) FROM capture").fetchall()[0][0]
        batch = con.execute(f'SELECT count(*) FROM "{views["capture"]}"').fetchall()[0][0]
        stored = int(total) - int(batch)  # committed rows: row ids 0 .. stored - 1
        capture = f"(SELECT *, rowid AS _r FROM capture WHERE rowid >= {stored})"
    else:
        capture = "(SELECT *, rowid AS _r FROM capture WHERE FALSE)"
    con.execute("INSERT INTO protocol_sessions BY NAME " + _sessions_select(
        source("games"), capture, source("observations"), source("survey"), source("seats")))
