"""Migration 13: Duration's per-phase statistics from ``phase_totals`` and the protocol check's
reads by ``protocol_rows`` give the figures of the queries they replace (issue 30, branch
``phase1m``).

``queries.phase_moments`` joined every game's ``game_phases`` rows to ``games`` (2.2 million
rows at a million games); it now reads ``phase_totals`` (games per phase and per-game minutes,
per the sidebar's filtered values). The Observation protocols page's capture check read the
``capture``, ``survey`` and ``seats`` rows of its 100 sessions by game id (a scan of the column
of every row); it now reads them by their located row ids (``protocol_rows``, ``game_rows``).
The replaced SQL is kept below verbatim and compared under many filter sets on 25 ingested
games (loaded four at a time: several loads' totals merged) and on them replicated to 250.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
from polars.testing import assert_frame_equal

from dashboards import protocols, queries, store
from dashboards.queries import Filters
from ingest.warehouse import summaries
from ingest.warehouse.migrations import MIGRATIONS, migrate
from tests import bench_warehouse
from tests.bench_warehouse import FILTERS as COMMON
from tests.bench_warehouse import direct, sorted_frame

#: the 25 ingested games and them replicated to 250 (the shared module-scoped fixture)
warehouses = bench_warehouse.warehouses

# --- the queries replaced, verbatim as they stood on main (6ff64f1) --------------------------


def _old_phase_moments(where: str, human: str) -> str:
    """``queries.phase_moments`` from the per-game ``game_phases`` (migration 8)."""
    per_game = (f"SELECT p.game_id, g.player_count, p.phase, p.minutes FROM game_phases p "
                f"JOIN games g USING (game_id) WHERE {where} AND {human}")
    return (f"SELECT phase, player_count, count(minutes) AS n, avg(minutes) AS mean, "
            f"median(minutes) AS median, stddev_samp(minutes) AS sd, min(minutes) AS minimum "
            f"FROM ({per_game}) GROUP BY ALL ORDER BY ALL")


_OLD_CAPTURE = ('SELECT c.game_id, c.item_id AS item, c.grp AS "group", c.captured, c.reason '
                "FROM capture c WHERE c.game_id IN (SELECT unnest(?::VARCHAR[])) "
                "ORDER BY c.game_id")
_OLD_SURVEY = ("SELECT sv.game_id, sv.idx, sv.item, sv.seat, sv.value_text, sv.value_num "
               "FROM survey sv WHERE sv.game_id IN (SELECT unnest(?::VARCHAR[])) "
               "ORDER BY sv.game_id, sv.idx")
_OLD_SEATS = ("SELECT s.game_id, s.seat FROM seats s WHERE s.game_id IN "
              "(SELECT unnest(?::VARCHAR[])) ORDER BY s.game_id, s.seat")


FILTERS = [
    *COMMON,
    Filters(games=("mandate2038",)),
    Filters(games=("mandate2038",), player_counts=(3, 5)),
    Filters(games=("mandate2038",), evidence_only=True),
    Filters(rules_versions=("no-such-version",)),
]


def _check_phase_moments(db: Path) -> int:
    """queries.phase_moments against the per-game query under every filter set; rows
    compared."""
    store._CACHE.clear()
    assert queries.summarised(db, "phase_totals")
    compared = 0
    for f in FILTERS:
        where, params = f.where("g", "duration_evidence")
        for everyone in (False, True):
            human = "TRUE" if everyone else queries.HUMAN_SQL
            new = queries.phase_moments(db, f, everyone)
            old = direct(db, _old_phase_moments(where, human), params)
            assert new.columns == old.columns
            assert new.dtypes == old.dtypes
            assert_frame_equal(new, old, rel_tol=1e-9, abs_tol=1e-9)  # ORDER BY ALL both
            compared += old.height
    return compared


def test_phase_moments_from_totals_equal_the_per_game_query(
        warehouses: tuple[Path, Path]) -> None:
    base, big = warehouses
    assert _check_phase_moments(base) > 10
    assert _check_phase_moments(big) > 10
    con = duckdb.connect(str(base), read_only=True)
    try:
        # the loads' totals were merged at the end of the ingest: one row per key
        keys = ", ".join(summaries._totals_keys("phase_totals"))
        row = con.execute(f"SELECT count(*), count(DISTINCT ({keys})), sum(n) "
                          "FROM phase_totals").fetchone()
        games = con.execute("SELECT count(*) FROM game_phases").fetchone()
    finally:
        con.close()
    assert row is not None and games is not None
    assert row[0] == row[1] > 0 and row[2] == games[0]


def test_phase_totals_median_and_spread_of_equal_and_single_values(tmp_path: Path) -> None:
    """Hand-made totals: one game (no standard deviation), every game the same minutes (a
    standard deviation of exactly 0, as stddev_samp), an even count (the median between two)."""
    db = tmp_path / "t.duckdb"
    con = duckdb.connect(str(db))
    try:
        migrate(con)
        cols = ", ".join(summaries.GAME_KEYS)
        rows = [("setup", 3, 12.5, 1), ("era_1", 4, 30.1, 7), ("era_2", 4, 10.0, 1),
                ("era_2", 4, 20.0, 2), ("era_2", 4, 41.0, 1)]
        for phase, players, minutes, n in rows:
            con.execute(f"INSERT INTO phase_totals ({cols}, phase, minutes, n) VALUES "
                        "('mandate2038', '1', ?, 'facilitated_playtest', 'p', DATE '2026-01-01', "
                        "TRUE, TRUE, FALSE, TRUE, ?, ?, ?)", [players, phase, minutes, n])
    finally:
        con.close()
    store._CACHE.clear()
    got = {(r["phase"], r["player_count"]): r
           for r in queries.phase_moments(db, Filters()).iter_rows(named=True)}
    assert got[("setup", 3)]["n"] == 1 and got[("setup", 3)]["sd"] is None
    assert got[("era_1", 4)]["sd"] == 0.0 and got[("era_1", 4)]["median"] == 30.1
    era2 = got[("era_2", 4)]
    assert era2["n"] == 4 and era2["median"] == 20.0 and era2["minimum"] == 10.0
    assert abs(era2["mean"] - 22.75) < 1e-12
    values = pl.Series([10.0, 20.0, 20.0, 41.0])
    assert abs(era2["sd"] - float(values.std())) < 1e-12  # type: ignore[arg-type]


def _session_ids(db: Path) -> list[str]:
    """Every game id, a few games twice and one unknown: what a protocol check may ask."""
    ids = direct(db, "SELECT game_id FROM games ORDER BY game_id", [])["game_id"].to_list()
    return [*ids, *ids[:3], "no-such-game"]


def _check_protocol_reads(db: Path, located: bool = True) -> int:
    """The capture check's reads by location equal the reads by game id; rows compared."""
    store._CACHE.clear()
    ids = _session_ids(db)
    compared = 0
    for part in (ids, ids[::7], ids[:1], []):
        read = queries.protocol_check_rows(db, part)
        for name, sql in (("capture", _OLD_CAPTURE), ("survey", _OLD_SURVEY),
                          ("seats", _OLD_SEATS)):
            old = direct(db, sql, [part])
            new = read[name]
            if old.is_empty():
                assert new.is_empty(), name
                continue
            assert new.columns == old.columns and new.dtypes == old.dtypes, name
            assert_frame_equal(sorted_frame(new), sorted_frame(old))
            # in game order (and each game's survey answers and seats in their order)
            assert new["game_id"].to_list() == old["game_id"].to_list()
            if name == "seats":  # one row per game and seat: the order is the whole order
                assert_frame_equal(new, old)
            compared += old.height
        if part:
            assert_frame_equal(sorted_frame(queries.capture(db, part)),
                               sorted_frame(direct(db, _OLD_CAPTURE, [part])))
            assert_frame_equal(queries.seat_numbers(db, part), direct(db, _OLD_SEATS, [part]))
    assert queries.summarised(db, "protocol_rows") is located
    return compared


def test_protocol_reads_by_location_equal_the_reads_by_game_id(
        warehouses: tuple[Path, Path]) -> None:
    base, big = warehouses
    assert _check_protocol_reads(base) > 100
    assert _check_protocol_reads(big) > 1000


def _locations_ok(db: Path) -> int:
    """``protocol_rows`` says exactly where each game's capture and survey rows are."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        for table in summaries.PROTOCOL_LOCATED:
            got = con.sql("SELECT game_id, lo, n FROM protocol_rows WHERE tbl = ?",
                          params=[table]).pl()
            want = con.sql(f"SELECT game_id, min(rowid) AS lo, count(*) AS n, "
                           f"max(rowid) - min(rowid) + 1 AS span FROM {table} GROUP BY ALL").pl()
            assert_frame_equal(sorted_frame(got), sorted_frame(want.drop("span")))
            assert (want["span"] == want["n"]).all(), f"{table}: a game's rows not side by side"
        return int(con.execute("SELECT count(*) FROM protocol_rows").fetchall()[0][0])
    finally:
        con.close()


def test_protocol_rows_locate_each_games_rows(warehouses: tuple[Path, Path]) -> None:
    """Loaded four games at a time (each load adds its batch's locations in its transaction)
    and replicated (located from the row ids by the builder)."""
    base, big = warehouses
    assert _locations_ok(base) >= 10  # the 5 facilitated games' capture and survey
    assert _locations_ok(big) >= 100
    assert queries.LOCATIONS == summaries.LOCATIONS


def test_a_wrong_protocol_location_is_read_by_game_id(warehouses: tuple[Path, Path],
                                                      tmp_path: Path) -> None:
    base, _ = warehouses
    db = tmp_path / "moved.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        # one game's capture rows shifted by one (another game's first row in its range),
        # another's survey count too large
        con.execute("UPDATE protocol_rows SET lo = lo + 1 WHERE tbl = 'capture' AND game_id = "
                    "(SELECT min(game_id) FROM protocol_rows WHERE tbl = 'capture')")
        con.execute("UPDATE protocol_rows SET n = n + 1 WHERE tbl = 'survey' AND game_id = "
                    "(SELECT max(game_id) FROM protocol_rows WHERE tbl = 'survey')")
        con.execute("UPDATE game_rows SET lo = lo + 2 WHERE tbl = 'seats' AND game_id = "
                    "(SELECT min(game_id) FROM game_rows WHERE tbl = 'seats')")
    finally:
        con.close()
    assert _check_protocol_reads(db) > 100


def test_migration_13_writes_what_the_loads_wrote(warehouses: tuple[Path, Path],
                                                  tmp_path: Path) -> None:
    base, _ = warehouses
    db = tmp_path / "v12.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        made = ("phase_totals", "duration_totals", "protocol_rows")
        want = {t: con.sql(f"SELECT * FROM {t}").pl() for t in made}
        for table in made:  # as loaded before migration 13
            con.execute(f"DROP TABLE {table}")
        con.execute("DELETE FROM schema_migrations WHERE version >= 13")
        assert migrate(con) == [v for v, _, _ in MIGRATIONS if v >= 13] == [13, 14, 15]
        for table, frame in want.items():
            assert_frame_equal(sorted_frame(con.sql(f"SELECT * FROM {table}").pl()), sorted_frame(frame),
                               rel_tol=1e-12)
        # run again over its own tables (the migrations re-run after an older one): the same
        con.execute("DELETE FROM schema_migrations WHERE version >= 13")
        assert migrate(con) == [13, 14, 15]
        for table, frame in want.items():
            assert_frame_equal(sorted_frame(con.sql(f"SELECT * FROM {table}").pl()), sorted_frame(frame),
                               rel_tol=1e-12)
    finally:
        con.close()
    assert _check_phase_moments(db) > 10
    assert _check_protocol_reads(db) > 100


def test_a_warehouse_before_migration_13_reads_as_before(warehouses: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    """Without the tables (a warehouse opened read-only by the app before it is migrated):
    the per-game phases and the reads by game id, the same figures."""
    base, _ = warehouses
    db = tmp_path / "v12.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        for table in ("phase_totals", "duration_totals", "protocol_rows", "game_rows"):
            con.execute(f"DROP TABLE {table}")
    finally:
        con.close()
    store._CACHE.clear()
    assert not queries.summarised(db, "phase_totals")
    compared = 0
    for f in FILTERS:
        where, params = f.where("g", "duration_evidence")
        for everyone in (False, True):
            human = "TRUE" if everyone else queries.HUMAN_SQL
            old = direct(db, _old_phase_moments(where, human), params)
            assert_frame_equal(queries.phase_moments(db, f, everyone), old,
                               rel_tol=1e-9, abs_tol=1e-9)
            compared += old.height
    assert compared > 10
    assert _check_protocol_reads(db, located=False) > 100
    assert _check_durations(db, base) > 0


def _check_durations(db: Path, ref: Path) -> int:
    """The Duration section's total minutes (moments, the chart's bins) on ``db`` equal
    ``ref``'s (the same games: one read from the totals, one from the games); rows compared."""
    from dashboards.mandate2038 import queries as mandate_queries

    compared = 0
    for f in FILTERS:
        for everyone in (False, True):
            store._CACHE.clear()
            pairs = [(queries.duration_moments(db, f, everyone),
                      queries.duration_moments(ref, f, everyone)),
                     (mandate_queries.duration_points(db, f, everyone),
                      mandate_queries.duration_points(ref, f, everyone))]
            for a, b in pairs:
                assert a.columns == b.columns and a.dtypes == b.dtypes
                assert_frame_equal(a, b, rel_tol=1e-9, abs_tol=1e-9)
                compared += a.height
    return compared


def test_duration_totals_are_read_and_bins_name_their_one_game(
        warehouses: tuple[Path, Path]) -> None:
    """The total minutes come from ``duration_totals``; a bin of one game is named by its
    game id (read from ``games`` for those minutes only), a bin of several by none
    (``tests/test_duration_summary.py`` compares the section with the per-game figures)."""
    from dashboards.mandate2038 import queries as mandate_queries

    base, big = warehouses
    store._CACHE.clear()
    assert queries.summarised(base, "duration_totals")
    points = mandate_queries.duration_points(base, Filters(), True)
    ones = points.filter(pl.col("games") == 1)
    assert ones.height > 0 and ones["game_id"].null_count() == 0
    assert points.filter(pl.col("games") > 1)["game_id"].null_count() == points.filter(
        pl.col("games") > 1).height
    for r in ones.iter_rows(named=True):
        row = direct(base, "SELECT player_count, floor(total_minutes) AS m FROM games "
                            "WHERE game_id = ?", [r["game_id"]]).row(0)
        assert row == (r["player_count"], r["minute"])
    # replicated ten times: no bin of one game, so the games are not read
    assert mandate_queries.duration_points(big, Filters(), True)["games"].min() == 10


def test_capture_check_is_the_same_with_and_without_locations(
        warehouses: tuple[Path, Path], tmp_path: Path) -> None:
    """The page's capture completeness (per game, per item, misfits) of the sessions, read by
    location and by game id."""
    base, _ = warehouses
    db = tmp_path / "bare.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        con.execute("DROP TABLE protocol_rows")
        con.execute("DROP TABLE game_rows")
    finally:
        con.close()
    store._CACHE.clear()
    games = queries.protocol_games(base, Filters(), True, 100).select("game_id", "protocol")
    assert games.height > 5
    located = protocols.completeness_shown(base, games, None)
    by_id = protocols.completeness_shown(db, games, None)
    assert by_id.n_misfits == located.n_misfits
    for a, b in zip(located[:3], by_id[:3], strict=True):
        assert_frame_equal(a, b)
    assert located.per_item.height > 20


def _old_interventions(where: str) -> str:
    """``queries._interventions_sql`` as it stood on main (one scan of ``games``)."""
    return f"""
        WITH r AS MATERIALIZED (
            SELECT g.game_id, g.interventions, g.rules_deviations FROM games g
            WHERE {where} AND (len(coalesce(g.interventions, [])) > 0
                               OR len(coalesce(g.rules_deviations, [])) > 0))
        SELECT game_id, 'intervention' AS kind, unnest(interventions) AS text
        FROM r WHERE len(coalesce(interventions, [])) > 0
        UNION ALL
        SELECT game_id, 'deviation' AS kind, unnest(rules_deviations) AS text
        FROM r WHERE len(coalesce(rules_deviations, [])) > 0
        """


def test_receipts_by_row_id_equal_the_scan(warehouses: tuple[Path, Path],
                                           tmp_path: Path) -> None:
    """The bench's games have no receipts: some are written here (interventions, deviations,
    both, an empty list, NULL) and the two-statement read is compared with the old one."""
    base, _ = warehouses
    db = tmp_path / "receipts.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        ids = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
        for k, gid in enumerate(ids[::3]):
            con.execute("UPDATE games SET interventions = ?, rules_deviations = ? "
                        "WHERE game_id = ?",
                        [[f"told seat {k}", "paused"] if k % 3 != 1 else [],
                         [f"house rule {k}"] if k % 2 else None, gid])
    finally:
        con.close()
    store._CACHE.clear()
    shown = 0
    for f in FILTERS:
        where, params = f.where()
        old = direct(db, _old_interventions(where), params)
        new = queries.interventions(db, f)
        assert new.columns == old.columns and new.dtypes == old.dtypes
        assert_frame_equal(sorted_frame(new), sorted_frame(old))
        assert_frame_equal(sorted_frame(queries.observation_page(db, f, 10)["interventions"]),
                           sorted_frame(old))
        shown += old.height
    assert shown > 20


def _old_first_observations(db: Path, f: Filters, limit: int,
                            categories: list[str] | None = None) -> pl.DataFrame:
    """``queries.first_observations`` as it stood on main (every game joined)."""
    where, params = f.where()
    cat, cat_params = "TRUE", []
    if categories is not None:
        cat, cat_params = "list_contains(?::VARCHAR[], o.category)", [list(categories)]
    rows = int(direct(db, "SELECT count(*) AS n FROM observations", [])["n"][0])
    window = 4 * max(1, limit)
    while True:
        frame = direct(
            db,
            f"""
            SELECT {queries.OBSERVATION_COLUMNS}
            FROM (SELECT * FROM observations o WHERE {cat} LIMIT ?) o
            JOIN games g USING (game_id)
            WHERE {where} ORDER BY o.game_id, o.idx LIMIT ?
            """,
            [*cat_params, window, *params, int(limit)],
        )
        if frame.height >= limit or window >= rows:
            return frame
        window *= 4


def _check_first_observations(db: Path) -> int:
    store._CACHE.clear()
    compared = 0
    cats = direct(db, "SELECT DISTINCT category FROM observations ORDER BY 1", [])
    some = cats["category"].drop_nulls().to_list()[:2]
    for f in FILTERS:
        for limit in (1, 7, 300, 5000):
            for categories in (None, some):
                old = _old_first_observations(db, f, limit, categories)
                new = queries.first_observations(db, f, limit, categories)
                assert_frame_equal(new, old)
                compared += old.height
    return compared


def test_first_observations_read_the_first_games_stored(warehouses: tuple[Path, Path],
                                                        tmp_path: Path) -> None:
    """The observations' first rows join the games loaded first (by row id) and are those of
    the join to every game; with the games stored in another order than their observations,
    every game is joined (the same rows)."""
    base, big = warehouses
    store._CACHE.clear()
    assert queries._first_games(base, "TRUE", [], 100) is not None  # the row-id path is taken
    assert _check_first_observations(base) > 100
    assert _check_first_observations(big) > 1000
    db = tmp_path / "reversed.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:  # the games stored last first: the first observations' games are not the first games
        con.execute("CREATE TABLE games_r AS SELECT * FROM games ORDER BY rowid DESC")
        con.execute("DELETE FROM games")
        con.execute("INSERT INTO games SELECT * FROM games_r ORDER BY rowid")
        con.execute("DROP TABLE games_r")
    finally:
        con.close()
    store._CACHE.clear()
    assert queries._first_games(db, "TRUE", [], 4) is None
    assert _check_first_observations(db) > 100


def test_first_observations_join_every_game_when_one_is_not_among_the_first(
        tmp_path: Path) -> None:
    """Hand-made rows: the first observations stored are game ``a``'s then ``b``'s, and ``a``
    is stored last among the games: the window's games are not all among the first games
    stored, so every game is joined (``a``'s rows come first in game order)."""
    db = tmp_path / "order.duckdb"
    con = duckdb.connect(str(db))
    try:
        migrate(con)
        for gid in ("b", "x1", "x2", "x3", "a"):
            con.execute("INSERT INTO games (game_id, game) VALUES (?, 'mandate2038')", [gid])
        for gid, idx in (("a", 1), ("a", 2), ("b", 1), ("b", 2), ("b", 3), ("x1", 1)):
            con.execute("INSERT INTO observations (game_id, idx, category) VALUES (?, ?, 'c')",
                        [gid, idx])
    finally:
        con.close()
    store._CACHE.clear()
    assert queries._first_games(db, "TRUE", [], 4) is None  # a is the fifth game stored
    assert queries._first_games(db, "TRUE", [], 5) is not None
    for limit in (1, 2, 3, 6):
        new = queries.first_observations(db, Filters(), limit)
        assert_frame_equal(new, _old_first_observations(db, Filters(), limit))
    assert queries.first_observations(db, Filters(), 1)["game_id"].to_list() == ["a"]
