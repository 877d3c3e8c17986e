"""The warehouse table ``capture``: checklist items of each game's observation protocol, scored
at ingest, and the Observation protocols page reading it instead of the archived logs."""

from __future__ import annotations

import shutil

import duckdb
import pytest
from test_storage_support import as_child

from dashboards import protocols
from ingest.db import connect
from ingest.mandate2038.synthetic import synthetic_log
from ingest.pipeline import ingest_log
from ingest.warehouse.migrations import MIGRATIONS, migrate
from schemas.packs import load_protocol
from schemas.protocol import capture_completeness


@pytest.fixture(autouse=True)
def _ruleset(monkeypatch):
    as_child(monkeypatch, PLAYTEST_DB_WAIT="5")


def _with_protocol(seed: int, protocol: str | None):
    log = synthetic_log(seed, events_target=60, session_type="facilitated_playtest")
    return log.model_copy(update={"header": log.header.model_copy(update={"protocol": protocol})})


def _rows(db, game_id):
    with connect(db, read_only=True) as con:
        return con.execute(
            "SELECT item_id, grp, captured, reason FROM capture WHERE game_id = ?", [game_id]
        ).fetchall()


def test_capture_rows_are_the_protocol_scoring_of_the_log(tmp_path):
    db = tmp_path / "w.duckdb"
    log = _with_protocol(1, None)  # no protocol named: the default, latest version
    summary = ingest_log(log, db)
    assert summary.counts()["loaded"] == 1
    gid = summary.reports[0].game_id
    protocol = load_protocol("mandate2038-observation")
    groups = {i.id: i.group for i in protocol.checklist}
    expected = sorted((r.item_id, groups[r.item_id], r.captured, r.reason)
                      for r in capture_completeness(protocol, log))
    got = sorted(_rows(db, gid))
    assert len(got) == len(protocol.checklist) > 0
    assert got == expected
    # Both outcomes occur (a synthetic log captures some items and misses others).
    assert {c for _, _, c, _ in got} == {True, False}


def test_named_protocol_version_is_used(tmp_path):
    db = tmp_path / "w.duckdb"
    protocol = load_protocol("mandate2038-observation")
    summary = ingest_log(_with_protocol(2, protocol.reference), db)
    gid = summary.reports[0].game_id
    assert {r[0] for r in _rows(db, gid)} == {i.id for i in protocol.checklist}


def test_unloadable_protocol_gives_no_rows_and_does_not_fail(tmp_path):
    db = tmp_path / "w.duckdb"
    summary = ingest_log(_with_protocol(3, "no-such-protocol@9"), db)
    assert summary.counts()["loaded"] == 1, summary.lines()
    report = summary.reports[0]
    assert _rows(db, report.game_id) == []
    assert any("no-such-protocol@9" in n for n in report.notes), report.notes


def test_migration_2_adds_the_table_to_a_version_1_database(tmp_path):
    path = tmp_path / "old.duckdb"
    with connect(path) as con:
        con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                    "name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
        con.execute(MIGRATIONS[0][2])
        con.execute("INSERT INTO schema_migrations VALUES (1, 'v1', TIMESTAMP '2026-01-01')")
        assert migrate(con) == [v for v, _, _ in MIGRATIONS[1:]]
        cols = con.execute("SELECT column_name, data_type FROM information_schema.columns "
                           "WHERE table_name = 'capture' ORDER BY ordinal_position").fetchall()
    assert cols == [("game_id", "VARCHAR"), ("item_id", "VARCHAR"), ("grp", "VARCHAR"),
                    ("captured", "BOOLEAN"), ("reason", "VARCHAR")]


def test_page_reads_the_table_without_the_archive(tmp_path, monkeypatch):
    db = tmp_path / "w.duckdb"
    data = _with_protocol(4, None).model_dump(mode="json")
    n = len(data["events"])
    data["events"][n - 1:n - 1] = [
        {"type": "observation", "category": "not_a_category", "text": "x"},
        {"type": "survey", "item": "not_an_item", "seat": 1, "value": 3},
    ]
    odd = type(_with_protocol(4, None)).model_validate(data)
    ids = [ingest_log(log, db).reports[0].game_id
           for log in (odd, _with_protocol(5, "no-such-protocol@9"))]
    with duckdb.connect(str(db), read_only=True) as con:
        games = con.sql("SELECT game_id, protocol FROM games ORDER BY game_id").pl()
    from_logs = protocols.completeness_from_logs(db, games)
    shutil.rmtree(tmp_path / "archive")  # the warehouse path must not need any log

    def no_log(*_a, **_k):
        raise AssertionError("a game log was read")

    with monkeypatch.context() as m:
        m.setattr(protocols.gamelog, "load", no_log)
        per_game, per_item, misfits = protocols.completeness(db, games)
    # Misfits (observation/survey events off the protocol) come from the events table alike.
    assert not from_logs[2].is_empty()
    assert misfits.sort(["game_id", "event", "reason"]).equals(
        from_logs[2].sort(["game_id", "event", "reason"]))
    assert per_item.sort(["game_id", "item"]).equals(from_logs[1].sort(["game_id", "item"]))
    scored = per_game.filter(per_game["game_id"] == ids[0]).row(0, named=True)
    expected = from_logs[0].filter(from_logs[0]["game_id"] == ids[0]).row(0, named=True)
    assert scored == expected and scored["completeness"] is not None
    unscored = per_game.filter(per_game["game_id"] == ids[1]).row(0, named=True)
    assert unscored["completeness"] is None and "no-such-protocol" in unscored["problem"]
    # Without the table the page falls back to scoring the logs (gamelog rebuilds a log whose
    # archive file is gone from the warehouse's events, so it is scored, not necessarily equal).
    with duckdb.connect(str(db)) as con:
        con.execute("DROP TABLE capture")
    calls = []
    real = protocols.gamelog.load
    monkeypatch.setattr(protocols.gamelog, "load", lambda *a: calls.append(a) or real(*a))
    fallback, fallback_items, _ = protocols.completeness(db, games)
    assert len(calls) == 1  # the game whose protocol loads
    assert fallback.filter(fallback["game_id"] == ids[0])["completeness"][0] is not None
    assert fallback_items.height == from_logs[1].height
