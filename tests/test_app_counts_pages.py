"""The counts and means the other shared pages print, recomputed from the warehouse with SQL
(AppTest), for every registered game (issue 29; the End conditions, Scoring sources and
Observation protocols headlines are in ``tests/test_app_counts.py``, whose warehouse this
module uses: games of every kind for each game, a Pig seat that never scored, a partial game).

* Games: each game's row of the counts table (games, evidence, each kind, games with errors).
* Duration: with **Include other sessions** ticked, the first table of each game's section,
  its games and mean per player count (minutes; Vestige's rounds of the kind shown first).
* Audit: the Findings, Codes and Errors metrics of each game's section.
* Scoring sources (Vestige): leverage per seat-game by source and player count, over every
  seat-game at that player count.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.queries import KIND_SQL
from tests import test_app_counts
from tests.test_app_counts import _first_kind, _games, _page, _rows

#: the warehouse of tests/test_app_counts.py (every kind of game for each game)
db = test_app_counts.db


def _table_with(at: AppTest, *columns: str) -> pl.DataFrame:
    for d in at.dataframe:
        df = d.value
        if all(c in df.columns for c in columns):
            return pl.from_pandas(df) if not isinstance(df, pl.DataFrame) else df
    raise AssertionError(f"no table with {columns}: {[list(d.value.columns) for d in at.dataframe]}")


@pytest.mark.parametrize("game", _games())
def test_games_page_counts(db: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    at = _page(db, monkeypatch, "overview", game)
    counts = _table_with(at, "Game", "Games", "Simulated")
    assert counts.height == 1, counts
    row = counts.row(0, named=True)
    (n, evidence, human, walk, illus, sim, errors) = _rows(
        db, f"SELECT count(*), count(*) FILTER (WHERE g.evidence), "
        f"count(*) FILTER (WHERE {KIND_SQL} = 'human'), "
        f"count(*) FILTER (WHERE {KIND_SQL} = 'walkthrough'), "
        f"count(*) FILTER (WHERE {KIND_SQL} = 'illustrative'), "
        f"count(*) FILTER (WHERE {KIND_SQL} = 'simulated'), "
        "count(*) FILTER (WHERE coalesce(g.n_errors, 0) > 0) FROM games g WHERE g.game = ?",
        [game])[0]
    assert n > 0
    assert (row["Games"], row["Count as evidence"], row["Human playtests"], row["Walkthroughs"],
            row["Illustrative"], row["Simulated"], row["With rule errors"]) == (
        n, evidence, human, walk, illus, sim, errors), row


def _duration_page(db: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> AppTest:
    at = _page(db, monkeypatch, "duration", game)
    at.checkbox(key="dur_nonhuman").check().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("game", _games())
def test_duration_games_and_means(db: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    at = _duration_page(db, monkeypatch, game)
    if game == "vestige":  # rounds, of the kind shown first
        kind = _first_kind(db, game)
        sql = (f"SELECT g.player_count, count(*), avg(v.rounds) FROM games g JOIN vestige_games v "
               f"USING (game_id) WHERE g.game = ? AND {KIND_SQL} = ? AND v.rounds IS NOT NULL "
               "GROUP BY ALL ORDER BY 1")
        want = _rows(db, sql, [game, kind])
    else:  # minutes of every timed game (the page draws each kind in its own colour)
        want = _rows(db, "SELECT g.player_count, count(*), avg(g.total_minutes) FROM games g "
                     "WHERE g.game = ? AND g.total_minutes IS NOT NULL GROUP BY ALL ORDER BY 1",
                     [game])
    if not want:  # (this warehouse's Pig games carry no times)
        said = " ".join(str(e.value) for e in at.info)
        assert "No timed" in said and not [d for d in at.dataframe
                                            if "mean" in d.value.columns], said
        return
    shown = _table_with(at, "player_count", "n", "mean")
    got = sorted((int(r["player_count"]), int(r["n"]), float(r["mean"]))
                 for r in shown.iter_rows(named=True))
    assert [(p, n) for p, n, _ in got] == [(int(p), int(n)) for p, n, _ in want], (got, want)
    for (_, _, mean), (_, _, m) in zip(got, want, strict=True):
        assert mean == pytest.approx(float(m), abs=0.01)


@pytest.mark.parametrize("game", _games())
def test_audit_metrics(db: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    at = _page(db, monkeypatch, "audit", game)
    findings, codes, errors = _rows(
        db, "SELECT count(*), count(DISTINCT f.code), count(*) FILTER (WHERE f.severity = "
        "'error') FROM findings f JOIN games g USING (game_id) WHERE g.game = ?", [game])[0]
    metrics = {m.label: int(str(m.value).replace(",", "")) for m in at.metric}
    if not findings:
        assert "Findings" not in metrics
        return
    assert (metrics["Findings"], metrics["Codes"], metrics["Errors"]) == (
        findings, codes, errors), metrics


def test_vestige_leverage_per_seat_game(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboards.vestige.queries import SOURCE_NAMES, SOURCE_OF

    kind = _first_kind(db, "vestige")
    where = f"g.game = 'vestige' AND {KIND_SQL} = ?"
    seats = dict(_rows(db, f"SELECT g.player_count, sum(g.player_count) FROM games g "
                       f"WHERE {where} GROUP BY ALL", [kind]))
    want: dict[tuple[int, str], float] = {}
    for players, source, total in _rows(
            db, f"SELECT g.player_count, l.source, sum(l.amount) FROM ledger l JOIN games g "
            f"USING (game_id) WHERE {where} AND l.seat IS NOT NULL GROUP BY ALL", [kind]):
        name = SOURCE_NAMES[SOURCE_OF.get(source, "other")]
        want[(int(players), name)] = want.get((int(players), name), 0.0) + float(total)
    assert want
    at = _page(db, monkeypatch, "scoring", "vestige")
    shown = _table_with(at, "player_count", "source_name", "per_seat", "seat_games")
    got = {(int(r["player_count"]), str(r["source_name"])): r
           for r in shown.iter_rows(named=True)}
    assert sorted(got) == sorted(want)
    for key, r in got.items():
        assert int(r["seat_games"]) == seats[key[0]], r
        assert float(r["per_seat"]) == pytest.approx(want[key] / seats[key[0]], abs=0.006), r
