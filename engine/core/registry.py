"""The ruleset registry: game id -> ruleset.

Every lookup first imports each built-in ruleset package once (:data:`BUILTIN`; importing a
package registers its ruleset), so the built-ins are always there whatever registered first. A
built-in package that is not installed yet is skipped; any other import error is a bug and
raises. Extra rulesets (tests, experiments) call :func:`register` themselves.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.core.ruleset import Ruleset

# The built-in ruleset packages, in the order they are listed (mandate2038 first: the default).
BUILTIN: tuple[str, ...] = ("engine.mandate2038", "engine.vestige")

# The game a header without ``game`` is read as: logs written before there were two games.
DEFAULT_GAME = "mandate2038"

_RULESETS: dict[str, Ruleset] = {}
_loaded = False


def register(ruleset: Ruleset) -> Ruleset:
    """Register a ruleset under its game id (idempotent)."""
    _RULESETS[ruleset.game] = ruleset
    return ruleset


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in BUILTIN:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as err:
            # only the package itself missing is skipped (it has not landed yet)
            if err.name != name:
                raise


def get_ruleset(game: str) -> Ruleset | None:
    """The ruleset for ``game``, or None when no ruleset knows it."""
    if not _loaded:
        _load_builtin()
    return _RULESETS.get(game)


def rulesets() -> dict[str, Ruleset]:
    """Every registered ruleset, built-ins first."""
    if not _loaded:
        _load_builtin()
    return dict(_RULESETS)
