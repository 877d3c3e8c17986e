"""What the app knows about each game, in ONE place: the per-game dispatch of every page.

Every shared page (Record, Games, Audit, Replay viewer, Duration, Scoring sources, End
conditions, Observation protocols) asks this module for the game it is drawing, never tests a
game id itself. A game's app part is a module of this package named in :data:`APP_MODULES`
(``dashboards/gameapps/<module>.py``) that may define:

* ``replay_panel(log, pos, result, ruleset)``: the board picture and table state in the Replay
  viewer (the generic panel lists seats and findings);
* ``new_session()`` and ``recording(draft_id)``: the recorder (Record page);
* ``draft_seats(header)``: how a draft's seats are named in the Record page's list;
* ``scoring(db, f)``, ``endings(db, f)``, ``duration(db, f, include)``: the game's section of
  the Scoring sources, End conditions and Duration pages;
* ``EXTRA_PAGES``: the game's own pages (:class:`ExtraPage`, files in ``dashboards/views/``).

A game registered with the engine but absent from :data:`APP_MODULES` (e.g. a game installed
as a plug-in) gets the generic parts: its title from the ruleset, a generic replay panel,
scoring sources from the shared ``ledger`` table, and a note where a page needs a part the game
does not provide. With "all games" a page draws one section per game (:func:`each_game`), so
no figure pools two games.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import streamlit as st

#: game id -> module of this package holding the game's app parts (the one per-game list)
APP_MODULES: dict[str, str] = {
    "mandate2038": "mandate2038",
    "vestige": "vestige",
}


@dataclass(frozen=True)
class ExtraPage:
    """A page a game adds to the app (its file under ``dashboards/views/``)."""

    path: str
    title: str
    icon: str
    url_path: str


@dataclass(frozen=True)
class GameApp:
    """One game's parts of the app (see the module docstring)."""

    id: str
    title: str
    module: ModuleType | None

    def part(self, name: str) -> Any:
        """The game's ``name`` part, or None when the game does not provide it."""
        return getattr(self.module, name, None) if self.module is not None else None

    @property
    def extra_pages(self) -> tuple[ExtraPage, ...]:
        return tuple(self.part("EXTRA_PAGES") or ())


def _rulesets() -> dict[str, Any]:
    try:
        from engine.core.registry import rulesets

        return dict(rulesets())
    except Exception:  # the engine failing to import must not take the app down
        return {}


def game_ids() -> list[str]:
    """Every game the app can show: the engine's registered rulesets (known ones first)."""
    known = [g for g in APP_MODULES]
    return known + sorted(g for g in _rulesets() if g not in APP_MODULES)


def title(game: str) -> str:
    """A game's name as its designers write it (the ruleset's title), else the id in words."""
    rs = _rulesets().get(game)
    name = rs.title if rs is not None else None
    return str(name) if name else game.replace("_", " ").replace("-", " ").title()


def app(game: str) -> GameApp:
    """The app parts of ``game`` (generic parts for a game without its own module)."""
    mod_name = APP_MODULES.get(game)
    module = importlib.import_module(f"{__name__}.{mod_name}") if mod_name else None
    return GameApp(game, title(game), module)


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


__all__ = ["APP_MODULES", "ExtraPage", "GameApp", "app", "each_game",
           "game_ids", "key", "sections", "shown_games", "title"]
