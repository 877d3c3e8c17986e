"""Spooled loads (ingest.spool, issue 30): a worker's frames written as Parquet files and read by
DuckDB in the loading process must load exactly the rows the frames themselves load, skip games
already loaded, and leave no scratch file behind."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_storage_support import as_child, child_env, warehouse_tables, write_games

from ingest import spool
from ingest.db import connect
from ingest.pipeline import Item, ingest_paths, process_batch
from ingest.warehouse.load import load_frames, load_spooled
from ingest.warehouse.migrations import migrate
from ingest.warehouse.schema import TABLES

pytestmark = pytest.mark.needs_game("mandate2038")

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"


@pytest.fixture(autouse=True)
def _ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    as_child(monkeypatch, PLAYTEST_DB_WAIT="5")


def _batches(tmp: Path) -> list[dict[str, object]]:
    """Two batches' frames: simulated games of the samples and synthetic logs."""
    sims = sorted((SAMPLES / "simulated").glob("*.json"))[:6]
    synthetic = write_games(tmp / "in", 4, events=60)
    assert sims, "the bundled simulated samples"
    return [process_batch([Item(path=str(p)) for p in paths], archive=tmp / "archive").frames
            for paths in (sims, synthetic)]


def test_a_spooled_load_writes_what_a_load_of_frames_writes(tmp_path: Path) -> None:
    first, second = _batches(tmp_path)
    by_frames, by_files = tmp_path / "frames.duckdb", tmp_path / "files.duckdb"
    for db in (by_frames, by_files):
        with connect(db) as con:
            migrate(con)
    with connect(by_frames) as con:
        load_frames(con, first)  # type: ignore[arg-type]
        load_frames(con, second)  # type: ignore[arg-type]
    parts = [spool.write(f, tmp_path / "spool") for f in (first, second)]  # type: ignore[arg-type]
    assert all(set(p.columns) == set(TABLES) for p in parts)
    with connect(by_files) as con:
        out = load_spooled(con, parts)
        # nothing of the load is left behind on the connection
        assert con.execute("SELECT count(*) FROM duckdb_views() WHERE NOT internal "
                           "AND temporary").fetchall()[0][0] == 0
        assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary"
                           ).fetchall()[0][0] == 0
    assert len(out.loaded) == 10 and not out.skipped
    want, got = warehouse_tables(by_frames), warehouse_tables(by_files)
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], name
    assert len(want["games"]) == 10 and len(want["events"]) > 100 and want["seat_balance"]


def test_a_spooled_load_skips_games_already_loaded(tmp_path: Path) -> None:
    first, second = _batches(tmp_path)
    db = tmp_path / "db.duckdb"
    with connect(db) as con:
        migrate(con)
        load_frames(con, first)  # type: ignore[arg-type]
        parts = [spool.write(f, tmp_path / "spool") for f in (first, second)]  # type: ignore[arg-type]
        out = load_spooled(con, parts)
        assert len(out.skipped) == 6 and len(out.loaded) == 4
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 10


def test_a_spooled_batch_of_other_columns_is_refused(tmp_path: Path) -> None:
    (frames,) = _batches(tmp_path)[:1]
    part = spool.write(frames, tmp_path / "spool")  # type: ignore[arg-type]
    part.columns["games"] = (*part.columns["games"], "from_elsewhere")
    db = tmp_path / "db.duckdb"
    with connect(db) as con:
        migrate(con)
        with pytest.raises(ValueError, match="columns of table 'games'"):
            load_spooled(con, [part])
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 0


def test_an_ingest_through_workers_leaves_no_spool_and_removes_a_stopped_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYTEST_WORKERS", "2")
    folder = tmp_path / "in"
    write_games(folder, 70, events=40)  # enough for the process pool (ingest.batching)
    # one game in two batches (the copy sorts last): the later batch is read back and filtered
    shutil.copy(folder / "game_00003.json", folder / "zz_again.json")
    db = tmp_path / "db" / "playtest.duckdb"
    db.parent.mkdir()
    # a stopped ingest's spool (no process has this pid: pids stay below pid_max)
    dead = db.with_name(f"{db.name}.spool-{2 ** 22 + 1}")
    (dead / "0123").mkdir(parents=True)
    (dead / "0123" / "games.parquet").write_bytes(b"PAR1")
    mine_before = spool.folder_for(db)
    summary = ingest_paths([folder], db, progress=False)
    assert summary.counts()["loaded"] == 70 and summary.counts()["skipped"] == 1
    assert not dead.exists() and not mine_before.exists()
    assert [p.name for p in db.parent.iterdir() if ".spool-" in p.name] == []
    with connect(db, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 70
    assert os.getpid() == int(mine_before.name.rsplit("-", 1)[1])


def test_a_pool_worker_runs_at_a_lower_priority_than_the_loading_process() -> None:
    """The writer's loads go first when the cores are busy (ingest.batching._init_worker)."""
    import subprocess
    import sys

    code = ("import os; from ingest.batching import _init_worker, WORKER_NICENESS; "
            "before = os.nice(0); _init_worker(frozenset()); "
            "print(os.nice(0) - before, min(WORKER_NICENESS, 19 - before))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=child_env()).stdout.split()
    assert int(out[0]) == int(out[1]) > 0  # (a process already at niceness 19 stays there)


def test_a_batch_that_cannot_be_spooled_sends_its_frames_back(tmp_path: Path) -> None:
    """A spool that cannot be written (a full disk; here a file where the folder should be):
    the worker's result keeps its frames, which the loader loads as frames."""
    from ingest.batching import _worker_batch

    paths = write_games(tmp_path / "in", 3, events=40)
    blocked = tmp_path / "spool"
    blocked.write_text("not a folder")
    res = _worker_batch([Item(path=str(p)) for p in paths], tmp_path / "archive", 0.0, blocked)
    assert res.spooled is None and res.frames["games"].height == 3
    ok = _worker_batch([Item(path=str(p)) for p in paths], tmp_path / "archive2", 0.0,
                       tmp_path / "spool2")
    assert ok.spooled is not None and ok.frames == {} and len(ok.spooled.game_ids) == 3
    assert sorted(Path(ok.spooled.files["games"]).parent.iterdir())


def test_a_spool_write_that_fails_leaves_nothing(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import polars as pl

    (frames,) = _batches(tmp_path)[:1]
    written: list[object] = []
    real = pl.DataFrame.write_parquet

    def fail_second(self: pl.DataFrame, *a: object, **k: object) -> None:
        if written:
            raise OSError(28, "No space left on device")
        written.append(a)
        real(self, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(pl.DataFrame, "write_parquet", fail_second)
    with pytest.raises(OSError, match="No space"):
        spool.write(frames, tmp_path / "spool")  # type: ignore[arg-type]
    assert written and list((tmp_path / "spool").iterdir()) == []
