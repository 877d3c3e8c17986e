"""The worker pool of an ingest, startable before the toolkit's own imports.

A pool worker is a new interpreter (``spawn``) that imports the readers, the rules and the
warehouse's frames before its first batch: ~0.8 CPU-s. Started by
:func:`ingest.batching.run_batches`, the workers began only after the loading process had
imported (~0.75 s), walked the inputs (~0.25 s for 10,000 files) and opened the database
(~0.26 s) on its own. ``playtest ingest`` therefore starts the pool first (:func:`prestart`),
while it has imported nothing heavy (this module imports only the standard library), and hands
it to :func:`ingest.loading.ingest_paths`; the three processes import side by side.

The games already in the warehouse (which a worker must not replay) are known only once the
database is open, after the workers have started: the pool's initializer is given the name of
a file, and :meth:`WorkerPool.set_known` writes it (atomically) before the first batch is
submitted; a worker reads it once, at its first batch (``ingest.batching._worker_batch``).
Measured in docs/storage.md "The start and the end of an ingest".
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import tempfile
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import TracebackType

#: fewer inputs than this are processed in the loading process itself (no pool start-up)
INLINE_BELOW = 64


def workers() -> int:
    """Worker processes of a pool: ``$PLAYTEST_WORKERS`` when set to a positive number, else
    one per CPU."""
    raw = os.environ.get("PLAYTEST_WORKERS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    return max(1, os.cpu_count() or 1)


class WorkerPool:
    """A ``spawn`` process pool whose workers start at once (``workers`` of them, each with
    :func:`ingest.batching._init_worker`), the games already loaded passed through a file
    (:meth:`set_known`). Close it (or use it as a context manager): the file goes with it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._dir = Path(tempfile.mkdtemp(prefix="playtest-pool-"))
        self.known_file = self._dir / "known-ids"
        self._known_set = False
        ctx = multiprocessing.get_context("spawn")
        self.executor = ProcessPoolExecutor(max_workers=size, mp_context=ctx,
                                            initializer=_init, initargs=(str(self.known_file),))
        try:
            # a spawn pool starts a process per submit while none is idle: all of them now
            for _ in range(size):
                self.executor.submit(_ready)
        except BaseException:
            self.close()
            raise

    def set_known(self, ids: Iterable[str]) -> None:
        """Write the game ids the workers must skip (once, before the first batch)."""
        if self._known_set:
            raise RuntimeError("the pool's known games are already set")
        tmp = self.known_file.with_suffix(".tmp")
        with tmp.open("w", encoding="ascii") as fh:
            fh.write("\n".join(ids))
        os.replace(tmp, self.known_file)  # a worker never reads a half-written file
        self._known_set = True

    def close(self) -> None:
        """Stop the workers (waiting for them) and remove the file; idempotent."""
        with contextlib.suppress(Exception):
            self.executor.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _init(known_file: str) -> None:
    from ingest import batching  # the worker's heavy imports, in the worker

    batching._init_worker(frozenset(), known_file=known_file)


def _ready() -> None:
    """A no-op task: submitting one starts a worker."""


def likely_pool(paths: Iterable[str | os.PathLike[str]]) -> bool:
    """Whether an ingest of ``paths`` will probably run in a pool: more than one worker and at
    least :data:`INLINE_BELOW` files under them (counted cheaply, stopping there; a wrong guess
    costs only the idle workers' start-up)."""
    if workers() < 2:
        return False
    seen = 0
    for p in paths:
        try:
            if not os.path.isdir(p):
                seen += 1
            else:
                for _root, dirs, files in os.walk(p):
                    dirs[:] = [d for d in dirs if not d.startswith(".")]
                    seen += sum(not f.startswith(".") for f in files)
                    if seen >= INLINE_BELOW:
                        break
        except OSError:
            continue
        if seen >= INLINE_BELOW:
            return True
    return False


def prestart(paths: Iterable[str | os.PathLike[str]]) -> WorkerPool | None:
    """A started pool when an ingest of ``paths`` will probably need one (:func:`likely_pool`),
    else None."""
    paths = list(paths)
    return WorkerPool(workers()) if likely_pool(paths) else None
