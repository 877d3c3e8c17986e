"""Fake game plugins for the tests (issue 31, "A plugin is a guest"): broken ones and working
ones, registered through the ``playtest.games`` entry points the way an installed package is,
without installing anything.

:func:`install` writes the plugins' modules into a folder, puts it on ``sys.path`` and makes
the registry discover them beside the installed games (Mandate 2038, Vestige, Pig):
``importlib.metadata.entry_points`` as the registry calls it returns the installed entry points
plus the fakes, and the registry starts afresh (monkeypatch restores everything). :func:`write_dist`
writes the same plugins as a ``.dist-info`` folder, for a subprocess with it on ``PYTHONPATH``.
"""

from __future__ import annotations

import sys
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

GROUP = "playtest.games"

#: every fake plugin: entry point name -> value
BROKEN: dict[str, str] = {
    "crash": "playtest_guest_crash:GAME",  # its import raises
    "halfgame": "playtest_guests:HALF",  # no 'apply'
    "wrongtype": "playtest_guests:WRONG_TYPE",  # location_parts is a string
    "vestige": "playtest_guests:IMPOSTOR",  # claims an installed game's id
    "handgame": "playtest_guests:HAND",  # a location part the warehouse cannot store
    "typo": "playtest_guests:TYPO",  # 'timing' names a function that does not exist
    "tablegrab": "playtest_guests:TABLE_GRAB",  # declares the shared table 'games'
    "greedy": "playtest_guests:GREEDY",  # a format whose mark finds every file
}
#: why each broken plugin is refused: words the reason must hold
REASONS: dict[str, tuple[str, ...]] = {
    "crash": ("loading it raised RuntimeError", "guest import fails"),
    "halfgame": ("'apply'",),
    "wrongtype": ("'location_parts'",),
    "vestige": ("already registered",),
    "handgame": ("location part 'hand'",),
    "typo": ("timing", "playtest_pig.timing:pig_timin"),
    "tablegrab": ("'games'", "toolkit's own"),
    "greedy": ("finds every file",),
}
WORKING: dict[str, str] = {
    "pagey": "playtest_guests:PAGEY",  # pages of every kind, some broken
    "badreader": "playtest_guests:BAD_READER",  # its reader returns no log
    "mimic": "playtest_guests:MIMIC",  # its mark finds Mandate 2038's notation headers
    "pigboom": "playtest_guests:BOOM",  # its engine raises in setup
}

GUESTS = '''
from pathlib import Path
from typing import Literal

import streamlit as st

from engine.core.game import REQUIRED_FUNCTIONS, REQUIRED_VALUES, Format, Page
from playtest_pig.ruleset import PigRuleset
from playtest_pig.schema import PigHeader, PigLog

HERE = Path(__file__).resolve().parent
PIG_SHEET = "playtest_pig.sheet:read_pig_sheet"


class Guest(PigRuleset):
    """Pig under another id, with nothing of Pig's own (its tables, pages, formats)."""

    tables = {}
    pages = ()
    formats = ()
    rulings_dir = None
    protocols_dir = None
    recorder = None


def _guest(game, **members):
    return type(f"Guest_{game}", (Guest,), {"game": game, "title": game.title(), **members})()


def _half():
    class Half:
        pass
    half, template = Half(), _guest("halfgame")
    for name in REQUIRED_VALUES + REQUIRED_FUNCTIONS:
        if name != "apply":
            setattr(half, name, getattr(template, name))
    return half


HALF = _half()
WRONG_TYPE = _guest("wrongtype", location_parts="round")
IMPOSTOR = _guest("vestige", title="Not Vestige")
HAND = _guest("handgame", location_parts=("hand", "trick"))
TYPO = _guest("typo", timing="playtest_pig.timing:pig_timin")
TABLE_GRAB = _guest("tablegrab", tables={"games": (("guest_note", "VARCHAR"),)})
GREEDY = _guest("greedy", formats=(Format("notation", (".grd",), reader=PIG_SHEET,
                                          mark=rb"(?s).*"),))


def draw_ok():
    st.title("Guest chart")
    st.write("drawn by a function page")


def explode():
    raise RuntimeError("the guest page explodes ![see](http://example.invalid/x.png)")


PAGEY = _guest("pagey", pages=(
    Page("Guest chart", "playtest_guests:draw_ok", "guest-chart"),
    Page("Guest explodes", "playtest_guests:explode", "guest-explodes"),
    Page("Guest file explodes", str(HERE / "explode_page.py"), "guest-file-explodes"),
    Page("Guest missing", "no_such_page.py", "guest-missing"),
    Page("Guest typo", "playtest_guests:no_such_function", "guest-typo"),
    Page("Guest clash", str(HERE / "ok_page.py"), "import"),
    Page("Guest steals", str(HERE / "ok_page.py"), "pig-turn-risk"),  # Pig's (registered later)
))


def not_a_log(data, name):
    return "certainly not a log"


BAD_READER = _guest("badreader", formats=(Format("notation", (".badr",), reader=
                                                 "playtest_guests:not_a_log"),))
MIMIC = _guest("mimic", formats=(Format("notation", (".mim",), reader=PIG_SHEET,
                                        mark=rb"(?m)^\\[Session "),))


class BoomHeader(PigHeader):
    game: Literal["pigboom"] = "pigboom"


class BoomLog(PigLog):
    header: BoomHeader


class Boom(Guest):
    game = "pigboom"
    title = "Pig that explodes"
    header_model = BoomHeader
    log_model = BoomLog
    events_adapter = None

    def setup(self, header, sink):
        raise RuntimeError("the guest engine explodes in setup")


BOOM = Boom()
'''

#: a fourth game's declaration module: Pig under the id ``fuzzguest`` with nothing of Pig's
#: own; ``{members}`` (class members, indented) and ``{after}`` (module code) say what is wrong
GUEST_BASE = '''
from engine.core.game import Format, Page, REQUIRED_FUNCTIONS, REQUIRED_VALUES
from playtest_pig.ruleset import PigRuleset


class Guest(PigRuleset):
    game = "fuzzguest"
    title = "Fuzz guest"
    tables = {{}}
    pages = ()
    formats = ()
    rulings_dir = None
    protocols_dir = None
    recorder = None
{members}

GAME = Guest()
{after}
'''


FILES = {
    "playtest_guests.py": GUESTS,
    "playtest_guest_crash.py": 'raise RuntimeError("guest import fails")\n',
    "explode_page.py": 'raise RuntimeError("the guest page file explodes")\n',
    "ok_page.py": 'import streamlit as st\n\nst.title("Guest clash")\n',
}


def write_modules(folder: Path) -> Path:
    """The plugins' modules, written into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in FILES.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def write_dist(folder: Path, plugins: dict[str, str]) -> Path:
    """``folder`` holding the modules and a ``playtest_guests-0.1.dist-info`` declaring
    ``plugins`` in the entry-point group: put on ``PYTHONPATH``, they are installed plugins."""
    write_modules(folder)
    dist = folder / "playtest_guests-0.1.dist-info"
    dist.mkdir(exist_ok=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: playtest-guests\n"
                                   "Version: 0.1\n", encoding="utf-8")
    lines = [f"[{GROUP}]"] + [f"{name} = {value}" for name, value in plugins.items()]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def install(monkeypatch: Any, folder: Path, plugins: dict[str, str]) -> None:
    """Make the registry discover ``plugins`` (name -> value) beside the installed games, in
    this process, from a fresh start (restored by ``monkeypatch``). The installation is the
    test's whole world: ``PLAYTEST_ONLY_GAMES`` is unset for it (the registry serves every
    installed game beside the guests, as the guest tests check), in this process and in the
    commands it starts."""
    from engine.core import registry

    write_modules(folder)
    monkeypatch.syspath_prepend(str(folder))
    for module in ("playtest_guests", "playtest_guest_crash"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    real = registry.entry_points

    def entry_points(group: str) -> list[EntryPoint]:
        fakes = [EntryPoint(name, value, group) for name, value in plugins.items()]
        return [*real(group=group), *fakes]

    monkeypatch.setattr(registry, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_RULESETS", {})
    monkeypatch.setattr(registry, "_REFUSED", [], raising=False)
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.delenv(registry.ONLY_GAMES_ENV, raising=False)
