"""The balance queries as the app runs them: :class:`CachedSource` runs a warehouse's statements
through the app's query cache (:func:`dashboards.store.query_many`).

Mandate 2038's metrics live in its room (:mod:`ingest.mandate2038.balance`, named by its
declaration's ``balance``), every game's in :mod:`ingest.balance`. The names below are kept
for the modules and tests that import them from here (``dashboards/mandate2038/balance.py``,
``cli/bench/pages.py``, the Balance tests): :class:`Source` is Mandate's, with the app's cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl

from dashboards.store import query_many
from ingest import balance
from ingest.balance import columns, for_count, run, run_many, study_path, study_tables
from ingest.mandate2038.balance import (
    _FACTION,
    _FS,
    _OPENINGS,
    _ORDER,
    _PART_KEYS,
    _PATHS,
    _PROFILE,
    _TOTALS,
    BOTS_ONLY,
    CLUSTER_SQL,
    ENTROPY_METRICS,
    METRICS,
    MIN_GAMES,
    NOT_RECORDED,
    _ctes,
    _grouped,
    _study_version,
    action_counts,
    clear_caches,
    deal_cte,
    dossier_counts,
    forced_counts,
    games_by_count,
    leader_counts,
    matchup_counts,
    metrics,
    metrics_from_parts,
    opening_counts,
    outcome_counts,
    path_counts,
    prefetch,
    seat_counts,
    shares,
    split_grouped,
)
from ingest.mandate2038.balance import Source as _MandateSource


@dataclass(frozen=True)
class CachedSource(balance.Source):
    """:class:`ingest.balance.Source` whose warehouse statements go through the app's cache
    (and its page connection)."""

    def warehouse(self, statements: list[tuple[str, list[Any]]]) -> list[pl.DataFrame]:
        assert self.db is not None
        return query_many(self.db, [(sql, list(params)) for sql, params in statements])


@dataclass(frozen=True)
class Source(CachedSource, _MandateSource):
    """Mandate 2038's source (a study folder's ``seat_balance``) with the app's cache."""


__all__ = [
    "BOTS_ONLY", "CLUSTER_SQL", "ENTROPY_METRICS", "METRICS", "MIN_GAMES", "NOT_RECORDED",
    "CachedSource", "Source", "_FACTION", "_FS", "_OPENINGS", "_ORDER", "_PART_KEYS", "_PATHS",
    "_PROFILE", "_TOTALS", "_ctes", "_grouped", "_study_version", "action_counts",
    "clear_caches", "columns", "deal_cte", "dossier_counts", "for_count", "forced_counts",
    "games_by_count", "leader_counts", "matchup_counts", "metrics", "metrics_from_parts",
    "opening_counts", "outcome_counts", "path_counts", "prefetch", "run", "run_many",
    "seat_counts", "shares", "split_grouped", "study_path", "study_tables",
]
