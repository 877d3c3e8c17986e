"""The ``.pig`` score sheet: exact round trip of bot games, and every bad line a finding with its
line and column while the rest is still read."""

from __future__ import annotations

import pytest
from playtest_pig.schema import PigLog
from playtest_pig.sheet import loads_pig_sheet, read_pig_sheet, write_pig_sheet
from playtest_pig.simulate import simulate_one


@pytest.mark.parametrize("index", range(6))
def test_bot_games_round_trip(index: int) -> None:
    log = simulate_one(21, index, 2 + index % 5)
    text = write_pig_sheet(log)
    assert loads_pig_sheet(text) == log
    assert write_pig_sheet(loads_pig_sheet(text)) == text


def test_a_sheet_reads_as_the_scorekeeper_wrote_it() -> None:
    text = ("game: pig\nsession_type: facilitated_playtest\nseats: 1=Ada, 2=Brook\n"
            "target: 20\nrulings: equal-turns\n1: 4 6 hold =10\n2: 1\n1: 5 5 hold =20\n"
            "2: 6 6 6 2 h\nfinal: 1=20 2=20 winners=1,2\n")
    log = loads_pig_sheet(text)
    assert log.header.target == 20 and log.header.rulings == "equal-turns"
    assert [s.player for s in log.header.seats] == ["Ada", "Brook"]
    assert [e.type for e in log.events] == ["roll", "roll", "hold", "roll", "roll", "roll",
                                            "hold", "roll", "roll", "roll", "roll", "hold",
                                            "final"]
    assert log.events[-1].scores == {1: 20, 2: 20} and log.events[-1].winners == [1, 2]


def test_bad_words_are_findings_and_the_rest_is_read() -> None:
    data = b"game: pig\nsession_type: blind_playtest\nseats: 1, 2\n1: 4 x 6 hold =q\nwhat is this\n2: 3 hold\n"
    r = read_pig_sheet(data, "t.pig")
    messages = [f.message for f in r.findings if f.code == "log/parse-error"]
    assert messages == ["t.pig:4:6: a roll must be a whole number, not 'x'",
                        "t.pig:4:16: the score after '=' must be a whole number, not 'q'",
                        "t.pig:5:1: expected 'key: value', 'seat: rolls ... hold' or "
                        "'final: ...'"]
    assert [(e.type, e.seat) for e in r.parsed.events] == [
        ("roll", 1), ("roll", 1), ("hold", 1), ("roll", 2), ("hold", 2)]


def test_unreadable_input_never_raises() -> None:
    for data in (b"", b"\xff\xfe\x00", b"\x00\x01garbage", b"1: " + b"9" * 5000, b"final: =\n"):
        r = read_pig_sheet(data, "x.pig")  # must not raise
        assert r.unreadable is not None or r.findings


def test_what_a_sheet_cannot_hold_is_refused() -> None:
    log = simulate_one(21, 0, 2)
    with_comment = PigLog.model_validate({
        **log.model_dump(), "events": [{"type": "roll", "seat": 1, "face": 3, "comment": "hi"}]})
    with pytest.raises(ValueError, match="write the log as JSON"):
        write_pig_sheet(with_comment)
