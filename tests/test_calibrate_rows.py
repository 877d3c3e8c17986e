"""``playtest calibrate --format json`` (issue 28): the Open ending's interval has positive
width and covers when every game ends Open; the rows the designers report (policy fallbacks 0,
five checks passed, the opening top share's 30% check) are present with figure and source."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ingest import stats
from ingest.mandate2038 import calibrate as cal
from ingest.mandate2038.study import Batch, StudySpec, run_batch, write_batch

GAMES = 30


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cal") / "S"
    spec = StudySpec(games=GAMES, players=(3,), policies=("greedy",), seed="null",
                     batch_size=GAMES)
    write_batch(out, run_batch(spec, Batch(players=3, policy="greedy", start=0, count=GAMES)))
    # every game ending Open (a game or two of 30 does not, at 99% per game): the study's
    # outcomes table rewritten so
    import polars as pl

    for f in (out / "outcomes").rglob("*.parquet"):
        pl.read_parquet(f).with_columns(pl.lit(True).alias("open")).write_parquet(f)
    return out


@pytest.fixture(scope="module")
def rows(study: Path) -> dict[str, dict[str, object]]:
    # what `playtest calibrate --format json` prints (the command itself refuses the study:
    # its outcomes no longer match its batch marker)
    found = json.loads(cal.as_json({"rows": cal.rows(study)}))["rows"]
    return {r["metric"]: r for r in found}


def test_open_interval_has_width_and_covers_when_every_game_ends_open(
        rows: dict[str, dict[str, object]]) -> None:
    r = rows["open"]
    assert r["ours"] == 1.0, "the fixture's games all end Open"
    interval = r["interval"]
    assert isinstance(interval, list)
    low, high = float(interval[0]), float(interval[1])
    assert high == 1.0 and 0.0 < low < 1.0 and high - low > 0
    # the designers' 99.2% at 3 players is a possible truth here: 30 games cannot tell
    assert r["verdict"] == cal.AGREES


def test_outcome_interval_covers_a_rare_miss_at_50_games() -> None:
    """Studies of 50 games (blocks of 3) where a game ends Open with chance 0.992, as in the
    designers' diagnostic: the interval covers the truth in at least 90% of 400 studies (the
    bootstrap alone: 0.33, every all-Open study giving [1, 1])."""
    rng = np.random.default_rng(28)
    truth, covered = 0.992, 0
    for _ in range(400):
        games = rng.random(51) < truth
        arr = np.array([[[float(games[i:i + 3].sum()), 3.0]] for i in range(0, 51, 3)])
        res = stats.outcome_share_interval(arr)
        covered += res["low"] <= truth <= res["high"]
    assert covered / 400 >= 0.90


def test_the_designers_reported_rows_are_present_with_figure_and_source(
        rows: dict[str, dict[str, object]]) -> None:
    precision = cal.SOURCES["precision"]
    fb = rows["policy_fallbacks"]
    assert fb["designers"] == 0 and fb["source"] == precision
    assert fb["designers_words"] == "Policy fallbacks: 0 (bound 0)"
    th = stats.thresholds()
    for metric, key in (("faction_strategy_interaction", "factionStrategyInteractionRangeMax"),
                        ("pairwise_dominance", "pairwiseDominanceMax"),
                        ("round_two_leader_conversion", "roundTwoLeaderConversionMax"),
                        ("winning_path_top_share", "winningPathTopShareMax"),
                        ("forced_no_op_rate", "forcedNoOpRateMax"),
                        ("opening_top_share_passed", "openingTopShareMax")):
        r = rows[metric]
        assert r["designers"] == th[key] and r["designers_relation"] == "passed", metric
        assert r["source"] == precision and r["designers_words"], metric
        assert r["verdict"] != cal.NO_FIGURE, metric
    assert th["openingTopShareMax"] == 0.30
    # the older diagnostic's bound stays beside it, named as such
    assert rows["opening_top_share"]["designers"] == 0.056
    assert rows["opening_top_share"]["source"] == cal.SOURCES["diagnostic"]
    assert rows["opening_top_share_passed"]["ours"] == rows["opening_top_share"]["ours"]


def test_passed_relation_verdicts() -> None:
    assert cal.compare(0.25, 0.20, 0.30, 400, 30, 0.22, "passed") == cal.AGREES
    assert cal.compare(0.35, 0.30, 0.40, 400, 30, 0.22, "passed").startswith(cal.DIFFERS)
