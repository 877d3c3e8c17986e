"""The shipped samples: the hand-written four-player game replays clean through the engine and
reads identically from its notation and sheet forms; the sheet template imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.replay import replay
from ingest.formats import read_bytes, read_path, write_log
from schemas.mandate2038 import MandateLog

ROOT = Path(__file__).resolve().parents[1]
NOTATION = ROOT / "data" / "samples" / "notation"
TEMPLATE = ROOT / "data" / "templates" / "mandate2038-sheet.csv"


def _log(path: Path) -> MandateLog:
    (loaded,) = read_path(path)
    assert loaded.findings == [], [f.message for f in loaded.findings]
    return MandateLog(header=loaded.parsed.header, events=loaded.parsed.events)


def test_example_game_replays_clean_to_its_world_ending() -> None:
    (loaded,) = read_path(NOTATION / "example-4p.m38")
    assert loaded.format == "notation" and loaded.findings == []
    p = loaded.parsed
    assert p.header.session_type == "developer_walkthrough" and p.header.provenance.illustrative
    assert len(p.header.seats) == 4 and p.header.profile == "default"
    result = replay(p.header, p.events, lines=p.lines, indices=p.indices)
    assert [f.message for f in result.findings] == []
    assert result.outcome is not None and result.outcome.complete
    assert result.outcome.provisional_winners == [4]
    assert result.outcome.winners == [3]
    assert result.outcome.ending == "singularity"
    assert all(e.t is not None for e in p.events if e.type in ("era_start", "headline", "phase"))


def test_example_sheet_is_the_same_game() -> None:
    game = _log(NOTATION / "example-4p.m38")
    assert _log(NOTATION / "example-4p.csv") == game
    again = MandateLog.model_validate_json(write_log(game, "json"))
    assert again == game


def test_template_imports_without_findings() -> None:
    (loaded,) = read_path(TEMPLATE)
    assert loaded.unreadable is None and loaded.findings == []
    assert loaded.parsed.events == [] and len(loaded.parsed.header.seats) == 4


def test_docs_show_the_example_game_verbatim() -> None:
    docs = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    assert (NOTATION / "example-4p.m38").read_text(encoding="utf-8") in docs


def test_simulated_games_survive_every_format() -> None:
    """Bot games played through the engine: each format gives back the same log, and the
    converted log replays with exactly the same findings and outcome."""
    samples = sorted((ROOT / "data" / "samples" / "simulated").glob("*.json"))
    if not samples:  # the simulator's samples are another area's files
        pytest.skip("no simulated samples in data/samples/simulated")
    for path in samples:
        game = _log(path)
        base = replay(game.header, game.events)
        for fmt, name in (("notation", "g.m38"), ("csv", "g.csv")):
            (loaded,) = read_bytes(write_log(game, fmt).encode(), name)
            assert loaded.findings == []
            again = MandateLog(header=loaded.parsed.header, events=loaded.parsed.events)
            assert again == game
            result = replay(again.header, again.events)
            assert [f.code for f in result.findings] == [f.code for f in base.findings]
            assert result.outcome == base.outcome


def test_the_short_notation_example_in_the_docs_reads_clean() -> None:
    docs = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    section = docs.split("## 2. Text notation", 1)[1]
    block = section.split("```", 2)[1]
    (loaded,) = read_bytes(block.strip().encode(), "docs.m38")
    assert loaded.findings == [] and len(loaded.parsed.events) == 11


def test_windows_line_endings_read_the_same() -> None:
    text = (NOTATION / "example-4p.m38").read_bytes()
    (crlf,) = read_bytes(text.replace(b"\n", b"\r\n"), "crlf.m38")
    (lf,) = read_bytes(text, "lf.m38")
    assert crlf.findings == [] and crlf.parsed.events == lf.parsed.events
    assert crlf.parsed.lines == lf.parsed.lines
