"""The writer connection an ingest holds across loads (issue 30, round two): reused while young,
released once held ``HOLD_SECONDS``, when the ingest computes a batch itself, when a load raises
and when the ingest ends, so that other processes get the database in between."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_storage_support import as_child, child_env, write_games

from ingest import loading
from ingest.db import connect
from ingest.loading import _Loader, _Writer
from ingest.pipeline import Item, ingest_paths, process_batch
from ingest.reports import IngestSummary

# the synthetic logs are Mandate 2038's (test_storage_support): skipped, not failed, when
# PLAYTEST_ONLY_GAMES hides it (tests/conftest.py)
pytestmark = pytest.mark.needs_game("mandate2038")


@pytest.fixture(autouse=True)
def _ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    as_child(monkeypatch, PLAYTEST_DB_WAIT="5")


def _other_process_can_open(db: Path) -> bool:
    """True when another process opens the database for writing at once (no wait)."""
    code = ("import sys, duckdb\n"
            "try:\n    duckdb.connect(sys.argv[1]).close()\n"
            "except duckdb.IOException:\n    sys.exit(3)\n")
    return subprocess.run([sys.executable, "-c", code, str(db)], check=False).returncode == 0


def test_writer_reuses_a_young_connection_and_reopens_an_old_one(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w.duckdb"
    w = _Writer(db)
    monkeypatch.setattr(_Writer, "HOLD_SECONDS", 30.0)
    con = w.connection()
    assert w.connection() is con and w.opens == 1 and w.held
    assert not _other_process_can_open(db)  # held: others wait
    w.tick()  # young: kept
    assert w.held
    monkeypatch.setattr(_Writer, "HOLD_SECONDS", 0.0)
    w.tick()  # held its time: released
    assert not w.held and _other_process_can_open(db)
    w.connection()
    assert w.opens == 2
    monkeypatch.setattr(_Writer, "HOLD_SECONDS", 30.0)
    w.tick(True)  # about to compute a batch here: released at once
    assert not w.held
    w.close()
    w.close()  # idempotent
    assert _other_process_can_open(db)


@pytest.mark.parametrize("spooled", [False, True], ids=["frames", "spooled"])
def test_a_load_that_raises_releases_the_database(tmp_path: Path, spooled: bool,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from ingest import spool

    folder = tmp_path / "in"
    paths = write_games(folder, 3, events=40)
    res = process_batch([Item(path=str(p)) for p in paths], archive=tmp_path / "archive")
    db = tmp_path / "db.duckdb"
    loading._ensure_schema(db)
    loader = _Loader(IngestSummary(db, tmp_path / "archive"), db)
    monkeypatch.setattr(_Writer, "HOLD_SECONDS", 30.0)

    def boom(*_a: object, **_k: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(loading, "load_frames", boom)
    monkeypatch.setattr(loading, "load_spooled", boom)
    loader.parts.append(spool.write(res.frames, tmp_path / "spool") if spooled else res.frames)
    loader.games += 3
    with pytest.raises(RuntimeError):
        loader.flush()
    assert not loader.writer.held and _other_process_can_open(db)
    assert len(loader.parts) == 1  # kept: nothing was loaded


def test_ingest_releases_the_database_between_loads_and_at_the_end(tmp_path: Path) -> None:
    """Another process asking for the database while a long ingest runs gets it within the
    lead's 2 s (with a margin for a loaded machine), every time; and at once when it ends."""
    folder = tmp_path / "in"
    write_games(folder, 160, events=60)
    db = tmp_path / "db" / "playtest.duckdb"
    env = child_env(PLAYTEST_WORKERS="2", PLAYTEST_FLUSH_GAMES="10")
    code = ("import sys; from ingest.pipeline import ingest_paths; "
            "s = ingest_paths([sys.argv[1]], sys.argv[2], progress=False); "
            "assert s.counts()['loaded'] == 160, s.counts()")
    child = subprocess.Popen([sys.executable, "-c", code, str(folder), str(db)], env=env)
    turns = 0
    waits: list[float] = []
    try:
        while child.poll() is None:
            if db.exists():
                t0 = time.monotonic()
                with connect(db, wait=20) as con:  # DatabaseBusy fails the test
                    con.execute("SELECT count(*) FROM games").fetchall()
                waits.append(time.monotonic() - t0)
                turns += 1
            time.sleep(0.3)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.wait() == 0
    assert turns >= 1, "the ingest ended before the database was created"
    assert _other_process_can_open(db)
    summary = ingest_paths([folder], db, progress=False)  # all there, nothing twice
    assert summary.counts()["skipped"] == 160


def test_rebuild_and_ingest_leave_no_connection_held(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    write_games(folder, 5, events=40)
    db = tmp_path / "db" / "playtest.duckdb"
    assert ingest_paths([folder], db, progress=False).counts()["loaded"] == 5
    assert _other_process_can_open(db)
    from ingest.pipeline import rebuild

    assert rebuild(db, progress=False).counts()["loaded"] == 5
    assert _other_process_can_open(db)
    assert os.path.exists(db)


def test_balance_rows_from_the_batch_equal_a_full_recompute(tmp_path: Path) -> None:
    """load_frames computes a load's seat_balance rows from the batch registered under the
    tables' names; they equal balance.refresh over the whole warehouse, and no such name is
    left registered after the load (the next statements see the stored tables)."""
    from ingest.warehouse import balance
    from ingest.warehouse.load import load_frames
    from ingest.warehouse.migrations import migrate

    folder = tmp_path / "in"
    paths = write_games(folder, 12, events=80)
    db = tmp_path / "db.duckdb"
    with connect(db) as con:
        migrate(con)
        for part in (paths[:5], paths[5:]):  # two loads: the second meets stored games
            res = process_batch([Item(path=str(p)) for p in part], archive=tmp_path / "archive")
            load_frames(con, res.frames)
            views = con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()
            assert views == []
        query = "SELECT * FROM seat_balance ORDER BY ALL"
        from_batches = con.execute(query).fetchall()
        assert len(from_batches) == con.execute("SELECT count(*) FROM seats").fetchall()[0][0] > 0
        con.execute("BEGIN TRANSACTION")
        balance.refresh(con)  # every game again, from the stored tables
        assert con.execute(query).fetchall() == from_batches
        con.execute("ROLLBACK")


def test_a_batch_without_a_stored_column_loads_and_a_failed_load_leaves_no_view(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A warehouse made while more games were registered has columns of theirs that a batch
    lacks: the load then computes seat_balance from the stored tables and gives the same rows
    (the case where ``balance.refresh`` reads such a column, ``seats.turn_order`` with only Pig
    registered, is tests/test_only_games.py's). A load that fails leaves no view under a
    table's name on the connection (it would hide the table from every later statement of a
    held connection)."""
    from ingest.warehouse import balance
    from ingest.warehouse import load as load_mod
    from ingest.warehouse.load import load_frames
    from ingest.warehouse.migrations import migrate

    paths = write_games(tmp_path / "in", 6, events=60)
    db = tmp_path / "db.duckdb"
    with connect(db) as con:
        migrate(con)
        con.execute("ALTER TABLE seats ADD COLUMN only_elsewhere INTEGER")
        res = process_batch([Item(path=str(p)) for p in paths[:3]], archive=tmp_path / "a")
        load_frames(con, res.frames)
        query = "SELECT * FROM seat_balance ORDER BY ALL"
        loaded = con.execute(query).fetchall()
        assert len(loaded) == con.execute("SELECT count(*) FROM seats").fetchall()[0][0] > 0
        con.execute("BEGIN TRANSACTION")
        balance.refresh(con)
        assert con.execute(query).fetchall() == loaded
        con.execute("ROLLBACK")

        def boom(*_a: object, **_k: object) -> None:
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(load_mod.balance, "refresh", boom)  # while the batch is registered
        monkeypatch.setattr(load_mod, "_batch_has_stored_columns", lambda *_a: True)
        res = process_batch([Item(path=str(p)) for p in paths[3:]], archive=tmp_path / "a")
        with pytest.raises(RuntimeError):
            load_frames(con, res.frames)
        assert con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall() == []
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 3
