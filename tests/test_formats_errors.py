"""Error reporting: every problem names the file, line and column; the rest is still read."""

from __future__ import annotations

import pytest

from ingest.formats import read_bytes

HEAD = "[Game mandate2038]\n[Session facilitated_playtest]\n[Date 2026-11-29]\n[Seat 1 mirevanta]\n[Seat 2 kestralyn]\n"


def _messages(loaded) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in loaded.findings]


@pytest.mark.needs_game("mandate2038")
def test_notation_bad_lines_are_located_and_skipped() -> None:
    text = HEAD + "== Era I quarter_humanity_notices @19:00\n1 fund bogus\n2 fund venture @19:05\n3\n1 research I7\n2 draw\n1 fund venture {unterminated\n"
    (loaded,) = read_bytes(text.encode(), "game.m38")
    msgs = _messages(loaded)
    assert loaded.unreadable is None
    assert "game.m38:7:8: unexpected 'bogus' in 'fund'; expected conservative|venture" in msgs[0]
    assert any(m.startswith("game.m38:9:") and "an event after the seat number" in m for m in msgs)
    assert any(m.startswith("game.m38:10:12:") and "'I7'" in m for m in msgs)
    assert any(m.startswith("game.m38:12:16:") and "unterminated comment" in m for m in msgs)
    # the draw without a card reaches the validator, which names the line
    assert any(m.startswith("game.m38:11:") and "card" in m for m in msgs)
    assert [f.where.line for f in loaded.findings][:2] == [7, 9]
    assert [e.type for e in loaded.parsed.events] == ["era_start", "fund"]
    assert loaded.parsed.lines == [6, 8]
    assert all(f.code == "log/parse-error" for f in loaded.findings if "unexpected" in f.message)


@pytest.mark.needs_game("mandate2038")
def test_notation_unknown_event_tag_and_time() -> None:
    text = "[Session simulation]\n[Seat 1 loopfold]\n[Colour red]\nfly 1\n1 fund @19:42\n1 fund @25:99\n"
    (loaded,) = read_bytes(text.encode(), "t.m38")
    msgs = _messages(loaded)
    assert any(m.startswith("t.m38:3:2: unknown tag 'Colour'") for m in msgs)
    assert any(m.startswith("t.m38:4:1: unknown event 'fly'") for m in msgs)
    assert any(m.startswith("t.m38:5:9:") and "[Date YYYY-MM-DD]" in m for m in msgs)
    assert any(m.startswith("t.m38:6:9:") for m in msgs)


def test_json_errors_name_line_and_column() -> None:
    (loaded,) = read_bytes(b'{"header": {},\n  "events": [1, 2,]}', "bad.json")
    assert loaded.unreadable is not None
    assert loaded.findings[0].message.startswith("bad.json:2:19: not valid JSON")
    assert loaded.findings[0].where.line == 2
    (loaded,) = read_bytes(b'\n\n  {"a": "\xff"}', "bin.json")
    assert loaded.findings[0].message.startswith("bin.json:3:")
    assert "not UTF-8" in loaded.findings[0].message
    (loaded,) = read_bytes(b"[1, 2]", "list.json")
    assert "got list" in (loaded.unreadable or "")


@pytest.mark.needs_game("mandate2038")
def test_json_invalid_event_keeps_the_rest() -> None:
    doc = (b'{"header": {"session_type": "simulation", "seats": [{"seat": 1, "faction": "loopfold"}]},\n'
           b' "events": [\n  {"type": "era_start", "era": 9},\n  {"type": "era_start", "era": 1}\n]}')
    (loaded,) = read_bytes(doc, "e.json")
    assert loaded.parsed.lines == [4]
    assert loaded.findings[0].code == "log/invalid-event"
    assert loaded.findings[0].where.line == 3
    assert loaded.findings[0].message.startswith("e.json:3:")


@pytest.mark.needs_game("mandate2038")
def test_sheet_errors_name_line_and_column() -> None:
    text = (
        "Session,simulation\nSeat,1,loopfold\nSeat,x,kestralyn\n"
        "time,era,cycle,seat,event,what,piece,path,details,text,comment\n"
        ",I,,,era,quarter_humanity_notices,,,,,\n"
        ",I,,1,fund,bogus,,,,,\n"
        ",II,,1,fund,venture,,,,,\n"
        ",I,,,fund,venture,,,,,\n"
        ",I,,1,fund,venture,,,\"unclosed,,\n"
    )
    (loaded,) = read_bytes(text.encode(), "s.csv")
    msgs = _messages(loaded)
    assert any(m.startswith("s.csv:3:2:") and "seat number" in m for m in msgs)
    assert any(m.startswith("s.csv:6:6: column what: unexpected 'bogus'") for m in msgs)
    assert any(m.startswith("s.csv:7:2: column era:") and "Era II" in m for m in msgs)
    assert any(m.startswith("s.csv:8:4: column seat:") and "needs the acting seat" in m for m in msgs)
    assert [e.type for e in loaded.parsed.events][:2] == ["era_start", "fund"]
    assert loaded.parsed.lines[:2] == [5, 7]


@pytest.mark.needs_game("mandate2038")
def test_not_a_log_at_all() -> None:
    (loaded,) = read_bytes(b"hello world\nthis is a shopping list\n", "list.txt")
    assert loaded.unreadable is not None and "notation" in loaded.unreadable
    (loaded,) = read_bytes(b"a,b\n1,2\n", "x.csv")
    assert loaded.unreadable is not None
    (loaded,) = read_bytes(b"PK\x03\x04garbage", "x.zip")
    assert loaded.unreadable is not None and "zip" in loaded.unreadable


@pytest.mark.needs_game("mandate2038")
def test_sheet_from_a_semicolon_or_utf16_spreadsheet() -> None:
    text = ("Session;simulation\nSeat;1;loopfold\n"
            "time;era;cycle;seat;event;what;piece;path;details;text;comment\n"
            ";I;;;era;quarter_humanity_notices;;;;;\n;I;;1;fund;venture;ceo;F-I4;;;\n")
    (semi,) = read_bytes(text.encode(), "semi.csv")
    assert semi.findings == [] and [e.type for e in semi.parsed.events] == ["era_start", "fund"]
    (utf16,) = read_bytes(text.replace(";", "\t").encode("utf-16"), "tabs.csv")
    assert utf16.findings == [] and utf16.parsed.events == semi.parsed.events


@pytest.mark.needs_game("mandate2038")
def test_notation_tag_with_trailing_text_and_comment_lines() -> None:
    text = "[Venue x] oops\n[Session simulation]\n[Seat 1 loopfold]\n{the table took a break}\n# not part of the log\n"
    (loaded,) = read_bytes(text.encode(), "c.m38")
    assert [f.message for f in loaded.findings][0].startswith("c.m38:1:11: unexpected text after ']'")
    (obs,) = loaded.parsed.events
    assert obs.type == "observation" and obs.category == "other" and obs.text == "the table took a break"
    assert loaded.parsed.lines == [4]


@pytest.mark.needs_game("mandate2038")
def test_nameless_uploads_are_sniffed() -> None:
    from ingest.formats import write_log
    from schemas.mandate2038 import MandateLog

    log = MandateLog.model_validate({
        "header": {"session_type": "simulation", "seats": [{"seat": 1, "faction": "loopfold"}]},
        "events": [{"type": "era_start", "era": 1}, {"type": "fund", "seat": 1}],
    })
    for fmt in ("json", "notation", "csv"):
        (loaded,) = read_bytes(write_log(log, fmt).encode(), "upload")
        assert loaded.format == fmt and loaded.findings == []
        assert loaded.parsed.events == log.events


@pytest.mark.needs_game("mandate2038")
def test_notation_reads_the_forms_people_type() -> None:
    text = ('[Session facilitated_playtest]\n[Seat 1 "Ana" mirevanta]\n[Seat 2 kestralyn "Ben"]\n'
            "== era 1\n-- cycle 1 open_weights_drop\nallocate 1 f1,f2 mc1\n2 Fund VENTURE Team F>I3-O4 +Frontier\n"
            "1 trade 2 runway Accepted\n2 dossier Commit\n")
    (loaded,) = read_bytes(text.encode(), "typed.m38")
    assert loaded.findings == []
    assert [(s.faction, s.player) for s in loaded.parsed.header.seats] == [("mirevanta", "Ana"), ("kestralyn", "Ben")]
    alloc, fund, trade, dossier = loaded.parsed.events[2:]
    assert (alloc.seat, alloc.facilities, alloc.mega_clusters) == (1, [1, 2], [1])
    assert (fund.seat, fund.mode, fund.piece, fund.path, fund.frontier_bonus) == (2, "venture", "team", ["F", "I3", "O4"], True)
    assert (trade.rival, trade.give, trade.accepted) == (2, "runway", True)
    assert dossier.orientation == "commit"
