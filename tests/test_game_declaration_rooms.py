"""The declaration members that moved game knowledge out of shared code (issue 27):
``session_folder`` (a folder, or a zip of one, holding a marker file: which game reads it) and
``content_pack`` (the pydantic model of the game's ``pack.json``). Each is checked at
registration (an unresolvable string is refused naming the member), and the shared readers,
``schemas.packs`` and ``schemas.export`` work from the registry for any game that declares one.

The registry is process-wide, so the cases that register games run in a fresh interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.core.game import OPTIONAL, Folder, Game
from engine.core.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[1]

# a guest game's own module: its content pack model and its session folder reader
_GUEST_MODULE = '''
from pydantic import BaseModel

class CluePack(BaseModel):
    game: str
    rules_version: str
    clues: list[str]


def read_folder(files, source, raw):
    return ("not a log", source)  # a broken reader: the folder is unreadable, saying so
'''

_CLONE = """
    from engine.core.game import Folder, GameDeclarationError
    from engine.core.registry import get_ruleset, register
    from engine.vestige.ruleset import VestigeRuleset

    class Clone(VestigeRuleset):
        game = "clone"
        title = "Clone"
        tables = {}  # Vestige's are Vestige's (a table belongs to one game)
"""


def _fresh(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "clue_guest.py").write_text(_GUEST_MODULE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(_CLONE + code)],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)


def test_the_members_are_optional_with_none_as_default() -> None:
    assert OPTIONAL["session_folder"] is None and OPTIONAL["content_pack"] is None
    assert Game.session_folder is None and Game.content_pack is None


@pytest.mark.needs_game("mandate2038")
def test_mandate_declares_its_session_folder_and_content_pack() -> None:
    rs = get_ruleset("mandate2038")
    assert rs is not None
    assert rs.session_folder == Folder("receipt.json",
                                       "ingest.mandate2038.session:read_session_files")
    assert rs.content_pack == "schemas.mandate2038.content:ContentPack"


@pytest.mark.needs_game("mandate2038", "vestige")
def test_an_unresolvable_or_malformed_member_is_refused_naming_it(tmp_path: Path) -> None:
    run = _fresh("""
    for members in (
        {"content_pack": "clue_guest:NoSuchPack"},
        {"content_pack": "clue_guest_typo:CluePack"},
        {"content_pack": 42},
        {"session_folder": Folder("clue.txt", "clue_guest:read_foldr")},
        {"session_folder": Folder("sub/clue.txt", "clue_guest:read_folder")},
        {"session_folder": "clue.txt"},
        {"session_folder": Folder("receipt.json", "clue_guest:read_folder")},
        {"content_pack": "clue_guest:CluePack",
         "session_folder": Folder("clue.txt", "clue_guest:read_folder")},
    ):
        try:
            register(type("Odd", (Clone,), members)())
        except GameDeclarationError as err:
            print("ERR", err)
        else:
            print("REGISTERED", sorted(members))
    """, tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "ERR game 'clone': content_pack 'clue_guest:NoSuchPack' does not resolve" in lines[0]
    assert "content_pack 'clue_guest_typo:CluePack' does not resolve: no module named" in lines[1]
    assert "'content_pack' must be a 'module:Model' string" in lines[2]
    assert "session_folder.reader 'clue_guest:read_foldr' does not resolve" in lines[3]
    assert "'session_folder' must be an engine.core.game.Folder whose marker is a file" in lines[4]
    assert "'session_folder' must be an engine.core.game.Folder" in lines[5]
    assert "session_folder marker 'receipt.json' is the mandate2038 game's" in lines[6]
    assert lines[7] == "REGISTERED ['content_pack', 'session_folder']"


@pytest.mark.needs_game("vestige")
def test_packs_export_and_folders_work_from_the_registry_for_a_guest(tmp_path: Path) -> None:
    pack = tmp_path / "data" / "content" / "clone" / "1.0"
    pack.mkdir(parents=True)
    (pack / "pack.json").write_text('{"game": "clone", "rules_version": "1.0", '
                                    '"clues": ["rope"]}', encoding="utf-8")
    other = tmp_path / "data" / "content" / "vestige" / "1.0"
    other.mkdir(parents=True)
    (other / "pack.json").write_text("{}", encoding="utf-8")
    session = tmp_path / "session"
    session.mkdir()
    (session / "clue.txt").write_text("rope", encoding="utf-8")
    run = _fresh(f"""
    import os
    os.environ["PLAYTEST_DATA_DIR"] = {str(tmp_path / "data")!r}

    class Guest(Clone):
        content_pack = "clue_guest:CluePack"
        session_folder = Folder("clue.txt", "clue_guest:read_folder")

    register(Guest())
    from pathlib import Path

    from ingest import formats
    from schemas.export import exports
    from schemas.packs import PackError, load_pack

    print("PACK", load_pack("clone", "1.0").clues)
    for game in ("vestige", "nosuchgame"):
        try:
            load_pack(game, "1.0")
        except (PackError, FileNotFoundError) as err:
            print("NOPACK-" + game, type(err).__name__, err)
    print("EXPORT", sorted(n for n in exports(own_only=False) if "content-pack" in n))
    print("MARKERS", formats.folder_markers())
    (log,) = formats.read_path(Path({str(session)!r}))
    print("FOLDER", log.unreadable)
    """, tmp_path)
    assert run.returncode == 0, run.stderr
    out = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert out["PACK"] == "['rope']"
    assert out["NOPACK-vestige"] == ("PackError no content pack model for 'vestige': its "
                                     "declaration has no content_pack")
    assert out["NOPACK-nosuchgame"].startswith("FileNotFoundError no content pack for nosuchgame")
    assert "clone-content-pack.schema.json" in out["EXPORT"]
    assert "clue.txt" in out["MARKERS"]
    # the guest's reader was asked (it returned no log: the folder is unreadable, saying so)
    assert out["FOLDER"].startswith("the clone game's session folder reader returned tuple")
