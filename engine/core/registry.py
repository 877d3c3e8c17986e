"""The game registry: game id -> the game's declaration (its ruleset and what it contributes).

Games are discovered through the ``playtest.games`` entry-point group
(:data:`engine.core.game.ENTRY_POINT_GROUP`, ``importlib.metadata``): each entry point names a
declaration object (``"mygame:GAME"``). Mandate 2038 and Vestige are declared there by the
toolkit's own ``pyproject.toml``, exactly as a separately installed game package declares
itself. Every lookup discovers the installed games once (the default game first, then the
toolkit's own, then the others by id); :func:`register` adds one more (tests, experiments).

Registration checks a declaration once (:func:`engine.core.game.check_declaration`): a
duplicate id or a missing member is a :class:`GameDeclarationError` naming it.
"""

from __future__ import annotations

import importlib
import sys
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from engine.core.game import ENTRY_POINT_GROUP, GameDeclarationError, check_declaration

if TYPE_CHECKING:
    from engine.core.ruleset import Ruleset

# The game a header without ``game`` is read as: logs written before there were two games.
DEFAULT_GAME = "mandate2038"

#: The toolkit's own games and the object each entry point names: used only when the toolkit's
#: entry points are not installed (an editable install made before they were declared; run
#: ``pip install -e .`` again), with a warning on stderr.
BUILTIN: dict[str, str] = {
    "mandate2038": "engine.mandate2038:RULESET",
    "vestige": "engine.vestige:RULESET",
}

#: the shared tables every game may add columns to (ingest/warehouse/schema.py EXTENSIBLE)
SHARED_EXTENSIBLE: frozenset[str] = frozenset({"seats", "outcomes"})

_RULESETS: dict[str, Ruleset] = {}
_loaded = False
_warned = False


def register(game: Ruleset) -> Ruleset:
    """Register a game declaration under its id, after checking it (and filling in its
    optional members' defaults). Raises :class:`GameDeclarationError` for a declaration that
    lacks a required member or whose id is already registered by another declaration
    (registering the same object again changes nothing)."""
    _discover()
    check_declaration(game)
    have = _RULESETS.get(game.game)
    if have is game:
        return game
    if have is not None:
        raise GameDeclarationError(
            f"game {game.game!r} is already registered (by {type(have).__module__}."
            f"{type(have).__name__}); a game id names one game")
    for other, rs in _RULESETS.items():
        taken = sorted(set(game.tables) & set(rs.tables) - SHARED_EXTENSIBLE)
        if taken:
            raise GameDeclarationError(
                f"game {game.game!r}: the table {taken[0]!r} is the {other} game's; a game's "
                "tables are its own (name them after the game)")
    _RULESETS[game.game] = game
    return game


def _order(ep: EntryPoint) -> tuple[int, str]:
    return (0 if ep.name == DEFAULT_GAME else 1 if ep.name in BUILTIN else 2, ep.name)


def _load(name: str, ref: str) -> None:
    module, _, attr = ref.partition(":")
    obj = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    if getattr(obj, "game", None) != name:
        raise GameDeclarationError(f"the {ENTRY_POINT_GROUP} entry point {name!r} names "
                                   f"{ref}, whose game id is {getattr(obj, 'game', None)!r}")
    register(obj)


def _discover() -> None:
    """Register every game of the entry-point group (once per process)."""
    global _loaded, _warned
    if _loaded:
        return
    _loaded = True
    found = sorted(entry_points(group=ENTRY_POINT_GROUP), key=_order)
    names = {ep.name for ep in found}
    refs = [(ep.name, ep.value) for ep in found]
    missing = [(n, r) for n, r in BUILTIN.items() if n not in names]
    if missing:
        if not _warned:
            _warned = True
            print(f"playtest: the {ENTRY_POINT_GROUP} entry points of the toolkit's own games "
                  f"are not installed ({', '.join(n for n, _ in missing)}); reinstall the "
                  "toolkit (pip install -e .)", file=sys.stderr)
        refs = missing + refs
        refs.sort(key=lambda nr: (0 if nr[0] == DEFAULT_GAME else 1 if nr[0] in BUILTIN else 2,
                                  nr[0]))
    for name, ref in refs:
        try:
            _load(name, ref)
        except GameDeclarationError:
            raise
        except Exception as err:
            raise GameDeclarationError(f"the game {name!r} ({ENTRY_POINT_GROUP} entry point "
                                       f"{ref}) could not be loaded: {type(err).__name__}: "
                                       f"{err}") from err


def get_ruleset(game: str) -> Ruleset | None:
    """The declaration (ruleset) of ``game``, or None when no installed game has that id."""
    if not _loaded:
        _discover()
    return _RULESETS.get(game)


def rulesets() -> dict[str, Ruleset]:
    """Every registered game, the default game first, then the toolkit's own, then the rest."""
    if not _loaded:
        _discover()
    return dict(_RULESETS)


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game, in registry order."""
    return tuple(rulesets())


def titles() -> dict[str, str]:
    """Game id -> title, in registry order (CLI help, the app's Game filter)."""
    return {g: rs.title for g, rs in rulesets().items()}
