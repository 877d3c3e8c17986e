"""The same games give the same balance figures through the study path (Parquet tables read in
place) and the warehouse path (the logs ingested): the profile is keyed by profile in both, not
by the line-up's player label (``bot:<profile>:<policy>``)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from dashboards.queries import Filters
from engine.mandate2038.lineups import play_lineup_game
from ingest.loading import ingest_log
from ingest.mandate2038 import balance as bq
from ingest.mandate2038.study import Batch, StudySpec, run_batch, write_batch
from schemas.mandate2038.profiles import load_profiles
from schemas.packs import load_pack

GAMES = 12  # three common-seed blocks of four games


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("paths")
    spec = StudySpec(games=GAMES, players=(4,), policies=("weighted",), seed="paths",
                     batch_size=GAMES)
    study = root / "study"
    write_batch(study, run_batch(spec, Batch(players=4, policy="weighted", start=0,
                                             count=GAMES)))
    db = root / "playtest.duckdb"
    profiles = load_profiles("default")
    pack = load_pack("mandate2038", "0.8.0-rc.17-test")
    for i in range(GAMES):
        log, _plans, _bots = play_lineup_game("paths", i, 4, list(profiles), "weighted",
                                              profiles, pack)
        ingest_log(log, db, source="test")
    return study, db


def test_study_and_warehouse_give_the_same_figures(both: tuple[Path, Path]) -> None:
    study, db = both
    bq.clear_caches()
    got_study = bq.metrics(bq.Source(study=study), Filters(player_counts=(4,)), 4)
    got_wh = bq.metrics(bq.Source(db=db), Filters(player_counts=(4,)), 4)
    assert set(got_study["kind"]) == {"study: weighted"}
    assert set(got_wh["kind"]) == {"simulated"}
    s = {r["metric"]: r for r in got_study.iter_rows(named=True)}
    w = {r["metric"]: r for r in got_wh.iter_rows(named=True)}
    for metric, r in s.items():
        if metric == "policy_fallbacks":  # recorded by studies only
            continue
        assert r["games"] == w[metric]["games"] == GAMES
        for k in ("value", "low", "high"):
            a, b = r[k], w[metric][k]
            if a is None or (isinstance(a, float) and math.isnan(a)):
                assert b is None or math.isnan(b), (metric, k)
            else:
                assert b == pytest.approx(a, abs=1e-12), (metric, k)
    shares = bq.shares(bq.Source(db=db), Filters(player_counts=(4,)), "profile", 4)
    # profiles, not line-up labels with the policy
    assert not any(":" in str(p) for p in shares["profile"])
