"""Ingest, idempotence, quarantine, recovery, rebuild and export (the storage pipeline)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import polars as pl
import pytest
from test_storage_support import as_child, write_games

from ingest.archive import Archive
from ingest.db import DatabaseBusy, connect
from ingest.mandate2038.synthetic import synthetic_log
from ingest.pipeline import Item, export, ingest_log, ingest_paths, process_batch, rebuild
from ingest.warehouse.load import load_frames
from ingest.warehouse.migrations import MIGRATIONS, migrate
from ingest.warehouse.schema import TABLES


@pytest.fixture(autouse=True)
def _ruleset(monkeypatch):
    as_child(monkeypatch, PLAYTEST_DB_WAIT="5")


def snapshot(db: Path) -> dict[str, pl.DataFrame]:
    """Every game table, sorted on all columns, for exact comparison."""
    out = {}
    with connect(db, read_only=True) as con:
        for name in TABLES:
            frame = con.sql(f'SELECT * FROM "{name}"').pl()
            out[name] = frame.sort(frame.columns, nulls_last=True)
        out["schema_migrations"] = con.sql("SELECT version, name FROM schema_migrations ORDER BY 1").pl()
    return out


def per_game_counts(db: Path) -> dict[tuple[str, str], int]:
    counts = {}
    with connect(db, read_only=True) as con:
        for name in TABLES:
            for gid, n in con.execute(f'SELECT game_id, count(*) FROM "{name}" GROUP BY 1').fetchall():
                counts[(name, gid)] = n
    return counts


def test_migrations_create_exactly_the_schema(tmp_path):
    with connect(tmp_path / "w.duckdb") as con:
        assert migrate(con) == [v for v, _, _ in MIGRATIONS]
        assert migrate(con) == []
        for name, cols in TABLES.items():
            got = con.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = ? ORDER BY ordinal_position", [name]).fetchall()
            assert got == [(c, duck) for c, _, duck in cols], name


def test_ingest_twice_loads_nothing_new_and_rebuild_is_identical(tmp_path):
    # 70 inputs: above the inline threshold, so the process pool runs.
    write_games(tmp_path / "in" / "a", 40, events=40)
    write_games(tmp_path / "in" / "b" / "deeper", 30, start=40, events=40)
    (tmp_path / "in" / "notes.md").write_text("not a log")
    db = tmp_path / "db" / "playtest.duckdb"
    first = ingest_paths([tmp_path / "in"], db, progress=False)
    assert first.counts() == {"loaded": 70, "skipped": 0, "recovered": 0, "unreadable": 0, "failed": 0}
    before = snapshot(db)
    assert before["games"].height == 70 and before["events"].height > 70 * 50
    second = ingest_paths([tmp_path / "in"], db, progress=False)
    assert second.counts()["skipped"] == 70 and second.counts()["loaded"] == 0
    assert all(r.reason == "already loaded" for r in second.reports)
    # A live entry on top, then the rebuild must reproduce every table exactly.
    live = ingest_log(synthetic_log(999, events_target=40, session_type="facilitated_playtest"), db)
    assert live.counts()["loaded"] == 1
    assert ingest_log(synthetic_log(999, events_target=40, session_type="facilitated_playtest"),
                      db).counts()["skipped"] == 1
    incremental = snapshot(db)
    assert incremental["games"].height == 71
    summary = rebuild(db, progress=False)
    assert summary.counts()["loaded"] == 71 and not summary.failed
    rebuilt = snapshot(db)
    for name, frame in incremental.items():
        assert rebuilt[name].equals(frame), f"table {name} differs after rebuild"
    assert not list(db.parent.glob("*.rebuild-*"))


def test_corrupt_file_is_quarantined_and_the_rest_load(tmp_path):
    paths = write_games(tmp_path / "in", 100, events=40)
    bad = paths[37]
    text = bad.read_text(encoding="utf-8").splitlines()
    text[5] = '{"type": "fund", "seat": },'  # line 6 is no longer JSON
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    db = tmp_path / "w.duckdb"
    summary = ingest_paths([tmp_path / "in"], db, progress=False)
    c = summary.counts()
    assert (c["loaded"], c["unreadable"], c["failed"]) == (99, 1, 0)
    (report,) = summary.unreadable
    assert report.file.endswith(bad.name)
    assert bad.name in report.reason and ":6" in report.reason  # names the file and the line
    reasons = Archive(tmp_path / "archive").quarantined()
    assert len(reasons) == 1 and reasons[0]["file"].endswith(bad.name)
    assert any(r.get("line") == 6 for r in reasons[0]["reasons"])
    q = list((tmp_path / "archive" / "quarantine").glob("*.json"))
    assert any(p.read_bytes() == bad.read_bytes() for p in q)
    assert any("unreadable" in line and bad.name in line for line in summary.lines())


def test_archived_but_not_loaded_game_is_recovered(tmp_path):
    paths = write_games(tmp_path / "in", 3, events=40)
    db = tmp_path / "w.duckdb"
    # Archive the first game without loading it (as a crash between the two would leave it).
    res = process_batch([Item(path=str(paths[0]))], archive=tmp_path / "archive")
    assert res.reports[0].status == "loaded"
    assert Archive(tmp_path / "archive").has_game(res.reports[0].game_id)
    summary = ingest_paths([tmp_path / "in"], db, progress=False)
    assert summary.counts()["recovered"] == 1 and summary.counts()["loaded"] == 2
    assert summary.recovered[0].game_id == res.reports[0].game_id


def test_pure_batch_writes_nothing_and_frames_load(tmp_path):
    paths = write_games(tmp_path / "in", 2, events=40)
    before = set(tmp_path.rglob("*"))
    res = process_batch([Item(path=str(p)) for p in paths])
    assert set(tmp_path.rglob("*")) == before  # nothing written without an archive
    assert len(res.pending) == 2 and res.frames["games"].height == 2
    with connect(tmp_path / "w.duckdb") as con:
        migrate(con)
        out = load_frames(con, res.frames)
        assert len(out.loaded) == 2 and out.rows["events"] == res.frames["events"].height
        again = load_frames(con, res.frames)
        assert again.loaded == [] and sorted(again.skipped) == sorted(out.loaded)


def test_batch_load_is_all_or_nothing(tmp_path, monkeypatch):
    paths = write_games(tmp_path / "in", 3, events=40)
    res = process_batch([Item(path=str(p)) for p in paths])
    import ingest.warehouse.load as load

    real = load.conform

    def broken(table, frame):
        out = real(table, frame)
        if table == "seats":  # a value DuckDB cannot store: the insert fails mid-batch
            out = out.with_columns(pl.lit("not a seat").alias("seat"))
        return out

    monkeypatch.setattr(load, "conform", broken)
    with connect(tmp_path / "w.duckdb") as con:
        migrate(con)
        with pytest.raises(duckdb.Error):
            load.load_frames(con, res.frames)
        for name in TABLES:
            assert con.execute(f'SELECT count(*) FROM "{name}"').fetchall() == [(0,)], name


def test_export_writes_one_file_per_table(tmp_path):
    write_games(tmp_path / "in", 3, events=40)
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path / "in"], db, progress=False)
    files = export(db, tmp_path / "out", "parquet")
    assert {p.stem for p in files} == set(TABLES) | {"schema_migrations"}
    assert pl.read_parquet(tmp_path / "out" / "games.parquet").height == 3
    with connect(db, read_only=True) as con:
        n = con.execute("SELECT count(*) FROM events").fetchall()[0][0]
    assert pl.read_parquet(tmp_path / "out" / "events.parquet").height == n
    csv = export(db, tmp_path / "csv", "csv")
    assert (tmp_path / "csv" / "games.csv").read_text().startswith("game_id,")
    assert len(csv) == len(files)


def test_busy_database_retries_then_raises_clearly(tmp_path, capfd):
    db = tmp_path / "w.duckdb"
    with connect(db) as con:
        migrate(con)
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import duckdb, sys, time
            con = duckdb.connect({str(db)!r})
            print("held", flush=True)
            time.sleep(30)
        """)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        capfd.readouterr()
        with pytest.raises(DatabaseBusy) as err, connect(db, wait=1.0):
            pass
        message = str(err.value)
        assert str(db) in message and "busy" in message and "PLAYTEST_DB_WAIT" in message
        assert f"process {holder.pid}" in message
        stderr = capfd.readouterr().err
        assert stderr.count(f"database {db} is busy (held by another process); retrying...") == 1
        os.environ["PLAYTEST_DB_WAIT"] = "0.5"  # restored by the autouse monkeypatch fixture
        with pytest.raises(DatabaseBusy):
            ingest_paths([tmp_path], db, progress=False)
    finally:
        holder.kill()
        holder.wait(timeout=10)
    with connect(db, wait=5) as con:  # released: works again
        assert con.execute("SELECT 1").fetchall() == [(1,)]


def test_missing_input_and_unknown_game_are_reported(tmp_path):
    db = tmp_path / "w.duckdb"
    other = {"format": "playtest-log", "format_version": 1,
             "header": {"game": "no-such-game", "rules_version": "1", "session_type": "simulation",
                        "seats": [{"seat": 1, "faction": "x"}]}, "events": []}
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "other.json").write_text(json.dumps(other))
    summary = ingest_paths([tmp_path / "in", tmp_path / "nope"], db, progress=False)
    assert summary.counts()["unreadable"] == 2
    # Walking the archive itself reads only the canonical games (already loaded), no sidecars.
    write_games(tmp_path / "more", 1, events=40)
    ingest_paths([tmp_path / "more"], db, progress=False)
    again = ingest_paths([tmp_path / "archive" / "games"], db, progress=False)
    assert again.counts() == {"loaded": 0, "skipped": 1, "recovered": 0, "unreadable": 0, "failed": 0}
    reasons = {Path(r.file).name: r.reason for r in summary.unreadable}
    assert "no such file" in reasons["nope"]
    assert "no-such-game" in reasons["other.json"]


def test_a_game_whose_rows_do_not_fit_fails_alone(tmp_path):
    from ingest.pipeline import FrameBuilder

    paths = write_games(tmp_path / "in", 2, events=40)
    res = process_batch([Item(path=str(p)) for p in paths])
    good, bad = (r.game_id for r in res.reports)
    builder = FrameBuilder()
    for gid in (good, bad):
        rows = {name: res.frames[name].filter(pl.col("game_id") == gid).to_dicts() for name in TABLES}
        if gid == bad:
            rows["events"][0]["seat"] = "the second seat"  # not an INTEGER
        builder.add_game(gid, rows)
    frames, failed = builder.build()
    assert list(failed) == [bad] and "'events' rows do not fit" in failed[bad]
    assert frames["games"]["game_id"].to_list() == [good]
    assert set(frames["events"]["game_id"].unique()) == {good}


def test_rebuild_refuses_to_drop_games_the_archive_lacks(tmp_path):
    from ingest.db import StorageError

    write_games(tmp_path / "in", 2, events=40)
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path / "in"], db, progress=False)
    (tmp_path / "archive").rename(tmp_path / "elsewhere")
    with pytest.raises(StorageError, match="not in the archive"):
        rebuild(db, progress=False)
    assert snapshot(db)["games"].height == 2  # untouched
    (tmp_path / "elsewhere").rename(tmp_path / "archive")
    assert rebuild(db, progress=False).counts()["loaded"] == 2
    assert rebuild(db, progress=False, allow_drop=True).counts()["loaded"] == 2


SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="no bundled samples in data/samples")
def test_bundled_samples_in_every_format_ingest_and_rebuild_identically(tmp_path, capfd):
    import shutil

    src = tmp_path / "samples"
    shutil.copytree(SAMPLES, src, ignore=shutil.ignore_patterns("*.md"))
    for extra in list((src / "simulated").glob("*.json"))[6:]:
        extra.unlink()  # a handful of simulated games is enough here
    (src / ".hidden").mkdir()
    shutil.copy(next((src / "simulated").glob("*.json")), src / ".hidden" / "x.json")
    db = tmp_path / "db" / "playtest.duckdb"
    summary = ingest_paths([src], db, progress=True)
    c = summary.counts()
    assert c["unreadable"] == 0 and c["failed"] == 0, summary.lines()
    assert c["loaded"] >= 1 + len(list((src / "simulated").glob("*.json")))
    assert not any(".hidden" in r.file for r in summary.reports)
    assert "ingest" in capfd.readouterr().err  # the progress bar went to stderr
    formats = set(snapshot(db)["games"]["source_format"].to_list())
    assert {"json", "session-folder"} <= formats
    with connect(db, read_only=True) as con:
        rows = con.execute(
            "SELECT s.seat, s.final_mandate, s.final_runway, o.details, g.detail FROM seats s "
            "JOIN outcomes o USING (game_id) JOIN games g USING (game_id) "
            "WHERE o.complete AND g.game = 'mandate2038'").fetchall()
    assert rows
    for seat, mandate, runway, details, detail in rows:  # agrees with the engine's result
        assert json.loads(details)["final_mandate"][str(seat)] == mandate
        assert runway is not None or detail == "partial"
    before = snapshot(db)
    rebuild(db, progress=False)
    after = snapshot(db)
    for name, frame in before.items():
        assert after[name].equals(frame), name


def test_a_bad_line_loads_the_rest_and_is_reported(tmp_path):
    (path,) = write_games(tmp_path / "in", 1, events=40)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[6] = '{"type": "fund", "seat": 1, "mode": "reckless"},'  # valid JSON, invalid event
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "w.duckdb"
    summary = ingest_paths([path], db, progress=False)
    assert summary.counts()["loaded"] == 1 and summary.counts()["unreadable"] == 0
    (report,) = summary.partly_unreadable
    assert ":7" in report.unreadable_lines[0]
    assert any("partly unreadable" in line and path.name in line for line in summary.lines())
    raw = list((tmp_path / "archive" / "raw").glob("*.json"))
    assert any(p.read_bytes() == path.read_bytes() for p in raw)  # the exact input is kept
    with connect(db, read_only=True) as con:
        rows = con.execute("SELECT code, line FROM findings WHERE code LIKE 'log/%'").fetchall()
        idx = [r[0] for r in con.execute("SELECT idx FROM events ORDER BY idx").fetchall()]
    assert ("log/invalid-event", 7) in rows
    assert 3 not in idx and idx[:4] == [0, 1, 2, 4]  # source positions; the bad event is skipped
