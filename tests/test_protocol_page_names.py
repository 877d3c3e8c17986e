"""The Observation protocols page at a million games (issue 30, branch ``obs2``): what it reads
now gives what it read before.

* ``protocol_rows`` locates each game's ``observations`` (migration 14): the capture check reads
  a session's observation categories and their events by row id (:func:`queries.
  located_categories`) instead of ``game_observations`` by game id (and the events of a category
  that does not fit from ``events``);
* :func:`queries.protocol_games` reads the newest sessions from a date cut-off (``game_totals``'
  games per date) instead of sorting every session, with the columns their names are made of;
* the shown games are named from the rows read with the tables (``observation_page``'s
  ``names``, ``observations(..., names=True)``) instead of a lookup of their ids in ``games``;
* :func:`queries.located_many` reads a located table's rows and its locations' counts in one
  statement, several tables together.

The replaced SQL is kept below verbatim and compared on 25 ingested games (loaded four at a
time) and on them replicated to 250 by the page bench's builder.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import DB_ENV, protocols, queries, store, ui
from dashboards.queries import Filters
from ingest.warehouse import summaries
from ingest.warehouse.migrations import MIGRATIONS, migrate
from tests import bench_warehouse
from tests.bench_warehouse import FILTERS as COMMON
from tests.bench_warehouse import direct, sorted_frame

#: the 25 ingested games and them replicated to 250 (the shared module-scoped fixture)
warehouses = bench_warehouse.warehouses

FILTERS = [
    *COMMON,
    Filters(games=("mandate2038",)),
    Filters(games=("mandate2038",), evidence_only=True),
    Filters(date_from=dt.date(2026, 1, 20)),
    Filters(date_to=dt.date(2026, 1, 2)),
    Filters(rules_versions=("no-such-version",)),
]


# --- the queries replaced, verbatim as they stood on main (d54459b) -------------------------


def _old_protocol_games(db: Path, f: Filters, include_non_human: bool,
                        limit: int | None) -> pl.DataFrame:
    """``queries.protocol_games`` as it stood: every matching game sorted."""
    where, params = f.where()
    human = "TRUE" if include_non_human else queries.HUMAN_SQL
    cap, capped = "", []
    if limit is not None:
        cap, capped = " LIMIT ?", [int(limit)]
    return direct(
        db,
        f"SELECT g.game_id, g.date, g.protocol, g.archive_path, g.session_type, "
        f"(SELECT count(*) FROM games g WHERE {where} AND {human}) AS total "
        f"FROM games g WHERE {where} AND {human} "
        f"ORDER BY g.date DESC NULLS LAST, g.game_id{cap}",
        [*params, *params, *capped],
    )


def _old_categories(db: Path, ids: list[str]) -> pl.DataFrame:
    """The capture check's categories as read from ``observations`` by game id."""
    return direct(
        db,
        "SELECT o.game_id, o.category, list(o.idx ORDER BY o.idx) AS idxs, count(*) AS n "
        "FROM observations o WHERE o.game_id IN (SELECT unnest(?::VARCHAR[])) "
        "GROUP BY o.game_id, o.category ORDER BY o.game_id, min(o.idx)", [ids])


_OLD_SURVEY_TEXT = """SELECT sv.game_id, sv.seat, s.faction, sv.item, sv.value_text,
                    count(*) OVER () AS total
             FROM survey sv JOIN games g USING (game_id)
             LEFT JOIN seats s ON s.game_id = sv.game_id AND s.seat = sv.seat
             WHERE {where} AND sv.value_num IS NULL AND sv.value_text IS NOT NULL
             ORDER BY sv.item, sv.game_id, sv.seat LIMIT ?"""


def _copy(db: Path, to: Path, *statements: str) -> Path:
    """A copy of ``db`` with ``statements`` run on it."""
    to.write_bytes(db.read_bytes())
    con = duckdb.connect(str(to))
    try:
        for sql in statements:
            con.execute(sql)
    finally:
        con.close()
    store._CACHE.clear()
    return to


# --- migration 14 ----------------------------------------------------------------------------


def _observations_located(db: Path) -> int:
    """``protocol_rows`` says exactly where each game's observations are; games located."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        got = con.sql("SELECT game_id, lo, n FROM protocol_rows WHERE tbl = 'observations'").pl()
        want = con.sql("SELECT game_id, min(rowid) AS lo, count(*) AS n, "
                       "max(rowid) - min(rowid) + 1 AS span FROM observations GROUP BY ALL").pl()
    finally:
        con.close()
    assert_frame_equal(sorted_frame(got), sorted_frame(want.drop("span")))
    assert (want["span"] == want["n"]).all(), "a game's observations not side by side"
    return got.height


def test_protocol_rows_locate_each_games_observations(warehouses: tuple[Path, Path],
                                                      tmp_path: Path) -> None:
    """After the loads (each adds its batch's locations), the builder, and migration 14 on a
    warehouse loaded before it (run twice: the same)."""
    base, big = warehouses
    assert _observations_located(base) == 5  # the facilitated games have observations
    assert _observations_located(big) == 50
    assert "observations" in summaries.PROTOCOL_LOCATED
    assert queries.LOCATIONS == summaries.LOCATIONS
    db = tmp_path / "v13.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        want = sorted_frame(con.sql("SELECT * FROM protocol_rows").pl())
        con.execute("DELETE FROM protocol_rows WHERE tbl = 'observations'")
        con.execute("DELETE FROM schema_migrations WHERE version >= 14")
        assert migrate(con) == [v for v, _, _ in MIGRATIONS if v >= 14] == [14, 15]
        assert_frame_equal(sorted_frame(con.sql("SELECT * FROM protocol_rows").pl()), want)
        con.execute("DELETE FROM schema_migrations WHERE version >= 14")
        assert migrate(con) == [14, 15]
        assert_frame_equal(sorted_frame(con.sql("SELECT * FROM protocol_rows").pl()), want)
    finally:
        con.close()
    assert _observations_located(db) == 5


# --- the capture check's categories by location ----------------------------------------------


def _session_ids(db: Path) -> list[str]:
    """Every game id, a few twice, one unknown: what a capture check may ask."""
    ids = direct(db, "SELECT game_id FROM games ORDER BY game_id", [])["game_id"].to_list()
    return [*ids, *ids[:3], "no-such-game"]


def _check_categories(db: Path, located: bool) -> int:
    """The capture check's categories equal those read from ``observations`` by game id (the
    events of each category too when ``located``, else NULL: from ``game_observations``);
    observations compared."""
    store._CACHE.clear()
    ids = _session_ids(db)
    compared = 0
    for part in (ids, ids[::7], ids[-5:], []):
        got = queries.protocol_check_rows(db, part)["categories"]
        old = _old_categories(db, sorted(set(part)))
        if old.is_empty():
            assert got.is_empty()
            continue
        assert got.columns == old.columns
        assert got["game_id"].to_list() == sorted(got["game_id"].to_list())
        if located:
            assert got.dtypes == old.dtypes
            assert_frame_equal(got, old)  # in the same order: by game, then first event
        else:
            assert got["idxs"].null_count() == got.height
            assert_frame_equal(sorted_frame(got.drop("idxs")), sorted_frame(old.drop("idxs")))
        compared += int(old["n"].sum())
    return compared


def test_categories_by_location_equal_the_observations(warehouses: tuple[Path, Path],
                                                       tmp_path: Path) -> None:
    base, big = warehouses
    assert _check_categories(base, True) > 100
    assert _check_categories(big, True) > 1000
    # a warehouse before migration 14 (no observation locations): game_observations by id
    v13 = _copy(base, tmp_path / "v13.duckdb",
                "DELETE FROM protocol_rows WHERE tbl = 'observations'")
    assert _check_categories(v13, False) > 100


def test_a_wrong_observation_location_is_read_by_game_id(warehouses: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    """The last stored game's location shifted back by one row (its last row read by no
    range) and the first one's a row too long: those games are read by id (from
    ``game_observations``: their events NULL), the others by location; the same categories
    and counts, and the same capture check."""
    base, _ = warehouses
    db = _copy(base, tmp_path / "moved.duckdb",
               "UPDATE protocol_rows SET lo = lo - 1 WHERE tbl = 'observations' AND lo = "
               "(SELECT max(lo) FROM protocol_rows WHERE tbl = 'observations')",
               "UPDATE protocol_rows SET n = n + 1 WHERE tbl = 'observations' AND lo = "
               "(SELECT min(lo) FROM protocol_rows WHERE tbl = 'observations')")
    ids = _session_ids(db)
    got = queries.protocol_check_rows(db, ids)["categories"]
    old = _old_categories(db, sorted(set(ids)))
    assert_frame_equal(sorted_frame(got.drop("idxs")), sorted_frame(old.drop("idxs")))
    moved = set(got.filter(pl.col("idxs").is_null())["game_id"].to_list())
    assert len(moved) == 2
    kept = old.filter(~pl.col("game_id").is_in(list(moved)))
    assert_frame_equal(got.filter(~pl.col("game_id").is_in(list(moved))), kept)
    games = queries.protocol_games(db, Filters(), True, 100).select("game_id", "protocol")
    _same_check(base, db, games)


def _same_check(a: Path, b: Path, games: pl.DataFrame) -> None:
    """The capture check of ``games`` the same on the warehouses ``a`` and ``b``, whole and its
    first rows."""
    for shown in (None, 1, 3, 1000):
        store._CACHE.clear()
        one = protocols.completeness_shown(a, games, shown)
        store._CACHE.clear()
        two = protocols.completeness_shown(b, games, shown)
        assert one.n_misfits == two.n_misfits
        for x, y in zip(one[:3], two[:3], strict=True):
            assert_frame_equal(x, y)


def test_capture_check_is_the_same_by_observation_locations(warehouses: tuple[Path, Path],
                                                            tmp_path: Path) -> None:
    """Per game, per item and the misfits (their events from the located observations, or
    from ``events`` by location or by id) of every session, with and without the locations;
    with misfits to find (categories and survey items the protocol does not know)."""
    base, _ = warehouses
    odd = _copy(base, tmp_path / "odd.duckdb",
                "UPDATE observations SET category = 'no-such-category' WHERE idx % 5 = 0")
    # the events' payloads say the same (the misfits' events are read from them without
    # located observations)
    con = duckdb.connect(str(odd))
    try:
        con.execute("UPDATE events SET payload = json_merge_patch(payload, "
                    "'{\"category\": \"no-such-category\"}') WHERE type = 'observation' "
                    "AND idx % 5 = 0")
        con.execute("BEGIN TRANSACTION")
        summaries.refresh(con)
        con.execute("COMMIT")
    finally:
        con.close()
    v13 = _copy(odd, tmp_path / "odd13.duckdb",
                "DELETE FROM protocol_rows WHERE tbl = 'observations'")
    bare = _copy(odd, tmp_path / "bare.duckdb", "DROP TABLE protocol_rows",
                 "DROP TABLE game_rows")
    store._CACHE.clear()
    games = queries.protocol_games(odd, Filters(), True, 100).select("game_id", "protocol")
    assert games.height == 25
    found = protocols.completeness_shown(odd, games, None)
    assert found.n_misfits > 20 and found.misfits.height == found.n_misfits
    _same_check(odd, v13, games)
    _same_check(odd, bare, games)


# --- the newest sessions from a date cut-off ---------------------------------------------------


def _check_protocol_games(db: Path) -> int:
    """protocol_games against the full sort under every filter set, human only and everyone,
    at several limits; rows compared."""
    store._CACHE.clear()
    compared = 0
    for f in FILTERS:
        for everyone in (False, True):
            for limit in (1, 7, 100, 10_000, None):
                got = queries.protocol_games(db, f, everyone, limit)
                old = _old_protocol_games(db, f, everyone, limit)
                if old.is_empty():
                    assert got.is_empty()
                    continue
                assert_frame_equal(got.select(old.columns), old, check_dtypes=False)
                # and what their names are made of: their own rows of ``games``
                rows = direct(db, f"SELECT {', '.join(ui.NAME_COLUMNS)} FROM games "
                                  "WHERE list_contains(?::VARCHAR[], game_id)",
                              [got["game_id"].to_list()])
                assert_frame_equal(sorted_frame(got.select(list(ui.NAME_COLUMNS))), sorted_frame(rows))
                compared += old.height
    return compared


def test_newest_sessions_from_a_date_cut_equal_the_full_sort(warehouses: tuple[Path, Path],
                                                             tmp_path: Path) -> None:
    base, big = warehouses
    assert _check_protocol_games(base) > 100
    assert _check_protocol_games(big) > 1000
    # counts per date that say more games than there are (the cut too late): read again whole
    wrong = _copy(big, tmp_path / "wrong.duckdb",
                  "UPDATE game_totals SET games = games * 50 WHERE date = "
                  "(SELECT max(date) FROM game_totals)")
    got = queries.protocol_games(wrong, Filters(), True, 100)
    old = _old_protocol_games(wrong, Filters(), True, 100)
    assert_frame_equal(got.select(old.columns).drop("total"), old.drop("total"),
                       check_dtypes=False)
    # without game_totals: counted over the dates of ``games``
    bare = _copy(big, tmp_path / "bare.duckdb", "DROP TABLE game_totals")
    assert _check_protocol_games(bare) > 1000


# --- the shown games named from their rows ----------------------------------------------------


def test_the_page_names_its_games_from_the_rows_it_reads(
        warehouses: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``observation_page``'s tables are what they were (their name columns split off), and
    its ``names`` name every game they show exactly as the lookup of their ids does; so do the
    rules lookups' and the sessions' rows. Receipts are written into some games (the bench has
    none)."""
    _, big = warehouses
    db = tmp_path / "receipts.duckdb"
    db.write_bytes(big.read_bytes())
    con = duckdb.connect(str(db))
    try:
        ids = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
        for k, gid in enumerate(ids[::11]):
            con.execute("UPDATE games SET interventions = ?, rules_deviations = ? "
                        "WHERE game_id = ?", [[f"told seat {k}"], [f"house rule {k}"], gid])
    finally:
        con.close()
    monkeypatch.setenv(DB_ENV, str(db))
    store._CACHE.clear()
    named = 0
    for f in FILTERS:
        where, params = f.where()
        data = queries.observation_page(db, f, 10)
        assert_frame_equal(data["first"], queries.first_observations(db, f, 10))
        assert_frame_equal(data["interventions"], queries.interventions(db, f))
        assert_frame_equal(data["survey_text"],
                           direct(db, _OLD_SURVEY_TEXT.format(where=where), [*params, 10]))
        shown = {g for k in ("first", "interventions", "survey_text")
                 if "game_id" in data[k].columns for g in data[k]["game_id"].to_list()}
        names = data["names"]
        assert set(names["game_id"].to_list()) == shown
        assert names["game_id"].is_unique().all()
        if shown:
            assert_frame_equal(ui.game_name_frame(frame=names).sort("game_id"),
                               ui.game_name_frame(sorted(shown)).sort("game_id"))
            for k in ("first", "interventions", "survey_text"):  # as show_table draws them
                if not data[k].is_empty():
                    assert_frame_equal(ui.readable(data[k], names=names), ui.readable(data[k]))
        named += len(shown)
        cats = ["action_time", "no-such-category"]
        first, lookups = ui.split_names(queries.observations(db, f, cats, 10, names=True))
        assert_frame_equal(first, queries.observations(db, f, cats, 10))
        if not first.is_empty():
            assert lookups is not None
            assert_frame_equal(ui.readable(first, names=lookups), ui.readable(first))
        sessions = queries.protocol_games(db, f, False, 100)
        if not sessions.is_empty():
            rows = sessions.select(list(ui.NAME_COLUMNS))
            assert_frame_equal(ui.game_name_frame(frame=rows).sort("game_id"),
                               ui.game_name_frame(rows["game_id"].to_list()).sort("game_id"))
    assert named > 50


# --- one statement a located read -------------------------------------------------------------


def test_located_many_reads_as_located_rows_does(warehouses: tuple[Path, Path],
                                                 tmp_path: Path) -> None:
    """Several tables at once equal each read alone and the reads by game id; a warehouse
    without the locations and a table that does not exist read as before."""
    _, big = warehouses
    ids = _session_ids(big)[::3]
    reads: list[queries.LocatedRead] = [
        ("capture", queries._CAPTURE_COLUMNS, ids, ("game_id",), True),
        ("seats", "x.game_id, x.seat, x.faction", ids, ("game_id", "seat"), True),
        ("events", "x.game_id, x.idx, x.type", ids[:4], ("game_id", "idx"), True),
        ("observations", "x.game_id, x.idx, x.category", ids, ("game_id", "idx"), False),
        ("survey", "x.game_id, x.idx, x.item", [], ("game_id", "idx"), True),
    ]
    store._CACHE.clear()
    together = queries.located_many(big, reads)
    for (table, cols, wanted, order, by_id), got in zip(reads, together, strict=True):
        alone = queries.located_rows(big, table, cols, wanted, order, by_id)
        assert_frame_equal(got, alone)
        old = direct(big, f"SELECT {cols} FROM {table} x WHERE x.game_id IN "
                          f"(SELECT unnest(?::VARCHAR[])) ORDER BY {', '.join(order)}, x.rowid",
                     [sorted(set(wanted))])
        assert_frame_equal(got, old)
    bare = _copy(big, tmp_path / "bare.duckdb", "DROP TABLE protocol_rows", "DROP TABLE capture")
    apart = queries.located_many(bare, reads)
    assert apart[0].is_empty()  # no capture table: nothing, as before
    for got, want in zip(apart[1:3], together[1:3], strict=True):
        assert_frame_equal(got, want)
    assert apart[3].is_empty()  # observations not located and not asked by id
