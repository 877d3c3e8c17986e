"""Ingest, rebuild and export: from input files to the archive and the warehouse.

Per input (a file, or a session folder holding ``receipt.json``)::

    read (ingest.formats) ─► unreadable? ─► quarantine the bytes with the reason
                          └► replay (engine) ─► archive raw bytes + canonical log ─► load rows

The work lives in one module per job; this module names the public entry points:

* :mod:`ingest.reading`: which inputs a path holds (:func:`walk_inputs`), reading one
  (:func:`read_input`, through :mod:`ingest.formats`).
* :mod:`ingest.rows`: every warehouse row of one game (:func:`game_columns`, :func:`game_rows`);
  the shared tables for any game, the rest from the game's ruleset.
* :mod:`ingest.frames`: the rows of a batch as one polars frame per table (:class:`FrameBuilder`).
* :mod:`ingest.batching`: the pure batch function :func:`process_batch` (items in, frames and
  per-item reports out; with ``archive`` it archives as it goes, without it touches no file and
  is the seam for running batches on other machines, DESIGN.md §8) and :func:`run_batches`
  (inline for a few inputs, a process pool for many).
* :mod:`ingest.loading`: :func:`ingest_paths`, :func:`ingest_log` (live entry), :func:`rebuild`
  (the warehouse again from the archive, swapped in) and :func:`export`.
* :mod:`ingest.reports`: :class:`FileReport` and :class:`IngestSummary`.

Idempotence: a game already in ``games`` is "skipped as duplicate"; a game already archived
but missing from the warehouse (a crash between the two) is loaded and reported "recovered".
The archive is always written before the warehouse, so the warehouse never holds a game the
archive lacks.

Identity of rebuild and incremental loads: every warehouse row of a game is computed by
:func:`game_rows` from the canonical log and its archived meta (source lines and indices of the
events, the reader's findings, the source name, the archive time), never from anything that
exists only during the first ingest.
"""

from __future__ import annotations

from ingest.batching import BATCH_MAX, BatchResult, Item, process_batch, run_batches
from ingest.frames import FrameBuilder
from ingest.loading import export, ingest_log, ingest_paths, rebuild
from ingest.pool import INLINE_BELOW
from ingest.reading import is_session_folder, read_input, suffixes, walk_inputs
from ingest.reports import FileReport, IngestSummary, Status
from ingest.rows import GameColumns, game_columns, game_rows

__all__ = [
    "BATCH_MAX", "INLINE_BELOW", "BatchResult", "FileReport", "FrameBuilder",
    "GameColumns", "IngestSummary", "Item", "Status", "export", "game_columns", "game_rows",
    "ingest_log", "ingest_paths", "process_batch", "read_input", "rebuild", "run_batches",
    "is_session_folder", "suffixes", "walk_inputs",
]
