"""Vestige notation and sheet: exact round trip on generated logs, located errors, fuzz.

Logs are generated from the pydantic models of ``schemas/vestige/log.py`` (the Mandate strategies'
builder walks any model), so every event type and field, and text that stresses quoting, is
covered; a schema change is picked up without editing this file.
"""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path
from typing import Any

import annotated_types
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from test_formats_strategies import TEXT, for_type

from ingest.formats._common import LoadedLog
from ingest.vestige.notation import (
    POSITIONAL,
    loads_vestige_notation,
    parse_vestige_text,
    read_vestige_notation,
    write_vestige_notation,
)
from ingest.vestige.sheet import (
    loads_vestige_sheet,
    parse_vestige_sheet,
    read_vestige_sheet,
    write_vestige_sheet,
)
from schemas.vestige import EVENT_MODELS, VestigeHeader, VestigeLog

SETTINGS = settings(max_examples=100, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_MISSING = object()
_SURROGATES = re.compile("[\ud800-\udfff]")


def _for(tp: Any, meta: list[Any]) -> st.SearchStrategy[Any]:
    """``for_type`` of the Mandate strategies, recursing here so that string length bounds
    (``min_length``) and Vestige's nested models are honoured."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        base, *extra = typing.get_args(tp)
        return _for(base, meta + extra)
    meta = [x for m in meta for x in (m.metadata if isinstance(m, FieldInfo) else [m])]
    if tp is str and any(isinstance(m, annotated_types.MinLen) for m in meta):
        return TEXT.filter(lambda s: bool(s) and not _SURROGATES.search(s))
    if origin in (typing.Union, types.UnionType):
        return st.one_of([_for(a, meta) for a in typing.get_args(tp)])
    if origin is list:
        (item,) = typing.get_args(tp)
        lo = next((m.min_length for m in meta if isinstance(m, annotated_types.MinLen)), 0)
        hi = next((m.max_length for m in meta if isinstance(m, annotated_types.MaxLen)), lo + 3)
        return st.lists(_for(item, []), min_size=lo, max_size=min(hi, lo + 3))
    if origin is dict:
        k, v = typing.get_args(tp)
        return st.dictionaries(_for(k, []), _for(v, []), max_size=3)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _models(tp)
    return for_type(tp, meta)


def _models(model: type[BaseModel]) -> st.SearchStrategy[Any]:
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for name, f in model.model_fields.items():
        s = _for(f.annotation, list(f.metadata))
        parts[name] = s if f.is_required() else st.one_of(st.just(_MISSING), s)
    return st.fixed_dictionaries(parts).map(
        lambda d: model.model_validate({k: v for k, v in d.items() if v is not _MISSING}))


EVENTS = st.one_of([_models(m) for m in EVENT_MODELS])
HEADERS = _models(VestigeHeader)


@st.composite
def vestige_logs(draw: st.DrawFn, max_events: int = 10) -> VestigeLog:
    return VestigeLog(header=draw(HEADERS), events=draw(st.lists(EVENTS, max_size=max_events)))


def test_every_event_type_has_a_verb() -> None:
    kinds = {str(m.model_fields["type"].default) for m in EVENT_MODELS}
    for kind, names in POSITIONAL.items():
        assert kind in kinds, kind
        model = next(m for m in EVENT_MODELS if m.model_fields["type"].default == kind)
        assert set(names) <= set(model.model_fields), (kind, names)


@SETTINGS
@given(vestige_logs())
def test_notation_round_trip(log: VestigeLog) -> None:
    text = write_vestige_notation(log)
    assert loads_vestige_notation(text) == log, text


@SETTINGS
@given(vestige_logs())
def test_sheet_round_trip(log: VestigeLog) -> None:
    text = write_vestige_sheet(log)
    assert loads_vestige_sheet(text) == log, text


GOOD = """# a Vestige game
[game vestige]
[session_type facilitated_playtest]
[date 2026-11-30]
[seat 1 blue "Ana"]
[seat 2 green]
round_start 1 @19:05
1 move 12,13 {first}
1 visit I2 garage spend=might,might,might
"""


def test_notation_reads_a_typed_game() -> None:
    obj, header_line, lines, problems = parse_vestige_text(GOOD, "g.vst")
    assert not problems.findings
    assert header_line == 2 and lines == [7, 8, 9]
    log = VestigeLog.model_validate(obj)
    assert log.events[1].path == [12, 13] and log.events[1].comment == "first"  # type: ignore[union-attr]
    assert log.events[0].t is not None and log.events[0].t.hour == 19


def test_bad_lines_are_located_and_the_rest_is_read() -> None:
    bad = GOOD + "1 moove 3,4\n2 move 3,x\n1 visit I2 garage gain=might times=lots\n2 move 5,6\n"
    obj, _, lines, problems = parse_vestige_text(bad, "g.vst")
    msgs = [f.message for f in problems.findings]
    assert len(msgs) == 3, msgs
    assert msgs[0].startswith("g.vst:10:3:") and "unknown event type 'moove'" in msgs[0]
    assert msgs[1].startswith("g.vst:11:") and "whole number" in msgs[1]
    assert msgs[2].startswith("g.vst:12:") and "whole number" in msgs[2]
    assert lines[-1] == 13 and obj["events"][-1]["path"] == [5, 6]


def test_sheet_errors_name_line_and_column() -> None:
    text = ("game,vestige\nsession_type,simulation\nseat,1,blue\n"
            "time,round,seat,event,args,comment\n,,,round_start,1,\n,2,1,move,\"3,4\",\n"
            ",,1,teleport,,\n")
    _, _, lines, problems = parse_vestige_sheet(text, "g.csv")
    msgs = [f.message for f in problems.findings]
    assert msgs[0].startswith("g.csv:6:2:") and "says round 2" in msgs[0] and "round 1" in msgs[0]
    assert msgs[1].startswith("g.csv:7:4:") and "unknown event type" in msgs[1]
    assert lines == [5, 6]  # the row of another round is reported and kept (issue 21)


def _check(out: LoadedLog, name: str) -> None:
    assert isinstance(out, LoadedLog)
    assert isinstance(out.raw, bytes)
    if out.unreadable is not None:
        assert any(f.code == "log/unreadable" for f in out.parsed.findings)
    for f in out.parsed.findings:
        assert f.message.startswith(name), f.message


FUZZ = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
WORDS = st.sampled_from([
    "1", "2", "-1", "move", "visit", "round_start", "card", "(", ")", "[", "]", "=", ",", ";",
    "~", "-", "@19:00", "@x", "{c}", "{", "}", '"', '"a b"', "path=", "printed=(kind=", "[game",
    "[seat", "vestige]", "]", "\t", "é", "\x00", "\ud800", "gain=might,,", "(a=1;b=(c=[1,2]))",
    "time,round,seat,event,args,comment", ",,1,move,\"3,4\"", "#", "\r",
])
LINES = st.lists(st.lists(WORDS, max_size=8).map(" ".join), max_size=8).map("\n".join)


@FUZZ
@given(st.binary(max_size=300))
def test_fuzzed_bytes_never_raise(data: bytes) -> None:
    _check(read_vestige_notation(data, "f.vst"), "f.vst")
    _check(read_vestige_sheet(data, "f.csv"), "f.csv")


@FUZZ
@given(LINES)
def test_fuzzed_token_soup_never_raises(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    _check(read_vestige_notation(data, "f.vst"), "f.vst")
    _check(read_vestige_sheet(data, "f.csv"), "f.csv")


@FUZZ
@given(vestige_logs(max_events=4), st.data())
def test_mutated_valid_files_never_raise(log: VestigeLog, data: st.DataObject) -> None:
    for text, reader, name in ((write_vestige_notation(log), read_vestige_notation, "m.vst"),
                               (write_vestige_sheet(log), read_vestige_sheet, "m.csv")):
        raw = bytearray(text.encode("utf-8", "surrogatepass"))
        for _ in range(data.draw(st.integers(1, 4))):
            if not raw:
                break
            i = data.draw(st.integers(0, len(raw) - 1))
            op = data.draw(st.sampled_from(["flip", "cut", "dup"]))
            if op == "flip":
                raw[i] = data.draw(st.integers(0, 255))
            elif op == "cut":
                del raw[i : i + data.draw(st.integers(1, 20))]
            else:
                raw[i:i] = raw[i : i + data.draw(st.integers(1, 20))]
        _check(typing.cast(typing.Any, reader)(bytes(raw), name), name)


SAMPLES = sorted((Path(__file__).resolve().parent.parent / "data" / "samples" / "vestige")
                 .glob("walkthrough-*"))


def test_samples_exist_for_two_three_and_four_players() -> None:
    assert {p.name.split("-")[1][0] for p in SAMPLES} == {"2", "3", "4"}
    assert any(p.name == "walkthrough-2p-bone.vst" for p in SAMPLES)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_replays_clean_and_round_trips(path: Path) -> None:
    import engine.vestige  # noqa: F401 - registers the ruleset
    from engine.core.replay import replay
    from ingest.formats import read_path, write_log

    (loaded,) = read_path(path)
    assert loaded.unreadable is None and not loaded.findings, loaded.findings[:3]
    log = VestigeLog(header=loaded.parsed.header, events=loaded.parsed.events)
    assert log.header.provenance.illustrative and log.header.session_type != "simulation"
    result = replay(log.header, log.events)
    assert result.status == "clean" and not result.findings
    assert result.outcome is not None and result.outcome.complete
    assert loads_vestige_notation(write_log(log, "notation")) == log
    assert loads_vestige_sheet(write_log(log, "csv")) == log


def test_simulated_games_round_trip_through_notation_and_sheet() -> None:
    from engine.vestige.simulate import simulate

    for log in simulate(12, [2, 3, 4], "formats"):
        assert loads_vestige_notation(write_vestige_notation(log)) == log
        assert loads_vestige_sheet(write_vestige_sheet(log)) == log


def test_walkthrough_composer_writes_clean_illustrative_samples() -> None:
    """``python -m tests.regen_samples vestige`` recomposes the bundled samples after a rules
    change: labelled illustrative, replaying clean, Bone's sample won by Bone."""
    from engine.core.replay import replay
    from tests.vestige_walkthroughs import SPECS, compose

    spec = next(s for s in SPECS if s.nemesis == "bone")
    log = compose(spec)
    assert log.header.provenance.illustrative and log.header.session_type == "developer_walkthrough"
    r = replay(log.header, log.events)
    assert not r.findings and r.outcome is not None and r.outcome.details["winners"] == ["bone"]
