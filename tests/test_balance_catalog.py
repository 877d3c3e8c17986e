"""The Balance page's warehouse reads name the tables' columns from ONE catalog statement
(branch bal3), where each table had a ``SELECT * FROM t LIMIT 0`` probe: the same columns
as the probes give (an absent table: none), the same metrics, and a study folder still
probed."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from dashboards.queries import Filters
from ingest import balance
from ingest.mandate2038 import balance as bq
from tests.test_balance_metrics import known_db, known_study  # noqa: F401  (fixtures)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    ran: list[str] = []
    real = balance.run_many

    def spy(src: balance.Source, statements: list[tuple[str, list[Any]]]) -> list[pl.DataFrame]:
        ran.extend(sql for sql, _ in statements)
        return real(src, statements)

    monkeypatch.setattr(balance, "run_many", spy)
    return ran


def _probed(db: Path, table: str) -> frozenset[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return frozenset(con.sql(f"SELECT * FROM {table} LIMIT 0").pl().columns)
    except duckdb.CatalogException:
        return frozenset()
    finally:
        con.close()


def test_one_catalog_statement_names_the_columns(known_db: Path, tmp_path: Path,  # noqa: F811
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "old.duckdb"
    shutil.copyfile(known_db, old)
    con = duckdb.connect(str(old))
    con.execute("DROP TABLE matchup_totals")
    con.execute("ALTER TABLE seats DROP COLUMN turn_order")
    con.close()
    for db in (known_db, old):
        bq.clear_caches()
        want = bq.metrics(bq.Source(db=db), Filters())
        bq.clear_caches()
        ran = _spy(monkeypatch)
        src = bq.Source(db=db)
        bq.games_by_count(src, Filters())
        got = bq.metrics(src, Filters())
        monkeypatch.undo()
        assert not any("LIMIT 0" in sql for sql in ran), ran
        assert sum("duckdb_columns()" in sql for sql in ran) == 1
        for table in bq._PROBED:
            assert bq.columns(src, table) == _probed(db, table), table
        assert got.equals(want)
    assert bq.columns(bq.Source(db=old), "matchup_totals") == frozenset()
    assert "turn_order" not in bq.columns(bq.Source(db=old), "seats")
    bq.clear_caches()


def test_a_study_folder_is_still_probed(known_study: Path,  # noqa: F811
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    bq.clear_caches()
    ran = _spy(monkeypatch)
    src = bq.Source(study=known_study)
    bq.games_by_count(src, Filters())
    assert any("LIMIT 0" in sql for sql in ran)
    assert not any("duckdb_columns()" in sql for sql in ran)
    assert "game_id" in bq.columns(src, "games")
    bq.clear_caches()
