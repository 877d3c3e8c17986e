"""Fuzz: arbitrary or mutated input fed to every reader never raises and always returns
LoadedLogs; unreadable input says why."""

from __future__ import annotations

import io
import json
import zipfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_formats_strategies import logs

from ingest.formats import LoadedLog, read_bytes, write_log

FUZZ = settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["g.json", "g.m38", "g.txt", "g.csv", "g.zip", "upload", "g.JSON"]


def _check(out: list[LoadedLog], name: str) -> None:
    assert isinstance(out, list) and out
    for loaded in out:
        assert isinstance(loaded, LoadedLog)
        assert loaded.source.startswith(name)
        assert loaded.format in ("json", "notation", "csv", "session-folder")
        assert isinstance(loaded.raw, bytes)
        if loaded.unreadable is not None:
            assert any(f.code == "log/unreadable" for f in loaded.parsed.findings)
            assert loaded.parsed.header is None
        for f in loaded.parsed.findings:
            assert f.message.startswith(name), f.message


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(NAMES))
def test_arbitrary_bytes(data: bytes, name: str) -> None:
    _check(read_bytes(data, name), name)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["header", "events", "type", "seat", "seats", "game", "session_type", "x"]),
        inner, max_size=5),
    max_leaves=25,
)


@FUZZ
@given(JSON)
def test_arbitrary_json(value: object) -> None:
    data = json.dumps(value).encode()
    _check(read_bytes(data, "g.json"), "g.json")
    wrapped = {"header": {"session_type": "simulation", "seats": [{"seat": 1, "faction": "x"}]},
               "events": [value]}
    _check(read_bytes(json.dumps(wrapped).encode(), "g.json"), "g.json")


LINE_WORDS = st.sampled_from([
    "1", "2", "9", "fund", "research", "draw", "bank", "== Era", "-- Cycle", "-- Production",
    "[Seat", "[Date", "]", "reveal", "1:build", "audit", "black", "checkpoint", "1:m3,x", "!",
    "?", "@19:42", "@99:99", "{", "}", "\"", "=", "f1", "F-I1", "I9", "+frontier", "mode=x",
    "window", "1:2:accept:3:yes", "dossier_reveal", "1:CHXC", "final", "offline=1:x", ",", "\t",
])
TEXT_LINES = st.lists(st.lists(LINE_WORDS | st.text(max_size=5), max_size=6).map(" ".join), max_size=12).map("\n".join)


@FUZZ
@given(TEXT_LINES)
def test_arbitrary_notation_text(text: str) -> None:
    head = '[Session simulation]\n[Date 2026-11-29]\n[Seat 1 loopfold]\n'
    for data in (text.encode(), (head + text).encode()):
        _check(read_bytes(data, "g.m38"), "g.m38")


@FUZZ
@given(st.lists(st.lists(LINE_WORDS | st.text(max_size=5), max_size=11), max_size=10))
def test_arbitrary_csv_rows(rows: list[list[str]]) -> None:
    import csv

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["Session", "simulation"])
    w.writerow(["Seat", "1", "loopfold"])
    w.writerow(["time", "era", "cycle", "seat", "event", "what", "piece", "path", "details", "text", "comment"])
    w.writerows(rows)
    _check(read_bytes(buf.getvalue().encode(), "g.csv"), "g.csv")


@st.composite
def mutated(draw: st.DrawFn) -> tuple[bytes, str]:
    log = draw(logs(max_events=8))
    fmt, name = draw(st.sampled_from([("json", "m.json"), ("notation", "m.m38"), ("csv", "m.csv")]))
    data = bytearray(write_log(log, fmt).encode())
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(["delete", "insert", "replace", "truncate", "duplicate"]))
        if op == "delete":
            del data[i]
        elif op == "insert":
            data.insert(i, draw(st.sampled_from(b'{}[]",:=@\n\r\\ 0a\xff')))
        elif op == "replace":
            data[i] = draw(st.integers(0, 255))
        elif op == "truncate":
            del data[i:]
        else:
            j = draw(st.integers(i, min(len(data), i + 40)))
            data[i:i] = data[i:j]
    return bytes(data), name


@FUZZ
@given(mutated())
def test_mutated_valid_files(case: tuple[bytes, str]) -> None:
    data, name = case
    _check(read_bytes(data, name), name)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["receipt.json", "scores.json", "notes.md", "x/receipt.json",
                                        "a.m38", "b.json"]),
                       st.binary(max_size=80) | JSON.map(lambda v: json.dumps(v).encode()), max_size=4))
def test_arbitrary_zip(members: dict[str, bytes]) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for k, v in members.items():
            zf.writestr(k, v)
    _check(read_bytes(buf.getvalue(), "s.zip"), "s.zip")


def test_unhashable_event_type_is_a_finding_not_a_crash() -> None:
    doc = {"header": {"session_type": "simulation", "seats": [{"seat": 1, "faction": "loopfold"}]},
           "events": [{"type": []}, {"type": "era_start", "era": 1}]}
    (loaded,) = read_bytes(json.dumps(doc).encode(), "u.json")
    assert loaded.parsed.findings
    assert all(f.message.startswith("u.json") for f in loaded.parsed.findings)


def test_deep_nesting_is_unreadable() -> None:
    (loaded,) = read_bytes(b"[" * 100000 + b"]" * 100000, "deep.json")
    assert loaded.unreadable is not None
