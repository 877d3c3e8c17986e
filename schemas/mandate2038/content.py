"""Content-pack models: the printed components of a ruleset, as data.

A content pack lives in ``data/content/<game>/<rules_version>/pack.json`` and is validated by
these models. Every entry says where it comes from (``source``): a seed section ("core rules §7
Build") and/or a reference key ("FACTS.md §2"). Texts are the toolkit's own words.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from schemas.source import Source


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RingPool(_Model):
    center: int = 0
    inner: int = 0
    outer: int = 0


class TileProduction(_Model):
    """What one powered Facility on this tile produces in the Produce box."""

    runway: int = 0
    compute: int = 0
    trust: int = 0
    remove_scrutiny: int = 0  # removed before the Audit
    team_move: int = 0  # Workforce Transition District: move one Team one hex


class Tile(_Model):
    id: str
    name: str
    category: (
        str  # frontier, research, cloud, consumer, chip, capital, talent, media, government, energy
    )
    pool: RingPool
    facility_spaces: int
    generator_slots: int = 0
    generator: str | None = None  # power contract id built here by Build: Generator
    political: bool = False  # Influence may gain Trust / remove Scrutiny here
    contract_icon: Literal["runway", "compute"] | None = None  # Joint Venture partner gain
    visit: str  # the visit bonus, in our words
    visit_key: str  # machine key of the visit bonus (e.g. "frontier_runway", "research_protection")
    production: TileProduction
    production_text: str
    landmark: str | None = None
    source: Source


class FactionStarts(_Model):
    runway: int
    compute: int
    capability: int
    customers: int
    trust: int
    research_protection: int
    scrutiny: int = 0
    mandate: int  # already-earned public Mandate printed on the board
    # The printed Mandate already includes these awards; they are never scored again (§9).
    scored_trust_thresholds: list[int] = Field(default_factory=list)
    scored_customers: int = 0  # Customers #1..n whose Mandate is included in ``mandate``


class Ability(_Model):
    id: str
    name: str
    era: int  # unlock Era
    timing: Literal["passive", "once_per_era", "once_when_unlocked", "once_per_game"]
    persists: bool = True
    text: str
    source: Source


class ScoringRule(_Model):
    id: str
    name: str
    text: str
    # Capability thresholds this faction scores differently: threshold -> Mandate
    capability_mandate: dict[int, int]
    # thresholds that score full Mandate at or above this player count: threshold -> (players, Mandate)
    full_at_players: dict[int, tuple[int, int]] = Field(default_factory=dict)
    source: Source


class Faction(_Model):
    id: str  # our id, e.g. "mirevanta"
    ref_id: str  # the designers' id, e.g. "imperial_research_lab"
    name: str
    ceo: str
    colour: str
    starts: FactionStarts
    abilities: list[Ability]
    scoring_rule: ScoringRule | None = None
    source: Source


class Headline(_Model):
    id: str  # the designers' id
    name: str
    era: int
    default: bool  # Default-eligible (no Advanced Play badge)
    badge: str  # DIRECTIVE, AUCTION, SECRET CHOICE, CIVIC PERMISSION AUTHORITY VOTE, VOLATILITY
    requires: list[str] = Field(default_factory=list)  # Advanced Play modules it needs
    duration: Literal[
        "immediate",
        "current_cycle",
        "this_production",
        "rest_of_era",
        "rest_of_game",
        "final_claims",
        "per_roll",
    ]
    text: str
    source: Source


class EraMandateCard(_Model):
    id: str  # the designers' id
    name: str
    era: int
    criterion: str  # machine key, e.g. "capability_gained" (see docs/content.md for each key)
    minimum: int
    # when the value is measured: accumulated over this Era, from the Era's Production, or the
    # current state when the card is scored
    window: Literal["this_era", "production", "at_scoring"] = "at_scoring"
    lowest_wins: bool = False  # True when the fewest qualifying value leads (fewest Scrutiny)
    text: str
    source: Source


class TrainingCard(_Model):
    id: str
    name: str
    kind: Literal["domain", "special"]
    copies: int
    text: str
    source: Source


class Program(_Model):
    id: str  # our id
    ref_id: str | None = None  # the designers' id, when different
    name: str
    era: int  # unlock Era
    global_after_movement: bool = False  # resolves without a destination restriction
    compound: bool = False  # Agent Swarm: resolves two Core Actions
    text: str
    runway: int = 0
    compute: int = 0
    scrutiny: int = 0
    source: Source


class PowerContract(_Model):
    id: str  # our id
    ref_id: str | None = None  # the designers' id
    name: str
    tile: str  # tile id where it is built
    runway: int
    capacity: int
    trust_on_build: int = 0
    scrutiny_on_build: int = 0
    scrutiny_per_production: int = 0
    mandate_on_build: int = 0
    era: int
    program: bool = False
    text: str
    source: Source


class EraInfo(_Model):
    era: int
    ref_id: str | None = None  # the designers' round id (demo, scale, narrative, claim)
    name: str
    cycles: int = 3
    program_markers: int
    programs: list[str]  # Programs unlocked (cumulative)
    new_this_era: list[str]
    audit_base_draws: int
    source: Source


class AuditRules(_Model):
    base_draws: list[int]  # per Era at four players
    base_players: int = 4
    minimum: int = 1
    cubes_per_player: int = 10
    systemic_risk_cubes: int = 18  # black cubes in the shared supply
    systemic_risk_customers: int = 3  # a drawn black cube penalises players with >= this many
    penalty_text: str
    source: Source

    def draws(self, era: int, players: int) -> int:
        """Cubes to draw in ``era`` (1-4) at ``players`` players: round(base x players / 4),
        halves rounded up (not Python's banker's rounding), at least ``minimum``.

        >>> AuditRules(base_draws=[2, 3, 4, 5], penalty_text="", source=Source()).draws(1, 3)
        2
        """
        scaled = self.base_draws[era - 1] * players
        # integer half-up rounding of scaled / base_players
        rounded = (2 * scaled + self.base_players) // (2 * self.base_players)
        return max(self.minimum, rounded)


class Scoring(_Model):
    customer_capability: list[int]  # Capability needed for Customer #1..#5
    customer_mandate: list[int]  # Mandate for Customer #1..#5
    capability_thresholds: dict[int, int]  # Capability value -> Mandate
    trust_thresholds: dict[int, int]  # Trust value -> Mandate
    era_mandate_winner: int
    era_mandate_tied: int
    offline_penalty: int
    caps: dict[str, int]  # runway, compute, capability, customers, trust, research_protection
    winner_tie_breakers: list[str] = Field(default_factory=list)  # after Mandate
    source: Source


class WorldEnding(_Model):
    id: str
    name: str
    agi: bool
    open: bool
    text: str
    source: Source


class Disagreement(_Model):
    """A place where the seed and the reference facts disagree, and what we follow."""

    id: str | None = None
    topic: str
    seed_says: str
    reference_says: str
    we_follow: str
    source: Source | None = None


class PlayerSupply(_Model):
    """What each player owns (§1 Setup; FACTS.md §3)."""

    ceos: int = 1
    teams: int = 3
    teams_at_start: int = 1  # placed at Frontier; the rest in supply
    facilities: int = 4
    generators: int = 1  # ordinary Generator pieces
    program_markers: int = 2
    scrutiny_cubes: int = 10
    dossier_cards: list[str] = Field(default_factory=list)  # in Era order
    source: Source


class SharedSupply(_Model):
    """Shared components whose number limits play (FACTS.md §2, §8; game-config sharedSupply)."""

    joint_venture_pairs: int = 6
    mega_cluster_pairs: int = 6
    fusion_markers: int = 1
    power_cubes: int = 36
    temporary_compute: int = 2
    source: Source


class DossierModule(_Model):
    """One Dossier card: filed in ``era``; a committed evidence module is supported when the
    claimant's final ``metric`` is at least ``threshold`` (§5 The secret AGI Dossier)."""

    id: str  # benchmark, deployment, authority, publication
    ref_id: str | None = None
    era: int
    metric: Literal["capability", "powered_facilities", "trust", "publication"]
    threshold: int
    evidence: bool  # counts toward the two supported evidence modules a claim needs
    source: Source


class DossierRules(_Model):
    compute_per_commit: int = 1
    scrutiny_per_commit: int = 1
    minimum_supported_modules: int = 2
    publication_strength: int = 1
    capability_thresholds: list[int] = Field(default_factory=list)  # +1 strength each reached
    tie_breakers: list[str] = Field(default_factory=list)
    modules: list[DossierModule]
    source: Source


class CoreActionCard(_Model):
    """One of the six Core Action cards (§7)."""

    id: str
    name: str
    modes: list[str]
    text: str
    source: Source


class ContentPack(_Model):
    game: str
    rules_version: str
    title: str
    tiles: list[Tile]
    factions: list[Faction]
    headlines: list[Headline]
    era_mandates: list[EraMandateCard]
    training_deck: list[TrainingCard]
    programs: list[Program]
    power_contracts: list[PowerContract]
    eras: list[EraInfo]
    audit: AuditRules
    scoring: Scoring
    world_endings: list[WorldEnding]
    core_actions: list[CoreActionCard] = Field(default_factory=list)
    player_supply: PlayerSupply | None = None
    shared_supply: SharedSupply | None = None
    dossier: DossierRules | None = None
    disagreements: list[Disagreement] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check_references(self) -> ContentPack:
        """Ids are unique per kind and every cross-reference names an existing entry."""
        problems: list[str] = []
        for kind in (
            "tiles",
            "factions",
            "headlines",
            "era_mandates",
            "training_deck",
            "programs",
            "power_contracts",
            "world_endings",
            "core_actions",
        ):
            ids = [e.id for e in getattr(self, kind)]
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                problems.append(f"{kind}: duplicate id(s) {dupes}")
        contracts = {c.id for c in self.power_contracts}
        tiles = {t.id for t in self.tiles}
        programs = {p.id for p in self.programs}
        for t in self.tiles:
            if t.generator is not None and t.generator not in contracts:
                problems.append(f"tile {t.id}: generator {t.generator!r} is not a power contract")
        for c in self.power_contracts:
            if c.tile not in tiles:
                problems.append(f"power contract {c.id}: tile {c.tile!r} is not a tile")
        for e in self.eras:
            for p in e.programs:
                if p not in programs:
                    problems.append(f"era {e.era}: program {p!r} is not a program")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    # --- lookups (raise KeyError naming the missing id) -------------------------------------

    def tile(self, tile_id: str) -> Tile:
        """The tile with this id."""
        return _find(self.tiles, tile_id, "tile")

    def faction(self, faction_id: str) -> Faction:
        """The faction with this id (ours, e.g. ``mirevanta``, or the designers' ``ref_id``)."""
        for f in self.factions:
            if faction_id in (f.id, f.ref_id):
                return f
        raise KeyError(f"no faction {faction_id!r} in the content pack")

    def headline(self, headline_id: str) -> Headline:
        """The Headline with this id."""
        return _find(self.headlines, headline_id, "Headline")

    def era_mandate(self, mandate_id: str) -> EraMandateCard:
        """The Era Mandate card with this id."""
        return _find(self.era_mandates, mandate_id, "Era Mandate")

    def program(self, program_id: str) -> Program:
        """The Program with this id (ours, or the designers' ``ref_id``)."""
        for p in self.programs:
            if program_id in (p.id, p.ref_id):
                return p
        raise KeyError(f"no Program {program_id!r} in the content pack")

    def power_contract(self, contract_id: str) -> PowerContract:
        """The Power contract with this id."""
        return _find(self.power_contracts, contract_id, "power contract")

    def training_card(self, card_id: str) -> TrainingCard:
        """The Training card face with this id."""
        return _find(self.training_deck, card_id, "Training card")

    def era(self, era: int) -> EraInfo:
        """The Era panel for Era ``era`` (1-4)."""
        for e in self.eras:
            if e.era == era:
                return e
        raise KeyError(f"no Era {era} in the content pack")

    def world_ending(self, agi: bool, open_: bool) -> WorldEnding:
        """The World Ending for the two results (§11 The shared World Ending)."""
        for w in self.world_endings:
            if w.agi == agi and w.open == open_:
                return w
        raise KeyError(f"no World Ending for agi={agi} open={open_}")

    def setup_collective_trust(self, faction_ids: list[str]) -> int:
        """Sum of the printed starting Trust of these factions (§1 Setup step 8)."""
        return sum(self.faction(f).starts.trust for f in faction_ids)


_E = TypeVar("_E", Tile, Headline, EraMandateCard, PowerContract, TrainingCard)


def _find(entries: list[_E], entry_id: str, kind: str) -> _E:
    for e in entries:
        if e.id == entry_id:
            return e
    raise KeyError(f"no {kind} {entry_id!r} in the content pack")
