"""The app's pages: the shared ones by section, then each game's own (from its app part).

``app.py`` builds ``st.navigation`` from :func:`sections`; the tests and the page benchmark
read the same list, so no page list is kept by hand anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def sections() -> dict[str, list[PageSpec]]:
    """The shared sections, then one section per game that adds pages (titled by the game)."""
    out = {name: list(pages) for name, pages in SHARED.items()}
    for game in gameapps.game_ids():
        ga = gameapps.app(game)
        extra = [PageSpec(p.path, p.title, p.icon, p.url_path, game=game)
                 for p in ga.extra_pages]
        if extra:
            out[ga.title] = extra
    return out


def all_pages() -> list[PageSpec]:
    """Every page of the app, in navigation order."""
    return [p for pages in sections().values() for p in pages]
