"""The archive's batch mode (staged puts, one sync per batch) and process_batch around it."""

from __future__ import annotations

import os

import pytest
from test_storage_support import as_child, write_games

from ingest.archive import Archive, ArchiveError, game_id_of_text
from ingest.mandate2038.synthetic import synthetic_log
from ingest.pipeline import Item, process_batch
from schemas.canonical import dumps_log


@pytest.fixture(autouse=True)
def _ruleset(monkeypatch):
    as_child(monkeypatch)


def _tmp_files(root):
    return [p for p in root.rglob("*") if p.name.startswith(".tmp-")]


def test_staged_puts_appear_only_at_sync_and_leave_no_temporary_files(tmp_path):
    arch = Archive(tmp_path, staged=True)
    text = dumps_log(synthetic_log(1, events_target=40))
    raw = arch.put_raw(text.encode(), "json", group=game_id_of_text(text))
    put = arch.put_game_text(text, {"source_name": "a.json"}, same_as=raw.path)
    arch.record_games_of_raw(raw.key, [put.key])
    assert not raw.path.exists() and not put.path.exists() and not arch.has_game(put.key)
    result = arch.sync()
    assert not result.errors and not result.existing
    assert put.path.read_text(encoding="utf-8") == text
    assert os.path.samefile(put.path, raw.path)  # canonical input: one copy of the bytes
    assert arch.read_meta(put.key)["source_name"] == "a.json"
    assert arch.games_of_raw(raw.key) == [put.key]
    assert _tmp_files(tmp_path) == []


def test_sync_keeps_the_first_record_and_reports_the_game_as_existing(tmp_path):
    text = dumps_log(synthetic_log(2, events_target=40))
    first = Archive(tmp_path, staged=True)
    second = Archive(tmp_path, staged=True)
    for arch, name in ((first, "first.json"), (second, "second.json")):
        arch.put_game_text(text, {"source_name": name})
    assert not first.sync().existing
    result = second.sync()  # staged before the first committed, synced after
    gid = game_id_of_text(text)
    assert result.existing == {gid} and not result.errors
    assert Archive(tmp_path).read_meta(gid)["source_name"] == "first.json"
    assert _tmp_files(tmp_path) == []


def test_a_collision_fails_that_game_only(tmp_path):
    texts = [dumps_log(synthetic_log(i, events_target=40)) for i in (3, 4)]
    arch = Archive(tmp_path, staged=True)
    bad = arch.put_raw(texts[0].encode(), "json", group="g0")
    arch.put_raw(texts[1].encode(), "json", group="g1")
    bad.path.parent.mkdir(parents=True, exist_ok=True)
    bad.path.write_bytes(b"something else")  # the name is taken by other bytes
    result = arch.sync()
    assert set(result.errors) == {"g0"} and "never overwrites" in result.errors["g0"]
    assert bad.path.read_bytes() == b"something else"
    with pytest.raises(ArchiveError):
        Archive(tmp_path).put_raw(texts[0].encode(), "json")


def test_process_batch_uses_the_meta_already_archived(tmp_path):
    src = write_games(tmp_path / "in", 3, events=40)
    root = tmp_path / "archive"
    # Another process archived game 0 first, from a file of another name.
    text = src[0].read_text(encoding="utf-8")
    Archive(root).put_game_text(text, {"source_name": "elsewhere.json", "source_format": "json",
                                       "archived_at": "2026-01-02T03:04:05+00:00"})
    res = process_batch([Item(path=str(p)) for p in src], archive=root)
    assert [r.status for r in res.reports] == ["recovered", "loaded", "loaded"]
    games = res.frames["games"]
    names = dict(zip(games["game_id"].to_list(), games["source_name"].to_list(), strict=True))
    assert names[game_id_of_text(text)] == "elsewhere.json"
    assert sorted(n for g, n in names.items() if g != game_id_of_text(text)) == sorted(
        str(p) for p in src[1:])
    arch = Archive(root)
    assert len(arch.game_ids()) == 3 and _tmp_files(root) == []
    for p in src:
        assert arch.has_game(game_id_of_text(p.read_text(encoding="utf-8")))


def test_process_batch_reports_a_game_whose_files_cannot_be_archived(tmp_path, monkeypatch):
    src = write_games(tmp_path / "in", 2, events=40)
    root = tmp_path / "archive"
    bad_text = src[1].read_text(encoding="utf-8")
    from ingest.archive import sha256_hex

    taken = root / "raw" / f"{sha256_hex(bad_text.encode())}.json"
    taken.parent.mkdir(parents=True)
    res_before = Archive(root)
    assert not res_before.has_game(game_id_of_text(bad_text))
    # The raw name exists with other bytes only after staging, as if written meanwhile.
    real_sync = Archive.sync

    def sync_after_collision(self):
        taken.write_bytes(b"other bytes")
        return real_sync(self)

    monkeypatch.setattr(Archive, "sync", sync_after_collision)
    res = process_batch([Item(path=str(p)) for p in src], archive=root)
    status = {r.file: r.status for r in res.reports}
    assert status[str(src[0])] == "loaded" and status[str(src[1])] == "failed"
    assert "never overwrites" in next(r.reason for r in res.reports if r.status == "failed")
    assert res.frames["games"].height == 1
    assert not Archive(root).has_game(game_id_of_text(bad_text))
