"""AppTests of every Vestige page: on an empty database (no file), on migrated empty tables, and
on a sample warehouse (simulated Vestige games, labelled simulations, next to a Mandate 2038
game that the Vestige pages must not count)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

import engine.vestige  # noqa: F401 - registers the ruleset (until the registry loads it itself)
from dashboards import drafts
from engine.vestige.simulate import simulate_one
from ingest.pipeline import ingest_paths
from ingest.warehouse import migrate
from schemas.canonical import dumps_log

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"
SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
PAGES = {
    "vestige_duration": "Vestige: duration",
    "vestige_leverage": "Vestige: leverage sources",
    "vestige_endgame": "Vestige: endgame and mastery",
    "vestige_modes": "Vestige: modes and nemeses",
}
OTHERS = {"vestige_record": "Record a Vestige game", "vestige_replay": "Vestige replay"}
N = 6


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vapp")
    logs = root / "logs"
    logs.mkdir()
    for i in range(N):
        log = simulate_one(5, i, (2, 3, 4)[i % 3])
        (logs / f"{log.header.game_id}.json").write_text(dumps_log(log), encoding="utf-8")
    inputs = [logs]
    vestige_samples = SAMPLES / "vestige"
    if vestige_samples.is_dir():
        inputs.append(vestige_samples)
    mandate = sorted((SAMPLES / "simulated").glob("*.json"))[:1]
    path = root / "w" / "playtest.duckdb"
    ingest_paths([*inputs, *mandate], path, progress=False)
    return path


@pytest.fixture(scope="module")
def schema_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("schema") / "playtest.duckdb"
    con = duckdb.connect(str(path))
    migrate(con)
    con.close()
    return path


def _app(db: Path, monkeypatch: pytest.MonkeyPatch, page: str) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page(f"views/{page}.py").run()
    return at


def _clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_on_empty_database(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "none" / "playtest.duckdb"
    at = _app(db, monkeypatch, page)
    _clean(at)
    assert [t.value for t in at.title] == [PAGES[page]]
    assert at.info, "an empty page says what to do"
    assert not at.get("vega_lite_chart")
    assert {w.label for w in at.sidebar.multiselect} >= {"Player count", "Session type"}
    assert not db.exists(), "reading must not create the database"


@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_on_empty_tables(page: str, schema_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(schema_db, monkeypatch, page)
    _clean(at)
    assert at.info


@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_on_sample(page: str, sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(sample_db, monkeypatch, page)
    _clean(at)
    assert [t.value for t in at.title] == [PAGES[page]]
    assert len(at.get("vega_lite_chart")) >= 1, "a chart on sample data"
    labels = {getattr(b, "label", None) for b in at.get("download_button")}
    assert {"PNG", "SVG", "CSV"} <= labels
    at.sidebar.toggle[0].set_value(True).run()  # evidence only: simulations are excluded
    _clean(at)
    assert any(str(getattr(e, "label", "")).startswith("Excluded from") for e in at.expander)


def test_vestige_pages_count_only_vestige_games(sample_db: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(sample_db), read_only=True)
    games = dict(con.execute("SELECT game, count(*) FROM games GROUP BY ALL").fetchall())
    con.close()
    assert games.get("mandate2038", 0) >= 1 and games["vestige"] >= N
    at = _app(sample_db, monkeypatch, "vestige_modes")
    table = next(d.value for d in at.dataframe)
    assert int(table["games"].sum()) == games["vestige"]
    assert len(at.get("vega_lite_chart")) >= 3, "rounds, margins and the nemesis win rate"


@pytest.mark.parametrize("page", sorted(OTHERS))
def test_other_pages_on_empty_database(page: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(tmp_path / "none" / "playtest.duckdb", monkeypatch, page)
    _clean(at)
    assert [t.value for t in at.title] == [OTHERS[page]]
    assert at.info


def test_replay_draws_the_map_of_a_sample_game(sample_db: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(sample_db, monkeypatch, "vestige_replay")
    _clean(at)
    assert at.get("imgs") or at.get("image"), ([i.value for i in at.info], [w.value for w in at.warning], [m.value for m in at.markdown][:5])
    at.slider[0].set_value(5).run()
    _clean(at)
    assert any("Event 5" in m.value for m in at.markdown)


def test_record_a_game_undo_and_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w" / "playtest.duckdb"
    at = _app(db, monkeypatch, "vestige_record")
    at.number_input[0].set_value(2)
    at.button[-1].click().run()  # "Start recording" (the form's submit button)
    _clean(at)
    draft = at.query_params["vdraft"]
    draft_id = draft[0] if isinstance(draft, list) else draft
    assert draft_id
    for _ in range(4):
        next(b for b in at.button if b.label == "Record").click().run()
        _clean(at)
    assert at.metric[0].value == "4"
    next(b for b in at.button if b.label == "Undo last event").click().run()
    assert at.metric[0].value == "3"
    # a fresh session (a reload) with the draft in the address finds it intact
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    again = AppTest.from_file(str(APP), default_timeout=60)
    again.query_params["vdraft"] = draft_id
    again.run()
    again.switch_page("views/vestige_record.py").run()
    _clean(again)
    assert again.metric[0].value == "3"
    assert drafts.load(db.parent / "drafts", draft_id).header["game"] == "vestige"


def test_import_takes_vestige_notation_and_sheets(tmp_path: Path) -> None:
    from dashboards.importing import run_import

    files = [(p.name, p.read_bytes()) for p in sorted((SAMPLES / "vestige").glob("walkthrough-*"))]
    (tmp_path / "stage").mkdir()
    out = run_import(files, tmp_path / "w" / "playtest.duckdb", tmp_path / "stage")
    assert not out.problems, out.problems
    con = duckdb.connect(str(tmp_path / "w" / "playtest.duckdb"), read_only=True)
    rows = con.execute("SELECT game, source_format, illustrative, status FROM games "
                       "ORDER BY source_format").fetchall()
    con.close()
    assert len(rows) == len(files) == 4
    assert {r[0] for r in rows} == {"vestige"} and all(r[2] for r in rows)
    assert {r[1] for r in rows} == {"notation", "csv"} and {r[3] for r in rows} == {"clean"}
