"""The End conditions, Scoring sources, Balance and Variants pages read counts instead of a row per game
or seat, with the figures of the per-row queries they replace.

A small corpus (simulated games and synthetic facilitated logs) is ingested through the real
pipeline, four games per load (so several loads' ``seat_totals`` are merged), and the page
bench's builder replicates it to 250 games. On both, each changed query is compared with the
query it replaced (kept below verbatim, as it stood before) under several filter sets; the End
conditions section's figures (kinds, AGI and Open counts, endings per facet, the Open test's
points) are worked out from the old per-game rows as the section did and from the new counts.
Migration 12 must write the totals the loads wrote, and a warehouse without them still reads
right.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import store, variant_queries
from dashboards.filters import SESSION_TYPE_LABELS
from dashboards.mandate2038 import charts as mandate_charts
from dashboards.mandate2038 import queries as mandate_queries
from dashboards.mandate2038 import sections
from dashboards.queries import KIND_SQL, Filters
from ingest import balance
from ingest import stats as istats
from ingest.mandate2038 import balance as bq
from ingest.warehouse import balance as wb
from ingest.warehouse import game_totals
from ingest.warehouse.migrations import MIGRATIONS, migrate
from tests.bench_warehouse import FILTERS, bench_warehouses, direct

# --- the per-row queries replaced (as they stood before migration 12) -----------------------


def _seat_counts(where: str) -> str:
    return f"""
        SELECT {KIND_SQL} AS kind, s.faction, coalesce(s.winner, FALSE) AS winner,
               count(*) AS seat_games
        FROM seats s JOIN games g USING (game_id)
        WHERE {where}
        GROUP BY ALL ORDER BY ALL
        """


def _kind_sizes(where: str) -> str:
    return f"""
        SELECT {KIND_SQL} AS kind, count(DISTINCT s.game_id) AS games, count(*) AS seats
        FROM seats s JOIN games g USING (game_id)
        WHERE {where}
        GROUP BY ALL ORDER BY ALL
        """


def _endings(where: str) -> str:
    return f"""
        SELECT o.game_id, g.player_count, g.profile, g.session_type, {KIND_SQL} AS kind,
               o.ending, o.agi, o.open, o.collective_trust, o.setup_collective_trust,
               o.open_threshold, o.trust_margin, o.systemic_risk, o.systemic_risk_limit,
               o.systemic_risk_limit - o.systemic_risk AS risk_margin
        FROM outcomes o JOIN games g USING (game_id)
        WHERE {where} AND o.complete
        """


def _claim_strengths(where: str) -> str:
    return f"""
        SELECT {KIND_SQL} AS kind, c.strength, c.eligible, count(*) AS claims
        FROM claims c JOIN games g USING (game_id)
        WHERE {where}
        GROUP BY ALL ORDER BY ALL
        """


def _physical_by_variant(where: str) -> str:
    done = "coalesce(g.complete, FALSE)"
    agi, opn = "o.agi", "o.open"
    return f"""
        SELECT g.game, coalesce(g.variant_name, 'baseline') AS variant,
               g.variant_content_hash AS variant_hash,
               count(*) AS games,
               count(*) FILTER (WHERE {done}) AS complete,
               count(*) FILTER (WHERE NOT {done}) AS partial,
               count(*) FILTER (WHERE {done} AND {agi} IS NOT NULL) AS agi_known,
               count(*) FILTER (WHERE {done} AND coalesce({agi}, FALSE)) AS agi,
               count(*) FILTER (WHERE {done} AND coalesce({opn}, FALSE)) AS open
        FROM games g LEFT JOIN outcomes o USING (game_id)
        WHERE g.is_human AND NOT coalesce(g.illustrative, FALSE) AND {where}
        GROUP BY ALL
        ORDER BY g.game, variant, variant_hash NULLS FIRST
        """


CLAIM_COLUMNS = ("c.game_id, c.seat, s.faction, c.publication, c.paid, c.modules_supported, "
                 f"c.eligible, c.strength, g.player_count, {KIND_SQL} AS kind")


def _claims(where: str) -> str:
    return f"""
        SELECT {CLAIM_COLUMNS}
        FROM claims c JOIN games g USING (game_id)
        LEFT JOIN seats s ON s.game_id = c.game_id AND s.seat = c.seat
        WHERE {where} AND {KIND_SQL} = ? ORDER BY c.game_id, c.seat
        """


# the Balance page's block counts as they were read from every seat (``_ctes`` expanded)


def _balance_ctes(db: Path, f: Filters) -> tuple[str, list[Any]]:
    src = bq.Source(db=db)
    blk = f", hash({bq.CLUSTER_SQL}) % {istats.BLOCKS} AS blk"
    g, params = balance.games_cte(src, f, "mandate2038", extra=blk,
                                  join="LEFT JOIN dk USING (game_id)")
    return f"{bq.deal_cte(True)}, {g}, sb AS (SELECT * FROM seat_balance)", params


def _grouped(ctes: str) -> str:
    action_ids = [*wb.ACTION_IDS, "other"]
    sums = ", ".join(f"CAST(sum(a_{a}) AS BIGINT) AS a_{a}" for a in action_ids)
    return f"""
        WITH {ctes}
        SELECT g.kind, g.player_count, g.blk, sb.turn_order, sb.faction, sb.profile, sb.opening,
               sb.path,
               count(*) AS appearances, sum(sb.credit)::DOUBLE AS credit,
               {sums},
               CAST(sum(sb.blocked) AS BIGINT) AS blocked,
               CAST(sum(sb.policy_fallbacks) AS BIGINT) AS fallbacks,
               count(sb.policy_fallbacks) AS fallback_seats,
               count(*) FILTER (WHERE sb.seat = 1) AS games,
               sum(sb.lead_won_share)::DOUBLE AS converted,
               count(*) FILTER (WHERE sb.seat = 1 AND sb.era2_leaders > 1) AS tied
        FROM sb JOIN g USING (game_id)
        GROUP BY ALL
        """


def _matchups(ctes: str) -> str:
    return f"""
        WITH {ctes},
        gn AS (SELECT *, row_number() OVER () AS gnum FROM g),
        ps AS MATERIALIZED (SELECT gn.gnum, sb.seat, sb.profile, sb.final_mandate AS score,
                                   gn.kind, gn.player_count, gn.blk
                            FROM sb JOIN gn USING (game_id) WHERE sb.profile IS NOT NULL)
        SELECT a.kind, a.player_count, a.blk, a.profile, b.profile AS opponent,
               count(*) AS comparisons,
               sum(CASE WHEN a.score > b.score THEN 1.0 WHEN a.score = b.score THEN 0.5
                        ELSE 0.0 END)::DOUBLE AS points
        FROM ps a JOIN ps b ON a.gnum = b.gnum AND a.seat <> b.seat
                           AND a.profile <> b.profile
        GROUP BY ALL
        """


def _game_counts(ctes: str) -> str:
    return f"""
        WITH {ctes}
        SELECT g.kind, g.player_count, count(*) FILTER (WHERE sb.seat = 1) AS games
        FROM sb JOIN g USING (game_id)
        GROUP BY ALL
        """


def _close(new: pl.DataFrame, old: pl.DataFrame) -> None:
    """Equal frames, sums of fractions (win credit) to 1e-9: the order of the additions differs."""
    assert new.columns == old.columns, (new.columns, old.columns)
    assert new.schema == old.schema, (new.schema, old.schema)
    assert_frame_equal(_sorted(new), _sorted(old), rel_tol=1e-9, abs_tol=1e-12)


def _check_balance(db: Path) -> int:
    """The Balance page's counts and metrics from the totals against the per-seat queries."""
    balance.clear_caches()
    store._CACHE.clear()
    src = bq.Source(db=db)
    compared = 0
    for f in [*FILTERS, bq.for_count(Filters(), 4)]:
        ctes, params = _balance_ctes(db, f)
        old = direct(db, _grouped(ctes), params)
        new_parts, old_parts = bq._grouped(src, f), bq.split_grouped(old) if old.height else {}
        assert new_parts.keys() == old_parts.keys()
        for name in old_parts:
            _close(new_parts[name], old_parts[name])
            compared += old_parts[name].height
        for new, old in ((bq.matchup_counts(src, f), direct(db, _matchups(ctes), params)),
                         (bq._game_counts(src, f), direct(db, _game_counts(ctes), params))):
            if old.is_empty():
                assert new.is_empty()
                continue
            _close(new, old)
            compared += old.height
        assert bq._totals(src) == ("balance_totals" in _tables(db))
    return compared


def _tables(db: Path) -> set[str]:
    return set(direct(db, "SELECT table_name FROM information_schema.tables", [])["table_name"])


def _old_section(ends: pl.DataFrame, kind: str, facet: str) -> dict[str, Any]:
    """The End conditions section's figures from the per-game rows, as the section made them."""
    per_kind = ends.group_by("kind").len()
    ends = ends.filter(pl.col("kind") == kind)
    counts = (
        ends.with_columns(
            pl.col("ending").replace_strict(mandate_charts.ENDING_NAMES, default=pl.col("ending"))
            .fill_null("(not recorded)").alias("ending_name"),
            pl.col(facet).cast(pl.Utf8).replace_strict(SESSION_TYPE_LABELS, default=pl.col(facet).cast(pl.Utf8)),
        )
        .group_by(["ending_name", facet]).agg(pl.len().alias("games"))
        .with_columns((pl.col("games") / pl.col("games").sum().over(facet)).round(3).alias("share"))
        .sort(["ending_name", facet])
    )
    points = ends.group_by(["kind", "open", "trust_margin", "risk_margin"]).len()
    return {"kinds": {r["kind"]: r["len"] for r in per_kind.iter_rows(named=True)},
            "n": ends.height, "agi": int(ends["agi"].fill_null(False).sum()),
            "open": int(ends["open"].fill_null(False).sum()),
            "counts": counts.with_columns(pl.col("games").cast(pl.Int64)),
            "points": points.rename({"len": "games"}).with_columns(pl.col("games").cast(pl.Int64))}


def _new_section(counted: pl.DataFrame, kind: str, facet: str) -> dict[str, Any]:
    """The same figures as the section now makes them from the counts."""
    per_kind = counted.group_by("kind").agg(pl.col("games").sum())
    ends = counted.filter(pl.col("kind") == kind)
    return {"kinds": {r["kind"]: r["games"] for r in per_kind.iter_rows(named=True)},
            "n": int(ends["games"].sum()),
            "agi": int(ends.filter(pl.col("agi").fill_null(False))["games"].sum()),
            "open": int(ends.filter(pl.col("open").fill_null(False))["games"].sum()),
            "counts": sections.ending_shares(ends, facet),
            "points": sections.margin_points(ends)}




def _sorted(df: pl.DataFrame) -> pl.DataFrame:
    return df.sort(df.columns, nulls_last=True)


def _check(db: Path) -> int:
    """Compare every changed query and the section's figures with the old ones; rows compared."""
    store._CACHE.clear()
    compared = 0
    for f in FILTERS:
        where, params = f.where()
        where = f"g.game = ? AND {where}"
        params = ["mandate2038", *params]
        pairs = [(mandate_queries.seat_counts(db, f), direct(db, _seat_counts(where), params)),
                 (mandate_queries.kind_sizes(db, f), direct(db, _kind_sizes(where), params))]
        g_where, g_params = f.where("g")
        pairs.append((variant_queries.physical_by_variant(db, f),
                      direct(db, _physical_by_variant(g_where), g_params)))
        pairs.append((mandate_queries.claim_strengths(db, f),
                      direct(db, _claim_strengths(where), params)))
        old_ends = direct(db, _endings(where), params)
        pairs.append((mandate_queries.endings(db, f), old_ends))
        for new, old in pairs:
            assert new.columns == old.columns, (new.columns, old.columns)
            assert new.schema == old.schema
            assert_frame_equal(_sorted(new), _sorted(old))
            compared += old.height
        counted = mandate_queries.ending_counts(db, f)
        assert int(counted["games"].sum() or 0) == old_ends.height
        for kind in sorted(set(old_ends["kind"])):
            for facet in ("player_count", "profile", "session_type"):
                old, new = _old_section(old_ends, kind, facet), _new_section(counted, kind, facet)
                assert (old["kinds"], old["n"], old["agi"], old["open"]) == (
                    new["kinds"], new["n"], new["agi"], new["open"])
                assert_frame_equal(new["counts"], old["counts"])
                assert_frame_equal(new["points"], _sorted(old["points"]).select(
                    new["points"].columns))
                compared += old["counts"].height
            # the outcomes table's first rows are the kind's own; the CSV holds every one
            every = mandate_queries.endings(db, f, kind)
            assert every.height == int(old_ends.filter(pl.col("kind") == kind).height)
            for n in (7, 300):
                first = mandate_queries.endings(db, f, kind, n)
                assert first.height == min(n, every.height)
                assert_frame_equal(_sorted(first), _sorted(every.join(
                    first.select("game_id"), on="game_id", how="semi")))
            old_claims = direct(db, _claims(where), [*params, kind])
            assert_frame_equal(mandate_queries.claims(db, f, kind), old_claims)
            for n in (5, 300):  # the first rows shown are the kind's claims, as they are
                shown = mandate_queries.claims(db, f, kind, n)
                assert shown.height == min(n, old_claims.height)
                assert_frame_equal(_sorted(shown), _sorted(old_claims.join(
                    shown.select("game_id", "seat"), on=["game_id", "seat"], how="semi")))
    return compared


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base, big = bench_warehouses(tmp_path_factory, "game_totals", 250)
    return base, big


def test_the_block_is_mandate_2038_balance_queries_own() -> None:
    assert wb.CLUSTER_SQL == bq.CLUSTER_SQL
    assert wb.deal_cte(True) == bq.deal_cte(True)
    assert wb.BLOCKS == istats.BLOCKS


def test_loads_write_seat_totals_merged_at_the_end(warehouses: tuple[Path, Path]) -> None:
    base, _ = warehouses
    con = duckdb.connect(str(base), read_only=True)
    try:
        for table in game_totals.TABLES:  # merged at the end of the ingest: one row per key
            keys = ", ".join(game_totals._keys(table))
            got = con.execute(f"SELECT count(*), count(DISTINCT ({keys})) FROM {table}"
                              ).fetchone()
            assert got is not None and got[0] == got[1] > 0, table
        keys = ", ".join(game_totals._keys("seat_totals"))
        row = con.execute(f"SELECT count(*), count(DISTINCT ({keys})), sum(games), sum(seats) "
                          "FROM seat_totals").fetchone()
        seats = con.execute("SELECT count(DISTINCT game_id), count(*) FROM seats s "
                            "JOIN games g USING (game_id)").fetchone()
    finally:
        con.close()
    assert row is not None and seats is not None
    assert row[0] == row[1] > 0  # one row per key after the ingest's compaction
    assert (row[2], row[3]) == seats
    assert _check(base) > 0
    assert _check_balance(base) > 0


def test_counts_equal_the_per_row_queries_at_250_games(warehouses: tuple[Path, Path]) -> None:
    _, big = warehouses
    assert direct(big, "SELECT count(*) AS n FROM games", [])["n"][0] == 250
    assert _check(big) > 50
    assert _check_balance(big) > 50
    # the metrics as the page shows them: the same from the totals as from every seat
    balance.clear_caches()
    with_totals = bq.metrics(bq.Source(db=big), Filters())
    mp = pytest.MonkeyPatch()
    mp.setattr(bq, "_totals", lambda src: False)
    try:
        balance.clear_caches()
        per_seat = bq.metrics(bq.Source(db=big), Filters())
    finally:
        mp.undo()
        balance.clear_caches()
    assert with_totals.height > 10
    assert_frame_equal(with_totals, per_seat, rel_tol=1e-9, abs_tol=1e-12)


def test_migration_12_writes_the_loads_totals(warehouses: tuple[Path, Path],
                                              tmp_path: Path) -> None:
    base, _ = warehouses
    db = tmp_path / "old.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        want = {t: con.sql(f"SELECT * FROM {t}").pl() for t in game_totals.TABLES}
        for table in game_totals.TABLES:  # as loaded before migration 12
            con.execute(f"DROP TABLE {table}")
        con.execute("DELETE FROM schema_migrations WHERE version >= 12")
        assert migrate(con) == [v for v, _, _ in MIGRATIONS if v >= 12]
        for table, frame in want.items():
            assert_frame_equal(_sorted(con.sql(f"SELECT * FROM {table}").pl()), _sorted(frame),
                               rel_tol=1e-9, abs_tol=1e-12)
        # run again over the tables (a re-run of the migrations after an older one): the same
        con.execute("DELETE FROM schema_migrations WHERE version >= 12")
        assert migrate(con) == [v for v, _, _ in MIGRATIONS if v >= 12]
        for table, frame in want.items():
            assert_frame_equal(_sorted(con.sql(f"SELECT * FROM {table}").pl()), _sorted(frame),
                               rel_tol=1e-9, abs_tol=1e-12)
    finally:
        con.close()
    assert _check(db) > 0
    assert _check_balance(db) > 0


def test_a_warehouse_without_the_totals_reads_the_rows(warehouses: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    base, _ = warehouses
    db = tmp_path / "v10.duckdb"
    db.write_bytes(base.read_bytes())
    con = duckdb.connect(str(db))
    try:
        for table in game_totals.TABLES:
            con.execute(f"DROP TABLE {table}")
    finally:
        con.close()
    assert _check(db) > 0
    assert _check_balance(db) > 0
