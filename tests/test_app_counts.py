"""Every count and mean the shared pages print, recomputed from the warehouse (AppTest).

For every registered game, with the Game filter on that game, each shared section's headline
(the "Showing ...: N ..." line of the kind of game shown first) is compared with a count made
here by hand from the warehouse's own tables, and the Scoring sources means with the ledger's
sum over every seat-game (a seat that never scored counts as 0, not as missing). The warehouse
holds games of every kind for each game, a Pig game where one seat never scored and a Pig game
stopped early (partial: it is not a complete game).
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import gameapps
from dashboards.charts import KIND_ORDER
from dashboards.queries import KIND_SQL
from tests import sample_warehouse

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"


def _pig_log(events: list[dict], name: str, players: tuple[str, ...] = ("Ada", "Bo")) -> object:
    from playtest_pig.recorder import as_log, new_header

    header = new_header(list(players), target=10, first=1, end="immediate",
                        session_type="facilitated_playtest")
    header["provenance"] = {"source_format": "json", "source_name": name}
    return as_log(header, [{"type": "phase", "name": "game_start"}, *events])


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from playtest_pig.simulate import simulate_one

    from ingest.pipeline import ingest_log, ingest_paths
    from schemas.canonical import dumps_log

    path = tmp_path_factory.mktemp("counts") / "playtest.duckdb"
    sample_warehouse.build(path, simulated=2, human=1, vestige=2)
    folder = path.parent / "pig-logs"
    folder.mkdir()
    for i in range(4):
        log = simulate_one("counts", i, (2, 3, 4)[i % 3])
        (folder / f"pig-{i}.json").write_text(dumps_log(log), encoding="utf-8")
    ingest_paths([folder], path, progress=False)
    # Bo never scores: Ada wins on her first turn
    won = [{"type": "roll", "seat": 1, "face": 6, "total": 6},
           {"type": "roll", "seat": 1, "face": 5, "total": 11},
           {"type": "hold", "seat": 1, "score": 11},
           {"type": "final", "scores": {"1": 11, "2": 0}, "winners": [1]},
           {"type": "phase", "name": "game_end"}]
    ingest_log(_pig_log(won, "Bo never scored"), path, source="Bo never scored")
    # one more complete game at another player count: the End conditions table has two rows
    three = [*won[:3], {"type": "final", "scores": {"1": 11, "2": 0, "3": 0}, "winners": [1]},
             won[-1]]
    ingest_log(_pig_log(three, "three seats", ("Ada", "Bo", "Cy")), path, source="three seats")
    # stopped early: a partial game, not a complete one
    ingest_log(_pig_log(won[:1], "stopped early"), path, source="stopped early")
    return path


def _rows(db: Path, sql: str, params: list[object]) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def _first_kind(db: Path, game: str) -> str:
    kinds = {k for (k,) in _rows(db, f"SELECT DISTINCT {KIND_SQL} FROM games g WHERE game = ?",
                                 [game])}
    return next(k for k in KIND_ORDER if k in kinds)


def _page(db: Path, monkeypatch: pytest.MonkeyPatch, page: str, game: str) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.session_state["playtest_filter_values"] = {"flt_games": [game]}
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _headline(at: AppTest) -> str:
    """The "Showing <kind>: <how many>." line of the section."""
    for c in at.caption:
        m = re.match(r"Showing [^:]+: (.+)\.$", str(c.value))
        if m:
            return m.group(1)
    raise AssertionError([c.value for c in at.caption])


def _games() -> list[str]:
    return list(gameapps.game_ids())


@pytest.mark.parametrize("game", _games())
def test_end_conditions_headline_counts_the_complete_games(
        db: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    kind = _first_kind(db, game)
    complete, every = _rows(
        db, f"SELECT count(*) FILTER (WHERE o.complete), count(*) FROM games g "
        f"LEFT JOIN outcomes o USING (game_id) WHERE g.game = ? AND {KIND_SQL} = ?",
        [game, kind])[0]
    at = _page(db, monkeypatch, "endings", game)
    head = _headline(at)
    # a game's section counts complete games (Mandate 2038, Pig) or every game (Vestige's
    # conditions are revealed in any game); either way the number is the warehouse's
    n = int(head.split()[0])
    assert (n, "complete" in head) in ((complete, True), (every, False)), (head, complete, every)
    if game == "pig":  # the generic table: its rows add up to the headline
        table = at.dataframe[0].value
        assert int(table["games"].sum()) == n == complete
        assert complete < every, "the partial game is not a complete one"


@pytest.mark.parametrize("game", _games())
def test_scoring_sources_count_every_seat_game(db: Path, monkeypatch: pytest.MonkeyPatch,
                                               game: str) -> None:
    kind = _first_kind(db, game)
    games, seat_games = _rows(
        db, f"SELECT count(*), sum(player_count) FROM games g WHERE g.game = ? AND "
        f"{KIND_SQL} = ?", [game, kind])[0]
    at = _page(db, monkeypatch, "scoring", game)
    head = _headline(at)
    numbers = [int(x) for x in re.findall(r"(\d+) (?:games?|seat-games?)\b", head)]
    assert numbers in ([games], [seat_games], [games, seat_games]), (head, games, seat_games)
    if game != "pig":
        return
    scored = dict(_rows(
        db, f"SELECT l.source, sum(l.amount)::BIGINT FROM ledger l JOIN games g USING (game_id) "
        f"WHERE g.game = ? AND {KIND_SQL} = ? AND l.seat IS NOT NULL GROUP BY ALL",
        [game, kind]))
    never = _rows(db, "SELECT count(*) FROM games g, range(1, g.player_count + 1) s(seat) "
                  "WHERE g.game = 'pig' AND NOT EXISTS (SELECT 1 FROM ledger l WHERE "
                  "l.game_id = g.game_id AND l.seat = s.seat)", [])[0][0]
    assert never >= 1, "the warehouse has a seat that never scored"
    table = at.dataframe[0].value
    shown = dict(zip(table["Points per seat-game"].to_list(), table["Points"].to_list(),
                     strict=True))
    assert sorted(shown.values()) == sorted(scored.values())
    for mean, points in shown.items():
        assert mean == pytest.approx(points / int(seat_games), abs=0.005)


@pytest.mark.parametrize("game", _games())
def test_observation_protocols_never_say_no_games_match_when_games_match(
        db: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    (n,) = _rows(db, "SELECT count(*) FROM games WHERE game = ?", [game])[0]
    (observed,) = _rows(db, "SELECT count(*) FROM observations o JOIN games g USING (game_id) "
                        "WHERE g.game = ?", [game])[0]
    at = _page(db, monkeypatch, "observations", game)
    said = " ".join(str(x.value) for x in [*at.info, *at.markdown, *at.caption])
    assert n and "No games match" not in said, said
    if not observed:
        assert f"No observations in the {n} matching" in said, said
