"""The pool started before an ingest's imports (ingest.pool) and the loads at the end of a pooled
ingest (ingest.loading._Loader): the same warehouse as an ingest that starts its own pool, the
games already loaded skipped by workers that learnt them from the pool's file, and the last
load holding only what the last batches brought."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_storage_support import as_child, child_env, warehouse_tables, write_games

from ingest import pool as pool_mod
from ingest.batching import BatchResult
from ingest.db import connect
from ingest.loading import _ensure_schema, _Loader
from ingest.pipeline import ingest_paths
from ingest.reports import FileReport, IngestSummary
from ingest.spool import SpooledBatch

pytestmark = pytest.mark.needs_game("mandate2038")


@pytest.fixture(autouse=True)
def _ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    as_child(monkeypatch, PLAYTEST_DB_WAIT="5", PLAYTEST_WORKERS="2")


def test_a_pool_is_started_only_for_enough_inputs(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    few = tmp_path / "few"
    write_games(few, 3, events=10)
    assert not pool_mod.likely_pool([few])
    assert not pool_mod.likely_pool([tmp_path / "missing"])
    many = tmp_path / "many"
    many.mkdir()
    for i in range(pool_mod.INLINE_BELOW):
        (many / f"g{i:03d}.json").write_text("{}")
    (many / ".hidden").mkdir()
    assert pool_mod.likely_pool([many])
    assert pool_mod.likely_pool([str(p) for p in sorted(many.iterdir())])  # files one by one
    monkeypatch.setenv("PLAYTEST_WORKERS", "1")
    assert not pool_mod.likely_pool([many])
    assert pool_mod.prestart([many]) is None


def test_an_ingest_through_a_prestarted_pool_loads_the_same_and_skips_what_is_loaded(
        tmp_path: Path) -> None:
    folder = tmp_path / "in"
    write_games(folder, 70, events=40)
    plain, early = tmp_path / "a" / "playtest.duckdb", tmp_path / "b" / "playtest.duckdb"
    plain.parent.mkdir()
    early.parent.mkdir()
    assert ingest_paths([folder], plain, progress=False).counts()["loaded"] == 70
    pool = pool_mod.prestart([folder])
    assert pool is not None
    with pool:
        assert ingest_paths([folder], early, progress=False, pool=pool).counts()["loaded"] == 70
    assert not pool.known_file.parent.exists()  # the pool's file went with it
    assert (warehouse_tables(plain, without=frozenset({"ingested_at"}), folder_as="<db>")
            == warehouse_tables(early, without=frozenset({"ingested_at"}), folder_as="<db>"))
    # again, into the same warehouse: the workers learn the loaded games from the pool's file
    more = tmp_path / "in2"
    write_games(more, 70, start=70, events=40)
    with pool_mod.WorkerPool(2) as pool2:
        summary = ingest_paths([folder, more], early, progress=False, pool=pool2)
        with pytest.raises(RuntimeError, match="already set"):
            pool2.set_known([])
    counts = summary.counts()
    assert counts["loaded"] == 70 and counts["skipped"] == 70, counts
    assert all(r.reason == "already loaded" for r in summary.reports if r.status == "skipped")
    with connect(early, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 140


def test_the_cli_starts_its_pool_first_and_leaves_nothing_behind(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    write_games(folder, 70, events=30)
    db = tmp_path / "db" / "playtest.duckdb"
    env = {**child_env(), "PLAYTEST_WORKERS": "2", "TMPDIR": str(tmp_path / "tmp")}
    (tmp_path / "tmp").mkdir()
    out = subprocess.run([sys.executable, "-m", "cli", "ingest", str(folder), "--db", str(db)],
                         capture_output=True, text=True, env=env, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert "70 loaded" in out.stdout
    assert list((tmp_path / "tmp").iterdir()) == []  # the pool's file is removed


def _result(game_ids: list[str], left: int) -> BatchResult:
    """A batch result carrying no rows (the loader's flush rule is what is tested)."""
    import polars as pl

    from ingest.warehouse.schema import polars_schema

    frames = {"games": pl.DataFrame({"game_id": game_ids},
                                    schema={"game_id": polars_schema("games")["game_id"]})}
    res = BatchResult(frames, [FileReport(f"{g}.json", "loaded", g) for g in game_ids])
    res.left = left
    return res


def test_the_loads_at_the_end_of_a_pooled_ingest_leave_the_last_batch_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the queue is empty and fewer batches than workers are running, what is buffered is
    loaded at once (on a free core), so the load after the last batch holds that batch only."""
    loader = _Loader(IngestSummary(tmp_path / "x.duckdb", tmp_path / "archive", []),
                     tmp_path / "x.duckdb")
    flushed: list[int] = []

    def flush() -> None:
        flushed.append(loader.games)
        loader.parts, loader.games = [], 0

    monkeypatch.setattr(loader, "flush", flush)
    assert loader.workers == 2
    for i, left in enumerate((9, 8, 3, 2)):  # batches still queued or running: buffered
        loader.add(_result([f"g{i}a", f"g{i}b"], left))
    assert flushed == []
    loader.add(_result(["g5a"], 1))  # the queue is empty, one batch runs: load now
    assert flushed == [9]
    loader.add(_result(["g6a", "g6b"], 0))  # the last: waits for finish()
    assert flushed == [9] and loader.games == 2
    loader.add(_result(["g7a"], -1))  # a batch run inline: the usual rules
    assert flushed == [9]


@pytest.mark.parametrize("spooled", [False, True])
def test_more_batches_are_in_flight_when_the_workers_spool_them(
        tmp_path: Path, spooled: bool) -> None:
    """run_batches submits up to IN_FLIGHT batches a worker when the frames come back to this
    process, and IN_FLIGHT_SPOOLED when the workers spool them (only reports wait here): the
    caller loads between two results and submits nothing meanwhile, so the workers must have
    enough to keep busy through a load."""
    from concurrent.futures import Future

    from ingest import batching

    submitted: list[int] = []

    class Executor:  # each batch is done at once; what counts is how many were submitted
        def submit(self, fn: object, batch: list[batching.Item], *args: object,
                   ) -> Future[BatchResult]:
            fut: Future[BatchResult] = Future()
            fut.set_result(BatchResult({}, []))
            submitted.append(len(batch))
            return fut

    class Pool:
        size = 2
        executor = Executor()

        def set_known(self, ids: object) -> None:
            pass

    items = [batching.Item(path=str(tmp_path / f"g{i}.json")) for i in range(400)]
    results = batching.run_batches(
        items, archive=tmp_path / "archive", skip_ids=frozenset(), run_started=0.0,
        progress=False, label="", spool=tmp_path / "spool" if spooled else None,
        pool=Pool())  # type: ignore[arg-type]
    first = next(results)  # the first result is handed over after the first submissions
    per_worker = batching.IN_FLIGHT_SPOOLED if spooled else batching.IN_FLIGHT
    assert len(submitted) == 2 * per_worker  # 16 batches of 25 (ingest.batching._chunks)
    assert first.left == 15
    assert sum(1 for _ in results) == 15 and len(submitted) == 16  # each comes back once
    assert batching.IN_FLIGHT_SPOOLED > batching.IN_FLIGHT


def test_a_prestarted_worker_reads_the_known_games_from_the_pools_file() -> None:
    from ingest import batching

    with pool_mod.WorkerPool(1) as pool:
        pool.set_known(["aaaa000011112222", "bbbb000011112222"])
        known = pool.executor.submit(batching._known_ids).result(timeout=120)
    assert known == frozenset({"aaaa000011112222", "bbbb000011112222"})


def test_a_worker_keeps_more_shared_event_lines_than_the_readers_default() -> None:
    """The pool's workers read thousands of logs: their parsed-line cache and line memo keep
    WORKER_CACHED_LINES lines (the process reading here keeps the readers' default)."""
    from ingest import batching
    from ingest.archive import INGEST_LINES
    from ingest.formats.jsonlog import LINE_CACHE, LINE_CACHE_LINES

    ask = ("(__import__('ingest.formats.jsonlog', fromlist=['LINE_CACHE']).LINE_CACHE.capacity, "
           "__import__('ingest.archive', fromlist=['INGEST_LINES']).INGEST_LINES.capacity)")
    with pool_mod.WorkerPool(1) as pool:
        in_worker = pool.executor.submit(eval, ask).result(timeout=120)
    assert in_worker == (batching.WORKER_CACHED_LINES, batching.WORKER_CACHED_LINES)
    assert batching.WORKER_CACHED_LINES > LINE_CACHE_LINES
    assert LINE_CACHE.capacity == INGEST_LINES.capacity == LINE_CACHE_LINES


def test_a_spooled_load_grows_while_it_fits_its_time(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Spooled loads start at FLUSH_SPOOLED_GAMES; then each load's measured seconds per game
    size the next, within [FLUSH_SPOOLED_GAMES, FLUSH_SPOOLED_MAX] (docs/storage.md "Fewer,
    larger loads"); frames computed in this process keep FLUSH_GAMES; the override wins."""
    monkeypatch.delenv("PLAYTEST_FLUSH_GAMES", raising=False)
    loader = _Loader(IngestSummary(tmp_path / "x.duckdb", tmp_path / "archive", []),
                     tmp_path / "x.duckdb")
    loader.parts = [SpooledBatch(str(tmp_path / "b"))]
    assert loader.flush_games() == _Loader.FLUSH_SPOOLED_GAMES
    target = _Loader.LOAD_TARGET_SECONDS
    loader.seconds_per_game = target / 1000  # 1,000 games fit
    assert loader.flush_games() == 1000
    loader.seconds_per_game = target / 100_000  # fast: capped (the parent's memory)
    assert loader.flush_games() == _Loader.FLUSH_SPOOLED_MAX
    loader.seconds_per_game = target / 10  # slow: never below the fixed size of before
    assert loader.flush_games() == _Loader.FLUSH_SPOOLED_GAMES
    loader.parts = [{}]  # frames in this process: their own cap
    assert loader.flush_games() == _Loader.FLUSH_GAMES
    monkeypatch.setenv("PLAYTEST_FLUSH_GAMES", "7")
    loader = _Loader(IngestSummary(tmp_path / "x.duckdb", tmp_path / "archive", []),
                     tmp_path / "x.duckdb")
    loader.parts = [SpooledBatch(str(tmp_path / "b"))]
    loader.seconds_per_game = target / 1000
    assert loader.flush_games() == 7


def test_a_spooled_load_measures_its_seconds_per_game(tmp_path: Path) -> None:
    """A spooled load records its wall seconds per game (what sizes the next load) and loads
    every game; a load of frames leaves the figure alone."""
    from ingest import spool
    from ingest.batching import Item, process_batch

    files = write_games(tmp_path / "in", 6, events=30)
    db = tmp_path / "w.duckdb"
    _ensure_schema(db)
    loader = _Loader(IngestSummary(db, tmp_path / "archive", []), db)
    try:
        res = process_batch([Item(path=str(f)) for f in files[:4]], archive=tmp_path / "archive")
        (tmp_path / "spool").mkdir()
        loader.parts, loader.games = [spool.write(res.frames, tmp_path / "spool")], 4
        loader.flush()
        assert loader.seconds_per_game is not None and loader.seconds_per_game > 0
        measured = loader.seconds_per_game
        res = process_batch([Item(path=str(f)) for f in files[4:]], archive=tmp_path / "archive")
        loader.parts, loader.games = [res.frames], 2
        loader.flush()
        assert loader.seconds_per_game == measured
    finally:
        loader.close()
    with connect(db, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(6,)]
