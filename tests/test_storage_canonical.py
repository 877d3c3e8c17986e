"""The fast ``schemas.canonical.dumps_log`` gives byte for byte the text of the reference
implementation (json.dumps per line), on many logs: game ids are the sha256 of that text."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from ingest.formats import read_path
from ingest.mandate2038.synthetic import synthetic_log
from schemas.canonical import dump_event, dump_header, dump_log, dumps_log
from schemas.mandate2038 import MandateLog

ROOT = Path(__file__).resolve().parents[1]


def reference_dumps_log(log: BaseModel) -> str:
    """The canonical text as first implemented (kept here verbatim as the reference)."""

    def _j(obj: Any) -> str:
        return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))

    d = dump_log(log)
    lines = ['{"format": "playtest-log", "format_version": 1,', f'"header": {_j(d["header"])},',
             '"events": [']
    evs = d["events"]
    for i, e in enumerate(evs):
        lines.append(_j(e) + ("," if i < len(evs) - 1 else ""))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def _sample_logs() -> list[tuple[str, BaseModel]]:
    """Every bundled sample and golden log that reads with a header."""
    paths = sorted((ROOT / "data" / "samples").rglob("*"))
    paths += sorted((ROOT / "tests" / "golden").rglob("*.json"))
    out = []
    for p in paths:
        if not p.is_file() or p.suffix.lower() not in (".json", ".m38", ".csv"):
            continue
        for loaded in read_path(p):
            parsed = loaded.parsed
            if parsed.header is not None and parsed.ruleset is not None:
                log = parsed.ruleset.log_model.model_construct(header=parsed.header,
                                                               events=list(parsed.events))
                out.append((loaded.source, log))
    session = ROOT / "data" / "samples" / "session-folder"
    for loaded in read_path(session):
        if loaded.parsed.header is not None:
            out.append((loaded.source, MandateLog.model_construct(
                header=loaded.parsed.header, events=list(loaded.parsed.events))))
    return out


def test_bundled_samples_and_golden_logs_dump_identically():
    logs = _sample_logs()
    assert len(logs) >= 40, f"expected the bundled samples and golden logs, found {len(logs)}"
    for source, log in logs:
        assert dumps_log(log) == reference_dumps_log(log), source


@pytest.mark.parametrize("players", [3, 4, 5])
def test_synthetic_logs_dump_identically(players):
    for seed in range(25):
        log = synthetic_log(seed * 7 + players, players=players, events_target=120 + 10 * seed,
                            timed=seed % 3 != 0)
        assert dumps_log(log) == reference_dumps_log(log), seed


def test_empty_event_list_and_single_event():
    base = synthetic_log(1, events_target=40)
    for events in ([], base.events[:1], base.events[:2]):
        log = MandateLog.model_construct(header=base.header, events=list(events))
        assert dumps_log(log) == reference_dumps_log(log)
    assert dumps_log(MandateLog.model_construct(header=base.header, events=[])).endswith(
        '"events": [\n]}\n')


_TEXT = st.text(min_size=0, max_size=30)  # any Unicode except surrogates: quotes, controls, emoji
_FLOATS = st.floats(min_value=0, max_value=1e300, allow_nan=False, allow_infinity=False)


@settings(max_examples=150, deadline=None)
@given(
    venue=_TEXT, player=_TEXT, obs=_TEXT, minutes=st.none() | _FLOATS,
    value=st.one_of(_TEXT, st.integers(-(10**18), 10**18), _FLOATS, st.booleans()),
    when=st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2100, 1, 1)),
)
def test_free_text_numbers_and_times_dump_identically(venue, player, obs, minutes, value, when):
    base = synthetic_log(3, players=3, events_target=40)
    header = base.header.model_copy(update={"venue": venue})
    header.seats[0] = header.seats[0].model_copy(update={"player": player})
    raw: list[dict[str, Any]] = [
        {"type": "phase", "name": "setup", "t": when.isoformat()},
        {"type": "observation", "category": "rules_question", "text": obs, "minutes": minutes},
        {"type": "survey", "item": "fun", "seat": 1, "value": value},
    ]
    log = MandateLog.model_validate({"header": header.model_dump(), "events": raw})
    assert dumps_log(log) == reference_dumps_log(log)
    # The pieces the live-entry code uses stay what they were.
    assert [dump_event(e) for e in log.events] == dump_log(log)["events"]
    assert dump_header(log.header) == dump_log(log)["header"]
