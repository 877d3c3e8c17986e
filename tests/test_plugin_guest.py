"""A plugin is a guest (issue 31): one broken game package never takes down the others.

The fake plugins (tests/plugin_guests.py) are registered through the ``playtest.games`` entry
points beside the installed games (Mandate 2038, Vestige, Pig): in this process by patching the
registry's entry-point discovery, and for the real ``playtest`` command as a ``.dist-info``
folder on ``PYTHONPATH``. Nothing is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from plugin_guests import BROKEN, REASONS, WORKING, install, write_dist

from engine.core import registry

ROOT = Path(__file__).resolve().parents[1]
MANDATE = ROOT / "data" / "samples" / "notation" / "example-4p.m38"
VESTIGE = ROOT / "data" / "samples" / "vestige" / "walkthrough-2p.vst"
PIG = ROOT / "examples" / "pig" / "playtest_pig" / "samples" / "walkthrough.pig"
THREE = ("mandate2038", "vestige", "pig")


@pytest.fixture()
def guests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every fake plugin, broken and working, discovered beside the installed games."""
    install(monkeypatch, tmp_path / "guests", {**BROKEN, **WORKING})
    return tmp_path


@pytest.fixture()
def working(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Only the working fake plugins (each with one fault of its own), beside the installed
    games."""
    install(monkeypatch, tmp_path / "guests", dict(WORKING))
    return tmp_path


def _refused() -> dict[str, str]:
    return {r.name: r.reason for r in registry.refused() if r.page is None}


# --- 1. a broken game package ---------------------------------------------------------------


def test_each_broken_plugin_is_refused_with_its_reason_and_the_others_are_served(guests: Path,
                                                                                  ) -> None:
    games = registry.rulesets()
    assert set(THREE) | set(WORKING) <= set(games)
    assert games["vestige"].title == "Vestige"  # the impostor took nothing
    refused = _refused()
    assert set(refused) == set(BROKEN)
    for name, words in REASONS.items():
        for word in words:
            assert word in refused[name], (name, refused[name])


def test_the_command_line_names_each_broken_plugin_once(guests: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        ) -> None:
    from cli.main import main

    three = guests / "three"
    three.mkdir()
    for src in (MANDATE, VESTIGE, PIG):
        shutil.copy(src, three / src.name)
    ingest = ["ingest", str(three), "--db", str(guests / "wh" / "playtest.duckdb")]
    for argv in (["--help"], ["rulings", "--game", "pig"], ["validate", str(PIG)], ingest):
        status = main(argv)
        out, err = capsys.readouterr()
        assert status == 0, (argv, err)
        for name in BROKEN:
            assert err.count(f"the game plugin {name!r}") == 1, (argv, name, err)
        assert "Traceback" not in err


def test_playtest_help_serves_the_installed_games_with_broken_plugins_installed(
        tmp_path: Path) -> None:
    # the real command, the plugins as an installed distribution (a .dist-info on the path)
    folder = write_dist(tmp_path / "site", {**BROKEN, **WORKING})
    env = {**{k: v for k, v in os.environ.items() if k != registry.ONLY_GAMES_ENV},
           "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}  # every installed game
    run = subprocess.run([sys.executable, "-m", "cli", "simulate", "--help"], capture_output=True,
                         text=True, env=env, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    for name in BROKEN:
        assert run.stderr.count(f"the game plugin {name!r}") == 1, (name, run.stderr)
    assert "Mandate 2038" in run.stdout and "Pig" in run.stdout


@pytest.mark.parametrize("member", ["player_counts", "bot_names", "rulings_dir", "timed_phases",
                                    "event_types", "after_end_events", "apply_locates"])
def test_a_member_of_a_wrong_type_is_refused_naming_it(member: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from plugin_guests import GUEST_BASE

    from cli.main import main

    folder = tmp_path / "guest"
    install(monkeypatch, folder, {})
    (folder / f"wrong_{member}.py").write_text(
        GUEST_BASE.format(members=f"    {member} = 1.5", after=""), encoding="utf-8")
    install(monkeypatch, folder, {"fuzzguest": f"wrong_{member}:GAME"})
    assert main(["--help"]) == 0
    assert main(["validate", str(PIG)]) == 0
    err = capsys.readouterr().err
    assert err.count("the game plugin 'fuzzguest'") == 2  # once per command
    assert f"{member!r} must be" in _refused()["fuzzguest"]


# --- 2. pages ----------------------------------------------------------------------------------


def test_pages_are_checked_at_registration_and_a_bad_one_is_dropped_with_a_notice(
        working: Path) -> None:
    from dashboards import navigation

    sections, notices = navigation.checked_sections()
    assert [p.url_path for p in sections["Pagey"]] == [
        "guest-chart", "guest-explodes", "guest-file-explodes"]
    said = "\n".join(notices)
    for title in ("Guest missing", "Guest typo", "Guest clash", "Guest steals"):
        assert f"the page {title!r}" in said, said
    assert "'import' is taken by the shared page 'Import'" in said
    assert "'pig-turn-risk' is the pig game's" in said  # pagey registers first, Pig keeps it
    assert "no_such_function" in said and "no_such_page.py" in said
    assert any(p.url_path == "pig-turn-risk" for p in sections["Pig"])  # Pig's page stays


def _open(at: object, url_path: str) -> None:
    from streamlit.util import calc_hash

    at._page_hash = calc_hash(url_path)  # type: ignore[attr-defined]  # st.Page hashes url_path
    at.run()  # type: ignore[attr-defined]


def test_the_app_serves_every_page_and_a_raising_page_keeps_its_error(
        guests: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    from dashboards import navigation

    monkeypatch.setenv("PLAYTEST_DB", str(guests / "empty" / "playtest.duckdb"))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    notices = [w.value for w in at.sidebar.warning]
    for name in BROKEN:
        assert sum(f"the game plugin {name!r}" in n for n in notices) == 1, notices
    for spec in navigation.all_pages():
        _open(at, spec.url_path)
        assert not at.exception, (spec.url_path, [e.value for e in at.exception])
        errors = [e.value for e in at.error]
        if spec.url_path in ("guest-explodes", "guest-file-explodes"):
            assert len(errors) == 1 and "of Pagey failed" in errors[0], errors
            assert "RuntimeError" in errors[0] and spec.title in errors[0]
            assert "](http" not in errors[0]  # a guest's words are shown, never rendered
        else:
            assert not any("Pagey" in e for e in errors), (spec.url_path, errors)
    _open(at, "guest-chart")
    assert [t.value for t in at.title] == ["Guest chart"]


# --- 3. ingest and validate: each game's failure stays its own ----------------------------------


def _folder(tmp: Path) -> Path:
    folder = tmp / "inputs"
    folder.mkdir()
    for src in (MANDATE, VESTIGE, PIG):
        shutil.copy(src, folder / src.name)
    (folder / "guest.badr").write_text("anything at all\n", encoding="utf-8")
    pig = json.loads((ROOT / "examples/pig/playtest_pig/samples/simulated-3p.json")
                     .read_text(encoding="utf-8"))
    pig["header"]["game"] = "pigboom"
    (folder / "boom.json").write_text(json.dumps(pig), encoding="utf-8")
    return folder


def test_a_plugin_mark_never_takes_over_a_toolkit_games_files(working: Path) -> None:
    from ingest.formats import read_bytes

    data = MANDATE.read_bytes()
    assert b"[Session " in data  # the guest's mark finds it
    for name in ("example.m38", "example.txt"):
        (loaded,) = read_bytes(data, name)
        assert loaded.unreadable is None and loaded.parsed.header.game == "mandate2038"


def test_validate_reports_each_games_failure_as_its_own(working: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    folder = _folder(working)
    status = main(["validate", str(folder), "--format", "json"])
    out, err = capsys.readouterr()
    files = {Path(f["path"]).name: f for f in json.loads(out)["files"]}
    assert status == 3, err  # a game's engine raised: an internal error (docs/cli.md)
    assert files["boom.json"]["status"] == "findings"  # the contract's statuses (DESIGN.md §4)
    assert [x["code"] for x in files["boom.json"]["findings"]] == ["engine/internal-error"]
    assert "explodes in setup" in files["boom.json"]["findings"][0]["message"]
    assert files["guest.badr"]["status"] == "unreadable"
    assert "badreader game's notation reader returned str" in json.dumps(files["guest.badr"])
    for src in (MANDATE, VESTIGE, PIG):
        assert files[src.name]["status"] in ("clean", "findings"), files[src.name]


def test_ingest_archives_the_other_games_of_the_run(working: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import duckdb

    from cli.main import main

    folder = _folder(working)
    db = working / "wh" / "playtest.duckdb"
    status = main(["ingest", str(folder), "--db", str(db), "--format", "json"])
    out, err = capsys.readouterr()
    assert status == 2, (out, err)  # some input unreadable or failed, the rest loaded
    con = duckdb.connect(str(db), read_only=True)
    try:
        games = {g for (g,) in con.execute("SELECT game FROM games").fetchall()}
    finally:
        con.close()
    assert set(THREE) <= games
    quarantined = list((db.parent / "archive").rglob("*.reason.json"))
    text = " ".join(p.read_text(encoding="utf-8") for p in quarantined)
    assert "reader returned str" in text


# --- 4. declarations checked at registration ---------------------------------------------------


def test_a_location_part_the_warehouse_cannot_store_is_refused_naming_it(guests: Path) -> None:
    assert "the location part 'hand' cannot be stored" in _refused()["handgame"]


def test_a_code_string_that_does_not_resolve_is_refused_naming_member_and_string(
        guests: Path) -> None:
    reason = _refused()["typo"]
    assert reason.startswith("game 'typo': timing 'playtest_pig.timing:pig_timin' does not resolve")


def test_the_toolkit_table_list_is_the_warehouses() -> None:
    from ingest.warehouse.schema import EXTENSIBLE, SHARED_TABLES

    assert set(SHARED_TABLES) <= registry.TOOLKIT_TABLES
    assert EXTENSIBLE == registry.SHARED_EXTENSIBLE


# --- 5. PLAYTEST_ONLY_GAMES -------------------------------------------------------------------


def test_only_games_hides_every_other_installed_game() -> None:
    env = {**os.environ, "PLAYTEST_ONLY_GAMES": "pig, nosuchgame"}
    run = subprocess.run([sys.executable, "-c", "from engine.core.registry import game_ids, "
                          "refused; print(game_ids()); print([r.text() for r in refused()])"],
                         capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    ids, said = run.stdout.splitlines()
    assert ids == "('pig',)"
    assert "'nosuchgame'" in said and "no installed game has this id" in said
