"""Garbage-collector settings for long runs of bot games (``playtest simulate``, study batches)
and for ingest batches (a replay is the same kind of work).

A simulated game allocates hundreds of thousands of short-lived objects (options, events, state
copies) and almost no reference cycles, while the process holds a large, long-lived heap (the
content pack, pydantic schemas, imported modules). CPython's default collector (a young
collection every 700 net allocations, full collections scanning that whole heap) spends about
6% of a game's instructions finding nothing. Inside :func:`bulk_play` the long-lived heap is
frozen (``gc.freeze``: never scanned again) and young collections run every 50,000
allocations; cycles are still collected, just less often. Measured with
``/work/coord``-style instruction counts in docs/simulator.md ("Speed").
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: (young, middle, old) collection thresholds while playing; CPython's defaults are (700, 10, 10)
BULK_THRESHOLDS = (50_000, 20, 10)


@contextmanager
def bulk_play() -> Iterator[None]:
    """Freeze what is alive now and collect less often; restore both on exit."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*BULK_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def tune_worker() -> None:
    """For a process that does nothing but run batches (an ingest pool worker): freeze what it
    has imported and keep :data:`BULK_THRESHOLDS` for good (nothing to restore)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*BULK_THRESHOLDS)
