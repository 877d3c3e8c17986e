"""End conditions' outcomes and claims tables read the first rows as stored, in a window sized
by the kind's share of the games, and its counts come from one statement (issue 30, branch
``bal2``).

Their first window was ``4 x limit`` rows and grew four times while it held fewer than ``limit``
rows of the kind shown, with a count of the tables between: where the kind is a fifth of the
games (the page's first kind, human playtests, in the bench's warehouse) that was two windows
and a count. ``share`` (the kind's games among every game stored, from the totals) sizes the
first window; a share that is wrong only costs the growth it saved. Checked on hand-made tables
with the kinds interleaved and with one kind stored after all the others.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from dashboards import store
from dashboards.mandate2038 import queries as mandate_queries
from dashboards.queries import Filters
from tests.bench_warehouse import statements

#: every 5th game a human playtest, the others simulated (1,500 games, 4 seats and claims each)
GAMES = 1500


def _warehouse(path: Path, humans_last: bool) -> Path:
    from ingest.warehouse.migrations import migrate

    con = duckdb.connect(str(path))
    try:
        migrate(con)
        human = ("i >= 1200" if humans_last else "i % 5 = 0")
        con.execute(f"""
            INSERT INTO games (game_id, game, rules_version, profile, session_type, is_human,
                               illustrative, player_count, date, complete, source_format,
                               source_name)
            SELECT printf('g%05d', i), 'mandate2038', '1', 'p',
                   CASE WHEN {human} THEN 'facilitated_playtest' ELSE 'simulation' END,
                   {human}, FALSE, 4, DATE '2026-01-01', TRUE, 'json', 'g' || i
            FROM range({GAMES}) t(i)""")
        con.execute("INSERT INTO outcomes (game_id, complete, ending, agi, open, trust_margin) "
                    "SELECT printf('g%05d', i), TRUE, 'closed', FALSE, i % 2 = 0, i % 7 "
                    f"FROM range({GAMES}) t(i)")
        con.execute("INSERT INTO seats (game_id, seat, faction) SELECT printf('g%05d', i), s, "
                    f"'f' || s FROM range({GAMES}) t(i), range(1, 5) u(s)")
        con.execute("INSERT INTO claims (game_id, seat, strength, eligible) "
                    f"SELECT printf('g%05d', i), s, s, TRUE FROM range({GAMES}) t(i), "
                    "range(1, 5) u(s)")
    finally:
        con.close()
    return path


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    """The games interleaved (False) and the human playtests stored last (True)."""
    folder = tmp_path_factory.mktemp("end-window")
    return {last: _warehouse(folder / f"w{int(last)}.duckdb", last) for last in (False, True)}


@pytest.mark.parametrize("humans_last", [False, True])
@pytest.mark.parametrize("kind", ["human", "simulated"])
def test_first_rows_are_the_kinds_whatever_the_share(warehouses: dict[bool, Path],
                                                     humans_last: bool, kind: str) -> None:
    """As many rows as asked (or all there are) and only the kind's, with or without a share,
    right or wrong; claims with their seats' factions."""
    warehouse = warehouses[humans_last]
    store._CACHE.clear()
    f = Filters()
    every = mandate_queries.endings(warehouse, f, kind)
    claims = mandate_queries.claims(warehouse, f, kind)
    for share, limit in ((s, n) for s in (None, 0.2, 0.8, 0.001, 1.0) for n in (7, 100, 400)):
        store._CACHE.clear()
        first = mandate_queries.endings(warehouse, f, kind, limit, share=share)
        assert first.height == min(limit, every.height)
        assert set(first["kind"]) == {kind}
        assert first.join(every, on="game_id", how="anti").is_empty()
        shown = mandate_queries.claims(warehouse, f, kind, limit, share=share)
        assert shown.height == min(limit, claims.height)
        assert shown["faction"].null_count() == 0
        assert shown.join(claims, on=["game_id", "seat"], how="anti").is_empty()


def test_the_kinds_share_reads_one_window(warehouses: dict[bool, Path],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Human playtests a fifth of the games: with their share, one window each (no count);
    without it, a window too small, the count and a window four times larger."""
    db = warehouses[False]
    store._CACHE.clear()
    ran = statements(monkeypatch)
    f = Filters()
    mandate_queries.endings(db, f, "human", 100, share=0.2)
    mandate_queries.claims(db, f, "human", 100, share=0.2)
    assert len(ran) == 2 and not any("count(*)" in s for s in ran)
    store._CACHE.clear()
    ran.clear()
    mandate_queries.endings(db, f, "human", 100)
    mandate_queries.claims(db, f, "human", 100)
    assert len(ran) == 6 and sum("count(*)" in s for s in ran) == 2


def test_the_sections_counts_are_one_statement(warehouses: dict[bool, Path], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The endings and the claim strengths counted from their totals in one statement (the
    page's figures: ``tests/test_game_totals.py`` compares them with the per-row queries); a
    warehouse without ``claim_totals`` counts the claims from their rows."""
    from dashboards.queries import summarised
    from ingest.warehouse import game_totals

    db = tmp_path / "t.duckdb"
    db.write_bytes(warehouses[False].read_bytes())
    con = duckdb.connect(str(db))
    try:  # the totals as the load step writes them
        game_totals.refresh(con)
    finally:
        con.close()
    store._CACHE.clear()
    summarised(db, "outcome_totals")  # the catalog, cached
    ran = statements(monkeypatch)
    f = Filters()
    ends = mandate_queries.ending_counts(db, f)
    strengths = mandate_queries.claim_strengths(db, f)
    assert len(ran) == 1 and "UNION ALL BY NAME" in ran[0]
    assert strengths.columns == ["kind", "strength", "eligible", "claims"]
    assert ends.columns[0] == "kind" and ends.columns[-1] == "games"
    con = duckdb.connect(str(db))
    try:
        con.execute("DROP TABLE claim_totals")
    finally:
        con.close()
    store._CACHE.clear()
    per_row = mandate_queries.claim_strengths(db, f)
    assert per_row.equals(strengths) and int(per_row["claims"].sum()) == 4 * GAMES
    assert int(ends["games"].sum()) == GAMES
