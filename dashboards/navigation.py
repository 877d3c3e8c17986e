"""The app's pages: the shared ones by section, then each game's own (from its app part).

``app.py`` builds ``st.navigation`` from :func:`sections`; the tests and the page benchmark
read the same list, so no page list is kept by hand anywhere else.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dashboards import gameapps


@dataclass(frozen=True)
class PageSpec:
    """One page: its file under ``dashboards/``, title, icon and address."""

    path: str
    title: str
    icon: str
    url_path: str
    default: bool = False
    game: str | None = None  # the game a game's own page is about


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
    path = Path(script)
    if not path.is_absolute():
        path = Path(inspect.getfile(type(declaration))).resolve().parent / path
    path = path.resolve()
    return str(path.relative_to(DASHBOARDS)) if path.is_relative_to(DASHBOARDS) else str(path)


def sections() -> dict[str, list[PageSpec]]:
    """The shared sections, then one section per game whose declaration adds pages (titled by
    the game)."""
    out = {name: list(pages) for name, pages in SHARED.items()}
    for game in gameapps.game_ids():
        ga = gameapps.app(game)
        extra = [PageSpec(page_path(ga.declaration, p.script), p.title,
                          p.icon or ":material/article:", p.url_path, game=game)
                 for p in ga.pages]
        if extra:
            out[ga.title] = extra
    return out


def all_pages() -> list[PageSpec]:
    """Every page of the app, in navigation order."""
    return [p for pages in sections().values() for p in pages]
