"""engine.core.parse.parse_text: a log read from its JSON text in one pydantic-core call gives
exactly what json.loads + parse_log gives (header, events, indices, lines, findings), and
anything the fast path refuses falls back to parse_log, which locates the problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.parse import parse_log, parse_text

ROOT = Path(__file__).parent
FILES = sorted(p for p in (ROOT / "golden").rglob("*.json") if not p.name.endswith(".expected.json"))


def _same(a, b) -> None:
    assert a.header == b.header
    assert a.events == b.events
    assert [type(e) for e in a.events] == [type(e) for e in b.events]
    assert a.indices == b.indices and a.lines == b.lines
    assert [(f.code, f.where.event, f.message) for f in a.findings] == \
        [(f.code, f.where.event, f.message) for f in b.findings]
    assert a.ruleset is b.ruleset and a.raw_event_count == b.raw_event_count


def test_every_golden_log_reads_the_same_both_ways():
    assert len(FILES) > 150  # both games' golden corpora
    for p in FILES:
        text = p.read_text(encoding="utf-8")
        n = len(json.loads(text).get("events", []))
        lines = [4 + i for i in range(n)]
        _same(parse_text(text, header_line=2, event_lines=lines),
              parse_log(json.loads(text), header_line=2, event_lines=lines))
        _same(parse_text(text.encode("utf-8")), parse_log(json.loads(text)))


@pytest.mark.parametrize("change", [
    lambda o: o["events"].insert(3, {"type": "fund", "seat": 99}),  # a bad event
    lambda o: o["events"].insert(2, {"type": "no_such_event"}),  # an unknown type
    lambda o: o["header"].update(game="vestige"),  # the game the header names changes
    lambda o: o["header"].pop("seats"),  # a bad header
    lambda o: o.update(extra_member=1),  # a member the log model refuses
])
def test_what_the_fast_path_refuses_is_read_by_parse_log(change):
    text = (ROOT / "golden" / "mandate2038" / "complete_three_players.json").read_text(
        encoding="utf-8")
    obj = json.loads(text)
    change(obj)
    text2 = json.dumps(obj)
    _same(parse_text(text2), parse_log(json.loads(text2)))


def test_text_that_is_not_json_is_unreadable():
    got = parse_text('{"header": {"game": "mandate2038"}, "events": [')
    assert not got.readable and [f.code for f in got.findings] == ["log/unreadable"]
