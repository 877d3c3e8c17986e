"""The Mandate 2038 observation protocol: loads, validates, and scores capture completeness of
small hand-built canonical logs (everything captured, nothing captured, part captured)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from schemas import packs
from schemas.mandate2038 import MandateLog
from schemas.packs import PackError, available_protocol_versions, load_protocol
from schemas.protocol import (
    AllCheck,
    AnyCheck,
    Protocol,
    capture_completeness,
    completeness_by_group,
    completeness_share,
    protocol_problems,
)

PID = "mandate2038-observation"
T0 = dt.datetime(2026, 11, 1, 18, 0, tzinfo=dt.UTC)
TURNS = ("fund", "research", "build", "organize", "deploy", "influence")


@pytest.fixture(scope="module")
def protocol() -> Protocol:
    return load_protocol(PID, 1)


def header(**extra: Any) -> dict[str, Any]:
    return {
        "game": "mandate2038",
        "rules_version": "0.8.0-rc.17-test",
        "session_type": "facilitated_playtest",
        "seats": [{"seat": 1, "faction": "mirevanta"}, {"seat": 2, "faction": "kestralyn"}],
        **extra,
    }


class Clock:
    """Hands out increasing event times."""

    def __init__(self) -> None:
        self.minutes = 0

    def __call__(self) -> str:
        self.minutes += 1
        return (T0 + dt.timedelta(minutes=self.minutes)).isoformat()


def full_log() -> MandateLog:
    """A short but completely captured two-player session (one Era, one cycle)."""
    t = Clock()
    seats = (1, 2)
    events: list[dict[str, Any]] = [
        {"type": "phase", "name": "setup", "t": t()},
        {"type": "phase", "name": "setup_end", "t": t()},
        {"type": "era_start", "era": 1, "mandate": "quarter_humanity_notices", "t": t()},
        {"type": "headline", "cycle": 1, "headline": "open_weights_drop", "t": t()},
        {
            "type": "reveal",
            "selections": [{"seat": 1, "pick": "research"}, {"seat": 2, "pick": "fund"}],
            "t": t(),
        },
        {"type": "trade", "seat": 1, "rival": 2, "give": "runway", "accepted": True, "t": t()},
        {"type": "research", "seat": 1, "path": ["F", "I1"], "t": t()},
        {"type": "draw", "seat": 1, "card": "code"},
        {"type": "run_end", "seat": 1, "outcome": "bank", "banked": 1},
        {"type": "fund", "seat": 2, "path": ["F"], "t": t()},
        {"type": "phase", "name": "production", "t": t()},
        *({"type": "allocate", "seat": s, "facilities": []} for s in seats),
        {"type": "phase", "name": "dossier", "t": t()},
        *({"type": "dossier", "seat": s} for s in seats),
        {"type": "phase", "name": "audit", "t": t()},
        {"type": "audit", "draws": [1]},
        {"type": "phase", "name": "scoring", "t": t()},
        {"type": "era_mandate", "scorers": [1]},
        {"type": "checkpoint", "label": "end of Era I", "seats": [{"seat": s} for s in seats]},
        {
            "type": "dossier_reveal",
            "hands": [
                {
                    "seat": s,
                    "benchmark": "hedge",
                    "deployment": "hedge",
                    "authority": "hedge",
                    "publication": "hedge",
                }
                for s in seats
            ],
        },
        {"type": "phase", "name": "final_scoring", "t": t()},
        {"type": "final_record", "ending": "assured_continuity"},
        {"type": "phase", "name": "game_end", "t": t()},
    ]
    for category in (
        "intervention",
        "rules_lookup",
        "unresolved_question",
        "politics",
        "surprise",
        "confusion",
        "strategy",
    ):
        events.append({"type": "observation", "category": category, "text": "none noted"})
    answers: dict[str, Any] = {
        "fairness": 4,
        "excitement": 5,
        "regret": 2,
        "betrayal": 1,
        "fun": 5,
        "could_explain_winner": "yes",
        "signature_moment": "the Era I crash",
        "institution_good_at": "research",
    }
    for item, value in answers.items():
        events += [{"type": "survey", "item": item, "value": value, "seat": s} for s in seats]
    receipt = {
        "rules_version": "0.8.0-rc.17-test",
        "ruleset_fingerprint": "sha256:" + "0" * 64,
        "component_revision": "kit-3",
        "mixed_revisions": False,
        "board_seed": "frontier-playtest",
        "rules_deviations": ["none"],
    }
    return MandateLog.model_validate(
        {
            "header": header(receipt=receipt, first_initiative=1, date="2026-11-01"),
            "events": events,
        }
    )


def results(protocol: Protocol, log: MandateLog) -> dict[str, tuple[bool, str]]:
    return {r.item_id: (r.captured, r.reason) for r in capture_completeness(protocol, log)}


# --- the protocol data -----------------------------------------------------------------------


def test_protocol_loads(protocol: Protocol) -> None:
    assert protocol.id == PID and protocol.version == 1 and protocol.game == "mandate2038"
    assert protocol.reference == f"{PID}@1"
    assert load_protocol(PID) is protocol  # latest version
    assert load_protocol(f"{PID}@1") is protocol  # the header's id@version form
    assert available_protocol_versions(PID) == [1]
    wanted = {
        "rules_lookup",
        "intervention",
        "deviation",
        "unresolved_question",
        "timing",
        "negotiation",
        "politics",
        "research",
        "infrastructure",
        "dossier",
        "audit",
        "surprise",
        "confusion",
        "friction",
        "identity",
        "timeline",
        "strategy",
        "other",
    }
    assert wanted <= {c.id for c in protocol.categories}
    assert all(c.description and (c.source.ref or c.source.seed) for c in protocol.categories)
    assert all(i.source.ref or i.source.seed for i in protocol.checklist)
    survey = {s.id: s for s in protocol.survey}
    assert set(survey) == {
        "fairness",
        "excitement",
        "regret",
        "betrayal",
        "fun",
        "could_explain_winner",
        "signature_moment",
        "institution_good_at",
    }
    for sid in ("fairness", "excitement", "regret", "betrayal", "fun"):
        assert (survey[sid].answer, survey[sid].minimum, survey[sid].maximum) == ("scale", 1, 5)
    assert survey["could_explain_winner"].answer == "yes_no"
    assert survey["signature_moment"].answer == "text" and survey["signature_moment"].per_seat


def test_every_survey_item_and_key_category_is_checked(protocol: Protocol) -> None:
    def leaves(check: Any) -> list[Any]:
        if isinstance(check, AllCheck | AnyCheck):
            return [x for c in check.checks for x in leaves(c)]
        return [check]

    checked = [leaf for item in protocol.checklist for leaf in leaves(item.check)]
    surveyed = {c.item for c in checked if c.kind == "survey"}
    assert surveyed == {s.id for s in protocol.survey}
    observed = {c.category for c in checked if c.kind == "observation"}
    assert {"rules_lookup", "intervention", "deviation", "unresolved_question"} <= observed
    kinds = {c.kind for c in checked}
    assert {"header", "event", "event_time", "events", "observation", "survey"} <= kinds


def test_missing_and_bad_protocols(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(FileNotFoundError, match=r"v7\.json does not exist \(available: 1\)"):
        load_protocol(PID, 7)
    with pytest.raises(FileNotFoundError, match="no observation protocol 'nope'"):
        load_protocol("nope")
    with pytest.raises(PackError, match="version given twice"):
        load_protocol(f"{PID}@1", 2)
    folder = tmp_path / "protocols" / "broken"
    folder.mkdir(parents=True)
    good = json.loads(packs.protocol_dir(PID).joinpath("v1.json").read_text("utf-8"))
    good["id"] = "broken"
    good["checklist"][0]["check"] = {"kind": "observation", "category": "no_such_category"}
    (folder / "v1.json").write_text(json.dumps(good), "utf-8")
    monkeypatch.setenv(packs.DATA_ENV, str(tmp_path))
    packs.clear_cache()
    try:
        with pytest.raises(PackError, match="unknown category 'no_such_category'"):
            load_protocol("broken")
    finally:
        monkeypatch.delenv(packs.DATA_ENV)
        packs.clear_cache()


def test_survey_answer_validation(protocol: Protocol) -> None:
    fairness = protocol.survey_item("fairness")
    explain = protocol.survey_item("could_explain_winner")
    moment = protocol.survey_item("signature_moment")
    assert fairness is not None and explain is not None and moment is not None
    assert fairness.problem(3) is None
    assert "outside 1-5" in (fairness.problem(6) or "")
    assert "whole number" in (fairness.problem(2.5) or "")
    assert fairness.problem(True) is not None and fairness.problem("4") is not None
    assert explain.problem("Yes") is None and explain.problem(False) is None
    assert explain.problem("maybe") is not None
    assert moment.problem("the betrayal in Era III") is None and moment.problem("  ") is not None


# --- capture completeness --------------------------------------------------------------------


def test_all_captured(protocol: Protocol) -> None:
    res = results(protocol, full_log())
    missing = {k: reason for k, (ok, reason) in res.items() if not ok}
    assert missing == {}
    assert list(res) == [i.id for i in protocol.checklist]
    assert res["cycle_duration"][1] == "all 1 headline event(s) timed"
    assert completeness_share(capture_completeness(protocol, full_log())) == 1.0


def test_none_captured(protocol: Protocol) -> None:
    bare = MandateLog.model_validate({"header": header(), "events": []})
    out = capture_completeness(protocol, bare)
    assert [r.item_id for r in out] == [i.id for i in protocol.checklist]
    assert not any(r.captured for r in out)
    assert all(r.reason for r in out)
    res = {r.item_id: r.reason for r in out}
    assert res["rules_version"] == "header receipt.rules_version not recorded"
    assert res["selections"] == "no reveal event"
    assert res["survey_fairness"] == "survey fairness not answered"
    assert completeness_share(out) == 0.0


def test_partly_captured(protocol: Protocol) -> None:
    """Drop some times, one seat's survey answers and the rules lookups: exactly those fail."""
    log = full_log()
    events = []
    for e in log.events:
        if e.type == "headline":
            e = e.model_copy(update={"t": None})
        if e.type == "survey" and e.seat == 2 and e.item == "fun":
            continue
        if e.type == "observation" and e.category == "rules_lookup":
            continue
        events.append(e)
    partial = log.model_copy(update={"events": events})
    res = results(protocol, partial)
    failed = {k for k, (ok, _) in res.items() if not ok}
    assert failed == {"cycle_duration", "survey_fun", "rules_lookups"}
    assert res["cycle_duration"][1] == "1 of 1 headline event(s) have no time"
    assert res["survey_fun"][1] == "survey fun not answered by seat(s) 2"
    assert res["rules_lookups"][1] == "no rules_lookup observation"
    groups = completeness_by_group(protocol, capture_completeness(protocol, partial))
    assert groups["timing"] == (7, 8) and groups["conduct"] == (3, 4)
    assert groups["survey"] == (7, 8) and groups["identity"] == (6, 6)
    assert sum(t for _, t in groups.values()) == len(protocol.checklist)


def test_alternatives_and_per_era_counts(protocol: Protocol) -> None:
    log = full_log()
    # the receipt's deviations list and a deviation observation are alternatives
    no_receipt_list = log.model_copy(
        update={
            "header": log.header.model_copy(
                update={
                    "receipt": log.header.receipt.model_copy(update={"rules_deviations": []})  # type: ignore[union-attr]
                }
            )
        }
    )
    assert results(protocol, no_receipt_list)["deviations"][0] is False
    with_obs = no_receipt_list.model_copy(
        update={
            "events": [
                *no_receipt_list.events,
                *MandateLog.model_validate(
                    {
                        "header": header(),
                        "events": [{"type": "observation", "category": "deviation", "text": "x"}],
                    }
                ).events,
            ]
        }
    )
    assert results(protocol, with_obs)["deviations"][0] is True
    # a second Era without its own Audit: the per-Era count is short
    era2 = MandateLog.model_validate(
        {"header": header(), "events": [{"type": "era_start", "era": 2}]}
    ).events
    two_eras = log.model_copy(update={"events": [*log.events, *era2]})
    ok, reason = results(protocol, two_eras)["audits"]
    assert not ok and reason == "no audit event for Era 2 (1 of 2 missing)"
    ok, reason = results(protocol, two_eras)["dossiers"]
    assert not ok and reason == "no dossier event for seat 1 Era 2, seat 2 Era 2 (2 of 4 missing)"
    ok, reason = results(protocol, two_eras)["era_mandates"]
    assert not ok and "lack mandate" in reason


def test_turn_without_path_breaks_movement(protocol: Protocol) -> None:
    log = full_log()
    events = [
        e.model_copy(update={"path": []}) if e.type in TURNS and e.seat == 2 else e  # type: ignore[union-attr]
        for e in log.events
    ]
    ok, reason = results(protocol, log.model_copy(update={"events": events}))["movement"]
    assert not ok and reason == "1 of 2 turn event(s) lack path"


def test_per_cycle_counts_each_cycle(protocol: Protocol) -> None:
    """Two reveals in one cycle do not make up for a cycle without one."""
    t = Clock()
    events = [
        {"type": "era_start", "era": 1, "t": t()},
        {"type": "headline", "cycle": 1, "t": t()},
        {"type": "reveal", "selections": [{"seat": 1, "pick": "fund"}]},
        {"type": "reveal", "selections": [{"seat": 2, "pick": "fund"}]},
        {"type": "headline", "cycle": 2, "t": t()},
    ]
    log = MandateLog.model_validate({"header": header(), "events": events})
    ok, reason = results(protocol, log)["selections"]
    assert not ok and reason == "no reveal event for Era 1 cycle 2 (1 of 2 missing)"
    events.append({"type": "reveal", "selections": [{"seat": 1, "pick": "build"}]})
    log = MandateLog.model_validate({"header": header(), "events": events})
    assert results(protocol, log)["selections"] == (True, "reveal recorded for every cycle (2)")


def test_protocol_problems(protocol: Protocol) -> None:
    assert protocol_problems(protocol, full_log()) == []
    events = [
        {"type": "observation", "category": "gossip", "text": "x"},
        {"type": "survey", "item": "fun", "value": 9, "seat": 1},
        {"type": "survey", "item": "fun", "value": 3, "seat": 1},
        {"type": "survey", "item": "fairness", "value": 3},
        {"type": "survey", "item": "fairness", "value": 3, "seat": 5},
        {"type": "survey", "item": "mood", "value": "ok", "seat": 1},
        {"type": "observation", "category": "rules_lookup", "text": "fine"},
    ]
    log = MandateLog.model_validate({"header": header(), "events": events})
    found = [(p.event, p.reason) for p in protocol_problems(protocol, log)]
    assert found == [
        (
            0,
            "observation category 'gossip' is not in mandate2038-observation@1 ("
            + ", ".join(c.id for c in protocol.categories)
            + ")",
        ),
        (1, "fun: 9 is outside 1-5"),
        (2, "fun: seat 1 answered more than once"),
        (3, "fairness is asked of every player: name the seat"),
        (4, "fairness: seat 5 is not at the table"),
        (5, "survey item 'mood' is not in mandate2038-observation@1"),
    ]


def test_survey_scales_match_the_designers_priorities(protocol: Protocol) -> None:
    """The designers' evidence priorities list 'perceived fairness, excitement, regret,
    betrayal and fun', and ask each player what their institution was uniquely good at (the
    facts shipped in tests/data/reference-facts.json)."""
    facts = json.loads((Path(__file__).resolve().parent / "data" / "reference-facts.json")
                       .read_text(encoding="utf-8"))["mandate2038"]
    scales = [s.id for s in protocol.survey if s.answer == "scale"]
    assert scales == facts["survey_scales"]
    assert facts["signature_question"]
    assert any("uniquely good at" in s.question for s in protocol.survey)


def test_protocol_id_cannot_leave_the_data_folder() -> None:
    with pytest.raises(PackError, match="is not a valid protocol id"):
        load_protocol("../content")
    with pytest.raises(PackError, match="version must be a number"):
        load_protocol(f"{PID}@latest")


def test_training_runs_are_paired_per_seat(protocol: Protocol) -> None:
    log = full_log()
    extra = MandateLog.model_validate(
        {
            "header": header(),
            "events": [
                {"type": "research", "seat": 2, "path": ["F"]},
                {"type": "research", "seat": 2, "path": ["F"], "blocked": True},
            ],
        }
    ).events
    longer = log.model_copy(update={"events": [*log.events, *extra]})
    ok, reason = results(protocol, longer)["training_runs"]
    # the blocked Research needs no run; the other one lacks its run_end (and so its draws pass)
    assert not ok and reason == "1 of 2 research event(s) have no run_end"
