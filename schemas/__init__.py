"""Pydantic models of the toolkit: game logs, findings, content packs, protocols.

Nothing here does I/O, and nothing here knows a game: each game's models live in its own
subpackage (``schemas/mandate2038/``, ``schemas/vestige/``) or its own package, and a game's log
model is its declaration's ``log_model`` (``engine.core.registry.get_ruleset(game).log_model``).
"""

from __future__ import annotations

from schemas.findings import Finding, Where
from schemas.log import BaseHeader, SessionType

__all__ = ["BaseHeader", "Finding", "SessionType", "Where"]
