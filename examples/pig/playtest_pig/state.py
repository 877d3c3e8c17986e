"""The state of a game of Pig during replay (mutated in place by ``apply``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.api import LedgerEntry


@dataclass(slots=True)
class TurnRecord:
    """One turn as played: its rolls and how it ended (a row of ``pig_turns``)."""

    seat: int
    round: int
    number: int  # the game's turn number, 1..
    rolls: list[int] = field(default_factory=list)
    ended: str | None = None  # "hold", "pig_out", or None while the turn goes on
    banked: int = 0
    score_after: int = 0
    first_event: int | None = None


@dataclass(slots=True)
class GameState:
    header: Any
    seats: tuple[int, ...]
    target: int
    end_rule: str  # "immediate" (§4.1) or "equal_turns" (§4.2)
    first_player: int
    scores: dict[int, int]
    active: int  # the seat on turn (§3.6)
    turn_total: int = 0  # §3.1
    rolled: bool = False  # the seat on turn has rolled in this turn (§3.5)
    pigged_out: int | None = None  # the seat whose turn just ended on a 1 (§3.2)
    turn_no: int = 1
    round: int = 1
    reached: int | None = None  # the turn number in which a seat first reached the target
    last_turn: int | None = None  # equal turns (§4.2): the last turn number of the game
    over: bool = False  # the rules have ended the game (§4)
    closed: bool = False  # the record is closed: the final record or the game_end phase
    after_end_reported: bool = False
    final_recorded: bool = False
    ending: str | None = None
    winners: list[int] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)
    event_index: int | None = None
    rulings: dict[str, str] = field(default_factory=dict)  # ruling id -> option in force

    @property
    def current(self) -> TurnRecord:
        """The record of the turn being played (opened on first use)."""
        if not self.turns or self.turns[-1].number != self.turn_no:
            self.turns.append(TurnRecord(seat=self.active, round=self.round,
                                         number=self.turn_no, first_event=self.event_index))
        return self.turns[-1]
