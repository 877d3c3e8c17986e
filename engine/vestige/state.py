"""The Vestige game state the rules modules fold events into."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.replay import LedgerEntry, Outcome
from engine.vestige.content import CONTENT, Content
from schemas.findings import Finding
from schemas.vestige import Printed, VestigeHeader

DASH = ("potential", "influence", "conviction")


@dataclass(slots=True)
class CardState:
    """A card in a tableau (or a job tucked under one: see ``job``)."""

    name: str
    kind: str
    blocks: int = 0
    job: str | None = None  # the job card tucked under this character
    augmentations: list[str] = field(default_factory=list)
    attached_to: str | None = None  # augmentations: the contact they are tucked under
    leverage: int = 0  # leverage gained when it entered the tableau (lost if abandoned)


@dataclass(slots=True)
class SeatState:
    seat: int
    colour: str
    space: int | None = None
    speed: int = 2
    blocks: dict[str, int] = field(default_factory=dict)  # dashboard hexes and attributes
    cards: dict[str, CardState] = field(default_factory=dict)  # tableau (completed cards)
    regions: set[str] = field(default_factory=set)  # positions controlled
    leverage: int = 0
    set_up: bool = False
    # this turn
    used: dict[str, int] = field(default_factory=dict)  # main action -> times taken
    resets: set[str] = field(default_factory=set)
    boosted: bool = False
    activated: set[str] = field(default_factory=set)
    artifacts_used: set[str] = field(default_factory=set)
    controlled_now: set[str] = field(default_factory=set)
    visited_now: set[str] = field(default_factory=set)
    dove: bool = False  # a Black Dove visit this turn (ruling black-dove-repeat)
    dove_jobs: int = 0  # Black Dove resolutions not yet spent on a pickup this turn
    aug_used: dict[str, str] = field(default_factory=dict)  # contact -> augmentation used
    floating_credit: int = 0  # visits to Floating Stones not yet used to complete a job
    rolls: list[str] = field(default_factory=list)
    rolling_for: str | None = None
    # whole game
    triggers: set[int] = field(default_factory=set)
    covert_draws: set[int] = field(default_factory=set)
    covert_held: int = 0
    covert_named: set[str] = field(default_factory=set)
    covert_flipped: set[str] = field(default_factory=set)
    covert_flips: int = 0
    end_covert: int = 0
    pending_triggers: set[int] = field(default_factory=set)
    #: this turn, before its move: a finding about where the pawn stands (a visit away from
    #: it), the first sign of a move line that may be missing (slips.move_sign)
    turn_doubt: Finding | None = None
    #: this turn: (finding, card) of a card used that is not in the tableau (its draw line may
    #: be the one missing: turns.end_turn)
    card_doubt: tuple[Finding, str] | None = None
    #: this turn: action -> the reset-unused finding of a reset before it was taken
    reset_unused: dict[str, Finding] = field(default_factory=dict)
    covert_due: set[int] = field(default_factory=set)  # magenta triggers awaiting the draw
    turns: int = 0

    def on_cards(self) -> int:
        return sum(c.blocks for c in self.cards.values())

    def total_blocks(self) -> int:
        return sum(self.blocks.values()) + self.on_cards() + len(self.regions)


@dataclass(slots=True)
class NemesisState:
    name: str
    team: bool
    leverage: int = 0
    threats: list[str] = field(default_factory=list)
    regions: set[str] = field(default_factory=set)
    cards: list[str] = field(default_factory=list)
    turns: int = 0


@dataclass(slots=True)
class GameState:
    header: VestigeHeader
    seats: dict[int, SeatState]
    nemeses: dict[str, NemesisState]
    order: list[int]  # clockwise from the starting player
    partial: bool
    printed: dict[str, Printed] = field(default_factory=dict)
    map: dict[str, str] = field(default_factory=dict)  # position -> region, as known
    face_up: set[str] = field(default_factory=set)
    controller: dict[str, int | str] = field(default_factory=dict)  # position -> seat / nemesis
    display: dict[str, str] = field(default_factory=dict)  # stack -> face-up card (jobs)
    display_taken: set[str] = field(default_factory=set)  # face-up job taken, not yet replaced
    stack_top: dict[str, str] = field(default_factory=dict)  # job stack -> region its top shows
    #: job stack -> the region its top card showed when the face-up job was taken: that card is
    #: flipped into the empty place, so the replacement's back must show it (p. 14)
    flip_shows: dict[str, str] = field(default_factory=dict)
    shared: dict[tuple[int, str], set[int]] = field(default_factory=dict)  # co-op abilities
    team_controlled: set[str] = field(default_factory=set)  # co-op: regions this team turn
    market: list[str] = field(default_factory=list)  # chop bot market
    jobs: dict[str, tuple[int, str]] = field(default_factory=dict)  # job card -> (seat, assignee)
    round: int = 0
    turn_no: int = 0  # turns started this round
    active: int | None = None  # seat whose turn it is (co-op: None with team_turn)
    team_turn: bool = False
    took_turn: set[int] = field(default_factory=set)
    nemesis_done: set[str] = field(default_factory=set)
    endgame_active: list[str] = field(default_factory=list)
    endgame_met: list[str] = field(default_factory=list)
    setup_reveals: int = 0
    final_round: int | None = None
    triggers_reached: set[int] = field(default_factory=set)
    trigger_endgame: set[int] = field(default_factory=set)  # triggers whose card was revealed
    endgame_due: set[int] = field(default_factory=set)  # first reached, card not yet revealed
    severed: dict[str, int] = field(default_factory=dict)  # card lost to SEVER -> its seat
    supply_flagged: set[str] = field(default_factory=set)  # card kinds reported over supply
    recorded_goal: str | None = None  # FinalScoring.nemesis_goal, the table's record
    rulings: dict[str, str] = field(default_factory=dict)  # ruling id -> option (per replay)
    #: the component sheet of this replay: the declared values of the rulings in force
    content: Content = CONTENT
    event_rulings: set[str] = field(default_factory=set)  # ID=OPTION used by this event
    phase: str = "setup"  # setup, play, final_scoring, ended
    ended: bool = False
    final_done: bool = False
    closed: bool = False  # the end of the game was checked (once)
    outcome: Outcome | None = None
    ledger: list[LedgerEntry] = field(default_factory=list)
    declared_used: dict[str, int] = field(default_factory=dict)
    event_index: int | None = None
    pending_draw: tuple[int, str] | None = None  # (seat, stack) a visit calls for
    #: (seat, stack, line) of a card the active seat drew with no visit calling for it yet
    early_draw: tuple[int, str, int | None] | None = None
    last_cp: dict[int, int] = field(default_factory=dict)  # partial logs: seat -> leverage
    rows: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    names_seen: int = 0
    unrecorded: set[str] = field(default_factory=set)  # cards said to have no printed values
    #: the seat whose turn an action between turns began (slips.read_line): its own
    #: turn_start line, when it follows, starts nothing new
    implicit_start: int | None = None
    #: (the seat clockwise order expected, the finding) of a turn_start out of order: an action
    #: of the expected seat next shows the turn_start's seat number was the slip
    start_doubt: tuple[int, Finding] | None = None
    prev_event: Any = None  # the event before this one (a line written twice: slips.py)
    #: tiles the engine turned face up because a move did not record them (reveal-missing): a
    #: later move that flips one links to that finding (the table evidently had not flipped it)
    assumed_up: dict[str, Finding | int] = field(default_factory=dict)
    #: face-down tiles a missing or garbled move may have flipped -> the finding that says so
    tiles_doubt: dict[str, Finding | int] = field(default_factory=dict)
    #: lines that could not be read, already taken into account (slips.lost_lines)
    lines_lost: set[int] = field(default_factory=set)
    #: a mislabelled round_start (round/out-of-order): the next round may follow either count
    round_label: int | None = None

    def rest_on(self, name: str) -> None:
        """Note that a check rested on the declared value ``name`` (a ruling: the findings of
        this event name it, ``Finding.rulings``)."""
        self.declared_used[name] = self.declared_used.get(name, 0) + 1
        option = self.rulings.get(name)
        if option is not None:
            self.event_rulings.add(f"{name}={option}")

    def row(self, table: str, **values: object) -> None:
        self.rows.setdefault(table, []).append({"round": self.round or None, **values})

    def pawns(self, but: int | None = None) -> frozenset[int]:
        return frozenset(s.space for s in self.seats.values() if s.seat != but and s.space is not None)

    def owner(self, card: str) -> int | None:
        for s in self.seats.values():
            if card in s.cards:
                return s.seat
        return None
