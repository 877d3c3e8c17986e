"""The shared suite with only some games registered (issue 27): ``PLAYTEST_ONLY_GAMES=pig``.

The whole Pig-only run (docs/engine.md "Declaring a game") is

    PLAYTEST_ONLY_GAMES=pig python -m pytest -q -p no:randomly

every test that needs a hidden game is skipped naming it (tests/conftest.py, the ``needs_game``
mark); every shared page, command and conformance test must pass with Pig alone. The tests here
check the shared commands and pages on the registered games' own samples (whichever games are
registered), and :func:`test_a_pig_only_run_of_the_shared_tests` runs a small representative
part of the Pig-only run in a subprocess, so the normal suite keeps it true.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from cli.main import main
from engine.core.registry import ONLY_GAMES_ENV, rulesets
from tests.games import hidden, missing_reason, require_game

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboards" / "app.py"


def _samples() -> list[Path]:
    """Each registered game's bundled samples folder (``Game.samples_dir``)."""
    return [Path(rs.samples_dir) for rs in rulesets().values() if rs.samples_dir is not None]


@pytest.fixture(scope="module")
def pig_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse of Pig's bundled samples, loaded by ``playtest ingest``."""
    require_game("pig")
    db = tmp_path_factory.mktemp("pig") / "playtest.duckdb"
    pig = Path(rulesets()["pig"].samples_dir)
    assert main(["ingest", "--db", str(db), str(pig)]) == 0
    return db


def test_the_commands_serve_the_registered_games(pig_db: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``--help``, ``validate``, ``ingest`` and ``demo`` of Pig's samples, whatever else is
    registered."""
    capsys.readouterr()
    assert main(["--help"]) == 0
    assert "playtest" in capsys.readouterr().out
    pig = Path(rulesets()["pig"].samples_dir)
    assert main(["validate", "--format", "json", str(pig)]) == 0
    out = capsys.readouterr().out
    assert out.count('"status": "clean"') == 2 or out.count('"status":"clean"') == 2, out[:400]
    with duckdb.connect(str(pig_db), read_only=True) as con:
        row = con.execute("SELECT count(*) FROM games WHERE game = 'pig'").fetchone()
    assert row is not None and row[0] == 2
    assert main(["ingest", "--db", str(pig_db), str(pig)]) == 0  # archived already: skipped
    assert "2 skipped" in capsys.readouterr().out


def test_demo_loads_every_registered_games_samples(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    require_game("pig")
    db = tmp_path / "demo" / "playtest.duckdb"
    assert main(["demo", "--no-serve", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    for folder in _samples():
        assert str(folder) in out  # named among the folders it ingests
    with duckdb.connect(str(db), read_only=True) as con:
        games = {g for (g,) in con.execute("SELECT DISTINCT game FROM games").fetchall()}
    assert "pig" in games and games <= set(rulesets())


def test_every_page_on_the_registered_games_samples(pig_db: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page of the navigation (the shared pages and each registered game's) opens on a
    warehouse of Pig's samples with no exception and no error box, with the Game filter on all
    games and on Pig."""
    from dashboards.navigation import all_pages

    monkeypatch.setenv("PLAYTEST_DB", str(pig_db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    for games in ([], ["pig"]):
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run()
        if games:
            at.session_state["playtest_filter_values"] = {"flt_games": games}
        for page in all_pages():
            at.switch_page(page.path).run()
            assert not at.exception, (page.title, [e.value for e in at.exception])
            assert not at.error, (page.title, games, [e.value for e in at.error])
            assert [t.value for t in at.title] == [page.title]


#: the part of the Pig-only run the normal suite repeats: the commands and pages above, the
#: conformance test over every registered game, every page on an empty database
PIG_ONLY_PART = [
    "tests/test_only_games.py",
    "tests/test_game_conformance.py",
    "tests/test_app_pages.py::test_page_on_empty_database",
    "tests/test_cli.py::test_usage_errors_never_traceback",
    "tests/test_cli.py::test_simulate_without_out_writes_to_a_folder_per_game_and_seed",
]


def test_a_pig_only_run_of_the_shared_tests() -> None:
    """Run :data:`PIG_ONLY_PART` with ``PLAYTEST_ONLY_GAMES=pig`` in a subprocess: it passes,
    and every test it skips says which game is hidden."""
    if hidden():
        pytest.skip("this is a run with hidden games already (it would start itself)")
    reason = missing_reason("pig")
    if reason:
        pytest.skip(reason)
    env = {**os.environ, ONLY_GAMES_ENV: "pig"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "-rs", *PIG_ONLY_PART],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=1200)
    tail = run.stdout[-4000:]
    assert run.returncode == 0, tail
    summary = tail.strip().splitlines()[-1]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 20, summary
    for line in tail.splitlines():
        if line.startswith("SKIPPED"):  # each skip says which game is hidden, or why it is
            assert "PLAYTEST_ONLY_GAMES" in line or "hidden games already" in line, line
