"""The Duration page's statistics worked out in polars on counted values (issue 30, branch
``bal2``).

``queries.counted_values`` reads the counted values of ``turn_totals``, ``phase_totals`` and
``duration_totals`` of the filtered games in one statement; the box statistics, the moments
and the chart's bins are worked out on them (``_turn_boxes``, ``_turn_moments``,
``_moments_of``, Mandate 2038's ``duration_points``) where four statements of windows over the
same rows ran before. Every figure is compared here with DuckDB's own aggregates
(``quantile_cont``, ``median``, ``avg``, ``stddev_samp``) on every value expanded, on
hand-made counts with the edge cases (one value, every value equal, an even count, counts in
the thousands); ``tests/test_warehouse_summaries.py``, ``tests/test_duration_summary.py`` and
``tests/test_phase_totals_protocol_rows.py`` compare the pages' figures with the per-row
queries on the bench's warehouses.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import queries, store
from dashboards.mandate2038 import queries as mandate_queries
from dashboards.queries import Filters
from ingest.warehouse import summaries
from ingest.warehouse.migrations import migrate
from tests.bench_warehouse import statements


def _expanded(counted: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Every value as many times as it was counted (what the per-row queries read)."""
    return counted.select(*keys, pl.col("v").repeat_by("c")).explode("v")


def _duckdb(frame: pl.DataFrame, sql: str) -> pl.DataFrame:
    con = duckdb.connect()
    try:
        con.register("x", frame.to_arrow())
        return con.sql(sql).pl()
    finally:
        con.close()


def _groups(seed: int, integer: bool) -> pl.DataFrame:
    """Counted values (action, player_count, v, c) with every edge case: a single value, a
    value counted once, every value equal, an even count, counts in the thousands."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = [
        {"action": "one", "player_count": 3, "v": 42.5, "c": 1},
        {"action": "same", "player_count": 4, "v": 30.1, "c": 7},
        {"action": "even", "player_count": 4, "v": 10.0, "c": 1},
        {"action": "even", "player_count": 4, "v": 20.0, "c": 2},
        {"action": "even", "player_count": 4, "v": 41.0, "c": 1},
        {"action": "even", "player_count": 5, "v": 11.0, "c": 3},
    ]
    for action in ("fund", "build", "research"):
        for players in (3, 4, 5):
            for v in rng.sample(range(1, 400), rng.randint(1, 30)):
                value = float(v) if integer else v / 7.0
                rows.append({"action": action, "player_count": players, "v": value,
                             "c": rng.choice([1, 1, 2, 3, 17, 2500])})
    return pl.DataFrame(rows, schema={"action": pl.Utf8, "player_count": pl.Int32,
                                      "v": pl.Float64, "c": pl.Int64})


@pytest.mark.parametrize("integer", [True, False])
def test_moments_of_equal_duckdb_on_every_value(integer: bool) -> None:
    """n, mean, median, sd and minimum per group from the counts equal DuckDB's count, avg,
    median, stddev_samp and min on every value (None sd for one value, 0 for equal ones)."""
    counted = _groups(7, integer)
    keys = ["action", "player_count"]
    got = queries._moments_of(counted, keys)
    want = _duckdb(_expanded(counted, keys),
                   f"SELECT action, player_count, {queries._moments('v')} FROM x "
                   "GROUP BY ALL ORDER BY ALL")
    assert_frame_equal(got, want, rel_tol=1e-12, abs_tol=1e-12)
    one = got.filter(pl.col("action") == "one").row(0, named=True)
    same = got.filter(pl.col("action") == "same").row(0, named=True)
    assert one["sd"] is None and one["n"] == 1 and one["median"] == 42.5
    assert same["sd"] == 0.0 and same["median"] == 30.1 and same["n"] == 7


def test_quantile_equals_the_sql_it_replaces_and_quantile_cont() -> None:
    """The interpolated quantile for every q and size (1 to 12 values, repeated values): bit
    for bit the SQL the page ran before (``queries._quantile_at`` over the counted values,
    the same arithmetic) and DuckDB's quantile_cont on every value to 1e-12 (this DuckDB
    rounds some interpolations one unit in the last place apart from ``lo + (hi - lo) * d``)."""
    rng = random.Random(3)
    rows = []
    for size in range(1, 13):
        for v in sorted(rng.choices(range(50), k=size)):
            rows.append({"g": size, "v": float(v) / 3.0, "c": 1})
    counted = pl.DataFrame(rows).group_by("g", "v").agg(pl.col("c").sum())
    window = ("SELECT g, v, c, sum(c) OVER (PARTITION BY g ORDER BY v ROWS UNBOUNDED "
              "PRECEDING) - c AS before, sum(c) OVER (PARTITION BY g) AS total FROM x")
    for q in (0.0, 0.1, 0.25, 0.33, 0.5, 0.75, 0.9, 1.0):
        got = (queries._cumulated(counted, ["g"]).group_by("g")
               .agg(queries._quantile(q).alias("q")).sort("g"))
        before = _duckdb(counted, f"SELECT g, {queries._quantile_at(q)} AS q FROM ({window}) "
                                  "GROUP BY g ORDER BY g")
        assert_frame_equal(got, before, check_dtypes=False, check_exact=True)
        want = _duckdb(_expanded(counted, ["g"]),
                       f"SELECT g, quantile_cont(v, {q}) AS q FROM x GROUP BY g ORDER BY g")
        assert_frame_equal(got, want, check_dtypes=False, rel_tol=1e-12, abs_tol=1e-12)


def test_turn_boxes_equal_quantile_cont() -> None:
    """The box plot's lo, q1, median, q3, hi per action and player count."""
    counted = _groups(11, True).rename({"action": "k"})
    got = queries._turn_boxes(counted)
    want = _duckdb(_expanded(counted, ["k", "player_count"]).rename({"k": "action"}), """
        SELECT action, player_count, min(v) AS lo, quantile_cont(v, 0.25) AS q1,
               median(v) AS median, quantile_cont(v, 0.75) AS q3, max(v) AS hi
        FROM x GROUP BY ALL ORDER BY ALL""")
    assert_frame_equal(got, want, rel_tol=1e-12, abs_tol=1e-12)


def test_turn_moments_pool_the_player_counts() -> None:
    """The interval table's moments are per action over every player count (a value counted
    at two player counts is one value counted twice)."""
    counted = _groups(13, False).rename({"action": "k"})
    got = queries._turn_moments(counted)
    want = _duckdb(_expanded(counted, ["k"]).rename({"k": "action"}),
                   f"SELECT action, {queries._moments('v')} FROM x GROUP BY ALL ORDER BY ALL")
    assert_frame_equal(got, want, rel_tol=1e-12, abs_tol=1e-12)
    assert got.filter(pl.col("action") == "even")["n"].item() == 7


# --- on a hand-made warehouse ----------------------------------------------------------------

_KEYS = ", ".join(summaries.GAME_KEYS)
#: game, rules version, player count, session type, profile, date, evidence, duration evidence,
#: illustrative, human
_HUMAN = "'mandate2038', '1', ?, 'facilitated_playtest', 'p', DATE '2026-01-01', TRUE, TRUE, FALSE, TRUE"
_BOT = "'mandate2038', '1', ?, 'simulation', 'competitive', DATE '2026-01-02', FALSE, FALSE, FALSE, FALSE"


@pytest.fixture()
def warehouse(tmp_path: Path) -> Path:
    """Turn, phase and duration totals of human and simulated games (one minute bin with a
    single game, named from ``games``)."""
    db = tmp_path / "t.duckdb"
    con = duckdb.connect(str(db))
    try:
        migrate(con)
        for who in (_HUMAN, _BOT):
            for players, action, seconds, n in ((4, "fund", 30.0, 3), (4, "fund", 45.5, 1),
                                                (3, "build", 12.0, 2), (4, "build", 90.0, 5)):
                con.execute(f"INSERT INTO turn_totals ({_KEYS}, action, seconds, n) VALUES "
                            f"({who}, ?, ?, ?)", [players, action, seconds, n])
            for players, phase, minutes, n in ((4, "setup", 12.5, 2), (4, "era_1", 30.0, 1),
                                               (4, "era_1", 41.0, 3), (3, "setup", 8.0, 1)):
                con.execute(f"INSERT INTO phase_totals ({_KEYS}, phase, minutes, n) VALUES "
                            f"({who}, ?, ?, ?)", [players, phase, minutes, n])
            for players, minutes, n in ((4, 80.2, 2), (4, 80.9, 1), (4, 95.0, 4),
                                        (3, 61.0, 1), (4, float("nan"), 2)):
                con.execute(f"INSERT INTO duration_totals ({_KEYS}, total_minutes, n) VALUES "
                            f"({who}, ?, ?)", [players, minutes, n])
        con.execute("INSERT INTO games (game_id, game, rules_version, player_count, "
                    "session_type, profile, date, evidence, duration_evidence, illustrative, "
                    "is_human, total_minutes, complete) VALUES ('g61', 'mandate2038', '1', 3, "
                    "'facilitated_playtest', 'p', DATE '2026-01-01', TRUE, TRUE, FALSE, TRUE, "
                    "61.0, TRUE)")
    finally:
        con.close()
    store._CACHE.clear()
    return db


def test_the_duration_sections_figures_are_one_statement(
        warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Total minutes, phases, turn boxes and moments and the chart's bins: one statement
    beside the catalog's, the same for each function (its result cached)."""
    queries.summarised(warehouse, "turn_totals")  # the catalog, cached
    ran = statements(monkeypatch)
    f = Filters()
    assert not queries.duration_moments(warehouse, f).is_empty()
    assert not queries.phase_moments(warehouse, f).is_empty()
    turns = queries.turn_time_stats(warehouse, f)
    assert not turns["boxes"].is_empty() and not turns["moments"].is_empty()
    points = mandate_queries.duration_points(warehouse, f)
    assert len(ran) == 2, ran  # the counted values, then the one-game bin's name
    assert "UNION ALL" in ran[0] and "FROM games" in ran[1]
    assert points.filter(pl.col("games") == 1)["game_id"].to_list() == ["g61"]


def test_counted_values_follow_the_filters_and_the_human_switch(warehouse: Path) -> None:
    """Human sessions only unless asked; the sidebar's condition applies; NaN minutes are
    not timed games."""
    human = queries.counted_values(warehouse, Filters())
    everyone = queries.counted_values(warehouse, Filters(), include_non_human=True)
    assert set(human) == {"turns", "phases", "duration"}
    for part in human:
        assert int(everyone[part]["c"].sum()) == 2 * int(human[part]["c"].sum())
    assert int(human["duration"]["c"].sum()) == 8  # the NaN games left out
    assert human["duration"]["k"].unique().to_list() == ["human"]
    four = queries.counted_values(warehouse, Filters(player_counts=(4,)))
    assert four["turns"]["player_count"].unique().to_list() == [4]
    none = queries.counted_values(warehouse, Filters(games=("vestige",)))
    assert all(frame.is_empty() for frame in none.values())
    assert queries.duration_moments(warehouse, Filters(games=("vestige",))).is_empty()
    assert queries.turn_time_stats(warehouse, Filters(games=("vestige",)))["boxes"].is_empty()


#: Mandate 2038's chart bins from ``duration_totals`` as they were read before (main d54459b)
_OLD_BINS = """
    SELECT g.player_count, {kind} AS kind,
           CAST(floor(g.total_minutes) AS BIGINT) AS minute,
           CAST(sum(g.n) AS BIGINT) AS games, CAST(NULL AS VARCHAR) AS game_id
    FROM duration_totals g
    WHERE {where} AND NOT isnan(g.total_minutes)
    GROUP BY ALL ORDER BY ALL
"""


@pytest.mark.parametrize("include", [False, True])
def test_chart_bins_equal_the_bins_counted_in_sql(warehouse: Path, include: bool) -> None:
    """The chart's circles (player count, kind, whole minute: games) from the counted values
    equal the SQL that counted them; the one-game bin named."""
    for f in (Filters(), Filters(player_counts=(4,)), Filters(evidence_only=True)):
        where, params = f.where("g", "duration_evidence")
        human = "TRUE" if include else queries.HUMAN_SQL
        con = duckdb.connect(str(warehouse), read_only=True)
        try:
            old = con.sql(_OLD_BINS.format(kind=queries.KIND_SQL, where=f"{where} AND {human}"),
                          params=params).pl()
        finally:
            con.close()
        new = mandate_queries.duration_points(warehouse, f, include)
        assert_frame_equal(new.with_columns(pl.lit(None, dtype=pl.Utf8).alias("game_id")), old)


def test_a_warehouse_without_turn_totals_reads_the_turns(warehouse: Path) -> None:
    """A part whose totals table is absent is read from the per-row table, the others still
    from their totals."""
    con = duckdb.connect(str(warehouse))
    try:
        con.execute("DROP TABLE turn_totals")
    finally:
        con.close()
    store._CACHE.clear()
    counted = queries.counted_values(warehouse, Filters())
    assert set(counted) == {"phases", "duration"}
    assert queries.turn_time_stats(warehouse, Filters())["boxes"].is_empty()  # no turn_times
    assert queries.phase_moments(warehouse, Filters())["n"].sum() == 7
