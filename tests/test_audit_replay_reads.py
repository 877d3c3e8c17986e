"""The Audit and Replay viewer pages read one game by where it is stored and show what they
showed (issue 30): the chosen game's ``games`` row fetched at the row id the picker read it
from, its locations in every located table read in one statement, and the Audit page's links
to the Replay viewer naming the page as the navigation registered it.

Each read is compared with the lookup by game id it replaces (kept below), on the sample
warehouse of both games (``tests/sample_warehouse.py``) and on a copy whose row ids and
locations are wrong on purpose (each then read by id, as before).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from dashboards import gamelog, queries, store, ui
from dashboards.queries import Filters
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


def test_a_games_row_is_read_at_its_row_id_or_by_its_id(sample: Path) -> None:
    store._CACHE.clear()
    games = _ids(sample)
    assert len(games) > 5
    for (gid, rowid), (_, other) in zip(games, games[1:] + games[:1], strict=True):
        by_id = queries.game_row(sample, gid)
        assert by_id is not None and by_id["game_id"] == gid
        assert queries.game_row(sample, gid, rowid) == by_id
        # another game's row id, and one past the end: the row is looked up by id
        assert queries.game_row(sample, gid, other) == by_id
        assert queries.game_row(sample, gid, len(games) + 10) == by_id
    assert queries.game_row(sample, "no such game", 0) is None


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


def test_the_picker_gives_each_games_row_id(sample: Path) -> None:
    store._CACHE.clear()
    rowids = dict(_ids(sample))
    for f in (Filters(), Filters(games=("vestige",))):
        for order in queries.PICKER_ORDERS:
            for limit in (1, 3, 1000):
                plain = queries.game_choices(sample, f, order, limit)
                with_rows = queries.game_choices(sample, f, order, limit, rows=True)
                assert_frame_equal(with_rows.drop("row"), plain)
                assert with_rows["row"].to_list() == [rowids[g] for g in plain["game_id"]]


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


def test_the_replay_viewer_reads_the_chosen_game_at_its_row_id(
        sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store._CACHE.clear()
    asked: list[tuple[str, Any]] = []
    real = gamelog.load

    def watched(db: Path, game_id: str, rowid: int | None = None) -> gamelog.GameLog:
        asked.append((game_id, rowid))
        return real(db, game_id, rowid)

    monkeypatch.setattr(gamelog, "load", watched)
    at = _app(sample, monkeypatch, "views/replay.py")
    rowids = dict(_ids(sample))
    gid = at.selectbox(key="rv_game").value
    assert asked == [(gid, rowids[gid])]
    assert at.slider, "the chosen game is read and can be stepped through"


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
