"""Memory is bounded by the batch, not by the corpus (issue 10, docs/storage.md "Measured memory").

Measured with ``tracemalloc`` (Python objects: decoded JSON, validated events, rows), so the
figures do not depend on the machine, its load or its allocator; the bench measures resident
memory (``python -m cli.bench.warehouse``). Comparisons are between two runs of the same
code in the same process, never against an absolute figure.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from test_storage_support import as_child

from ingest import batching
from ingest.batching import Item, _chunks
from ingest.loading import ingest_paths
from ingest.mandate2038.synthetic import synthetic_log
from ingest.reading import read_input
from schemas.canonical import dumps_log
from schemas.mandate2038 import MandateLog


@pytest.fixture(autouse=True)
def _ruleset(monkeypatch):
    as_child(monkeypatch, PLAYTEST_WORKERS="1")  # in this process, where tracemalloc sees it


def _corpus(folder: Path, first: int, n: int, events: int = 160) -> Path:
    folder.mkdir(parents=True)
    for i in range(first, first + n):
        text = dumps_log(synthetic_log(i, events_target=events))
        (folder / f"game_{i:05d}.json").write_text(text, encoding="utf-8")
    return folder


def _ingest_peak_of(paths: list[Path], db: Path) -> int:
    """Peak bytes of Python objects allocated while ingesting ``paths`` into a new ``db``."""
    from ingest.archive import INGEST_LINES
    from ingest.formats.jsonlog import LINE_CACHE

    LINE_CACHE.clear()
    INGEST_LINES.clear()
    tracemalloc.start()
    try:
        summary = ingest_paths(paths, db, progress=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    c = summary.counts()
    assert c["loaded"] >= 1 and c["failed"] == 0 and c["unreadable"] == 0, c
    return peak


def _ingest_peak(folder: Path, db: Path) -> int:
    return _ingest_peak_of([folder], db)


def test_ingest_memory_follows_the_batch_not_the_corpus(tmp_path, monkeypatch):
    # ~15 KB per game: batches of 4 games, so 12 and 36 games are 3 and 9 batches
    monkeypatch.setattr(batching, "BATCH_BYTES", 64 * 1024, raising=False)
    # and a load per batch: the loader buffers up to 200 games' frames per load (a bound of its
    # own, ingest.loading._Loader), so both corpora would otherwise be one load of all their
    # games (this test passed only after another test file had set the knob in the process)
    monkeypatch.setenv("PLAYTEST_FLUSH_GAMES", "4")
    # The reader's parsed-line cache and the canonical lines' memo keep up to 8,192 lines each
    # (~15 MB; bounded by their capacity, not by the corpus): the larger corpus fills more of
    # them. Here they hold a few lines, emptied before each ingest, so that what is measured is
    # what follows the batch.
    from ingest.archive import INGEST_LINES
    from ingest.formats.jsonlog import LINE_CACHE

    for cache in (LINE_CACHE, INGEST_LINES):
        monkeypatch.setattr(cache, "capacity", 64)
        cache.clear()
    warm = _corpus(tmp_path / "warm", 0, 4)
    small = _corpus(tmp_path / "small", 100, 12)
    large = _corpus(tmp_path / "large", 200, 36)
    _ingest_peak(warm, tmp_path / "w0" / "p.duckdb")  # imports, caches, first connection
    peak_small = _ingest_peak(small, tmp_path / "w1" / "p.duckdb")
    peak_large = _ingest_peak(large, tmp_path / "w2" / "p.duckdb")
    assert len(list((tmp_path / "w2" / "archive" / "games").rglob("*.meta.json"))) == 36
    # three times the games, about the same peak (the reports of the extra games remain)
    assert peak_large < 1.25 * peak_small, (peak_small, peak_large)


def test_batches_are_capped_in_games_and_in_input_bytes(monkeypatch):
    monkeypatch.setattr(batching, "BATCH_MAX", 5)
    monkeypatch.setattr(batching, "BATCH_BYTES", 1000)
    items = [Item(path=f"f{i}") for i in range(12)]
    # in this process: as few batches as the caps allow
    assert [len(b) for b in _chunks(items, 0, [10] * 12)] == [5, 5, 2]
    assert [len(b) for b in _chunks(items, 0, [400] * 12)] == [2] * 6
    # an input larger than the cap is a batch of its own; the order is kept
    sizes = [100, 5000, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100]
    batches = _chunks(items, 0, sizes)
    assert [len(b) for b in batches] == [1, 1, 5, 5]
    assert [it for b in batches for it in b] == items
    # with workers: smaller batches so that every worker has several
    assert max(len(b) for b in _chunks(items, 2, [10] * 12)) == 1


def _large_log(observations: int) -> str:
    """A synthetic game followed by ``observations`` observation events (a long session)."""
    log = synthetic_log(7, events_target=160)
    data = log.model_dump(mode="json", exclude_none=True)
    data["events"] += [
        {"type": "observation", "category": "moment", "minutes": 0.5,
         "text": f"the table laughed at headline {i}; nobody checked the rulebook"}
        for i in range(observations)
    ]
    return dumps_log(MandateLog.model_validate(data))


def test_a_large_log_costs_a_bounded_multiple_of_its_validated_events(tmp_path):
    # The validated events must all be alive (the engine replays the whole game); the file's
    # bytes, its decoded JSON, the canonical text and the rows may not pile up beside them:
    # decoded in chunks, bytes dropped once archived, text and events dropped once the rows
    # are built, each table's values dropped once its frame is made.
    big = tmp_path / "big.json"
    big.write_text(_large_log(15_000), encoding="utf-8")
    _ingest_peak(_corpus(tmp_path / "warm", 0, 2), tmp_path / "w0" / "p.duckdb")
    tracemalloc.start()
    try:
        loaded = read_input(big)
        events_bytes, _ = tracemalloc.get_traced_memory()  # the events, and the file's bytes
        del loaded
    finally:
        tracemalloc.stop()
    peak = _ingest_peak_of([big], tmp_path / "w1" / "p.duckdb")
    assert peak < 1.8 * events_bytes, (events_bytes, peak)
