"""The pickers, the Games table's pages, the pickers' seats and the End conditions tables'
game names read less at a million games and show what they showed.

The queries they replaced are kept below verbatim (as they stood on main at ``6ff64f1``) and
compared with the new ones under the sidebar's filter sets on the page bench's builder at 250
games (loaded four at a time), on a copy of it with undated games and games without an error
count (the orders' nulls), with counts per date that say too much (a stale total is never
trusted for the picker), with a wrong seat location, and without ``game_rows``.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import DB_ENV, queries, store, ui
from dashboards.mandate2038 import queries as mandate_queries
from dashboards.queries import KIND_SQL, PICKER_ORDERS, Filters
from ingest.warehouse import summaries
from tests.bench_warehouse import FILTERS, bench_warehouses, direct

# --- the queries replaced (main at 6ff64f1) -----------------------------------------------------


def _old_choices(where: str, by: str) -> str:
    cols = (f"g.game, g.game_id, g.date, g.session_type, {KIND_SQL} AS kind, g.player_count, g.status, "
            "g.n_errors, g.n_warnings, g.n_events, g.source_name, g.illustrative")
    return f"""
        SELECT g.*, (SELECT count(*) FROM games g WHERE {where}) AS total FROM (
            (SELECT {cols} FROM games g WHERE {where} ORDER BY {by} LIMIT ?)
            UNION
            (SELECT {cols} FROM games g
             WHERE {where} AND list_contains(?::VARCHAR[], g.game_id))
        ) g ORDER BY {by}
        """


_OLD_FACTIONS = ("SELECT game_id, list(faction ORDER BY seat) AS factions FROM seats "
                 "WHERE game_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY game_id")


def _old_games(where: str) -> str:
    return f"""
        SELECT g.game, g.game_id, g.date, g.rules_version, g.profile, g.session_type,
               {KIND_SQL} AS kind, g.illustrative, g.player_count, g.status, g.n_events,
               g.n_errors, g.n_warnings, g.complete, g.evidence, g.duration_evidence,
               g.evidence_reasons, g.total_minutes, g.facilitator, g.venue, g.protocol,
               g.source_format, g.source_name
        FROM games g WHERE {where}
        ORDER BY g.date NULLS LAST, g.game_id LIMIT ? OFFSET ?
        """




def _factions(df: pl.DataFrame) -> dict[str, list[str]]:
    return {r["game_id"]: [f for f in (r["factions"] or []) if f] for r in df.iter_rows(named=True)}


def _check(db: Path) -> int:
    """Every new read equal to the old under every filter set; rows compared."""
    store._CACHE.clear()
    compared = 0
    ids = direct(db, "SELECT game_id FROM games ORDER BY game_id", [])["game_id"].to_list()
    for f in FILTERS:
        where, params = f.where()
        n = int(direct(db, f"SELECT count(*) AS n FROM games g WHERE {where}", params)["n"][0])
        for order, by in PICKER_ORDERS.items():
            for limit in (1, 7, 60, n, n + 5):
                for wanted in ([], ids[:1], ids[-2:], ["no such game"]):
                    new = queries.game_choices(db, f, order, limit, wanted)
                    old = direct(db, _old_choices(where, by),
                                  [*params, *params, limit, *params, wanted])
                    assert_frame_equal(new, old)
                    compared += old.height
        for limit in (1, 13, 100):
            for offset in sorted({0, 1, limit - 1, limit, 37, n // 2, n - limit, n - 1, n, n + 3}):
                if offset < 0:
                    continue
                new = queries.games(db, f, limit=limit, offset=offset)
                old = direct(db, _old_games(where), [*params, limit, offset])
                assert_frame_equal(new, old)
                compared += old.height
    for some in (ids[:1], ids[::7], ids, ["no such game", *ids[:3]]):
        assert queries.seat_factions(db, some) == _factions(direct(db, _OLD_FACTIONS, [some]))
        compared += len(some)
    return compared


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The bench builder's 250 games, and a copy with undated games and games without an
    error count (totals and locations recomputed)."""
    base, big = bench_warehouses(tmp_path_factory, "fixed", 250)
    nulls = big.parent.parent / "nulls.duckdb"
    nulls.write_bytes(big.read_bytes())
    con = duckdb.connect(str(nulls))
    try:
        con.execute("UPDATE games SET date = NULL WHERE hash(game_id) % 5 = 0")
        con.execute("UPDATE games SET n_errors = NULL WHERE hash(game_id) % 7 = 1")
        summaries.refresh(con)
    finally:
        con.close()
    return big, nulls


def test_pickers_games_pages_and_seats_read_as_before(warehouses: tuple[Path, Path]) -> None:
    big, nulls = warehouses
    assert _check(big) > 10_000
    assert _check(nulls) > 10_000
    undated = direct(nulls, "SELECT count(*) AS n FROM games WHERE date IS NULL", [])
    assert int(undated["n"][0]) > 10  # the pages run on into the undated games


def test_counts_that_say_too_much_are_not_trusted_by_the_picker(
        warehouses: tuple[Path, Path], tmp_path: Path) -> None:
    """``game_totals`` saying more games on the newest dates than there are: the cut-off would
    drop games the picker must list; the picker finds too few and reads them all."""
    big, _ = warehouses
    db = tmp_path / "stale.duckdb"
    db.write_bytes(big.read_bytes())
    con = duckdb.connect(str(db))
    try:
        con.execute("UPDATE game_totals SET games = games * 50 "
                    "WHERE date = (SELECT max(date) FROM game_totals)")
    finally:
        con.close()
    store._CACHE.clear()
    by = PICKER_ORDERS["newest"]
    for limit in (30, 100):
        new = queries.game_choices(db, Filters(), "newest", limit)
        old = direct(db, _old_choices("TRUE", by), [limit, []])
        assert_frame_equal(new.drop("total"), old.drop("total"))


def test_a_wrong_seat_location_is_read_by_game_id(warehouses: tuple[Path, Path],
                                                  tmp_path: Path) -> None:
    big, _ = warehouses
    db = tmp_path / "moved.duckdb"
    db.write_bytes(big.read_bytes())
    con = duckdb.connect(str(db))
    try:
        moved = [r[0] for r in con.execute(
            "SELECT game_id FROM game_rows WHERE tbl = 'seats' ORDER BY game_id LIMIT 3").fetchall()]
        con.execute("UPDATE game_rows SET lo = lo + 1 WHERE tbl = 'seats' AND game_id = ?",
                    [moved[0]])
        con.execute("UPDATE game_rows SET lo = lo + 1000 WHERE tbl = 'seats' AND game_id = ?",
                    [moved[1]])
        con.execute("DELETE FROM game_rows WHERE tbl = 'seats' AND game_id = ?", [moved[2]])
        ids = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
    finally:
        con.close()
    store._CACHE.clear()
    got = queries.seat_factions(db, ids)
    assert got == _factions(direct(db, _OLD_FACTIONS, [ids]))
    assert all(got[g] for g in moved)
    con = duckdb.connect(str(db))
    try:
        con.execute("DROP TABLE game_rows")
    finally:
        con.close()
    store._CACHE.clear()
    assert queries.seat_factions(db, ids) == got


def test_end_conditions_tables_name_their_games_from_their_rows(
        warehouses: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The outcomes and claims tables' first rows carry the columns their games are named by:
    the same rows as without them, and the same names as the lookup of their ids."""
    big, _ = warehouses
    monkeypatch.setenv(DB_ENV, str(big))
    store._CACHE.clear()
    named = 0
    for f in FILTERS:
        for kind in ("simulated", "walkthrough", "human"):
            for limit in (5, 300):
                for read in (mandate_queries.endings, mandate_queries.claims):
                    plain = read(big, f, kind, limit)
                    rows, names = ui.split_names(read(big, f, kind, limit, names=True))
                    assert_frame_equal(rows, plain)
                    if plain.is_empty():
                        continue
                    assert names is not None
                    made = ui.game_name_frame(frame=names)
                    looked_up = ui.game_name_frame(plain["game_id"].unique().to_list())
                    assert_frame_equal(made.sort("game_id"), looked_up.sort("game_id"))
                    shown = ui.readable(plain, names=names)
                    assert_frame_equal(shown, ui.readable(plain))
                    named += made.height
    assert named > 100
    assert ui.split_names(pl.DataFrame({"game_id": ["a"]}))[1] is None
