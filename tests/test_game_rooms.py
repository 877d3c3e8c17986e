"""Games in their own rooms (issue 27): shared code imports no game and names no game id.

Each layer (``schemas``, ``engine``, ``ingest``, ``dashboards``, ``cli``) keeps one game's part
in a subpackage named for it (``engine/mandate2038/``, ``schemas/vestige/``, ...), the way a
game published as its own package (``examples/pig/``) keeps everything in one package. A module
outside those subpackages is shared: it must not import a game's module (any dotted path with a
game id as one of its parts) nor name a game id in a string, except the default game's id in
``engine/core/registry.py``'s ``DEFAULT_GAME``.

``OFFENDERS`` lists the shared modules that still do either, each with what it does; it may only
shrink: a listed module that no longer offends fails the test too (strike it), and any new
offence fails with the module and the line.
"""

from __future__ import annotations

import ast
import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("schemas", "engine", "ingest", "dashboards", "cli")

#: the one place a game id may stand in shared code: the game a header without ``game`` is read as
DEFAULT_CONSTANT = ("engine/core/registry.py", "DEFAULT_GAME")

#: shared modules that still import a game or name a game id (issue 27): none left; a module
#: listed here (with its offences, as reported by ``_offences``) would be allowed to keep them
OFFENDERS: dict[str, set[str]] = {}


def _game_ids() -> frozenset[str]:
    """Every installed game's id (entry points, so a game hidden from the registry counts)."""
    names = {ep.name for ep in entry_points(group="playtest.games")}
    names |= {p.name for p in (ROOT / "engine").iterdir()
              if p.is_dir() and p.name != "core" and (p / "ruleset.py").exists()}
    return frozenset(names)


GAMES = _game_ids()
_ID_WORD = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(sorted(GAMES)) + r")(?![A-Za-z0-9])")


def _is_game_module(rel: str) -> bool:
    """A game's own module: ``<layer>/<game id>/...``."""
    parts = rel.split("/")
    return len(parts) > 2 and parts[1] in GAMES


def _shared_modules() -> list[str]:
    out = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if not _is_game_module(rel):
                out.append(rel)
    return out


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _resolve(rel: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = rel.removesuffix(".py").split("/")[: -node.level]
    return ".".join([*base, *(node.module or "").split(".")]).strip(".")


def _offences(rel: str) -> set[str]:
    """What one shared module does that only a game's room may: ``import <module>`` of a
    game's module, ``names <id>`` for a string naming a game id (docstrings aside)."""
    tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"), filename=rel)
    docs = _docstring_nodes(tree)
    found: set[str] = set()
    default_ok = rel == DEFAULT_CONSTANT[0]
    allowed_constants: set[int] = set()
    if default_ok:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                    and any(isinstance(t, ast.Name) and t.id == DEFAULT_CONSTANT[1]
                            for t in node.targets)):
                allowed_constants.add(id(node.value))
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(rel, node)
            modules = [base] + [f"{base}.{a.name}" for a in node.names if a.name in GAMES]
        for mod in modules:
            if any(part in GAMES for part in mod.split(".")):
                found.add(f"import {mod}")
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docs and id(node) not in allowed_constants):
            for m in _ID_WORD.finditer(node.value):
                found.add(f"names {m.group(1)}")
    return found


def test_the_game_ids_are_known() -> None:
    assert {"mandate2038", "vestige", "pig"} <= GAMES


def test_the_checker_sees_an_import_and_a_name(tmp_path: Path) -> None:
    """The check itself can fail: a shared module importing a game or naming one is caught."""
    assert _is_game_module("engine/mandate2038/state.py")
    assert not _is_game_module("engine/core/replay.py")
    assert not _is_game_module("dashboards/vestige_live.py")
    tree = ast.parse("from . import vestige\n")
    node = tree.body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _resolve("schemas/__init__.py", node) == "schemas"
    assert _ID_WORD.search("game == 'pig'") and not _ID_WORD.search("piggyback vestiges")


@pytest.mark.parametrize("rel", _shared_modules())
def test_shared_code_names_no_game(rel: str) -> None:
    got = _offences(rel)
    allowed = OFFENDERS.get(rel, set())
    new = sorted(got - allowed)
    assert not new, (f"{rel} is shared code (not under a game's subpackage) but does "
                     f"{new}: move the game's part into its room or read it from the declaration")
    gone = sorted(allowed - got)
    assert not gone, f"{rel} no longer does {gone}: strike it from OFFENDERS (the list shrinks)"


def test_the_allow_list_names_only_shared_modules() -> None:
    shared = set(_shared_modules())
    stale = sorted(set(OFFENDERS) - shared)
    assert not stale, f"OFFENDERS names modules that are gone or a game's own: {stale}"
