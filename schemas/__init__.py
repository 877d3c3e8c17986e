"""Pydantic models of the toolkit: game logs, findings, content packs, protocols.

Nothing here does I/O. ``LOG_MODELS`` maps a game id (a header's ``game``) to its log model;
:func:`log_model` looks one up.
"""

from pydantic import BaseModel

from schemas.findings import Finding, Where
from schemas.log import BaseHeader, SessionType
from schemas.mandate2038 import MandateLog
from schemas.vestige import VestigeLog

LOG_MODELS: dict[str, type[BaseModel]] = {"mandate2038": MandateLog, "vestige": VestigeLog}


def log_model(game: str) -> type[BaseModel] | None:
    """The log model of ``game`` (None for a game the toolkit does not know)."""
    return LOG_MODELS.get(game)


__all__ = ["LOG_MODELS", "BaseHeader", "Finding", "MandateLog", "SessionType", "VestigeLog",
           "Where", "log_model"]
