"""Pydantic models of the toolkit: game logs, findings, content packs, protocols.

Nothing here does I/O. ``LOG_MODELS`` maps a game id to its log model.
"""

from schemas.findings import Finding, Where
from schemas.log import BaseHeader, SessionType
from schemas.mandate2038 import MandateLog

LOG_MODELS = {"mandate2038": MandateLog}

__all__ = ["LOG_MODELS", "BaseHeader", "Finding", "MandateLog", "SessionType", "Where"]
