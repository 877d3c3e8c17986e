"""Content-pack models: the printed components of a ruleset, as data.

A content pack lives in ``data/content/<game>/<rules_version>/pack.json`` and is validated by
these models. Every entry says where it comes from (``source``): a seed section ("core rules §7
Build") and/or a reference key ("FACTS.md §2"). Texts are the toolkit's own words.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Model):
    seed: str | None = None  # e.g. "core rules §7 Build"
    ref: str | None = None  # e.g. "FACTS.md §2" or "data/game-config.json board.tiles"
    note: str | None = None  # e.g. a disagreement between seed and reference and how we resolved it


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
    category: str  # frontier, research, cloud, consumer, chip, capital, talent, media, government, energy
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
    id: str
    name: str
    era: int
    default: bool  # Default-eligible (no Advanced Play badge)
    badge: str  # DIRECTIVE, AUCTION, SECRET CHOICE, CIVIC PERMISSION AUTHORITY VOTE, VOLATILITY
    duration: Literal["immediate", "current_cycle", "this_production", "rest_of_era", "rest_of_game", "final_claims", "per_roll"]
    text: str
    source: Source


class EraMandateCard(_Model):
    id: str
    name: str
    era: int
    criterion: str  # machine key, e.g. "capability_gained_this_era"
    minimum: int
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
    id: str
    name: str
    era: int  # unlock Era
    text: str
    runway: int = 0
    compute: int = 0
    scrutiny: int = 0
    source: Source


class PowerContract(_Model):
    id: str
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
    name: str
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
    penalty_text: str
    source: Source


class Scoring(_Model):
    customer_capability: list[int]  # Capability needed for Customer #1..#5
    customer_mandate: list[int]  # Mandate for Customer #1..#5
    capability_thresholds: dict[int, int]  # Capability value -> Mandate
    trust_thresholds: dict[int, int]  # Trust value -> Mandate
    era_mandate_winner: int
    era_mandate_tied: int
    offline_penalty: int
    caps: dict[str, int]  # runway, compute, capability, customers, trust, research_protection
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

    topic: str
    seed_says: str
    reference_says: str
    we_follow: str


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
    disagreements: list[Disagreement] = Field(default_factory=list)
