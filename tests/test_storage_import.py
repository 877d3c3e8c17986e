"""The Import page's upload handling (dashboards/importing.py) and the write password's rate
limit (dashboards/write_lock.py): hostile uploads and a busy database become messages, never a
traceback, and nothing is lost."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import duckdb
import pytest

from dashboards import importing
from dashboards.write_lock import Throttle

pytestmark = pytest.mark.needs_game("mandate2038")

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "data" / "samples" / "simulated" / "sim-samples-heuristic-00002.json"
VESTIGE = ROOT / "data" / "samples" / "vestige" / "walkthrough-3p.csv"


def _games(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute("SELECT count(*) FROM games").fetchone()[0])  # type: ignore[index]
    finally:
        con.close()


def test_an_upload_name_with_a_nul_byte_is_loaded_with_a_note(tmp_path: Path) -> None:
    assert importing.safe_name("g\x00me.json") == "g_me.json"
    assert importing.safe_name("../../etc/\x00") == "_"
    assert importing.safe_name("a/" + "x" * 5000 + ".json").endswith(".json")
    work = tmp_path / "work"
    work.mkdir()
    db = tmp_path / "w" / "playtest.duckdb"
    out = importing.run_import([("sim\x00game.json", SIM.read_bytes())], db, work)
    assert out.problems == []
    assert out.notes and "NUL" in out.notes[0]
    assert [r["status"] for r in out.rows] == ["loaded"]
    assert _games(db) == 1


def _bomb() -> bytes:
    zeros = bytes(50 * 2**20)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in ("session/receipt.json", "session/a.bin", "session/b.bin"):
            zf.writestr(name, zeros)
    return buf.getvalue()


def test_an_upload_with_a_zip_bomb_archives_every_file_and_loads_the_others(tmp_path: Path) -> None:
    """Issue 19 item 6: the bomb was refused before ingest started, so neither it nor any other
    file of the same upload was archived or quarantined. Archive first, then load."""
    import hashlib

    bomb = _bomb()
    db = tmp_path / "w" / "playtest.duckdb"
    work = tmp_path / "work"
    work.mkdir()
    out = importing.run_import([("bomb.zip", bomb), ("g.json", SIM.read_bytes())], db, work)
    assert out.problems == []
    status = {r["file"]: r["status"] for r in out.rows}
    assert status == {"bomb.zip": "unreadable", "g.json": "loaded"}
    [bomb_row] = [r for r in out.rows if r["file"] == "bomb.zip"]
    assert "unpacks to more than" in bomb_row["reason"]
    quarantine = db.parent / "archive" / "quarantine"
    assert (quarantine / f"{hashlib.sha256(bomb).hexdigest()}.zip").is_file()
    assert _games(db) == 1
    # the sizes the zip declares are not what is counted: claim 100 bytes per member
    lying = bytearray(bomb)
    i = 0
    while (i := lying.find(b"PK\x01\x02", i)) >= 0:
        lying[i + 24:i + 28] = (100).to_bytes(4, "little")
        i += 4
    work = tmp_path / "work2"
    work.mkdir()
    out = importing.run_import([("liar.zip", bytes(lying))], db, work)
    assert out.problems == [] and [r["status"] for r in out.rows] == ["unreadable"]
    assert (quarantine / f"{hashlib.sha256(bytes(lying)).hexdigest()}.zip").is_file()


def _hold(db: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True); "
         "time.sleep(60)", str(db)],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def test_import_while_the_database_is_busy_is_a_message_and_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    db = tmp_path / "w" / "playtest.duckdb"
    db.parent.mkdir()
    duckdb.connect(str(db)).close()
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.setenv("PLAYTEST_DB_WAIT", "0.3")
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    holder = _hold(db)
    try:
        at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60).run()
        at.switch_page("views/import_games.py").run()
        at.file_uploader[0].upload("g\x00.json", SIM.read_bytes(), "application/json").run()
        at.button(key="import_go").click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert any("busy" in e.value and "Nothing is lost" in e.value for e in at.error), \
            [e.value for e in at.error]
        # issue 19 item 6: the page said "Nothing is lost" with nothing archived; now the
        # upload is archived while the database is busy
        assert list((db.parent / "archive" / "raw").glob("*.json"))
        work = tmp_path / "busy"
        work.mkdir()
        out = importing.run_import([("v.csv", VESTIGE.read_bytes()), ("bad.json", b"{x")], db, work)
        assert out.problems and "1 game(s) were archived but not loaded" in out.problems[0]
        assert {r["file"]: r["status"] for r in out.rows} == {"v.csv": "archived, not loaded",
                                                       "bad.json": "unreadable"}
        assert list((db.parent / "archive" / "quarantine").glob("*.json"))
    finally:
        holder.kill()
        holder.wait()
    work = tmp_path / "again"
    work.mkdir()
    out = importing.run_import([("g.json", SIM.read_bytes())], db, work)
    assert out.problems == []
    assert [r["status"] for r in out.rows] in (["loaded"], ["recovered"])
    assert _games(db) == 1


def test_wrong_passwords_are_rate_limited() -> None:
    now = [1000.0]
    t = Throttle(free=3, base=1.0, cap=60.0, clock=lambda: now[0])
    for _ in range(3):
        assert t.attempt("guess", "s3cret") == (False, "That password is not right.")
    ok, msg = t.attempt("guess", "s3cret")  # the 4th wrong one starts the wait
    assert not ok and msg and "checked in 1 s" in msg
    ok, msg = t.attempt("s3cret", "s3cret")  # even the right one waits: not compared now
    assert not ok and msg and msg.startswith("Too many wrong passwords")
    now[0] += 1.0
    assert t.attempt("s3cret", "s3cret") == (True, None)
    assert t.failures == 0 and t.wait_left() == 0.0
    for _ in range(20):  # the wait doubles and stops at the cap
        now[0] += 1000.0
        t.attempt("guess", "s3cret")
    assert t.wait_left() == 60.0


def test_a_live_game_is_archived_even_when_the_database_is_busy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Archive first for the live entry too: a busy database stops only the loading."""
    from ingest.formats import read_bytes
    from ingest.loading import BusyAfterArchiving, ingest_log

    [loaded] = read_bytes(SIM.read_bytes(), "live.json")
    log = loaded.parsed.ruleset.log_model(header=loaded.parsed.header, events=loaded.parsed.events)
    db = tmp_path / "w" / "playtest.duckdb"
    db.parent.mkdir()
    duckdb.connect(str(db)).close()
    monkeypatch.setenv("PLAYTEST_DB_WAIT", "0.3")
    holder = _hold(db)
    try:
        with pytest.raises(BusyAfterArchiving, match="1 game\\(s\\) are archived but not loaded") as err:
            ingest_log(log, db, source="live entry")
        gid = err.value.summary.reports[0].game_id
        assert gid and list((db.parent / "archive" / "games").rglob(f"{gid}.json"))
    finally:
        holder.kill()
        holder.wait()
    again = ingest_log(log, db, source="live entry")
    assert [r.status for r in again.reports] == ["recovered"] and _games(db) == 1


def test_one_client_cannot_keep_another_locked_out() -> None:
    """Issue 19 item 9: one wrong try each time the wait ended held the server-wide wait at
    300 s forever, locking the facilitator out. The count is per client address now."""
    from dashboards import write_lock

    now = [1000.0]
    book = write_lock.Throttles(make=lambda: Throttle(free=5, cap=300.0, clock=lambda: now[0]))
    for _ in range(40):  # the attacker tries again each time its wait ends
        now[0] += book.of("203.0.113.9").wait_left()
        assert book.attempt("guess", "s3cret", "203.0.113.9")[0] is False
    assert book.of("203.0.113.9").wait_left() == 300.0
    assert book.attempt("s3cret", "s3cret", "198.51.100.7") == (True, None)  # the facilitator
    assert book.attempt("s3cret", "s3cret", "203.0.113.9")[0] is False  # the attacker waits
    small = write_lock.Throttles(clients=3)
    for i in range(10):
        small.of(f"10.0.0.{i}")
    assert len(small._by_client) == 3  # bounded memory


def test_the_write_login_uses_the_rate_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    from dashboards import write_lock

    monkeypatch.setattr(write_lock, "THROTTLES",
                        write_lock.Throttles(make=lambda: Throttle(free=2, base=60.0)))
    monkeypatch.setenv("PLAYTEST_DB", str(tmp_path / "playtest.duckdb"))
    monkeypatch.setenv("PLAYTEST_WRITE_PASSWORD", "s3cret")
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60).run()
    at.switch_page("views/import_games.py").run()
    for _ in range(3):
        at.text_input[0].input("wrong")
        at.form_submit_button[0].click().run()
    at.text_input[0].input("s3cret")
    at.form_submit_button[0].click().run()
    assert not at.exception
    assert any("Too many wrong passwords" in e.value for e in at.error), [e.value for e in at.error]
    assert not at.file_uploader


def test_the_apps_csv_downloads_cannot_run_a_formula() -> None:
    import polars as pl

    from dashboards.ui import table_csv

    df = pl.DataFrame({"player": ["=HYPERLINK(\"http://x\")", "@SUM(1)", "Ana"],
                       "delta": ["-3", "-2+cmd", "+1"], "n": [-3, 4, 5],
                       "seen": [["=x", "y"], ["z"], []]})
    text = table_csv(df).decode("utf-8")
    assert text.splitlines() == [
        "player,delta,n,seen",
        "\"'=HYPERLINK(\"\"http://x\"\")\",-3,-3,'=x; y",
        "'@SUM(1),'-2+cmd,4,z",
        "Ana,+1,5,\"\"",
    ]
