"""Issue 28 (variants half): the warehouse records the rules variant of every game (migration 9:
``games.variant_name``, ``variant_content_hash``, ``variant_changes``, filled by the load step
from the header's stamp; an old database migrates and ``playtest rebuild`` fills them), and the
Variants page counts physical playtests per variant from the warehouse, complete and partial,
never an illustrative sample, for every registered game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from dashboards import variant_queries as vq
from ingest.warehouse.migrations import MIGRATIONS, migrate

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "variants"
MANDATE = GOLDEN / "mandate2038" / "dossier-compute-2.json"
VESTIGE = GOLDEN / "vestige" / "obelisk-other-pair.json"

pytestmark = pytest.mark.needs_game("mandate2038", "vestige")


def _as_playtest(src: Path, game_id: str, *, events: int | None = None,
                 illustrative: bool = False, printed: bool = False) -> dict[str, Any]:
    """A golden log relabelled as a facilitated playtest (``events``: only the first ones, a
    game stopped early; ``printed``: without its variant)."""
    doc = json.loads(src.read_text("utf-8"))
    h = doc["header"]
    h.update(session_type="facilitated_playtest", game_id=game_id,
             provenance={"source_format": "json", "source_name": game_id,
                         "illustrative": illustrative})
    if printed:
        h.pop("variant", None)
    if events is not None:
        doc["events"] = doc["events"][:events]
    return doc


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ingest.pipeline import ingest_paths

    path = tmp_path_factory.mktemp("variants-wh") / "playtest.duckdb"
    folder = path.parent / "logs"
    folder.mkdir()
    logs = {
        "m-complete": _as_playtest(MANDATE, "vw-m-complete"),
        "m-partial": _as_playtest(MANDATE, "vw-m-partial", events=40),
        "m-printed": _as_playtest(MANDATE, "vw-m-printed", printed=True),
        "m-sample": _as_playtest(MANDATE, "vw-m-sample", illustrative=True),
        "v-partial": _as_playtest(VESTIGE, "vw-v-partial"),
        "m-sim": json.loads(MANDATE.read_text("utf-8")),
    }
    for name, doc in logs.items():
        (folder / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")
    ingest_paths([folder], path, progress=False)
    return path


def _games(db: Path) -> dict[str, tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT source_name, variant_name, variant_content_hash, "
                           "variant_changes, complete FROM games").fetchall()
    finally:
        con.close()
    return {"vw-" + Path(r[0]).stem: r[1:] for r in rows}  # by the file's name


def test_the_load_step_records_each_games_variant(db: Path) -> None:
    g = _games(db)
    name, vhash, changes, complete = g["vw-m-complete"]
    assert (name, vhash, complete) == ("dossier-compute-2", "b9d8edec79bdf17b", True)
    assert json.loads(changes) == {"changes": {"dossier.compute_per_commit": 2}, "paused": [],
                                   "options": {}}
    assert g["vw-m-partial"][:2] == ("dossier-compute-2", "b9d8edec79bdf17b")
    assert g["vw-m-partial"][3] is False
    assert g["vw-m-printed"][:3] == (None, None, None)  # the rules as printed
    name, vhash, changes, _ = g["vw-v-partial"]
    assert (name, vhash) == ("obelisk-other-pair", "a04dbf7e18b42654")
    assert json.loads(changes)["options"] == {"obelisk-other": "other-pair"}


def test_an_old_database_migrates_and_rebuild_fills_the_columns(db: Path, tmp_path: Path
                                                                 ) -> None:
    import shutil

    from ingest.pipeline import rebuild

    old = tmp_path / "playtest.duckdb"
    shutil.copy(db, old)
    shutil.copytree(db.parent / "archive", tmp_path / "archive")
    con = duckdb.connect(str(old))
    for col in ("variant_name", "variant_content_hash", "variant_changes"):
        con.execute(f"ALTER TABLE games DROP COLUMN {col}")
    from ingest.warehouse import summaries

    for table in summaries.TOTALS_TABLES:  # and the migrations after 9 (as they were then)
        con.execute(f"DROP TABLE {table}")
    con.execute("DELETE FROM schema_migrations WHERE version >= 9")
    assert migrate(con) == [v for v, _, _ in MIGRATIONS if v >= 9]
    got = con.execute("SELECT count(*), count(variant_name) FROM games").fetchone()
    con.close()
    assert got is not None and got[0] == 6 and got[1] == 0  # loaded before: none yet
    rebuild(old, progress=False)
    g = _games(old)
    assert g["vw-m-complete"][0] == "dossier-compute-2"
    assert g["vw-v-partial"][0] == "obelisk-other-pair"


def test_physical_playtests_by_variant_and_status(db: Path) -> None:
    df = vq.physical_by_variant(db)
    rows = {(r["game"], r["variant"]): r for r in df.iter_rows(named=True)}
    # the simulated golden game and the illustrative sample are not playtests
    m = rows[("mandate2038", "dossier-compute-2")]
    assert (m["games"], m["complete"], m["partial"]) == (2, 1, 1)
    assert m["variant_hash"] == "b9d8edec79bdf17b"
    base = rows[("mandate2038", vq.BASELINE)]
    assert (base["games"], base["complete"], base["partial"]) == (1, 1, 0)
    v = rows[("vestige", "obelisk-other-pair")]
    assert (v["games"], v["complete"], v["partial"], v["agi_known"]) == (1, 0, 1, 0)
    assert sum(df["games"].to_list()) == 4


def test_evidence_beside_labels_the_status_for_every_game(db: Path) -> None:
    import polars as pl

    beside = vq.evidence_beside(vq.physical_by_variant(db), pl.DataFrame())
    rows = {(r["game"], r["variant"]): r for r in beside.iter_rows(named=True)}
    m = rows[("Mandate 2038", "dossier-compute-2")]
    assert m["physical playtests"] == "1 complete, 1 partial"
    assert m["physical AGI share"] != "not measured" and m["simulated games"] == 0
    v = rows[("Vestige", "obelisk-other-pair")]
    assert v["physical playtests"] == "1 partial"
    assert v["physical AGI share"] == "no complete games"
    # beside a study: its games in the simulated columns of the same game and variant, every
    # game's playtests still listed
    sim = pl.DataFrame({"game": ["mandate2038"], "variant": ["dossier-compute-2"],
                        "games": [10], "agi": [3], "open": [9]})
    beside = vq.evidence_beside(vq.physical_by_variant(db), sim)
    assert set(beside["game"].to_list()) == {"Mandate 2038", "Vestige"}
    v = beside.filter(pl.col("variant") == "obelisk-other-pair").row(0, named=True)
    assert v["simulated games"] == 0 and v["physical partial"] == 1
    row = beside.filter(pl.col("variant") == "dossier-compute-2").row(0, named=True)
    assert row["simulated games"] == 10 and row["physical partial"] == 1


def test_the_variants_page_shows_the_playtests_by_status(db: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_STUDY", raising=False)
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=120).run()
    at.switch_page("views/variants.py").run()
    assert not at.exception, at.exception
    frames = [d.value for d in at.dataframe]
    shown = [f for f in frames if "physical playtests" in getattr(f, "columns", [])]
    assert shown, frames
    table = shown[0]
    statuses = dict(zip(table["variant"], table["physical playtests"], strict=True))
    assert statuses["obelisk-other-pair"] == "1 partial"
    assert statuses["dossier-compute-2"] == "1 complete, 1 partial"


def test_validate_says_which_variant_a_game_was_audited_under(capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    from cli.main import main

    stamped = GOLDEN / "mandate2038" / "dossier-compute-2-stamped.json"
    assert main(["validate", "--format", "json", str(MANDATE), str(VESTIGE)]) in (0, 1)
    files = json.loads(capsys.readouterr().out)["files"]
    assert files[0]["variant"] == {"name": "dossier-compute-2", "hash": "b9d8edec79bdf17b",
                                   "from": "header"}
    assert files[1]["variant"]["name"] == "obelisk-other-pair"
    main(["validate", "--format", "json", "--printed-rules", str(stamped)])
    assert json.loads(capsys.readouterr().out)["files"][0]["variant"] is None
    main(["validate", str(stamped)])
    text = capsys.readouterr().out
    assert ("audited under the rules variant dossier-compute-2 (content hash "
            "b9d8edec79bdf17b)") in text


def test_the_audit_page_says_which_variant(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    ids = dict(con.execute("SELECT source_name, game_id FROM games").fetchall())
    con.close()
    by_stem = {Path(k).stem: v for k, v in ids.items()}
    v = vq.game_variant(db, by_stem["m-partial"])
    assert v == {"name": "dossier-compute-2", "hash": "b9d8edec79bdf17b", "played": True}
    assert r"**dossier\-compute\-2**" in vq.variant_sentence(v)  # escaped Markdown
    assert vq.game_variant(db, by_stem["m-printed"]) is None
    assert vq.variant_sentence(None) == "Audited under the rules as printed."


def test_the_audit_page_shows_it(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    con = duckdb.connect(str(db), read_only=True)
    gid = con.execute("SELECT game_id FROM games WHERE source_name LIKE '%v-partial.json'"
                      ).fetchone()
    con.close()
    assert gid is not None
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=120).run()
    at.query_params.update({"game": gid[0]})
    at.switch_page("views/audit.py").run()
    assert not at.exception, at.exception
    said = " ".join(m.value for m in at.markdown)
    assert r"Audited under the rules variant **obelisk\-other\-pair**" in said, said


def test_a_variant_recorded_before_is_a_known_variant(db: Path, tmp_path: Path) -> None:
    import shutil

    from dashboards import variant_pick

    copy = tmp_path / "playtest.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    con.execute("UPDATE games SET variant_name = 'house-obelisk', variant_content_hash = "
                "'0123456789abcdef' WHERE source_name LIKE '%v-partial.json'")
    con.close()
    known = variant_pick.known_variants("vestige", copy)
    label = "house-obelisk (recorded before, 0123456789abcdef)"
    assert label in known, known
    assert known[label]["options"] == {"obelisk-other": "other-pair"}
    # the same content hash as a bundled file is listed once (the bundled files only)
    bundled = variant_pick.known_variants("vestige", None)
    assert variant_pick.known_variants("vestige", db).keys() == bundled.keys()
