"""The balance queries as the app runs them: :class:`CachedSource` runs a warehouse's statements
through the app's query cache (:func:`dashboards.store.query_many`). Every game's metrics are
:mod:`ingest.balance`'s; a game's own Balance section subclasses this source with its own (Mandate
2038's: ``dashboards/mandate2038/balance.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl

from dashboards.store import query_many
from ingest import balance


@dataclass(frozen=True)
class CachedSource(balance.Source):
    """:class:`ingest.balance.Source` whose warehouse statements go through the app's cache
    (and its page connection)."""

    def warehouse(self, statements: list[tuple[str, list[Any]]]) -> list[pl.DataFrame]:
        assert self.db is not None
        return query_many(self.db, [(sql, list(params)) for sql, params in statements])


def clear_caches() -> None:
    """Forget every cached balance result, every game's (the benchmark's "cold" runs)."""
    balance.clear_caches()


__all__ = ["CachedSource", "clear_caches"]
