"""The optional compiled engine (issue 30; setup.py, docs/engine.md "The compiled engine
(optional)").

``PLAYTEST_COMPILE=1 pip install --no-build-isolation -e .`` compiles the modules setup.py's
``compiled_modules()`` collects (engine/core's and each declared game's ``COMPILED_MODULES``)
with mypyc. The list is checked here whatever the build; the rest runs only when the compiled
modules are what Python imports (a module's ``__file__`` is a ``.so``), and is skipped with
the reason otherwise: the compiled engine must give every golden expectation and replay a
simulated game clean, as the interpreted one does (the rules test files themselves are run
against the compiled build too, docs/engine.md).
"""

from __future__ import annotations

import importlib
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: modules that must stay interpreted: the move generator builds classes at run time and
#: copies states generically, the declarations' narrowed overrides are refused by mypyc
INTERPRETED = {
    "engine/mandate2038/moves.py", "engine/mandate2038/lazy_options.py",
    "engine/mandate2038/phase_moves.py", "engine/mandate2038/selection_moves.py",
    "engine/mandate2038/turn_moves.py", "engine/mandate2038/bots.py",
    "engine/mandate2038/profiles.py", "engine/mandate2038/simulation.py",
    "engine/mandate2038/ruleset.py", "engine/simulate.py", "engine/core/registry.py",
    "engine/core/options.py", "engine/core/variants.py", "engine/core/game.py",
}


def compiled_list() -> list[str]:
    """setup.py's ``compiled_modules()``: engine/core's ``COMPILED_MODULES`` and each declared
    game's, read from the sources (setup.py loaded by path, without running ``setup()``)."""
    ns = runpy.run_path(str(ROOT / "setup.py"), run_name="playtest_setup")
    return list(ns["compiled_modules"]())


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def compiled_modules() -> list[str]:
    """The listed modules Python imports from a compiled extension."""
    found = []
    for path in compiled_list():
        mod = importlib.import_module(module_name(path))
        if str(getattr(mod, "__file__", "")).endswith(".so"):
            found.append(mod.__name__)
    return found


needs_build = pytest.mark.skipif(
    not compiled_modules(),
    reason="the compiled engine is not built here (pure-Python install; build it with "
           "PLAYTEST_COMPILE=1 pip install --no-build-isolation -e ., docs/engine.md)")


def test_the_build_lists_only_existing_modules():
    listed = compiled_list()
    assert listed, "setup.py compiles nothing"
    assert len(set(listed)) == len(listed), "a module is listed twice"
    for path in listed:
        assert path.startswith("engine/") and path.endswith(".py"), path
        assert (ROOT / path).is_file(), f"setup.py compiles {path}, which does not exist"
        assert not path.endswith("__init__.py"), path
    assert not INTERPRETED & set(listed), sorted(INTERPRETED & set(listed))


def test_each_game_declares_its_compiled_modules():
    """The list is collected, not written in setup.py: engine/core's modules and Mandate
    2038's, named by its declaration (engine/mandate2038/ruleset.py ``COMPILED_MODULES``)."""
    from engine.core import COMPILED_MODULES as CORE
    from engine.mandate2038.ruleset import COMPILED_MODULES as MANDATE

    listed = compiled_list()
    assert [f"engine/core/{m}.py" for m in CORE] == listed[:len(CORE)]
    assert {f"engine/mandate2038/{m}.py" for m in MANDATE} <= set(listed)
    assert "engine/mandate2038/turns.py" in listed and "engine/core/replay.py" in listed
    assert "mandate2038" not in (ROOT / "setup.py").read_text(encoding="utf-8"), \
        "setup.py names no game's module itself"


def written_out_classes() -> list[type]:
    """The dataclasses of the listed modules declared ``init=False``: their ``__init__`` is
    written out by hand so that mypyc compiles it (docs/engine.md "Validate at 2x, round
    three")."""
    import dataclasses
    import inspect

    found: dict[str, type] = {}
    for path in compiled_list():
        mod = importlib.import_module(module_name(path))
        for cls in vars(mod).values():
            if (inspect.isclass(cls) and dataclasses.is_dataclass(cls)
                    and not cls.__dataclass_params__.init):  # type: ignore[attr-defined]
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[k] for k in sorted(found)]


@pytest.mark.parametrize("cls", written_out_classes(), ids=lambda c: c.__qualname__)
def test_written_out_inits_match_their_fields(cls: type):
    """A hand-written ``__init__`` takes the dataclass's fields in their order with the
    declared defaults (a ``default_factory`` field: ``None``, standing for a new value), so the
    two spellings of one default cannot drift apart."""
    import dataclasses
    import inspect

    try:
        sig = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        pytest.skip(f"{cls.__qualname__}.__init__ is compiled (no signature to read)")
    params = [p for p in sig.parameters.values() if p.name != "self"]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, f"{cls.__qualname__}.{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is None, f"{cls.__qualname__}.{f.name}"
        else:
            assert p.default is inspect.Parameter.empty, f"{cls.__qualname__}.{f.name}"


def test_written_out_inits_are_found():
    names = {c.__qualname__ for c in written_out_classes()}
    assert {"GameState", "SeatState", "Turn", "LedgerEntry", "ReplayResult",
            "FindingSink"} <= names


@needs_build
def test_every_listed_module_is_compiled():
    """A build is whole: a listed module still imported from its source would mean a stale or
    partial build (a module added to the list since)."""
    listed = [module_name(p) for p in compiled_list()]
    assert compiled_modules() == listed


@needs_build
def test_the_move_generator_stays_interpreted():
    for path in sorted(INTERPRETED):
        mod = importlib.import_module(module_name(path))
        assert str(mod.__file__).endswith(".py"), mod.__name__


GOLDEN = sorted(p for p in (ROOT / "tests" / "golden" / "mandate2038").glob("*.json")
                if not p.name.endswith(".expected.json"))


@needs_build
@pytest.mark.needs_game("mandate2038")
@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_expectations_hold_compiled(path: Path):
    from tests.test_golden import test_golden as golden_check

    golden_check(path)


@needs_build
@pytest.mark.needs_game("mandate2038")
def test_simulated_games_replay_clean_compiled():
    """The simulator's move generator (interpreted) copies and folds the compiled state: its
    games replay with no finding, as the interpreted engine's do."""
    from engine.core.replay import replay
    from engine.simulate import simulate_one

    for i, (players, bots) in enumerate(((3, "random"), (4, "heuristic"), (5, "mixed"))):
        log = simulate_one("compiled", i, players, bots)
        result = replay(log.header, log.events)
        assert result.findings == [], [f.message for f in result.findings[:5]]
