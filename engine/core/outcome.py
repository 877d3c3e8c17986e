"""How a game ended (:class:`Outcome`), as the replay reports it (engine.core.replay).

A module of its own so that the optional compiled engine (setup.py, docs/engine.md) can compile
engine/core/replay.py: mypyc cannot compile a pydantic model's class."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class Outcome(BaseModel):
    """How a game ended, as far as the log allows.

    * competitive: ``winners`` are the winning seats; a tie where everybody loses is
      ``winners == []`` with ``ending == "tie"``;
    * team: ``winners`` are the seats of ``winning_team``;
    * coop and solo (the players against the game): ``result`` is ``"won"`` or
      ``"lost"``; when won, ``winners`` are every seat.
    ``details`` holds what is particular to the game (its own warehouse columns).
    """

    complete: bool = False  # the log reaches final scoring
    provisional_winners: list[int] = Field(default_factory=list)
    winners: list[int] = Field(default_factory=list)
    ending: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)
    mode: Literal["competitive", "team", "coop", "solo"] = "competitive"
    winning_team: str | None = None
    result: Literal["won", "lost"] | None = None  # coop and solo: against the game
