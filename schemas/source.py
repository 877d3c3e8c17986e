"""Where a printed component or a protocol question comes from: shared by every game's content
pack and by the observation protocols."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Source(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    seed: str | None = None  # e.g. "core rules §7 Build"
    ref: str | None = None  # e.g. "FACTS.md §2" or "data/game-config.json board.tiles"
    note: str | None = None  # e.g. a disagreement between seed and reference and how we resolved it
