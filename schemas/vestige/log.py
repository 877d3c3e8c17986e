"""The canonical game log of Vestige (rulebook ``shared/seeds/003_e5f8d543c73887da.txt``).

Vocabulary (used by every format, the engine and the notation):

* **Seats** are numbered 1..N clockwise around the table; ``faction`` in the header's seat is the
  player's colour (blue, green, purple, orange).
* **Region positions** name the 19 tile places of the map mat by ring: ``C`` (centre),
  ``I1``..``I6`` and ``O1``..``O12`` (the same axial order as Mandate 2038's map). The map mat's
  printed layout is not in the rulebook: this naming is a *declared* geometry
  (``data/content/vestige/declared.json``).
* **Spaces** are the triangular spaces between tiles where pawns stand, numbered 1..54 (the
  corners of the 19 hexes, in the declared geometry). ``path[0]`` of a move is where the pawn
  starts; every later entry is one step to a neighbouring space.
* **Blocks** are located by a string: ``potential``, ``influence``, ``conviction``, an attribute
  (``ambition``, ``cunning``, ``might``, ``guile``, ``intrigue``, ``ingenuity``),
  ``card:<name>`` (on a card in the tableau) or ``region:<position>`` (controlling a tile).
* **Cards are recorded, not known.** A card is logged by name with the printed values a rule
  needs (``card`` events, or ``printed`` on the ``draw`` that first shows it) the first time it
  appears; a later event that contradicts them is a finding. A card's ability is logged as its
  effect (``effect``: which blocks moved where, leverage gained).

Every event may carry ``t`` (wall-clock time) and ``comment`` (free text kept verbatim). The
engine computes consequences; the log records decisions, chance outcomes and, optionally, the
table's own values (``checkpoint``, ``final_scoring``) to compare.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from schemas.events import Event as _Event
from schemas.events import Observation, PhaseMarker, SurveyAnswer
from schemas.log import LOG_FORMAT, LOG_FORMAT_VERSION, BaseHeader, Frozen, Strict

GAME_ID = "vestige"
RULES_VERSION = "rulebook-1"

SeatNo = Annotated[int, Field(ge=1, le=6)]
Position = Annotated[str, Field(pattern=r"^(C|I[1-6]|O([1-9]|1[0-2]))$")]
Space = Annotated[int, Field(ge=1, le=54)]
Loc = Annotated[
    str,
    Field(pattern=r"^(potential|influence|conviction|ambition|cunning|might|guile|intrigue|"
                  r"ingenuity|card:.+|region:(C|I[1-6]|O([1-9]|1[0-2])))$"),
]
CardName = Annotated[str, Field(min_length=1, max_length=80)]

Mode = Literal["competitive", "team", "solo", "coop"]
Difficulty = Literal["nuisance", "menace"]
Primary = Literal["ambition", "cunning", "might"]
Attribute = Literal["ambition", "cunning", "might", "guile", "intrigue", "ingenuity"]
Dash = Literal["potential", "influence", "conviction"]
JobType = Literal["artifact", "augmentation", "bounty"]
ContactType = Literal["lawmaker", "mercenary", "smuggler"]
CardKind = Literal[
    "lawmaker", "mercenary", "smuggler", "chop_bot", "artifact", "augmentation", "bounty",
    "covert_op", "endgame", "threat", "setup", "nemesis",
]
Colour = Literal["ambition", "cunning", "might", "guile", "intrigue", "ingenuity", "chop_bot"]
DieFace = Literal["upgrade", "efficient", "strain", "sever"]
MainAction = Literal["activate", "move", "visit", "job"]
Stack = Literal[
    "lawmaker", "mercenary", "smuggler", "chop_bot", "artifact", "augmentation", "bounty",
    "covert_op",
]
RegionId = Literal[
    # base game (rulebook: Base Game Map Regions)
    "archives", "black_dove", "black_market", "trench", "chop_shop", "garage", "generator",
    "scrapyard", "jump_point", "lawmaker_ridge", "mercenary_camp", "smugglers_lair", "oasis",
    "obelisk", "observatory", "underground",
    # Map Regions Module: Extra Regions
    "bridge", "floating_stones", "rise", "den", "refugee_camp", "white_raven",
    "deserted_factory", "ring", "wound",
]
Module = Literal["extra_regions", "contact_locations"]

REGION_POSITIONS: tuple[str, ...] = ("C",) + tuple(f"I{i}" for i in range(1, 7)) + tuple(
    f"O{i}" for i in range(1, 13)
)
PRIMARIES: tuple[str, ...] = ("ambition", "cunning", "might")
SECONDARIES: tuple[str, ...] = ("guile", "intrigue", "ingenuity")
ATTRIBUTES: tuple[str, ...] = PRIMARIES + SECONDARIES


class NemesisInfo(Strict):
    """One nemesis at the table (up to 3; rulebook p. 26)."""

    name: str = Field(min_length=1)  # e.g. "bone", "dunecrest", "happy"
    team: bool = False  # plays as part of the nemesis team (solo/co-op: combine leverage)


class VestigeHeader(BaseHeader):
    """Header of a Vestige log."""

    game: Literal["vestige"] = "vestige"
    rules_version: str = RULES_VERSION
    mode: Mode = "competitive"
    teams: list[list[SeatNo]] | None = None  # team mode: the seats of each team
    nemeses: list[NemesisInfo] = Field(default_factory=list, max_length=3)
    difficulty: Difficulty | None = None  # nemesis threat resolution (p. 26)
    modules: list[Module] = Field(default_factory=list)
    map: dict[Position, RegionId] | None = None  # position -> region; None when not recorded
    first_player: SeatNo | None = None
    # the unclear-rule options (data/content/vestige/rulings/<rules_version>.json): a set name
    # and/or ID=OPTION pairs, e.g. "black-dove-repeat=adjacency-waiver"; None: the defaults
    rulings: str | None = None


# --- cards: recorded, not known -----------------------------------------------------------


class Printed(Frozen):
    """The printed values of one card that a rule needs (recorded at first appearance)."""

    kind: CardKind
    colour: Colour | None = None  # mastery colour
    leverage: int | None = None  # leverage gained when it enters the tableau (bounty: at end)
    attributes: list[Attribute] = Field(default_factory=list)  # gained on activation; chop
    #   bots: the primary attributes offered (one is chosen)
    jobs: list[JobType] = Field(default_factory=list)  # job specialities (top right)
    pickup: RegionId | None = None  # job cards: where the job is picked up (card back)
    complete_at: RegionId | None = None  # job cards: where the job is completed
    cost: dict[Attribute, int] | None = None  # job cards: attribute cost of completing
    passive_at: int | None = Field(default=None, ge=1)  # chop bots: blocks for the passive
    nemesis: str | None = None  # threat cards: whose column it joins


class CardRecord(_Event):
    """First appearance of a card with its printed values (cards are recorded, not known)."""

    type: Literal["card"] = "card"
    name: CardName
    printed: Printed


# --- setup ----------------------------------------------------------------------------------


class Blocks(Frozen):
    """Where a seat's 20 blocks stand (the speed counter is not a block here)."""

    potential: int = Field(default=8, ge=0, le=20)
    influence: int = Field(default=8, ge=0, le=20)
    conviction: int = Field(default=0, ge=0, le=20)
    attributes: dict[Attribute, int] = Field(default_factory=dict)
    cards: dict[CardName, int] = Field(default_factory=dict)


class Phase(PhaseMarker):
    """A timing marker: ``setup`` .. ``setup_end``, ``final_scoring``, ``game_end``."""

    name: Literal["setup", "setup_end", "final_scoring", "game_end", "break", "resume"]


class SeatSetup(_Event):
    """5-Minute Setup, steps 1 and 3: colour, setup card, starting space, starting chop bot and
    the placement of all 20 blocks (8 influence and 8 potential per the rulebook; where the
    setup card puts the other 4 is recorded here)."""

    type: Literal["seat_setup"] = "seat_setup"
    seat: SeatNo
    setup_card: str | None = None
    start: Space
    chop_bot: CardName | None = None
    blocks: Blocks = Field(default_factory=Blocks)
    speed: int = Field(default=2, ge=0, le=12)


class TileReveal(Frozen):
    position: Position
    region: RegionId


class Reveal(_Event):
    """Face-down region tiles flipped face up (setup, nemesis setup, or when a pawn comes next
    to them; a ``move`` records its own flips in ``reveals``)."""

    type: Literal["reveal"] = "reveal"
    tiles: list[TileReveal]


class Display(_Event):
    """A card flipped face up next to its stack or into the chop bot market."""

    type: Literal["display"] = "display"
    stack: Stack
    card: CardName
    printed: Printed | None = None


class StackTop(_Event):
    """Chance: the top card of a job stack now shows where jobs of that type are found
    (Picking Up Jobs, p. 14: "The top card of each card stack indicates where on the map you can
    currently find jobs of that type"). Recorded whenever the top card changes: at setup after
    the face-up card is flipped, and after every pickup."""

    type: Literal["stack_top"] = "stack_top"
    stack: JobType
    region: RegionId


class EndgameReveal(_Event):
    """An endgame condition card revealed (setup: one face up; later: at a trigger point)."""

    type: Literal["endgame_reveal"] = "endgame_reveal"
    card: CardName
    trigger: int | None = Field(default=None, ge=1, le=5)  # None: the setup reveal


# --- rounds and turns -----------------------------------------------------------------------


class RoundStart(_Event):
    type: Literal["round_start"] = "round_start"
    round: int = Field(ge=1)


class TurnStart(_Event):
    """A seat's turn begins (co-op: ``seat`` None is the shared team turn)."""

    type: Literal["turn_start"] = "turn_start"
    seat: SeatNo | None = None


class TurnEnd(_Event):
    type: Literal["turn_end"] = "turn_end"
    seat: SeatNo | None = None


# --- main actions ---------------------------------------------------------------------------


class Activate(_Event):
    """Activate (p. 11): one influence onto a contact or chop bot; gain its attributes
    (``gain``; a chop bot: the one primary chosen). ``augmentation``: the one used this turn."""

    type: Literal["activate"] = "activate"
    seat: SeatNo
    card: CardName
    gain: list[Attribute] = Field(default_factory=list)
    augmentation: CardName | None = None
    # co-op shared card effects (p. 29): the consenting teammate who gains the attributes, and
    # the one who may use the ability this turn (both: "give it all"; one: "split it")
    attributes_to: SeatNo | None = None
    ability_to: SeatNo | None = None


class Move(_Event):
    """Move (p. 12, mandatory): ``path`` from the start space, one step per entry; ``reveals``
    the face-down tiles flipped on the way."""

    type: Literal["move"] = "move"
    seat: SeatNo
    path: list[Space] = Field(min_length=1, max_length=16)
    reveals: list[TileReveal] = Field(default_factory=list)


class CardBlocks(Frozen):
    card: CardName
    n: int = Field(ge=1)


class Visit(_Event):
    """Visit (p. 13): resolve the effect of an adjacent region tile. ``times``: how often a
    colon (repeatable) effect was resolved. What the effect needs is recorded in the other
    fields (see docs/vestige.md): ``gain``/``spend`` attributes, ``upgrades``/``downgrades``
    (the hex a block leaves), ``returns`` (Oasis), ``charges`` (Generator), ``contact`` (the
    Underground), ``source`` (Chop Shop: market or stack)."""

    type: Literal["visit"] = "visit"
    seat: SeatNo
    position: Position
    region: RegionId | None = None
    times: int = Field(default=1, ge=0, le=20)
    gain: list[Attribute] = Field(default_factory=list)
    spend: list[Attribute] = Field(default_factory=list)
    upgrades: list[Dash] = Field(default_factory=list)
    downgrades: list[Dash] = Field(default_factory=list)
    returns: list[CardBlocks] = Field(default_factory=list)
    charges: list[CardBlocks] = Field(default_factory=list)
    contact: ContactType | None = None
    source: Literal["market", "stack"] | None = None
    swap: Position | None = None  # Jump Point on control: the other tile
    # what the table paid for an effect whose cost the other fields imply (Lawmaker Ridge,
    # Mercenary Camp, Smugglers' Lair, the Underground, the Chop Shop, the Garage, the
    # Observatory, the Oasis): attribute or ``conviction`` -> blocks; None: as the rules say
    pay: dict[str, int] | None = None
    leverage: int | None = None  # the leverage the table gave the region's controller


class Rest(_Event):
    """Rest (p. 13): no visit; upgrade one block leaving hex ``upgrade``."""

    type: Literal["rest"] = "rest"
    seat: SeatNo
    upgrade: Literal["potential", "influence"]


class Draw(_Event):
    """Chance: the card(s) drawn from a stack for the seat (``drawn``, after any surveil), and
    the one it keeps (``card``). ``printed`` records the kept card at its first appearance."""

    type: Literal["draw"] = "draw"
    seat: SeatNo
    stack: Stack
    card: CardName
    drawn: list[CardName] = Field(default_factory=list)
    surveil: int = Field(default=0, ge=0, le=10)  # conviction spent on surveil (2 more each)
    printed: Printed | None = None
    source: Literal["stack", "market", "display"] = "stack"


class Pickup(_Event):
    """Pickup a job (p. 14): at the tile the stack indicates (``at``), onto a capable contact or
    chop bot with no other job (``assignee``). ``dove``: taken through The Black Dove."""

    type: Literal["pickup"] = "pickup"
    seat: SeatNo
    stack: JobType
    card: CardName
    at: Position | None = None
    assignee: CardName
    face_up: bool = False
    dove: bool = False


class Roll(_Event):
    """Chance: one roll of the outcome die for a job completion. ``reroll``: paid with 1
    conviction (bonus action, p. 16)."""

    type: Literal["roll"] = "roll"
    seat: SeatNo
    face: DieFace
    reroll: bool = False
    conviction: int | None = Field(default=None, ge=0, le=20)  # paid for a reroll (None: 1)


class Complete(_Event):
    """Complete a job (p. 15): die first (``roll`` events; ``face`` is the result chosen), then
    the attribute cost ``pay``; the card enters the tableau (artifact: ``charges`` 1-3;
    augmentation: ``attach_to`` a contact or standalone). ``upgrade`` is the hex the block
    leaves on an UPGRADE result. ``free``: completed "for free" by an effect (no die, no cost)."""

    type: Literal["complete"] = "complete"
    seat: SeatNo
    card: CardName
    face: DieFace | None = None
    pay: dict[Attribute, int] = Field(default_factory=dict)
    upgrade: Literal["potential", "influence"] | None = None
    charges: int = Field(default=0, ge=0, le=20)  # the engine checks the 1-3 (p. 22)
    attach_to: CardName | None = None
    free: bool = False
    floating: bool = False  # completed by visiting Floating Stones


# --- bonus actions --------------------------------------------------------------------------


class Convert(_Event):
    """Convert (p. 9): two different primaries into the secondary between them."""

    type: Literal["convert"] = "convert"
    seat: SeatNo
    spend: list[Attribute] = Field(min_length=1, max_length=2)  # anything but two different
    #   primaries is a finding
    into: Attribute | None = None
    split: list[Attribute] = Field(default_factory=list, max_length=2)  # a secondary split back
    #   into these primaries (recorded as the table did it; never allowed, p. 9)


class Recover(_Event):
    """Recover influence (p. 16): ``n`` blocks from ``source`` back to influence. From a card,
    the card is abandoned (its leverage lost); ``reassign`` moves its job to another card."""

    type: Literal["recover"] = "recover"
    seat: SeatNo
    source: Loc
    n: int = Field(default=1, ge=1, le=20)
    reassign: CardName | None = None


class Control(_Event):
    """Gain control of a region (p. 17): 1 conviction, or 2 to take it over."""

    type: Literal["control"] = "control"
    seat: SeatNo
    position: Position
    swap: Position | None = None  # Jump Point: the tile it swaps with
    pay: int | None = Field(default=None, ge=0, le=20)  # conviction paid (None: as the rules)


class SpeedBoost(_Event):
    """Temporary speed boost (p. 12): downgrade a block (``downgrade`` is the hex it leaves),
    +2 speed this turn, once per turn."""

    type: Literal["speed_boost"] = "speed_boost"
    seat: SeatNo
    downgrade: Literal["influence", "conviction"] | None = None  # None: none was made


class Reset(_Event):
    """Reset a main action (p. 16): 1 conviction; each action at most once per turn."""

    type: Literal["reset"] = "reset"
    seat: SeatNo
    action: MainAction


class BlocksAdded(_Event):
    """Blocks the table put into play from nothing (recorded as done: a seat has 20 blocks,
    p. 8, and never gains more)."""

    type: Literal["blocks_added"] = "blocks_added"
    seat: SeatNo
    dst: Loc
    n: int = Field(default=1, ge=1, le=20)
    reason: str | None = None


class BlockMove(Frozen):
    src: Loc
    dst: Loc
    n: int = Field(default=1, ge=1, le=20)


class Effect(_Event):
    """A card's ability resolved, logged as its effect: block ``moves`` and ``leverage``.
    ``via``: ``contact`` (active this turn), ``chop_bot`` (passive), ``artifact`` (one charge,
    once per turn), ``augmentation``, ``region`` (a module region's effect), ``threat``."""

    type: Literal["effect"] = "effect"
    seat: SeatNo
    card: CardName
    via: Literal["contact", "chop_bot", "artifact", "augmentation", "region", "threat"]
    moves: list[BlockMove] = Field(default_factory=list)
    leverage: int = 0
    gain_card: CardName | None = None  # a card the effect adds to the tableau
    owner: SeatNo | None = None  # co-op: the teammate whose card it is (shared effect, p. 29)


class Attach(_Event):
    """Attach an augmentation to a contact, or remove it (next to the Chop Shop), p. 23."""

    type: Literal["attach"] = "attach"
    seat: SeatNo
    card: CardName
    to: CardName | None = None  # None: removed to stand alone


class CovertOp(_Event):
    """Covert ops (p. 24): ``draw`` one (setup or a magenta trigger; the name may stay secret),
    ``flip`` one whose objective is met (reward ``leverage``)."""

    type: Literal["covert_op"] = "covert_op"
    seat: SeatNo
    action: Literal["draw", "flip"]
    card: CardName | None = None
    trigger: int | None = Field(default=None, ge=1, le=5)
    leverage: int = Field(default=0, ge=0)


class Transfer(_Event):
    """Co-op card transfer (p. 29): no blocks on it, pawns adjacent."""

    type: Literal["transfer"] = "transfer"
    seat: SeatNo
    to: SeatNo
    card: CardName


# --- leverage track, endgame, nemeses -------------------------------------------------------


class Trigger(_Event):
    """A human scoring disc reached or passed trigger ``point`` (1..5); what its stack revealed:
    the endgame condition card, threat cards. ``nemesis``: the table let a nemesis's disc
    trigger it (recorded as done; nemesis discs do not trigger, p. 26)."""

    type: Literal["trigger"] = "trigger"
    seat: SeatNo | None = None
    nemesis: str | None = None
    point: int = Field(ge=1, le=5)
    endgame: CardName | None = None
    threats: list[CardName] = Field(default_factory=list)


class EndgameMet(_Event):
    """An active endgame condition is met (flipped face down; it can never be unmet)."""

    type: Literal["endgame_met"] = "endgame_met"
    card: CardName


class NemesisTurn(_Event):
    """A nemesis turn after the players (p. 26): ``threat`` level resolved (Nuisance: that
    level; Menace: it and every level below). ``leverage``: what it gained; ``cards``: cards it
    gained; ``control``: regions it took."""

    type: Literal["nemesis_turn"] = "nemesis_turn"
    nemesis: str
    threat: int = Field(ge=0, le=12)
    leverage: int = 0
    cards: list[CardName] = Field(default_factory=list)
    control: list[Position] = Field(default_factory=list)


class NemesisGain(_Event):
    """A nemesis's triggered ability or a threat's "immediately" effect (e.g. Bone gains 1
    leverage when a human gains control of a region)."""

    type: Literal["nemesis_gain"] = "nemesis_gain"
    nemesis: str
    leverage: int = 0
    cards: list[CardName] = Field(default_factory=list)
    control: list[Position] = Field(default_factory=list)
    reason: str | None = None


class ThreatRemoved(_Event):
    type: Literal["threat_removed"] = "threat_removed"
    seat: SeatNo
    nemesis: str
    card: CardName


class FinalSeat(Frozen):
    """One seat's (or nemesis's) endgame scoring as the table wrote it; present fields are
    compared with the engine's."""

    seat: SeatNo | None = None
    nemesis: str | None = None
    covert_ops: int | None = None
    bounties: int | None = None
    regions: int | None = None
    mastery: list[Colour] | None = None
    mastery_leverage: int | None = None
    total: int | None = None


class FinalScoring(_Event):
    """Endgame scoring (p. 25) as recorded: per seat, and who won (empty: nobody, a tie)."""

    type: Literal["final_scoring"] = "final_scoring"
    scores: list[FinalSeat] = Field(default_factory=list)
    winners: list[str] | None = None  # "1", "2", ... seats; nemesis names; "team:1"; []
    nemesis_goal: str | None = None  # a nemesis whose unique goal was met


class SeatValues(Frozen):
    seat: SeatNo | None = None
    nemesis: str | None = None
    leverage: int | None = None
    potential: int | None = None
    influence: int | None = None
    conviction: int | None = None
    attributes: dict[Attribute, int] | None = None
    speed: int | None = None


class Checkpoint(_Event):
    """The table's recorded values. A mismatch is reported once and replay continues from the
    table's value. Partial logs (``detail: partial``) may record only these, e.g. leverage at
    the end of every round."""

    type: Literal["checkpoint"] = "checkpoint"
    label: str | None = None
    round: int | None = Field(default=None, ge=1)
    seats: list[SeatValues]


VestigeEvent = Annotated[
    CardRecord
    | Phase
    | SeatSetup
    | Reveal
    | Display
    | EndgameReveal
    | StackTop
    | RoundStart
    | TurnStart
    | TurnEnd
    | Activate
    | Move
    | Visit
    | Rest
    | Draw
    | Pickup
    | Roll
    | Complete
    | Convert
    | Recover
    | Control
    | SpeedBoost
    | Reset
    | Effect
    | BlocksAdded
    | Attach
    | CovertOp
    | Transfer
    | Trigger
    | EndgameMet
    | NemesisTurn
    | NemesisGain
    | ThreatRemoved
    | FinalScoring
    | Checkpoint
    | Observation
    | SurveyAnswer,
    Field(discriminator="type"),
]

EVENT_MODELS: tuple[type[_Event], ...] = (
    CardRecord, Phase, SeatSetup, Reveal, Display, EndgameReveal, StackTop, RoundStart,
    TurnStart, TurnEnd, Activate, Move, Visit, Rest, Draw, Pickup, Roll, Complete, Convert,
    Recover, Control, SpeedBoost, Reset, Effect, BlocksAdded, Attach, CovertOp, Transfer,
    Trigger, EndgameMet, NemesisTurn, NemesisGain, ThreatRemoved, FinalScoring, Checkpoint, Observation, SurveyAnswer,
)
EVENT_ADAPTER: TypeAdapter[VestigeEvent] = TypeAdapter(VestigeEvent)
EVENTS_ADAPTER: TypeAdapter[list[VestigeEvent]] = TypeAdapter(list[VestigeEvent])
EVENT_TYPES: frozenset[str] = frozenset(str(m.model_fields["type"].default) for m in EVENT_MODELS)
BONUS_TYPES: frozenset[str] = frozenset(
    {"convert", "recover", "control", "speed_boost", "reset", "effect", "attach", "covert_op",
     "transfer", "blocks_added"}
)
MAIN_TYPES: dict[str, MainAction] = {
    "activate": "activate", "move": "move", "visit": "visit", "rest": "visit", "pickup": "job",
    "complete": "job",
}


class VestigeLog(Strict):
    """A whole Vestige game log: the canonical JSON document."""

    format: Literal["playtest-log"] = LOG_FORMAT
    format_version: Literal[1] = LOG_FORMAT_VERSION
    header: VestigeHeader
    events: list[VestigeEvent] = Field(default_factory=list)
