"""The Balance page's faster computations give the figures of the ones they replaced.

The old computations are kept here as references, verbatim in what they compute: the seven
grouping sets DuckDB aggregated over every seat. They are compared with the current code on the
hand-built corpus of ``test_balance_metrics`` (joint wins, tied Era II leaders, a blocked
action, an AGI winner, a seat without an opening; as a warehouse and as a study folder) and on
that corpus replicated under 240 game ids, so that all 20 jackknife blocks hold games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from dashboards import balance_queries as bq
from dashboards.queries import Filters
from ingest.warehouse import balance as wb
from ingest.warehouse.balance import refresh
from ingest.warehouse.migrations import migrate
from tests.test_balance_metrics import KNOWN, _tables, known_db, known_study  # noqa: F401  (fixtures)

COPIES = 60  # 4 complete games x 60 = 240 games


@pytest.fixture(scope="module")
def replicated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-built corpus, every game table copied under ``<id>~<copy>`` ids (as the page
    benchmark's synthetic warehouses are); some copies have seat 2's profile changed so that
    blocks differ in more than their size."""
    path = tmp_path_factory.mktemp("replicated") / "playtest.duckdb"
    con = duckdb.connect(str(path))
    try:
        migrate(con)
        for name, df in _tables(study=False).items():
            copies = []
            for i in range(COPIES):
                part = df.with_columns((pl.col("game_id") + f"~{i}").alias("game_id"))
                if name == "seats" and i % 7 == 3:
                    part = part.with_columns(
                        pl.when(pl.col("seat") == 2).then(pl.lit("bot:z"))
                        .otherwise(pl.col("player")).alias("player"))
                copies.append(part)
            con.register("frame", pl.concat(copies).to_arrow())
            con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM frame")
            con.unregister("frame")
        refresh(con)
    finally:
        con.close()
    return path


def _old_grouped(src: bq.Source, f: Filters) -> dict[str, pl.DataFrame]:
    """The seven parts as the page computed them before: one GROUPING SETS query."""
    ctes, params = bq._ctes(src, f)
    action_ids = [*wb.ACTION_IDS, "other"]
    sums = ", ".join(f"CAST(sum(a_{a}) AS BIGINT) AS a_{a}" for a in action_ids)
    df = bq.run_many(src, [(f"""
        WITH {ctes},
        j AS (SELECT g.kind, g.player_count, g.blk, sb.* FROM sb JOIN g USING (game_id))
        SELECT kind, player_count, blk, turn_order, faction, profile, opening, path,
               GROUPING(turn_order, faction, profile, opening, path) AS gid,
               count(*) AS appearances, sum(credit)::DOUBLE AS credit,
               {sums},
               CAST(sum(blocked) AS BIGINT) AS blocked,
               CAST(sum(policy_fallbacks) AS BIGINT) AS fallbacks,
               count(*) FILTER (WHERE seat = 1) AS games,
               sum(lead_won_share)::DOUBLE AS converted,
               count(*) FILTER (WHERE seat = 1 AND era2_leaders > 1) AS tied
        FROM j
        GROUP BY GROUPING SETS ((kind, player_count, blk, turn_order),
                                (kind, player_count, blk, faction),
                                (kind, player_count, blk, profile),
                                (kind, player_count, blk, faction, profile),
                                (kind, player_count, blk, opening),
                                (kind, player_count, blk, path),
                                (kind, player_count, blk))
        """, params)])[0]
    sets = {bq._ORDER: 0b01111, bq._FACTION: 0b10111, bq._PROFILE: 0b11011, bq._FS: 0b10011,
            bq._OPENINGS: 0b11101, bq._PATHS: 0b11110, bq._TOTALS: 0b11111}
    return {name: df.filter(pl.col("gid") == gid).drop("gid") for name, gid in sets.items()}


def _rows(df: pl.DataFrame, cols: list[str]) -> list[tuple[Any, ...]]:
    return sorted((tuple(r) for r in df.select(cols).iter_rows()),
                  key=lambda r: tuple((x is None, str(x)) for x in r))


def _same(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        for u, v in zip(x, y, strict=True):
            if isinstance(u, float) or isinstance(v, float):
                assert u == pytest.approx(v, abs=1e-9), (x, y)
            else:
                assert u == v, (x, y)


def _sources(db: Path, study: Path, replicated: Path) -> list[bq.Source]:
    return [bq.Source(db=db), bq.Source(study=study), bq.Source(db=replicated)]


def test_grouped_parts_equal_the_grouping_sets(known_db: Path, known_study: Path,  # noqa: F811
                                               replicated_db: Path) -> None:
    for src in _sources(known_db, known_study, replicated_db):
        for f in (Filters(), Filters(player_counts=(3,))):
            bq.clear_caches()
            old = _old_grouped(src, f)
            new = bq._grouped(src, f)
            assert set(new) == set(old)
            for name, keys in bq._PART_KEYS.items():
                base = ["kind", "player_count", "blk", *keys]
                cols = base + (["appearances", "credit"] if name != bq._TOTALS else [
                    c for c in old[name].columns if c not in base
                    and c not in ("turn_order", "faction", "profile", "opening", "path")])
                assert new[name].schema == pl.Schema(
                    {c: old[name].schema[c] for c in new[name].columns}), name
                _same(_rows(new[name], cols), _rows(old[name], cols))
            # the hand-built corpus: fallbacks are recorded in the study only
            fallbacks = new[bq._TOTALS]["fallbacks"]
            if src.study is not None:
                assert fallbacks.null_count() == 0 and int(fallbacks.sum()) == 2
            else:
                assert fallbacks.null_count() == fallbacks.len()


def test_replicated_corpus_fills_every_block(replicated_db: Path) -> None:
    tot = bq.leader_counts(bq.Source(db=replicated_db), Filters())
    assert tot["blk"].n_unique() == 20 and int(tot["games"].sum()) == 4 * COPIES
    m = bq.metrics(bq.Source(db=replicated_db), Filters())
    got = {r["metric"]: r["value"] for r in m.iter_rows(named=True)}
    # copies of the four hand-built games: every figure not about profiles is theirs
    for metric, want in KNOWN.items():
        if "profile" in metric or "strategy" in metric or "pairwise" in metric:
            continue
        assert got[metric] == pytest.approx(want, abs=1e-12), metric
