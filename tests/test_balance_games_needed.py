""""Games to settle" (issue 28): for a check that says "not enough games", the games that would
give a verdict at the current effect size with an 80% chance (``ingest.stats.games_needed``,
on the Balance page, in ``calibrate`` and ``compare``). Checked in the pool's own world, as the
null check draws studies (docs/balance.md "How sure a verdict is"): studies of the promised
size drawn by whole common-seed block from the pool, whose truth is the pool's value, reach a
verdict in about the promised share."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dashboards.queries import Filters
from ingest import stats
from ingest.mandate2038 import balance as bq
from ingest.mandate2038 import balance_null as bn
from ingest.mandate2038.study import Batch, StudySpec, run_batch, write_batch

POOL_GAMES = 60
REPLICATES = 30
MOST_GAMES = 1200  # larger promised studies are left out (each costs about a second a draw)


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("need") / "pool"
    spec = StudySpec(games=POOL_GAMES, players=(3,), policies=("greedy",), seed="cmpnull",
                     batch_size=POOL_GAMES)
    write_batch(out, run_batch(spec, Batch(players=3, policy="greedy", start=0,
                                           count=POOL_GAMES)))
    return out


def test_studies_of_the_promised_size_reach_a_verdict_in_about_the_promised_share(
        pool: Path) -> None:
    (p,) = bn.load_pool(pool)
    page = bq.metrics(bq.Source(study=pool), Filters(player_counts=(3,)), 3)
    undecided = [r for r in page.iter_rows(named=True) if r["verdict"] == stats.NOT_ENOUGH]
    assert undecided, "the pool leaves some check undecided"
    for r in undecided:  # every undecided check says how many games would settle it
        assert r["games_needed"] is None or r["games_needed"] % 3 == 0  # whole line-ups
        if r["metric"] in bq.BOTS_ONLY:
            assert r["tables_needed"] is None
    tried = [r for r in undecided
             if r["games_needed"] is not None and r["games_needed"] <= MOST_GAMES][:3]
    assert tried, [(r["metric"], r["games_needed"]) for r in undecided]
    cache: dict[int, np.ndarray] = {}

    def weights(m: int) -> np.ndarray:
        return cache.setdefault(m, stats.bootstrap_weights(m))

    shares = {}
    for r in tried:
        rng = np.random.default_rng(28)
        decided = 0
        for _ in range(REPLICATES):
            grouped, matchups = bn._replicate(p, r["games_needed"], rng, random_winners=False)
            m = bq.metrics_from_parts(bq.split_grouped(grouped), matchups, weights=weights)
            verdict = m.filter(m["metric"] == r["metric"])["verdict"][0]
            decided += verdict in (stats.WITHIN, stats.OUTSIDE)
        shares[r["metric"]] = decided / REPLICATES
    # promised: 80%; 30 draws give a standard error of about 0.07. A range's plug-in value
    # and its interval's clipped ends make the figure err on the safe side (0.97-1.0 here;
    # Era II conversion and winning-path entropy 0.75-0.78 on a 150-game pool)
    assert all(0.65 <= s <= 1.0 for s in shares.values()), shares
    assert sum(shares.values()) / len(shares) >= 0.72, shares


def test_games_needed_is_none_on_the_limit_and_grows_as_the_effect_shrinks() -> None:
    assert stats.games_needed(0.10, 0.05, 0.15, 0.10, 200) is None
    # on the limit up to rounding, or beyond any practical study (a null check's replicate
    # once gave 8.5e33 games, which overflowed the page's column): none
    assert stats.games_needed(0.1 + 1e-15, 0.05, 0.15, 0.10, 200) is None
    assert stats.games_needed(0.10001, 0.05, 0.15, 0.10, 200) is None
    small = stats.games_needed(0.12, 0.07, 0.17, 0.10, 200)
    large = stats.games_needed(0.14, 0.09, 0.19, 0.10, 200)
    assert small is not None and large is not None and small > large
    # half the effect needs four times the games
    assert small == pytest.approx(4 * large, rel=0.02)
