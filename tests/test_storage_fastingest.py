"""The cheaper paths of issue 30's ingest work give what the plain ones gave: rows transposed to
columns in C, temporary archive files without ``tempfile``, worker GC tuning, loader caps."""

from __future__ import annotations

import gc
import os
import stat
from pathlib import Path

from ingest import gc_tuning
from ingest.archive import Archive, _write_temp
from ingest.loading import _Loader
from ingest.rows import _COLUMNS, _columns_of, _from_rows


def _plain(rows: list[dict[str, object]], cols: tuple[str, ...]) -> dict[str, list[object]]:
    return {c: [r.get(c) for r in rows] for c in cols}


def test_columns_of_equals_the_plain_transpose() -> None:
    cols = ("a", "b", "c")
    full = [{"a": 1, "b": "x", "c": None}, {"a": 2, "b": "y", "c": [1]}]
    assert _columns_of(full, cols) == _plain(full, cols)
    # a row lacking a column (and one with a column the table lacks): None there, as before
    ragged = [{"a": 1, "b": "x"}, {"a": 2, "c": 3, "zzz": 9}]
    assert _columns_of(ragged, cols) == _plain(ragged, cols)
    assert _columns_of([], cols) == {"a": [], "b": [], "c": []}
    assert _columns_of([{"a": 5}], ("a",)) == {"a": [5]}
    assert all(isinstance(v, list) for v in _columns_of(full, cols).values())


def test_from_rows_every_table() -> None:
    for table, columns in _COLUMNS.items():
        cols = columns[1:]
        rows = [{c: f"{c}{i}" for c in cols} for i in range(3)]
        assert _from_rows(table, rows) == (3, _plain(rows, cols))
        rows[1].pop(cols[0])
        assert _from_rows(table, rows) == (3, _plain(rows, cols))


def test_write_temp_makes_its_folder_and_a_read_only_file(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "sub"
    first = _write_temp(folder, b"one")
    second = _write_temp(folder, b"two", durable=False)
    assert first != second and first.parent == second.parent == folder
    assert first.name.startswith(f".tmp-{os.getpid()}-") and first.name.endswith(".part")
    assert first.read_bytes() == b"one" and second.read_bytes() == b"two"
    assert stat.S_IMODE(first.stat().st_mode) == 0o444


def test_write_temp_skips_a_name_left_by_another_run(tmp_path: Path) -> None:
    import ingest.archive as archive

    nxt = next(archive._TMP_SEQ)
    for k in range(nxt + 1, nxt + 4):  # names this process would take next
        (tmp_path / f".tmp-{os.getpid()}-{k}.part").write_bytes(b"stale")
    got = _write_temp(tmp_path, b"fresh")
    assert got.read_bytes() == b"fresh"
    assert sorted(p.read_bytes() for p in tmp_path.iterdir()).count(b"stale") == 3


def test_staged_archive_still_leaves_no_temporary_file(tmp_path: Path) -> None:
    arch = Archive(tmp_path, staged=True)
    text = '{"x": 1}\n'
    raw = arch.put_raw(text.encode(), "json", group="0" * 16)
    arch.put_game_text(text, {"m": 1}, same_as=raw.path, data=text.encode())
    arch.sync()
    left = [p for p in tmp_path.rglob("*") if p.name.startswith(".tmp-")]
    assert left == []


def test_tune_worker_freezes_and_raises_the_threshold() -> None:
    before = gc.get_threshold()
    try:
        gc_tuning.tune_worker()
        assert gc.get_threshold() == gc_tuning.BULK_THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_loader_caps_bound_the_ingest_process() -> None:
    # the game cap is what keeps the ingest process under 300 MB (docs/storage.md)
    assert _Loader.FLUSH_GAMES <= 300
    assert _Loader.FLUSH_BYTES <= 32 * 1024 * 1024
