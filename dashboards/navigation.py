"""The app's pages: the shared ones by section, then each game's own (from its app part).

``app.py`` builds ``st.navigation`` from :func:`sections`; the tests and the page benchmark
read the same list, so no page list is kept by hand anywhere else.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dashboards import gameapps
from engine.core.game import is_page_function, page_file


@dataclass(frozen=True)
class PageSpec:
    """One page: its file under ``dashboards/``, title, icon and address."""

    path: str
    title: str
    icon: str
    url_path: str
    default: bool = False
    game: str | None = None  # the game a game's own page is about
    #: a game's ``"module:function"`` page: the function st.Page runs (``path`` is the text)
    run: Callable[[], None] | None = None


#: the shared pages, by section (they work for every registered game)
SHARED: dict[str, list[PageSpec]] = {
    "Capture": [
        PageSpec("views/record.py", "Record a game", ":material/edit_note:", "record"),
        PageSpec("views/import_games.py", "Import", ":material/upload_file:", "import"),
    ],
    "Check": [
        PageSpec("views/overview.py", "Games", ":material/table_view:", "games", default=True),
        PageSpec("views/audit.py", "Audit", ":material/rule:", "audit"),
        PageSpec("views/replay.py", "Replay viewer", ":material/hexagon:", "replay"),
    ],
    "Analyse": [
        PageSpec("views/duration.py", "Duration", ":material/timer:", "duration"),
        PageSpec("views/scoring.py", "Scoring sources", ":material/leaderboard:", "scoring"),
        PageSpec("views/endings.py", "End conditions", ":material/flag:", "endings"),
        PageSpec("views/observations.py", "Observation protocols", ":material/visibility:",
                 "observations"),
        PageSpec("views/balance.py", "Balance", ":material/balance:", "balance"),
        PageSpec("views/variants.py", "Variants", ":material/compare_arrows:", "variants"),
    ],
}


DASHBOARDS = Path(__file__).resolve().parent


def page_path(declaration: Any, script: str) -> str:
    """A game page's file as ``st.Page`` takes it: relative to ``dashboards/`` when it lies
    there, else absolute (``script`` is absolute or relative to the game package's folder)."""
    path = page_file(declaration, script)
    return str(path.relative_to(DASHBOARDS)) if path.is_relative_to(DASHBOARDS) else str(path)


_MARKDOWN = re.compile(r"([\\`*_\[\]()<>#+\-.!|{}~$:])")


def plain(text: str) -> str:
    """``text`` (a game package's words: its error, its names) escaped so that Streamlit shows
    it as written, never as Markdown (no link, image or emoji code of a guest's rendered)."""
    return _MARKDOWN.sub(r"\\\1", text)


def _guarded(game_title: str, title: str, script: str) -> Callable[[], None]:
    """A game's ``"module:function"`` page as ``st.Page`` takes it: resolved when the page is
    opened, its error shown inside the page (never anywhere else)."""
    def draw() -> None:
        from engine.core.game import resolve

        with page_errors(game_title, title):
            resolve(script)()

    draw.__name__ = re.sub(r"\W", "_", script)  # st.Page names a function page after it
    return draw


class page_errors:  # noqa: N801 - used as a ``with`` block, like contextlib's helpers
    """Show an error a game's page raises inside that page, as a message naming the game and
    the page (Streamlit's own rerun and stop signals pass through)."""

    def __init__(self, game_title: str, title: str) -> None:
        self.game_title, self.title = game_title, title

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: object) -> bool:
        if err is None or not isinstance(err, Exception):
            return False
        import streamlit as st

        st.error(plain(f"The page {self.title!r} of {self.game_title} failed: "
                       f"{type(err).__name__}: {err}"), icon=":material/error:")
        return True


def _url_owners(apps: list[gameapps.GameApp]) -> dict[str, str]:
    """url_path -> the game whose page keeps it when games claim one address: the game whose
    id it starts with (``pig-turn-risk`` is Pig's), else the first in registry order; so no
    game, broken or not, takes another's page by registering first."""
    claims = [(not (p.url_path == ga.id or p.url_path.startswith(ga.id + "-")), k, p.url_path,
               ga.id) for k, ga in enumerate(apps) for p in ga.pages]
    owner: dict[str, str] = {}
    for _named, _k, url, game in sorted(claims):
        owner.setdefault(url, game)
    return owner


def checked_sections() -> tuple[dict[str, list[PageSpec]], list[str]]:
    """The shared sections, then one section per game whose declaration adds pages (titled by
    the game), and the notices of what was left out: each game plugin the registry refused and
    each page dropped (at registration, or here: a ``url_path`` a shared page or another
    game's page already has, a page file gone since)."""
    from engine.core.registry import refused

    out = {name: list(pages) for name, pages in SHARED.items()}
    notices = [r.text() for r in refused()]
    taken = {p.url_path: f"the shared page {p.title!r}" for ps in SHARED.values() for p in ps}
    apps = [gameapps.app(game) for game in gameapps.game_ids()]
    owner = _url_owners(apps)
    for ga in apps:
        game = ga.id
        extra: list[PageSpec] = []
        for p in ga.pages:
            icon = p.icon or ":material/article:"
            why = None
            if p.url_path in taken:
                why = f"its url_path {p.url_path!r} is taken by {taken[p.url_path]}"
            elif owner.get(p.url_path, game) != game:
                why = (f"its url_path {p.url_path!r} is the {owner[p.url_path]} game's (a "
                       "game's own pages' addresses start with its id)")
            elif is_page_function(p.script):
                extra.append(PageSpec(p.script, p.title, icon, p.url_path, game=game,
                                      run=_guarded(ga.title, p.title, p.script)))
            elif not page_file(ga.declaration, p.script).is_file():
                why = f"there is no page file {page_file(ga.declaration, p.script)}"
            else:
                extra.append(PageSpec(page_path(ga.declaration, p.script), p.title, icon,
                                      p.url_path, game=game))
            if why is not None:
                notices.append(f"the page {p.title!r} of {ga.title} is left out: {why}")
            else:
                taken[p.url_path] = f"{ga.title}'s page {p.title!r}"
        if extra:
            out[ga.title] = extra
    return out, notices


def sections() -> dict[str, list[PageSpec]]:
    """The app's pages by section (:func:`checked_sections` without its notices)."""
    return checked_sections()[0]


def all_pages() -> list[PageSpec]:
    """Every page of the app, in navigation order."""
    return [p for pages in sections().values() for p in pages]
