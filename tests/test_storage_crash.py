"""Crash safety: an ingest killed with SIGKILL at several points, then re-run, leaves the archive
and the warehouse agreeing with the input, with no game half-loaded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from test_storage_pipeline import per_game_counts
from test_storage_support import as_child, child_env, write_games

from ingest.archive import Archive
from ingest.db import connect
from ingest.pipeline import ingest_paths

pytestmark = pytest.mark.needs_game("mandate2038")

CHILD = """
import sys
from ingest.pipeline import ingest_paths
s = ingest_paths([sys.argv[1]], sys.argv[2], progress=False)
print(s.counts(), flush=True)
"""
GAMES = 80
KILLS = 4


def _run(env, src, db, kill_after=None):
    """Run an ingest in a child process (own process group); kill it after ``kill_after`` s."""
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(src), str(db)], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    killed = False
    if kill_after is not None:
        try:
            child.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)  # the child and its pool workers
            killed = True
    out, err = child.communicate(timeout=60)
    if not killed:
        assert child.returncode == 0, err.decode()[-2000:]
    return killed, time.monotonic() - started


def _state(db):
    archived = len(Archive(db.parent / "archive").game_ids())
    if not db.exists():
        return archived, 0
    with connect(db, read_only=True) as con:
        return archived, con.execute("SELECT count(*) FROM games").fetchall()[0][0]


@pytest.mark.slow
def test_sigkill_during_ingest_then_reingest_agrees_with_clean_ingest(tmp_path, monkeypatch):
    # Frequent loads (every batch of ~5 games), so kills also land inside load transactions.
    env = child_env(PLAYTEST_DB_WAIT="10", PLAYTEST_FLUSH_GAMES="4")
    as_child(monkeypatch, PLAYTEST_DB_WAIT="10", PLAYTEST_FLUSH_GAMES="4")
    src = tmp_path / "in"
    write_games(src, GAMES, events=40)

    # The clean reference, timed, so the kill points spread over a whole run on this machine.
    clean_db = tmp_path / "clean" / "playtest.duckdb"
    _, full = _run(env, src, clean_db)
    assert _state(clean_db) == (GAMES, GAMES)

    def check_recovers(db) -> None:
        """Re-ingest after the kills: archive and warehouse agree with a clean ingest."""
        final = ingest_paths([src], db, progress=False)
        c = final.counts()
        assert c["unreadable"] == 0 and c["failed"] == 0
        assert c["loaded"] + c["skipped"] + c["recovered"] == GAMES
        # Warehouse: the same games with the same number of rows per table per game.
        assert per_game_counts(db) == per_game_counts(clean_db)
        # Archive: the same canonical games, byte for byte.
        crashed, reference = Archive(db.parent / "archive"), Archive(clean_db.parent / "archive")
        assert crashed.game_ids() == reference.game_ids()
        for gid in reference.game_ids():
            assert crashed.read_game_text(gid) == reference.read_game_text(gid)

    db = tmp_path / "crash" / "playtest.duckdb"
    partial_states = []
    for i in range(KILLS):
        killed, _ = _run(env, src, db, kill_after=full * (0.2 + 0.75 * i / (KILLS - 1)))
        if killed:
            partial_states.append(_state(db))
    print(f"full run {full:.1f} s; after each kill (archived, loaded): {partial_states}")
    for archived, loaded in partial_states:
        assert loaded <= archived  # the archive is always written first
    check_recovers(db)

    # Make sure at least one kill lands inside the loading phase: on a busy machine the timed
    # kills above may all miss it, so bisect the kill time on fresh databases (bounded).
    lo, hi = 0.0, full
    probe = 0
    while not any(0 < n < GAMES for _, n in partial_states) and probe < 8:
        probe += 1
        at = (lo + hi) / 2
        pdb = tmp_path / f"probe{probe}" / "playtest.duckdb"
        killed, _ = _run(env, src, pdb, kill_after=at)
        state = _state(pdb) if killed else (GAMES, GAMES)
        print(f"probe {probe}: kill after {at:.2f} s -> (archived, loaded) {state}")
        if killed:
            partial_states.append(state)
            assert state[1] <= state[0]
            check_recovers(pdb)
        if state[1] == 0:
            lo = at  # killed before loading began: kill later
        else:
            hi = at  # loading had finished (or the run ended): kill earlier
    assert any(0 < n < GAMES for _, n in partial_states), (
        f"no kill landed while games were being loaded: {partial_states}")
