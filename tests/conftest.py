"""What a test needs of the registry: the shared suite runs with any set of games (issue 27).

``PLAYTEST_ONLY_GAMES=pig python -m pytest -q -p no:randomly`` runs the shared suite with only
Pig registered (docs/engine.md "Declaring a game"). A test that needs a game hidden from the
registry is skipped, saying which game and why, and never failed; every other test (the shared
pages, commands and conformance tests) must pass whatever games are registered. A test says
what it needs in one of three ways:

* ``@pytest.mark.needs_game("mandate2038")`` on the test (or ``pytestmark`` on its module);
* a test module that imports a game's own room at its top (``engine.mandate2038``,
  ``from schemas.vestige import ...``) is that game's test: its tests need the game;
* a fixture calls :func:`tests.games.require_game` (e.g. one that builds a warehouse of
  Mandate 2038 logs).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.games import GAMES, LAYERS, missing_reason


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs_game(*ids): the test needs these games registered (skipped with the "
        "reason when PLAYTEST_ONLY_GAMES hides one, tests/conftest.py)")


@cache
def _rooms_imported(path: Path) -> tuple[str, ...]:
    """The games whose rooms a test module imports at its top level."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return ()
    found: list[str] = []
    for node in tree.body:
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for mod in modules:
            parts = mod.split(".")
            if len(parts) >= 2 and parts[0] in LAYERS and parts[1] in GAMES:
                found.append(parts[1])
    return tuple(dict.fromkeys(found))


def needed_games(item: pytest.Item) -> tuple[str, ...]:
    """Every game a collected test needs: its marks, then its module's imports of game rooms."""
    ids = [g for mark in item.iter_markers("needs_game") for g in mark.args]
    ids += _rooms_imported(Path(str(item.fspath)))
    return tuple(dict.fromkeys(ids))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    for game in needed_games(item):
        reason = missing_reason(game)
        if reason:
            pytest.skip(reason)
