"""One registry that always holds every built-in ruleset (issue 8), and dispatch on the header's
``game`` (log models, writers, the default game of a header without one).

The registry is process-wide, so the order-dependent cases run in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from engine.core.registry import BUILTIN, DEFAULT_GAME, get_ruleset, rulesets


def _fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


def test_a_ruleset_registered_first_does_not_hide_the_builtins() -> None:
    # Before the fix, registering any ruleset first made the registry skip the built-ins, so
    # get_ruleset("mandate2038") returned None.
    run = _fresh("""
        from engine.core.registry import get_ruleset, register, rulesets

        class Fake:
            game = "fake-game"

        register(Fake())
        assert get_ruleset("fake-game") is not None
        assert get_ruleset("mandate2038") is not None, "mandate2038 hidden by a fake ruleset"
        print(",".join(sorted(rulesets())))
    """)
    assert run.returncode == 0, run.stderr
    assert {"fake-game", "mandate2038"} <= set(run.stdout.strip().split(","))


def test_registering_in_any_order_keeps_every_ruleset() -> None:
    run = _fresh("""
        from engine.core.registry import get_ruleset, register, rulesets

        class A:
            game = "a-game"

        class B:
            game = "b-game"

        assert get_ruleset("mandate2038") is not None  # built-ins first, then two more
        register(B())
        register(A())
        assert {"a-game", "b-game", "mandate2038"} <= set(rulesets())
    """)
    assert run.returncode == 0, run.stderr


def test_a_builtin_that_is_not_installed_is_skipped_and_a_broken_one_raises() -> None:
    run = _fresh("""
        import sys, types
        import engine.core.registry as reg

        reg.BUILTIN = ("engine.mandate2038", "engine.no_such_ruleset_yet")
        assert reg.get_ruleset("mandate2038") is not None
        assert reg.get_ruleset("no_such_ruleset_yet") is None
    """)
    assert run.returncode == 0, run.stderr
    broken = _fresh("""
        import engine.core.registry as reg

        reg.BUILTIN = ("engine.mandate2038", "tests_broken_ruleset")
        import sys, types
        mod = types.ModuleType("tests_broken_ruleset")
        sys.modules.pop("tests_broken_ruleset", None)
        import importlib.abc, importlib.machinery

        class Finder(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == "tests_broken_ruleset":
                    raise ModuleNotFoundError("No module named 'a_dependency'", name="a_dependency")
                return None

        sys.meta_path.insert(0, Finder())
        reg.get_ruleset("mandate2038")
    """)
    assert broken.returncode != 0 and "a_dependency" in broken.stderr


def test_builtins_are_listed_and_registered() -> None:
    assert BUILTIN[0] == "engine.mandate2038"
    assert DEFAULT_GAME == "mandate2038"
    assert get_ruleset("mandate2038") is rulesets()["mandate2038"]


def test_log_models_and_writers_dispatch_on_the_header_game() -> None:
    from engine.simulate import simulate_one
    from ingest.formats import write_log, writers
    from schemas import LOG_MODELS, log_model
    from schemas.mandate2038 import MandateLog
    from schemas.vestige import VestigeLog

    assert log_model("mandate2038") is MandateLog and LOG_MODELS["vestige"] is VestigeLog
    assert log_model("no-such-game") is None
    assert {"json", "notation", "csv"} <= set(writers("mandate2038"))
    assert set(writers("no-such-game")) == {"json"}
    log = simulate_one(7, 0, 3)
    assert write_log(log, "notation").startswith("[")
    alien = log.model_copy(update={"header": log.header.model_copy(update={"game": "no-such-game"})})
    with pytest.raises(ValueError, match="no-such-game"):
        write_log(alien, "notation")


def test_a_header_without_game_is_read_as_the_default_game() -> None:
    from engine.core.parse import parse_log
    from engine.simulate import simulate_one

    log = simulate_one(7, 1, 3)
    obj = log.model_dump(mode="json")
    del obj["header"]["game"]
    parsed = parse_log(obj)
    assert parsed.readable and parsed.ruleset is get_ruleset(DEFAULT_GAME)
    obj["header"]["game"] = "no-such-game"
    parsed = parse_log(obj)
    assert not parsed.readable and parsed.findings[0].code == "log/unknown-game"
