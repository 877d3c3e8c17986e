"""What a draw of the Record a game page costs besides Streamlit's own floor (issue 30): one
DuckDB connection (opening the warehouse costs 0.03-0.05 CPU s), only the chosen game's
recorder imported, and the catalog reads the warehouse's own catalog only.

Performance is measured by ``python -m cli.bench.pages`` (docs/storage.md), not here: these
tests check what the page does, never how long it takes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import queries, store
from engine.core import game as core_game
from engine.core.registry import rulesets
from ingest.warehouse.migrations import migrate

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"


@pytest.fixture()
def warehouse(tmp_path: Path) -> Path:
    """An empty warehouse at the current schema (the Record page reads its catalog and the
    variants recorded before)."""
    db = tmp_path / "playtest.duckdb"
    con = duckdb.connect(str(db))
    try:
        migrate(con)
    finally:
        con.close()
    return db


def _recorders() -> dict[str, str]:
    """Game -> its declaration's recorder reference, for every registered game with one."""
    return {g: rs.recorder for g, rs in rulesets().items() if rs.recorder is not None}


def test_the_page_opens_the_warehouse_once_a_draw(warehouse: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYTEST_DB", str(warehouse))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    opened: list[Any] = []
    real = duckdb.connect

    def counting(*args: Any, **kwargs: Any) -> duckdb.DuckDBPyConnection:
        opened.append(args[0] if args else kwargs.get("database"))
        return real(*args, **kwargs)

    monkeypatch.setattr(duckdb, "connect", counting)
    for cold in (True, True, False):
        if cold:
            store._CACHE.clear()
        opened.clear()
        at.switch_page("views/record.py").run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.radio(key="new_game").value in _recorders()
        # the catalog and the variants recorded before, on one connection; none when cached
        assert opened == ([str(warehouse)] if cold else []), opened


def test_only_the_chosen_games_recorder_is_resolved(warehouse: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    recorders = _recorders()
    if len(recorders) < 2:
        pytest.skip("one game with a recorder: nothing to leave unimported")
    monkeypatch.setenv("PLAYTEST_DB", str(warehouse))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    resolved: list[str] = []
    real = core_game.resolve

    def watched(ref: str) -> Any:
        resolved.append(ref)
        return real(ref)

    monkeypatch.setattr(core_game, "resolve", watched)
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.switch_page("views/record.py").run()
    assert not at.exception, [e.value for e in at.exception]
    games = at.radio(key="new_game").options
    assert len(games) == len(recorders)  # every game with a recorder is offered
    chosen = at.radio(key="new_game").value
    assert {r for r in resolved if r in recorders.values()} == {recorders[chosen]}
    other = next(g for g in recorders if g != chosen)
    resolved.clear()
    at.radio(key="new_game").set_value(other).run()
    assert not at.exception, [e.value for e in at.exception]
    assert {r for r in resolved if r in recorders.values()} == {recorders[other]}


def test_has_column_reads_the_warehouses_own_catalog(warehouse: Path) -> None:
    store._CACHE.clear()
    assert queries.has_column(warehouse, "findings", "rulings")
    assert queries.has_column(warehouse, "games", "game_id")
    assert not queries.has_column(warehouse, "findings", "no_such_column")
    assert not queries.has_column(warehouse, "no_such_table", "game_id")
    # a table of DuckDB's own catalogs (information_schema.columns) is not the warehouse's
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        elsewhere = con.sql("SELECT count(*) FROM duckdb_columns() WHERE table_name = 'columns' "
                            "AND column_name = 'table_name'").fetchall()
    finally:
        con.close()
    assert elsewhere[0][0] > 0
    assert not queries.has_column(warehouse, "columns", "table_name")
