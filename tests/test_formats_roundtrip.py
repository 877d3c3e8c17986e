"""Round trips: notation <-> JSON and CSV <-> JSON are lossless on every valid log."""

from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from test_formats_strategies import EVENT_MODELS, logs

from ingest.formats import read_bytes, write_log
from ingest.mandate2038.events import SPEC_BY_TYPE
from ingest.mandate2038.notation import parse_notation
from ingest.mandate2038.sheet import parse_sheet
from schemas.canonical import dumps_log
from schemas.mandate2038 import MandateLog

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _same(a: MandateLog, b: MandateLog) -> None:
    assert a == b
    # the canonical text is stricter than == (True vs 1, 4.0 vs 4, time zone offsets)
    assert dumps_log(a) == dumps_log(b)


@SETTINGS
@given(logs())
def test_notation_round_trip(log: MandateLog) -> None:
    text = write_log(log, "notation")
    text.encode("utf-8")
    obj, _, lines, problems = parse_notation(text, "t.m38")
    assert problems.findings == []
    back = MandateLog.model_validate(obj)
    _same(back, log)
    assert len(lines) == len(log.events)
    assert all(text.split("\n")[n - 1].strip() for n in lines if n is not None)


@SETTINGS
@given(logs())
def test_sheet_round_trip(log: MandateLog) -> None:
    text = write_log(log, "csv")
    text.encode("utf-8")
    obj, _, _, problems = parse_sheet(text, "t.csv")
    assert problems.findings == []
    _same(MandateLog.model_validate(obj), log)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(logs(max_events=6))
def test_every_format_reads_back_through_the_validator(log: MandateLog) -> None:
    """read_bytes (the public reader, with parse_log) gives back the same header and events."""
    for fmt, name in (("json", "g.json"), ("notation", "g.m38"), ("csv", "g.csv")):
        (loaded,) = read_bytes(write_log(log, fmt).encode(), name)
        assert loaded.unreadable is None, loaded.findings
        assert loaded.format == fmt
        assert loaded.parsed.findings == [], [f.message for f in loaded.parsed.findings]
        _same(MandateLog(header=loaded.parsed.header, events=loaded.parsed.events), log)


def test_grammar_covers_every_field_of_every_event() -> None:
    """Each schema field is a key of the event grammar or written in a short form."""
    short_only = {
        "allocation_window": {"offers"}, "reveal": {"selections"}, "dossier_reveal": {"hands"},
        "audit": {"draws"}, "era_mandate": {"scorers"}, "checkpoint": {"seats"},
        "observation": set(), "survey": set(),
    }
    for model in EVENT_MODELS:
        typ = model.model_fields["type"].default
        spec = SPEC_BY_TYPE[typ]
        fields = set(model.model_fields) - {"type", "t", "comment", "seat"}
        missing = fields - set(spec.keys) - short_only.get(typ, set())
        assert not missing, (typ, missing)


def test_canonical_lines_point_at_events() -> None:
    log = MandateLog.model_validate({
        "header": {"session_type": "simulation", "seats": [{"seat": 1, "faction": "loopfold"}]},
        "events": [{"type": "era_start", "era": 1}, {"type": "fund", "seat": 1}],
    })
    text = write_log(log, "json")
    (loaded,) = read_bytes(text.encode(), "x.json")
    assert loaded.parsed.lines == [4, 5]
    assert text.split("\n")[3].startswith('{"type": "era_start"')
    pretty = MandateLog.model_validate_json(write_log(log, "json")).model_dump_json(indent=2)
    (loaded,) = read_bytes(pretty.encode(), "x.json")
    text = pretty.split("\n")
    assert [text[n - 1].strip() for n in loaded.parsed.lines] == ["{", "{"]
    assert loaded.parsed.lines[0] < loaded.parsed.lines[1]


def test_short_time_uses_header_date_and_full_form_otherwise() -> None:
    log = MandateLog.model_validate({
        "header": {"session_type": "simulation", "date": "2026-11-29",
                   "seats": [{"seat": 1, "faction": "loopfold"}]},
        "events": [
            {"type": "phase", "name": "setup", "t": "2026-11-29T19:02:00"},
            {"type": "phase", "name": "break", "t": "2026-11-30T00:10:05.5+01:00"},
        ],
    })
    text = write_log(log, "notation")
    assert "-- Setup @19:02\n" in text
    assert "-- Break @2026-11-30T00:10:05.500000+01:00" in text
    obj, *_ = parse_notation(text, "x")
    assert MandateLog.model_validate(obj).events[1].t == dt.datetime(
        2026, 11, 29, 23, 10, 5, 500000, tzinfo=dt.UTC)


def test_a_line_break_with_a_comma_in_a_header_cell_round_trips_through_the_sheet() -> None:
    """``"0\\n,"`` in a header value was written as a raw CSV cell across two lines, which the
    line-by-line reader read as two unterminated quotes (found by the property above): a cell
    with a line break is JSON-quoted like any other that would not read back verbatim."""
    from schemas.mandate2038 import MandateHeader

    header = MandateHeader(game="mandate2038", rules_version="0.8.0-rc.17-test",
                           session_type="facilitated_playtest",
                           seats=[{"seat": 1, "faction": "a"}], venue="0\n,", rulings="1\r\n,")
    (loaded,) = read_bytes(write_log(MandateLog(header=header, events=[]), "csv").encode(),
                           "g.csv")
    assert loaded.parsed.findings == [], [f.message for f in loaded.parsed.findings]
    assert (loaded.parsed.header.venue, loaded.parsed.header.rulings) == ("0\n,", "1\r\n,")


def test_a_header_value_spelled_event_round_trips_through_the_sheet() -> None:
    """``Rulings,EVENT`` was taken for the column row (any row naming the ``event`` column was),
    so the sheet lost its header and its columns (found by the property above); a row that
    starts with a header tag is the column row only when every cell it names is a column."""
    from schemas.mandate2038 import MandateHeader

    header = MandateHeader(game="mandate2038", rules_version="0.8.0-rc.17-test",
                           session_type="facilitated_playtest",
                           seats=[{"seat": 1, "faction": "event"}], rulings="EVENT",
                           venue="event")
    (loaded,) = read_bytes(write_log(MandateLog(header=header, events=[]), "csv").encode(),
                           "g.csv")
    assert loaded.parsed.findings == [], [f.message for f in loaded.parsed.findings]
    got = loaded.parsed.header
    assert (got.rulings, got.venue, got.seats[0].faction) == ("EVENT", "event", "event")
    # a column row may still start with a column that is also a header tag (Seat)
    text = ("Game,mandate2038\nRules,0.8.0-rc.17-test\nSession,facilitated_playtest\n"
            "Seat,1,a\nseat,event,era,cycle\n,era_start,1,\n")
    obj, _, _, problems = parse_sheet(text, "t.csv")
    assert [f.message for f in problems.findings] == []
    assert obj["events"][0]["type"] == "era_start"
