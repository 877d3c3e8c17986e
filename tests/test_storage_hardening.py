"""Issue 10's bar for storage: every bad input through ``playtest ingest`` leaves its exact bytes
in the archive (raw) or the quarantine, with a file:line reason; plus rebuild leftovers and
exit status, the CSV export, and validate's file selection."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import zipfile
from pathlib import Path

import pytest

from cli.main import main
from ingest.formats import MAX_ZIP_BYTES, MAX_ZIP_MEMBERS

pytestmark = pytest.mark.needs_game("mandate2038")

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
SIM = SAMPLES / "simulated" / "sim-samples-heuristic-00000.json"
NOTATION = SAMPLES / "notation" / "example-4p.m38"


def _sim(old: str, new: str) -> bytes:
    text = SIM.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1).encode("utf-8")


def _with_events(*lines: str) -> bytes:
    text = SIM.read_text(encoding="utf-8").rstrip("\n")
    return (text[:-3] + "".join(",\n" + ln for ln in lines) + "\n]}\n").encode("utf-8")


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in members.items():
            zf.writestr(name, body)
    return buf.getvalue()


def bad_inputs() -> dict[str, bytes]:
    """Every kind of bad input issue 10 names, by file name."""
    notation = NOTATION.read_text(encoding="utf-8")
    zeros = bytes(48 * 2**20)
    assert 3 * len(zeros) > MAX_ZIP_BYTES
    return {
        "bigint.json": _sim('"mandate": 7,', '"mandate": ' + "9" * 5000 + ","),
        "bigint.m38": notation.replace("2 bank 2", "2 bank " + "9" * 5000, 1).encode(),
        "checkpoint-2-31.json": _sim('"mandate": 10,', '"mandate": 2147483648,'),  # line 69
        "surrogate-event.json": _sim('"headline": "synthetic_celebrity"', '"headline": "\\ud800"'),
        "surrogate-header.json": _sim('"player": "bot:heuristic"', '"player": "\\ud800"'),
        "nan-minutes.json": _with_events(
            '{"type": "observation", "category": "rules_lookup", "text": "x", "minutes": Infinity}'),
        "nan-survey.json": _with_events('{"type": "survey", "item": "fun", "value": NaN}'),
        "inf-survey.m38": notation.replace("? fun 4 seat=1", "? fun 1e999 seat=1", 1).encode(),
        "token-10mb.json": _sim('{"type": "headline", "cycle": 1, "headline": "synthetic_celebrity"}',
                                '{"type": "' + "Z" * 10_000_000 + '"}'),
        "formula.json": _sim('"player": "bot:heuristic"', '"player": "=HYPERLINK(\\"http://x\\")"'),
        "bomb.zip": _zip({"a.json": zeros, "b.json": zeros, "c.json": zeros}),
        "many.zip": _zip({f"f{i}.json": b"{}" for i in range(MAX_ZIP_MEMBERS + 1)}),
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "not-json.json": b"{not json",
        "binary.m38": bytes(range(256)) * 4,
        "empty.csv": b"",
        "bad-utf8.json": b'{"format": "playtest-log", "x": "\xff"}',
        "nul.m38": b"[Game mandate2038]\n\x00\x00\n",
        "g\udcff-name.json": SIM.read_bytes().replace(b"heuristic-00000", b"heuristic-n0000", 1),
    }


@pytest.mark.slow
def test_every_bad_input_through_ingest_leaves_its_bytes_in_the_archive_or_quarantine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    shas = {}
    for name, data in bad_inputs().items():
        (inputs / os.fsencode(name).decode("utf-8", "surrogateescape")).write_bytes(data)
        shas[name] = hashlib.sha256(data).hexdigest()
    db = tmp_path / "w" / "playtest.duckdb"
    code = main(["ingest", str(inputs), "--db", str(db)])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert code in (0, 2)
    assert " failed" not in out.out.split("\n")[0] or ", 0 failed" in out.out, out.out[:2000]
    archive = db.parent / "archive"
    kept = {p.name.split(".")[0] for p in (archive / "raw").iterdir()} \
        | {p.name.split(".")[0] for p in (archive / "quarantine").iterdir()}
    missing = [name for name, sha in shas.items() if sha not in kept]
    assert missing == [], f"bytes not kept: {missing}"
    for p in (archive / "quarantine").glob("*.reason.json"):  # each with a located reason
        reason = json.loads(p.read_text(encoding="utf-8"))
        assert reason["file"] and reason["reasons"] and reason["reasons"][0]["message"]
        assert len(p.read_bytes()) < 100_000  # a 10 MB token is not copied into the reason
    # every reason that the reader could locate names the file and its line
    text = out.out
    for name, line in (("bigint.json", 35), ("checkpoint-2-31.json", 69), ("surrogate-event.json", 5),
                       ("surrogate-header.json", 2)):
        assert f"{name}:{line}" in text, text[:3000]
    assert max(len(ln) for ln in text.split("\n")) < 3000
    # the export cannot run a formula in a spreadsheet
    outdir = tmp_path / "csv"
    assert main(["export", "--csv", str(outdir), "--db", str(db)]) == 0
    for f in outdir.glob("*.csv"):
        with f.open(newline="", encoding="utf-8") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    assert cell[:1] not in ("=", "+", "@", "\t", "\r") and not (
                        cell.startswith("-") and not cell.lstrip("-").replace(".", "", 1).isdigit()), (f.name, cell)
    seats = (outdir / "seats.csv").read_text(encoding="utf-8")
    assert "'=HYPERLINK" in seats


def _db_with_games(tmp_path: Path) -> Path:
    inputs = tmp_path / "in"
    inputs.mkdir()
    for p in sorted((SAMPLES / "simulated").glob("*.json"))[:2]:
        (inputs / p.name).write_bytes(p.read_bytes())
    db = tmp_path / "w" / "playtest.duckdb"
    assert main(["ingest", str(inputs), "--db", str(db)]) == 0
    return db


def test_rebuild_removes_what_a_killed_rebuild_left_and_exits_2_on_a_failed_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _db_with_games(tmp_path)
    dead = 2**22 + 12345  # above the default pid_max: no such process
    leftovers = [db.with_name(f"{db.name}.rebuild-{dead}"), db.with_name(f"{db.name}.rebuild-{dead}.wal")]
    for p in leftovers:
        p.write_bytes(b"x" * 1000)
    assert main(["rebuild", "--db", str(db)]) == 0
    assert not any(p.exists() for p in leftovers)
    assert sorted(p.name for p in db.parent.iterdir() if ".rebuild-" in p.name) == []
    # an archived game that no longer reads cleanly: rebuild reports it failed, exit 2
    game = next((db.parent / "archive" / "games").rglob("*[0-9a-f].json"))
    game.chmod(0o644)
    game.write_text('{"format": "playtest-log", "format_version": 1, "header": {}, "events": []}')
    capsys.readouterr()
    assert main(["rebuild", "--db", str(db)]) == 2
    assert "failed" in capsys.readouterr().out


def test_validate_a_glob_skips_non_log_files_like_a_folder_walk(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = SAMPLES / "audit-examples"
    files = sorted(str(p) for p in folder.iterdir())  # what the shell makes of audit-examples/*
    assert any(f.endswith("README.md") for f in files)
    capsys.readouterr()
    main(["validate", "--format", "json", *files])
    doc = json.loads(capsys.readouterr().out)
    assert not [f for f in doc["files"] if f["path"].endswith("README.md")]
    main(["validate", "--format", "json", str(folder)])
    walked = json.loads(capsys.readouterr().out)
    assert sorted(f["path"] for f in doc["files"]) == sorted(f["path"] for f in walked["files"])
    # --quiet: only games with findings are listed, then the totals
    sims = sorted(str(p) for p in (SAMPLES / "simulated").iterdir())
    main(["validate", "--quiet", *sims])
    out = capsys.readouterr()
    assert ": clean" not in out.out and "game(s):" in out.out and "README" not in out.out
    assert main(["validate", str(folder / "README.md")]) == 2  # named alone: read as given


def test_a_file_too_large_to_read_is_still_kept_in_the_quarantine(tmp_path: Path) -> None:
    from ingest.formats import MAX_BYTES

    inputs = tmp_path / "in"
    inputs.mkdir()
    big = inputs / "huge.json"
    with big.open("wb") as fh:
        fh.write(b'{"x": "')
        for _ in range(MAX_BYTES // 2**20 + 1):
            fh.write(b"a" * 2**20)
        fh.write(b'"}')
    sha = hashlib.sha256(big.read_bytes()).hexdigest()
    db = tmp_path / "w" / "playtest.duckdb"
    assert main(["ingest", str(inputs), "--db", str(db)]) == 2
    kept = db.parent / "archive" / "quarantine" / f"{sha}.json"
    assert kept.is_file() and kept.stat().st_size == big.stat().st_size
    reason = json.loads((kept.parent / f"{sha}.reason.json").read_text(encoding="utf-8"))
    assert "larger than" in reason["reasons"][0]["message"]
