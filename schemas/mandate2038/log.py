"""The canonical game log of Mandate 2038 (rules 0.8.0-rc.17-test).

Vocabulary (used by every format, the engine and the notation):

* **Seats** are numbered 1..N clockwise around the table.
* **Hexes** are named by map position: ``F`` (Frontier, the centre), ``I1``..``I6`` (the
  operational ring) and ``O1``..``O12`` (the public ring), in the axial order of the designers'
  executable (FACTS.md §2): I1=(1,0), I2=(0,1), I3=(-1,1), I4=(-1,0), I5=(0,-1), I6=(1,-1);
  O1=(2,0), O2=(1,1), O3=(0,2), O4=(-1,2), O5=(-2,2), O6=(-2,1), O7=(-2,0), O8=(-1,-1),
  O9=(0,-2), O10=(1,-2), O11=(2,-2), O12=(2,-1).
* **Pieces**: ``ceo`` or ``team``. A moved piece is identified by its ``path``: ``path[0]`` is the
  hex it starts on, each later entry one step (0, 1 or 2 steps in an ordinary move).
* **Facilities** are numbered 1..4 per seat (built in that order). Joint Ventures and
  Mega-Clusters are identified by their matched contract number.
* Content ids (tiles, factions, Headlines, Era Mandates, Training cards, Programs) are those of
  the content pack ``data/content/mandate2038/``.

Every event may carry ``t`` (wall-clock time) and ``comment`` (free text kept verbatim).
The engine computes consequences; the log records decisions, chance outcomes and, optionally,
the table's own values (``checkpoint``, ``era_mandate.scorers``, ``final_record``) to compare.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, model_validator

from schemas.events import Event as _Event
from schemas.events import Observation, PhaseMarker, SurveyAnswer
from schemas.log import LOG_FORMAT, LOG_FORMAT_VERSION, BaseHeader, Frozen, Strict

GAME_ID = "mandate2038"
RULES_VERSION = "0.8.0-rc.17-test"

Hex = Annotated[str, Field(pattern=r"^(F|I[1-6]|O([1-9]|1[0-2]))$")]
SeatNo = Annotated[int, Field(ge=1, le=6)]
FacilityNo = Annotated[int, Field(ge=1, le=4)]
Piece = Literal["ceo", "team"]
CoreAction = Literal["fund", "research", "build", "organize", "deploy", "influence"]
ProgramId = Literal[
    "mega_cluster", "reorganization", "covenant", "narrative_capture", "agent_swarm", "fusion"
]
Resource = Literal["runway", "compute"]

HEX_POSITIONS: tuple[str, ...] = ("F",) + tuple(f"I{i}" for i in range(1, 7)) + tuple(
    f"O{i}" for i in range(1, 13)
)


class MandateHeader(BaseHeader):
    """Header of a Mandate 2038 log."""

    game: Literal["mandate2038"] = "mandate2038"
    rules_version: str = RULES_VERSION
    map: dict[Hex, str] | None = None  # position -> tile id; None when not recorded
    first_initiative: SeatNo | None = None
    paced_play: bool = False
    #: the ruling set this table played by (docs/engine.md "Rulings"): a set name, ID=OPTION
    #: pairs, or both, comma-separated; None: the defaults
    rulings: str | None = None

    @model_validator(mode="after")
    def _every_seat_plays_a_faction(self) -> MandateHeader:
        # core rules §1 Setup: each player takes a faction (the shared SeatInfo leaves it optional
        # for games without factions)
        missing = [s.seat for s in self.seats if s.faction is None]
        if missing:
            raise ValueError(f"seat(s) {missing} have no faction; every Mandate 2038 seat plays one")
        return self


# --- structure and timing -------------------------------------------------------------------


class Phase(PhaseMarker):
    """A timing marker. ``setup`` starts setup; ``setup_end`` ends it; ``production``,
    ``dossier``, ``audit``, ``scoring`` (Era Mandate), ``final_scoring`` and ``game_end`` mark
    the start of that part. Era starts are marked by ``era_start`` and cycles by ``headline``."""

    name: Literal[
        "setup", "setup_end", "production", "dossier", "audit", "scoring", "final_scoring",
        "game_end", "break", "resume",
    ]


class EraStart(_Event):
    """§6A: the Era begins and one Era Mandate is revealed from its three-card deck."""

    type: Literal["era_start"] = "era_start"
    era: int = Field(ge=1, le=4)
    mandate: str | None = None  # None when the log did not record which card


class HeadlineReveal(_Event):
    """§6B.1: a cycle begins with a Headline. Choices that the card calls for go here:
    ``action`` (The Court Adopts Supported Meaning: the named Core Action) and ``facility``
    (The Passive Citizen Dividend Activates: the Facility whose production resolves)."""

    type: Literal["headline"] = "headline"
    cycle: int = Field(ge=1, le=3)
    headline: str | None = None
    action: CoreAction | None = None
    facility: FacilityNo | None = None
    #: the seat the card's "lowest ... player" effect went to, when the table records it (a
    #: tie goes to the tied player nearest Initiative clockwise, §2 Universal tie rule):
    #: The Open Weights Drop (lowest Customers), The Passive Citizen Dividend (lowest Capability)
    target: SeatNo | None = None


class EmergencyPause(_Event):
    """Orisonix, Emergency Pause (Era IV, once per game): before selection, pay 1 Runway and
    name one unlocked Program that nobody may select this cycle; gain 2 Trust."""

    type: Literal["emergency_pause"] = "emergency_pause"
    seat: SeatNo
    program: ProgramId


class WindowOffer(Frozen):
    to: SeatNo
    price: int = Field(ge=0)
    answer: Literal["accept", "reject", "counter", "none"] = "none"
    counter_price: int | None = Field(default=None, ge=0)
    counter_accepted: bool | None = None


class AllocationWindow(_Event):
    """Corthaven, Allocation Window (Era II only, once): after the Headline and before
    selection, offer each of two temporary Compute to a rival for a Runway price."""

    type: Literal["allocation_window"] = "allocation_window"
    seat: SeatNo
    offers: list[WindowOffer] = Field(default_factory=list, max_length=2)


class Selection(Frozen):
    seat: SeatNo
    pick: CoreAction | ProgramId


class Reveal(_Event):
    """§2: every player's secret selection, revealed together."""

    type: Literal["reveal"] = "reveal"
    selections: list[Selection]
    #: The Metropolitan Mind Trust Incorporates: when two or more Core Actions tie for the most
    #: selected, "Initiative chooses among ties"; the Initiative holder's choice
    tie_choice: CoreAction | None = None


class Trade(_Event):
    """§6B: the acting player's one immediate 1-for-1 trade offer, just before resolving."""

    type: Literal["trade"] = "trade"
    seat: SeatNo
    rival: SeatNo
    give: Resource  # what the acting player gives; they receive one of the other resource
    accepted: bool


# --- turns: one event per resolved selection ------------------------------------------------


class OrbitalMove(Frozen):
    """Kestralyn, Orbital Compute: instead of moving the acting piece, move one Facility."""

    facility: FacilityNo
    to: Hex


class _Turn(_Event):
    type: str  # each turn event narrows it to its own Literal
    seat: SeatNo
    piece: Piece = "ceo"
    # [] = not recorded. Longer than 3 entries (2 steps) is illegal but recordable, so that the
    # engine can report move/too-far instead of rejecting the event (docs/notes/engine.md).
    path: list[Hex] = Field(default_factory=list, max_length=8)
    frontier_bonus: bool = False  # Frontier visit: after Act, gain 1 Runway and add 1 Scrutiny
    swarm: bool = False  # resolved as one of Agent Swarm's two actions (no own movement)
    orbital: OrbitalMove | None = None
    blocked: bool = False  # the table resolved it as blocked (exhausts without effect)


class Fund(_Turn):
    type: Literal["fund"] = "fund"
    mode: Literal["conservative", "venture"] = "conservative"


class Research(_Turn):
    """§7 Research: spend 1 Compute; the Training Run follows as ``draw`` events and ends with
    ``run_end``. ``breakthrough`` uses Mirevanta's Scaling-Law Breakthrough."""

    type: Literal["research"] = "research"
    breakthrough: bool = False


class Draw(_Event):
    """One Training card drawn during a run. ``domain`` is Curated Corpus's chosen domain."""

    type: Literal["draw"] = "draw"
    seat: SeatNo
    card: str
    domain: str | None = None


class RunEnd(_Event):
    """How the Training Run ended. ``bank``: stopped after a non-duplicate (or Human
    Evaluation); ``crash``: an unprotected duplicate; ``protect``: spent Research Protection on
    the duplicate and banked; ``method``: Mirevanta's Scientific Method (1 Runway) and banked.
    ``banked`` is the Capability the table banked, when written down."""

    type: Literal["run_end"] = "run_end"
    seat: SeatNo
    outcome: Literal["bank", "crash", "protect", "method"]
    banked: int | None = Field(default=None, ge=0)


class Build(_Turn):
    """§7 Build: ``facility`` (lowest-numbered unbuilt Facility on the destination) or
    ``generator`` (the ordinary Generator on an Energy destination, Era II+)."""

    type: Literal["build"] = "build"
    mode: Literal["facility", "generator"] = "facility"
    #: the number of the Facility built, when the table records it (§1 step 6, §7 Build: the
    #: lowest-numbered unbuilt Facility)
    facility: FacilityNo | None = None


class Step(Frozen):
    piece: Piece
    path: list[Hex] = Field(min_length=1)


class Organize(_Turn):
    """§7 Organize. ``recruit``: new Team(s) at the destination, then ``then`` moves one piece up
    to two more steps; ``redistribute``: ``moves`` of CEO/Teams, 5 steps combined; ``relocate``:
    move ``facility`` from the destination to adjacent ``to``. ``recruits`` > 1 only under
    The Last Hazard Shift Is Retired; ``return_teams`` lists the hexes of Teams returned under
    The Company Brain Survives Bankruptcy."""

    type: Literal["organize"] = "organize"
    mode: Literal["recruit", "redistribute", "relocate"]
    recruits: int = Field(default=1, ge=1, le=2)
    then: Step | None = None
    moves: list[Step] = Field(default_factory=list)
    facility: FacilityNo | None = None
    to: Hex | None = None
    return_teams: list[Hex] = Field(default_factory=list)


class Deploy(_Turn):
    """§7 Deploy. ``remote`` is Loopfold's Social Graph destination (Era IV)."""

    type: Literal["deploy"] = "deploy"
    remote: Hex | None = None


class Influence(_Turn):
    """§7 Influence. ``trust`` / ``scrutiny`` on a political hex; ``jv``: propose a Joint
    Venture from own ``facility`` to ``partner``'s ``partner_facility`` (``accepted`` is the
    answer); ``terminate``: end shared Joint Venture number ``contract``."""

    type: Literal["influence"] = "influence"
    mode: Literal["trust", "scrutiny", "jv", "terminate"]
    facility: FacilityNo | None = None
    partner: SeatNo | None = None
    partner_facility: FacilityNo | None = None
    accepted: bool | None = None
    contract: int | None = None


class MegaCluster(_Turn):
    """§5 Era II Program: 3 Runway + 2 Compute across two adjacent own Facilities."""

    type: Literal["mega_cluster"] = "mega_cluster"
    hosts: tuple[FacilityNo, FacilityNo]


class TeamMove(Frozen):
    path: list[Hex] = Field(min_length=1, max_length=2)


class Reorganization(_Turn):
    """§5 Era II Program: every Team up to one hex; optionally return one Team (3 Runway)."""

    type: Literal["reorganization"] = "reorganization"
    team_moves: list[TeamMove] = Field(default_factory=list)
    return_team: Hex | None = None


class Covenant(_Turn):
    """§5 Era III Program Public Capability Covenant."""

    type: Literal["covenant"] = "covenant"


class NarrativeCapture(_Turn):
    """§5 Era III Program Narrative Capture."""

    type: Literal["narrative_capture"] = "narrative_capture"
    mode: Literal["remove_scrutiny", "runway", "give_scrutiny"]
    target: SeatNo | None = None


class AgentSwarm(_Turn):
    """§5 Era IV Program: move once, then two ``swarm: true`` action events follow.
    ``bonus_to`` names the one of the two actions that receives the visit bonus."""

    type: Literal["agent_swarm"] = "agent_swarm"
    actions: tuple[CoreAction, CoreAction]
    bonus_to: CoreAction | None = None


class Fusion(_Turn):
    """§5 Era IV Program Fusion Demonstrator on the Power Corridor."""

    type: Literal["fusion"] = "fusion"


# --- Production, Dossier, Audit, scoring ----------------------------------------------------


class Allocate(_Event):
    """§6C.3 Allocate: the seat's complete allocation. ``facilities`` are the Facilities it
    powers; ``mega_clusters`` the contract numbers whose +2 demand it satisfies; ``emergency``
    the extra Power taken under The Counterfactual Casino Clears Priority Load (0-2)."""

    type: Literal["allocate"] = "allocate"
    seat: SeatNo
    facilities: list[FacilityNo] = Field(default_factory=list)
    mega_clusters: list[int] = Field(default_factory=list)
    emergency: int = Field(default=0, ge=0, le=2)


class WorkforceMove(_Event):
    """Workforce Transition District production: move one Team one hex."""

    type: Literal["workforce_move"] = "workforce_move"
    seat: SeatNo
    facility: FacilityNo
    path: list[Hex] = Field(min_length=2, max_length=2)


Orientation = Literal["commit", "hedge"]


class DossierFile(_Event):
    """§6D: the seat files this Era's Dossier card face down. ``orientation`` is ``None`` when
    the facilitator recorded it sealed (hidden until the Era IV reveal)."""

    type: Literal["dossier"] = "dossier"
    seat: SeatNo
    orientation: Orientation | None = None


class DossierHand(Frozen):
    seat: SeatNo
    benchmark: Orientation
    deployment: Orientation
    authority: Orientation
    publication: Orientation


class DossierReveal(_Event):
    """§5 Era IV: every Dossier is revealed together and paid (1 Compute + 1 Scrutiny per
    Commit) before the final Audit."""

    type: Literal["dossier_reveal"] = "dossier_reveal"
    hands: list[DossierHand]


class Audit(_Event):
    """§6E: the cubes drawn from the Audit bag, in order: a seat number or ``black``."""

    type: Literal["audit"] = "audit"
    draws: list[SeatNo | Literal["black"]]


class EraMandate(_Event):
    """§6F: the table's scoring of the revealed Era Mandate. ``scorers`` is who the table
    scored (empty: nobody qualified); ``None`` when not recorded (the engine then scores)."""

    type: Literal["era_mandate"] = "era_mandate"
    scorers: list[SeatNo] | None = None


class ClaimRecord(Frozen):
    seat: SeatNo
    strength: int


class FinalRecord(_Event):
    """§11 and the Governance Board ledger's final public record, as the table wrote it.
    Every field is optional; what is present is compared with the engine's result."""

    type: Literal["final_record"] = "final_record"
    offline: dict[SeatNo, int] | None = None
    collective_trust: int | None = None
    open_threshold: int | None = None
    systemic_risk: int | None = None
    provisional_winners: list[SeatNo] | None = None
    claims: list[ClaimRecord] | None = None
    agi: bool | None = None
    claimant: SeatNo | None = None
    winners: list[SeatNo] | None = None
    open: bool | None = None
    ending: Literal["singularity", "closed_loop", "plural_future", "assured_continuity"] | None = (
        None
    )


# --- the table's own values, observations, surveys ------------------------------------------


class SeatValues(Frozen):
    seat: SeatNo
    mandate: int | None = None
    runway: int | None = None
    compute: int | None = None
    capability: int | None = None
    customers: int | None = None
    trust: int | None = None
    scrutiny: int | None = None  # this seat's cubes in the Audit bag


class Checkpoint(_Event):
    """The table's recorded values at this point. A mismatch is reported once and replay
    continues from the table's value (the resync rule)."""

    type: Literal["checkpoint"] = "checkpoint"
    label: str | None = None
    seats: list[SeatValues]
    systemic_risk: int | None = None  # black cubes in the bag


#: the class every turn event (a resolved Core Action or Program) derives from
TurnEvent = _Turn

TURN_TYPES: frozenset[str] = frozenset(
    {
        "fund", "research", "build", "organize", "deploy", "influence", "mega_cluster",
        "reorganization", "covenant", "narrative_capture", "agent_swarm", "fusion",
    }
)

MandateEvent = Annotated[
    Phase
    | EraStart
    | HeadlineReveal
    | EmergencyPause
    | AllocationWindow
    | Reveal
    | Trade
    | Fund
    | Research
    | Draw
    | RunEnd
    | Build
    | Organize
    | Deploy
    | Influence
    | MegaCluster
    | Reorganization
    | Covenant
    | NarrativeCapture
    | AgentSwarm
    | Fusion
    | Allocate
    | WorkforceMove
    | DossierFile
    | DossierReveal
    | Audit
    | EraMandate
    | FinalRecord
    | Checkpoint
    | Observation
    | SurveyAnswer,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[MandateEvent] = TypeAdapter(MandateEvent)
EVENTS_ADAPTER: TypeAdapter[list[MandateEvent]] = TypeAdapter(list[MandateEvent])
EVENT_TYPES: frozenset[str] = frozenset(
    m.model_fields["type"].default
    for m in (
        Phase, EraStart, HeadlineReveal, EmergencyPause, AllocationWindow, Reveal, Trade, Fund,
        Research, Draw, RunEnd, Build, Organize, Deploy, Influence, MegaCluster, Reorganization,
        Covenant, NarrativeCapture, AgentSwarm, Fusion, Allocate, WorkforceMove, DossierFile,
        DossierReveal, Audit, EraMandate, FinalRecord, Checkpoint, Observation, SurveyAnswer,
    )
)


class MandateLog(Strict):
    """A whole Mandate 2038 game log: the canonical JSON document."""

    format: Literal["playtest-log"] = LOG_FORMAT
    format_version: Literal[1] = LOG_FORMAT_VERSION
    header: MandateHeader
    events: list[MandateEvent] = Field(default_factory=list)
