"""The optional compiled engine (issue 30; docs/engine.md "The compiled engine (optional)").

``pip install -e .`` builds the toolkit as pure Python, as pyproject.toml declares it: this
file adds nothing then. With ``PLAYTEST_COMPILE=1`` the replay's hot modules
(:data:`COMPILED`) are compiled with mypyc into C extensions beside their sources:

    pip install "setuptools>=69" wheel mypy
    PLAYTEST_COMPILE=1 pip install --no-build-isolation -e .

(``--no-build-isolation`` so the build sees the mypy installed here; about 10-15 minutes on
two shared cores.) Everything else, the metadata included, stays in pyproject.toml.
"""

from __future__ import annotations

import os

from setuptools import setup

#: the modules compiled when PLAYTEST_COMPILE=1: the replay's fold (the core loop, findings)
#: and Mandate 2038's rules and state. Left interpreted: the move generator (moves,
#: lazy_options, phase_moves, selection_moves, turn_moves: it builds classes at run time and
#: copies states generically), the bots and the simulator, the game declarations (ruleset.py:
#: mypyc refuses their narrowed attribute overrides), the registry, options and variants, and
#: the pydantic schemas. tests/test_compiled_engine.py checks every name here is a module.
COMPILED: tuple[str, ...] = (
    "engine/core/findings.py",
    "engine/core/replay.py",
    "engine/mandate2038/before_selection.py",
    "engine/mandate2038/board.py",
    "engine/mandate2038/checkpoints.py",
    "engine/mandate2038/content.py",
    "engine/mandate2038/core_actions.py",
    "engine/mandate2038/cycles.py",
    "engine/mandate2038/dispatch.py",
    "engine/mandate2038/eligibility.py",
    "engine/mandate2038/era_sequence.py",
    "engine/mandate2038/factions.py",
    "engine/mandate2038/final_scoring.py",
    "engine/mandate2038/headlines.py",
    "engine/mandate2038/hex_board.py",
    "engine/mandate2038/initiative.py",
    "engine/mandate2038/programs.py",
    "engine/mandate2038/records.py",
    "engine/mandate2038/resources.py",
    "engine/mandate2038/rules.py",
    "engine/mandate2038/setup.py",
    "engine/mandate2038/state.py",
    "engine/mandate2038/trace.py",
    "engine/mandate2038/trade.py",
    "engine/mandate2038/turns.py",
)


def _ext_modules() -> list[object]:
    if os.environ.get("PLAYTEST_COMPILE", "") in ("", "0"):
        return []
    from mypyc.build import mypycify  # only the compiled build needs mypy

    return list(mypycify(list(COMPILED), opt_level="3", separate=False))


setup(ext_modules=_ext_modules())
