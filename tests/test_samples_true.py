"""Samples tell the truth: every bundled sample is what ``data/samples/manifest.toml`` says.

Each folder is validated once through the command a user runs (``playtest validate --format
json``): simulated games and walkthroughs replay clean, audit examples give exactly their
authored findings (the golden cases they copy), headers carry the label the manifest names, and
no file sits in ``data/samples`` without a line in the manifest. An engine change that makes a
sample stale fails here; ``python -m tests.regen_samples`` makes them again.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.games import require_game
from tests.regen_samples import GOLDEN, ROOT, SAMPLES, manifest

SETS = manifest()
LISTED_ONLY = {"README.md", "manifest.toml"}


def _validate(folder: Path) -> dict[str, dict[str, Any]]:
    run = subprocess.run(
        [sys.executable, "-m", "cli", "validate", str(folder), "--format", "json", "--quiet"],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode in (0, 1), (run.returncode, run.stderr[-2000:])
    files = json.loads(run.stdout)["files"]
    return {Path(f["path"]).name: f for f in files}


def _expected_files(spec: dict[str, Any]) -> set[str] | None:
    if spec["recipe"] == "golden-copy":
        return {f"{c}.json" for c in spec["cases"]}
    if spec["recipe"] == "walkthrough":
        from tests.vestige_walkthroughs import SPECS

        return {w.file for w in SPECS}
    if spec["recipe"] == "hand-written":
        return set(spec["files"])
    return None  # simulated: whatever the recipe wrote, each checked below


def test_every_sample_file_is_in_the_manifest() -> None:
    folders = {s["folder"] for s in SETS}
    on_disk = {p.name for p in SAMPLES.iterdir() if p.is_dir()}
    assert on_disk == folders, "sample folders without a manifest entry (or missing ones)"
    for spec in SETS:
        names = {p.name for p in (SAMPLES / spec["folder"]).iterdir()} - LISTED_ONLY
        expected = _expected_files(spec)
        if expected is None:
            assert names, f"{spec['folder']}: no samples"
            assert all(n.endswith(".json") for n in names), names
        else:
            assert names == expected, f"{spec['folder']}: files differ from the manifest"


@pytest.mark.parametrize("spec", SETS, ids=lambda s: s["folder"])
def test_samples_hold_their_claims(spec: dict[str, Any]) -> None:
    require_game(spec["game"])
    folder = SAMPLES / spec["folder"]
    results = _validate(folder)
    if spec["folder"] == "session-folder":  # the folder is one game
        (only,) = results.values()
        assert only["status"] != "unreadable" and not [
            f for f in only["findings"] if f["severity"] == "error"]
        return
    assert results, f"{folder}: validate saw no games"
    for name, entry in sorted(results.items()):
        assert entry["status"] != "unreadable", (name, entry)
        errors = [f["code"] for f in entry["findings"] if f["severity"] == "error"]
        if spec["recipe"] == "golden-copy":
            stem = name.removesuffix(".json")
            authored = json.loads((GOLDEN / f"{stem}.expected.json").read_text(encoding="utf-8"))
            assert errors == [f["code"] for f in authored["findings"]
                              if f.get("severity", "error") == "error"], name
            # the copy is the golden game itself, byte for byte
            assert (folder / name).read_bytes() == (GOLDEN / name).read_bytes(), name
        else:
            assert spec["claim"] == "clean"
            assert errors == [], f"{name} claims to replay clean: {errors[:5]}"


@pytest.mark.parametrize("spec", [s for s in SETS if s["folder"] != "session-folder"],
                         ids=lambda s: s["folder"])
def test_sample_headers_say_what_they_are(spec: dict[str, Any]) -> None:
    require_game(spec["game"])
    from ingest.formats import read_path

    for path in sorted((SAMPLES / spec["folder"]).iterdir()):
        if path.name in LISTED_ONLY:
            continue
        (loaded,) = read_path(path)
        header = loaded.parsed.header
        assert header.game == spec["game"], path.name
        assert header.session_type == spec["session_type"], path.name
        if spec["session_type"] == "simulation":
            assert header.provenance.generator and "simulate" in header.provenance.generator
        else:
            assert header.provenance.illustrative, f"{path.name} must be labelled illustrative"
