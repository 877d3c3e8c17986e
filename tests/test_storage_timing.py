"""Phase and turn times, and the evidence rules."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from engine.core.replay import Outcome
from ingest.evidence import R_ERRORS, duration_evidence, evidence
from ingest.mandate2038.timing import compute_timing
from schemas.findings import Finding
from schemas.mandate2038 import EVENT_ADAPTER, MandateHeader

T0 = dt.datetime(2026, 3, 1, 18, 0)


def _events(spec):
    out = []
    for minute, body in spec:
        body = dict(body)
        if minute is not None:
            body["t"] = T0 + dt.timedelta(minutes=minute)
        out.append(EVENT_ADAPTER.validate_python(body))
    return out


def test_phases_totals_breaks_and_turn_times():
    events = _events([
        (0, {"type": "phase", "name": "setup"}),
        (12, {"type": "phase", "name": "setup_end"}),
        (13, {"type": "era_start", "era": 1}),
        (13, {"type": "headline", "cycle": 1}),
        (14, {"type": "reveal", "selections": [{"seat": 1, "pick": "fund"}, {"seat": 2, "pick": "build"}]}),
        (16, {"type": "fund", "seat": 1}),
        (17.5, {"type": "build", "seat": 2}),
        (20, {"type": "phase", "name": "break"}),
        (30, {"type": "phase", "name": "resume"}),
        (31, {"type": "headline", "cycle": 2}),
        (None, {"type": "fund", "seat": 1}),
        (35, {"type": "allocate", "seat": 1}),
        (38, {"type": "audit", "draws": [1]}),
        (40, {"type": "era_mandate"}),
        (41, {"type": "era_start", "era": 2}),
        (50, {"type": "phase", "name": "final_scoring"}),
        (55, {"type": "phase", "name": "game_end"}),
    ])
    timing = compute_timing(events)
    by = {(p["phase"], p["era"], p["cycle"]): p["minutes"] for p in timing.phases}
    assert by[("setup", None, None)] == 12
    assert by[("era1", 1, None)] == 41 - 13 - 10  # the 10-minute break is left out
    assert by[("cycle", 1, 1)] == 31 - 13 - 10
    assert by[("cycle", 1, 2)] == 35 - 31
    assert by[("production", 1, None)] == 3  # implicit start: the first allocate
    assert by[("audit", 1, None)] == 2
    assert by[("scoring", 1, None)] == 1
    assert by[("era2", 2, None)] == 9
    assert by[("final_scoring", None, None)] == 5
    assert timing.total_minutes == 55 - 10
    assert timing.setup_minutes == 12
    turns = [(r["seat"], r["action"], r["seconds"]) for r in timing.turn_times]
    assert turns == [(1, "fund", 120.0), (2, "build", 90.0)]  # the untimed turn is not reported


def test_untimed_log_has_no_phases_and_no_total():
    events = _events([(None, {"type": "era_start", "era": 1}), (None, {"type": "fund", "seat": 1})])
    timing = compute_timing(events)
    assert timing.phases == [] and timing.total_minutes is None and timing.setup_minutes is None


def _header(**kw):
    base = {"session_type": "facilitated_playtest", "seats": [{"seat": 1, "faction": "a"}, {"seat": 2, "faction": "b"}]}
    base.update(kw)
    return MandateHeader.model_validate(base)


def _result(errors=0, complete=True):
    f = Finding(code="x/y", severity="error", rule="r", message="m")
    return SimpleNamespace(findings=[f] * errors, outcome=Outcome(complete=complete))


def test_evidence_rules():
    assert evidence(_header(), _result()) == (True, [])
    assert evidence(_header(session_type="blind_playtest"), _result())[0]
    for kind in ("simulation", "browser_walkthrough", "developer_walkthrough"):
        counts, reasons = evidence(_header(session_type=kind), _result())
        assert not counts and reasons and all(r.endswith(".") for r in reasons)
    counts, reasons = evidence(_header(provenance={"illustrative": True}), _result())
    assert not counts and "illustrative" in reasons[0]
    for kw, word in (({"profile": "advanced"}, "Advanced"), ({"secret_objectives": True}, "Secret"),
                     ({"tactics": True}, "Tactics")):
        counts, reasons = evidence(_header(**kw), _result())
        assert not counts and word in reasons[0]
    assert evidence(_header(), _result(errors=1)) == (False, [R_ERRORS])
    counts, reasons = evidence(_header(session_type="blind_playtest",
                                       provenance={"generator": "playtest simulate"}), _result())
    assert not counts and "never a playtest" in reasons[0] and "playtest simulate" in reasons[0]
    counts, reasons = evidence(_header(session_type="blind_playtest",
                                       receipt={"facilitator_interventions": ["explained Audit"]}),
                               _result())
    assert not counts and "facilitated" in reasons[0]
    assert evidence(_header(receipt={"facilitator_interventions": ["x"]}), _result())[0]
    assert not evidence(_header(), _result(complete=False))[0]


def test_duration_evidence_needs_human_session_and_times():
    assert duration_evidence(_header(), 92.5) == (True, [])
    assert not duration_evidence(_header(), None)[0]
    assert not duration_evidence(_header(session_type="simulation"), 90)[0]
    assert not duration_evidence(_header(tactics=True), 90)[0]
