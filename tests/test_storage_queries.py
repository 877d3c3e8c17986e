"""Dashboard queries that aggregate in DuckDB agree with the Python they replace."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from dashboards import queries, sample_warehouse, stats


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("wh") / "playtest.duckdb"
    return sample_warehouse.build(path, games=60, seed=7)


@pytest.mark.parametrize("f", [queries.Filters(), queries.Filters(player_counts=(4,)),
                               queries.Filters(evidence_only=True)])
def test_era_two_leader_summary_matches_the_per_game_loop(db, f):
    lead = queries.era_two_leaders(db, f)
    expected = []
    if not lead.is_empty():
        for (kind,), part in lead.group_by(["kind"], maintain_order=True):
            c = stats.leader_conversion(part)
            expected.append((kind, c["games"], c["converted"], c["ties"]))
    got = queries.era_two_leader_summary(db, f)
    rows = [] if got.is_empty() else got.select("kind", "games", "converted", "ties").rows()
    assert sorted(rows) == sorted(expected)
    if f == queries.Filters():
        assert sum(r[1] + r[3] for r in rows) > 0  # the sample has Era II states to count


def test_era_two_leader_summary_counts_a_shared_lead_as_a_tie(db):
    lead = queries.era_two_leaders(db, queries.Filters())
    assert not lead.is_empty()
    ties = lead.group_by("game_id").agg(
        (pl.col("mandate") == pl.col("mandate").max()).sum().alias("leaders"))
    n_ties = int((ties["leaders"] != 1).sum())
    got = queries.era_two_leader_summary(db, queries.Filters())
    assert int(got["ties"].sum()) == n_ties
