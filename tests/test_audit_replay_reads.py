"""What the Audit and Replay viewer pages show, kept while they read less (issue 30): one game's
events, seats and findings read at their locations equal to the reads by game id (on the sample
warehouse of both games, ``tests/sample_warehouse.py``, and on a copy whose locations are all
wrong, each then read by id), the pickers' lines as main's, and the Audit page's links to the
Replay viewer naming the page as the navigation registered it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from dashboards import queries, store, ui
from tests import sample_warehouse
from tests.bench_warehouse import direct
from tests.games import require_game

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"

#: the reads by game id the located reads replace (main at ``d54459b``)
_BY_ID = {
    "events": "SELECT idx, type, seat, era, cycle, t, line, payload FROM events "
              "WHERE game_id = ? ORDER BY idx",
    "seats": "SELECT * FROM seats WHERE game_id = ? ORDER BY seat",
}


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_game("mandate2038", "vestige")
    path = tmp_path_factory.mktemp("audit_replay") / "playtest.duckdb"
    sample_warehouse.build(path)
    return path


@pytest.fixture(scope="module")
def moved(sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample with every game's located rows shifted by one (wrong on purpose)."""
    db = tmp_path_factory.mktemp("moved") / "playtest.duckdb"
    shutil.copyfile(sample, db)
    con = duckdb.connect(str(db))
    try:
        con.execute("UPDATE game_rows SET lo = lo + 1")
    finally:
        con.close()
    return db


def _ids(db: Path) -> list[tuple[str, int]]:
    rows = direct(db, "SELECT game_id, rowid AS r FROM games ORDER BY game_id", [])
    return list(zip(rows["game_id"].to_list(), rows["r"].to_list(), strict=True))


@pytest.mark.parametrize("which", ["sample", "moved"])
def test_a_games_events_seats_and_findings_read_as_by_id(which: str, sample: Path,
                                                         moved: Path) -> None:
    db = sample if which == "sample" else moved
    store._CACHE.clear()
    compared = 0
    rulings = "rulings" if queries.has_column(db, "findings", "rulings") else "NULL AS rulings"
    findings = ("SELECT event, severity, message, CAST(expected AS VARCHAR) AS expected, "
                "CAST(recorded AS VARCHAR) AS recorded, rule, code, line, era, cycle, seat, n, "
                f"{rulings} FROM findings WHERE game_id = ? ORDER BY event NULLS LAST, n")
    for gid, _ in _ids(db):
        with store.page(db):  # one connection, as a page run
            got = {"events": queries.game_events(db, gid), "seats": queries.game_seats(db, gid),
                   "findings": queries.game_findings(db, gid)}
        for table, sql in {**_BY_ID, "findings": findings}.items():
            want = direct(db, sql, [gid])
            assert_frame_equal(got[table], want)
            compared += want.height
    assert compared > 1000


def _app(db: Path, monkeypatch: pytest.MonkeyPatch, page: str,
         query: dict[str, str] | None = None) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    if query:
        at.query_params.update(query)
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_audit_links_name_the_registered_replay_page(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    row = direct(sample, "SELECT game_id, min(event) AS event FROM findings "
                         "WHERE event IS NOT NULL GROUP BY game_id ORDER BY game_id LIMIT 1", [])
    if row.is_empty():
        pytest.skip("no located finding in the sample data")
    gid, event = row["game_id"][0], row["event"][0]
    at = _app(sample, monkeypatch, "views/audit.py", {"game": gid})
    links = at.get("page_link")
    assert links
    # the page st.navigation registered for the Replay viewer (its hash is its address's)
    for link in links:
        assert link.proto.page == "replay"
        assert link.proto.page_script_hash == calc_hash("replay")
        assert f"game={gid}" in link.proto.query_string
    assert any(f"event {event}" in ln.proto.label for ln in links)


def _old_game_labels(games: pl.DataFrame, factions: dict[str, list[str]]) -> dict[str, str]:
    """``ui.game_labels`` as it stood on main at ``d54459b`` (row by row, as dicts)."""
    from dashboards import gameapps
    from dashboards.filters import SESSION_TYPE_LABELS
    from dashboards.replay_view import content_names

    names = content_names()
    out = {}
    for r in games.iter_rows(named=True):
        seats = factions.get(r["game_id"], [])
        who = ", ".join(names.get(f, f) for f in seats) if seats else "seats not recorded"
        kind = SESSION_TYPE_LABELS.get(r.get("session_type") or "", r.get("session_type") or "")
        if r.get("illustrative"):
            kind += " (illustrative)"
        source = str(r.get("source_name") or "no source name").replace("\\", "/")
        source = source.rstrip("/").rsplit("/", 1)[-1] or source
        if len(source) > 40:
            source = source[:39] + "…"
        errors = ui.plural(int(r.get("n_errors") or 0), "error")
        game = f"{gameapps.title(str(r['game']))} · " if r.get("game") else ""
        out[r["game_id"]] = (f"{game}{source} · {r.get('date') or 'undated'} · "
                             f"{ui.plural(len(seats), 'seat')}: {who} · {kind} · {errors} · "
                             f"{str(r['game_id'])[:8]}")
    return out


def test_the_picker_lines_read_as_before(sample: Path) -> None:
    store._CACHE.clear()
    for order in queries.PICKER_ORDERS:
        games = queries.game_choices(sample, None, order, 1000)
        factions = queries.seat_factions(sample, games["game_id"].to_list())
        assert ui.game_labels(games, factions) == _old_game_labels(games, factions)
        # the columns a line is made of missing or empty, a long source name with folders
        odd = games.head(3).with_columns(
            pl.Series("source_name", ["C:\\logs\\" + "x" * 60 + ".json", None, "a/b/"]),
            pl.Series("n_errors", [1, None, 2]), pl.lit(None).alias("date"),
            pl.Series("illustrative", [True, None, False]))
        for frame in (odd, odd.drop("game", "session_type")):
            assert ui.game_labels(frame, {}) == _old_game_labels(frame, {})
