"""Pydantic models of the toolkit: game logs, findings, content packs, protocols.

Nothing here does I/O. ``LOG_MODELS`` maps a game id (a header's ``game``) to its log model, as
each registered game declares it (``log_model``, engine/core/registry.py); :func:`log_model`
looks one up. The registry is consulted when first asked, so importing ``schemas`` does not load
the engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from pydantic import BaseModel

from schemas.findings import Finding, Where
from schemas.log import BaseHeader, SessionType
from schemas.mandate2038 import MandateLog
from schemas.vestige import VestigeLog


class _LogModels(Mapping[str, type[BaseModel]]):
    """Game id -> log model of every registered game (read from the registry on each use)."""

    def _table(self) -> dict[str, type[BaseModel]]:
        from engine.core.registry import rulesets

        return {game: rs.log_model for game, rs in rulesets().items()}

    def __getitem__(self, game: str) -> type[BaseModel]:
        return self._table()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def __repr__(self) -> str:
        return f"LOG_MODELS({self._table()!r})"


LOG_MODELS: Mapping[str, type[BaseModel]] = _LogModels()


def log_model(game: str) -> type[BaseModel] | None:
    """The log model of ``game`` (None for a game no installed package declares)."""
    return LOG_MODELS.get(game)


__all__ = ["LOG_MODELS", "BaseHeader", "Finding", "MandateLog", "SessionType", "VestigeLog",
           "Where", "log_model"]
