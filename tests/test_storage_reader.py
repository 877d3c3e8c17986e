"""The JSON reader's fast path for the canonical layout gives exactly what the general
position-recording path gives: same log object, same line per event, same findings."""

from __future__ import annotations

from pathlib import Path

import pytest

import ingest.formats.jsonlog as jsonlog
from ingest.formats.jsonlog import read_json
from ingest.mandate2038.synthetic import synthetic_log
from schemas.canonical import dumps_log

ROOT = Path(__file__).resolve().parents[1]


def _general(data: bytes, source: str, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as m:
        m.setattr(jsonlog, "_read_canonical", lambda _data, _source: None)
        return read_json(data, source)


def _same(a, b) -> None:
    assert a.unreadable == b.unreadable
    assert a.raw == b.raw and a.format == b.format and a.source == b.source
    pa, pb = a.parsed, b.parsed
    assert pa.header == pb.header
    assert pa.events == pb.events
    assert pa.lines == pb.lines
    assert pa.indices == pb.indices
    assert pa.raw_event_count == pb.raw_event_count
    assert [(f.code, f.message, f.where.line, f.where.event) for f in pa.findings] == [
        (f.code, f.message, f.where.line, f.where.event) for f in pb.findings
    ]


def _cases() -> list[tuple[str, bytes]]:
    cases = [(str(p), p.read_bytes())
             for p in sorted((ROOT / "data" / "samples" / "simulated").glob("*.json"))]
    for seed in range(8):
        cases.append((f"synthetic-{seed}", dumps_log(synthetic_log(seed, events_target=80)).encode()))
    good = cases[-1][1]
    lines = good.decode().split("\n")
    bad_event = lines.copy()
    bad_event[6] = '{"type": "no_such_event", "seat": 1},'
    invalid_event = lines.copy()
    invalid_event[7] = '{"type": "era_start", "era": 9},'
    broken_json = lines.copy()
    broken_json[8] = '{"type": "phase", "name": },'
    split_event = lines.copy()
    split_event[5:6] = [lines[5][:20], lines[5][20:]]
    cases += [
        ("unknown-event", "\n".join(bad_event).encode()),
        ("invalid-event", "\n".join(invalid_event).encode()),
        ("broken-json", "\n".join(broken_json).encode()),  # unreadable, with line and column
        ("split-event", "\n".join(split_event).encode()),  # not the canonical layout
        ("crlf", good.replace(b"\n", b"\r\n")),
        ("bom", b"\xef\xbb\xbf" + good),
        ("trailing-blank-lines", good + b"\n\n"),
        ("no-final-newline", good.rstrip(b"\n")),
        ("no-events", b'{"format": "playtest-log", "format_version": 1,\n' + lines[1].encode()
         + b'\n"events": [\n]}\n'),
        ("events-not-a-list", b'{"format": "playtest-log", "format_version": 1,\n'
         + lines[1].encode() + b'\n"events": [\n3\n]}\n'),
        ("header-not-object", b'{"format": "playtest-log", "format_version": 1,\n"header": 5,\n'
         b'"events": [\n]}\n'),
        ("missing-comma", "\n".join([*lines[:4], lines[4].rstrip(","), *lines[5:]]).encode()),
        ("bad-utf8", good.replace(b"setup", b"set\xffup", 1)),
        ("two-events-one-line", "\n".join([*lines[:4], lines[4] + " " + lines[5], *lines[6:]])
         .encode()),
    ]
    return cases


def test_fast_path_agrees_with_the_general_reader(monkeypatch):
    fast_used = 0
    for source, data in _cases():
        if jsonlog._read_canonical(data, source) is not None:
            fast_used += 1
        _same(read_json(data, source), _general(data, source, monkeypatch))
    assert fast_used >= 40  # the samples and synthetic logs take the fast path


def test_fast_path_lines_are_one_event_per_line_from_line_4():
    data = dumps_log(synthetic_log(5, events_target=60)).encode()
    loaded = read_json(data, "x.json")
    assert not loaded.findings
    assert loaded.parsed.lines == list(range(4, 4 + len(loaded.parsed.events)))
    # an unknown event keeps its own line in the finding, and the others keep theirs
    lines = data.decode().split("\n")
    lines[10] = '{"type": "bogus"},'
    loaded = read_json("\n".join(lines).encode(), "y.json")
    assert [f.where.line for f in loaded.findings] == [11]
    assert 11 not in loaded.parsed.lines and loaded.parsed.lines[7] == 12
