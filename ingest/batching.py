"""Batching: the pure batch function (:func:`process_batch`: items in, frames and per-item reports
out, archiving as it goes when given an archive) and running batches inline or in a process pool
(:func:`run_batches`). A batch run without an archive touches no file: it is the seam for running
batches on other machines (DESIGN.md §8)."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import resource
import stat
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from engine.core.parse import ParsedLog, parse_log
from engine.core.registry import get_ruleset
from ingest import gc_tuning
from ingest.archive import (
    GAME_ID_LENGTH,
    INGEST_LINES,
    Archive,
    ArchiveError,
    SyncResult,
    canonical_text,
    now_utc,
    sha256_hex,
)
from ingest.db import StorageError
from ingest.formats import NotReadable, read_file
from ingest.formats import source_name as formats_source_name
from ingest.formats.jsonlog import LINE_CACHE
from ingest.frames import FrameBuilder, without_pandas
from ingest.pool import INLINE_BELOW, WorkerPool
from ingest.pool import workers as _workers
from ingest.reading import read_input
from ingest.reports import FileReport
from ingest.rows import game_columns
from ingest.spool import SpooledBatch
from ingest.spool import write as spool_write

# A batch is what one process holds at a time (DESIGN.md §8): its inputs read, validated and
# turned into rows and frames. It is capped in games and in input bytes, so that memory follows
# the batch, never the corpus: ~0.5 MB of memory per game of 160 events (~15 KB of JSON), i.e.
# a few tens of times the input's size (docs/storage.md "Measured memory").
BATCH_MAX = 100  # games (inputs) per batch
BATCH_BYTES = 2 * 1024 * 1024  # input bytes per batch (a larger input is a batch of its own)
#: longest wait for a worker's result before :func:`run_batches` calls its ``tick`` (seconds)
TICK_SECONDS = 0.25
#: batches submitted to the pool and not yet handed to the caller, per worker: when the workers
#: send their frames back (they wait in this process until loaded) ...
IN_FLIGHT = 2
#: ... and when they spool them (only the reports wait): enough for the workers to keep busy
#: through a load of up to ~2 s (docs/storage.md "Batches in flight")
IN_FLIGHT_SPOOLED = 6
#: how much lower a pool worker's scheduling priority is than the loading process's
WORKER_NICENESS = 5


@dataclass(slots=True)
class Item:
    """One unit of work: an input path to read, or an archived game to re-derive."""

    path: str | None = None
    game_id: str | None = None  # rebuild: the archived game


@dataclass(slots=True)
class BatchResult:
    """What :func:`process_batch` returns: frames of the games to load plus one report each.

    ``pending`` holds, for a batch run without an archive, what the caller must archive before
    loading: ``(game_id, canonical text, meta, raw bytes, raw ext)``.
    """

    frames: dict[str, pl.DataFrame]
    reports: list[FileReport]
    pending: list[tuple[str, str, dict[str, Any], bytes, str]] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time of the process that ran the batch
    max_rss_kb: int = 0  # peak resident memory so far of the process that ran the batch
    #: the frames written as Parquet files by a worker (``run_batches`` with ``spool``):
    #: ``frames`` is then empty
    spooled: SpooledBatch | None = None
    #: set by :func:`run_batches` on a pool's result: how many of the run's batches are still
    #: being computed or waiting (0 for the last one); -1 when not known (a batch run inline)
    left: int = -1


def _raw_ext(source: str, fmt: str) -> str:
    suffix = Path(source.split("#", 1)[0]).suffix.lstrip(".").lower()
    if suffix and Path(source.split("#", 1)[0]).is_file():
        return suffix
    return {"session-folder": "zip"}.get(fmt, fmt or "bin")


def _finding_reasons(findings: Sequence[Any], limit: int = 20) -> list[dict[str, Any]]:
    out = []
    for f in list(findings)[:limit]:
        out.append({"code": f.code, "message": f.message, "line": f.where.line,
                    "event": f.where.event})
    return out


def _reason_text(loaded: Any) -> str:
    # The reader's findings name the source, line and column; the bare reason is the fallback.
    bits = [f.message for f in loaded.parsed.findings[:3]]
    if not bits and loaded.unreadable:
        bits.append(str(loaded.unreadable))
    if not bits:
        bits.append("the input holds no readable game log")
    text = "; ".join(bits)
    if loaded.source not in text:
        text = f"{loaded.source}: {text}"
    return text


def _meta_for(loaded: Any, raw_sha: str) -> dict[str, Any]:
    parsed = loaded.parsed
    return {
        "source_format": loaded.format,
        "source_name": loaded.source,
        "raw_sha256": raw_sha,
        "lines": list(parsed.lines),
        "indices": list(parsed.indices),
        "raw_event_count": parsed.raw_event_count,
        "read_findings": [f.model_dump(mode="json") for f in parsed.findings],
        "archived_at": now_utc(),
    }


def _analyse(
    game_id: str,
    text: str,
    header: Any,
    events: Sequence[Any],
    meta: dict[str, Any],
    builder: FrameBuilder,
    report: FileReport,
) -> None:
    columns, notes = game_columns(game_id, text, header, events, meta)
    report.findings = columns["findings"][0]
    report.notes.extend(notes)
    builder.add_columns(game_id, columns)


def process_batch(
    items: Sequence[Item],
    *,
    archive: str | Path | None = None,
    skip_ids: frozenset[str] = frozenset(),
    run_started: float | None = None,
) -> BatchResult:
    """Read, replay and turn a batch of inputs into frames (one per warehouse table).

    ``skip_ids``: games already in the warehouse; they are archived (a no-op when present) but
    not replayed, and reported "skipped". With ``archive`` (a root folder), raw bytes,
    canonical logs and quarantined inputs are written there before this returns; without it
    nothing is written and :attr:`BatchResult.pending` lists what to archive. Items with
    ``game_id`` re-derive an archived game (rebuild; needs ``archive``). Never raises for a bad
    input: every item ends as reports.

    Order: every input is read and canonicalised and its files staged in the archive; the
    archive is then synced once for the whole batch (:meth:`Archive.sync`: content durable,
    final names linked, names durable); only then are the games replayed into rows, with the
    meta that is actually archived (another process may have archived a game first).
    """
    started = time.perf_counter()
    cpu_started = time.process_time()
    arch = Archive(archive, staged=True) if archive is not None else None
    builder = FrameBuilder()
    reports: list[FileReport] = []
    pending: list[tuple[str, str, dict[str, Any], bytes, str]] = []
    report_of: dict[str, FileReport] = {}
    in_batch: set[str] = set()
    # Games to analyse once the archive is synced: (report, text, header, events, meta,
    # whether the archived meta must be read back).
    todo: list[tuple[FileReport, str, Any, Sequence[Any], dict[str, Any], bool]] = []
    for item in items:
        if item.game_id is not None:
            if arch is None:
                raise ValueError("re-deriving an archived game needs the archive")
            report = FileReport(f"archive:{item.game_id}", "loaded", item.game_id)
            try:
                text = arch.read_game_text(item.game_id)
                meta = arch.read_meta(item.game_id)
                parsed = parse_log(json.loads(text))
                if parsed.header is None or parsed.findings:
                    raise ArchiveError(
                        f"archived game {item.game_id} no longer reads cleanly: "
                        + "; ".join(f.message for f in parsed.findings[:3])
                    )
                todo.append((report, text, parsed.header, parsed.events, meta, False))
            except Exception as err:  # noqa: BLE001 - one bad game must not stop the rebuild
                report.status, report.reason = "failed", _describe(err)
            reports.append(report)
            continue
        assert item.path is not None
        if arch is not None and skip_ids and _known_raw(arch, Path(item.path), skip_ids, reports):
            continue
        try:
            loaded_logs = read_input(Path(item.path))
        except Exception as err:  # noqa: BLE001 - a reader bug must not stop the batch
            reason = f"reader error: {_describe(err)}"
            reports.append(FileReport(formats_source_name(item.path), "failed", reason=reason))
            if arch is not None:  # a bug of ours: the input is still kept, with the reason
                _keep_failed(arch, Path(item.path), None, "", item.path, reason)
            continue
        if not loaded_logs:
            reports.append(FileReport(formats_source_name(item.path), "unreadable",
                                      reason="no game log found in it"))
            continue
        for loaded in loaded_logs:
            source = loaded.source
            try:
                ext = _raw_ext(source, loaded.format)
                raw = loaded.raw or b""
                parsed = loaded.parsed
                if loaded.unreadable or parsed.header is None or get_ruleset(parsed.header.game) is None:
                    reason = _reason_text(loaded)
                    if arch is not None and (raw or _empty_file(source)):
                        why = _finding_reasons(parsed.findings)
                        if loaded.unreadable and not why:
                            why = [{"message": str(loaded.unreadable), "line": None}]
                        if parsed.header is not None and not why:
                            why = [{"message": f"no ruleset is registered for game "
                                               f"{parsed.header.game!r}", "line": None}]
                        arch.quarantine(raw, ext, file=source, reasons=why)
                    elif arch is not None and _large_file(item.path, source):
                        # too large to read (ingest.formats.MAX_BYTES): kept, copied in chunks
                        arch.quarantine_file(Path(item.path), ext, file=source,
                                             reasons=_finding_reasons(parsed.findings))
                    reports.append(FileReport(source, "unreadable", reason=reason))
                    continue
                rs = parsed.ruleset or get_ruleset(parsed.header.game)
                assert rs is not None  # checked above
                text = canonical_text(
                    rs.log_model.model_construct(header=parsed.header, events=parsed.events),
                    INGEST_LINES)
                text_bytes = text.encode("utf-8")
                text_sha = sha256_hex(text_bytes)
                game_id = text_sha[:GAME_ID_LENGTH]  # = game_id_of_text(text)
                same_bytes = raw == text_bytes
                raw_sha = text_sha if (same_bytes or not raw) else sha256_hex(raw)
                meta = _meta_for(loaded, raw_sha)
                recovered = False
                read_back = False
                if arch is not None:
                    raw_path = arch.put_raw(raw, ext, sha=raw_sha, group=game_id).path if raw else None
                    existing = arch.game_path(game_id)
                    if existing.exists():
                        # Archived before (this run's other batches, or an earlier run): its
                        # archived meta is the record.
                        read_back = True
                        if run_started is None or existing.stat().st_mtime < run_started:
                            recovered = True
                    arch.put_game_text(text, meta, same_as=raw_path if same_bytes else None,
                                       data=text_bytes, sha=text_sha)
                    if raw and not same_bytes:
                        # (bytes that are the game's canonical text need no hint: the game
                        # file is a link to them, Archive.games_of_raw)
                        arch.record_games_of_raw(raw_sha, [game_id])
                    # the archive holds the bytes now (staged files); memory keeps only what
                    # the rows need: the text and the validated events
                    raw = text_bytes = loaded.raw = b""
                else:
                    pending.append((game_id, text, meta, raw, ext))
                del text_bytes
                bad_lines = [
                    f.message for f in parsed.findings
                    if f.code in ("log/parse-error", "log/invalid-event", "log/unknown-event")
                ]
                if game_id in skip_ids or game_id in in_batch:
                    skipped = FileReport(source, "skipped", game_id, "already loaded")
                    # this input's own unreadable lines (its bytes are in archive/raw) are said
                    # too: once its bad events are skipped it may equal another input's game
                    skipped.unreadable_lines = bad_lines
                    reports.append(skipped)
                    continue
                in_batch.add(game_id)
                report = FileReport(source, "recovered" if recovered else "loaded", game_id)
                report.unreadable_lines = bad_lines
                todo.append((report, text, parsed.header, parsed.events, meta, read_back))
                reports.append(report)
                loaded.parsed = ParsedLog()  # the events live on in ``todo`` only
            except Exception as err:  # noqa: BLE001 - one bad game must not stop the batch
                reports.append(FileReport(source, "failed", reason=_describe(err)))
                if arch is not None:
                    _keep_failed(arch, None, loaded.raw, loaded.format, source, _describe(err))
    # Nothing read stays alive but ``todo``: each game's text and events are dropped as soon as
    # its rows are built, before the frames are (one large log: never all at once).
    loaded_logs = []
    loaded = parsed = text = None  # type: ignore[assignment]
    if arch is not None:
        # Every new name is durable before the caller loads these games.
        try:
            synced = arch.sync()
        except Exception as err:  # noqa: BLE001 - the archive is unusable: nothing may load
            synced = SyncResult(errors={r.game_id: f"the archive could not be synced: {err}"
                                        for r, *_ in todo if r.game_id})
    else:
        synced = SyncResult()
    todo.reverse()
    while todo:
        report, text, header, events, meta, read_back = todo.pop()
        gid = report.game_id
        assert gid is not None
        try:
            if gid in synced.errors:
                raise ArchiveError(synced.errors[gid])
            if arch is not None and (read_back or gid in synced.existing):
                # The archived meta is the record (another worker may have won the race).
                meta = arch.read_meta(gid) or meta
            _analyse(gid, text, header, events, meta, builder, report)
            report_of[gid] = report
        except Exception as err:  # noqa: BLE001 - one bad game must not stop the batch
            report.status, report.reason = "failed", _describe(err)
        del text, header, events, meta
    frames, bad = builder.build()
    for gid, reason in bad.items():
        rep = report_of.get(gid)
        if rep is not None:
            rep.status, rep.reason = "failed", f"game {gid}: {reason}"
    return BatchResult(
        frames, reports, pending, time.perf_counter() - started, time.process_time() - cpu_started,
        _max_rss_kb(),
    )


def _max_rss_kb() -> int:
    """Peak resident memory (KB) of this process. On Linux from ``VmHWM``: ``ru_maxrss`` survives
    ``exec``, so a spawned worker would report the parent's size at the time it was started."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss // 1024 if sys.platform == "darwin" else rss


def _large_file(path: str, source: str) -> bool:
    """True when ``source`` is the file ``path`` itself and larger than the readers take."""
    from ingest.formats import MAX_BYTES

    try:
        return source == formats_source_name(Path(path)) and os.path.getsize(path) > MAX_BYTES
    except (OSError, ValueError):
        return False


def _empty_file(source: str) -> bool:
    """True for an empty regular file: it is quarantined too (its reason says it was empty).
    A FIFO or a device also has size 0, but holds no bytes to keep: it is reported only."""
    try:
        st = os.stat(source)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size == 0


def _keep_failed(arch: Archive, path: Path | None, raw: bytes | None, fmt: str, source: str,
                 reason: str) -> None:
    """Quarantine the bytes of an input that failed through a bug of ours (the reader or the
    canonical text raised), so that every input stays in the archive with a reason."""
    try:
        if raw is None and path is not None and path.is_file():
            raw = read_file(path)  # bounded; a larger file raises and the report stands
        if raw:
            arch.quarantine(raw, _raw_ext(source, fmt), file=source,
                            reasons=[{"message": f"{source}: {reason}", "line": None}])
    except Exception:  # noqa: BLE001, S110 - the report already says "failed" with the reason
        pass


def _known_raw(arch: Archive, path: Path, skip_ids: frozenset[str], reports: list[FileReport]) -> bool:
    """True (and "skipped" reports added) when these exact bytes were ingested before and all
    their games are loaded: then the file need not be read or replayed again."""
    try:
        sha = sha256_hex(read_file(path))  # a regular file of at most MAX_BYTES, else not known
    except (NotReadable, OSError):
        return False
    ids = arch.games_of_raw(sha, path.suffix.lstrip(".").lower() or None)
    if not ids or not all(g in skip_ids and arch.has_game(g) for g in ids):
        return False
    reports.extend(FileReport(formats_source_name(path), "skipped", g, "already loaded") for g in ids)
    return True


def _describe(err: BaseException) -> str:
    tb = traceback.extract_tb(err.__traceback__)
    where = f" (at {Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
    return f"{type(err).__name__}: {err}{where}"


# --------------------------------------------------------------------------------------------
# Running batches


def _chunks(items: Sequence[Item], workers: int, sizes: Sequence[int] | None = None,
            ) -> list[list[Item]]:
    """Split ``items`` into batches, in order: enough batches to keep every worker busy and the
    progress bar moving (``workers`` 0: in this process, as few batches as the caps allow), each
    at most :data:`BATCH_MAX` items and :data:`BATCH_BYTES` bytes of input (``sizes``, one per
    item; an item larger than that is a batch of its own)."""
    n = len(items)
    if n == 0:
        return []
    per = BATCH_MAX if workers < 1 else max(1, min(BATCH_MAX, -(-n // (workers * 8))))
    if sizes is None:
        sizes = [0] * n
    out: list[list[Item]] = []
    batch: list[Item] = []
    held = 0
    for item, size in zip(items, sizes, strict=True):
        if batch and (len(batch) >= per or held + size > BATCH_BYTES):
            out.append(batch)
            batch, held = [], 0
        batch.append(item)
        held += size
    if batch:
        out.append(batch)
    return out


def _input_sizes(items: Sequence[Item], archive: Path) -> list[int]:
    """Bytes each item will read: the file (a session folder: its files), or the archived game."""
    arch = Archive(archive)
    sizes = []
    for item in items:
        try:
            if item.game_id is not None:
                sizes.append(arch.game_path(item.game_id).stat().st_size)
                continue
            assert item.path is not None
            p = Path(item.path)
            if p.is_dir():
                sizes.append(sum(f.stat().st_size for f in p.rglob("*") if f.is_file()))
            else:
                sizes.append(p.stat().st_size)
        except (OSError, ArchiveError, ValueError):
            sizes.append(0)
    return sizes


def run_batches(
    items: Sequence[Item],
    *,
    archive: Path,
    skip_ids: frozenset[str],
    run_started: float,
    progress: bool,
    label: str,
    tick: Callable[[bool], None] | None = None,
    spool: Path | None = None,
    pool: WorkerPool | None = None,
) -> Iterator[BatchResult]:
    """Yield each batch's result as it completes (pool for many items, inline for few).

    ``spool``: a folder where the workers of a pool write each batch's frames as Parquet files
    (:mod:`ingest.spool`; the result's ``spooled``) instead of sending them back; batches run
    in this process keep their frames in memory.

    ``tick(computing)``, when given, is called with True before each batch this process runs
    itself and with False at least every :data:`TICK_SECONDS` while it waits for the workers
    (the loader releases the database there, ``ingest.loading._Writer``).

    ``pool``: workers started beforehand (:mod:`ingest.pool`), used when the items go to a
    pool (their known games are set here); the caller closes it. Without it a pool of
    :func:`ingest.pool.workers` processes is started here when needed."""
    if tick is None:
        def tick(computing: bool) -> None:
            pass
    workers = pool.size if pool is not None else _workers()
    sizes = _input_sizes(items, archive)
    if len(items) < INLINE_BELOW or workers == 1:
        batches = _chunks(items, 0, sizes)
        with _progress(progress, label, len(items)) as advance:
            for batch in batches:
                tick(True)
                with gc_tuning.bulk_play():
                    res = process_batch(batch, archive=archive, skip_ids=skip_ids,
                                        run_started=run_started)
                advance(len(batch))
                yield res
        return
    batches = _chunks(items, workers, sizes)
    with contextlib.ExitStack() as stack:
        if pool is not None:
            pool.set_known(skip_ids)
            executor = pool.executor
        else:
            executor = stack.enter_context(ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker, initargs=(skip_ids,)))
        advance = stack.enter_context(_progress(progress, label, len(items)))
        futures: dict[Future[BatchResult], int] = {}
        queue = list(batches)
        # Keep a bounded number of batches in flight so finished frames do not pile up. A
        # spooled batch's result is its reports (its frames are files), so more may wait: the
        # caller loads between two results, and while a load runs nothing is submitted; two
        # batches a worker left the workers idle during a 1.5 s load (docs/storage.md
        # "Batches in flight").
        in_flight = workers * (IN_FLIGHT_SPOOLED if spool is not None else IN_FLIGHT)
        while queue or futures:
            while queue and len(futures) < in_flight:
                batch = queue.pop(0)
                fut = executor.submit(_worker_batch, batch, archive, run_started, spool)
                futures[fut] = len(batch)
            done, _ = wait(list(futures), timeout=TICK_SECONDS, return_when=FIRST_COMPLETED)
            tick(False)
            for fut in done:
                size = futures.pop(fut)
                advance(size)
                try:
                    result = fut.result()
                except BrokenProcessPool:
                    raise StorageError(
                        "a worker process died (killed, or out of memory?); the games loaded so "
                        "far are kept. Run the same command again to continue (set "
                        "PLAYTEST_WORKERS=1 to run in one process)."
                    ) from None
                result.left = len(queue) + len(futures)
                yield result


# The games already loaded, given to each worker once when it starts (not pickled again with
# every batch: with small batches and a large warehouse that would cost more than the batch),
# or, for a pool started before they were known (ingest.pool), the file they are written to
# before the first batch, read at the worker's first batch.
_WORKER_SKIP_IDS: frozenset[str] = frozenset()
_WORKER_KNOWN_FILE: str | None = None
#: the event lines a worker's parsed-line cache and line memo keep (the readers' default:
#: ``ingest.formats.jsonlog.LINE_CACHE_LINES``)
WORKER_CACHED_LINES = 20_000


def _init_worker(skip_ids: frozenset[str], known_file: str | None = None) -> None:
    global _WORKER_SKIP_IDS, _WORKER_KNOWN_FILE
    _WORKER_SKIP_IDS = skip_ids
    _WORKER_KNOWN_FILE = known_file
    # The loading process holds the database while it loads, and the app waits for it
    # meanwhile (ingest.loading._Writer): its loads go first when the cores are busy, the
    # workers take the rest (the same work in all; docs/storage.md "Spooled loads").
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    # A worker only runs batches: what it has imported (rulesets, content packs, schemas) is
    # never garbage, and a replay makes many short-lived objects and few cycles. Freeze the
    # imports and collect young objects less often (ingest.gc_tuning; ~8% of a batch's CPU).
    gc_tuning.tune_worker()
    # Frames are built from plain lists: pyarrow need not import pandas to ask whether they are
    # its arrays (ingest.frames.without_pandas: ~0.5 CPU-s and 42 MB a worker).
    without_pandas()
    # A worker reads thousands of logs: it keeps more of their shared event lines, validated
    # and written, than the default that the app and the other readers keep (bounded whatever
    # the corpus; docs/storage.md "Shared lines in the workers").
    LINE_CACHE.capacity = INGEST_LINES.capacity = WORKER_CACHED_LINES


def _known_ids() -> frozenset[str]:
    """The games this worker skips: read from the pool's file once (``_WORKER_KNOWN_FILE``)."""
    global _WORKER_SKIP_IDS, _WORKER_KNOWN_FILE
    if _WORKER_KNOWN_FILE is not None:
        # written (atomically) by WorkerPool.set_known before any batch was submitted
        text = Path(_WORKER_KNOWN_FILE).read_text(encoding="ascii")
        _WORKER_SKIP_IDS = frozenset(text.split())
        _WORKER_KNOWN_FILE = None
    return _WORKER_SKIP_IDS


def _worker_batch(items: Sequence[Item], archive: Path, run_started: float,
                  spool: Path | None = None) -> BatchResult:
    res = process_batch(items, archive=archive, skip_ids=_known_ids(), run_started=run_started)
    if spool is not None and res.frames["games"].height:
        # written after the archive is synced (process_batch), read by the loading process
        cpu = time.process_time()
        try:
            res.spooled = spool_write(res.frames, spool)
        except OSError:  # a full or unwritable disk: the frames travel back instead
            pass
        else:
            res.frames = {}
        res.cpu_seconds += time.process_time() - cpu
    return res


@contextlib.contextmanager
def _progress(enabled: bool, label: str, total: int) -> Iterator[Any]:
    if not enabled or total == 0:
        yield lambda n: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        transient=False, console=_stderr_console(),
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(file=sys.stderr)
