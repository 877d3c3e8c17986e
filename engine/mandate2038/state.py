"""The game state of Mandate 2038, folded event by event during replay.

Mutable dataclasses with slots, for speed (measured in docs/engine.md). The rules modules
mutate it in place; nothing here does I/O. Field names are a contract for ``moves.py`` and
``bots.py`` (written against this file): add fields, never rename them.

Conventions:

* seats are 1..N clockwise; ``GameState.seats[i]`` is seat ``i + 1`` (use :meth:`GameState.seat`);
* hexes are map positions (``F``, ``I1``..``I6``, ``O1``..``O12``; see ``board.py``);
* "Scrutiny" is the seat's cubes in the Audit bag (``SeatState.bag``); the rest of its ten
  cubes are in its supply;
* ``phase`` is one of ``setup``, ``era_start``, ``cycle`` (Headline revealed, before/while
  selecting), ``resolve`` (selections revealed, turns resolving), ``production``, ``dossier``,
  ``audit``, ``scoring``, ``final_scoring``, ``ended``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# imported at run time, not only for type checking: a dataclass compiled by mypyc (the optional
# compiled engine, docs/engine.md) resolves its fields' annotations when the module loads
from engine.core.outcome import Outcome
from engine.core.replay import LedgerEntry
from engine.mandate2038.board import Board
from engine.mandate2038.content import Content
from schemas.mandate2038 import MandateHeader
from schemas.mandate2038.content import ContentPack

CORE_ACTIONS: tuple[str, ...] = ("fund", "research", "build", "organize", "deploy", "influence")
CORE_SET = frozenset(CORE_ACTIONS)  # the same, for membership tests
PROGRAMS: tuple[str, ...] = (
    "mega_cluster", "reorganization", "covenant", "narrative_capture", "agent_swarm", "fusion",
)
CUBES_PER_SEAT = 10  # overridden from the pack's audit.cubes_per_player at setup
JV_PAIRS = 6  # shared Joint Venture token pairs (FACTS: game-config sharedSupply)
MEGA_CLUSTER_PAIRS = 6  # shared Mega-Cluster token pairs (same source)


@dataclass(slots=True)
class Facility:
    """One built Facility. ``powered`` is the latest Production snapshot (a Power cube on it);
    ``mega`` the Mega-Cluster contract number it hosts; ``jvs`` the Joint Venture contract
    numbers it hosts. Facility 1 carries the starting grid."""

    number: int
    hex: str | None  # None only when a partial log never said where it was built
    powered: bool = False
    mega: int | None = None
    jvs: list[int] = field(default_factory=list)


@dataclass(slots=True)
class EraCounters:
    """This-Era values counted for the Era Mandates (§6A: start at zero each Era)."""

    capability_gained: int = 0
    fund_runway: int = 0  # Runway gained through Fund actions (incl. location bonus)
    best_run_domains: int = 0  # unique ordinary domains in the best successful Training Run
    customers_gained: int = 0
    scrutiny_added: int = 0  # Scrutiny this seat added (required cubes, incl. overflow)
    scrutiny_overflow: int = 0  # of those, cubes required with all ten in the bag (§6E)
    jvs_created: list[int] = field(default_factory=list)  # uids of Joint Ventures created
    deployed: bool = False  # completed at least one Deploy
    compute_produced: int = 0  # printed Compute output in Production, before the cap
    demand_satisfied: int = 0  # Power demand satisfied in Production (Facilities + Mega +2)
    powered_facilities: int = 0  # Facilities powered in this Era's Production
    deploys: int = 0  # Deploys completed this Era (Audited Deployment, Installed Base)
    facility_builds: int = 0  # Facility Builds this Era (Industrial Velocity)
    shovels: int = 0  # Corthaven's The Shovels Runway gained this Era


@dataclass(slots=True)
class SeatState:
    """One player's faction tray, pieces and history."""

    seat: int
    faction: str
    runway: int = 0
    compute: int = 0
    capability: int = 0
    customers: int = 0
    trust: int = 0
    protection: int = 0  # Research Protection available this Era
    mandate: int = 0
    bag: int = 0  # this seat's Scrutiny cubes in the Audit bag
    ceo: str = "F"  # CEO hex
    teams: list[str] = field(default_factory=list)  # hexes of Teams on the board
    teams_supply: int = 2
    facilities: dict[int, Facility] = field(default_factory=dict)  # number -> Facility
    generator: str | None = None  # hex of the ordinary Generator, when built
    generator_kind: str | None = None  # power contract id of the ordinary Generator
    exhausted: set[str] = field(default_factory=set)  # Core Actions exhausted this Era
    actions_this_era: int = 0  # turns resolved this Era (3 per Era)
    markers: int = 0  # Program markers still available this Era
    programs_used: set[str] = field(default_factory=set)  # Programs used this game
    ability_uses: dict[str, list[int]] = field(default_factory=dict)  # ability id -> Eras used
    capability_reached: set[int] = field(default_factory=set)  # Capability thresholds scored
    trust_reached: set[int] = field(default_factory=set)  # Trust thresholds scored
    customers_scored: int = 0  # Customer ordinals already scored (#1..#n)
    dossier: dict[int, str | None] = field(default_factory=dict)  # Era -> commit/hedge/None
    revealed_hand: dict[str, str] | None = None  # Era IV reveal: card -> orientation
    dossier_paid: bool | None = None  # Era IV: the full Compute cost was paid
    era: EraCounters = field(default_factory=EraCounters)
    allocated: bool = False  # allocated in the current Production
    emergency_power: int = 0  # emergency Power taken this Production (Headline)
    # trace.py: (field, delta, (event index, cause)) since the last checkpoint
    steps: list[tuple[str, int, tuple[int | None, str]]] = field(default_factory=list)
    temp_compute: int = 0  # Allocation Window: temporary Compute held this cycle (gone at its end)
    offline_penalty: int = 0  # Mandate lost at final scoring
    #: a cost the seat could not pay (reported once): resource -> the shortfall, taken from the
    #: next gains of that resource (the table evidently paid it from them) until a checkpoint
    owed: dict[str, int] = field(default_factory=dict)

    @property
    def facilities_built(self) -> int:
        return len(self.facilities)

    def powered_count(self) -> int:
        """Facilities powered in the latest Production snapshot."""
        n = 0
        for f in self.facilities.values():
            if f.powered:
                n += 1
        return n

    def pieces_on(self, hexname: str) -> int:
        """CEO and Teams of this seat on ``hexname``."""
        return (self.ceo == hexname) + self.teams.count(hexname)


@dataclass(slots=True)
class JointVenture:
    """A Joint Venture contract (§4): two Facilities of different seats."""

    number: int  # the matched token pair's number (returned to the supply on termination)
    a_seat: int
    a_facility: int
    b_seat: int
    b_facility: int
    era: int  # Era it was created
    reach: int = 1  # hosts must be adjacent (1) or within 2 hexes (Strategic Partnership)
    active: bool = False  # produced in the latest Production (both hosts powered, in reach)
    uid: int = 0  # this venture's identity: never reused, unlike the token pair's number


@dataclass(slots=True)
class MegaClusterContract:
    """A Mega-Cluster (§5 Era II): two adjacent Facilities of one owner."""

    number: int
    owner: int
    hosts: tuple[int, int]
    demand_met: bool = False  # its +2 demand was satisfied in the latest Production


@dataclass(slots=True)
class TrainingRun:
    """The Training Run in progress (§7 Research)."""

    seat: int
    event: int | None
    cards: list[str] = field(default_factory=list)
    domains: set[str] = field(default_factory=set)  # ordinary domains revealed this run
    provisional: int = 0
    protection_bonus: int = 0  # Research Commons visit: +1 protection for this run
    duplicate: str | None = None  # a duplicate was drawn (card id); the run must end now
    ended_by_card: bool = False  # Human Evaluation banked and ended the run
    breakthrough: bool = False  # Mirevanta Scaling-Law Breakthrough applies
    swarm: bool = False


@dataclass(slots=True)
class Turn:
    """The turn being resolved: opened by the seat's ``trade`` or turn event, closed when the
    action (and its Training Run, or Agent Swarm's two actions) is done. ``traded`` marks that
    the seat's one immediate-trade window was used."""

    seat: int
    pick: str  # the resolved action or Program
    dest: str | None = None  # the acting piece's destination (None: not recorded)
    piece: str = "ceo"
    swarm_left: list[str] = field(default_factory=list)  # Agent Swarm actions still to resolve
    swarm_bonus: str | None = None  # the Agent Swarm action that gets the visit bonus
    bonus_used: bool = False  # the destination's visit bonus was applied
    discount_used: bool = False  # Compute Estate: the first Compute cost was reduced
    traded: bool = False
    started: bool = False  # the turn event itself arrived (False: only a trade so far)
    frontier_bonus: bool = False  # the Frontier visit bonus was taken this turn


@dataclass(slots=True)
class GameState:
    """The whole table. See the module docstring for conventions."""

    header: MandateHeader
    pack: ContentPack
    c: Content  # the pack indexed by id
    board: Board
    seats: list[SeatState]
    n: int  # player count
    cubes_per_seat: int = 10  # Scrutiny cubes per player (pack audit.cubes_per_player)
    profile: str = "default"
    partial: bool = False  # header.detail == "partial"
    era: int = 0
    cycle: int = 0
    phase: str = "setup"
    initiative: int = 1  # seat holding Initiative
    first_initiative: int = 1  # seat holding Initiative in Era I cycle 1
    initiative_known: bool = True  # False: the header did not say; the first turn tells
    revealed: bool = False  # this cycle's selections were revealed
    order_reported: bool = False  # turn/out-of-order already reported this cycle
    no_reveal_reported: bool = False
    path_missing_reported: bool = False
    production_started: bool = False  # this Era's Production began (phase or allocate)
    era_closed: bool = False  # this Era's end was processed (Era-end records written)
    allocations: dict[int, tuple[list[int], list[int], int]] = field(default_factory=dict)
    workforce_left: dict[int, int] = field(default_factory=dict)  # Workforce moves left
    dossier_compute: int = 1  # Compute per Commit (pack dossier)
    dossier_scrutiny: int = 1  # Scrutiny per Commit
    systemic_risk_customers: int = 3  # a black cube penalises players with >= this
    power_known_era: int = 0  # last Era whose Production the log recorded (allocations)
    bag_synced: bool = False  # a checkpoint recorded the bag (partial logs)
    selections: dict[int, str] = field(default_factory=dict)  # seat -> revealed pick
    to_resolve: list[int] = field(default_factory=list)  # seats still to resolve, in order
    resolved: set[int] = field(default_factory=set)  # seats resolved this cycle
    turn: Turn | None = None  # the turn being resolved
    headline: str | None = None  # this cycle's Headline id
    headline_action: str | None = None  # The Court Adopts Supported Meaning: named action
    #: Runway and Scrutiny a seat takes once its selected action has resolved (The Court Adopts
    #: Supported Meaning, The Metropolitan Mind Trust Incorporates): seat -> (Runway, Scrutiny)
    after_resolve: dict[int, tuple[int, int]] = field(default_factory=dict)
    headlines_seen: list[tuple[int, int, str]] = field(default_factory=list)  # Future Timeline
    era_headlines: dict[int, list[str]] = field(default_factory=dict)
    production_headline: str | None = None  # a Headline whose effect lasts this Production
    paused_program: str | None = None  # Emergency Pause this cycle
    beam_used: bool = False  # Orbital Power Receives a Beam Corridor used this cycle
    temp_compute_live: bool = False  # some seat holds Allocation Window temporary Compute
    mandate_card: str | None = None  # this Era's Era Mandate id
    deck: dict[str, int] = field(default_factory=dict)  # Training card -> copies left in deck
    deck_left: int = 0  # cards left in the deck (reshuffle the discard when 0)
    discard: dict[str, int] = field(default_factory=dict)
    run: TrainingRun | None = None
    black: int = 0  # black Systemic Risk cubes in the bag
    gen_slots: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # hex -> (seat, kind)
    fusion_owner: int | None = None
    fusion_hex: str | None = None
    jvs: dict[int, JointVenture] = field(default_factory=dict)  # token pair number -> venture
    jv_serial: int = 0  # the last Joint Venture uid given (uids never repeat)
    megas: dict[int, MegaClusterContract] = field(default_factory=dict)
    setup_trust: int = 0  # Setup Collective Trust
    ended: bool = False
    final_done: bool = False
    systemic_risk_final: int | None = None  # black cubes right after the final Audit
    production_done: bool = False  # this Era's Production resolved
    audit_done: bool = False
    audit_missing_reported: bool = False
    #: the ``audit/missing`` and ``dossier/missing`` warnings of this Era, withdrawn when the
    #: Audit or Dossier turns up late (one slip, one finding: the late event is the error)
    last_turn: dict[int, Any] = field(default_factory=dict)  # seat -> its latest turn event
    #: (seat, field) -> (table minus rules, the finding) of the latest checkpoint resync
    resynced: dict[tuple[int, str], tuple[int, Any]] = field(default_factory=dict)
    audit_missing_finding: Any = None
    dossier_missing_findings: dict[int, Any] = field(default_factory=dict)
    era_mandate_done: bool = False
    dossier_revealed: bool = False
    era_events: dict[str, bool] = field(default_factory=dict)  # structure seen this Era
    ledger: list[LedgerEntry] = field(default_factory=list)
    # analytics records: dicts, or tuples for the hot tables (records.TUPLE_COLUMNS)
    rows: dict[str, list[Any]] = field(default_factory=dict)
    outcome: Outcome | None = None  # once final scoring ran
    final: dict[str, Any] = field(default_factory=dict)  # final scoring details
    event_index: int | None = None  # index of the event being applied (ledger)
    last_checkpoint: dict[int, dict[str, int]] = field(default_factory=dict)  # table values
    # thresholds reached at the last checkpoint: (Capability, Trust, Customers scored)
    cp_reached: dict[int, tuple[frozenset[int], frozenset[int], int]] = field(
        default_factory=dict)
    rulings: dict[str, str] = field(default_factory=dict)  # ruling id -> option in force
    event_rulings: set[str] = field(default_factory=set)  # ID=OPTION used by this event
    seat_rulings: dict[int, set[str]] = field(default_factory=dict)  # since the last checkpoint
    # (seat, Facility) whose Power cube after a move was decided by ruling moved-facility-power
    # (until the next Allocate), so a later finding about that cube names the ruling
    ruled_power: set[tuple[int, int]] = field(default_factory=set)
    # the step trace's cause (trace.py): the event being applied (index, type), and the cause
    # in force (the event, or a specific effect within it such as Production's "generate")
    event_cause: tuple[int | None, str] = (None, "setup")
    cause: tuple[int | None, str] = (None, "setup")
    _order: list[int] = field(default_factory=list)  # cache of initiative_order()
    _order_for: int = 0

    def seat(self, no: int) -> SeatState:
        """The state of seat ``no`` (1-based)."""
        return self.seats[no - 1]

    def order_from(self, first: int) -> list[int]:
        """Seats clockwise starting at ``first``."""
        return [((first - 1 + i) % self.n) + 1 for i in range(self.n)]

    def initiative_order(self) -> list[int]:
        """Seats clockwise from the Initiative holder (resolution and tie order). The list is
        cached per Initiative holder: do not mutate it."""
        if self._order_for != self.initiative:
            self._order = self.order_from(self.initiative)
            self._order_for = self.initiative
        return self._order
