"""The game registry: game id -> the game's declaration (its ruleset and what it contributes).

Games are discovered through the ``playtest.games`` entry-point group
(:data:`engine.core.game.ENTRY_POINT_GROUP`, ``importlib.metadata``): each entry point names a
declaration object (``"mygame:GAME"``). Mandate 2038 and Vestige are declared there by the
toolkit's own ``pyproject.toml``, exactly as a separately installed game package declares
itself. Every lookup discovers the installed games once (the default game first, then the
toolkit's own, then the others by id); :func:`register` adds one more (tests, experiments).

Registration checks a declaration once (:func:`engine.core.game.check_declaration`): a
duplicate id or a missing member is a :class:`GameDeclarationError` naming it.

A game package is a guest: discovery never raises. An entry point whose import raises, whose
declaration is refused, or that claims another game's id is kept in :func:`refused` (the entry
point's name and the reason) and every other game is served; the command line and the app say
so once. ``PLAYTEST_ONLY_GAMES`` (comma-separated ids) hides every other installed game.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from importlib.metadata import (
    entry_points as entry_points,  # re-exported: the one look at what is installed
)
from typing import TYPE_CHECKING

from engine.core.game import (
    ENTRY_POINT_GROUP,
    GameDeclarationError,
    check_declaration,
    check_pages,
)

if TYPE_CHECKING:
    from engine.core.ruleset import Ruleset

# The game a header without ``game`` is read as: logs written before there were two games.
DEFAULT_GAME = "mandate2038"

#: The package the toolkit's own games are declared in (their entry points name a module of it,
#: in the toolkit's ``pyproject.toml``): a game declared anywhere else is installed as its own.
#: The entry points are the one way a game is found: when none names this package (an editable
#: install made before they were declared), a warning on stderr says to run ``pip install -e .``.
HOME_PACKAGE = __name__.partition(".")[0]

#: the shared tables every game may add columns to (ingest/warehouse/schema.py EXTENSIBLE)
SHARED_EXTENSIBLE: frozenset[str] = frozenset({"seats", "outcomes"})
#: the toolkit's own warehouse tables and views (ingest/warehouse: the shared tables, the
#: migrations' bookkeeping, the views): no game may declare one but for its columns of
#: :data:`SHARED_EXTENSIBLE` (tests/test_plugin_guest.py keeps this list in step)
TOOLKIT_TABLES: frozenset[str] = frozenset({
    "games", "seats", "events", "findings", "ledger", "phases", "turn_times", "outcomes",
    "observations", "survey", "capture", "schema_migrations", "seats_v", "outcomes_v",
    "seat_balance",
})

#: the environment variable naming the only games to register (comma-separated ids)
ONLY_GAMES_ENV = "PLAYTEST_ONLY_GAMES"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A game package the registry did not load (``page`` None), or one page of a registered
    game it dropped (``page``: the page's title): the entry point's name, its value and why."""

    name: str
    ref: str
    reason: str
    page: str | None = None

    def text(self) -> str:
        """One line for a person: which plugin (or page) and why."""
        if self.page is not None:
            return (f"the page {self.page!r} of the game plugin {self.name!r} is left out: "
                    f"{self.reason}")
        return f"the game plugin {self.name!r} ({self.ref}) is not loaded: {self.reason}"


_RULESETS: dict[str, Ruleset] = {}
_REFUSED: list[Refusal] = []
_loaded = False
_warned = False


def register(game: Ruleset, ref: str | None = None) -> Ruleset:
    """Register a game declaration under its id, after checking it (and filling in its
    optional members' defaults). Raises :class:`GameDeclarationError` for a declaration that
    lacks a required member or whose id is already registered by another declaration
    (registering the same object again changes nothing). A page whose script does not resolve
    is dropped from the declaration and listed in :func:`refused` (``ref``: the entry point's
    value, for the message)."""
    _discover()
    check_declaration(game)
    have = _RULESETS.get(game.game)
    if have is game:
        return game
    if have is not None:
        raise GameDeclarationError(
            f"game {game.game!r} is already registered (by {type(have).__module__}."
            f"{type(have).__name__}); a game id names one game")
    shared = sorted(set(game.tables) & TOOLKIT_TABLES - SHARED_EXTENSIBLE)
    if shared:
        raise GameDeclarationError(
            f"game {game.game!r}: the table {shared[0]!r} is the toolkit's own (shared by "
            "every game); a game's tables are its own (name them after the game)")
    # session_folder: filled in by check_declaration (the Ruleset protocol does not list it)
    folder = game.session_folder
    marker = folder.marker if folder is not None else None
    for other, rs in _RULESETS.items():
        taken = sorted(set(game.tables) & set(rs.tables) - SHARED_EXTENSIBLE)
        if taken:
            raise GameDeclarationError(
                f"game {game.game!r}: the table {taken[0]!r} is the {other} game's; a game's "
                "tables are its own (name them after the game)")
        theirs = rs.session_folder
        if marker is not None and theirs is not None and theirs.marker == marker:
            raise GameDeclarationError(
                f"game {game.game!r}: session_folder marker {marker!r} is the {other} game's; "
                "a folder holding it would be read by both")
    dropped = check_pages(game)
    _RULESETS[game.game] = game
    where = ref or f"{type(game).__module__}.{type(game).__name__}"
    _REFUSED.extend(Refusal(game.game, where, why, page=title) for title, why in dropped)
    return game


def _own(module: str) -> bool:
    """Whether ``module`` (a declaration's, or an entry point's) is of the toolkit's own."""
    return module.partition(".")[0] == HOME_PACKAGE


def _rank(name: str, ref: str, own_ids: frozenset[str]) -> tuple[int, str, int]:
    # the default game, the toolkit's own, then the rest by id; of two entry points claiming
    # one of the toolkit's ids, the toolkit's own comes first (the other is then refused)
    own = _own(ref.partition(":")[0])
    return (0 if name == DEFAULT_GAME else 1 if name in own_ids else 2, name, 0 if own else 1)


def _load(name: str, ref: str) -> None:
    module, _, attr = ref.partition(":")
    obj = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    if getattr(obj, "game", None) != name:
        raise GameDeclarationError(f"the {ENTRY_POINT_GROUP} entry point {name!r} names "
                                   f"{ref}, whose game id is {getattr(obj, 'game', None)!r}")
    register(obj, ref)


def only_games() -> frozenset[str] | None:
    """The ids ``PLAYTEST_ONLY_GAMES`` names (None when it is unset or empty)."""
    text = os.environ.get(ONLY_GAMES_ENV, "")
    ids = frozenset(x.strip() for x in text.split(",") if x.strip())
    return ids or None


def _discover() -> None:
    """Register every game of the entry-point group (once per process)."""
    global _loaded, _warned
    if _loaded:
        return
    _loaded = True
    try:
        found: list[EntryPoint] = list(entry_points(group=ENTRY_POINT_GROUP))
    except Exception as err:  # noqa: BLE001 - an installed distribution's metadata is unreadable
        found = []
        _REFUSED.append(Refusal("?", ENTRY_POINT_GROUP, "the installed games' entry points "
                                f"could not be read ({type(err).__name__}: {err})"))
    refs = [(ep.name, ep.value) for ep in found]
    own_ids = frozenset(n for n, r in refs if _own(r.partition(":")[0]))
    if not own_ids and not _warned:
        _warned = True
        print(f"playtest: no {ENTRY_POINT_GROUP} entry point of the toolkit's own games is "
              "installed (an install made before they were declared); reinstall the toolkit "
              "(pip install -e .)", file=sys.stderr)
    only = only_games()
    if only is not None:
        refs = [(n, r) for n, r in refs if n in only]
        _REFUSED.extend(Refusal(g, ONLY_GAMES_ENV, "no installed game has this id")
                        for g in sorted(only - {n for n, _ in refs}))
    for name, ref in sorted(dict.fromkeys(refs), key=lambda nr: _rank(nr[0], nr[1], own_ids)):
        try:
            _load(name, ref)
        except (Exception, SystemExit) as err:  # noqa: BLE001 - a guest never takes the house down
            why = str(err) if isinstance(err, GameDeclarationError) else (
                f"loading it raised {type(err).__name__}: {err}")
            _REFUSED.append(Refusal(name, ref, why))


def refused() -> tuple[Refusal, ...]:
    """The game packages not loaded (and the pages dropped), each with its reason, in
    discovery order."""
    if not _loaded:
        _discover()
    return tuple(_REFUSED)


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


def own_games() -> tuple[str, ...]:
    """The ids of the toolkit's own games (declared in its :data:`HOME_PACKAGE`, not installed
    as a package of their own), in registry order."""
    return tuple(g for g, rs in rulesets().items() if _own(type(rs).__module__))


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game, in registry order."""
    return tuple(rulesets())


def titles() -> dict[str, str]:
    """Game id -> title, in registry order (CLI help, the app's Game filter)."""
    return {g: rs.title for g, rs in rulesets().items()}
