"""Issue 19 item 3 and the --rulings checks of item 9: ``playtest reaudit`` on the bundled
samples (findings whose expected or recorded value is a list), one game on which our code fails
does not end the re-audit, and a ``--rulings`` value is checked and never echoed whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main

pytestmark = pytest.mark.needs_game("mandate2038")

ROOT = Path(__file__).resolve().parent.parent
SIMULATED = ROOT / "data" / "samples" / "simulated"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("reaudit") / "w" / "playtest.duckdb"
    assert main(["ingest", str(SIMULATED), "--db", str(path)]) == 0
    return path


def test_reaudit_of_the_bundled_samples_compares_list_values(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It crashed with "internal error (TypeError: unhashable type: 'list')", exit 3."""
    capsys.readouterr()
    assert main(["reaudit", "--rulings", "executable", "--db", str(db), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == len(list(SIMULATED.glob("*.json"))) and doc["failed"] == []
    assert doc["changed"] and all(e["added"] or e["removed"] for e in doc["changed"])


def test_one_game_that_crashes_does_not_end_the_reaudit(
        db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from cli.commands import reaudit

    real = reaudit.validate_one
    calls = {"n": 0}

    def flaky(item, rulings=None):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyError(1)  # as the Vestige engine did on odd seat numbers
        return real(item, rulings)

    monkeypatch.setattr(reaudit, "validate_one", flaky)
    capsys.readouterr()
    assert main(["reaudit", "--rulings", "executable", "--db", str(db)]) == 2
    out = capsys.readouterr().out
    assert "could not be re-audited, our code failed on it (KeyError: 1)" in out
    total = len(list(SIMULATED.glob("*.json")))
    assert f"{total} archived game(s) re-audited" in out and "1 could not be re-audited" in out


def test_rulings_values_are_checked_and_never_echoed_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = str(SIMULATED / "sim-samples-heuristic-00000.json")
    assert main(["validate", game, "--rulings", ""]) == 2
    assert "--rulings is empty" in capsys.readouterr().err
    huge = "x" * 100_000
    assert main(["validate", game, "--rulings", huge]) == 2
    err = capsys.readouterr().err
    assert "100,000 characters long" in err and len(err) < 500
    assert main(["validate", game, "--rulings", "y" * 500 + ",a=b"]) == 2
    assert len(capsys.readouterr().err) < 800
