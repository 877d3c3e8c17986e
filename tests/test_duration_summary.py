"""Mandate 2038's Duration section reads summaries: the same figures as one row per game.

The section used to load every timed game (``queries.durations``), name them all, summarise
their minutes in polars (``stats.summarise``) and draw one point per game. It now reads each
player count's moments from SQL (``queries.duration_moments`` + ``stats.summary_from_moments``)
and the chart's games counted per player count, kind and whole minute
(``mandate2038.queries.duration_points``), naming only the games of one-game circles. On a
small ingested warehouse, under several filter sets, the new figures must equal those of the
old per-game computation, kept below verbatim.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import DB_ENV, queries, stats, store, ui
from dashboards.filters import SESSION_TYPE_LABELS
from dashboards.mandate2038 import sections
from dashboards.queries import Filters
from tests.bench_warehouse import bench_warehouses


def _old_section(db: Path, f: Filters, include: bool) -> tuple[pl.DataFrame, pl.DataFrame] | None:
    """The section's figures as it computed them before (verbatim): the summary table and the
    chart's points, one per game (None: the section showed its empty state)."""
    games = queries.durations(db, f, include)
    if games.is_empty():
        return None
    summary = stats.summarise(games, ["player_count"], "total_minutes")
    shown = ui.named_games(games).with_columns(  # the tooltip's game and session in words
        pl.col("session_type").replace_strict(SESSION_TYPE_LABELS,
                                              default=pl.col("session_type")))
    return summary, shown


def _new_section(db: Path, f: Filters, include: bool) -> tuple[pl.DataFrame, pl.DataFrame] | None:
    """The section's figures as it computes them now (the calls of ``sections.duration``)."""
    moments = queries.duration_moments(db, f, include)
    if moments.is_empty():
        return None
    return (stats.summary_from_moments(moments, ["player_count"]),
            sections.duration_points(db, f, include))


def _binned(shown: pl.DataFrame) -> pl.DataFrame:
    """The old per-game points counted per player count, kind and whole minute, a one-game
    bin keeping its game's name: what the new circles must show."""
    return (shown.filter(pl.col("total_minutes").is_not_nan())
            .group_by(["player_count", "kind",
                       pl.col("total_minutes").floor().cast(pl.Int64).alias("minute")])
            .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("game_id").first())
            .with_columns(pl.when(pl.col("games") == 1).then(pl.col("game_id"))
                          .alias("game_id")))


FILTERS = [
    Filters(),
    Filters(games=("mandate2038",)),
    Filters(games=("mandate2038",), player_counts=(4,)),
    Filters(games=("mandate2038",), player_counts=(3, 5)),
    Filters(games=("mandate2038",), evidence_only=True),
    Filters(games=("mandate2038",), session_types=("facilitated_playtest",)),
    Filters(games=("mandate2038",), session_types=("simulation",), profiles=("competitive",)),
    Filters(games=("mandate2038",), date_from=dt.date(2026, 1, 3), date_to=dt.date(2026, 3, 1)),
    Filters(games=("vestige",)),
]


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """25 ingested games (20 simulated, 5 synthetic facilitated), and them replicated to 250."""
    base, big = bench_warehouses(tmp_path_factory, "duration", 250, flush_games=None)
    return base, big


def _sorted(df: pl.DataFrame) -> pl.DataFrame:
    return df.sort(df.columns, nulls_last=True)


def test_duration_section_shows_the_per_game_figures(warehouses: tuple[Path, Path],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    shown_games = 0
    singles = 0
    for warehouse, f in ((w, f) for w in warehouses for f in FILTERS):
        monkeypatch.setenv(DB_ENV, str(warehouse))  # the games are named from the page's warehouse
        store._CACHE.clear()
        for include in (False, True):
            old, new = _old_section(warehouse, f, include), _new_section(warehouse, f, include)
            assert (old is None) == (new is None), (f, include)
            if old is None or new is None:
                continue
            (old_summary, old_points), (summary, points) = old, new
            assert summary.columns == old_summary.columns
            assert_frame_equal(_sorted(summary), _sorted(old_summary), rel_tol=1e-9,
                               abs_tol=1e-9)
            # the small-samples warning reads the same n per player count
            assert summary["n"].sum() == old_points["total_minutes"].is_not_nan().sum()
            want = _binned(old_points).select(points.columns)
            assert_frame_equal(_sorted(points), _sorted(want), check_dtypes=False)
            shown_games += int(points["games"].sum())
            singles += points["game_id"].drop_nulls().len()
    assert shown_games > 0
    assert singles > 0  # some circles name their one game (as the old tooltip did)


def test_one_game_circles_are_named_in_words(warehouses: tuple[Path, Path],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = warehouses[0]
    monkeypatch.setenv(DB_ENV, str(warehouse))
    store._CACHE.clear()
    f = Filters(games=("mandate2038",))
    points = sections.duration_points(warehouse, f, True)
    named = points["game_id"].drop_nulls().to_list()
    assert named and all("Mandate 2038" in n and " players · " in n for n in named)
    assert points.filter(pl.col("games") > 1)["game_id"].null_count() == points.filter(
        pl.col("games") > 1).height


def test_chart_draws_one_circle_per_bin_sized_by_its_games() -> None:
    from dashboards.mandate2038 import charts as mandate_charts

    points = pl.DataFrame({"player_count": [3, 4, 4], "kind": ["human"] * 3,
                           "minute": [70, 88, 95], "games": [1, 120, 7],
                           "game_id": ["Mandate 2038 · 3 players · undated · x", None, None]})
    summary = stats.summary_from_moments(pl.DataFrame(
        {"player_count": [3, 4], "n": [1, 127], "mean": [70.5, 88.4], "median": [70.5, 88.0],
         "sd": [None, 2.0], "minimum": [70.5, 85.0]}), ["player_count"])
    spec = mandate_charts.duration_chart(points, summary, (75.0, 100.0)).to_dict()
    band, dots, *interval = spec["layer"]
    assert band["encoding"]["x"]["scale"]["domain"] == [3, 4]
    assert dots["encoding"]["size"]["field"] == "games"
    assert dots["encoding"]["y"]["field"] == "minute"
    rows = spec["datasets"][dots["data"]["name"]]
    assert len(rows) == 3 and sum(r["games"] for r in rows) == 128
    assert [t["field"] for t in dots["encoding"]["tooltip"]][-1] == "game_id"
    assert len(interval) == 2  # the mean's interval where n >= 2 (4 players), and its tick
