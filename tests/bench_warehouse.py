"""The page bench's synthetic warehouses at test size, for the equal-figures tests (issue 30).

A base corpus of 25 games (20 simulated by the bots, 5 synthetic facilitated-playtest logs with
findings) ingested through the real pipeline, and it replicated by
:func:`cli.bench.pages.synthetic_warehouse` under new game ids, as at a million games.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from cli.bench import pages as bench
from dashboards.queries import Filters
from engine.core.registry import get_ruleset

#: The filter sets every equal-figures test compares under (modules add their own).
FILTERS = [
    Filters(),
    Filters(player_counts=(4,)),
    Filters(player_counts=(3, 5)),
    Filters(evidence_only=True),
    Filters(session_types=("facilitated_playtest",)),
    Filters(session_types=("simulation",), profiles=("competitive",)),
    Filters(date_from=dt.date(2026, 1, 3), date_to=dt.date(2026, 3, 1)),
    Filters(games=("vestige",)),
]


def direct(db: Path, sql: str, params: list[Any]) -> pl.DataFrame:
    """``sql`` on ``db`` read-only, as a polars frame: the per-event queries the totals equal."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.sql(sql, params=params).pl()
    finally:
        con.close()


def bench_warehouses(tmp_path_factory: pytest.TempPathFactory, name: str, games: int,
                     flush_games: int | None = 4) -> tuple[Path, Path]:
    """(the 25 ingested games' warehouse, them replicated to ``games``) in a new folder
    ``name``; ``flush_games`` games a load (several loads, each adding its own totals), or the
    ingest's own default when None."""
    work = tmp_path_factory.mktemp(name)
    mp = pytest.MonkeyPatch()
    mp.setattr(bench, "BASE_SIMULATED", 20)
    mp.setattr(bench, "BASE_FACILITATED", 5)
    if flush_games is not None:
        mp.setenv("PLAYTEST_FLUSH_GAMES", str(flush_games))
    mandate = get_ruleset("mandate2038")
    assert mandate is not None
    if mandate.synthetic_log is None:  # the bench's synthetic logs: Mandate 2038's declaration
        mp.setattr(mandate, "synthetic_log", "ingest.mandate2038.synthetic:synthetic_log")
    try:
        big = bench.synthetic_warehouse(games, work)
    finally:
        mp.undo()
    return work / "base" / "playtest.duckdb", big


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """25 ingested games (20 simulated, 5 synthetic facilitated; four a load), and them
    replicated to 250 by the page bench's builder (a test module's fixture: import it)."""
    return bench_warehouses(tmp_path_factory, "bench250", 250)


def sorted_frame(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` sorted on every column (nulls last): frames compared whatever their row order."""
    return df.sort(df.columns, nulls_last=True)


def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SQL statement the dashboards run from now on (``store._run`` counted), in order:
    the tests of how many statements a page's read takes."""
    from dashboards import store

    ran: list[str] = []
    run = store._run

    def counting(db: Path, sql: str, params: list[Any] | None) -> pl.DataFrame:
        ran.append(sql)
        return run(db, sql, params)

    monkeypatch.setattr(store, "_run", counting)
    return ran
