"""The game's own app page (AppTest): on a warehouse holding simulated Pig games and the
illustrative walkthrough, loaded through the toolkit's real pipeline, and on an empty one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playtest_pig.simulate import simulate_one
from streamlit.testing.v1 import AppTest

from ingest.pipeline import ingest_paths
from schemas.canonical import dumps_log

PAGE = Path(__file__).resolve().parents[1] / "playtest_pig" / "page.py"
SAMPLES = Path(__file__).resolve().parents[1] / "playtest_pig" / "samples"


@pytest.fixture(scope="module")
def pig_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pig-games")
    for i in range(12):
        (folder / f"g{i}.json").write_text(dumps_log(simulate_one("page", i, 2 + i % 3)),
                                           encoding="utf-8")
    shutil.copy(SAMPLES / "walkthrough.pig", folder / "walkthrough.pig")
    db = tmp_path_factory.mktemp("pig-db") / "playtest.duckdb"
    summary = ingest_paths([folder], db, progress=False)
    assert len(summary.loaded) == 13, [(r.file, r.status, r.reason) for r in summary.reports][:3]
    return db


def _page(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    at = AppTest.from_file(str(PAGE), default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def test_page_shows_each_kind_apart(pig_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(pig_db, monkeypatch)
    assert [t.value for t in at.title] == ["Pig: turn risk"]
    kinds = [h.value for h in at.subheader]
    assert kinds == ["Illustrative walkthrough", "Simulated"]
    assert len(at.get("vega_lite_chart")) >= 5
    captions = " ".join(c.value for c in at.caption)
    assert "12 games" in captions and "1 game," in captions and "ended on a 1" in captions


def test_page_on_an_empty_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(tmp_path / "none" / "playtest.duckdb", monkeypatch)
    assert at.info and "playtest simulate --game pig" in at.info[0].value


def test_the_page_figures_recomputed_by_hand() -> None:
    """Win rates and face shares of the page, on frames small enough to count by hand."""
    import polars as pl
    from playtest_pig.page import _face_shares, _rates

    seats = pl.DataFrame({"player": ["a", "a", "a", "b"], "winner": [True, False, True, False]})
    rates = _rates(seats, ["player"])
    assert rates.select("player", "games", "won", "rate").rows() == [
        ("a", 3, 2, 2 / 3), ("b", 1, 0, 0.0)]
    assert all(lo <= r <= hi for r, lo, hi in rates.select("rate", "low", "high").rows())
    shares = _face_shares(pl.DataFrame({"face": [1, 6], "rolls": [1, 3]}))
    assert shares.select("face", "share").rows() == [(1, 0.25), (6, 0.75)]


def test_the_face_counts_match_the_logs(pig_db: Path) -> None:
    """The faces query counts every roll of the simulated games (recounted from the logs)."""
    from playtest_pig import queries

    counted: dict[int, int] = {}
    for i in range(12):
        for ev in simulate_one("page", i, 2 + i % 3).events:
            if ev.type == "roll":
                counted[ev.face] = counted.get(ev.face, 0) + 1
    import polars as pl

    sim = queries.faces(pig_db).filter(pl.col("kind") == "Simulated")
    assert dict(zip(sim["face"].to_list(), sim["rolls"].to_list(), strict=True)) == counted


def test_the_replay_viewer_draws_the_race(pig_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The toolkit's Replay viewer calls Pig's declared board picture (playtest_pig/board.py)."""
    import duckdb

    import dashboards

    con = duckdb.connect(str(pig_db), read_only=True)
    (gid,) = con.execute("SELECT game_id FROM games WHERE session_type = 'simulation' "
                         "ORDER BY game_id LIMIT 1").fetchone()
    con.close()
    monkeypatch.setenv("PLAYTEST_DB", str(pig_db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(Path(dashboards.__file__).parent / "app.py"), default_timeout=60)
    at.run()
    at.query_params.update({"game": gid, "event": "3"})
    at.switch_page("views/replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = " ".join(m.value for m in at.markdown)
    assert "is on turn" in text or "The game is over" in text
    assert len(at.get("vega_lite_chart")) == 1


def test_the_race_frame() -> None:
    from playtest_pig.board import race

    snap = {"scores": {"1": 30, "2": 12}, "active": 2, "turn_total": 9, "over": False}
    assert race(snap).rows() == [("Seat 1", "Banked", 30), ("Seat 1", "Turn total at stake", 0),
                                 ("Seat 2", "Banked", 12), ("Seat 2", "Turn total at stake", 9)]
