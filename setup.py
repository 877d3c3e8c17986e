"""The optional compiled engine (issue 30; docs/engine.md "The compiled engine (optional)").

``pip install -e .`` builds the toolkit as pure Python, as pyproject.toml declares it: this
file adds nothing then. With ``PLAYTEST_COMPILE=1`` the replay's hot modules
(:func:`compiled_modules`) are compiled with mypyc into C extensions beside their sources:

    pip install "setuptools>=69" wheel mypy
    pip install -e .
    PLAYTEST_COMPILE=1 pip install --no-build-isolation -e .

(``--no-build-isolation`` so the build sees the mypy installed here; the plain install first
because mypyc type-checks the whole program, which imports the dependencies: without them the
build stops at mypy's errors, seen 3 December in a new virtualenv; about 4-5 minutes on two
idle cores, 10-15 on shared ones.) Everything else, the metadata included, stays in pyproject.toml.

Which modules: engine/core's ``COMPILED_MODULES`` (engine/core/__init__.py: the replay's fold)
and, for every game this distribution declares (pyproject.toml's ``playtest.games`` entry
points), the ``COMPILED_MODULES`` of the module that defines the game's declaration (e.g.
engine/<game>/ruleset.py), module names relative to that game's package. A game added to
the entry points with such a list joins the build without editing this file. The lists are
read from the sources (``ast``), never imported: this file imports nothing of the toolkit
(a plain ``pip install -e .`` runs it before any dependency is installed; the compiled build's
mypyc needs them, above).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent
ENTRY_POINT_GROUP = "playtest.games"  # engine.core.game.ENTRY_POINT_GROUP
CORE_DECLARATION = "engine/core/__init__.py"


def _literal(path: Path, name: str) -> tuple[str, ...] | None:
    """The tuple of strings assigned to ``name`` at the top level of ``path``, or None."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            value = ast.literal_eval(node.value)
            if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"{path}: {name} must be a tuple of module names")
            return value
    return None


def _module_file(module: str) -> Path:
    base = ROOT.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _declaring_module(module: str, attr: str) -> str:
    """The module that defines ``attr`` of ``module``: the module itself, or the one its
    ``from X import attr`` names (a game package re-exporting its declaration)."""
    tree = ast.parse(_module_file(module).read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                and any(a.name == attr and a.asname in (None, attr) for a in node.names)):
            return node.module
    return module


def _own_games() -> list[tuple[str, str]]:
    """(game, entry point value) of the games pyproject.toml declares, in its order."""
    import tomllib

    with (ROOT / "pyproject.toml").open("rb") as f:
        meta = tomllib.load(f)
    group = meta.get("project", {}).get("entry-points", {}).get(ENTRY_POINT_GROUP, {})
    return list(group.items())


def compiled_modules() -> list[str]:
    """The source files compiled when ``PLAYTEST_COMPILE=1`` (paths from the repository root):
    engine/core's hot modules, then each declared game's (tests/test_compiled_engine.py checks
    every one is an existing module and none of the move generator's)."""
    out = [f"engine/core/{m}.py" for m in _literal(ROOT / CORE_DECLARATION, "COMPILED_MODULES") or ()]
    for _game, ref in _own_games():
        module, _, attr = ref.partition(":")
        declaring = _declaring_module(module, attr.strip() or "RULESET")
        names = _literal(_module_file(declaring), "COMPILED_MODULES") or ()
        package = declaring.rpartition(".")[0] if not ROOT.joinpath(*declaring.split(".")).is_dir() \
            else declaring
        out.extend(f"{package.replace('.', '/')}/{m}.py" for m in names)
    return out


def _ext_modules() -> list[object]:
    if os.environ.get("PLAYTEST_COMPILE", "") in ("", "0"):
        return []
    from mypyc.build import mypycify  # only the compiled build needs mypy

    return list(mypycify(compiled_modules(), opt_level="3", separate=False))


if __name__ == "__main__":  # setuptools runs this file as __main__; the tests load it by path
    from setuptools import setup

    setup(ext_modules=_ext_modules())
