"""The Mandate 2038 rc.17 content pack: loads, validates, has the printed counts and numbers,
cites a source everywhere, and agrees with the designers' reference data where the seed does."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from schemas import packs
from schemas.mandate2038.content import AuditRules, ContentPack
from schemas.packs import PackError, available_packs, load_pack
from schemas.source import Source

GAME, RULES = "mandate2038", "0.8.0-rc.17-test"
#: the facts of the designers' reference data the cross-checks need, shipped with the tests
#: (tests/data/make_reference_facts.py writes them from ../shared: ids, numbers, short names)
FACTS = Path(__file__).resolve().parent / "data" / "reference-facts.json"
OUR_FACTIONS = {
    "dovetalis": "coalition_lab",
    "loopfold": "platform_empire",
    "mirevanta": "imperial_research_lab",
    "kestralyn": "vertical_empire",
    "orisonix": "safety_laboratory",
    "corthaven": "foundry",
}


@pytest.fixture(scope="module")
def pack() -> ContentPack:
    return load_pack(GAME, RULES)


def ref(name: str) -> Any:
    """The facts of one of the designers' reference files (tests/data/reference-facts.json)."""
    return json.loads(FACTS.read_text(encoding="utf-8"))["mandate2038"][name]


def _run_hash(run: str) -> str:
    """As tests/data/make_reference_facts.py hashes the designers' runs of words."""
    return hashlib.sha256(run.encode("utf-8")).hexdigest()[:12]


# --- loading ---------------------------------------------------------------------------------


def test_pack_loads_and_is_cached(pack: ContentPack) -> None:
    assert pack.game == GAME and pack.rules_version == RULES
    assert load_pack(GAME, RULES) is pack
    assert RULES in available_packs(GAME)
    assert available_packs("no-such-game") == []


def test_missing_pack_names_the_path() -> None:
    with pytest.raises(FileNotFoundError) as err:
        load_pack(GAME, "9.9.9")
    assert "9.9.9" in str(err.value) and "pack.json" in str(err.value)
    assert RULES in str(err.value)  # lists what does exist


def test_data_dir_override_and_bad_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "content" / GAME / "bad"
    folder.mkdir(parents=True)
    (folder / "pack.json").write_text('{"game": "mandate2038",\n  "rules_version": }', "utf-8")
    monkeypatch.setenv(packs.DATA_ENV, str(tmp_path))
    packs.clear_cache()
    try:
        assert available_packs(GAME) == ["bad"]
        with pytest.raises(PackError, match=r"pack\.json, line 2: not valid JSON"):
            load_pack(GAME, "bad")
        (folder / "pack.json").write_text(
            '{"game": "mandate2038", "rules_version": "bad"}', "utf-8"
        )
        packs.clear_cache()
        with pytest.raises(
            PackError, match=r"(?s)does not match ContentPack .*tiles: Field required"
        ):
            load_pack(GAME, "bad")
    finally:
        monkeypatch.delenv(packs.DATA_ENV)
        packs.clear_cache()


def test_cross_references_are_checked(pack: ContentPack) -> None:
    raw = pack.model_dump(mode="json")
    raw["tiles"][0]["generator"] = "no_such_contract"
    raw["eras"][1]["programs"].append("no_such_program")
    raw["factions"].append(raw["factions"][0])
    with pytest.raises(ValueError) as err:
        ContentPack.model_validate(raw)
    msg = str(err.value)
    assert "no_such_contract" in msg and "no_such_program" in msg and "duplicate" in msg


# --- counts ----------------------------------------------------------------------------------


def test_map_tiles_and_ring_pools(pack: ContentPack) -> None:
    assert len(pack.tiles) == 11
    center = {t.id: t.pool.center for t in pack.tiles if t.pool.center}
    inner = {t.id: t.pool.inner for t in pack.tiles if t.pool.inner}
    outer = {t.id: t.pool.outer for t in pack.tiles if t.pool.outer}
    assert center == {"frontier": 1}
    assert inner == dict.fromkeys(
        ["research", "cloud", "foundry", "capital", "talent", "grid_reactor"], 1
    )
    assert outer == dict.fromkeys(
        ["research", "cloud", "consumer", "media", "government", "renewable_basin"], 2
    )
    assert sum(center.values()) + sum(inner.values()) + sum(outer.values()) == 19


def test_tile_facts(pack: ContentPack) -> None:
    frontier = pack.tile("frontier")
    assert frontier.facility_spaces == 0 and frontier.contract_icon is None
    assert all(t.facility_spaces == 2 for t in pack.tiles if t.id != "frontier")
    energy = {t.id for t in pack.tiles if t.category == "energy"}
    assert energy == {"grid_reactor", "renewable_basin"}
    assert {t.id: t.generator_slots for t in pack.tiles if t.generator_slots} == {
        "grid_reactor": 3,
        "renewable_basin": 3,
    }
    assert pack.tile("grid_reactor").generator == "emergency_power_complex"
    assert pack.tile("renewable_basin").generator == "civic_heat_battery"
    assert {t.id for t in pack.tiles if t.political} == {"media", "government", "capital"}
    assert pack.tile("cloud").production.compute == 2
    assert (
        pack.tile("foundry").production.compute == 1 and pack.tile("foundry").production.runway == 1
    )
    assert pack.tile("talent").production.team_move == 1
    assert pack.tile("government").production.trust == 1
    assert len({t.visit_key for t in pack.tiles}) == 11


def test_factions(pack: ContentPack) -> None:
    assert {f.id: f.ref_id for f in pack.factions} == OUR_FACTIONS
    for f in pack.factions:
        assert len(f.abilities) == 2, f.id
        assert pack.faction(f.ref_id) is f
    assert sum(f.starts.trust for f in pack.factions) == 18
    assert pack.setup_collective_trust(["mirevanta", "kestralyn", "corthaven", "loopfold"]) == 10
    window = next(a for a in pack.faction("corthaven").abilities if a.id == "allocation_window")
    assert window.era == 2 and window.timing == "once_when_unlocked" and window.persists is False
    assert all(
        a.persists for f in pack.factions for a in f.abilities if a.id != "allocation_window"
    )
    rule = pack.faction("mirevanta").scoring_rule
    assert rule is not None
    assert rule.capability_mandate == {9: 1, 12: 1}
    assert rule.full_at_players == {12: (5, 2)}
    assert pack.faction("orisonix").starts.research_protection == 2


def test_printed_mandate_is_the_already_earned_awards(pack: ContentPack) -> None:
    """Each printed starting Mandate equals the thresholds and Customers it already includes."""
    s = pack.scoring
    for f in pack.factions:
        st = f.starts
        reached = [v for v in s.trust_thresholds if st.trust >= v]
        assert st.scored_trust_thresholds == reached, f.id
        assert st.scored_customers == st.customers, f.id
        earned = sum(s.trust_thresholds[v] for v in reached) + sum(
            s.customer_mandate[: st.customers]
        )
        assert earned == st.mandate, f.id


def test_headlines(pack: ContentPack) -> None:
    assert len(pack.headlines) == 24
    assert sum(h.default for h in pack.headlines) == 16
    default = Counter(h.era for h in pack.headlines if h.default)
    advanced = Counter(h.era for h in pack.headlines if not h.default)
    assert [default[e] for e in (1, 2, 3, 4)] == [5, 4, 3, 4]
    assert [advanced[e] for e in (1, 2, 3, 4)] == [1, 2, 3, 2]
    assert all(bool(h.requires) != h.default for h in pack.headlines)


def test_era_mandates(pack: ContentPack) -> None:
    assert len(pack.era_mandates) == 12
    assert Counter(m.era for m in pack.era_mandates) == {1: 3, 2: 3, 3: 3, 4: 3}
    assert {m.criterion for m in pack.era_mandates} == {
        "capability_gained",
        "best_run_unique_domains",
        "fund_runway_gained",
        "powered_facilities",
        "demand_satisfied",
        "compute_produced",
        "active_new_joint_ventures",
        "trust_among_deployers",
        "controlled_categories",
        "customers_gained",
        "fewest_scrutiny_added",
        "capability_among_trust4",
    }
    assert pack.era_mandate("stack_reaches_horizon").minimum == 2
    assert [m.id for m in pack.era_mandates if m.lowest_wins] == ["zero_incident_quarter"]


def test_training_deck(pack: ContentPack) -> None:
    assert sum(c.copies for c in pack.training_deck) == 40
    domains = [c for c in pack.training_deck if c.kind == "domain"]
    assert len(domains) == 7 and all(c.copies == 4 for c in domains)
    assert {c.id for c in pack.training_deck if c.kind == "special"} == {
        "curated_corpus",
        "benchmark_leak",
        "human_evaluation",
    }


def test_programs_eras_and_contracts(pack: ContentPack) -> None:
    assert [p.id for p in pack.programs] == [
        "mega_cluster",
        "reorganization",
        "covenant",
        "narrative_capture",
        "agent_swarm",
        "fusion",
    ]
    assert pack.program("open_weights").id == "covenant"
    assert [e.program_markers for e in pack.eras] == [0, 1, 1, 2]
    assert [e.audit_base_draws for e in pack.eras] == pack.audit.base_draws == [2, 3, 4, 5]
    unlocked: list[str] = []
    for e in pack.eras:
        unlocked += [p.id for p in pack.programs if p.era == e.era]
        assert e.programs == unlocked, e.era  # cumulative
    assert {c.id for c in pack.power_contracts} == {
        "civic_heat_battery",
        "emergency_power_complex",
        "fusion",
    }
    mc = pack.program("mega_cluster")
    assert (mc.runway, mc.compute, mc.scrutiny) == (3, 2, 2)


def test_scoring_and_endings(pack: ContentPack) -> None:
    s = pack.scoring
    assert s.customer_capability == [2, 4, 6, 8, 10]
    assert s.customer_mandate == [2, 2, 2, 1, 1]
    assert s.capability_thresholds == {3: 2, 6: 2, 9: 2, 12: 2}
    assert s.trust_thresholds == {2: 2, 4: 2, 6: 2}
    assert (s.era_mandate_winner, s.era_mandate_tied, s.offline_penalty) == (2, 1, 1)
    assert s.caps == {
        "runway": 12,
        "compute": 10,
        "capability": 12,
        "customers": 5,
        "trust": 6,
        "research_protection": 2,
    }
    assert {w.id for w in pack.world_endings} == {
        "singularity",
        "closed_loop",
        "plural_future",
        "assured_continuity",
    }
    assert pack.world_ending(agi=True, open_=False).id == "closed_loop"
    assert pack.world_ending(agi=False, open_=True).id == "plural_future"


@pytest.mark.parametrize(
    ("players", "expected"),
    [(2, [1, 2, 2, 3]), (3, [2, 2, 3, 4]), (4, [2, 3, 4, 5]), (5, [3, 4, 5, 6]), (6, [3, 5, 6, 8])],
)
def test_audit_draws_round_halves_up(pack: ContentPack, players: int, expected: list[int]) -> None:
    assert [pack.audit.draws(era, players) for era in (1, 2, 3, 4)] == expected


def test_audit_draws_minimum_one() -> None:
    rules = AuditRules(base_draws=[1, 1, 1, 1], penalty_text="x", source=Source())
    assert rules.draws(1, 1) == 1


# --- sources and disagreements ---------------------------------------------------------------


def _entries(model: BaseModel, path: str = "pack") -> list[tuple[str, BaseModel]]:
    """Every sub-model that has a ``source`` field, with its path."""
    found: list[tuple[str, BaseModel]] = []
    if "source" in type(model).model_fields:
        found.append((path, model))
    for name in type(model).model_fields:
        value = getattr(model, name)
        values = value if isinstance(value, list) else [value]
        for i, v in enumerate(values):
            if isinstance(v, BaseModel) and not isinstance(v, Source):
                found += _entries(v, f"{path}.{name}[{i}]")
    return found


def test_every_entry_has_a_source(pack: ContentPack) -> None:
    entries = _entries(pack)
    assert len(entries) > 100
    missing = [
        path
        for path, e in entries
        if e.source is None or not (e.source.seed or e.source.ref)  # type: ignore[attr-defined]
    ]
    assert missing == []


def test_disagreements_recorded(pack: ContentPack) -> None:
    ids = {d.id for d in pack.disagreements}
    for topic in (
        "ceo-presence",
        "prediction-bag",
        "default-power-purchase",
        "research-protection-cap",
        "influence-wording",
        "loopfold-next-customer",
    ):
        assert topic in ids
    doc = (Path(__file__).resolve().parents[1] / "docs" / "content.md").read_text("utf-8")
    for d in pack.disagreements:
        assert d.id and d.id in doc, f"disagreement {d.id} is not explained in docs/content.md"


# --- cross-checks against the designers' reference data --------------------------------------


def test_tiles_match_reference(pack: ContentPack) -> None:
    board = ref("game-config.json")["board"]
    for t in board["tiles"]:
        ours = pack.tile(t["id"])
        assert ours.category == t["category"], t["id"]
        assert ours.pool.model_dump() == t["placement"], t["id"]
        assert ours.facility_spaces == t.get("facilitySpaces", 2), t["id"]
        assert ours.landmark == t["landmark"]
    assert sum(sum(t["placement"].values()) for t in board["tiles"]) == board["selectedTileCount"]


def test_factions_match_reference(pack: ContentPack) -> None:
    for f in ref("factions.json")["factions"]:
        ours = pack.faction(f["id"])
        st = f["starts"]
        assert ours.starts.runway == st["runway"]
        assert ours.starts.compute == st["compute"]
        assert ours.starts.capability == st["capability"]
        assert ours.starts.customers == st["customers"]
        assert ours.starts.trust == st["trust"]
        assert ours.starts.research_protection == st["researchProtection"]
        assert ours.starts.mandate == st["startingPublicMandate"]
        assert ours.colour == f["color"] and ours.name == f["name"]
        assert ours.ceo == f["chiefExecutive"]
        timing = {"once_per_round": "once_per_era"}
        got = [(a.id, a.era, a.timing, a.persists) for a in ours.abilities]
        want = [
            (a["id"], a["round"], timing.get(a["timing"], a["timing"]), a["persistsAfterUnlock"])
            for a in f["abilities"]
        ]
        assert got == want, f["id"]
    rules = ref("game-config.json")["factionRules"]["imperial"]["peerValidation"]
    rule = pack.faction("mirevanta").scoring_rule
    assert rule is not None
    assert rule.capability_mandate[rules["lateFromCapability"]] == rules["baseMandate"]
    players, full = rule.full_at_players[rules["fullValidationCapability"]]
    assert (players - 1, full) == (rules["minimumRivalsForFullMandate"], rules["fullMandate"])


def test_headlines_match_reference(pack: ContentPack) -> None:
    durations = {
        "current_cycle": "current_cycle",
        "immediate": "immediate",
        "current_era_production": "this_production",
        "current_era": "rest_of_era",
        "remainder_of_game": "rest_of_game",
        "final_claim_resolution": "final_claims",
        "printed_result": "per_roll",
    }
    cards = ref("headlines.json")["headlines"]
    assert [h.id for h in pack.headlines] == [c["id"] for c in cards]
    for c in cards:
        ours = pack.headline(c["id"])
        assert (ours.era, ours.badge, ours.name) == (c["round"], c["resolutionType"], c["name"])
        assert ours.default == (not c.get("requiredRuleModules"))
        assert ours.requires == c.get("requiredRuleModules", [])
        assert ours.duration == durations[c["duration"]]


def test_era_mandates_match_reference(pack: ContentPack) -> None:
    data = ref("mandates.json")
    assert (pack.scoring.era_mandate_winner, pack.scoring.era_mandate_tied) == (
        data["points"]["winner"],
        data["points"]["tied"],
    )
    for c in data["mandates"]:
        ours = pack.era_mandate(c["id"])
        assert (ours.era, ours.minimum, ours.name) == (
            c["era"],
            c["minimumQualification"],
            c["name"],
        )


def test_numbers_match_game_config(pack: ContentPack) -> None:
    g = ref("game-config.json")
    deck = {c["id"]: c["count"] for c in g["trainingDeck"]["cards"]}
    assert {c.id: c.copies for c in pack.training_deck} == deck
    kinds = {c["id"]: c["kind"] for c in g["trainingDeck"]["cards"]}
    assert {c.id: c.kind for c in pack.training_deck} == kinds
    caps = {k: v["cap"] for k, v in g["resources"].items()}
    caps["research_protection"] = caps.pop("researchProtection")
    assert pack.scoring.caps == caps
    sc = g["scoring"]
    assert pack.scoring.capability_thresholds == {
        t["value"]: t["mandate"] for t in sc["capabilityThresholds"]
    }
    assert pack.scoring.trust_thresholds == {
        t["value"]: t["mandate"] for t in sc["trustThresholds"]
    }
    sched = sc["customerMandateSchedule"]
    assert pack.scoring.customer_mandate == [
        sched["baseMandate"] if n < sched["lateFromCustomer"] else sched["lateMandate"]
        for n in range(1, 6)
    ]
    assert pack.scoring.offline_penalty == sc["finalOnly"]["offlineFacilityPenalty"]
    rounds = g["rounds"]
    assert [e.ref_id for e in pack.eras] == [r["id"] for r in rounds]
    assert [e.program_markers for e in pack.eras] == [r["programUses"] for r in rounds]
    assert [e.audit_base_draws for e in pack.eras] == [r["auditBaseDraws"] for r in rounds]
    assert [[pack.program(p).id for p in r["escalations"]] for r in rounds] == [
        e.programs for e in pack.eras
    ]
    assert pack.audit.cubes_per_player == g["audit"]["scrutinySupplyPerPlayer"]
    for src in g["powerSources"]:
        ours = next(c for c in pack.power_contracts if c.ref_id == src["id"])
        assert (ours.runway, ours.capacity, ours.era) == (
            src["runwayCost"],
            src["capacity"],
            src["round"],
        )
        assert pack.tile(src["location"]).id == ours.tile
    assert pack.shared_supply is not None
    assert pack.shared_supply.joint_venture_pairs == g["sharedSupply"]["jointVenturePairs"]
    assert pack.shared_supply.mega_cluster_pairs == g["sharedSupply"]["megaClusterPairs"]
    assert pack.player_supply is not None
    assert pack.player_supply.teams == g["playerSupply"]["teams"]
    assert pack.dossier is not None
    assert [(m.era, m.threshold) for m in pack.dossier.modules] == [
        (m["round"], m["threshold"]) for m in g["agiDossier"]["modules"]
    ]
    assert pack.dossier.tie_breakers == g["agiDossier"]["claimResolution"]["tieBreakers"]


def test_programs_match_reference(pack: ContentPack) -> None:
    esc = ref("escalations.json")["escalations"]
    assert [pack.program(e["id"]).era for e in esc] == [e["unlockedRound"] for e in esc]


def _word_runs(text: str, n: int) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def test_texts_are_in_our_own_words(pack: ContentPack) -> None:
    """No pack text repeats eight or more consecutive words of the designers' card texts
    (disagreements, which quote on purpose, and sources are left out)."""
    n = 8
    designers = set(ref("designers_text_runs"))  # hashes of their runs, not their texts
    assert len(designers) > 1000
    raw = pack.model_dump(mode="json", exclude={"disagreements"})
    copied = []
    stack: list[tuple[str, Any]] = [("pack", raw)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack += [(f"{path}.{k}", v) for k, v in node.items() if k != "source"]
        elif isinstance(node, list):
            stack += [(f"{path}[{i}]", v) for i, v in enumerate(node)]
        elif isinstance(node, str):
            same = sorted(r for r in _word_runs(node, n) if _run_hash(r) in designers)
            if same:
                copied.append((path, same[0]))
    assert copied == []


@pytest.mark.parametrize("bad", ["../mandate2038", "a/b", "", ".hidden", "x..y"])
def test_names_cannot_leave_the_data_folder(bad: str) -> None:
    with pytest.raises(PackError, match="is not a valid"):
        load_pack(GAME, bad)
    with pytest.raises(PackError, match="is not a valid"):
        load_pack(bad, RULES)


def test_log_vocabulary_matches_the_pack(pack: ContentPack) -> None:
    """The canonical log's fixed vocabularies name exactly the pack's Programs, Core Actions and
    World Endings, so a log and its pack cannot drift apart."""
    from typing import get_args

    from schemas import mandate2038 as log

    assert set(get_args(log.ProgramId)) == {p.id for p in pack.programs}
    assert set(get_args(log.CoreAction)) == {a.id for a in pack.core_actions}
    endings = get_args(log.FinalRecord.model_fields["ending"].annotation)
    assert set(get_args(endings[0])) == {w.id for w in pack.world_endings}
    assert log.RULES_VERSION in available_packs(log.GAME_ID)
    assert pack.player_supply is not None
    assert [m.id for m in pack.dossier.modules] == pack.player_supply.dossier_cards  # type: ignore[union-attr]
    assert set(log.DossierHand.model_fields) - {"seat"} == set(pack.player_supply.dossier_cards)
