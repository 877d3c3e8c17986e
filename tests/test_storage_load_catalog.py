"""The load step's catalog (``ingest.warehouse.load.stored_columns``, read once per held
connection) and the totals a load adds from its batch: the same warehouse as a full recompute."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_storage_support import write_games

from ingest.db import connect
from ingest.pipeline import Item, process_batch
from ingest.warehouse import balance, game_totals
from ingest.warehouse.load import load_frames, stored_columns
from ingest.warehouse.migrations import migrate

# the synthetic logs are Mandate 2038's: skipped when PLAYTEST_ONLY_GAMES hides it
pytestmark = pytest.mark.needs_game("mandate2038")


def _rows(con: object, table: str) -> list[tuple[object, ...]]:
    return con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()  # type: ignore[attr-defined]


def test_stored_columns_lists_every_table_and_its_columns(tmp_path: Path) -> None:
    with connect(tmp_path / "db.duckdb") as con:
        migrate(con)
        catalog = stored_columns(con)
        tables = {r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
        ).fetchall()}
        assert set(catalog) == tables
        assert {"game_id", "seat", "faction"} <= catalog["seats"]
        assert set(game_totals.TABLES) <= set(catalog)
        con.execute("ALTER TABLE seats ADD COLUMN only_here INTEGER")
        assert "only_here" in stored_columns(con)["seats"]


def test_totals_added_from_the_batch_equal_a_full_recompute(tmp_path: Path) -> None:
    """Two loads given the catalog (the second meets stored games): seat_balance and every
    totals table equal their recompute from the stored tables."""
    paths = write_games(tmp_path / "in", 10, events=80)
    with connect(tmp_path / "db.duckdb") as con:
        migrate(con)
        catalog = stored_columns(con)
        for part in (paths[:4], paths[4:]):
            res = process_batch([Item(path=str(p)) for p in part], archive=tmp_path / "archive")
            load_frames(con, res.frames, stored=catalog)
        assert _rows(con, "seat_totals") and _rows(con, "balance_totals")
        sums = {t: _sums(con, t) for t in game_totals.TABLES}
        balance_rows = _rows(con, "seat_balance")
        con.execute("BEGIN TRANSACTION")
        balance.refresh(con)  # seat_balance and its totals again, from the stored tables
        game_totals.refresh(con)
        assert _rows(con, "seat_balance") == balance_rows
        assert {t: _sums(con, t) for t in game_totals.TABLES} == sums
        con.execute("ROLLBACK")


def _sums(con: object, table: str) -> dict[tuple[object, ...], tuple[float, ...]]:
    """Each key's sums (a load adds rows of its own per key; a recompute has one)."""
    sums = game_totals._sums(table)
    keys = ", ".join(game_totals._keys(table))
    got = con.execute(  # type: ignore[attr-defined]
        f"SELECT {keys}, " + ", ".join(f"sum({c})::DOUBLE" for c in sums)
        + f" FROM {table} GROUP BY ALL").fetchall()
    return {tuple(r[:-len(sums)]): tuple(round(v or 0.0, 9) for v in r[-len(sums):]) for r in got}


def test_a_catalog_without_seat_balance_skips_it(tmp_path: Path) -> None:
    """The catalog decides: a load told the warehouse has no seat_balance writes none (a
    warehouse before migration 6), and its totals of balance likewise."""
    paths = write_games(tmp_path / "in", 3, events=60)
    with connect(tmp_path / "db.duckdb") as con:
        migrate(con)
        catalog = {t: c for t, c in stored_columns(con).items()
                   if t not in ("seat_balance", "balance_totals")}
        res = process_batch([Item(path=str(p)) for p in paths], archive=tmp_path / "archive")
        out = load_frames(con, res.frames, stored=catalog)
        assert len(out.loaded) == 3
        assert con.execute("SELECT count(*) FROM seat_balance").fetchall()[0][0] == 0
        assert con.execute("SELECT count(*) FROM balance_totals").fetchall()[0][0] == 0
        assert con.execute("SELECT count(*) FROM seat_totals").fetchall()[0][0] > 0
