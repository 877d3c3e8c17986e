"""AppTests of every dashboard page, on an empty database and on sample data.

The pages come from the app's own navigation (:mod:`dashboards.navigation`: the shared pages
and each game's own), not from a list kept here. The sample warehouse holds both games, built
by the real pipeline (``tests/sample_warehouse.py``: simulated games labelled as simulations,
ILLUSTRATIVE relabelled Mandate copies with made-up times, the bundled Vestige walkthroughs).
Every page is opened with each value of the Game filter (all games, then each game).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.navigation import SHARED, all_pages
from tests import sample_warehouse
from tests.games import require_game

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"
#: page module name -> title, for every page of the app
ALL = {Path(p.path).stem: p.title for p in all_pages()}
#: page module name -> the path the navigation gives it (a game package's page is a file of its
#: own package, not of dashboards/views)
PATHS = {Path(p.path).stem: p.path for p in all_pages()}
DASHBOARDS = APP.parent
#: the shared pages that draw the filter sidebar (read from each page's own code)
ANALYTICS = {Path(p.path).stem: p.title for section in ("Check", "Analyse")
             for p in SHARED[section]
             if "filters.sidebar(" in (DASHBOARDS / p.path).read_text(encoding="utf-8")}
#: analytics pages that must draw at least one chart on the sample data
CHARTED = {"audit", "scoring", "endings", "observations", "balance"}
#: shared pages that draw one section per game (the Games page has a game column instead)
SECTIONED = {"audit", "duration", "scoring", "endings", "observations"}


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small warehouse of both games made by the real pipeline (no fallback)."""
    require_game("mandate2038", "vestige")
    path = tmp_path_factory.mktemp("sample") / "playtest.duckdb"
    sample_warehouse.build(path)
    return path


@pytest.fixture()
def empty_db(tmp_path: Path) -> Path:
    """A database path with no file at all (a fresh install)."""
    return tmp_path / "empty" / "playtest.duckdb"


def _app(db: Path, monkeypatch: pytest.MonkeyPatch, page: str | None = None,
         query: dict[str, str] | None = None, games: list[str] | None = None) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    if games is not None:  # the Game filter's choice, as its widget keeps it for every page
        at.session_state["playtest_filter_values"] = {"flt_games": games}
    if page:
        if query:
            at.query_params.update(query)
        at.switch_page(PATHS.get(page, f"views/{page}.py")).run()
    return at


def _no_exception(at: AppTest) -> None:
    problems = [e.value for e in at.exception]
    assert not problems, problems


def _charts(at: AppTest) -> int:
    return len(at.get("vega_lite_chart"))


def _has_filters(at: AppTest) -> None:
    labels = {w.label for w in at.sidebar.multiselect}
    assert {"Rules version", "Player count", "Session type", "Profile"} <= labels
    assert any(t.label == "Evidence only" for t in at.sidebar.toggle)


@pytest.mark.parametrize("page", sorted(ALL))
def test_page_on_empty_database(page: str, empty_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(empty_db, monkeypatch, page)
    _no_exception(at)
    assert [t.value for t in at.title] == [ALL[page]]
    assert not at.error, [e.value for e in at.error]
    if page in ANALYTICS:
        _has_filters(at)
        assert at.info, "an empty page says what to do"
        assert _charts(at) == 0
    assert not empty_db.exists(), "reading must not create the database"


@pytest.fixture(scope="session")
def empty_schema_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse whose tables exist but hold no game."""
    try:
        from ingest.warehouse import migrate
    except ImportError:
        pytest.skip("ingest.warehouse.migrate is not available")
    db = tmp_path_factory.mktemp("schema") / "playtest.duckdb"
    con = duckdb.connect(str(db))
    migrate(con)
    con.close()
    return db


@pytest.mark.parametrize("page", sorted(ANALYTICS) + ["replay"])
def test_page_on_empty_schema(page: str, empty_schema_db: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(empty_schema_db, monkeypatch, page)
    _no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert at.info


@pytest.mark.parametrize("page", sorted(ANALYTICS))
def test_analytics_page_on_sample(page: str, sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(sample_db, monkeypatch, page)
    _no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert [t.value for t in at.title] == [ANALYTICS[page]]
    _has_filters(at)
    if page == "duration":  # the sample's human games are illustrative: not human play time
        assert _charts(at) == 0 and at.info
        at.checkbox(key="dur_nonhuman").check().run()
    if page in CHARTED:
        assert _charts(at) >= 1, "a chart on sample data"
        labels = [b.label for b in at.get("download_button")]
        assert "PNG" in labels and "SVG" in labels and "CSV" in labels
    # the evidence switch: on, the page says which games it excluded and why
    at.sidebar.toggle[0].set_value(True).run()
    _no_exception(at)
    assert not at.error, [e.value for e in at.error]
    expanders = [e.label for e in at.expander]
    assert any(lbl.startswith("Excluded from") for lbl in expanders), expanders


@pytest.mark.parametrize("games", [[], ["mandate2038"], ["vestige"]],
                         ids=["all games", "mandate2038", "vestige"])
def test_every_page_with_each_game_filter_value(games: list[str], sample_db: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page of the navigation, with the Game filter on all games and on each game: no
    exception, no error box, and an analytics page never shows another game's section."""
    at = _app(sample_db, monkeypatch, games=games)
    titles = {"mandate2038": "Mandate 2038", "vestige": "Vestige"}
    for page in all_pages():
        at.switch_page(page.path).run()
        _no_exception(at)
        assert not at.error, (page.title, games, [e.value for e in at.error])
        assert [t.value for t in at.title] == [page.title]
        _in_words(at, f"{page.title} with {games or 'all games'}")
        headers = [h.value for h in at.header]
        if Path(page.path).stem in SECTIONED:
            if games:  # one game: no section header of another game
                assert not set(headers) & (set(titles.values()) - {titles[games[0]]}), headers
            else:  # all games: one section per game in the warehouse
                assert {"Mandate 2038", "Vestige"} <= set(headers), (page.title, headers)


#: what must not show on a page: Python's None, a list or dict repr, a bare position id
NOT_WORDS = re.compile(r"(^|[\s(:])None($|[\s),.])|\['|\{'|^'F'$|^F$")


def _in_words(at: AppTest, where: str) -> None:
    """No ``None``, no Python repr and no empty cell in the page's text and tables."""
    for kind in ("markdown", "caption", "info", "warning", "metric", "header", "subheader"):
        for e in at.get(kind):
            text = str(getattr(e, "value", ""))
            assert not NOT_WORDS.search(text), (where, kind, text[:200])
    for d in at.dataframe:
        df = d.value
        for c in df.columns:
            assert not df[c].isna().any(), (where, "an empty cell in column", c)
            for v in {str(x) for x in df[c].unique()[:300]}:
                assert not NOT_WORDS.search(v), (where, c, v[:120])


def test_evidence_switch_excludes_the_right_games(sample_db: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(sample_db), read_only=True)
    total, counted = con.sql("SELECT count(*), count(*) FILTER (WHERE evidence) FROM games").fetchall()[0]
    con.close()
    at = _app(sample_db, monkeypatch, "overview")
    assert int(at.dataframe[0].value["Games"].sum()) == total  # the counts, per game
    at.sidebar.toggle[0].set_value(True).run()
    if counted:
        assert int(at.dataframe[0].value["Games"].sum()) == counted
    label = next(e.label for e in at.expander if e.label.startswith("Excluded from"))
    n = total - counted
    assert label == f"Excluded from evidence: {n} game{'' if n == 1 else 's'}"


def test_evidence_switch_holds_on_every_page(sample_db: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Switched on once, "Evidence only" stays on through every page (and pages without the
    sidebar in between), like the player-count filter."""
    at = _app(sample_db, monkeypatch, "overview")
    at.sidebar.toggle[0].set_value(True).run()
    at.sidebar.multiselect[1].set_value([4]).run()
    tour = [p for a in ANALYTICS for p in (a, "record")] + list(ANALYTICS)
    for page in tour:
        at.switch_page(PATHS.get(page, f"views/{page}.py")).run()
        _no_exception(at)
        if page in ANALYTICS:
            toggles = [t.value for t in at.sidebar.toggle if t.label == "Evidence only"]
            counts = [m.value for m in at.sidebar.multiselect if m.label == "Player count"]
            assert toggles == [True], f"{page}: Evidence only is {toggles}"
            assert counts == [[4]], f"{page}: player count is {counts}"
    at.sidebar.toggle[0].set_value(False).run()
    at.switch_page("views/duration.py").run()
    assert [t.value for t in at.sidebar.toggle if t.label == "Evidence only"] == [False]


def test_human_figures_leave_illustrative_and_bot_games_out(
        sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Duration's "human playtests only" has no illustrative example in it, and World Endings'
    headline rates are for one kind of game at a time, never bots and walkthroughs pooled."""
    from dashboards import queries
    from dashboards.queries import Filters

    con = duckdb.connect(str(sample_db), read_only=True)
    illustrative = {r[0] for r in con.sql("SELECT game_id FROM games WHERE illustrative").fetchall()}
    kinds = dict(con.sql(f"SELECT {queries.KIND_SQL} AS kind, count(*) FROM outcomes o "
                         "JOIN games g USING (game_id) WHERE o.complete "
                         "AND g.game = 'mandate2038' GROUP BY ALL").fetchall())
    con.close()
    assert illustrative, "the sample has illustrative games"
    human = queries.durations(sample_db, Filters())
    assert not set(human["game_id"].to_list()) & illustrative
    assert set(queries.durations(sample_db, Filters(), True)["game_id"].to_list()) & illustrative
    at = _app(sample_db, monkeypatch, "endings")
    _no_exception(at)
    first = next(k for k in ("human", "simulated", "walkthrough", "illustrative") if k in kinds)
    assert at.metric[0].value == str(kinds[first]), (at.metric[0].value, kinds)


def test_player_count_filter(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(sample_db), read_only=True)
    n4 = con.sql("SELECT count(*) FROM games WHERE player_count = 4").fetchall()[0][0]
    con.close()
    at = _app(sample_db, monkeypatch, "overview")
    at.sidebar.multiselect[1].set_value([4]).run()
    _no_exception(at)
    if n4:
        assert int(at.dataframe[0].value["Games"].sum()) == n4
    else:
        assert at.info


def test_audit_links_open_the_replay(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(sample_db), read_only=True)
    row = con.sql("SELECT game_id, min(event) FROM findings WHERE event IS NOT NULL "
                  "GROUP BY game_id ORDER BY game_id LIMIT 1").fetchall()
    con.close()
    if not row:
        pytest.skip("no located finding in the sample data")
    gid, event = row[0]
    at = _app(sample_db, monkeypatch, "audit", {"game": gid})
    _no_exception(at)
    links = at.get("page_link")
    assert links, "each finding links to the replay"
    assert any(f"event {event}" in ln.proto.label for ln in links)


def test_replay_opens_at_query_params(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(sample_db), read_only=True)
    gid, n = con.sql("SELECT game_id, n_events FROM games ORDER BY n_events DESC LIMIT 1").fetchall()[0]
    con.close()
    at = _app(sample_db, monkeypatch, "replay", {"game": gid, "event": "5"})
    _no_exception(at)
    assert at.selectbox[0].value == gid
    if not at.slider:
        pytest.skip(f"this game cannot be replayed here: {[e.value for e in at.error]}")
    assert at.slider[0].value == 5
    if not at.warning:  # engine available: the map picture and the seat table are drawn
        assert at.get("imgs") or at.get("image"), "the map picture"
    at.button(key="rv_next").click().run()
    assert at.slider[0].value == 6
    assert at.query_params.get("event") in ("6", ["6"])


def test_write_pages_need_the_password(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYTEST_DB", str(sample_db))
    monkeypatch.setenv("PLAYTEST_WRITE_PASSWORD", "s3cret")
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.switch_page("views/import_games.py").run()
    _no_exception(at)
    assert [t.label for t in at.text_input] == ["Write password"]
    assert not at.file_uploader
    at.switch_page("views/record.py").run()
    assert [t.label for t in at.text_input] == ["Write password"]
    assert not [b for b in at.button if b.label == "Start recording"]
    at.text_input[0].input("wrong")
    at.form_submit_button[0].click().run()
    assert any("not right" in e.value for e in at.error)
    at.text_input[0].input("s3cret")
    at.form_submit_button[0].click().run()
    _no_exception(at)
    assert [b for b in at.button if b.label == "Start recording"]


def test_import_page_reports_a_bad_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        import ingest.formats  # noqa: F401
        import ingest.pipeline  # noqa: F401
    except ImportError as err:
        pytest.skip(f"ingest pipeline not available: {err}")
    db = tmp_path / "playtest.duckdb"
    at = _app(db, monkeypatch, "import_games")
    at.file_uploader[0].upload("broken.json", b"{not json", "application/json").run()
    at.button(key="import_go").click().run()
    _no_exception(at)
    table = at.dataframe[0].value
    assert "broken.json" in " ".join(map(str, table["file"].to_list()))
    assert {s.lower() for s in table["status"].to_list()} <= {"unreadable", "failed"}
    assert table["reason"][0]


@pytest.mark.needs_game("mandate2038")  # its bundled samples
def test_import_page_loads_a_game_and_a_session_folder(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import zipfile

    samples = APP.parent.parent / "data" / "samples"
    sims = sorted((samples / "simulated").glob("*.json"))
    folder = samples / "session-folder"
    if not sims or not (folder / "receipt.json").exists():
        pytest.skip("sample logs are not in this checkout")
    try:
        import ingest.pipeline  # noqa: F401
    except ImportError as err:
        pytest.skip(f"ingest pipeline not available: {err}")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for f in folder.iterdir():
            zf.write(f, f"session/{f.name}")
    db = tmp_path / "playtest.duckdb"
    at = _app(db, monkeypatch, "import_games")
    at.file_uploader[0].set_value([
        (sims[0].name, sims[0].read_bytes(), "application/json"),
        ("session.zip", buf.getvalue(), "application/zip"),
    ]).run()
    at.button(key="import_go").click().run()
    _no_exception(at)
    table = at.dataframe[0].value
    files = " ".join(map(str, table["file"].to_list()))
    assert sims[0].name in files and "session.zip" in files
    assert "Loaded" in table["status"].to_list()  # statuses in words
    con = duckdb.connect(str(db), read_only=True)
    n = con.sql("SELECT count(*) FROM games").fetchall()[0][0]
    con.close()
    assert n == int((table["status"] == "Loaded").sum())


def test_switching_through_every_page_in_one_session(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One session visits every page in turn without an exception (render times are measured by
    `playtest bench --pages`, never asserted in a test)."""
    at = _app(sample_db, monkeypatch)
    for page in ALL:
        at.switch_page(PATHS.get(page, f"views/{page}.py")).run()
        _no_exception(at)
    assert os.environ["PLAYTEST_DB"] == str(sample_db)


def test_busy_database_is_a_message(sample_db: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process writing the database: the page says so instead of failing."""
    import shutil
    import subprocess
    import sys

    db = tmp_path / "busy.duckdb"
    shutil.copy(sample_db, db)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True); "
         "time.sleep(30)", str(db)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        monkeypatch.setenv("PLAYTEST_DB_WAIT", "0.3")
        at = _app(db, monkeypatch, "overview")
        _no_exception(at)
        assert at.error and "busy" in at.error[0].value
    finally:
        holder.kill()
        holder.wait()


def test_replay_link_after_visiting_another_page(sample_db: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Coming back to the Replay viewer by a link with the same address opens that game."""
    con = duckdb.connect(str(sample_db), read_only=True)
    ids = [r[0] for r in con.sql("SELECT game_id FROM games ORDER BY date DESC NULLS LAST, "
                                 "game_id").fetchall()]
    con.close()
    target = ids[-1]  # not the game the viewer opens by default
    at = _app(sample_db, monkeypatch, "replay", {"game": target, "event": "3"})
    if not at.slider:
        pytest.skip("this game cannot be replayed here")
    assert at.selectbox[0].value == target and at.slider[0].value == 3
    at.switch_page("views/audit.py").run()
    at.query_params.update({"game": target, "event": "3"})
    at.switch_page("views/replay.py").run()
    _no_exception(at)
    assert at.selectbox[0].value == target
    assert at.slider[0].value == 3


def test_chart_downloads_render_png_and_svg() -> None:
    """The PNG and SVG behind the download buttons are real images (vl-convert)."""
    import polars as pl

    from dashboards import charts, stats, ui

    games = pl.DataFrame({"game_id": ["a", "b", "c"], "player_count": [4, 4, 3],
                          "session_type": ["blind_playtest"] * 3, "kind": ["human"] * 3,
                          "total_minutes": [80.0, 95.0, 70.0]})
    chart = charts.duration_chart(games, stats.summarise(games, ["player_count"], "total_minutes"),
                                  (75.0, 100.0))
    png = ui.chart_png(chart)
    svg = ui.chart_svg(chart)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    assert svg.lstrip().startswith("<svg") and "Minutes" in svg


def test_stats_against_known_values() -> None:
    from dashboards import stats

    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and abs(hi - 0.2775) < 1e-3
    assert abs(stats.wilson(5, 10)[0] - 0.2366) < 1e-3
    m = stats.mean_interval([70.0, 80.0, 90.0])
    assert m["mean"] == 80.0 and abs(m["high"] - (80 + 4.303 * 10 / 3 ** 0.5)) < 1e-6
    wide = stats.mean_interval([5.0, 120.0])  # t-interval would reach below zero minutes
    assert wide["low"] == 0.0 and wide["high"] > 120.0
    assert stats.normalised_entropy({"fund": 5}, 6) == 0.0
    assert abs(stats.normalised_entropy({a: 1 for a in "abcdef"}, 6) - 1.0) < 1e-12
    assert stats.thresholds()["seatWinShareRangeMax"] == 0.10


def test_filter_values_travel_as_parameters(sample_db: Path) -> None:
    from dashboards import queries

    hostile = queries.Filters(session_types=("x'; DROP TABLE games; --",), rules_versions=("'",))
    assert queries.games(sample_db, hostile).is_empty()
    assert not queries.games(sample_db, queries.Filters()).is_empty()


def test_tables_download_as_csv(sample_db: Path) -> None:
    """Every table a page offers as CSV can be written, lists and all."""
    from dashboards import queries, ui
    from dashboards.mandate2038 import queries as mandate_queries

    f = queries.Filters()
    for frame in (queries.games(sample_db, f), queries.findings_by_code(sample_db, f),
                  mandate_queries.endings(sample_db, f), queries.observations(sample_db, f),
                  mandate_queries.seats_in_games(sample_db, f)):
        text = ui.table_csv(frame).decode("utf-8")
        assert text.splitlines()[0].split(",")[0] in frame.columns
        assert len(text.splitlines()) >= frame.height + 1


def test_observations_page_reads_capture_from_the_warehouse(sample_db: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With the ``capture`` table, capture completeness is read from it: no game log is read."""
    from dashboards import gamelog, store

    if not store.table_exists(sample_db, "capture"):
        pytest.skip("the sample warehouse was not built by the pipeline (no capture table)")

    def no_log(*_a: object, **_k: object) -> None:
        raise AssertionError("the page re-read an archived log")

    monkeypatch.setattr(gamelog, "load", no_log)
    at = _app(sample_db, monkeypatch, "observations")
    box = next(c for c in at.checkbox if c.label == "Score simulations and walkthroughs too")
    box.check().run()
    _no_exception(at)
    assert not at.error, [e.value for e in at.error]
    captions = " ".join(c.value for c in at.caption)
    assert "predates the `capture` table" not in captions
    assert "By checklist group" in captions, captions
    with duckdb.connect(str(sample_db), read_only=True) as con:
        n = con.execute("SELECT count(DISTINCT game_id) FROM capture").fetchone()
    assert n is not None and n[0] > 0


def test_game_pickers_tell_games_apart(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Audit's and the Replay viewer's pickers show source, date and seats, not bare hashes."""
    for page in ("audit", "replay"):
        at = _app(sample_db, monkeypatch, page)
        _no_exception(at)
        picker = next(sb for sb in at.selectbox if sb.label == "Game")
        labels = list(picker.options)
        assert len(set(labels)) == len(labels), labels
        for label in labels:
            assert " seats: " in label and "·" in label, label
            assert not label.startswith(picker.value[:8]), "the id is not the first thing"
        assert any("Mirevanta" in x or "Kestralyn" in x or "Corthaven" in x for x in labels)
        assert not any(" errors" in x and x.split(" errors")[0].endswith(" 1") for x in labels)


def test_replay_shows_the_finding_at_its_event(sample_db: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(sample_db), read_only=True)
    row = con.sql("SELECT game_id, event, message, CAST(expected AS VARCHAR) FROM findings "
                  "WHERE event IS NOT NULL AND expected IS NOT NULL ORDER BY game_id, event "
                  "LIMIT 1").fetchall()
    con.close()
    if not row:
        pytest.skip("no finding with an expected value in the sample")
    gid, event, message, _ = row[0]
    at = _app(sample_db, monkeypatch, "replay", {"game": gid, "event": str(event)})
    _no_exception(at)
    if not at.slider:
        pytest.skip("this game cannot be replayed here")
    boxes = [b.value for b in [*at.error, *at.warning]]
    from dashboards.ui import md_text  # the message is shown as text (its Markdown escaped)

    assert any(md_text(message)[:40] in b and "**Expected**" in b for b in boxes), boxes


@pytest.mark.needs_game("mandate2038")
def test_move_labels_are_words_not_reprs() -> None:
    from dashboards.mandate2038 import live

    label = live.variant_label({"type": "fund", "seat": 1, "mode": "venture", "path": ["F", "I1"],
                                "trade": {"give": "runway", "take": "compute", "to_seat": 2}})
    assert "{" not in label and "'" not in label and "to seat 2" in label, label


@pytest.mark.needs_game("mandate2038")
def test_two_players_are_not_accepted_silently(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(tmp_path / "playtest.duckdb", monkeypatch, "record")
    assert not any("3-5 players" in w.value for w in at.warning)
    at.number_input(key="new_n").set_value(2).run()
    _no_exception(at)
    assert any("3-5 players" in w.value for w in at.warning)


def test_game_filter_holds_on_every_page_and_a_game_page_fixes_its_game(
        sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Game filter is kept across pages like the player count; a page about one game shows
    that game fixed and leaves the kept choice alone (dashboards/filters.py)."""
    from dashboards import filters
    from dashboards.queries import Filters

    at = _app(sample_db, monkeypatch, "overview")
    (game,) = [m for m in at.sidebar.multiselect if m.label == "Game"]
    assert "mandate2038" in game.options or "Mandate 2038" in game.options
    game.set_value(["mandate2038"]).run()
    for page in [*ANALYTICS, "record", "overview"]:
        at.switch_page(PATHS.get(page, f"views/{page}.py")).run()
        _no_exception(at)
        if page in ANALYTICS:
            games = [m.value for m in at.sidebar.multiselect if m.label == "Game"]
            assert games == [["mandate2038"]], f"{page}: game is {games}"
    f = Filters(player_counts=(4,), games=("vestige",))
    assert filters.for_game(f, "mandate2038").games == ("mandate2038",)
    sql, params = f.where("g")
    assert "g.game" in sql and ["vestige"] in params


@pytest.mark.parametrize("page", ["scoring", "endings", "duration"])
def test_a_game_without_its_own_sections_gets_the_generic_ones(
        page: str, sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered game the app has no section module for (a plug-in game) still gets every
    shared analytics page, worded by its declared vocabulary."""
    from dashboards import gameapps

    monkeypatch.setattr(gameapps, "SECTIONS_MODULE", "dashboards.no_room_{game}.sections")
    assert gameapps.section_module("vestige") is None
    at = _app(sample_db, monkeypatch, games=["vestige"])
    at.switch_page(PATHS.get(page, f"views/{page}.py")).run()
    if page == "duration":
        at.checkbox(key="dur_nonhuman").check().run()
    _no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert at.dataframe or (page == "duration" and at.info), "a table from the shared tables"
    if page == "scoring":
        from engine.core.registry import get_ruleset

        words = set(get_ruleset("vestige").vocabulary.score_sources.values())
        shown = set(at.dataframe[0].value.iloc[:, 0].to_list())
        assert shown and shown <= words | {s.replace("_", " ").capitalize() for s in shown}


def test_a_database_without_the_games_table_is_not_read_as_no_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is not a warehouse (no ``games`` table) says so on every analytics page
    (dashboards/store.py, the one place a missing table is judged), instead of "no games"."""
    db = tmp_path / "not-a-warehouse.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE notes (text VARCHAR)")
    con.close()
    at = _app(db, monkeypatch)
    for page in ANALYTICS:
        at.switch_page(PATHS.get(page, f"views/{page}.py")).run()
        _no_exception(at)
        errors = [e.value for e in at.error]
        assert any("has no 'games' table" in str(e) for e in errors), (page, errors)
        assert not any("No games match" in str(i.value) for i in at.info), page


PIG = Path(__file__).resolve().parent.parent / "examples" / "pig"


def test_a_third_game_appears_in_every_shared_page(sample_db: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The example game (examples/pig), registered as a plug-in would be, gets a section on the
    shared pages, its own page in the navigation, and opens with the Game filter on it; no
    file of the app names it."""
    if not (PIG / "playtest_pig" / "__init__.py").is_file():
        pytest.skip("examples/pig is not in this checkout")
    import shutil

    from engine.core import registry
    from ingest.pipeline import ingest_paths
    from schemas.canonical import dumps_log

    monkeypatch.syspath_prepend(str(PIG))
    import playtest_pig

    monkeypatch.setattr(registry, "_RULESETS", dict(registry.rulesets()))  # undone afterwards
    if "pig" not in registry.rulesets():
        registry.register(playtest_pig.GAME)
    db = tmp_path / "w" / "playtest.duckdb"
    db.parent.mkdir()
    shutil.copy(sample_db, db)
    logs = tmp_path / "pig-logs"
    logs.mkdir()
    for i in range(3):
        log = playtest_pig.GAME.simulate_one("app", i, 2, "mixed")
        (logs / f"pig-{i}.json").write_text(dumps_log(log), encoding="utf-8")
    ingest_paths([logs], db, progress=False)
    assert "Pig: turn risk" in [p.title for p in all_pages()]
    for games in ([], ["pig"]):
        at = _app(db, monkeypatch, games=games)
        for page in all_pages():
            at.switch_page(page.path).run()
            _no_exception(at)
            assert not at.error, (page.title, games, [e.value for e in at.error])
            if Path(page.path).stem in SECTIONED and not games:
                assert "Pig" in [h.value for h in at.header], page.title
