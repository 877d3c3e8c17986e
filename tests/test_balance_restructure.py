"""The Balance page's faster computations give the figures of the ones they replaced.

The old computations are kept here as references, verbatim in what they compute: the seven
grouping sets DuckDB aggregated over every seat, the head-to-head pairs joined on the game
id's text, and the statistics on dicts of block counts (the dict statistics of ``stats``)
that the row-wise array statistics replaced. They are compared
with the current code on the hand-built corpus of ``test_balance_metrics`` (joint wins, tied Era II leaders, a blocked
action, an AGI winner, a seat without an opening; as a warehouse and as a study folder) and on
that corpus replicated under 240 game ids; the statistics also on random block counts
(missing keys, zeros, ties, 1/k credit), on all the data and with each block left out.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest

from dashboards import stats
from dashboards.queries import Filters
from ingest.mandate2038 import balance as bq
from ingest.warehouse import balance as wb
from ingest.warehouse.balance import refresh
from ingest.warehouse.migrations import migrate
from tests.test_balance_metrics import KNOWN, _tables, known_db, known_study  # noqa: F401  (fixtures)

pytestmark = pytest.mark.needs_game("mandate2038")

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
    # 240 simulated games, copies of four deals (factions by seat, first Initiative): games
    # dealt alike are one common-seed block, resampled together
    assert tot["blk"].n_unique() == 4 and int(tot["games"].sum()) == 4 * COPIES
    m = bq.metrics(bq.Source(db=replicated_db), Filters())
    got = {r["metric"]: r["value"] for r in m.iter_rows(named=True)}
    # copies of the four hand-built games: every figure not about profiles is theirs
    for metric, want in KNOWN.items():
        if "profile" in metric or "strategy" in metric or "pairwise" in metric:
            continue
        assert got[metric] == pytest.approx(want, abs=1e-12), metric


def _old_matchups(src: bq.Source, f: Filters) -> pl.DataFrame:
    """Head-to-head placements as computed before: the pairs joined on the game id's text."""
    ctes, params = bq._ctes(src, f)
    return bq.run_many(src, [(f"""
        WITH {ctes},
        ps AS (SELECT sb.game_id, sb.seat, sb.profile, sb.final_mandate AS score,
                      g.kind, g.player_count, g.blk
               FROM sb JOIN g USING (game_id) WHERE sb.profile IS NOT NULL)
        SELECT a.kind, a.player_count, a.blk, a.profile, b.profile AS opponent,
               count(*) AS comparisons,
               sum(CASE WHEN a.score > b.score THEN 1.0 WHEN a.score = b.score THEN 0.5
                        ELSE 0.0 END)::DOUBLE AS points
        FROM ps a JOIN ps b ON a.game_id = b.game_id AND a.seat <> b.seat
                           AND a.profile <> b.profile
        GROUP BY ALL
        """, params)])[0]


def test_matchups_equal_the_join_on_game_ids(known_db: Path, known_study: Path,  # noqa: F811
                                             replicated_db: Path) -> None:
    cols = ["kind", "player_count", "blk", "profile", "opponent", "comparisons", "points"]
    for src in _sources(known_db, known_study, replicated_db):
        bq.clear_caches()
        old, new = _old_matchups(src, Filters()), bq.matchup_counts(src, Filters())
        assert new.schema == old.schema
        _same(_rows(new, cols), _rows(old, cols))
    # the hand-built corpus: x over y 5 of 8 comparisons (g1 1 + 0.5, g2 0.5 + 1, g4 1 + 1)
    got = bq.matchup_counts(bq.Source(db=known_db), Filters())
    xy = got.filter((pl.col("profile") == "x") & (pl.col("opponent") == "y"))
    assert (int(xy["comparisons"].sum()), float(xy["points"].sum())) == (8, 5.0)


# --- the row-wise statistics on arrays against the statistics on dicts -------------------------


def _old_blocks(df: pl.DataFrame, key: list[str], values: list[str]) -> dict[int, dict[Any, Any]]:
    """The block dicts the page built before (``balance_queries._blocks``, verbatim)."""
    out: dict[int, dict[Any, Any]] = {}
    if df.is_empty():
        return out
    for row in df.select(["blk", *key, *values]).iter_rows():
        blk = int(row[0])
        k = row[1:1 + len(key)]
        k = k[0] if len(key) == 1 else tuple(k)
        vals = tuple(float(x) if x is not None else 0.0 for x in row[1 + len(key):])
        v: Any = vals[0] if len(values) == 1 else vals
        bucket = out.setdefault(blk, {})
        bucket[k] = stats._add(bucket[k], v) if k in bucket else v
    return out


#: each statistic of the page: its dict form (before) and its array form (now)
STATS = {
    "share_range": (stats.share_range, stats.share_range_rows),
    "interaction": (lambda d: stats.share_range(d, 4), lambda a: stats.share_range_rows(a, 4)),
    "dominance": (stats.dominance, stats.dominance_rows),
    "ratio": (stats.ratio, stats.ratio_rows),
}
def _fixed_entropy(counts: dict[Any, float], k: int = 120) -> float:
    """Shannon entropy over log k, on a dict (the reference form of entropy_fixed_rows)."""
    values = [float(v) for v in counts.values() if v > 0]
    total = sum(values)
    if total <= 0:
        return 0.0
    return -sum(v / total * math.log(v / total) for v in values) / math.log(k)


COUNT_STATS = {"entropy": (_fixed_entropy,
                           lambda a: stats.entropy_fixed_rows(a, 120)),
               "top_share": (stats.top_share, stats.top_share_rows)}


def _sub(a: Any, b: Any) -> Any:
    return tuple(x - y for x, y in zip(a, b, strict=True)) if isinstance(a, tuple) else a - b


def _same_rows(df: pl.DataFrame, blocks: dict[int, dict[Any, Any]], key: list[str],
               values: list[str], old_stat: Any, new_stat: Any) -> None:
    """The array statistic on all the data and with each block left out (what the bootstrap
    and the jackknife evaluate) equals the dict statistic on the same sums."""
    arr = stats.block_array(df, key, values)[1]
    total: dict[Any, Any] = {}
    for counts in blocks.values():
        for k, v in counts.items():
            total[k] = stats._add(total[k], v) if k in total else v
    parts = [total]
    for b in sorted(blocks):
        part = dict(total)
        for k, v in blocks[b].items():
            part[k] = _sub(part[k], v)
        parts.append(part)
    whole = arr.sum(axis=0)[np.newaxis]
    got = new_stat(np.concatenate([whole, whole - arr])) if arr.size else np.array([])
    for i, part in enumerate(parts[:len(got)]):
        want, x = old_stat(part), float(got[i])
        if math.isnan(want) or math.isnan(x):
            assert math.isnan(want) and math.isnan(x), (i, want, x)
        else:
            assert x == pytest.approx(want, abs=1e-12), (i, want, x)


def test_array_statistics_equal_the_dict_statistics_on_the_corpora(
        known_db: Path, known_study: Path, replicated_db: Path) -> None:  # noqa: F811
    for src in _sources(known_db, known_study, replicated_db):
        bq.clear_caches()
        f = Filters()
        cases = [
            (bq.seat_counts(src, f, "turn_order"), ["turn_order"], ["appearances", "credit"],
             "share_range"),
            (bq.seat_counts(src, f, "faction"), ["faction"], ["appearances", "credit"],
             "share_range"),
            (bq.seat_counts(src, f, "profile"), ["profile"], ["appearances", "credit"],
             "share_range"),
            (bq.seat_counts(src, f, "faction_profile"), ["faction", "profile"],
             ["appearances", "credit"], "interaction"),
            (bq.matchup_counts(src, f), ["profile", "opponent"], ["comparisons", "points"],
             "dominance"),
            (bq.leader_counts(src, f), ["kind"], ["converted", "games"], "ratio"),
            (bq.forced_counts(src, f), ["kind"], ["blocked", "seats"], "ratio"),
            (bq.action_counts(src, f), ["action"], ["n"], "entropy"),
            (bq.action_counts(src, f), ["action"], ["n"], "top_share"),
            (bq.opening_counts(src, f), ["opening"], ["n"], "entropy"),
            (bq.opening_counts(src, f), ["opening"], ["n"], "top_share"),
            (bq.path_counts(src, f), ["path"], ["credit"], "entropy"),
            (bq.path_counts(src, f), ["path"], ["credit"], "top_share"),
        ]
        for df, key, values, name in cases:
            assert not df.is_empty(), (src, name, key)
            old_stat, new_stat = {**STATS, **COUNT_STATS}[name]
            _same_rows(df, _old_blocks(df, key, values), key, values, old_stat, new_stat)


def _random_blocks(rng: random.Random, pairs: bool) -> dict[int, dict[Any, Any]]:
    """Block counts with missing keys, zeros, ties and fractional (1/k) credit."""
    keys = [f"k{i}" for i in range(rng.randint(1, 6))]
    out: dict[int, dict[Any, Any]] = {}
    for b in rng.sample(range(20), rng.randint(1, 20)):
        bucket: dict[Any, Any] = {}
        for k in rng.sample(keys, rng.randint(1, len(keys))):
            a = float(rng.randint(0, 6))
            c = rng.choice([0.0, 1 / 3, 0.5, 1.0, 2.5]) * min(a, 1.0 + rng.random() * a)
            bucket[k] = (a, c) if pairs else c
        out[b] = bucket
    return out


def _as_frame(blocks: dict[int, dict[Any, Any]], pairs: bool) -> pl.DataFrame:
    rows = [{"blk": b, "key": k, **({"x": v[0], "y": v[1]} if pairs else {"x": v})}
            for b, bucket in blocks.items() for k, v in bucket.items()]
    return pl.DataFrame(rows)


@pytest.mark.parametrize("name", [*STATS, *COUNT_STATS])
def test_array_statistics_equal_the_dict_statistics_on_random_blocks(name: str) -> None:
    rng = random.Random(f"balance-{name}")
    pairs = name in STATS
    old_stat, new_stat = {**STATS, **COUNT_STATS}[name]
    for _ in range(300):
        blocks = _random_blocks(rng, pairs)
        df = _as_frame(blocks, pairs)
        values = ["x", "y"] if pairs else ["x"]
        _same_rows(df, blocks, ["key"], values, old_stat, new_stat)


def test_shares_per_key_equal_the_bootstrap_of_the_dict_blocks(replicated_db: Path) -> None:
    """Each share and its interval: the bootstrap of the block counts rebuilt from the old
    dicts (blocks in order) with the share of one key."""
    src = bq.Source(db=replicated_db)
    bq.clear_caches()
    for by in ("turn_order", "faction", "profile"):
        seats = bq.seat_counts(src, Filters(), by).filter(pl.col(by).is_not_null())
        blocks = _old_blocks(seats, [by], ["appearances", "credit"])
        got = bq.shares(src, Filters(), by)
        assert got.height == len({k for b in blocks.values() for k in b})
        for r in got.iter_rows(named=True):
            order = sorted(blocks)
            arr = np.array([[list(blocks[b].get(r[by], (0.0, 0.0)))] for b in order])
            old = stats.bootstrap_array(arr, lambda a: stats.share_rows(a, 0))
            assert r["share"] == pytest.approx(old["value"], abs=1e-12)
            for k, clip in (("low", lambda x: max(0.0, x)), ("high", lambda x: min(1.0, x))):
                if math.isnan(old[k]):
                    assert r[k] is None
                else:
                    assert r[k] == pytest.approx(clip(old[k]), abs=1e-12)


def test_a_warehouse_without_seat_balance_is_read_as_before(known_db: Path,  # noqa: F811
                                                            tmp_path: Path) -> None:
    """The tables' shape comes from binding ``SELECT * FROM t LIMIT 0`` (no catalog look-up):
    a warehouse older than the seat_balance migration derives the rows on the fly, one older
    than the turn-order migration says turn order is not stored."""
    import shutil

    want = bq.metrics(bq.Source(db=known_db), Filters())
    old = tmp_path / "old.duckdb"
    shutil.copyfile(known_db, old)
    con = duckdb.connect(str(old))
    con.execute("DROP TABLE seat_balance")
    con.close()
    bq.clear_caches()
    got = bq.metrics(bq.Source(db=old), Filters())
    _same(_rows(got, list(got.columns)), _rows(want, list(want.columns)))
    con = duckdb.connect(str(old))
    con.execute("ALTER TABLE seats DROP COLUMN turn_order")
    con.close()
    bq.clear_caches()
    got = bq.metrics(bq.Source(db=old), Filters())
    seat = got.filter(pl.col("metric") == "seat_win_share_range").row(0, named=True)
    assert seat["value"] is None and "rebuild" in seat["note"]
    faction = got.filter(pl.col("metric") == "faction_win_share_range")["value"][0]
    assert faction == pytest.approx(0.625 - 0.125)
    assert bq.columns(bq.Source(db=old), "seat_balance") == frozenset()
    assert "turn_order" not in bq.columns(bq.Source(db=old), "seats")


def test_one_player_count_gives_the_figures_of_all(known_db: Path, known_study: Path,  # noqa: F811
                                                   replicated_db: Path) -> None:
    """The page computes the chosen player count only (``for_count``): the same metrics and
    shares as computed over every count; the game counts equal the blocks' sums."""
    for src in _sources(known_db, known_study, replicated_db):
        bq.clear_caches()
        f = Filters()
        games = bq.games_by_count(src, f)
        lead = bq.leader_counts(src, f)
        want_games = {(str(k), int(n)): int(g) for k, n, g in
                      lead.group_by(["kind", "player_count"]).agg(pl.col("games").sum())
                      .iter_rows()}
        assert games == want_games and games
        for n in (3, 4):
            fn = bq.for_count(f, n)
            assert fn.player_counts == (n,)
            for want, got in ((bq.metrics(src, f, n), bq.metrics(src, fn, n)),
                              *((bq.shares(src, f, by, n), bq.shares(src, fn, by, n))
                                for by in ("turn_order", "faction", "profile"))):
                assert got.height == want.height
                if want.height:
                    _same(_rows(got, list(want.columns)), _rows(want, list(want.columns)))
    # a filter that leaves out n players is not widened to them
    assert bq.for_count(Filters(player_counts=(3,)), 4) == Filters(player_counts=(3,))
    assert bq.for_count(Filters(player_counts=(3, 4)), 4) == Filters(player_counts=(4,))
