"""What the app knows about each game, in ONE place: the per-game dispatch of every page.

Most of it comes from the game's declaration (docs/notes/game-declaration.md, read through
``engine.core.registry``): its id and title, its analytics words (``vocabulary``), its board
picture, recorder and extra pages. The app's contract for the declaration's app members:

* ``board_picture``: ``"module:function"`` called as ``fn(game_id, log, pos, result, ruleset)``
  in the Replay viewer after replaying to event ``pos`` (``log``: :class:`dashboards.gamelog.
  GameLog`; ``result``: the replay result with ``state`` and ``findings``); None: the generic
  panel (findings and the engine snapshot);
* ``recorder``: ``"module:attribute"`` naming a :class:`Recorder` (``new_session()``,
  ``recording(draft_id)``, ``draft_seats(header)``) used by the Record page; None: the game is
  not offered for live entry;
* ``pages``: ``engine.core.game.Page`` entries added to the navigation under the game's title.

A game's own sections of the shared Scoring sources, End conditions and Duration pages live in
its room of the app, ``dashboards/<game>/sections.py`` (:data:`SECTIONS_MODULE`: ``scoring(db, f)``, ``endings(db, f)``,
``duration(db, f, include)``); a game without one gets the generic sections
(:mod:`dashboards.generic_sections`), worded by its vocabulary. With "all games" a page draws one
section per game (:func:`each_game`), so no figure pools two games.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import streamlit as st

#: where a game's own sections of the shared analytics pages live: the ``sections`` module of its
#: room in the app. A game without one (a game published as its own package, until its
#: declaration can name one) gets the generic sections.
SECTIONS_MODULE = "dashboards.{game}.sections"


@dataclass(frozen=True)
class Recorder:
    """A game's recorder on the Record page (the declaration's ``recorder`` names one)."""

    new_session: Callable[[], None]
    recording: Callable[[str], None]
    draft_seats: Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class GameApp:
    """One game's parts of the app (see the module docstring)."""

    id: str
    title: str
    declaration: Any  # the registered declaration, None for a game id no longer registered
    module: ModuleType | None

    def part(self, name: str) -> Any:
        """The game's own section ``name`` (``scoring``, ``endings``, ``duration``,
        ``PROTOCOL``), or None when it has none (the page then uses the generic one)."""
        return getattr(self.module, name, None) if self.module is not None else None

    @property
    def board_picture(self) -> Callable[..., None] | None:
        ref = self.declaration.board_picture if self.declaration is not None else None
        picture: Callable[..., None] | None = _resolve(ref)
        return picture

    @property
    def recorder(self) -> Recorder | None:
        ref = self.declaration.recorder if self.declaration is not None else None
        recorder: Recorder | None = _resolve(ref)
        return recorder

    @property
    def pages(self) -> tuple[Any, ...]:
        return tuple(self.declaration.pages) if self.declaration is not None else ()

    def label(self, group: str, value: Any) -> str:
        """A recorded id in the game's words (its vocabulary), e.g. a score source."""
        if self.declaration is None or value is None:
            return "–" if value is None else str(value)
        return str(self.declaration.vocabulary.label(group, str(value)))


def _resolve(ref: Any) -> Any:
    if ref is None:
        return None
    from engine.core.game import resolve

    return resolve(ref)


#: why a game could not be loaded when this app first looked (a game installed or broken
#: while the app serves: its module is not importable until the server restarts)
_PROBLEM: list[str] = []
#: (when looked, the entry-point names installed then): looked again after ``INSTALLED_TTL`` s
_INSTALLED: list[tuple[float, frozenset[str]]] = []
INSTALLED_TTL = 30.0


def _rulesets() -> dict[str, Any]:
    """Every registered game. A game whose declaration cannot be loaded is left out and the
    reason kept for :func:`install_problem` (the registry keeps the games it loaded)."""
    from engine.core.game import GameDeclarationError
    from engine.core.registry import rulesets

    try:
        return dict(rulesets())
    except GameDeclarationError as err:
        _PROBLEM[:] = [str(err)]
        return dict(rulesets())  # discovery ran once: the games loaded before the failure


def game_ids() -> list[str]:
    """Every registered game, in the registry's order (the default game first)."""
    return list(_rulesets())


def install_problem() -> str | None:
    """What to tell a visitor when the installed games and the games this app serves differ
    (a game installed, removed or broken while the dashboard runs), in words; None when they
    agree. The installed list is read at most every ``INSTALLED_TTL`` seconds."""
    import time

    from engine.core import registry
    from engine.core.game import ENTRY_POINT_GROUP
    from engine.core.registry import only_games

    served = set(_rulesets())
    restart = ("Restart the dashboard (stop it, then run `playtest dashboard` or `playtest "
               "demo` again) to serve it; the other games are served meanwhile.")
    if _PROBLEM:
        return f"A game could not be loaded: {_PROBLEM[0]}. {restart}"
    now = time.monotonic()
    if not _INSTALLED or now - _INSTALLED[0][0] > INSTALLED_TTL:
        # the registry's own look at the installed packages (the same one it loads games from)
        _INSTALLED[:] = [(now, frozenset(
            ep.name for ep in registry.entry_points(group=ENTRY_POINT_GROUP)))]
    installed = _INSTALLED[0][1]
    only = only_games()
    if only is not None:  # PLAYTEST_ONLY_GAMES hides the others on purpose: not newly installed
        installed = installed & only
    new = sorted(installed - served)
    if new:
        return (f"{', '.join(new)} was installed while the dashboard was running. {restart}")
    return None


def title(game: str) -> str:
    """A game's name as its designers write it (its declaration's title), else the id in
    words (a game in the warehouse that is no longer installed)."""
    rs = _rulesets().get(game)
    name = rs.title if rs is not None else None
    return str(name) if name else game.replace("_", " ").replace("-", " ").title()


def app(game: str) -> GameApp:
    """The app parts of ``game`` (generic sections for a game without its own module)."""
    return GameApp(game, title(game), _rulesets().get(game), section_module(game))


def section_module(game: str) -> ModuleType | None:
    """The module of ``game``'s own sections (:data:`SECTIONS_MODULE`), None when its room has
    none (an import error inside the module itself is raised, not taken for "none")."""
    name = SECTIONS_MODULE.format(game=game)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name and (name == err.name or name.startswith(err.name + ".")):
            return None
        raise


def shown_games(db: Path, games: tuple[str, ...]) -> list[str]:
    """The games a page draws a section for: the Game filter's choice, else every game in the
    warehouse (in :func:`game_ids` order)."""
    from dashboards import queries

    if games:
        return list(games)
    present = set(queries.filter_options(db)["games"])
    order = game_ids()
    return [g for g in order if g in present] + sorted(present - set(order))


def each_game(db: Path, f: Any, draw: Callable[[GameApp, Any], None],
              empty: str | None = None) -> None:
    """Draw one section per game shown (:func:`shown_games`), each with the filters restricted
    to that game, under a header naming it when there is more than one; ``empty`` is shown when
    there is no game at all."""
    import dataclasses

    from dashboards import ui

    games = shown_games(db, tuple(f.games))
    if not games:
        ui.empty_state(empty or ui.NO_GAMES)
        return
    for g in games:
        ga = app(g)
        if len(games) > 1:
            st.header(ga.title, divider="gray")
        with _keyed(g):
            draw(ga, dataclasses.replace(f, games=(g,)))


class _Keys:
    """The game whose section is being drawn: widget keys inside a section are prefixed with
    it (:func:`key`), so two games' sections on one page never share a widget."""

    current: str = ""


def current_game() -> str:
    """The game whose section is being drawn ("" outside a game's section)."""
    return _Keys.current


def key(name: str) -> str:
    """A widget key unique to the game section being drawn."""
    return f"{_Keys.current}:{name}" if _Keys.current else name


class _keyed:
    def __init__(self, game: str) -> None:
        self.game = game

    def __enter__(self) -> None:
        self.before = _Keys.current
        _Keys.current = self.game

    def __exit__(self, *exc: object) -> None:
        _Keys.current = self.before


def sections(db: Path, f: Any) -> Iterator[tuple[GameApp, Any]]:
    """(game app, filters restricted to it) for each game shown, for pages that lay out their
    sections themselves."""
    import dataclasses

    for g in shown_games(db, tuple(f.games)):
        yield app(g), dataclasses.replace(f, games=(g,))


__all__ = ["SECTIONS_MODULE", "GameApp", "Recorder", "app", "each_game",
           "game_ids", "key", "sections", "section_module", "shown_games", "title"]
