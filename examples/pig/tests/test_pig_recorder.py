"""Live entry of a Pig game on the toolkit's Record page (AppTest): the declared recorder offers
the six faces until the seat on turn has rolled (§3.5), then the faces and "Hold"; the final
record is one forced button; finishing archives and loads the game. One click per event."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

import dashboards


def _keys(at: AppTest) -> set[str]:
    return {b.key for b in at.button if b.key}


def _names(at: AppTest) -> set[str]:
    """The decision's buttons without the position their keys carry (``pigrec_face6_3``)."""
    return {str(k).rsplit("_", 1)[0] for k in _keys(at) if str(k)[-1].isdigit()}


def test_record_a_game_from_the_first_roll_to_the_warehouse(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w.duckdb"
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    # an AppTest clicks at once: no wait for a person to read the decision (record_nav)
    monkeypatch.setenv("PLAYTEST_TAP_SETTLE_MS", "0")
    at = AppTest.from_file(str(Path(dashboards.__file__).parent / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("views/record.py").run()
    at.radio(key="new_game").set_value("pig").run()
    at.number_input[1].set_value(10)  # the target
    at.text_input[0].set_value("Ada, Bo")
    at.button[-1].click().run()  # Start recording (the form's submit)
    assert not at.exception, [e.value for e in at.exception]
    # a turn begins with a roll: six faces, no hold (§3.5)
    assert {f"pigrec_face{i}" for i in range(1, 7)} <= _names(at)
    assert "pigrec_hold" not in _names(at)
    clicks = 0
    for key in ("pigrec_face6", "pigrec_face1",          # Ada: 6, then a 1: turn lost
                "pigrec_face3", "pigrec_hold",           # Bo: 3, holds (3)
                "pigrec_face5", "pigrec_face6", "pigrec_hold",  # Ada: 11, holds: wins
                "pigrec_final"):                          # the forced final record
        next(b for b in at.button if str(b.key).startswith(f"{key}_")).click().run()
        clicks += 1
        assert not at.exception, [e.value for e in at.exception]
    assert not at.warning, [w.value for w in at.warning]  # no finding on the way
    at.button(key="pigrec_finish").click().run()
    at.button(key="pigrec_finish_yes").click().run()
    assert not at.exception, [e.value for e in at.exception]
    con = duckdb.connect(str(db), read_only=True)
    row = con.execute("SELECT game, session_type, status, complete, n_events FROM games").fetchone()
    turns = con.execute("SELECT count(*) FROM turn_times").fetchone()
    con.close()
    # 7 clicks recorded 7 events, the forced final record 2 (final + game_end) in one click,
    # plus the game_start recorded with the session: 10 events
    assert clicks == 8 and row == ("pig", "facilitated_playtest", "clean", True, 10)
    assert turns == (3,)  # every turn was timed as it was recorded
