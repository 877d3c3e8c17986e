"""The ruleset registry: game id -> ruleset."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.core.ruleset import Ruleset

_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Register a ruleset under its game id (idempotent)."""
    _RULESETS[ruleset.game] = ruleset
    return ruleset


def _load_builtin() -> None:
    # Importing a ruleset package registers it.
    import engine.mandate2038  # noqa: F401


def get_ruleset(game: str) -> Ruleset | None:
    """The ruleset for ``game``, or None when no ruleset knows it."""
    if not _RULESETS:
        _load_builtin()
    return _RULESETS.get(game)


def rulesets() -> dict[str, Ruleset]:
    """Every registered ruleset."""
    if not _RULESETS:
        _load_builtin()
    return dict(_RULESETS)
