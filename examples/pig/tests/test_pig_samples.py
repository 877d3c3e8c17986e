"""The bundled samples replay as their README says: clean, complete, labelled by kind."""

from __future__ import annotations

from pathlib import Path

from conftest import run
from playtest_pig.sheet import read_pig_sheet

from engine.core.parse import parse_text

SAMPLES = Path(__file__).parents[1] / "playtest_pig" / "samples"


def test_simulated_sample_is_clean_and_labelled() -> None:
    parsed = parse_text((SAMPLES / "simulated-3p.json").read_bytes())
    assert parsed.readable and parsed.findings == []
    assert parsed.header.session_type == "simulation"
    r = run(parsed.header, parsed.events)
    assert r.findings == [] and r.outcome.complete


def test_walkthrough_sheet_is_clean_and_illustrative() -> None:
    loaded = read_pig_sheet((SAMPLES / "walkthrough.pig").read_bytes(), "walkthrough.pig")
    assert loaded.unreadable is None and loaded.findings == []
    header = loaded.parsed.header
    assert header.provenance.illustrative and header.session_type == "developer_walkthrough"
    r = run(header, loaded.parsed.events)
    assert r.findings == [] and r.outcome.complete and r.outcome.winners == [1]


def test_the_readme_lists_the_declared_tables() -> None:
    """The README's table list is the declaration's (a game package documents its tables)."""
    from playtest_pig.records import TABLES

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    for table, cols in TABLES.items():
        row = f"| `{table}` | game_id, " + ", ".join(f"{c} ({t})" for c, t in cols) + " |"
        assert row in readme, table
