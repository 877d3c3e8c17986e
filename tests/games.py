"""Which games a test run has: the installed ones, less those ``PLAYTEST_ONLY_GAMES`` hides.

Used by tests/conftest.py (the ``needs_game`` mark) and by fixtures that need a game
(:func:`require_game`)."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest

from engine.core import registry

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("schemas", "engine", "ingest", "dashboards", "cli")


def _installed() -> frozenset[str]:
    """Every installed game's id (hidden or not): the entry points and the toolkit's rooms."""
    names = {ep.name for ep in entry_points(group="playtest.games")}
    names |= {p.name for p in (ROOT / "engine").iterdir()
              if p.is_dir() and p.name != "core" and (p / "ruleset.py").exists()}
    return frozenset(names)


GAMES = _installed()


def missing_reason(game: str) -> str | None:
    """Why ``game`` is not registered in this run (None when it is)."""
    if registry.get_ruleset(game) is not None:
        return None
    only = registry.only_games()
    if only is not None and game not in only:
        return (f"needs the game {game!r}, hidden from the registry by "
                f"{registry.ONLY_GAMES_ENV}={','.join(sorted(only))}")
    return f"needs the game {game!r}, which is not installed"


def require_game(*games: str) -> None:
    """Skip the calling test (or fixture) unless every one of ``games`` is registered."""
    for game in games:
        reason = missing_reason(game)
        if reason:
            pytest.skip(reason)


def hidden() -> bool:
    """True when ``PLAYTEST_ONLY_GAMES`` hides an installed game."""
    only = registry.only_games()
    return only is not None and bool(GAMES - only)
