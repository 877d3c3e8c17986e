"""The designers' session folder: the shipped example imports with its receipt validated; a bad
receipt gives a clear, located finding; folders and zips read alike."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

from ingest.formats import SUFFIXES, read_bytes, read_path
from ingest.mandate2038.session import FACTION_IDS, our_faction

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "data" / "samples" / "session-folder"


def test_example_folder_imports_clean() -> None:
    (loaded,) = read_path(EXAMPLE)
    assert loaded.format == "session-folder"
    assert loaded.unreadable is None
    assert loaded.findings == []
    h = loaded.parsed.header
    assert h.detail == "partial" and h.provenance.illustrative is True
    assert [s.faction for s in h.seats] == ["mirevanta", "kestralyn", "corthaven", "loopfold"]
    assert [s.player for s in h.seats] == ["Ana", "Ben", "Chidi", "Dana"]
    assert h.receipt.session_id == "2026-11-21-4p-illustrative-session-a-7c1f0e52"
    assert h.receipt.mixed_revisions is True and h.receipt.kit_exceptions
    assert h.receipt.board_seed == "frontier-playtest"
    assert len(h.receipt.facilitator_interventions) == 2 and len(h.receipt.rules_deviations) == 1
    types = [e.type for e in loaded.parsed.events]
    assert types[:3] == ["phase", "phase", "era_start"]
    assert types.count("era_start") == 4
    assert {"checkpoint", "final_record", "observation", "survey"} <= set(types)
    eras = [e for e in loaded.parsed.events if e.type == "era_start"]
    minutes = [(b.t - a.t).total_seconds() / 60 for a, b in zip(eras, eras[1:], strict=False)]
    assert minutes == [21, 26, 24]
    cats = {e.category for e in loaded.parsed.events if e.type == "observation"}
    assert {"rules_lookup", "intervention", "unresolved_question", "surprise", "friction"} <= cats
    final = next(e for e in loaded.parsed.events if e.type == "final_record")
    assert final.winners == [2] and final.offline == {3: 1}


def test_folder_and_zip_read_alike(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted(EXAMPLE.iterdir()):
            zf.write(p, f"2026-11-21-session/{p.name}")
    (from_zip,) = read_bytes(buf.getvalue(), "upload.zip")
    (from_dir,) = read_path(EXAMPLE)
    assert from_zip.source == "upload.zip#2026-11-21-session"
    assert from_zip.raw == buf.getvalue()
    assert from_zip.parsed.events == from_dir.parsed.events
    z = tmp_path / "s.zip"
    z.write_bytes(buf.getvalue())
    (from_file,) = read_path(z)
    assert from_file.parsed.header.seats == from_dir.parsed.header.seats
    assert ".zip" in SUFFIXES


def test_folder_raw_is_deterministic(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(EXAMPLE, copy)
    assert read_path(copy)[0].raw == read_path(EXAMPLE)[0].raw
    with zipfile.ZipFile(io.BytesIO(read_path(copy)[0].raw)) as zf:
        assert sorted(zf.namelist()) == ["notes.md", "receipt.json", "scores.json"]


def _folder(tmp_path: Path, receipt: dict) -> Path:
    d = tmp_path / "session"
    shutil.copytree(EXAMPLE, d)
    (d / "receipt.json").write_text(json.dumps(receipt, indent=2))
    return d


def test_bad_receipt_gives_a_located_finding(tmp_path: Path) -> None:
    receipt = json.loads((EXAMPLE / "receipt.json").read_text())
    receipt["game"]["sourceCommit"] = "not-a-commit"
    receipt["evidenceType"] = "rehearsal"
    del receipt["rulesDeviations"]
    d = _folder(tmp_path, receipt)
    (loaded,) = read_path(d)
    msgs = [f.message for f in loaded.findings if f.code == "log/parse-error"]
    commit = next(m for m in msgs if "game.sourceCommit" in m)
    assert "receipt.json" in commit and "does not match" in commit
    line = (d / "receipt.json").read_text().split("\n").index(next(
        ln for ln in (d / "receipt.json").read_text().split("\n") if '"not-a-commit"' in ln)) + 1
    assert f"receipt.json:{line}:" in commit
    assert any("rulesDeviations" in m and "required" in m for m in msgs)
    assert any("evidenceType" in m for m in msgs)
    # the wrong evidence type also makes the header invalid: said plainly, not a crash
    assert any(f.code == "log/invalid-header" for f in loaded.findings)


def test_unreadable_receipt_and_missing_receipt(tmp_path: Path) -> None:
    d = tmp_path / "s"
    d.mkdir()
    (d / "receipt.json").write_text('{"schemaVersion": 1,\n  "sessionId": }')
    (loaded,) = read_path(d)
    assert loaded.unreadable is not None and "receipt.json:2:" in loaded.unreadable
    (plain,) = read_path(tmp_path / "nothing-here")
    assert plain.unreadable is not None
    (d / "receipt.json").unlink()
    (notdir,) = read_path(d)
    assert "not a session folder" in (notdir.unreadable or "")


def test_unknown_faction_and_bad_scores_are_reported(tmp_path: Path) -> None:
    receipt = json.loads((EXAMPLE / "receipt.json").read_text())
    receipt["configuration"]["factions"][0] = "seat_1_unassigned"
    d = _folder(tmp_path, receipt)
    (d / "scores.json").write_text('{"schemaVersion": 1, "finalStandings": [{"factionId": "nobody"}, 3]}')
    (loaded,) = read_path(d)
    msgs = [f.message for f in loaded.findings]
    assert any("seat_1_unassigned" in m and "not a known faction" in m for m in msgs)
    assert any("#scores.json:1:" in m and "finalStandings[1]" in m for m in msgs)
    assert any("#scores.json:1:" in m and "names no faction" in m for m in msgs)


def test_faction_ids_map_to_ours() -> None:
    assert our_faction("imperial_research_lab") == "mirevanta"
    assert our_faction("coalition_lab") == "dovetalis"
    assert our_faction("safety_laboratory") == "orisonix"
    assert our_faction("Mirevanta Works") == "mirevanta"
    assert our_faction("seat_1_unassigned") is None
    assert set(FACTION_IDS.values()) == {"dovetalis", "loopfold", "mirevanta", "kestralyn",
                                         "orisonix", "corthaven"}
