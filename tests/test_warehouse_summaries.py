"""The load step's per-game summaries give the pages the figures of the per-event queries.

A small corpus (simulated games, and synthetic facilitated logs with findings, observations and
timed phases) is ingested through the real pipeline, which writes ``game_findings``,
``game_observations``, ``game_phases`` and ``ledger_totals`` in its load step; the synthetic page-bench warehouse
replicates it to 2,500 games. On both, each page query that now reads a summary must return
exactly what the query it replaced returns from the events (the SQL of the per-event queries
is kept below verbatim, as it stood before the summaries). Migration 8 must write the same
summaries for a warehouse loaded before it.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import queries, stats, store
from dashboards.mandate2038 import queries as mandate_queries
from dashboards.queries import KIND_SQL
from ingest.warehouse import summaries
from ingest.warehouse.migrations import MIGRATIONS, migrate
from tests.bench_warehouse import FILTERS, bench_warehouses, direct

# --- the per-event queries the summaries replaced (before migration 8) ----------------------


def _findings_by_code(where: str) -> str:
    return f"""
        SELECT code, rule, severity, CAST(sum(n) AS BIGINT) AS findings, count(*) AS games
        FROM (SELECT fi.game_id, fi.code, fi.rule, fi.severity, count(*) AS n
              FROM findings fi JOIN games g USING (game_id)
              WHERE {where} GROUP BY ALL)
        GROUP BY ALL ORDER BY findings DESC, code
        """


def _observation_counts(where: str) -> str:
    return f"""SELECT o.category, o.era, coalesce(o.rule, '(no rule cited)') AS rule,
                    count(*) AS observations
             FROM observations o JOIN games g USING (game_id)
             WHERE {where} GROUP BY ALL ORDER BY ALL"""


def _ledger_by_source(where: str) -> str:
    return f"""
        SELECT l.source, s.faction, l.era, coalesce(s.winner, FALSE) AS winner,
               {KIND_SQL} AS kind, CAST(sum(l.amount) AS BIGINT) AS mandate, count(*) AS entries
        FROM ledger l
        JOIN games g USING (game_id)
        JOIN seats s ON s.game_id = l.game_id AND s.seat = l.seat
        WHERE g.game = ? AND {where} AND l.source <> 'checkpoint'
        GROUP BY ALL ORDER BY l.source, s.faction, l.era
        """


def _phase_moments(where: str, human: str) -> str:
    return f"""
        SELECT phase, player_count, count(minutes) AS n, avg(minutes) AS mean,
               median(minutes) AS median, stddev_samp(minutes) AS sd, min(minutes) AS minimum
        FROM (SELECT p.game_id, g.player_count, p.phase, sum(p.minutes) AS minutes
              FROM phases p JOIN games g USING (game_id)
              WHERE {where} AND {human} AND p.minutes IS NOT NULL
              GROUP BY ALL)
        GROUP BY ALL ORDER BY ALL
        """


def _turn_boxes(where: str, human: str) -> str:
    return f"""SELECT t.action, g.player_count, min(t.seconds) AS lo,
                    quantile_cont(t.seconds, 0.25) AS q1, median(t.seconds) AS median,
                    quantile_cont(t.seconds, 0.75) AS q3, max(t.seconds) AS hi
             FROM turn_times t JOIN games g USING (game_id)
             WHERE {where} AND {human} AND t.seconds IS NOT NULL GROUP BY ALL ORDER BY ALL"""


def _turn_moments(where: str, human: str) -> str:
    return f"""SELECT t.action, count(t.seconds) AS n, avg(t.seconds) AS mean,
                    median(t.seconds) AS median, stddev_samp(t.seconds) AS sd,
                    min(t.seconds) AS minimum
             FROM turn_times t JOIN games g USING (game_id)
             WHERE {where} AND {human} AND t.seconds IS NOT NULL GROUP BY ALL ORDER BY ALL"""


def _interventions(where: str) -> str:
    return f"""
        SELECT g.game_id, 'intervention' AS kind, unnest(g.interventions) AS text
        FROM games g WHERE {where} AND len(coalesce(g.interventions, [])) > 0
        UNION ALL
        SELECT g.game_id, 'deviation' AS kind, unnest(g.rules_deviations) AS text
        FROM games g WHERE {where} AND len(coalesce(g.rules_deviations, [])) > 0
        """


def _survey_numeric(where: str) -> str:  # as it stood before migration 11
    return f"""SELECT sv.item, count(*) AS answers, avg(sv.value_num) AS mean,
                    min(sv.value_num) AS lo, quantile_cont(sv.value_num, 0.25) AS q1,
                    median(sv.value_num) AS median, quantile_cont(sv.value_num, 0.75) AS q3,
                    max(sv.value_num) AS hi
             FROM survey sv JOIN games g USING (game_id)
             WHERE {where} AND sv.value_num IS NOT NULL
             GROUP BY sv.item ORDER BY sv.item"""


def _game_counts(where: str) -> str:
    kinds = ", ".join(f"count(*) FILTER ({KIND_SQL} = '{k}') AS {k}"
                      for k in ("human", "walkthrough", "illustrative", "simulated"))
    return (f"SELECT g.game, count(*) AS games, count(*) FILTER (coalesce(g.evidence, FALSE)) "
            f"AS evidence, {kinds}, count(*) FILTER (coalesce(g.n_errors, 0) > 0) AS with_errors "
            f"FROM games g WHERE {where} GROUP BY g.game ORDER BY g.game")




def _sorted(df: pl.DataFrame) -> pl.DataFrame:
    return df.sort(df.columns, nulls_last=True)


def _check_pages(db: Path) -> int:
    """Compare every summary-based query with its per-event query on ``db``; rows compared."""
    store._CACHE.clear()
    compared = 0
    for f in FILTERS:
        where, params = f.where()
        pairs = [
            (queries.findings_by_code(db, f), direct(db, _findings_by_code(where), params)),
            (queries.observation_page(db, f, 10)["counts"],
             direct(db, _observation_counts(where), params)),
            (mandate_queries.ledger_by_source(db, f),
             direct(db, _ledger_by_source(where), ["mandate2038", *params])),
        ]
        pairs.append((queries.game_counts(db, f), direct(db, _game_counts(where), params)))
        pairs.append((queries.observation_page(db, f, 10)["survey_numeric"],
                      direct(db, _survey_numeric(where), params)))
        pairs.append((queries.survey_numeric(db, f), direct(db, _survey_numeric(where), params)))
        pairs.append((queries.observation_page(db, f, 10)["interventions"],
                      direct(db, _interventions(where), params + params)))
        d_where, d_params = f.where("g", "duration_evidence")
        for everyone in (False, True):
            human = "TRUE" if everyone else queries.HUMAN_SQL
            pairs.append((queries.phase_moments(db, f, everyone),
                          direct(db, _phase_moments(d_where, human), d_params)))
            # the total minutes' summary from SQL moments, as stats.summarise on every game's
            per_game = queries.durations(db, f, everyone)
            if not per_game.is_empty():
                pairs.append((stats.summary_from_moments(
                    queries.duration_moments(db, f, everyone), ["player_count"]),
                    stats.summarise(per_game, ["player_count"], "total_minutes")))
            turns = queries.turn_time_stats(db, f, everyone)
            pairs.append((turns["boxes"], direct(db, _turn_boxes(d_where, human), d_params)))
            pairs.append((turns["moments"], direct(db, _turn_moments(d_where, human), d_params)))
        for new, old in pairs:
            assert new.columns == old.columns, (new.columns, old.columns)
            assert_frame_equal(_sorted(new), _sorted(old), rel_tol=1e-9, abs_tol=1e-9)
            compared += old.height
    options = queries.filter_options(db)
    row = direct(db, "SELECT count(*) AS n, min(date) AS lo, max(date) AS hi, "
                      "list(DISTINCT profile ORDER BY profile) AS profiles FROM games", [])
    assert (options["n_games"], options["date_min"], options["date_max"]) == row.row(0)[:3]
    assert options["profiles"] == [p for p in row["profiles"][0] if p is not None]
    # every choice of the sidebar, as read from the games before game_totals
    old = direct(db, _filter_choices, []).row(0, named=True)
    for field, values in old.items():
        assert options[field] == [v for v in values if v is not None], field
    return compared


#: the sidebar's choices as ``queries.filter_options`` read them from ``games``
_filter_choices = (
    "SELECT list(DISTINCT game ORDER BY game) AS games, "
    "list(DISTINCT rules_version ORDER BY rules_version) AS rules_versions, "
    "list(DISTINCT player_count ORDER BY player_count) AS player_counts, "
    "list(DISTINCT session_type ORDER BY session_type) AS session_types, "
    "list(DISTINCT profile ORDER BY profile) AS profiles FROM games")


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base, big = bench_warehouses(tmp_path_factory, "summaries", 2_500)
    return base, big


def test_the_load_step_writes_summaries_the_pages_read(warehouses: tuple[Path, Path]) -> None:
    base, _ = warehouses
    con = duckdb.connect(str(base), read_only=True)
    try:
        for table in summaries.TABLES:
            row = con.execute(f"SELECT count(*) FROM {table}").fetchone()
            assert row is not None and row[0] > 0, table
        # the loads' ledger totals were merged at the end of the ingest: one row per key
        keys = ", ".join(summaries.LEDGER_KEYS)
        row = con.execute(f"SELECT count(*), count(DISTINCT ({keys})) FROM ledger_totals "
                          ).fetchone()
        assert row is not None and row[0] == row[1] > 0
    finally:
        con.close()
    assert _check_pages(base) > 0


def test_summary_queries_equal_the_per_event_queries_at_2500_games(
        warehouses: tuple[Path, Path]) -> None:
    _, big = warehouses
    con = duckdb.connect(str(big), read_only=True)
    try:
        row = con.execute("SELECT count(*) FROM games").fetchone()
    finally:
        con.close()
    assert row is not None and row[0] == 2_500
    assert _check_pages(big) > 100


def test_migrations_from_8_summarise_games_loaded_before(warehouses: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    base, _ = warehouses
    db = tmp_path / "old.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        # migration 10's totals too: the loads' sums, merged at the end of the ingest
        # and migration 11's locations: the loads' own (each batch's, in its transaction)
        made = (*summaries.TABLES, "ledger_totals", *summaries.TOTALS_TABLES, "game_rows")
        want = {t: con.sql(f"SELECT * FROM {t}").pl() for t in made}
        for table in made:  # as loaded before migration 8
            con.execute(f"DROP TABLE {table}")
        # and before the migrations after 8 (their columns dropped, as they were then)
        con.execute("ALTER TABLE games DROP COLUMN variant_name")
        con.execute("ALTER TABLE games DROP COLUMN variant_content_hash")
        con.execute("ALTER TABLE games DROP COLUMN variant_changes")
        con.execute("DELETE FROM schema_migrations WHERE version >= 8")
        assert migrate(con) == [v for v, _, _ in MIGRATIONS if v >= 8]
        for table, frame in want.items():
            assert_frame_equal(_sorted(con.sql(f"SELECT * FROM {table}").pl()),
                               _sorted(frame))
    finally:
        con.close()
    assert _check_pages(db) > 0


def test_pages_read_a_warehouse_without_summaries_from_the_events(
        warehouses: tuple[Path, Path], tmp_path: Path) -> None:
    base, _ = warehouses
    db = tmp_path / "v7.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        for table in (*summaries.TABLES, "ledger_totals", *summaries.TOTALS_TABLES,
                      "game_rows"):
            con.execute(f"DROP TABLE {table}")
    finally:
        con.close()
    assert _check_pages(db) > 0
    assert _located_ok_without_locations(db) > 0


def test_games_page_pages_and_first_observations_read_a_part(
        warehouses: tuple[Path, Path]) -> None:
    """The Games table's pages put together are the whole list; the observations' first rows
    are the filtered games' own, in game and log order, as many as asked while there are."""
    _, big = warehouses
    store._CACHE.clear()
    for f in FILTERS[:4]:
        whole = queries.games(big, f)
        pages = [queries.games(big, f, limit=700, offset=k) for k in range(0, whole.height, 700)]
        assert_frame_equal(pl.concat(pages) if pages else whole, whole)
        assert int(queries.game_counts(big, f)["games"].sum() or 0) == whole.height
        assert queries.game_count(big, f) == whole.height
        picked = queries.game_choices(big, f, "most_errors", 10)
        assert picked.height == min(10, whole.height)
        assert picked.is_empty() or int(picked["total"][0]) == whole.height
        for everyone in (False, True):
            listed = queries.protocol_games(big, f, everyone, 7)
            n = direct(big, f"SELECT count(*) AS n FROM games g WHERE {f.where()[0]} AND "
                             f"{'TRUE' if everyone else queries.HUMAN_SQL}", f.where()[1])
            assert listed.is_empty() or int(listed["total"][0]) == int(n["n"][0])
        every = queries.observations(big, f)
        for limit in (5, 300, every.height + 10):
            first = queries.first_observations(big, f, limit)
            assert first.height == min(limit, every.height)
            assert first.columns == every.columns
            assert first.sort("game_id", "idx").equals(first)
            assert first.join(every, on=["game_id", "idx"], how="anti").is_empty()


def _located_ok(db: Path) -> int:
    """``game_rows`` says exactly where each game's rows are (as row ids give them once
    committed), and the pages' one-game reads equal the reads by game id; games checked."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        for table in summaries.LOCATED:
            got = con.sql("SELECT game_id, lo, n FROM game_rows WHERE tbl = ?",
                          params=[table]).pl()
            want = con.sql(f"SELECT game_id, min(rowid) AS lo, count(*) AS n, "
                           f"max(rowid) - min(rowid) + 1 AS span FROM {table} GROUP BY ALL").pl()
            assert_frame_equal(_sorted(got), _sorted(want.drop("span")))
            assert (want["span"] == want["n"]).all(), f"{table}: a game's rows not side by side"
        ids = con.sql("SELECT game_id FROM games ORDER BY game_id").pl()["game_id"].to_list()
    finally:
        con.close()
    store._CACHE.clear()
    sample = ids[:: max(1, len(ids) // 40)]
    for gid in sample:
        assert_frame_equal(queries.game_events(db, gid), direct(
            db, "SELECT idx, type, seat, era, cycle, t, line, payload FROM events "
                "WHERE game_id = ? ORDER BY idx", [gid]))
        assert_frame_equal(queries.game_seats(db, gid), direct(
            db, "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", [gid]))
        found = queries.game_findings(db, gid)
        assert_frame_equal(found, direct(
            db, "SELECT event, severity, message, CAST(expected AS VARCHAR) AS expected, "
                "CAST(recorded AS VARCHAR) AS recorded, rule, code, line, era, cycle, seat, n, "
                "rulings FROM findings WHERE game_id = ? ORDER BY event NULLS LAST, n", [gid]))
    return len(sample)


def _located_ok_without_locations(db: Path) -> int:
    """The one-game reads on a warehouse without ``game_rows``: by game id."""
    store._CACHE.clear()
    ids = direct(db, "SELECT game_id FROM games ORDER BY game_id LIMIT 5", [])["game_id"]
    for gid in ids.to_list():
        assert_frame_equal(queries.game_events(db, gid), direct(
            db, "SELECT idx, type, seat, era, cycle, t, line, payload FROM events "
                "WHERE game_id = ? ORDER BY idx", [gid]))
    return len(ids)


def test_game_rows_locate_each_games_rows(warehouses: tuple[Path, Path]) -> None:
    """Loaded four games at a time (several loads, each adding its batch's locations in its
    transaction) and replicated to 2,500 games (located from the row ids)."""
    base, big = warehouses
    assert _located_ok(base) > 10
    assert _located_ok(big) >= 40


def test_a_wrong_location_is_read_by_game_id(warehouses: tuple[Path, Path],
                                             tmp_path: Path) -> None:
    """A location that does not hold the game's rows (rows moved, a stale table) is never
    trusted: the rows are read by game id."""
    base, _ = warehouses
    db = tmp_path / "moved.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        gid, n = con.execute("SELECT game_id, n FROM game_rows WHERE tbl = 'events' "
                             "ORDER BY n DESC LIMIT 1").fetchall()[0]
        con.execute("UPDATE game_rows SET lo = lo + 1 WHERE tbl = 'events' AND game_id = ?",
                    [gid])
    finally:
        con.close()
    store._CACHE.clear()
    events = queries.game_events(db, gid)
    assert events.height == n
    assert events["idx"].to_list() == sorted(events["idx"].to_list())


def test_games_page_names_its_rows_from_them(warehouses: tuple[Path, Path],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of the Games table names its games from its own rows (the same SQL run over
    them in memory), exactly as the lookup of their ids in ``games`` names them; a frame
    without those columns is still named by the lookup."""
    from dashboards import DB_ENV, ui

    _, big = warehouses
    monkeypatch.setenv(DB_ENV, str(big))
    store._CACHE.clear()
    for f in FILTERS[:4]:
        rows = queries.games(big, f, limit=700, offset=100)
        if rows.is_empty():
            continue
        looked_up = ui.game_name_frame(rows["game_id"].to_list())
        made = ui.game_name_frame(frame=rows.select(list(ui.NAME_COLUMNS)))
        assert_frame_equal(made.sort("game_id"), looked_up.sort("game_id"))
        assert made.height == rows.height
        shown = ui.readable(rows)  # what show_table draws
        by_lookup = ui.named_games(ui.readable(rows, keep_ids=True))
        assert_frame_equal(shown, by_lookup)
        assert shown["game_id"].to_list() != rows["game_id"].to_list()  # named, not ids


#: rows of ``games`` whose names take every branch: a Windows path, live, a live: source, a
#: folder, no source, an unknown game and format, a thousand players, no date, no count
_NAME_ROWS: list[tuple[Any, ...]] = [  # game_id, game, player_count, date, format, source
    ("a1", "mandate2038", 4, dt.date(2026, 3, 1), "json", "C:\\logs\\table 3\\game.json"),
    ("a2", "mandate2038", 1, None, "live", "whatever"),
    ("a3", "vestige", 3, dt.date(2026, 1, 2), "csv", "live:draft-17"),
    ("a4", "pig", None, None, "notation", "sessions/2026/"),
    ("a5", "pig", 2, dt.date(2025, 12, 31), "session-folder", ""),
    ("a6", "mandate2038", 5, None, None, None),
    ("a7", "no_longer-installed", 1234, None, "odd-format", "///"),
    ("a8", "vestige", 2, None, "simulator", "sim/run 1/sim-0001.json"),
    ("a9", "vestige", 0, dt.date(2026, 2, 2), "live", None),
]


def test_names_of_rows_equal_the_lookup_in_every_case(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboards import DB_ENV, ui

    db = tmp_path / "w.duckdb"
    con = duckdb.connect(str(db))
    try:
        migrate(con)
        con.executemany("INSERT INTO games (game_id, game, player_count, date, source_format, "
                        "source_name) VALUES (?, ?, ?, ?, ?, ?)", [list(r) for r in _NAME_ROWS])
        rows = con.sql(f"SELECT {', '.join(ui.NAME_COLUMNS)} FROM games").pl()
    finally:
        con.close()
    monkeypatch.setenv(DB_ENV, str(db))
    store._CACHE.clear()
    looked_up = ui.game_name_frame([r[0] for r in _NAME_ROWS])
    assert looked_up.height == len(_NAME_ROWS)
    assert_frame_equal(ui.game_name_frame(frame=rows).sort("game_id"), looked_up.sort("game_id"))
