"""More single-error cases, and clean "rule probes": short legal prefixes that expect no
finding and end with a checkpoint holding the values the rules give (a disagreement shows up as
checkpoint/mismatch at that checkpoint)."""

from tests.golden.build import Game, case
from tests.golden.cases.complete_games import game_three_players


def _opening(g: Game) -> None:
    g.setup()
    g.era_start(1)


@case
def trade_pushes_rival_above_runway_cap():
    """§3 Universal costs and caps: a trade cannot move resources through a player above a cap
    (Runway 12). Kestralyn takes Venture funding on the Allocation Exchange in cycle 1 (6 + 4 + 1
    = 11, 2 cubes). In cycle 2 Loopfold sells it nothing but buys a Compute with a Runway
    (Kestralyn 12); then Mirevanta does the same, accepted: Kestralyn would hold 13
    -> trade/over-cap at Mirevanta's trade."""
    g = Game()
    _opening(g)
    g.cycle_of({1: ("fund", {"to": "I4", "mode": "venture"}), 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    g.add("trade", seat=2, rival=1, give="runway", accepted=True)
    g.play(2, "organize")
    g.add("trade", seat=3, rival=1, give="runway", accepted=True)
    g.expect("trade/over-cap")
    return g


@case
def checkpoint_trust_above_track():
    """§3 Trust: a zero-to-six track. After cycle 1 the table writes Mirevanta's Trust as 7
    -> resource/out-of-range at the checkpoint (the impossible value is the slip)."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.add("checkpoint", label="after cycle 1", seats=[{"seat": 3, "trust": 7}])
    g.expect("resource/out-of-range")
    return g


@case
def deploy_after_trading_away_the_compute():
    """§7 Deploy: spend one Compute. Mirevanta researches Code, Science in cycle 1 (C3 -> 2, Cap 2),
    sells a Compute to seat 1 before its cycle 2 Fund (C1), and in cycle 3 (Initiative 3) sells
    its last Compute to seat 1 and then resolves its Deploy on Frontier with none left
    -> deploy/no-compute. (The Deploy was eligible when selected, with one Compute; a trade
    cannot replace the selected Action.)"""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: ("research", {"cards": ["code", "science"]})})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "fund"})
    g.play(2, "organize")
    g.add("trade", seat=3, rival=1, give="compute", accepted=True)
    g.play(3, "fund")
    g.play(1, "organize")
    g.headline()
    g.reveal({1: "influence", 2: "influence", 3: "deploy"})
    g.add("trade", seat=3, rival=2, give="compute", accepted=True)
    g.turn(3, "deploy")
    g.expect("deploy/no-compute")
    return g


@case
def research_after_trading_away_the_compute():
    """§7 Research: spend one Compute. Mirevanta (C3) sells one Compute before each of its three
    turns in Era I; it selects Research in cycle 3 holding 1 Compute (eligible), sells it, then
    researches with none -> research/no-compute at the Research event."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.play(1, "fund")
    g.play(2, "fund")
    g.add("trade", seat=3, rival=1, give="compute", accepted=True)
    g.play(3, "fund")
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    g.play(2, "organize")
    g.add("trade", seat=3, rival=2, give="compute", accepted=True)
    g.play(3, "organize")
    g.play(1, "organize")
    g.headline()
    g.reveal({1: "influence", 2: "influence", 3: "research"})
    g.add("trade", seat=3, rival=1, give="compute", accepted=True)
    g.research(3, ["code"], "bank")
    g.expect("research/no-compute", g.last - 2)
    return g


@case
def cycle_skipped():
    """§6B: three action cycles in order. After cycle 1 the log reveals the Headline of cycle 3
    -> cycle/out-of-order."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.headline(cycle=3)
    g.expect("cycle/out-of-order")
    return g


@case
def event_after_game_end():
    """Canonical log / §11: nothing is played after the game ends. The clean three-player game
    followed by one more Fund -> log/event-after-game-end."""
    g = game_three_players()
    g.add("fund", seat=1, path=["I4"])
    g.expect("log/event-after-game-end")
    return g


# --- clean rule probes ----------------------------------------------------------------------


@case
def probe_audit_costs_trust_without_runway():
    """Clean probe, §6E: each drawn cube costs its owner one Runway; if none remains, one Trust.
    Mirevanta (R3 C3 T3): c1 builds Facility 1 on I1 (R1); c2 moves to the Workforce Transition
    District (I5) and recruits a Team there for 2-1 = 1 Runway (visit bonus; R0); c3 researches
    Code, Code and crashes (+1 cube, C2). Production: Facility 1 on the Research Commons +1 C
    (C3). Audit (2 draws, the bag holds Mirevanta's one cube): no Runway left, so Trust 3 -> 2
    (Mandate does not fall: Trust thresholds are permanent). Expected: no finding; the
    checkpoint holds M Mandate 2, Runway 0, Compute 3, Trust 2, bag 0."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: ("build", {"to": "I1"})})
    g.cycle_of({1: "organize", 2: "organize", 3: ("organize", {"mode": "recruit", "to": "I5"})})
    g.cycle_of({1: "influence", 2: "influence",
                3: ("research", {"cards": ["code", "code"], "end": "crash", "banked": 0})})
    g.end_era(draws=[3])
    g.add("checkpoint", label="end of Era I", seats=[
        {"seat": 3, "mandate": 2, "runway": 0, "compute": 3, "capability": 0, "trust": 2,
         "scrutiny": 0}])
    return g


@case
def probe_frontier_visit_bonus():
    """Clean probe, Map reference (FACTS §2): an acting piece ending on Frontier may, after Act,
    gain 1 Runway and add 1 Scrutiny. Seat 1 Funds on Frontier and takes the bonus: Runway
    6 + 2 + 1 = 9 and one cube in the bag. Expected: no finding; checkpoint R9, bag 1."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "fund", frontier_bonus=True)
    g.play(2, "fund")
    g.play(3, "fund")
    g.add("checkpoint", label="after cycle 1", seats=[{"seat": 1, "runway": 9, "scrutiny": 1}])
    return g


@case
def probe_matter_compiler_crash_systemic_risk():
    """Clean probe, Headline The Matter Compiler Enters Public Maintenance (Era IV): a crash adds 3
    Scrutiny instead of 1, plus one black Systemic Risk cube. After three filler Eras (Fund,
    Organize, Influence; no cubes), seat 1 researches Code, Code in Era IV cycle 1 and crashes:
    3 cubes and 1 black cube. Expected: no finding; checkpoint bag 3, Systemic Risk 1."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.cycle_of({1: ("research", {"cards": ["code", "code"], "end": "crash", "banked": 0}),
                2: "fund", 3: "fund"}, headline="recursive_self_improvement")
    g.add("checkpoint", label="after Era IV cycle 1", seats=[{"seat": 1, "scrutiny": 3}],
          systemic_risk=1)
    return g


# --- more single-error cases (structure and less common checks) ------------------------------


@case
def setup_two_players_warning():
    """Core rules, Suggested player count 3–5: a two-player table is outside the supported range
    -> setup/player-count (a warning, at setup)."""
    g = Game(("kestralyn", "loopfold"))
    g.expect("setup/player-count", None)
    g.setup()
    return g


@case
def setup_seat_numbers_with_gap():
    """§1 / canonical log: seats are numbered 1..N clockwise without gaps. Seats 1, 2, 4
    -> setup/seats."""
    g = Game(header={"seats": [{"seat": 1, "faction": "kestralyn"},
                               {"seat": 2, "faction": "loopfold"},
                               {"seat": 4, "faction": "mirevanta"}]})
    g.expect("setup/seats", None)
    g.setup()
    return g


@case
def setup_unknown_tile():
    """§1 step 1: the map is built from the nineteen printed tiles. O7 names 'casino', which is no
    tile -> setup/unknown-tile (one slip: the unknown name)."""
    from tests.golden.build import MAP

    m = dict(MAP)
    m["O7"] = "casino"
    g = Game(map=m)
    g.expect("setup/unknown-tile", None)
    g.setup()
    return g


@case
def setup_tactics_in_baseline():
    """§1: do not deal Tactics or secret objectives in the baseline game. A Default game with
    tactics -> setup/baseline-modules (a warning, at setup)."""
    g = Game(header={"tactics": True})
    g.expect("setup/baseline-modules", None)
    g.setup()
    return g


@case
def turn_frontier_bonus_off_frontier():
    """Map reference (FACTS §2): the Frontier visit bonus is for an acting piece that *ended on
    Frontier*. Seat 1 Funds on the Allocation Exchange (I4) and takes it
    -> turn/frontier-bonus-invalid."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "fund", to="I4", frontier_bonus=True)
    g.expect("turn/frontier-bonus-invalid")
    return g


@case
def turn_during_production():
    """§6 Era sequence: turns happen in the three action cycles (B), not in Production (C). After
    the Production marker of Era I, seat 1 records a Fund -> turn/wrong-phase."""
    g = Game()
    _opening(g)
    for plan in ("fund", "organize", "influence"):
        g.cycle_of({s: plan for s in g.seats})
    g.add("phase", name="production")
    g.add("fund", seat=1, path=["I4"])
    g.expect("turn/wrong-phase")
    return g


@case
def research_protect_without_duplicate():
    """§7 Research: Research Protection is spent *when a duplicate appears*. Seat 1 draws Code and
    ends the run with 'protect' -> research/protect-without-duplicate."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "research", 2: "fund", 3: "fund"})
    g.research(1, ["code"], "protect")
    g.expect("research/protect-without-duplicate")
    return g


@case
def production_mega_cluster_that_does_not_exist():
    """§5 Mega-Cluster / §6C.3: an allocation may satisfy the +2 demand of a Mega-Cluster its
    owner has. In Era I (no Programs yet) Kestralyn allocates demand to Mega-Cluster 1
    -> production/mega-cluster-demand."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"]})
    i = next(k for k in range(len(g.events) - 1, -1, -1)
             if g.events[k]["type"] == "allocate" and g.events[k]["seat"] == 1)
    g.events[i]["mega_clusters"] = [1]
    del g.events[i + 1:]
    g.expect("production/mega-cluster-demand", i)
    return g


@case
def production_workforce_move_without_facility():
    """Map reference: a powered Facility on the Workforce Transition District moves one Team one
    hex during Production. Kestralyn's only Facility is on the Research Commons (I1); it records
    a Workforce move of its Team F -> I2 -> production/workforce-invalid."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "fund", "influence"]})
    i = next(k for k in range(len(g.events) - 1, -1, -1)
             if g.events[k]["type"] == "allocate" and g.events[k]["seat"] == 3)
    del g.events[i + 1:]
    g.add("workforce_move", seat=1, facility=1, path=["F", "I2"])
    g.expect("production/workforce-invalid")
    return g


@case
def social_graph_on_uncontrolled_hex():
    """§9 Loopfold, The Social Graph (Era IV): during Deploy, use a *controlled* Human Access
    District or Consensus Network hex as the destination without moving there. Loopfold (Cap 4
    after an Era I run of Code, Science, Web, Books) deploys in Era IV from I4 naming O1, where
    nobody has a piece (uncontrolled) -> deploy/social-graph-invalid."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={2: [("research", {"cards": ["code", "science", "web", "books"]}),
                               "organize", "influence"]})
    g.filler_era(2)
    g.filler_era(3)
    g.era_start(4)
    g.headline()
    g.reveal({1: "fund", 2: "deploy", 3: "fund"})
    g.play(1, "fund")
    g.turn(2, "deploy", remote="O1")
    g.expect("deploy/social-graph-invalid")
    return g


@case
def allocation_window_price_above_rival_runway():
    """§9 Corthaven, Allocation Window (Era II, once): offer each temporary Compute to a rival for
    a Runway price *no higher than that rival's Runway*. Loopfold has 4 + 2 (Era I Fund) = 6
    Runway; Corthaven offers it a token for 9 -> ability/invalid."""
    g = Game(("kestralyn", "loopfold", "corthaven"))
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.headline()
    g.add("allocation_window", seat=3, offers=[{"to": 2, "price": 9, "answer": "reject"}])
    g.expect("ability/invalid")
    return g


@case
def audit_skipped():
    """§6 E. Public Audit: every Era has its Audit between the Dossier and the Era Mandate. Era I
    goes from the Dossier filing straight to scoring -> audit/missing (a warning) at the scoring
    marker."""
    g = Game()
    g.setup()
    g.filler_era(1)
    k = next(i for i, e in enumerate(g.events) if e == {"type": "phase", "name": "audit"})
    del g.events[k:k + 2]
    del g.events[k + 2:]
    g.expect("audit/missing", k)
    return g


# --- final record slips on the five-player game (AGI emerges) --------------------------------


def _five(**changes):
    from tests.golden.cases.complete_games import game_five_players

    g = game_five_players()
    rec = next(e for e in g.events if e["type"] == "final_record")
    for k, v in changes.items():
        if v is None:
            rec.pop(k, None)
        else:
            rec[k] = v
    return g, g.events.index(rec)


@case
def final_wrong_claim_strength():
    """§5 Claim strength: Orisonix's claim = Publication 2 (The Universe Receives a Continuity
    Plan was revealed in Era IV) + Benchmark + Authority + one Capability threshold (3) = 5
    (worked out in complete_five_players). The table writes 4 -> final/claim-strength."""
    g, i = _five(claims=[{"seat": 2, "strength": 4}])
    g.expect("final/claim-strength", i)
    return g


@case
def final_agi_missed():
    """§11 The shared World Ending: AGI emerges when a fully paid Publication claim has two
    supported modules and the highest strength: Orisonix's does. The table records that AGI did
    not emerge (claimant, winners and ending left out) -> final/agi."""
    g, i = _five(agi=False, claimant=None, winners=None, ending=None)
    g.expect("final/agi", i)
    return g


@case
def final_wrong_winner():
    """§11 step 4: the strongest eligible claim replaces the provisional winner. The table keeps
    Mirevanta (the provisional winner) as the final winner instead of Orisonix
    -> final/winner."""
    g, i = _five(winners=[3])
    g.expect("final/winner", i)
    return g


@case
def production_over_capacity():
    """§6C.3 Allocate / §4 Power delivery: each local source powers at most its capacity, and the
    starting grid cannot supply Mega-Cluster demand. Kestralyn: Era I Facility 1 on I1; Era II a
    Civic Heat Battery on O12 (3 Power; reaches O12 and the adjacent I1); Era III Facility 2 on
    O12 and a Mega-Cluster on hosts 1 and 2 (I1-O12 adjacent; Era III Production legal: grid ->
    Facility 1, battery -> Facility 2 + 2 demand = 3); Era IV Facility 3 on I1. Its Era IV
    allocation powers Facilities 1, 2, 3 and the Mega-Cluster: the grid covers Facility 1, the
    battery would have to cover 1 + 1 + 2 = 4 > 3 -> production/over-capacity at that allocation.
    (The Era III Audit draws the one cube left: Mega-Cluster +2, the Thermal and Water Basin
    Facility removes 1.)"""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"]})
    g.filler_era(2, turns={1: [("build", {"to": "O12", "mode": "generator"}), "organize",
                               "fund"]})
    g.era_start(3)
    g.cycle_of({1: ("build", {"to": "O12"}), 2: "fund", 3: "fund"})
    g.cycle_of({1: ("mega_cluster", {"to": "I1", "hosts": [1, 2]}), 2: "organize",
                3: "organize"})
    g.cycle_of({1: "fund", 2: "influence", 3: "influence"})
    g.production({1: [1, 2]}, extra={1: {"mega_clusters": [1]}})
    g.dossiers()
    g.audit([1])
    g.scoring()
    g.era_start(4)
    g.cycle_of({1: ("build", {"to": "I1"}), 2: "fund", 3: "fund"})
    g.cycle_of({1: "organize", 2: "organize", 3: "organize"})
    g.cycle_of({1: "fund", 2: "influence", 3: "influence"})
    g.production({1: [1, 2, 3]}, extra={1: {"mega_clusters": [1]}})
    i = next(k for k in range(len(g.events) - 1, -1, -1)
             if g.events[k]["type"] == "allocate" and g.events[k]["seat"] == 1)
    g.expect("production/over-capacity", i)
    return g


@case
def era_mandate_tie_scored_for_one():
    """§6F: tied qualifying leaders score one Mandate *each*. Era I (Capital Finds the Default):
    every seat Funds conservatively once (+2 each), so all three tie and each scores 1; the
    table scores only seat 1 -> mandate/era-mandate-scorers."""
    g = Game()
    g.setup()
    g.filler_era(1, scorers=[1])
    g.expect("mandate/era-mandate-scorers")
    return g


@case
def era_mandate_nobody_qualifies():
    """§6F: each Era Mandate has a minimum qualification; if nobody qualifies, nobody scores.
    Era I (Capital Finds the Default, minimum 1 Runway gained by Fund): nobody Funds (Organize,
    Influence, then a one-card Training Run each). The table scores seat 2
    -> mandate/era-mandate-scorers."""
    g = Game()
    g.setup()
    run = {1: "code", 2: "science", 3: "web"}
    g.filler_era(1, turns={s: ["organize", "influence", ("research", {"cards": [run[s]]})]
                           for s in g.seats}, scorers=[2])
    g.expect("mandate/era-mandate-scorers")
    return g


@case
def slip_audit_after_era_mandate():
    """§6 Era sequence: E. Public Audit comes before F. Score the Mandate. Era I is recorded as
    Production, Dossiers, the Era Mandate scoring and only then the Audit (the draws are the
    ones the table made) -> one audit/after-scoring error at the Audit, and no audit/missing
    warning at the scoring (the engine used to give only that warning, exit 0)."""
    g = Game()
    g.setup()
    g.filler_era(1)
    k = next(i for i, e in enumerate(g.events) if e == {"type": "phase", "name": "audit"})
    audit = g.events[k:k + 2]
    del g.events[k:k + 2]
    g.events.extend(audit)
    g.expect("audit/after-scoring", len(g.events) - 1)
    g.era_start(2)
    return g


@case
def slip_dossier_after_audit():
    """§6 Era sequence: D. File the Era Dossier comes before E. Public Audit. In Era I seat 2
    files its Dossier after the Audit -> one dossier/after-audit error at that filing, and no
    dossier/missing warning at the Audit (the engine used to give only that warning, exit 0)."""
    g = Game()
    g.setup()
    g.filler_era(1)
    k = next(i for i, e in enumerate(g.events)
             if e.get("type") == "dossier" and e.get("seat") == 2)
    late = g.events.pop(k)
    a = next(i for i, e in enumerate(g.events) if e.get("type") == "audit")
    g.events.insert(a + 1, late)
    g.expect("dossier/after-audit", a + 1)
    g.era_start(2)
    return g


@case
def emergency_power_only_to_local_facilities():
    """§6C.3 Allocate: each player allocates "starting-grid, Generator, purchased, and
    supplemental Power among legal local Facilities"; The Counterfactual Casino Clears Priority
    Load (Era II) adds up to 2 emergency Power beyond real capacity, which is supplemental Power:
    it goes only to a Facility that could receive the seat's local Power (§4 Power delivery: on
    or next to its Generator, or Facility 1 on its starting grid). Kestralyn (seat 1) builds
    Facility 1 on I1 in Era I and Facility 2 on O7 in Era II, and no Generator; in the Era II Production
    under the Headline it powers Facilities 1 and 2 with 1 emergency Power -> production/
    not-powered (Facility 2 is not a legal local Facility; the engine used to let emergency Power
    reach any Facility)."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "influence"]})
    g.era_start(2)
    g.cycle_of({1: ("build", {"to": "O7"}), 2: "fund", 3: "fund"})
    g.cycle_of({1: "organize", 2: "organize", 3: "organize"})
    g.cycle_of({1: "influence", 2: "influence", 3: "influence"}, headline="emergency_power_authority")
    g.production({1: [1, 2]}, extra={1: {"emergency": 1}})
    g.expect("production/not-powered", len(g.events) - 3)  # seat 1's allocation
    return g
