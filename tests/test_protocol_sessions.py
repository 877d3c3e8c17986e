"""Migration 15: the Observation protocols page's capture check from ``protocol_sessions``
gives what the per-event reads give (issue 30, branch ``obs3``).

The page read its newest 100 human sessions from ``games`` (``queries.protocol_games``) and
then their ``capture``, ``survey``, ``seats`` and ``observations`` rows by location
(``queries.protocol_check_rows``); the load step now keeps one row per human session with the
games columns the sidebar filters on and those rows as lists, and the page reads its sessions
and their check in one statement (``queries.protocol_sessions``,
``protocols.completeness_of_sessions``). Compared here with the reads they replace under many
filter sets, limits and numbers of misfits shown, on 25 ingested games (loaded four at a time:
each load adds its batch's rows) and on them replicated to 250 by the page bench's builder.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import DB_ENV, protocols, queries, store
from dashboards.queries import Filters
from ingest.warehouse import summaries
from ingest.warehouse.migrations import MIGRATIONS, migrate
from tests import bench_warehouse
from tests.bench_warehouse import FILTERS as COMMON
from tests.bench_warehouse import direct, statements

#: the 25 ingested games and them replicated to 250 (the shared module-scoped fixture)
warehouses = bench_warehouse.warehouses

FILTERS = [
    *COMMON,
    Filters(games=("mandate2038",)),
    Filters(games=("mandate2038",), player_counts=(3, 5)),
    Filters(games=("mandate2038",), evidence_only=True),
    Filters(rules_versions=("no-such-version",)),
]

#: the per-event rows of a game's check, by game id (as the page read them before migration 13)
_OLD = {
    "capture": ('SELECT c.game_id, c.item_id AS item, c.grp AS "group", c.captured, c.reason '
                "FROM capture c WHERE c.game_id = ? ORDER BY c.rowid"),
    "categories": ("SELECT o.category, count(*) AS n FROM observations o WHERE o.game_id = ? "
                   "GROUP BY o.category ORDER BY min(o.idx)"),
    "survey": ("SELECT sv.idx, sv.item, sv.seat, sv.value_text, sv.value_num FROM survey sv "
               "WHERE sv.game_id = ? ORDER BY sv.idx"),
    "seats": "SELECT s.seat FROM seats s WHERE s.game_id = ? ORDER BY s.seat",
}


def _check_rows(db: Path) -> int:
    """Every human session has one ``protocol_sessions`` row, whose lists are its rows of the
    four tables (read by game id); sessions compared."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        human = {r[0] for r in con.execute(
            f"SELECT g.game_id FROM games g WHERE {queries.HUMAN_SQL}").fetchall()}
        kept = con.sql("SELECT * FROM protocol_sessions").pl()
        games = con.sql("SELECT * FROM games").pl()
    finally:
        con.close()
    assert set(kept["game_id"].to_list()) == human and kept.height == len(human)
    keys = ["game_id", *summaries.GAME_KEYS, "protocol", "archive_path", "source_name",
            "source_format"]
    assert_frame_equal(kept.select(keys).sort("game_id"),
                       games.filter(pl.col("game_id").is_in(list(human))).select(keys)
                       .sort("game_id"))
    for row in kept.iter_rows(named=True):
        gid = row["game_id"]
        for column, sql in _OLD.items():
            want = direct(db, sql, [gid])
            got = row[column] or []
            if column == "seats":
                assert got == want["seat"].to_list(), (gid, column)
            else:
                assert got == want.drop("game_id", strict=False).to_dicts(), (gid, column)
    return kept.height


def test_protocol_sessions_hold_each_sessions_rows(warehouses: tuple[Path, Path]) -> None:
    """After the loads (four games a load: each adds its batch's rows, capture in stored order)
    and after the builder (recomputed from the replicated tables)."""
    base, big = warehouses
    assert _check_rows(base) == 5  # the synthetic facilitated sessions
    assert _check_rows(big) == 50


def test_migration_15_writes_what_the_loads_wrote(warehouses: tuple[Path, Path],
                                                  tmp_path: Path) -> None:
    base, _ = warehouses
    db = tmp_path / "v14.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        want = con.sql("SELECT * FROM protocol_sessions ORDER BY game_id").pl()
        con.execute("DROP TABLE protocol_sessions")  # as loaded before migration 15
        con.execute("DELETE FROM schema_migrations WHERE version >= 15")
        assert migrate(con) == [v for v, _, _ in MIGRATIONS if v >= 15] == [15]
        assert_frame_equal(con.sql("SELECT * FROM protocol_sessions ORDER BY game_id").pl(), want)
        con.execute("DELETE FROM schema_migrations WHERE version >= 15")  # run again: the same
        assert migrate(con) == [15]
        assert_frame_equal(con.sql("SELECT * FROM protocol_sessions ORDER BY game_id").pl(), want)
    finally:
        con.close()
    assert _check_rows(db) == 5


def _same(got: protocols.Completeness, want: protocols.Completeness) -> None:
    assert got.n_misfits == want.n_misfits
    for a, b in zip(got[:3], want[:3], strict=True):
        assert_frame_equal(a, b)


def _check_completeness(db: Path) -> int:
    """The sessions and their capture check from ``protocol_sessions`` against
    ``protocol_games`` and the per-event check (``completeness_shown``: the located reads,
    ``protocol_check_rows``), under every filter set, limit and number of misfits shown;
    misfits counted."""
    misfits = 0
    for f in FILTERS:
        for limit in (1, 7, 100, 10_000):
            sessions = queries.protocol_sessions(db, f, limit)
            assert sessions is not None
            games = queries.protocol_games(db, f, False, limit)
            assert_frame_equal(sessions.select(games.columns), games)
            for shown in ((0, 1, 3, 1000, None) if limit in (7, 100) else (0, None)):
                want = protocols.completeness_shown(db, games.select("game_id", "protocol"),
                                                    shown)
                got = protocols.completeness_of_sessions(db, sessions, shown)
                _same(got, want)
                misfits += got.misfits.height
    return misfits


def test_the_capture_check_from_sessions_equals_the_per_event_check(
        warehouses: tuple[Path, Path]) -> None:
    base, big = warehouses
    assert _check_completeness(base) > 100  # the synthetic sessions have misfits
    assert _check_completeness(big) > 1000


def test_misfits_written_in_are_found_the_same(warehouses: tuple[Path, Path],
                                               tmp_path: Path) -> None:
    """Observations in a category the protocol does not know (their events' payloads too),
    survey answers out of range and from a seat not at the table, written into the tables
    (then the table recomputed as the builder does): the same per game, per item and
    misfits."""
    _, big = warehouses
    db = tmp_path / "misfits.duckdb"
    db.write_bytes(big.read_bytes())
    con = duckdb.connect(str(db))
    try:
        con.execute("UPDATE observations SET category = 'not-a-category' WHERE idx % 5 = 0")
        # the events' payloads too (a misfit's events are read from them)
        con.execute("UPDATE events SET payload = json_merge_patch(payload, "
                    "'{\"category\": \"not-a-category\"}') "
                    "WHERE type = 'observation' AND idx % 5 = 0")
        con.execute("UPDATE survey SET seat = 9 WHERE idx % 3 = 0")
        con.execute("UPDATE survey SET value_num = 99, value_text = '99' WHERE idx % 4 = 1 "
                    "AND value_num IS NOT NULL")
        con.execute("BEGIN TRANSACTION")
        summaries.refresh(con)
        con.execute("COMMIT")
    finally:
        con.close()
    store._CACHE.clear()
    assert _check_rows(db) == 50
    assert _check_completeness(db) > 1000


def test_a_warehouse_without_the_table_reads_as_before(warehouses: tuple[Path, Path],
                                                      tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Opened read-only before migration 15 (the app does not migrate): no
    ``protocol_sessions``, the sessions and their check read as before; the page draws."""
    from tests.test_app_pages import _app, _no_exception

    _, big = warehouses
    db = tmp_path / "v14.duckdb"
    db.write_bytes(big.read_bytes())
    con = duckdb.connect(str(db))
    try:
        con.execute("DROP TABLE protocol_sessions")
    finally:
        con.close()
    store._CACHE.clear()
    assert queries.protocol_sessions(db, Filters(), 100) is None
    at = _app(db, monkeypatch, "observations")
    _no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert any("Capture completeness" in h.value for h in at.subheader)


def test_the_check_is_one_statement(warehouses: tuple[Path, Path],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The newest sessions and what their check reads: one statement (the catalog read
    before), none more for the misfits' count."""
    _, big = warehouses
    store._CACHE.clear()
    assert queries.summarised(big, "protocol_sessions")
    ran = statements(monkeypatch)
    sessions = queries.protocol_sessions(big, Filters(), 100)
    assert sessions is not None
    found = protocols.completeness_of_sessions(big, sessions, 0)
    assert len(ran) == 1, ran
    assert found.n_misfits > 0 and found.misfits.is_empty()


def test_the_page_draws_the_details_when_opened(warehouses: tuple[Path, Path],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The first draw shows the counts (the observations' total, the misfits' number) and
    draws the first observations, the items missed most and the misfits when their expander
    is opened: the same rows as before."""
    from tests.test_app_pages import _app, _no_exception

    _, big = warehouses
    monkeypatch.setenv(DB_ENV, str(big))
    store._CACHE.clear()
    at = _app(big, monkeypatch, "observations")
    _no_exception(at)
    labels = [e.label for e in at.expander]
    total = next(e for e in labels if e.startswith("All ") and e.endswith(" observations"))
    assert int(total.split()[1]) > 0
    assert "Events that do not fit the protocol" in labels
    assert any("do not fit the protocol" in w.value for w in at.warning)
    closed = len(at.dataframe)
    keys = [f"mandate2038:{name}" for name in ("obs_all", "obs_missed", "obs_misfits")]
    assert all(k in at.session_state for k in keys)  # each game section's expanders' keys
    for k in keys:
        at.session_state[k] = True
    at.run()
    _no_exception(at)
    assert len(at.dataframe) == closed + 3
    f = Filters(games=("mandate2038",))
    games = queries.protocol_games(big, f, False, 100)
    want = protocols.completeness_shown(big, games.select("game_id", "protocol"), 1000)
    shown = [d.value for d in at.dataframe if list(d.value.columns) == ["game_id", "event",
                                                                          "reason"]]
    assert shown, [list(d.value.columns) for d in at.dataframe]
    assert shown[0]["reason"].to_list() == want.misfits["reason"].to_list()
    assert shown[0]["event"].to_list() == want.misfits["event"].to_list()


def test_survey_boxes_equal_the_sql(tmp_path: Path) -> None:
    """The survey's box statistics computed from the counted values equal the SQL over
    ``survey_totals`` they replace (one answer, equal values, even and odd counts, negative
    and fractional values, several rows of one value); empty without answers."""
    db = tmp_path / "boxes.duckdb"
    con = duckdb.connect(str(db))
    try:
        con.execute("CREATE TABLE survey_totals (item VARCHAR, value_num DOUBLE, n BIGINT)")
        con.executemany("INSERT INTO survey_totals VALUES (?, ?, ?)", [
            ("one", 3.0, 1), ("same", 2.0, 4), ("even", 1.0, 1), ("even", 4.0, 1),
            ("even", 5.0, 2), ("odd", -1.5, 2), ("odd", 0.25, 3), ("odd", 7.0, 2),
            ("split", 1.0, 3), ("split", 1.0, 2), ("split", 9.0, 5), ("wide", 0.1, 7),
            ("wide", 0.2, 11), ("wide", 0.3, 13), ("wide", 1e6, 1)])
    finally:
        con.close()
    where = "TRUE"
    want = direct(db, queries._survey_numeric_sql(True, where), [])
    got = queries._survey_boxes(direct(db, queries._survey_values_sql(where), []))
    assert got.height == 6
    assert_frame_equal(got, want, rel_tol=1e-12, abs_tol=1e-12)
    empty = direct(db, queries._survey_values_sql("FALSE"), [])
    assert_frame_equal(queries._survey_boxes(empty),
                       direct(db, queries._survey_numeric_sql(True, "FALSE"), []))
