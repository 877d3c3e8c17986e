"""Loading: archive first, then the warehouse. The public entry points :func:`ingest_paths` (files
and folders), :func:`ingest_log` (one game built in memory, live entry), :func:`rebuild` (the
warehouse again from the archive, swapped in atomically) and :func:`export` (one file per
table); the loader that merges finished batches into few transactions."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterable
from glob import escape as glob_escape
from pathlib import Path
from typing import Any

import polars as pl

from ingest import spool
from ingest.archive import Archive, canonical_text, game_id_of_text, now_utc
from ingest.batching import BatchResult, Item, _analyse, _describe, run_batches
from ingest.db import DatabaseBusy, StorageError, archive_root, connect, resolve_db
from ingest.formats.cells import neutralise_sql
from ingest.frames import FrameBuilder
from ingest.pool import WorkerPool, workers
from ingest.reading import walk_inputs
from ingest.reports import FileReport, IngestSummary
from ingest.spool import SpooledBatch
from ingest.warehouse import game_totals, summaries
from ingest.warehouse.load import existing_game_ids, load_frames, load_spooled, stored_columns
from ingest.warehouse.migrations import migrate
from ingest.warehouse.schema import TABLES

#: DuckDB settings of the connection that loads frames: its buffer pool may not grow with the
#: warehouse (DuckDB's default is 80% of the machine's memory, kept as cache), and one thread
#: per load keeps its working memory small (the workers use the other cores meanwhile).
#: 64MB was too small: the seat_balance refresh of a rebuild ran out of memory (DuckDB
#: OutOfMemoryException in tests/test_storage_pipeline.py's identity test, intermittently).
#: ``allocator_flush_threshold``: DuckDB gives its allocator's freed memory back after each
#: statement that peaked above 8 MB (default 128 MB): the ingest process's peak, which a load
#: sets, was 297 MB instead of 311 MB at 300 games a load (one run each, 2,000 games).
#: ``checkpoint_threshold`` and ``auto_checkpoint_skip_wal_threshold``: every commit of a load
#: checkpoints at once and, having more than 1,000 rows, writes its rows straight into the
#: database file instead of the write-ahead log first (DuckDB's commit is atomic either way).
#: The WAL written on commit was checkpointed anyway when the writer closed the connection
#: (about every load), so each row was serialised twice; the close's checkpoint is now ~0.01
#: CPU-s (docs/storage.md "Ingest parent: loads and memory, round four"). The checkpoint's
#: merging of the small row groups each load leaves (DuckDB's vacuum) still peaks the process
#: every few loads; ``max_vacuum_tasks = 0`` would avoid it but left a file 2.8 times larger.
#: ``write_buffer_row_group_count``: an insert writes each full row group to the file at once
#: instead of buffering 5 (DuckDB's default); with loads of 1,500 games the parent peaked at
#: 268-272 MB against 295 MB (docs/storage.md "Fewer, larger loads").
LOAD_SETTINGS = {"memory_limit": "512MB", "threads": "1", "allocator_flush_threshold": "8MB",
                 "checkpoint_threshold": "1KB", "auto_checkpoint_skip_wal_threshold": "1000",
                 "write_buffer_row_group_count": "1"}


def _settings(con: Any) -> None:
    for name, value in LOAD_SETTINGS.items():
        # names and values are this module's constants (SET takes no parameters)
        con.execute(f"SET {name} = '{value}'")


def _mark_skipped(res: BatchResult, skipped: Iterable[str]) -> None:
    gone = set(skipped)
    for r in res.reports:
        if r.game_id in gone and r.status in ("loaded", "recovered"):
            r.status, r.reason = "skipped", "already loaded"


def _load(db_path: Path, res: BatchResult) -> None:
    """Load one batch's frames on a connection of its own; games found already loaded become
    "skipped"."""
    if not res.frames["games"].height:
        return
    with connect(db_path) as con:
        _settings(con)
        out = load_frames(con, res.frames)
    _mark_skipped(res, out.skipped)


class _Writer:
    """The one writer connection an ingest holds across loads, for at most ``HOLD_SECONDS``.

    Opening a connection, setting it up and closing it (which checkpoints) cost the same
    whatever the load's size, so an ingest keeps one open across loads; but the app's
    short-lived connections and another writer must get their turn, so it is closed (and
    opened again when next needed) once it has been held ``HOLD_SECONDS``: checked before and
    after each load and on every :meth:`tick` (the ingest calls it at least every
    :data:`ingest.batching.TICK_SECONDS` while it waits for workers, and before it computes a
    batch itself). A hold is thus at most ``HOLD_SECONDS`` + one tick + one load; the lead's
    rule is 2 s. Always closed on :meth:`close` (the ingest calls it in a ``finally``) and when a
    load raises.
    """

    HOLD_SECONDS = 1.0
    #: after a release, the database stays free at least this long before this ingest opens
    #: it again: DuckDB's lock has no queue, so a waiting process only gets in when it asks
    #: during a gap (``ingest.db.connect`` asks every 0.1 s at most)
    GAP_SECONDS = 0.15

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self._stack: contextlib.ExitStack | None = None
        self._con: Any = None
        self._opened = 0.0
        self._closed = -1e9  # monotonic time of the last release
        self.summarised: frozenset[str] = frozenset()
        self.stored: dict[str, frozenset[str]] = {}  # the catalog (tables and columns)
        self.opens = 0  # connections opened (for tests and figures)

    @property
    def held(self) -> bool:
        return self._con is not None

    def held_for(self) -> float:
        return time.monotonic() - self._opened if self._con is not None else 0.0

    def connection(self) -> Any:
        """The held connection, opened (and set up once) when there is none or it has been
        held long enough. Raises :class:`DatabaseBusy` like :func:`connect`."""
        if self._con is not None and self.held_for() >= self.HOLD_SECONDS:
            self.close()
        if self._con is None:
            pause = self._closed + self.GAP_SECONDS - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            stack = contextlib.ExitStack()
            con = stack.enter_context(connect(self.db_path))
            try:
                _settings(con)
                # the catalog in one statement; the summary tables are among its tables
                self.stored = stored_columns(con)
                self.summarised = summaries.SUMMARISED.intersection(self.stored)
            except BaseException:
                stack.close()
                raise
            self._stack, self._con, self._opened = stack, con, time.monotonic()
            self.opens += 1
        return self._con

    def tick(self, computing: bool = False) -> None:
        """Close the connection when it has been held ``HOLD_SECONDS``, or at once when this
        process is about to compute a batch itself (``computing``)."""
        if self._con is not None and (computing or self.held_for() >= self.HOLD_SECONDS):
            self.close()

    def close(self) -> None:
        stack, self._stack, self._con = self._stack, None, None
        if stack is not None:
            try:
                stack.close()
            finally:
                self._closed = time.monotonic()


class _Loader:
    """Loads finished batches into the database, merging those that arrive close together.

    Each load has a fixed cost whatever its size (one statement per table and summary, the
    balance rows), so batch results are buffered and loaded together once ``FLUSH_GAMES`` games,
    ``FLUSH_BYTES`` bytes of frames or ``FLUSH_SECONDS`` have accumulated (and at the end). Each
    load is one transaction, on the connection a :class:`_Writer` holds across loads (released
    at least every ``_Writer.HOLD_SECONDS``). The buffer is what the ingest process holds
    besides the batches in flight, so both caps bound its memory whatever the corpus; a load
    holds its games' rows in DuckDB until the commit, so the game cap is 200 for frames
    (docs/storage.md "Ingest at 10,000 games" and "round two"). Batches the workers spooled
    (:mod:`ingest.spool`) are file names here, so their loads are larger
    (``FLUSH_SPOOLED_GAMES``): a load's fixed cost is then paid three times less often, and the
    process's peak is DuckDB's for one load (docs/storage.md "Spooled loads").

    A spooled load grows up to ``FLUSH_SPOOLED_MAX`` games while it fits in
    ``LOAD_TARGET_SECONDS`` (each load's seconds per game, measured, size the next): every commit
    checkpoints and merges the row groups the load left (DuckDB's vacuum), which cost the same
    for 600 games as for 1,500, so larger loads save CPU; the target keeps a hold of the
    database under the 2 s rule when the machine is slow (docs/storage.md "Fewer, larger
    loads").
    """

    FLUSH_GAMES = 200
    FLUSH_SPOOLED_GAMES = 600
    #: the most games a spooled load grows to (the peak of the whole ingest: 262-279 MB at 1,500 a
    #: load, 286-288 MB at 2,000, 10,000 simulated games)
    FLUSH_SPOOLED_MAX = 1500
    #: the wall seconds a spooled load aims at; a hold of the database is at most one load when
    #: loads take 1 s or more (``_Writer`` closes after a load held that long), else 1 s + a load
    LOAD_TARGET_SECONDS = 1.4
    FLUSH_BYTES = 32 * 1024 * 1024
    FLUSH_SECONDS = 10.0

    def __init__(self, summary: IngestSummary, db_path: Path, *, pool_size: int = 0) -> None:
        raw = os.environ.get("PLAYTEST_FLUSH_GAMES", "").strip()
        # tuning knob (the crash test loads often): games per load, spooled or not
        self.games_override = int(raw) if raw.isdigit() and int(raw) > 0 else 0
        self.summary = summary
        self.db_path = db_path
        self.writer = _Writer(db_path)
        #: the batches waiting for the next load: frames, or spooled files
        self.parts: list[dict[str, pl.DataFrame] | SpooledBatch] = []
        self.games = 0  # games in ``parts``
        self.reports: list[FileReport] = []
        self.ids: set[str] = set()
        self.held = 0  # bytes of the buffered frames
        self.loads = 0  # loads done
        self.last = time.monotonic()
        #: the size of the pool computing the batches (ingest.batching.run_batches)
        self.workers = pool_size or workers()
        #: wall seconds per game of the last spooled load (None before the first)
        self.seconds_per_game: float | None = None

    def add(self, res: BatchResult) -> None:
        self.summary.batch_cpu_seconds += res.cpu_seconds
        self.summary.batch_max_rss_kb = max(self.summary.batch_max_rss_kb, res.max_rss_kb)
        self.summary.reports.extend(res.reports)
        part: dict[str, pl.DataFrame] | SpooledBatch
        if res.spooled is not None:
            part, new_ids = res.spooled, res.spooled.game_ids
        else:
            part, new_ids = res.frames, res.frames["games"]["game_id"].to_list()
        dup = self.ids.intersection(new_ids)
        if dup:  # the same game from two inputs in different batches: keep the first
            frames = spool.read(part) if isinstance(part, SpooledBatch) else part
            if isinstance(part, SpooledBatch):
                spool.remove(part)
            keep = pl.Series(sorted(set(new_ids) - dup), dtype=pl.String).implode()
            part = {t: f.filter(pl.col("game_id").is_in(keep)) for t, f in frames.items()}
            for r in res.reports:
                if r.game_id in dup and r.status in ("loaded", "recovered"):
                    r.status, r.reason = "skipped", "already loaded"
        self.ids.update(new_ids)
        games = len(part.game_ids) if isinstance(part, SpooledBatch) else part["games"].height
        if games:
            self.parts.append(part)
            self.games += games
            self.reports.extend(res.reports)
            # what this process holds: a spooled batch's frames are on disk
            self.held += 0 if isinstance(part, SpooledBatch) else int(
                sum(f.estimated_size() for f in part.values()))
        if (self.games >= self.flush_games()
                or self.held >= self.FLUSH_BYTES
                or time.monotonic() - self.last >= self.FLUSH_SECONDS
                or 0 < res.left < self.workers):
            # (the last: the pool's final batches are running and the queue is empty; what is
            # buffered loads now, on the core a finished worker left free, so that the load after
            # the last batch, which nothing overlaps, holds that batch alone; docs/storage.md
            # "The start and the end of an ingest")
            self.flush()

    def flush_games(self) -> int:
        """Games per load: :data:`FLUSH_GAMES`, or :data:`FLUSH_SPOOLED_GAMES` when every
        buffered batch is spooled (their rows are not in this process until DuckDB reads
        them)."""
        if self.games_override:
            return self.games_override
        spooled = self.parts and all(isinstance(p, SpooledBatch) for p in self.parts)
        if not spooled:
            return self.FLUSH_GAMES
        if self.seconds_per_game is None:
            return self.FLUSH_SPOOLED_GAMES
        fits = int(self.LOAD_TARGET_SECONDS / max(self.seconds_per_game, 1e-6))
        return max(self.FLUSH_SPOOLED_GAMES, min(self.FLUSH_SPOOLED_MAX, fits))

    def tick(self, computing: bool = False) -> None:
        """Between batches: let the writer release the database when it is due."""
        self.writer.tick(computing)

    def flush(self) -> None:
        self.last = time.monotonic()
        if not self.parts:
            return
        parts, t0, games = self.parts, time.perf_counter(), self.games
        spooled = [p for p in parts if isinstance(p, SpooledBatch)]
        all_spooled = len(spooled) == len(parts)
        res = BatchResult({}, self.reports)
        try:
            con = self.writer.connection()  # DatabaseBusy: buffer kept
            if all_spooled:
                out = load_spooled(con, spooled, summarised=self.writer.summarised,
                                   stored=self.writer.stored)
            else:  # frames (batches computed in this process), and spooled ones read back
                frames = [spool.read(p) if isinstance(p, SpooledBatch) else p for p in parts]
                merged = (  # chunks side by side, not copied (rechunk=False)
                    frames[0] if len(frames) == 1
                    else {t: pl.concat([f[t] for f in frames], rechunk=False) for t in frames[0]})
                del frames
                out = load_frames(con, merged, summarised=self.writer.summarised,
                                  stored=self.writer.stored)
                del merged
        except BaseException:
            self.writer.close()
            raise
        _mark_skipped(res, out.skipped)
        # the frames are loaded: let them go before the writer may close the connection (its
        # checkpoint is where the ingest process peaks)
        self.parts, self.held, self.games = [], 0, 0
        for part in spooled:
            spool.remove(part)
        del parts, spooled, res
        took = time.perf_counter() - t0
        if all_spooled and games:
            self.seconds_per_game = took / games
        self.writer.tick()
        self.loads += 1
        self.summary.load_seconds += took
        self.reports = []

    def finish(self) -> None:
        """Load what is buffered, then merge the summary rows the loads added one by one
        (:func:`ingest.warehouse.summaries.compact`), and release the database."""
        try:
            self.flush()
            if self.loads:
                t0 = time.perf_counter()
                summaries.compact(self.writer.connection())
                game_totals.compact(self.writer.connection())
                self.summary.load_seconds += time.perf_counter() - t0
        finally:
            self.writer.close()

    def close(self) -> None:
        """Release the database (idempotent; the ingest calls it on every way out)."""
        self.writer.close()


class BusyAfterArchiving(DatabaseBusy):
    """The database stayed busy during an ingest; every input was archived (or quarantined)
    before that mattered. ``summary`` says what was archived, loaded and not loaded."""

    def __init__(self, message: str, summary: IngestSummary, not_loaded: int) -> None:
        super().__init__(message)
        self.summary = summary
        self.not_loaded = not_loaded


def _busy(err: DatabaseBusy, summary: IngestSummary, unloaded: list[FileReport]) -> BusyAfterArchiving:
    """The error of an ingest whose database stayed busy: the games archived but not loaded
    are noted so on their reports and counted in the message."""
    for r in unloaded:
        if r.status in ("loaded", "recovered"):
            r.notes.append("archived, not loaded: the database was busy")
    waiting = sum(r.status in ("loaded", "recovered") for r in unloaded)
    kept = sum(r.status == "unreadable" for r in summary.reports)
    return BusyAfterArchiving(
        f"{err} Every input was archived first: {waiting} game(s) are archived but not loaded "
        f"yet and {kept} unreadable input(s) are reported (quarantined when they held bytes). "
        "Nothing is lost: run the same ingest again once the database is free to load them.",
        summary, waiting)


def _ensure_schema(db_path: Path) -> frozenset[str]:
    with connect(db_path) as con:
        migrate(con)
        return frozenset(existing_game_ids(con))


# --------------------------------------------------------------------------------------------
# Public entry points


def ingest_paths(
    paths: Iterable[str | Path], db_path: str | Path | None = None, *, progress: bool = True,
    pool: WorkerPool | None = None,
) -> IngestSummary:
    """Archive and load every game under ``paths`` (files or folders) into ``db_path``.

    Returns a summary with one report per game or unreadable input; unreadable inputs are
    quarantined with their reason. Raises :class:`ingest.db.DatabaseBusy` when another process
    holds the database and :class:`ingest.db.StorageError` for storage problems; never for a
    bad input.

    ``pool``: worker processes started beforehand (:func:`ingest.pool.prestart`, as
    ``playtest ingest`` does before its imports), used if the inputs go to a pool; the caller
    closes it.
    """
    started = time.perf_counter()
    run_started = time.time()
    db = resolve_db(db_path)
    root = archive_root(db)
    files, missing = walk_inputs(paths)
    summary = IngestSummary(db, root, list(missing), files=len(files) + len(missing))
    # Archive first, then load: a busy database stops the loading, never the archiving.
    busy: DatabaseBusy | None = None
    unloaded: list[FileReport] = []
    try:
        known = _ensure_schema(db)
    except DatabaseBusy as err:
        busy, known = err, frozenset()
    items = [Item(path=str(f)) for f in files]
    loader = _Loader(summary, db, pool_size=pool.size if pool is not None else 0)
    # the workers' frames as scratch files (ingest.spool), removed at the end whatever happens
    with spool.spooling(db) as folder:
        try:
            for res in run_batches(items, archive=root, skip_ids=known, run_started=run_started,
                                   progress=progress, label="ingest", tick=loader.tick,
                                   spool=folder, pool=pool):
                if busy is None:
                    try:
                        loader.add(res)
                        continue
                    except DatabaseBusy as err:  # res is in the loader's buffer, not loaded
                        busy = err
                        unloaded.extend(loader.reports)
                        continue
                if res.spooled is not None:  # not to be loaded: its files go now
                    spool.remove(res.spooled)
                summary.reports.extend(res.reports)
                unloaded.extend(res.reports)
            if busy is None:
                try:
                    loader.finish()
                except DatabaseBusy as err:
                    busy = err
                    unloaded.extend(loader.reports)
        finally:
            loader.close()  # the database is never held past the ingest, whatever happened
    summary.seconds = time.perf_counter() - started
    if busy is not None:
        raise _busy(busy, summary, unloaded)
    _dedupe_across_batches(summary)
    summary.seconds = time.perf_counter() - started
    return summary


def _dedupe_across_batches(summary: IngestSummary) -> None:
    # Two inputs with the same game in different batches: the loader skipped the later one;
    # make sure only one report says loaded/recovered per game id.
    seen: set[str] = set()
    for r in summary.reports:
        if r.game_id is None or r.status not in ("loaded", "recovered"):
            continue
        if r.game_id in seen:
            r.status, r.reason = "skipped", "already loaded"
        seen.add(r.game_id)


def ingest_log(log: Any, db_path: str | Path | None = None, *, source: str = "live") -> IngestSummary:
    """Archive and load one log model built in memory (live entry); returns the summary.

    The canonical text is kept as the raw input too. A game already loaded is "skipped". Call it
    once, for the finished (or abandoned) game: every different text is a different game id, so
    saving a draft after each event would store every intermediate version as a game (drafts
    belong to the entry tool's own fsynced files).
    """
    started = time.perf_counter()
    db = resolve_db(db_path)
    root = archive_root(db)
    summary = IngestSummary(db, root, files=1)
    arch = Archive(root)
    text = canonical_text(log)
    raw = text.encode("utf-8")
    put_raw = arch.put_raw(raw, "json")
    game_id = game_id_of_text(text)
    existed = arch.has_game(game_id)
    meta = {
        "source_format": "live", "source_name": source, "raw_sha256": put_raw.key,
        "lines": [4 + i for i in range(len(log.events))], "indices": list(range(len(log.events))),
        "raw_event_count": len(log.events), "read_findings": [], "archived_at": now_utc(),
    }
    arch.put_game_text(text, meta)
    meta = arch.read_meta(game_id) or meta
    try:  # archived first: a busy database stops the loading only
        known = _ensure_schema(db)
    except DatabaseBusy as err:
        summary.seconds = time.perf_counter() - started
        waiting = FileReport(source, "recovered" if existed else "loaded", game_id)
        summary.reports.append(waiting)
        raise _busy(err, summary, [waiting]) from None
    if game_id in known:
        summary.reports.append(FileReport(source, "skipped", game_id, "already loaded"))
    else:
        builder = FrameBuilder()
        report = FileReport(source, "recovered" if existed else "loaded", game_id)
        try:
            _analyse(game_id, text, log.header, list(log.events), meta, builder, report)
            frames, bad = builder.build()
            if bad:
                report.status, report.reason = "failed", bad[game_id]
            else:
                _load(db, BatchResult(frames, [report]))
        except DatabaseBusy as err:
            summary.reports.append(report)
            summary.seconds = time.perf_counter() - started
            raise _busy(err, summary, [report]) from None
        except StorageError:
            raise
        except Exception as err:  # noqa: BLE001
            report.status, report.reason = "failed", _describe(err)
        summary.reports.append(report)
    summary.seconds = time.perf_counter() - started
    return summary


def rebuild(
    db_path: str | Path | None = None, *, progress: bool = True, allow_drop: bool = False
) -> IngestSummary:
    """Recreate the warehouse from the archive into a new file and swap it in atomically.

    The old database is held (locked) while the new one is built, so no ingest can slip in
    between; then the new file replaces it with ``os.replace``. Raises DatabaseBusy when the
    database is in use, and StorageError when the warehouse holds games the archive lacks (a
    moved or missing archive; ``allow_drop=True`` rebuilds anyway and drops them). Games that
    fail to re-derive are reported ("failed") and left out.
    """
    started = time.perf_counter()
    db = resolve_db(db_path)
    root = archive_root(db)
    arch = Archive(root)
    summary = IngestSummary(db, root)
    new = db.with_name(f"{db.name}.rebuild-{os.getpid()}")
    for stale in (new, new.with_name(new.name + ".wal")):
        stale.unlink(missing_ok=True)
    db.parent.mkdir(parents=True, exist_ok=True)
    hold = connect(db) if db.exists() else contextlib.nullcontext()
    with hold as old_con:
        _remove_leftovers(db, holding=old_con is not None)
        try:
            ids = arch.game_ids()
            summary.files = len(ids)
            if old_con is not None and not allow_drop:
                _refuse_to_drop(old_con, set(ids), root)
            with connect(new) as con:
                migrate(con)
            items = [Item(game_id=g) for g in ids]
            loader = _Loader(summary, new)
            try:
                with spool.spooling(db) as folder:
                    for res in run_batches(items, archive=root, skip_ids=frozenset(),
                                           run_started=time.time(), progress=progress,
                                           label="rebuild", tick=loader.tick, spool=folder):
                        loader.add(res)
                    loader.finish()
            finally:
                loader.close()
            with connect(new) as con:
                con.execute("CHECKPOINT")
        except BaseException:
            new.unlink(missing_ok=True)
            new.with_name(new.name + ".wal").unlink(missing_ok=True)
            raise
    # The old connection is closed (checkpointed); a leftover WAL must not meet the new file.
    old_wal = db.with_name(db.name + ".wal")
    if old_wal.exists():
        old_wal.rename(db.with_name(f"{db.name}.wal.stale-{int(time.time())}"))
    os.replace(new, db)
    with contextlib.suppress(OSError):
        fd = os.open(db.parent, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
    summary.seconds = time.perf_counter() - started
    return summary


def _remove_leftovers(db: Path, *, holding: bool) -> None:
    """Delete the ``<db>.rebuild-<pid>`` files (and their WAL) of rebuilds that were killed.

    While this process holds the old database no other rebuild of it can run, so every such
    file is a leftover; otherwise only those of processes that no longer exist are."""
    prefix = f"{db.name}.rebuild-"
    for path in db.parent.glob(f"{glob_escape(prefix)}*"):
        pid_text = path.name[len(prefix):].removesuffix(".wal")
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        if not holding and spool.process_alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            print(f"removed {path.name}, left by a rebuild that was stopped", file=sys.stderr)


def _refuse_to_drop(con: Any, archived: set[str], root: Path) -> None:
    try:
        migrate(con)
        loaded = existing_game_ids(con)
    except StorageError:
        raise
    except Exception as err:  # noqa: BLE001 - an unreadable old database is simply replaced
        print(f"the old database could not be read ({err}); rebuilding it", file=sys.stderr)
        return
    lost = loaded - archived
    if lost:
        raise StorageError(
            f"the warehouse holds {len(lost)} game(s) that are not in the archive {root} "
            f"(e.g. {sorted(lost)[0]}); rebuilding would drop them. Check that the archive "
            "beside the database is the right one (rebuild with allow_drop to drop them)."
        )


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def export(db_path: str | Path | None, out_dir: str | Path, fmt: str = "parquet") -> list[Path]:
    """Write one file per warehouse table (``<table>.parquet`` or ``<table>.csv``) to ``out_dir``.

    Returns the written paths. Raises StorageError for an unknown format or a missing database.
    """
    if fmt not in ("parquet", "csv"):
        raise StorageError(f"unknown export format {fmt!r}; use parquet or csv")
    db = resolve_db(db_path)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with connect(db, read_only=True) as con:
        names = [*TABLES, "schema_migrations"]
        for name in names:
            path = out / f"{name}.{fmt}"
            rel = con.table(name)
            if fmt == "parquet":
                rel.write_parquet(str(path))
            else:
                # no text cell may run as a formula in a spreadsheet (ingest/formats/cells.py)
                cols = [(c, str(t)) for c, t in zip(rel.columns, rel.types, strict=True)]
                rel.select(", ".join(
                    f"{neutralise_sql(_ident(c))} AS {_ident(c)}" if t == "VARCHAR" else _ident(c)
                    for c, t in cols)).write_csv(str(path))
            written.append(path)
    return written
