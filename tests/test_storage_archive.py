"""The archive: content addressing, write-once semantics, quarantine."""

from __future__ import annotations

import json
import os

import pytest

from ingest.archive import (
    Archive,
    ArchiveError,
    game_id_of,
    game_id_of_text,
    sha256_hex,
    write_once,
)
from ingest.db import DatabaseBusy, StorageError, archive_root, default_db_path, resolve_db
from ingest.mandate2038.synthetic import synthetic_log
from schemas.canonical import dumps_log


def test_game_id_is_sha256_prefix_of_canonical_text():
    log = synthetic_log(3, events_target=60)
    text = dumps_log(log)
    assert game_id_of(log) == sha256_hex(text.encode("utf-8"))[:16]
    assert game_id_of_text(text) == game_id_of(log)
    assert game_id_of(synthetic_log(4, events_target=60)) != game_id_of(log)


def test_put_game_is_write_once_and_second_put_is_a_no_op(tmp_path):
    arch = Archive(tmp_path / "archive")
    log = synthetic_log(1, events_target=60)
    first = arch.put_game(log, {"source_name": "a.json"})
    assert first.created and first.path.read_text(encoding="utf-8") == dumps_log(log)
    assert first.path == tmp_path / "archive" / "games" / first.key[:2] / f"{first.key}.json"
    mtime = first.path.stat().st_mtime_ns
    second = arch.put_game(log, {"source_name": "b.json"})
    assert not second.created and "already archived" in second.message
    assert first.path.stat().st_mtime_ns == mtime
    # The first meta stays: nothing is overwritten.
    assert arch.read_meta(first.key)["source_name"] == "a.json"
    assert arch.game_ids() == [first.key]
    assert not [p for p in first.path.parent.iterdir() if p.name.startswith(".tmp-")]


def test_write_once_refuses_different_content(tmp_path):
    path = tmp_path / "x.json"
    assert write_once(path, b"one")
    assert not write_once(path, b"one")
    with pytest.raises(ArchiveError, match="never overwrites"):
        write_once(path, b"two")
    assert path.read_bytes() == b"one"


def test_raw_and_quarantine_keep_exact_bytes_with_reason(tmp_path):
    arch = Archive(tmp_path)
    data = b"\xff\xfe not a log\n"
    put = arch.put_raw(data, ".txt")
    assert put.path.read_bytes() == data and put.path.name == f"{sha256_hex(data)}.txt"
    q = arch.quarantine(data, "txt", file="bad.txt",
                        reasons=[{"message": "bad.txt:1:1: not UTF-8", "line": 1}])
    assert q.created and q.path.read_bytes() == data
    reason = json.loads((tmp_path / "quarantine" / f"{q.key}.reason.json").read_text())
    assert reason["file"] == "bad.txt" and reason["reasons"][0]["line"] == 1 and reason["time"]
    again = arch.quarantine(data, "txt", file="other.txt", reasons=[])
    assert not again.created
    assert arch.quarantined()[0]["file"] == "bad.txt"


def test_bad_ids_and_extensions_are_clear_errors(tmp_path):
    arch = Archive(tmp_path)
    with pytest.raises(ArchiveError, match="not a game id"):
        arch.game_path("../../etc/passwd")
    with pytest.raises(ArchiveError, match="extension"):
        arch.put_raw(b"x", "a/b")
    with pytest.raises(ArchiveError, match="not in the archive"):
        arch.read_game_text("0" * 16)


def test_db_locations(tmp_path, monkeypatch):
    monkeypatch.delenv("PLAYTEST_DB", raising=False)
    assert default_db_path().parts[-3:] == ("data", "warehouse", "playtest.duckdb")
    monkeypatch.setenv("PLAYTEST_DB", str(tmp_path / "w" / "x.duckdb"))
    assert default_db_path() == (tmp_path / "w" / "x.duckdb").resolve()
    assert resolve_db(None) == default_db_path()
    assert resolve_db(tmp_path) == (tmp_path / "playtest.duckdb").resolve()
    assert archive_root(tmp_path / "w" / "x.duckdb") == (tmp_path / "w" / "archive").resolve()
    with pytest.raises(StorageError):
        resolve_db("  ")
    assert issubclass(DatabaseBusy, StorageError)
    assert os.fspath(resolve_db("rel.duckdb")).endswith("rel.duckdb")


def test_archive_files_are_read_only_and_identical_raw_is_linked(tmp_path):
    import stat

    arch = Archive(tmp_path, defer_dir_sync=True)
    log = synthetic_log(5, events_target=60)
    text = dumps_log(log)
    raw = arch.put_raw(text.encode("utf-8"), "json")
    put = arch.put_game_text(text, {"source_name": "x"}, same_as=raw.path)
    arch.sync()
    assert put.created and os.path.samefile(put.path, raw.path)  # one copy of the bytes
    assert stat.S_IMODE(put.path.stat().st_mode) == 0o444
    assert put.path.read_text(encoding="utf-8") == text
    # Same size, different bytes: written, never linked.
    other = text.replace('"seat": 1', '"seat": 2', 1)
    assert len(other) == len(text) and other != text
    wrong = arch.put_game_text(other, same_as=raw.path)
    assert not os.path.samefile(wrong.path, raw.path)
    assert wrong.path.read_text(encoding="utf-8") == other
