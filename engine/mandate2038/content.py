"""Fast lookups over the Mandate 2038 content pack (every number and list comes from it).

:class:`Content` indexes a validated :class:`schemas.mandate2038.content.ContentPack` once (dicts by id), so
rules code does ``c.tiles["research"].production.compute`` instead of scanning lists. Loading is
delegated to ``schemas.packs.load_pack`` (the one place that reads the static pack file).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Fallbacks for packs without ``shared_supply`` (game-config ``sharedSupply``; FACTS.md §10).
JV_PAIRS = 6
MEGA_CLUSTER_PAIRS = 6
RUNWAY_CAP_DEFAULT = 12

# Dossier cards by the Era they are filed in (core rules §5 The secret AGI Dossier; FACTS §10).
DOSSIER_CARDS: dict[int, str] = {1: "benchmark", 2: "deployment", 3: "authority", 4: "publication"}

# Tiles whose Deploy is helped by Loopfold and the Home Robot Headline (FACTS §3, §4).
DEPLOY_DISTRICTS = frozenset({"consumer", "media"})
ENERGY_TILES = frozenset({"grid_reactor", "renewable_basin"})


class Content:
    """The content pack, indexed. Attributes are read-only by convention."""

    def __init__(self, pack: Any) -> None:
        self.pack = pack
        self.tiles = {t.id: t for t in pack.tiles}
        self.factions = {f.id: f for f in pack.factions}
        self.headlines = {h.id: h for h in pack.headlines}
        self.mandates = {m.id: m for m in pack.era_mandates}
        self.training = {c.id: c for c in pack.training_deck}
        self.domains = frozenset(c.id for c in pack.training_deck if c.kind == "domain")
        self.programs = {p.id: p for p in pack.programs}
        self.contracts = {c.id: c for c in pack.power_contracts}
        self.eras = {e.era: e for e in pack.eras}
        self.scoring = pack.scoring
        self.audit = pack.audit
        self.endings = {(w.agi, w.open): w for w in pack.world_endings}
        caps = dict(pack.scoring.caps)
        self.cap_runway = caps.get("runway", RUNWAY_CAP_DEFAULT)
        self.cap_compute = caps.get("compute", 10)
        self.cap_capability = caps.get("capability", 12)
        self.cap_customers = caps.get("customers", 5)
        self.cap_trust = caps.get("trust", 6)
        self.cap_protection = caps.get("research_protection", 2)
        self.caps = {
            "runway": self.cap_runway, "compute": self.cap_compute,
            "capability": self.cap_capability, "customers": self.cap_customers,
            "trust": self.cap_trust, "protection": self.cap_protection,
        }
        # ordinary Generator contract by Energy tile; Fusion's contract
        self.generator_at: dict[str, Any] = {}
        self.fusion: Any = None
        for c in pack.power_contracts:
            if c.program:
                self.fusion = c
            else:
                self.generator_at[c.tile] = c
        for t in pack.tiles:
            if t.generator and t.generator in self.contracts and t.id not in self.generator_at:
                self.generator_at[t.id] = self.contracts[t.generator]
        # (faction id, ability id) -> the faction's first ability with that id (factions.py)
        self.ability_of: dict[tuple[str, str], Any] = {}
        for f in self.factions.values():
            for a in f.abilities:
                self.ability_of.setdefault((f.id, a.id), a)
        self.facility_spaces = {t.id: t.facility_spaces for t in pack.tiles}  # tile -> spaces
        #: Capability required for Customer #1, #2, ... (customer_requirement)
        self.customer_capability: tuple[int, ...] = tuple(pack.scoring.customer_capability)
        #: ``customer_requirement(ordinal)``: the Capability required for Customer #``ordinal``
        #: (1-based); None past the last (``customer_capability[ordinal - 1]`` for ordinals
        #: 1..len, else None). A table's ``get``: the move generator and the bots ask it often,
        #: and a Python call costs more than the lookup.
        self.customer_requirement: Callable[[int], int | None] = {
            i + 1: r for i, r in enumerate(self.customer_capability)}.get
        # tile -> (runway, compute, trust, remove_scrutiny, team_move) of a powered Facility
        self.production: dict[str, tuple[int, int, int, int, int]] = {
            t.id: (t.production.runway, t.production.compute, t.production.trust,
                   t.production.remove_scrutiny, t.production.team_move) for t in pack.tiles}
        self.political = frozenset(t.id for t in pack.tiles if t.political)
        self.cap_thresholds = sorted(pack.scoring.capability_thresholds.items())
        self.trust_thresholds = sorted(pack.scoring.trust_thresholds.items())
        self.program_unlock = {p.id: p.era for p in pack.programs}
        shared = getattr(pack, "shared_supply", None)
        self.jv_pairs = getattr(shared, "joint_venture_pairs", JV_PAIRS) if shared else JV_PAIRS
        self.mega_pairs = (getattr(shared, "mega_cluster_pairs", MEGA_CLUSTER_PAIRS)
                           if shared else MEGA_CLUSTER_PAIRS)
        #: map layouts (position, tile) that setup's map check found sound with this content: a
        #: memo of a pure check (setup.check_map), so that validating a corpus checks each map
        #: once; bounded by MAPS_REMEMBERED
        self.sound_maps: set[tuple[tuple[str, str], ...]] = set()

    def markers(self, era: int) -> int:
        """Program markers available at the start of ``era`` (0/1/1/2)."""
        e = self.eras.get(era)
        return e.program_markers if e is not None else 0

    def audit_draws(self, era: int, players: int) -> int:
        """round(base x players / base_players) with halves upward, minimum one (§6E)."""
        base = self.audit.base_draws
        if not 1 <= era <= len(base):
            return int(self.audit.minimum)
        num = base[era - 1] * players
        den = self.audit.base_players
        # round half up in integers: floor(num/den + 1/2) (never Python's banker's round())
        return max(int(self.audit.minimum), int((2 * num + den) // (2 * den)))

    def customer_mandate(self, ordinal: int) -> int:
        m = self.scoring.customer_mandate
        return m[ordinal - 1] if 1 <= ordinal <= len(m) else 0


_CACHE: dict[str, Content] = {}


def load_content(rules_version: str) -> tuple[Content | None, str | None]:
    """(Content, None) for ``rules_version``, or (None, reason) when no pack can be read.

    The pack is static data, so it is read once per process and cached.
    """
    if rules_version in _CACHE:
        return _CACHE[rules_version], None
    from schemas.packs import load_pack

    try:
        pack = load_pack("mandate2038", rules_version)
    except (OSError, ValueError, KeyError, LookupError) as err:
        return None, f"no content pack for rules version {rules_version!r} ({err})"
    c = Content(pack)
    _CACHE[rules_version] = c
    return c, None


_VARIANTS: dict[tuple[str, str], Content] = {}


def load_variant_content(rules_version: str, stamp: Any) -> tuple[Content | None, str | None]:
    """(Content, None) of the rules variant ``stamp`` (a header's
    :class:`schemas.log.VariantStamp`) over the pack of ``rules_version``, or (None, reason)
    when the changes do not fit the pack. Cached per rules version and variant hash (the hash
    covers the changes; a stamp whose hash does not match is keyed by its changes too)."""
    import json

    key = (rules_version, json.dumps(stamp.model_dump(), sort_keys=True, default=str))
    hit = _VARIANTS.get(key)
    if hit is not None:
        return hit, None
    base, why = load_content(rules_version)
    if base is None:
        return None, why
    from engine.core.variants import apply_to_pack

    try:
        pack = apply_to_pack(base.pack, stamp)
    except (ValueError, KeyError, TypeError) as exc:
        return None, str(exc)[:500]
    c = Content(pack)
    if len(_VARIANTS) > 32:
        _VARIANTS.pop(next(iter(_VARIANTS)))
    _VARIANTS[key] = c
    return c, None


def content_from_pack(pack: Any) -> Content:
    """Index an already loaded pack (tests, simulator)."""
    return Content(pack)
