"""The ``playtest`` command line via ``main([...])``: exit codes, the validate JSON contract
(DESIGN.md §4), simulate, replay, convert, and clear errors instead of tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from engine.core.registry import get_ruleset, rulesets
from tests.games import require_game

# the validate contract (DESIGN.md §4): era and cycle (Mandate 2038) and round (Vestige), unknown parts null
WHERE_KEYS = {"event", "line", "era", "cycle", "round", "seat"}


@pytest.fixture(scope="module")
def sim_dir(tmp_path_factory) -> Path:
    require_game("mandate2038")  # Mandate 2038's bot games (their checkpoints, 3-5 seats)
    out = tmp_path_factory.mktemp("sim")
    assert main(["simulate", "--games", "3", "--players", "3,4,5", "--seed", "cli", "--out", str(out),
                 "--bot", "mixed"]) == 0
    return out


def _one(sim_dir: Path) -> Path:
    return sorted(sim_dir.glob("*.json"))[0]


def _broken_copy(src: Path, dst: Path) -> Path:
    """A copy with one rule error: the Era I Mandate scorers changed."""
    obj = json.loads(src.read_text(encoding="utf-8"))
    for e in obj["events"]:
        if e["type"] == "checkpoint":
            e["seats"][0]["mandate"] += 3
            break
    dst.write_text(json.dumps(obj), encoding="utf-8")
    return dst


def test_simulate_writes_labelled_canonical_games(sim_dir, capsys):
    files = sorted(sim_dir.glob("*.json"))
    assert [f.name for f in files] == ["sim-cli-00000.json", "sim-cli-00001.json", "sim-cli-00002.json"]
    seats = []
    for f in files:
        obj = json.loads(f.read_text(encoding="utf-8"))
        assert obj["format"] == "playtest-log"
        assert obj["header"]["session_type"] == "simulation"
        assert "seed=cli" in obj["header"]["provenance"]["generator"]
        seats.append(len(obj["header"]["seats"]))
    assert seats == [3, 4, 5]


def test_validate_clean_exit_0_and_json_contract(sim_dir, capsys):
    capsys.readouterr()
    assert main(["validate", "--format", "json", str(sim_dir)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"files"}
    assert len(doc["files"]) == 3
    for f in doc["files"]:
        # the contract's fields, and since issue 28 the rules variant audited under (None: the
        # rules as printed); a reader of the four fields reads the document as before
        assert set(f) == {"path", "game_id", "status", "findings", "variant"}
        assert f["variant"] is None
        assert f["status"] == "clean" and f["findings"] == []
        assert f["game_id"].startswith("sim-cli-")


def test_validate_findings_exit_1_with_located_findings(sim_dir, tmp_path, capsys):
    bad = _broken_copy(_one(sim_dir), tmp_path / "bad.json")
    capsys.readouterr()
    assert main(["validate", "--format", "json", str(bad)]) == 1
    doc = json.loads(capsys.readouterr().out)
    (f,) = doc["files"]
    assert f["status"] == "findings"
    assert f["findings"], "a changed checkpoint must be reported"
    for x in f["findings"]:
        assert {"code", "severity", "rule", "message", "where"} <= set(x)
        assert x["severity"] in ("error", "warning", "info")
        assert set(x["where"]) == WHERE_KEYS
        assert "/" in x["code"]
    cp = next(x for x in f["findings"] if x["code"] == "checkpoint/mismatch")
    assert cp["where"]["event"] is not None and cp["where"]["line"] is not None
    assert cp["where"]["seat"] == 1 and cp["where"]["era"] == 1
    assert "expected" in cp and "recorded" in cp
    assert cp["recorded"] == cp["expected"] + 3
    # text output: grouped per file, location and rule on the finding
    assert main(["validate", str(bad)]) == 1
    text = capsys.readouterr().out
    assert "checkpoint/mismatch" in text and "rule:" in text and "line" in text


def test_validate_unreadable_exit_2(sim_dir, tmp_path, capsys):
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", "--format", "json", str(junk), str(_one(sim_dir))]) == 2
    doc = json.loads(capsys.readouterr().out)
    statuses = {Path(f["path"]).name: f["status"] for f in doc["files"]}
    assert statuses["junk.json"] == "unreadable"
    assert statuses[_one(sim_dir).name] == "clean"
    assert main(["validate", str(tmp_path / "missing.json")]) == 2


def test_validate_strict_counts_warnings(sim_dir, tmp_path, capsys):
    obj = json.loads(_one(sim_dir).read_text(encoding="utf-8"))
    # drop one seat's allocation: a warning (production/missing-allocation) when it had Facilities
    events = obj["events"]
    idx = next(i for i, e in enumerate(events) if e["type"] == "allocate" and e.get("facilities"))
    del events[idx]
    p = tmp_path / "warn.json"
    p.write_text(json.dumps(obj), encoding="utf-8")
    capsys.readouterr()
    lenient = main(["validate", "--format", "json", str(p)])
    doc = json.loads(capsys.readouterr().out)
    sev = {x["severity"] for x in doc["files"][0]["findings"]}
    assert "warning" in sev
    strict = main(["validate", "--strict", str(p)])
    assert strict == 1
    assert lenient == (1 if "error" in sev else 0)


def test_replay_text_and_json(sim_dir, capsys):
    f = _one(sim_dir)
    capsys.readouterr()
    assert main(["replay", str(f), "--at", "era:2"]) == 0
    text = capsys.readouterr().out
    assert "score ledger:" in text and "seat 1" in text
    assert main(["replay", str(f), "--at", "end", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"path", "game_id", "at", "snapshot", "ledger", "findings"} <= set(doc)
    assert doc["ledger"] and all({"seat", "amount", "total", "source"} <= set(e) for e in doc["ledger"])
    assert main(["replay", str(f), "--at", "5", "--format", "json"]) == 0
    early = json.loads(capsys.readouterr().out)
    assert early["at"]["event"] == 5
    assert len(early["ledger"]) <= len(doc["ledger"])


@pytest.mark.parametrize("at", ["era:9", "banana", "100000", "-3"])
def test_replay_bad_position_is_a_clear_error(sim_dir, at, capsys):
    assert main(["replay", str(_one(sim_dir)), "--at", at]) == 2
    err = capsys.readouterr().err
    assert err.startswith("playtest:") and "Traceback" not in err


@pytest.mark.parametrize("fmt", ["json", "notation", "csv"])
def test_convert_round_trip(sim_dir, tmp_path, fmt, capsys):
    src = _one(sim_dir)
    suffix = {"json": ".json", "notation": ".m38", "csv": ".csv"}[fmt]
    out = tmp_path / f"game{suffix}"
    assert main(["convert", str(src), "--to", fmt, "-o", str(out)]) == 0
    back = tmp_path / "back.json"
    assert main(["convert", str(out), "--to", "json", "-o", str(back)]) == 0
    assert back.read_text(encoding="utf-8") == src.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", str(out)]) == 0


def test_usage_errors_never_traceback(tmp_path, capsys):
    assert main([]) == 2
    assert main(["simulate", "--games", "1", "--players", "7", "--out", str(tmp_path)]) == 2
    assert main(["simulate", "--games", "0", "--out", str(tmp_path)]) == 2
    assert main(["nonsense"]) == 2
    assert main(["convert", str(tmp_path / "nope.json"), "--to", "json"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_ingest_and_demo_no_serve(sim_dir, tmp_path, capsys, monkeypatch):
    db = tmp_path / "w" / "playtest.duckdb"
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    assert main(["ingest", str(sim_dir)]) == 0
    out = capsys.readouterr().out
    assert "3 loaded" in out
    assert main(["ingest", str(sim_dir)]) == 0  # idempotent: skipped as duplicates
    assert "3 skipped" in capsys.readouterr().out
    assert main(["ingest", str(tmp_path / "missing")]) == 2
    assert main(["demo", "--no-serve", "--db", str(db)]) == 0
    assert "3 games" in capsys.readouterr().out


def test_demo_ingests_the_bundled_samples_into_an_empty_database(tmp_path, capsys):
    db = tmp_path / "empty" / "playtest.duckdb"
    assert main(["demo", "--no-serve", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "is empty: ingesting the sample games" in out
    n = int(out.strip().splitlines()[-1].split(": ")[-1].split()[0])
    # the toolkit's samples (40 and more of Mandate 2038's and Vestige's) and each game's own
    assert n >= (40 if get_ruleset("mandate2038") else 1)
    assert main(["demo", "--no-serve", "--db", str(db)]) == 0  # not empty now: nothing ingested
    assert "ingesting" not in capsys.readouterr().out


def test_ingest_json_rebuild_and_export(sim_dir, tmp_path, capsys):
    db = tmp_path / "r" / "playtest.duckdb"
    capsys.readouterr()
    assert main(["ingest", "--db", str(db), "--format", "json", str(sim_dir)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["counts"]["loaded"] == 3
    assert main(["rebuild", "--db", str(db)]) == 0
    assert main(["export", "--db", str(db), "--csv", str(tmp_path / "csv")]) == 0
    assert (tmp_path / "csv" / "games.csv").is_file()
    assert main(["export", "--db", str(db), "--parquet", str(tmp_path / "pq")]) == 0
    assert (tmp_path / "pq" / "games.parquet").is_file()
    assert main(["export", "--db", str(db)]) == 2  # one of --parquet / --csv is required


def test_bench_on_a_small_corpus(sim_dir, capsys):
    capsys.readouterr()
    assert main(["bench", "--corpus", str(sim_dir)]) == 0
    out = capsys.readouterr().out
    assert "(a) read (as validate reads a file)" in out and "(c) read + replay (validate)" in out
    assert "findings in the corpus: 0" in out
    assert main(["bench", "--corpus", str(sim_dir / "missing")]) == 2
    assert main(["bench", "--games", "0"]) == 2  # (--pages alone now times pages on big synthetic warehouses)


def test_bench_prints_the_python_chess_yardstick_or_why_not(sim_dir, capsys, monkeypatch):
    """``bench --chess``: python-chess in the same run against row (c), or, without
    python-chess, a line saying so (the command still succeeds)."""
    from cli.bench import python_chess as bench_chess

    try:
        bench_chess._chess()
        have = True
    except ImportError:
        have = False
    real = bench_chess.make_pgns
    monkeypatch.setattr(bench_chess, "make_pgns", lambda games, seed: real(5, seed, max_plies=20))
    capsys.readouterr()
    assert main(["bench", "--corpus", str(sim_dir), "--chess"]) == 0
    out = capsys.readouterr().out
    if have:
        assert "python-chess in the same run:" in out and "x python-chess" in out
    else:
        assert "python-chess is not installed" in out

    def missing() -> None:
        raise ImportError("no chess")

    monkeypatch.setattr(bench_chess, "_chess", missing)
    assert main(["bench", "--corpus", str(sim_dir), "--chess"]) == 0
    assert "python-chess is not installed" in capsys.readouterr().out


def test_validate_in_two_processes_gives_the_same_report(sim_dir, tmp_path, capsys):
    bad = _broken_copy(_one(sim_dir), tmp_path / "bad.json")
    capsys.readouterr()
    one = main(["validate", "--format", "json", str(sim_dir), str(bad)])
    doc1 = capsys.readouterr().out
    two = main(["validate", "--format", "json", "--jobs", "2", str(sim_dir), str(bad)])
    doc2 = capsys.readouterr().out
    assert one == two == 1
    assert doc1 == doc2
    assert main(["validate", "--jobs", "0", str(sim_dir)]) == 2


def test_busy_database_is_a_message_not_a_traceback(sim_dir, tmp_path, capsys, monkeypatch):
    import subprocess
    import sys
    import time

    db = tmp_path / "busy" / "playtest.duckdb"
    db.parent.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('ready', flush=True); "
         "time.sleep(30)", str(db)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        monkeypatch.setenv("PLAYTEST_DB_WAIT", "0.5")
        t0 = time.monotonic()
        status = main(["ingest", "--db", str(db), str(sim_dir)])
        err = capsys.readouterr().err
        assert status == 2
        assert "busy" in err and "Traceback" not in err
        assert time.monotonic() - t0 < 20
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.needs_game("vestige")
def test_simulate_takes_the_game_and_every_log_command_reads_it_from_the_header(tmp_path, capsys):
    out = tmp_path / "vestige"
    assert main(["simulate", "--game", "vestige", "--games", "2", "--players", "2,3",
                 "--seed", "4", "--out", str(out)]) == 0
    logs = sorted(out.glob("*.json"))
    assert len(logs) == 2 and all('"game":"vestige"' in p.read_text().replace(" ", "") for p in logs)
    capsys.readouterr()
    assert main(["validate", "--format", "json", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [f["status"] for f in doc["files"]] == ["clean", "clean"]
    assert main(["replay", str(logs[0]), "--at", "round:1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["snapshot"]
    assert main(["replay", str(logs[0]), "--at", "era:1"]) == 2  # Vestige has rounds, not Eras
    assert "round" in capsys.readouterr().err
    assert main(["convert", str(logs[0]), "--to", "notation"]) == 0
    assert "[game vestige]" in capsys.readouterr().out
    assert main(["simulate", "--game", "vestige", "--players", "5", "--out", str(tmp_path / "x")]) == 2
    assert "2, 3 or 4" in capsys.readouterr().err
    assert main(["simulate", "--game", "no-such-game", "--out", str(tmp_path / "y")]) == 2


def test_simulate_without_out_writes_to_a_folder_per_game_and_seed(tmp_path, monkeypatch, capsys):
    """``playtest simulate --games N --players K`` (issue 7's bar command, no ``--out``) writes
    to ``simulated/GAME-seed-SEED`` under the current folder and says so."""
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--games", "2", "--players", "4"]) == 0
    out = capsys.readouterr().out
    # the default: the registry's first game with a simulator (Mandate 2038 when registered)
    game, rs = next((g, rs) for g, rs in rulesets().items() if rs.simulate_one is not None)
    folder = tmp_path / "simulated" / f"{game}-seed-0"
    assert f"wrote 2 simulated {rs.title} game(s) to {Path('simulated') / f'{game}-seed-0'}" in out
    names = sorted(f.name for f in folder.glob("*.json"))  # Mandate 2038: sim-0-00000.json ...
    assert len(names) == 2 and names[0].startswith("sim-") and names[1].endswith("0-00001.json")
    assert "games per CPU-second playing" in out


_FIRST_COMMAND_PROBE = """
import json, sys
import ingest.pool as pool
seen = {}
def prestart(paths):
    seen["registry_loaded_at_start"] = "engine.core.registry" in sys.modules
    return None  # no pool: the ingest runs in this process
pool.prestart = prestart
from cli.main import main
code = main(sys.argv[1:])
seen["code"] = code
seen["other_commands"] = sorted(m for m in sys.modules
                                if m.startswith("cli.commands.") and m != "cli.commands.ingest")
print(json.dumps(seen))
"""


def test_a_command_named_first_is_parsed_alone_and_ingest_starts_its_pool_first(tmp_path):
    """``playtest ingest ...`` imports no other command's module, and starts its worker pool
    (``early_start``) before the game registry is imported: the workers import beside this process
    (cli/main.py; docs/storage.md "Batches in flight")."""
    import subprocess
    import sys

    game = tmp_path / "in" / "none.json"
    game.parent.mkdir()
    game.write_text("not a game log", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_COMMAND_PROBE, "ingest", str(game.parent),
         "--db", str(tmp_path / "db" / "playtest.duckdb")],
        capture_output=True, text=True, timeout=300, check=False,
        cwd=Path(__file__).resolve().parent.parent)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["registry_loaded_at_start"] is False
    assert seen["other_commands"] == []
    assert seen["code"] == 2  # the unreadable input, reported as ever
    assert "Traceback" not in out.stderr


def test_a_command_not_named_first_gets_the_whole_parser(capsys):
    """``--help`` (or an option first) still lists every command."""
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    from cli.commands import COMMANDS

    assert all(name in listed for name in COMMANDS)


def test_what_a_command_starts_early_is_closed_and_plugins_named_whatever_happens(
        monkeypatch, capsys):
    """What ``early_start`` returns (ingest: its worker pool) is closed by ``cli.main`` even when
    the command never gets to it, and broken plugins are still named when the early start
    itself fails (cli/main.py)."""
    from cli import main as cli_main
    from cli.commands import ingest as ingest_cmd

    closed: list[bool] = []

    class Started:
        def __enter__(self) -> Started:
            return self

        def __exit__(self, *exc: object) -> None:
            closed.append(True)

    def start(args):
        args.pool = None
        return Started()

    def command(args):
        raise RuntimeError("the command failed before closing anything")

    monkeypatch.setattr(ingest_cmd, "start_pool", start)
    monkeypatch.setattr(ingest_cmd, "cmd_ingest", command)
    assert main(["ingest", "nowhere"]) == 3  # an internal error: a message, no traceback
    assert closed == [True]
    assert "internal error" in capsys.readouterr().err

    said: list[bool] = []

    def fails(args):
        raise OSError("no processes may start here")

    monkeypatch.setattr(ingest_cmd, "start_pool", fails)
    monkeypatch.setattr(cli_main, "_say_refused", lambda: said.append(True))
    assert main(["ingest", "nowhere"]) == 2  # EXIT_UNREADABLE for an OSError
    assert said == [True]
