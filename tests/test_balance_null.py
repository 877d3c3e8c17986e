"""The null check (``playtest calibrate --null-check``): replicate studies drawn by common-seed
block from a pool of real study games, winners permuted within each game; truths known exactly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ingest.mandate2038 import balance as bq
from ingest.mandate2038 import balance_null as bn
from ingest.mandate2038.study import Batch, StudySpec, run_batch, write_batch

GAMES = 12


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("null") / "pool"
    spec = StudySpec(games=GAMES, players=(3,), policies=("greedy",), seed="null",
                     batch_size=GAMES)
    write_batch(out, run_batch(spec, Batch(players=3, policy="greedy", start=0, count=GAMES)))
    return out


def test_pool_keeps_blocks_and_truths_are_the_permutation_expectations(pool: Path) -> None:
    (p,) = bn.load_pool(pool)
    assert p.n == 3 and p.policy == "greedy" and p.cols["credit"].shape == (GAMES, 3)
    # the games of a common-seed block (3 games at 3 players) share one block number
    assert len(set(p.cluster.tolist())) == GAMES // 3
    for b in set(p.cluster.tolist()):
        assert (p.cluster == b).sum() == 3
    truth = bn.truths(p)
    for m in ("seat_win_share_range", "faction_win_share_range", "profile_win_share_range"):
        assert truth[m] == pytest.approx(0.0, abs=1e-12), m
    # no (faction, profile) cell is seen 4 times in 12 games: no truth, as on the page
    assert np.isnan(truth["faction_strategy_interaction"])
    assert truth["pairwise_dominance"] == 0.5
    winners = np.array([[bool(x) for x in row] for row in p.cols["winner"]]).sum(axis=1)
    assert truth["round_two_leader_conversion"] == pytest.approx(winners.mean() / 3)


def test_a_replicate_is_grouped_as_the_page_groups(pool: Path) -> None:
    (p,) = bn.load_pool(pool)
    rng = np.random.default_rng(0)
    grouped, matchups = bn._replicate(p, 9, rng)
    assert int(grouped["games"].sum()) == 9 and int(grouped["appearances"].sum()) == 27
    # one winner's credit per game whatever seat it was handed to
    assert float(grouped["credit"].sum()) == pytest.approx(9.0)
    m = bq.metrics_from_parts(bq.split_grouped(grouped), matchups)
    assert set(m["metric"]) == {x[0] for x in bq.METRICS}
    assert set(m["games"]) == {9}


def test_the_null_check_command(pool: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    assert main(["calibrate", str(pool), "--null-check", "2", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    checks = result["checks"]
    assert {c["games"] for c in checks} == {50, 200, 1000}
    assert {c["metric"] for c in checks} == {m[0] for m in bn.CHECKS}
    for c in checks:
        if c["metric"] == "faction_strategy_interaction":
            assert c["replicates"] == 0 and c["false_verdict_rate"] is None
            continue
        assert 0 <= c["false_verdict_rate"] <= 1 and c["replicates"] == 2
        assert c["coverage"] is None or 0 <= c["coverage"] <= 1
    assert main(["calibrate", str(pool), "--null-check", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_null_check_without_a_folder_plays_its_documented_pool(tmp_path, monkeypatch, capsys):
    """`playtest calibrate --null-check N --format json` as the issue writes it (no folder):
    the documented pool is played once into simulated/null-pool and drawn from."""
    import json

    import ingest.mandate2038.calibrate as calibrate
    from cli.main import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(calibrate, "POOL_GAMES", 3)
    monkeypatch.setattr(calibrate, "POOL_BACKEND", "local")
    monkeypatch.setattr(calibrate, "POOL_WORKERS", 1)  # in this process: no fork under pytest
    assert main(["calibrate", "--null-check", "2", "--players", "3", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["study"].endswith("null-pool") and (tmp_path / "simulated" / "null-pool").is_dir()
    assert {c["games"] for c in doc["checks"]} == {50, 200, 1000}
    rates = [c["false_verdict_rate"] for c in doc["checks"]]
    assert any(r is not None for r in rates)  # a pool of 3 games a policy leaves some out
    assert all(r is None or 0 <= r <= 1 for r in rates)
