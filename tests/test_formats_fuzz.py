"""Fuzz: arbitrary or mutated input fed to every reader never raises and always returns
LoadedLogs; unreadable input says why."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_formats_strategies import logs

from ingest.formats import LoadedLog, read_bytes, write_log
from tests.games import hidden

FUZZ = settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["g.json", "g.m38", "g.txt", "g.csv", "g.zip", "upload", "g.JSON"]


#: the names the toolkit's readers give what they read
FORMAT_NAMES = {"json", "notation", "csv", "session-folder"}


def _check(out: list[LoadedLog], name: str) -> None:
    assert isinstance(out, list) and out
    for loaded in out:
        assert isinstance(loaded, LoadedLog)
        assert loaded.source.startswith(name)
        # with the toolkit's games hidden, an installed game's reader takes the file and names
        # its own format (Pig's sheet: "pig-sheet")
        assert loaded.format in FORMAT_NAMES or (hidden() and loaded.format)
        assert isinstance(loaded.raw, bytes)
        if loaded.unreadable is not None:
            assert any(f.code == "log/unreadable" for f in loaded.parsed.findings)
            assert loaded.parsed.header is None
        for f in loaded.parsed.findings:
            assert f.message.startswith(name), f.message


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(NAMES))
def test_arbitrary_bytes(data: bytes, name: str) -> None:
    _check(read_bytes(data, name), name)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["header", "events", "type", "seat", "seats", "game", "session_type", "x"]),
        inner, max_size=5),
    max_leaves=25,
)


@FUZZ
@given(JSON)
def test_arbitrary_json(value: object) -> None:
    data = json.dumps(value).encode()
    _check(read_bytes(data, "g.json"), "g.json")
    wrapped = {"header": {"session_type": "simulation", "seats": [{"seat": 1, "faction": "x"}]},
               "events": [value]}
    _check(read_bytes(json.dumps(wrapped).encode(), "g.json"), "g.json")


LINE_WORDS = st.sampled_from([
    "1", "2", "9", "fund", "research", "draw", "bank", "== Era", "-- Cycle", "-- Production",
    "[Seat", "[Date", "]", "reveal", "1:build", "audit", "black", "checkpoint", "1:m3,x", "!",
    "?", "@19:42", "@99:99", "{", "}", "\"", "=", "f1", "F-I1", "I9", "+frontier", "mode=x",
    "window", "1:2:accept:3:yes", "dossier_reveal", "1:CHXC", "final", "offline=1:x", ",", "\t",
])
TEXT_LINES = st.lists(st.lists(LINE_WORDS | st.text(max_size=5), max_size=6).map(" ".join), max_size=12).map("\n".join)


@FUZZ
@given(TEXT_LINES)
def test_arbitrary_notation_text(text: str) -> None:
    head = '[Session simulation]\n[Date 2026-11-29]\n[Seat 1 loopfold]\n'
    for data in (text.encode(), (head + text).encode()):
        _check(read_bytes(data, "g.m38"), "g.m38")


@FUZZ
@given(st.lists(st.lists(LINE_WORDS | st.text(max_size=5), max_size=11), max_size=10))
def test_arbitrary_csv_rows(rows: list[list[str]]) -> None:
    import csv

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["Session", "simulation"])
    w.writerow(["Seat", "1", "loopfold"])
    w.writerow(["time", "era", "cycle", "seat", "event", "what", "piece", "path", "details", "text", "comment"])
    w.writerows(rows)
    _check(read_bytes(buf.getvalue().encode(), "g.csv"), "g.csv")


@st.composite
def mutated(draw: st.DrawFn) -> tuple[bytes, str]:
    log = draw(logs(max_events=8))
    fmt, name = draw(st.sampled_from([("json", "m.json"), ("notation", "m.m38"), ("csv", "m.csv")]))
    data = bytearray(write_log(log, fmt).encode())
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(["delete", "insert", "replace", "truncate", "duplicate"]))
        if op == "delete":
            del data[i]
        elif op == "insert":
            data.insert(i, draw(st.sampled_from(b'{}[]",:=@\n\r\\ 0a\xff')))
        elif op == "replace":
            data[i] = draw(st.integers(0, 255))
        elif op == "truncate":
            del data[i:]
        else:
            j = draw(st.integers(i, min(len(data), i + 40)))
            data[i:i] = data[i:j]
    return bytes(data), name


@pytest.mark.needs_game("mandate2038")  # mutations of Mandate 2038 logs
@FUZZ
@given(mutated())
def test_mutated_valid_files(case: tuple[bytes, str]) -> None:
    data, name = case
    _check(read_bytes(data, name), name)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["receipt.json", "scores.json", "notes.md", "x/receipt.json",
                                        "a.m38", "b.json"]),
                       st.binary(max_size=80) | JSON.map(lambda v: json.dumps(v).encode()), max_size=4))
def test_arbitrary_zip(members: dict[str, bytes]) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for k, v in members.items():
            zf.writestr(k, v)
    _check(read_bytes(buf.getvalue(), "s.zip"), "s.zip")


def test_unhashable_event_type_is_a_finding_not_a_crash() -> None:
    doc = {"header": {"session_type": "simulation", "seats": [{"seat": 1, "faction": "loopfold"}]},
           "events": [{"type": []}, {"type": "era_start", "era": 1}]}
    (loaded,) = read_bytes(json.dumps(doc).encode(), "u.json")
    assert loaded.parsed.findings
    assert all(f.message.startswith("u.json") for f in loaded.parsed.findings)


def test_deep_nesting_is_unreadable() -> None:
    (loaded,) = read_bytes(b"[" * 100000 + b"]" * 100000, "deep.json")
    assert loaded.unreadable is not None


# --- issue 19: seeded mutations of every game's logs in every format, end to end --------------
#
# For every registered game (the registry's declarations: the toolkit's two and any game package
# installed): its smallest bundled sample (else a bot game), written in every format it
# declares, then mutated (truncated, random bytes, lines deleted/duplicated/swapped, hostile tokens,
# JSON values replaced or removed, header seats renumbered, zips with repeated names). Each
# input goes through the CLI's validate, replay and convert (no exit 3, no "internal error")
# and all of them through one ingest: no "failed" report, and every input's bytes are in the
# archive (raw) or its quarantine. Deterministic (seeded) and small: ~170 inputs, ~12 s of CPU.

import hashlib  # noqa: E402
import random  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ["", "-1", "0", "4", "99", "2147483648", "1e999", "NaN", "[]", "{}", "null", '"x"',
           "\x00", "é", "=HYPERLINK(1)", "x" * 30_000, "(", ")", "[", "]", "\"", ",", "\t", "seat"]


def _seeds() -> dict[str, list[tuple[str, bytes]]]:
    """game -> [(file name, bytes)] for every registered game: its smallest bundled sample (a
    bot game from its simulator when it has none, such as a game package installed on its own)
    written as canonical JSON and in every format its declaration can write."""
    from engine.core.registry import rulesets
    from ingest.formats import read_path, write_log

    samples: dict[str, list[Path]] = {}
    for path in sorted((ROOT / "data" / "samples").rglob("*")):
        if path.is_file() and path.suffix.lower() in (".json", ".m38", ".txt", ".csv", ".vst"):
            for loaded in read_path(path):
                if loaded.parsed.readable and not loaded.findings:
                    samples.setdefault(loaded.parsed.header.game, []).append(path)
    out: dict[str, list[tuple[str, bytes]]] = {}
    for game, ruleset in rulesets().items():
        if samples.get(game):
            [loaded] = read_path(min(samples[game], key=lambda p: p.stat().st_size))
            log = ruleset.log_model(header=loaded.parsed.header, events=loaded.parsed.events)
        elif ruleset.simulate_one is not None:
            if ruleset.prepare_simulation is not None:
                ruleset.prepare_simulation()
            log = ruleset.simulate_one("fuzz", 0, min(ruleset.player_counts), ruleset.bot_names[-1])
        else:
            continue
        out[game] = [(f"{game}-seed.json", write_log(log, "json").encode("utf-8"))]
        out[game] += [(f"{game}-seed{f.suffixes[0]}", write_log(log, f.name).encode("utf-8"))
                      for f in ruleset.formats if f.writer is not None]
    return out


def _mutants(name: str, data: bytes, rng: random.Random) -> list[tuple[str, bytes]]:
    stem, dot, suffix = name.rpartition(".")
    out: list[tuple[str, bytes]] = [(name, data)]

    def add(kind: str, body: bytes) -> None:
        out.append((f"{stem}-{kind}{len(out)}.{suffix}", body))

    for _ in range(5):
        add("cut", data[: rng.randrange(len(data))])
    for _ in range(2):
        i = rng.randrange(len(data))
        add("bytes", data[:i] + rng.randbytes(rng.randrange(1, 40)) + data[i + rng.randrange(40):])
    lines = data.split(b"\n")
    for _ in range(4):
        ls = list(lines)
        i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
        op = rng.choice(("delete", "duplicate", "swap"))
        if op == "delete":
            del ls[i]
        elif op == "duplicate":
            ls.insert(j, ls[i])
        else:
            ls[i], ls[j] = ls[j], ls[i]
        add(op, b"\n".join(ls))
    for _ in range(10):
        ls = list(lines)
        i = rng.randrange(len(ls))
        words = ls[i].split(b" ") if b" " in ls[i] else ls[i].split(b",")
        k = rng.randrange(len(words))
        words[k] = rng.choice(HOSTILE).encode("utf-8")
        ls[i] = (b" " if b" " in ls[i] else b",").join(words)
        add("token", b"\n".join(ls))
    if suffix == "json":
        for _ in range(10):
            add("value", _json_mutant(data, rng))
        obj = json.loads(data)
        obj["header"]["seats"][0]["seat"] = len(obj["header"]["seats"]) + 1  # seats not 1..N
        add("seats", json.dumps(obj).encode())
    return out


def _json_mutant(data: bytes, rng: random.Random) -> bytes:
    """``data`` (a JSON log) with one value somewhere replaced by a hostile one, or removed."""
    obj = json.loads(data)
    node: object = obj["header"] if rng.random() < 0.4 else rng.choice(obj["events"] or [{}])
    while True:
        keys = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) \
            if isinstance(node, list) else []
        if not keys:
            break
        key, child = rng.choice(keys)
        if isinstance(child, dict | list) and child and rng.random() < 0.6:
            node = child
            continue
        if isinstance(node, dict) and rng.random() < 0.25:
            del node[key]
        else:
            node[key] = rng.choice([None, -1, 0, 2**31, 1.5, "", "x" * 30_000, [], {}, [1, 2],
                                    {"a": 1}, True, "=1+1", "\ud800"])
        break
    return json.dumps(obj).encode("utf-8", "surrogatepass")


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    import warnings

    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # repeated names on purpose
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, body in members:
                zf.writestr(name, body)
    return buf.getvalue()


def _inputs() -> list[tuple[str, bytes]]:
    seeds = _seeds()
    from engine.core.registry import rulesets

    assert {"mandate2038", "vestige"} <= set(seeds) == set(rulesets()), sorted(seeds)
    out: list[tuple[str, bytes]] = []
    for game, files in sorted(seeds.items()):
        rng = random.Random(f"issue-19-{game}")
        for name, data in files:
            out.extend(_mutants(name, data, rng))
        out.append((f"{game}-random.bin.json", rng.randbytes(500)))
        some = rng.sample(out, 3)
        out.append((f"{game}-dup.zip", _zip([("a.json", files[0][1]), ("a.json", some[0][1]),
                                             ("b.txt", some[1][1])])))
        out.append((f"{game}-cut.zip", _zip([(n, b) for n, b in files])[:-30]))
    return out


@pytest.mark.needs_game("mandate2038", "vestige")
@pytest.mark.slow
def test_every_reader_of_every_game_survives_mutations_end_to_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from cli.main import main

    monkeypatch.setenv("PLAYTEST_WORKERS", "1")
    inputs = _inputs()
    folder = tmp_path / "in"
    folder.mkdir()
    for name, data in inputs:
        (folder / name).write_bytes(data)
    crashed = []
    for i, (name, _) in enumerate(inputs):
        path = str(folder / name)
        commands = [["validate", path], ["replay", path]]
        commands += [["convert", path, "--to", fmt] for fmt in ("json", "notation", "csv")
                     if i % 3 == ("json", "notation", "csv").index(fmt)]
        for args in commands:
            code = main(args)
            err = capsys.readouterr().err
            if code == 3 or "internal error" in err:
                crashed.append((args[0], name, err[-300:]))
    assert crashed == []
    db = tmp_path / "w" / "playtest.duckdb"
    assert main(["ingest", str(folder), "--db", str(db), "--format", "json"]) in (0, 2)
    doc = json.loads(capsys.readouterr().out)
    assert doc["counts"]["failed"] == 0, [r for r in doc["reports"] if r["status"] == "failed"]
    archive = db.parent / "archive"
    kept = {p.name.split(".")[0] for d in ("raw", "quarantine") for p in (archive / d).iterdir()}
    lost = []
    for name, data in inputs:
        if hashlib.sha256(data).hexdigest() in kept:
            continue
        if name.endswith(".zip"):  # a zip of logs keeps each member's bytes
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                if all(hashlib.sha256(zf.read(i)).hexdigest() in kept for i in zf.infolist()):
                    continue
        lost.append(name)
    assert lost == [], lost


# --- plugin declarations (issue 31: a plugin is a guest) ---------------------------------------
# Seeded declarations of a fourth game, each with one fault (or none) drawn from what a game
# package can get wrong: its import raises, a member missing or of a wrong type, a code string
# that does not resolve, a mark that finds every file, a location part, a table, an id claimed,
# a page. Each is registered through a fake entry point beside Mandate 2038, Vestige and Pig
# (tests/plugin_guests.py): the three are served; every command on their samples gives what it
# gives without the guest; the app's pages of the three still run (a few cases, all pages).

PIG_PAGE = ROOT / "examples" / "pig" / "playtest_pig" / "page.py"
FAULTS = {
    "import": ["RuntimeError", "ImportError", "SystemExit", "KeyError", "SyntaxError"],
    "hostile": ["None", "0", "''", "'x'", "[]", "{}", "('a',)", "b'x'", "1.5", "object()"],
    "members": ["title", "rules_versions", "location_parts", "tables", "formats", "pages",
                "vocabulary", "player_counts", "bot_names", "timing", "board_picture",
                "recorder", "event_types", "catalogue", "rulings_dir", "protocols_dir",
                "timed_phases", "after_end_events", "apply_locates", "simulate_one"],
    "refs": ["no_such:thing", "playtest_pig.timing:nope", "playtest_pig:", ":x", "os:path.nope",
             "playtest_pig.timing.pig_timing", "playtest_pig.timing:pig_timing"],
    "marks": ["b''", "b'.'", "b'(?s).*'", "b'['", "rb'(?m)^\\\\[Session '", "b'x'", "None",
              "rb'(?m)^fuzz: yes$'"],
    "parts": ["era", "cycle", "round", "turn", "hand", "trick", ""],
    "tables": ["games", "seats", "outcomes", "pig_games", "vestige_games", "fuzz_t", "Bad-Name",
               "events"],
    "types": ["VARCHAR", "INTEGER", "TEXT", "BLOB", "JSON"],
    "ids": ["mandate2038", "vestige", "pig", "Fuzz", "fuzz guest", "", "fuzzguest"],
    "scripts": ["playtest_pig.page:nope", "nope.py", "x:y", str(PIG_PAGE), "playtest_pig:RULESET"],
    "urls": ["import", "games", "pig-turn-risk", "Bad Path", "fuzz-page", ""],
}


def _guest_source(rng: random.Random) -> tuple[str, str]:
    """(what is wrong, the source of a guest declaration module) for one seeded case."""
    from plugin_guests import GUEST_BASE

    kind = rng.choice(["import", "missing", "hostile", "ref", "mark", "parts", "table", "id",
                       "page", "none"])
    members, after = "", ""
    pick = rng.choice
    if kind == "import":
        after = f"raise {pick(FAULTS['import'])}('fuzz guest import')"
    elif kind == "missing":
        after = ("class Bare:\n    pass\n\nBARE = Bare()\nfor _n in REQUIRED_VALUES + "
                 f"REQUIRED_FUNCTIONS:\n    if _n != {rng.choice(['game', 'title', 'apply', 'tables', 'setup', 'records'])!r}:\n"
                 "        setattr(BARE, _n, getattr(GAME, _n))\nGAME = BARE")
    elif kind == "hostile":
        members = f"    {pick(FAULTS['members'])} = {pick(FAULTS['hostile'])}"
    elif kind == "ref":
        members = f"    {pick(['timing', 'board_picture', 'recorder'])} = {pick(FAULTS['refs'])!r}"
    elif kind == "mark":
        members = (f"    formats = (Format('notation', ('.fzg',), reader='playtest_pig.sheet:"
                   f"read_pig_sheet', mark={pick(FAULTS['marks'])}),)")
    elif kind == "parts":
        parts = tuple(pick(FAULTS["parts"]) for _ in range(rng.randrange(1, 4)))
        members = f"    location_parts = {parts!r}"
    elif kind == "table":
        members = (f"    tables = {{{pick(FAULTS['tables'])!r}: (('fuzz_col', "
                   f"{pick(FAULTS['types'])!r}),)}}")
    elif kind == "id":
        members = f"    game = {pick(FAULTS['ids'])!r}"
    elif kind == "page":
        members = (f"    pages = (Page('Fuzz page', {pick(FAULTS['scripts'])!r}, "
                   f"{pick(FAULTS['urls'])!r}),)")
    text = GUEST_BASE.format(members=members or "    pass", after=after)
    detail = members.strip() or (after.splitlines()[0] if after else "")
    return f"{kind}: {detail}", text


def _outcomes(main: object, capsys: pytest.CaptureFixture[str], samples: list[Path]
              ) -> dict[str, object]:
    """What each command gives on the three games' samples (exit status, and the games read)."""
    from ingest.formats import read_bytes

    out: dict[str, object] = {}
    for path in samples:
        for args in (["validate", str(path)], ["replay", str(path)],
                     ["convert", str(path), "--to", "json"]):
            out[" ".join(args)] = main(args)  # type: ignore[operator]
            capsys.readouterr()
        out[f"read {path.name}"] = [x.parsed.header.game if x.parsed.header else None
                                    for x in read_bytes(path.read_bytes(), path.name)]
    for args in (["--help"], ["rulings"], ["simulate", "--help"]):
        out[" ".join(args)] = main(args)  # type: ignore[operator]
        capsys.readouterr()
    return out


@pytest.mark.needs_game("mandate2038", "vestige")
@pytest.mark.slow
def test_a_broken_plugin_among_three_working_games_harms_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from plugin_guests import install
    from streamlit.testing.v1 import AppTest
    from streamlit.util import calc_hash

    from cli.main import main
    from dashboards import navigation
    from engine.core import registry

    samples = [ROOT / "data/samples/notation/example-4p.m38",
               ROOT / "data/samples/vestige/walkthrough-2p.vst",
               ROOT / "examples/pig/playtest_pig/samples/walkthrough.pig"]
    three = ("mandate2038", "vestige", "pig")
    baseline = _outcomes(main, capsys, samples)
    pages = [p for p in navigation.all_pages() if p.game in (None, *three)]
    rng = random.Random("issue-31-guests")
    monkeypatch.setenv("PLAYTEST_DB", str(tmp_path / "none" / "playtest.duckdb"))
    for case in range(24):
        what, source = _guest_source(rng)
        folder = tmp_path / f"guest{case}"
        with monkeypatch.context() as mp:
            install(mp, folder, {})
            (folder / f"playtest_fuzz_guest{case}.py").write_text(source, encoding="utf-8")
            install(mp, folder, {"fuzzguest": f"playtest_fuzz_guest{case}:GAME"})
            games = registry.rulesets()
            assert set(three) <= set(games), what
            assert games["vestige"].title == "Vestige" and games["pig"].title == "Pig", what
            said = [r for r in registry.refused() if r.name == "fuzzguest"]
            assert "fuzzguest" in games or said, what  # served, or refused with a reason
            assert _outcomes(main, capsys, samples) == baseline, what
            sections, _notices = navigation.checked_sections()
            assert [p for p in navigation.all_pages() if p.game in (None, *three)] == pages, what
            if case % 8:
                continue
            at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
            at.run()
            for page in pages:  # every page of the working games still runs
                at._page_hash = calc_hash(page.url_path)
                at.run()
                assert not at.exception, (what, page.url_path, [e.value for e in at.exception])
