"""A game installed while the dashboard serves (the README's second command while the demo
runs): its module is not importable in the running server, so the registry cannot load it. The
app never shows a traceback for this: it serves the other games and says a restart is needed,
to the first visitor and to every later one (AppTest, in this process)."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import gameapps
from engine.core import registry

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"


@pytest.fixture()
def late_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The registry as a server that has not looked yet sees it after ``pip install`` of a
    game whose module its interpreter cannot import (an editable install's path is read at
    start-up only)."""
    installed = [*registry.entry_points(group=registry.ENTRY_POINT_GROUP),
                 EntryPoint("latecomer", "playtest_latecomer:GAME", registry.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(registry, "entry_points", lambda group: installed)
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "_RULESETS", {})
    monkeypatch.setattr(registry, "_REFUSED", [])  # its refusals are undone with it
    monkeypatch.setattr(gameapps, "_PROBLEM", [], raising=False)
    monkeypatch.setattr(gameapps, "_INSTALLED", [], raising=False)  # a server that has not looked yet
    monkeypatch.setenv("PLAYTEST_DB", str(tmp_path / "playtest.duckdb"))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    monkeypatch.delenv(registry.ONLY_GAMES_ENV, raising=False)  # the installation is the test's world


def _visit() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_game_installed_while_serving_asks_for_a_restart(late_install: None) -> None:
    for _visitor in range(2):  # the first visitor, and a later one
        at = _visit()
        said = " ".join(str(w.value) for w in at.sidebar.warning)
        assert "latecomer" in said and "Restart the dashboard" in said, said
        assert [t.value for t in at.title] == ["Games"]
    assert {"mandate2038", "vestige"} <= set(gameapps.game_ids())
