"""Timing from the recorded times (playtest_pig/timing.py): the whole game as a phase with breaks
left out, and each turn's seconds, as the toolkit's ingest stores them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import event
from playtest_pig.timing import pig_timing

T0 = dt.datetime(2026, 5, 1, 19, 0, 0)


def _at(seconds: int, **fields: object) -> object:
    return event(t=(T0 + dt.timedelta(seconds=seconds)).isoformat(), **fields)


EVENTS = [
    _at(0, type="phase", name="game_start"),
    _at(10, type="roll", seat=1, face=4), _at(20, type="roll", seat=1, face=6),
    _at(30, type="hold", seat=1),                      # seat 1's turn: 30 s
    _at(45, type="roll", seat=2, face=1),              # seat 2 pigs out: 15 s
    _at(50, type="phase", name="break"), _at(110, type="phase", name="resume"),
    _at(130, type="roll", seat=1, face=3),
    event(type="hold", seat=1),                        # untimed end: no row
    _at(200, type="roll", seat=2, face=2), _at(210, type="hold", seat=2),
    _at(240, type="phase", name="game_end"),
]


def test_turn_times_and_the_whole_game() -> None:
    t = pig_timing(EVENTS)
    assert [(r["seat"], r["action"], r["event"], r["seconds"]) for r in t.turn_times] == [
        (1, "hold", 3, 30.0), (2, "pig_out", 4, 15.0)]
    assert [(p["phase"], p["minutes"]) for p in t.phases] == [("game_start", 3.0)]  # 4 - 1 break
    assert t.total_minutes == 3.0


def test_ingest_stores_the_times(tmp_path: Path) -> None:
    import duckdb
    from conftest import header
    from playtest_pig.schema import PigLog

    from ingest.pipeline import ingest_paths
    from schemas.canonical import dumps_log

    log = PigLog(header=header(2), events=EVENTS)
    (tmp_path / "timed.json").write_text(dumps_log(log), encoding="utf-8")
    db = tmp_path / "w.duckdb"
    assert len(ingest_paths([tmp_path / "timed.json"], db, progress=False).loaded) == 1
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT total_minutes FROM games").fetchone() == (3.0,)
    assert con.execute("SELECT phase, minutes FROM phases").fetchall() == [("game_start", 3.0)]
    assert con.execute("SELECT seat, action, seconds FROM turn_times ORDER BY event").fetchall() \
        == [(1, "hold", 30.0), (2, "pig_out", 15.0)]
    con.close()


def test_a_turn_whose_start_is_unknown_has_no_time() -> None:
    """The first timed event falls inside the second turn: that turn's start is unknown."""
    t = pig_timing([event(type="roll", seat=1, face=1), _at(10, type="roll", seat=2, face=5),
                    _at(20, type="hold", seat=2), _at(50, type="roll", seat=1, face=1)])
    assert [(r["seat"], r["seconds"]) for r in t.turn_times] == [(1, 30.0)]
