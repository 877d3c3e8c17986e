"""AppTests of Vestige in the one app: its sections of the shared pages (Game = Vestige), its own
page (modes and nemeses), the Replay viewer and the Record page's Vestige recorder; on an empty
database (no file), on migrated empty tables, and on a sample warehouse (simulated Vestige games
labelled simulations, the bundled walkthroughs labelled illustrative, next to a Mandate 2038 game
that the Vestige sections must not count)."""

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
#: pages with a Vestige section or about Vestige only -> title
PAGES = {
    "duration": "Duration",
    "scoring": "Scoring sources",
    "endings": "End conditions",
    "vestige/modes.py": "Vestige: modes and nemeses",
}
N = 6


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vapp")
    logs = root / "logs"
    logs.mkdir()
    for i in range(N):
        log = simulate_one(5, i, (2, 3, 4)[i % 3])
        (logs / f"{log.header.game_id}.json").write_text(dumps_log(log), encoding="utf-8")
    inputs = [logs, SAMPLES / "vestige"]
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


def _app(db: Path, monkeypatch: pytest.MonkeyPatch, page: str,
         query: dict[str, str] | None = None) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    # an AppTest clicks at once: no wait for a person to read the decision (record_nav)
    monkeypatch.setenv("PLAYTEST_TAP_SETTLE_MS", "0")
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.session_state["playtest_filter_values"] = {"flt_games": ["vestige"]}
    if query:
        at.query_params.update(query)
    at.switch_page(page if page.endswith(".py") else f"views/{page}.py").run()
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
    if page == "duration":  # the sample has no human playtest: include the others
        at.checkbox(key="dur_nonhuman").check().run()
        _clean(at)
    assert [t.value for t in at.title] == [PAGES[page]]
    assert len(at.get("vega_lite_chart")) >= 1, "a chart on sample data"
    labels = {getattr(b, "label", None) for b in at.get("download_button")}
    assert {"PNG", "SVG", "CSV"} <= labels
    shown = [c.value for c in at.caption if str(c.value).startswith("Showing ")]
    assert shown, "the kind of game shown is named"
    at.sidebar.toggle[0].set_value(True).run()  # evidence only: simulations are excluded
    _clean(at)
    assert any(str(getattr(e, "label", "")).startswith("Excluded from") for e in at.expander)


def test_vestige_figures_are_one_kind_of_game_at_a_time(sample_db: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The modes table counts the simulated Vestige games only (no Mandate game, no
    walkthrough); the walkthroughs are shown on their own, labelled illustrative."""
    from dashboards.queries import KIND_SQL

    con = duckdb.connect(str(sample_db), read_only=True)
    kinds = dict(con.execute(f"SELECT {KIND_SQL} AS kind, count(*) FROM games g "
                             "WHERE g.game = 'vestige' GROUP BY ALL").fetchall())
    mandate = con.execute("SELECT count(*) FROM games WHERE game = 'mandate2038'").fetchone()
    con.close()
    assert mandate and mandate[0] >= 1 and kinds["simulated"] == N and kinds["illustrative"] >= 1
    at = _app(sample_db, monkeypatch, "vestige/modes.py")
    _clean(at)
    table = next(d.value for d in at.dataframe)
    assert int(table["Games"].sum() if "Games" in table else table["games"].sum()) == N
    assert any(str(c.value).startswith("Showing simulated games") for c in at.caption)
    at.segmented_control[0].set_value("illustrative").run()
    _clean(at)
    table = next(d.value for d in at.dataframe)
    assert int(table["Games"].sum() if "Games" in table else table["games"].sum()) \
        == kinds["illustrative"]
    assert any(str(c.value).startswith("Showing illustrative examples") for c in at.caption)


def test_replay_viewer_draws_the_map_of_a_vestige_game(sample_db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared Replay viewer dispatches on the game: a Vestige game gets Vestige's map
    (it opened on an AttributeError from Mandate's hex map before)."""
    con = duckdb.connect(str(sample_db), read_only=True)
    gid = con.execute("SELECT game_id FROM games WHERE game = 'vestige' LIMIT 1").fetchone()
    con.close()
    assert gid
    at = _app(sample_db, monkeypatch, "replay", {"game": gid[0]})
    _clean(at)
    assert at.get("imgs") or at.get("image")
    assert any(str(c.value).startswith("Vestige ·") for c in at.caption)
    at.slider[0].set_value(5).run()
    _clean(at)
    event = next(m.value for m in at.markdown if str(m.value).startswith("**Event 5**"))
    assert "=" not in event and "(" not in event.split(":", 1)[1], event  # words, not notation


def _button(at: AppTest, key: str) -> object:
    return next(b for b in at.button if b.key == key)


def test_record_a_vestige_game_undo_and_resume(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w" / "playtest.duckdb"
    at = _app(db, monkeypatch, "record")
    at.radio(key="new_game").set_value("vestige").run()
    at.number_input[0].set_value(2)
    next(b for b in at.button if b.label == "Start recording").click().run()
    _clean(at)
    draft = at.query_params["draft"]
    draft_id = draft[0] if isinstance(draft, list) else draft
    ddir = db.parent / "drafts"
    # the first decision (which Chop Bot was dealt) has three choices: none is pre-selected,
    # each is one button in words
    options = [b for b in at.button if str(b.key).startswith("vrec_opt_")]
    assert len(options) == 3 and all("Chop Bot" in str(b.label) or "“" in str(b.label)
                                     for b in options)
    assert all("=" not in str(b.label) for b in options), [b.label for b in options]
    assert not at.selectbox, "nothing to pre-select"
    options[1].click().run()
    _clean(at)
    assert len(drafts.load(ddir, draft_id).events) == 1
    # a forced single option is shown as such and recorded in one click
    for n in range(2, 5):
        forced = [b for b in at.button if str(b.key).startswith("vrec_forced_")]
        if forced:
            assert str(forced[0].label).startswith("Record: ")
            assert any("Only one thing can happen" in str(c.value) for c in at.caption)
            forced[0].click().run()
        else:
            next(b for b in at.button if str(b.key).startswith("vrec_opt_")).click().run()
        _clean(at)
        assert len(drafts.load(ddir, draft_id).events) == n
    _button(at, "vrec_undo").click().run()  # asks first
    assert len(drafts.load(ddir, draft_id).events) == 4
    _button(at, "vrec_undo_yes").click().run()
    assert len(drafts.load(ddir, draft_id).events) == 3
    # put aside asks first; Cancel keeps the draft open
    _button(at, "vrec_abandon").click().run()
    assert drafts.load(ddir, draft_id).status == "open"
    _button(at, "vrec_abandon_no").click().run()
    assert drafts.load(ddir, draft_id).status == "open"
    # a fresh session (a reload) with the draft in the address finds it intact
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    again = AppTest.from_file(str(APP), default_timeout=60)
    again.query_params["draft"] = draft_id
    again.run()
    again.switch_page("views/record.py").run()
    _clean(again)
    assert any("3 events" in str(m.value) for m in again.markdown)
    _button(again, "vrec_abandon").click().run()
    _button(again, "vrec_abandon_yes").click().run()
    assert drafts.load(ddir, draft_id).status == "abandoned"
    # the Record page lists every draft of every game: the abandoned one on request, reopenable
    _clean(again)
    again.toggle(key="drafts_all").set_value(True).run()
    assert any("Vestige" in str(m.value) and "abandoned" in str(m.value)
               for m in again.markdown)
    _button(again, f"resume_{draft_id}").click().run()
    _button(again, "vrec_reopen").click().run()
    assert drafts.load(ddir, draft_id).status == "open"


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
    # read and replayed; the bundled walkthroughs replay clean (tests/test_samples_true.py)
    assert {r[1] for r in rows} == {"notation", "csv"}
    assert {r[3] for r in rows} == {"clean"}
