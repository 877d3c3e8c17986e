"""The game registry (issue 16): games discovered through the ``playtest.games`` entry points,
each declaration checked once at registration (a duplicate id or a missing member is an error
naming it, defaults filled in once), and dispatch on the header's ``game`` (log models,
formats, writers, the default game of a header without one).

The registry is process-wide, so the cases that register games run in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.metadata import entry_points

import pytest

from engine.core.game import ENTRY_POINT_GROUP, OPTIONAL, REQUIRED_FUNCTIONS, REQUIRED_VALUES
from engine.core.registry import DEFAULT_GAME, get_ruleset, rulesets


def _fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


# A whole declaration copied from Vestige's, under another id: what a test game needs.
_CLONE = """
    import copy
    from engine.core.game import Game, GameDeclarationError
    from engine.core.registry import get_ruleset, register, rulesets
    from engine.vestige.ruleset import VestigeRuleset

    class Clone(VestigeRuleset):
        game = "clone"
        title = "Clone"
        tables = {}  # Vestige's are Vestige's (a table belongs to one game)
"""


@pytest.mark.needs_game("mandate2038", "vestige")
def test_the_toolkits_games_are_declared_as_entry_points() -> None:
    # Mandate 2038 and Vestige are found the way a separately installed game is found
    eps = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    assert eps.get("mandate2038") == "engine.mandate2038:RULESET"
    assert eps.get("vestige") == "engine.vestige:RULESET"
    assert list(rulesets())[0] == DEFAULT_GAME == "mandate2038"
    assert {"mandate2038", "vestige"} <= set(rulesets())


@pytest.mark.needs_game("mandate2038", "vestige")
def test_registering_an_existing_id_fails_naming_it() -> None:
    run = _fresh(_CLONE + """
    class Impostor(VestigeRuleset):
        title = "Not Vestige"

    try:
        register(Impostor())
    except GameDeclarationError as err:
        print("ERR", err)
    assert rulesets()["vestige"].title == "Vestige"  # the first declaration stays
    register(get_ruleset("vestige"))  # the same object again: nothing changes
    """)
    assert run.returncode == 0, run.stderr
    assert "ERR game 'vestige' is already registered" in run.stdout


@pytest.mark.parametrize("member", ["title", "tables", "location_parts", "log_model", "apply",
                                    "records"])
def test_a_declaration_missing_a_required_member_fails_naming_it(member: str) -> None:
    run = _fresh(f"""
    from engine.core.game import GameDeclarationError, REQUIRED_FUNCTIONS, REQUIRED_VALUES
    from engine.core.registry import register
    from engine.vestige.ruleset import VestigeRuleset

    src = VestigeRuleset()
    class Bare:  # every member of Vestige's declaration but {member!r}; not a Game subclass
        pass
    bare = Bare()
    for name in REQUIRED_VALUES + REQUIRED_FUNCTIONS:
        if name != {member!r}:
            setattr(bare, name, getattr(src, name))
    bare.game = "bare"
    try:
        register(bare)
    except GameDeclarationError as err:
        print("ERR", err)
    """)
    assert run.returncode == 0, run.stderr
    assert "ERR game 'bare'" in run.stdout and repr(member) in run.stdout, run.stdout


def test_defaults_are_filled_once_and_a_complete_declaration_registers() -> None:
    run = _fresh("""
    from engine.core.game import OPTIONAL, REQUIRED_FUNCTIONS, REQUIRED_VALUES
    from engine.core.registry import get_ruleset, register
    from engine.vestige.ruleset import VestigeRuleset

    src = VestigeRuleset()
    class Bare:
        pass
    bare = Bare()
    for name in REQUIRED_VALUES + REQUIRED_FUNCTIONS:
        setattr(bare, name, getattr(src, name))
    bare.game, bare.title, bare.tables = "bare", "Bare", {}
    register(bare)
    got = get_ruleset("bare")
    assert got is bare
    missing = [n for n in OPTIONAL if n not in vars(bare)]
    assert not missing, missing
    assert bare.formats == () and bare.simulate_one is None and bare.pages == ()
    """)
    assert run.returncode == 0, run.stderr


@pytest.mark.needs_game("mandate2038", "vestige")
def test_a_table_of_another_game_is_refused_naming_it() -> None:
    run = _fresh(_CLONE + """
    class Thief(Clone):
        tables = {"vestige_jobs": (("seat", "INTEGER"),), "seats": (("x", "INTEGER"),)}

    try:
        register(Thief())
    except GameDeclarationError as err:
        print("ERR", err)
    """)
    assert run.returncode == 0, run.stderr
    assert "ERR game 'clone': the table 'vestige_jobs' is the vestige game's" in run.stdout


def test_malformed_members_are_refused_naming_them() -> None:
    run = _fresh(_CLONE + """
    for attr, value in [("tables", {"t": (("x", "TEXT"),)}), ("location_parts", "round"),
                        ("rules_versions", ()), ("game", "Bad Id")]:
        c = Clone()
        setattr(c, attr, value)
        try:
            register(c)
        except GameDeclarationError as err:
            print("ERR", attr, "|", err)
    """)
    assert run.returncode == 0, run.stderr
    lines = [ln for ln in run.stdout.splitlines() if ln.startswith("ERR")]
    assert len(lines) == 4, run.stdout
    for line in lines:
        attr, msg = line[4:].split(" | ")
        assert attr in msg or (attr == "tables" and "TEXT" in msg), line


@pytest.mark.needs_game("mandate2038", "vestige")
def test_a_game_registered_first_does_not_hide_the_installed_ones() -> None:
    run = _fresh(_CLONE + """
    register(Clone())
    assert get_ruleset("clone") is not None
    assert list(rulesets())[:2] == ["mandate2038", "vestige"], list(rulesets())
    """)
    assert run.returncode == 0, run.stderr


@pytest.mark.needs_game("mandate2038", "vestige")
def test_a_broken_game_package_is_refused_with_a_clear_reason() -> None:
    # a guest: the other games are served, the broken one is listed with its reason (issue 31)
    run = _fresh("""
    from importlib.metadata import EntryPoint

    import engine.core.registry as reg

    installed = reg.entry_points
    broken = EntryPoint("broken", "no_such_game_package:GAME", reg.ENTRY_POINT_GROUP)
    reg.entry_points = lambda group: [*installed(group=group), broken]
    assert reg.get_ruleset("mandate2038") is not None
    for r in reg.refused():
        print("REFUSED", r.text())
    """)
    assert run.returncode == 0, run.stderr
    assert "REFUSED the game plugin 'broken'" in run.stdout
    assert "no_such_game_package" in run.stdout
    assert "reinstall" not in run.stderr  # the toolkit's own entry points are installed


def test_missing_entry_points_are_said_with_the_fix_and_nothing_is_patched_in() -> None:
    # the entry points are the one way a game is found (issue 27: no fallback naming games)
    run = _fresh("""
    import engine.core.registry as reg

    reg.entry_points = lambda group: []  # as if the entry points were not installed
    print(list(reg.rulesets()), reg.get_ruleset(reg.DEFAULT_GAME))
    """)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[] None"
    assert "reinstall the toolkit (pip install -e .)" in run.stderr


@pytest.mark.needs_game("mandate2038", "vestige")
def test_unreadable_entry_point_metadata_is_said() -> None:
    run = _fresh("""
    import engine.core.registry as reg

    def unreadable(group):
        raise ValueError("bad metadata")

    reg.entry_points = unreadable
    print(list(reg.rulesets()))
    print([r.text() for r in reg.refused()])
    """)
    assert run.returncode == 0, run.stderr
    ids, said = run.stdout.splitlines()
    assert ids == "[]"  # no fallback: the entry points are the one way a game is found
    assert "could not be read (ValueError: bad metadata)" in said


_REFUSED_CLONE = _CLONE + """
    class Odd(Clone):
        game = "odd"
        title = "Odd"

    for members in ({MEMBERS}):
        try:
            register(type("Odd2", (Odd,), members)())
        except GameDeclarationError as err:
            print("ERR", err)
        else:
            print("REGISTERED", members)
"""


def test_a_location_part_the_warehouse_cannot_store_is_refused_naming_it() -> None:
    run = _fresh(_REFUSED_CLONE.replace("{MEMBERS}", """
        {"location_parts": ("hand", "trick")},
        {"location_parts": ("round", "hand")},
        {"location_parts": ("turn", "round")},
        {"location_parts": ("era", "cycle", "round", "turn")},"""))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "the location part 'hand' cannot be stored by the warehouse" in lines[0]
    assert "the location part 'hand' cannot be stored" in lines[1]
    assert "the location part 'round' comes after 'turn'" in lines[2]
    assert lines[3].startswith("REGISTERED")


def test_a_code_string_that_does_not_resolve_is_refused_naming_member_and_string() -> None:
    run = _fresh(_REFUSED_CLONE.replace("{MEMBERS}", """
        {"timing": "engine.vestige.nosuchmodule:timing"},
        {"board_picture": "engine.vestige.ruleset:no_such_picture"},
        {"recorder": "not a reference"},
        {"formats": (Format("notation", (".odd",), reader="engine.vestige.ruleset:nope"),)},
        {"timing": "engine.vestige.ruleset:VestigeRuleset"},""").replace(
        "from engine.core.game import Game,", "from engine.core.game import Format, Game,"))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "ERR game 'odd': timing 'engine.vestige.nosuchmodule:timing' does not resolve: no " \
        "module named 'engine.vestige.nosuchmodule'" in lines[0]
    assert "board_picture 'engine.vestige.ruleset:no_such_picture' does not resolve" in lines[1]
    assert "recorder 'not a reference' does not resolve" in lines[2]
    assert "formats[0] (notation).reader 'engine.vestige.ruleset:nope'" in lines[3]
    assert lines[4].startswith("REGISTERED")
    # resolving reads the module's source: the app's modules are not imported by registration
    assert "streamlit" not in run.stderr


@pytest.mark.needs_game("mandate2038", "vestige")
def test_registration_does_not_import_the_app() -> None:
    run = _fresh("""
    import sys
    from engine.core.registry import rulesets
    assert {"mandate2038", "vestige"} <= set(rulesets())
    print(sorted(m for m in sys.modules if m.split(".")[0] in ("dashboards", "streamlit")))
    """)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_the_declaration_lists_are_disjoint() -> None:
    assert not set(REQUIRED_VALUES) & set(OPTIONAL)
    assert not set(REQUIRED_FUNCTIONS) & set(OPTIONAL)


@pytest.mark.needs_game("mandate2038", "vestige")
def test_log_models_and_writers_dispatch_on_the_header_game() -> None:
    from engine.simulate import simulate_one
    from ingest.formats import SUFFIXES, write_log, writers
    from schemas.mandate2038 import MandateLog
    from schemas.vestige import VestigeLog

    mandate, vestige = get_ruleset("mandate2038"), get_ruleset("vestige")
    assert mandate is not None and mandate.log_model is MandateLog
    assert vestige is not None and vestige.log_model is VestigeLog
    assert get_ruleset("no-such-game") is None
    assert {"json", "notation", "csv"} <= set(writers("mandate2038"))
    assert set(writers("no-such-game")) == {"json"}
    assert {".m38", ".txt", ".csv", ".vst", ".json", ".zip"} <= set(SUFFIXES)
    log = simulate_one(7, 0, 3)
    assert write_log(log, "notation").startswith("[")
    alien = log.model_copy(update={"header": log.header.model_copy(update={"game": "no-such-game"})})
    with pytest.raises(ValueError, match="no-such-game"):
        write_log(alien, "notation")


@pytest.mark.needs_game("mandate2038", "vestige")
def test_a_header_without_game_is_read_as_the_default_game() -> None:
    from engine.core.parse import parse_log
    from engine.simulate import simulate_one

    log = simulate_one(7, 1, 3)
    obj = log.model_dump(mode="json")
    del obj["header"]["game"]
    parsed = parse_log(obj)
    assert parsed.readable and parsed.ruleset is get_ruleset(DEFAULT_GAME)
    obj["header"]["game"] = "no-such-game"
    parsed = parse_log(obj)
    assert not parsed.readable and parsed.findings[0].code == "log/unknown-game"


def test_a_new_games_tables_are_created_from_its_declaration_alone() -> None:
    # a game registered before the warehouse is used: its own table and its column of the
    # shared seats table exist after migrate, in schema.TABLES too, with no migration written
    run = _fresh(_CLONE + """
    class Tabled(Clone):
        tables = {"clone_rounds": (("round", "INTEGER"), ("score", "INTEGER")),
                  "seats": (("clone_points", "INTEGER"),)}

    register(Tabled())
    import duckdb
    from ingest.db import StorageError
    from ingest.warehouse.migrations import _existing, declared_ddl, migrate
    from ingest.warehouse.schema import TABLES

    con = duckdb.connect()
    migrate(con)
    cols = _existing(con)
    assert list(cols["clone_rounds"]) == ["game_id", "round", "score"], cols["clone_rounds"]
    assert cols["seats"]["clone_points"] == "INTEGER"
    assert [c for c, _, _ in TABLES["clone_rounds"]] == ["game_id", "round", "score"]
    assert declared_ddl(cols) == []  # nothing left to do: migrating again changes nothing
    cols["clone_rounds"]["score"] = "VARCHAR"
    try:
        declared_ddl(cols)
    except StorageError as err:
        print("ERR", err)
    """)
    assert run.returncode == 0, run.stderr
    assert "ERR the clone game declares clone_rounds.score as INTEGER" in run.stdout


def test_the_builtin_declarations_match_the_released_migrations() -> None:
    import duckdb

    from engine.core.registry import own_games
    from ingest.warehouse.migrations import MIGRATIONS, _existing, declared_ddl

    con = duckdb.connect()
    for _v, _name, sql in MIGRATIONS:
        con.execute(sql)
    # the toolkit's own games: a table the released migrations made matches its declaration
    # (nothing to add or retype); a table they no longer make (a game's own, issue 27) is
    # created from the declaration
    ddl = declared_ddl(_existing(con), own_games())
    assert all(sql.startswith("CREATE TABLE ") for sql in ddl), ddl


@pytest.mark.needs_game("mandate2038", "vestige")
def test_the_game_tables_in_docs_warehouse_md_are_current() -> None:
    from ingest.warehouse.schema import DOC, DOC_END, DOC_START, tables_markdown

    text = DOC.read_text(encoding="utf-8")
    block = text[text.index(DOC_START):text.index(DOC_END) + len(DOC_END)]
    assert block == tables_markdown(), "run `python -m ingest.warehouse.docs`"


def test_a_games_observation_protocol_comes_from_its_declared_folder(tmp_path) -> None:
    import json

    from schemas.packs import data_dir

    src = json.loads((data_dir() / "protocols" / "vestige-observation" / "v1.json")
                     .read_text(encoding="utf-8"))
    src["id"] = "clone-observation"
    folder = tmp_path / "protocols" / "clone-observation"
    folder.mkdir(parents=True)
    (folder / "v1.json").write_text(json.dumps(src), encoding="utf-8")
    run = _fresh(_CLONE + f"""
    from pathlib import Path

    class Observed(Clone):
        protocols_dir = Path({str(tmp_path / "protocols")!r})

    register(Observed())
    from ingest.rows import _protocol, default_protocol

    proto, why = _protocol(default_protocol("clone"), "clone")
    assert why is None and proto.id == "clone-observation", why
    shared, why = _protocol("vestige-observation", "clone")  # the toolkit's still found
    assert why is None and shared.id == "vestige-observation", why
    missing, why = _protocol("clone-observation", "vestige")  # not Vestige's folder
    assert missing is None and "clone-observation" in why
    """)
    assert run.returncode == 0, run.stderr
