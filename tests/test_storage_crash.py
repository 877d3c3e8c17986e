"""Crash safety: an ingest killed with SIGKILL at random points, then re-run, leaves the archive
and the warehouse agreeing with the input, with no game half-loaded."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from test_storage_pipeline import per_game_counts
from test_storage_support import child_env, ensure_ruleset, write_games

from ingest.archive import Archive
from ingest.db import connect
from ingest.pipeline import ingest_paths

CHILD = """
import sys
from ingest.pipeline import ingest_paths
s = ingest_paths([sys.argv[1]], sys.argv[2], progress=False)
print(s.counts(), flush=True)
"""


@pytest.mark.slow
def test_sigkill_during_ingest_then_reingest_agrees_with_clean_ingest(tmp_path, monkeypatch):
    env = child_env(PLAYTEST_DB_WAIT="10")
    for k, v in env.items():
        if k.startswith("PLAYTEST_") or k == "PYTHONPATH":
            monkeypatch.setenv(k, v)
    ensure_ruleset()
    src = tmp_path / "in"
    write_games(src, 160, events=100)
    db = tmp_path / "crash" / "playtest.duckdb"
    rng = random.Random(2038)
    deadline = time.monotonic() + 25
    kills = 0
    for _ in range(5):
        if time.monotonic() > deadline:
            break
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(src), str(db)], env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        time.sleep(rng.uniform(0.3, 2.5))
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)  # the child and its pool workers
            kills += 1
        child.wait(timeout=20)
    assert kills >= 1, "no run was interrupted; the kill points are too late for this machine"
    final = ingest_paths([src], db, progress=False)
    c = final.counts()
    assert c["unreadable"] == 0 and c["failed"] == 0
    assert c["loaded"] + c["skipped"] + c["recovered"] == 160

    clean_db = tmp_path / "clean" / "playtest.duckdb"
    clean = ingest_paths([src], clean_db, progress=False)
    assert clean.counts()["loaded"] == 160
    # Warehouse: the same games with the same number of rows per table per game.
    assert per_game_counts(db) == per_game_counts(clean_db)
    # Archive: the same canonical games, and no temporary files taken for archived ones.
    crashed, reference = Archive(db.parent / "archive"), Archive(clean_db.parent / "archive")
    assert crashed.game_ids() == reference.game_ids()
    for gid in reference.game_ids():
        assert crashed.read_game_text(gid) == reference.read_game_text(gid)
    with connect(db, read_only=True) as con:
        loaded = {r[0] for r in con.execute("SELECT game_id FROM games").fetchall()}
    assert loaded == set(reference.game_ids())
