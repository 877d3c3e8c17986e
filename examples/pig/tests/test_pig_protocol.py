"""Pig's observation protocol (playtest_pig/protocols/pig-observation/v1.json), shipped by the
package through its declared ``protocols_dir``: it loads, and a facilitated game is scored
against it when loaded into the warehouse."""

from __future__ import annotations

from pathlib import Path

from conftest import event, header
from test_pig_timing import EVENTS

from engine.core.registry import get_ruleset
from schemas.packs import load_protocol


def test_the_protocol_loads_from_the_package() -> None:
    rs = get_ruleset("pig")
    protocol = load_protocol("pig-observation", root=rs.protocols_dir)
    assert protocol.game == "pig" and protocol.version == 1
    assert {"total_duration", "running_totals", "final_record"} <= {i.id for i in protocol.checklist}


def test_a_facilitated_game_is_scored_against_it(tmp_path: Path) -> None:
    import duckdb
    from playtest_pig.schema import PigLog

    from ingest.pipeline import ingest_paths
    from schemas.canonical import dumps_log

    events = [*EVENTS[:-1],
              event(type="observation", category="rules_lookup", text="none"),
              event(type="survey", seat=1, item="fun", value=4),
              event(type="survey", seat=2, item="fun", value=5), EVENTS[-1]]
    log = PigLog(header=header(2, session_type="facilitated_playtest",
                               date="2026-05-01"), events=events)
    (tmp_path / "played.json").write_text(dumps_log(log), encoding="utf-8")
    db = tmp_path / "w.duckdb"
    summary = ingest_paths([tmp_path / "played.json"], db, progress=False)
    assert len(summary.loaded) == 1
    assert not [n for r in summary.reports for n in r.notes if "protocol" in n], summary.reports
    con = duckdb.connect(str(db), read_only=True)
    captured = dict(con.execute("SELECT item_id, captured FROM capture").fetchall())
    con.close()
    assert captured["total_duration"] and captured["rules_lookups"] and captured["survey_fun"]
    assert captured["session_date"] and captured["rolls"]
    assert not captured["running_totals"] and not captured["final_record"]  # not written
    assert not captured["survey_fairness"]
