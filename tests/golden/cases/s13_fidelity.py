"""Rules fidelity round two (issue 9): one golden game per rule the engine used to get wrong.
Each failed on the engine before its fix (a missing finding, a spurious finding, or an
unreadable log for a field the schema did not have)."""

from tests.golden.build import Game, case


def _cp(g: Game, label: str, seats: dict[int, dict]) -> None:
    g.add("checkpoint", label=label, seats=[{"seat": s, **v} for s, v in sorted(seats.items())])


@case
def court_adopts_reward_paid_after_resolution():
    """Headline The Court Adopts Supported Meaning (ai_written_law, Era III): "Every player who
    selects it takes 2 Runway once it has resolved and receives 1 Scrutiny". The reward cannot
    pay for the action itself. Loopfold (seat 2, R4 C2, one Customer): Era I builds Facility 1
    on I1 (R2), Organizes, researches Code (C1, Capability 1); Production: +1 Runway for its
    Customer (R3), +1 Compute from Facility 1 on the Research Commons (C2). Era II builds
    Facility 2 on the Fabrication Corridor I3 (2 - 1 = 1 Runway: R2), recruits a Team there
    (2 Runway: R0), researches Science (C1); Production: R1, C2. Era III cycle 1: nobody controls
    the Civic Permission Authority, so Initiative (seat 1) names Build; Loopfold selects Build
    and builds Facility 3 on the Allocation Exchange I4 for 2 Runway with 1
    -> build/cannot-pay (the engine used to pay the 2 Runway at the reveal: no finding)."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={2: [("build", {"to": "I1"}), "organize", ("research", {"cards": ["code"]})]})
    g.filler_era(2, turns={2: [("build", {"to": "I3"}), ("organize", {"mode": "recruit"}),
                               ("research", {"cards": ["science"]})]})
    g.era_start(3)
    g.headline("ai_written_law", action="build")
    g.reveal({1: "fund", 2: "build", 3: "fund"})
    g.play(1, "fund")
    g.turn(2, "build", to="I4")
    g.expect("build/cannot-pay")
    return g


@case
def probe_mind_trust_reward_after_costs():
    """Headline The Metropolitan Mind Trust Incorporates (autonomous_corporation, Era IV): each
    player who chose the most-selected Core Action "takes 2 Runway once that action has
    resolved, and receives 2 Scrutiny". Kestralyn and Loopfold stand on the Allocation Exchange
    I4 with 12 Runway (6 +2 +3 +3 and 4 +2 +3 +3, capped) and both Build Facility 1 there
    (2 Runway): 12 - 2 = 10, then +2 = 12; 2 cubes each. Mirevanta Funds. Clean (the engine used
    to add the 2 Runway at the reveal, capped at 12, then charge the Build: 10)."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.cycle_of({1: ("build", {}), 2: ("build", {}), 3: "fund"}, headline="autonomous_corporation")
    _cp(g, "after cycle 1", {1: {"runway": 12, "scrutiny": 2}, 2: {"runway": 12, "scrutiny": 2}})
    return g


@case
def probe_mind_trust_tie_initiative_chooses():
    """The Metropolitan Mind Trust Incorporates: "find the Core Action chosen most often
    (Initiative settles ties)". Era IV cycle 1 (Initiative: seat 1, first Initiative 1 passed
    nine times at three players): Fund, Organize and Influence are chosen once each; the
    Initiative holder chooses Organize, recorded on the reveal (``tie_choice``). Loopfold, who
    Organized, takes 2 Runway (already 12) and 2 Scrutiny; Kestralyn (Fund) none. Clean (the
    engine used to pick the tied action of the seat nearest Initiative, and could not read the
    choice)."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.headline("autonomous_corporation")
    g.add("reveal", selections=[{"seat": 1, "pick": "fund"}, {"seat": 2, "pick": "organize"},
                                {"seat": 3, "pick": "influence"}], tie_choice="organize")
    for s, spec in ((1, "fund"), (2, "organize"), (3, "influence")):
        g.play(s, spec)
    _cp(g, "after cycle 1", {1: {"scrutiny": 0}, 2: {"scrutiny": 2}, 3: {"scrutiny": 0}})
    return g


@case
def mind_trust_tie_choice_not_recorded():
    """The Metropolitan Mind Trust Incorporates: a three-way tie (Fund, Organize, Influence once
    each) is Initiative's choice; the reveal records none -> headline/choice-invalid at the
    reveal (the engine used to choose silently)."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.headline("autonomous_corporation")
    g.reveal({1: "fund", 2: "organize", 3: "influence"})
    g.expect("headline/choice-invalid")
    return g


def _ventures_table() -> Game:
    """Kestralyn's Facility 1 on I1, Loopfold's on I2, Mirevanta's on O2 (both next to I1);
    every CEO stays on its Facility (Era I: Build, Organize, Fund; Era II: Fund, Organize,
    Research)."""
    g = Game()
    g.setup()
    dest = {1: "I1", 2: "I2", 3: "O2"}
    g.filler_era(1, turns={s: [("build", {"to": dest[s]}), "organize", "fund"] for s in g.seats})
    cards = {1: "code", 2: "science", 3: "web"}
    g.filler_era(2, turns={s: ["fund", "organize", ("research", {"cards": [cards[s]]})]
                           for s in g.seats})
    return g


@case
def influence_terminate_away_from_own_facility():
    """§7 Influence: "At one of your Facilities, create a Joint Venture ... or terminate one named
    Joint Venture you share." Era III cycle 1: Kestralyn (on its Facility, I1) forms Joint
    Venture 1 with Loopfold's Facility on I2. Cycle 2: Loopfold moves its CEO to the Allocation
    Exchange I4 (no Facility of its own there) and terminates it
    -> influence/terminate-not-at-facility (the engine used to accept it from anywhere)."""
    g = _ventures_table()
    g.era_start(3)
    g.cycle_of({1: ("influence", {"mode": "jv", "facility": 1, "partner": 2,
                                  "partner_facility": 1, "accepted": True}),
                2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "fund", 2: "influence", 3: "organize"})
    g.play(2, ("influence", {"to": "I4", "mode": "terminate", "contract": 1}))
    g.expect("influence/terminate-not-at-facility")
    return g


@case
def probe_supported_meaning_after_termination():
    """Era Mandate Supported Meaning Becomes Law (voluntary_coordination_triumphs, Era III):
    most Joint Ventures created this Era that are active in this Era's Production, minimum 1.
    Cycle 1: Kestralyn forms a venture with Loopfold (token pair 1). Cycle 2: Loopfold, on its
    own Facility, terminates it (the pair returns). Cycle 3: Mirevanta (Facility on O2) forms one
    with Kestralyn's Facility on I1: the lowest free pair is 1 again. Production: every
    Facility on its starting grid, so the new venture is active. Counts: Kestralyn 1 (the new
    one), Mirevanta 1, Loopfold 0 (its venture was terminated). (Cycle 3's Headline, The
    Passive Citizen Dividend Activates, has Mirevanta, lowest Capability, produce its powered
    Facility 1 once.): tied leaders Kestralyn and
    Mirevanta score 1 each. Clean (the engine used to credit Loopfold, whose list held "pair 1",
    and Kestralyn twice)."""
    g = _ventures_table()
    g.era_start(3, mandate="voluntary_coordination_triumphs")
    g.cycle_of({1: ("influence", {"mode": "jv", "facility": 1, "partner": 2,
                                  "partner_facility": 1, "accepted": True}),
                2: "fund", 3: "fund"})
    g.cycle_of({1: "fund", 2: ("influence", {"mode": "terminate", "contract": 1}),
                3: "organize"})
    g.cycle_of({1: "organize", 2: "organize",
                3: ("influence", {"mode": "jv", "facility": 1, "partner": 1,
                                  "partner_facility": 1, "accepted": True})}, facility=1)
    g.end_era(scorers=[1, 3])
    return g


# --- every finding names its rule ------------------------------------------------------------


@case
def checkpoint_mismatch_cites_the_customer_rule():
    """A checkpoint mismatch caused by a rule cites that rule and the ledger step that produced
    the number. Era I: Kestralyn researches Code and Science (banks 2: Capability 2), Organizes,
    and Deploys on the Compute Estate I2 for Customer #1, which scores two Mandate (§3 Customers:
    #1-3 score two): 2 + 2 = 4. The table's checkpoint leaves Mandate at 2 -> checkpoint/mismatch
    citing core rules §3 Resources, Customers (the engine's +2 at the Deploy is the step the
    table did not make)."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: ("research", {"cards": ["code", "science"]}), 2: "fund", 3: "fund"})
    g.cycle_of({1: "organize", 2: "organize", 3: "organize"})
    g.cycle_of({1: ("deploy", {"to": "I2"}), 2: "influence", 3: "influence"})
    _cp(g, "after the Deploy", {1: {"mandate": 2, "customers": 1}})
    g.expect("checkpoint/mismatch",
             rule="core rules §3 Resources, Customers (#1–3 score two Mandate, #4–5 one)")
    return g


@case
def agent_swarm_second_fund_one_finding():
    """One error, one finding. Era IV: Loopfold's Agent Swarm names Fund and Influence, then
    resolves Fund twice before Influence: the second Fund is not one of its named actions
    -> one program/swarm-invalid (it used to be reported again as 'already exhausted')."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.headline()
    g.reveal({1: "fund", 2: "agent_swarm", 3: "fund"})
    g.play(1, "fund")
    g.turn(2, "agent_swarm", actions=["fund", "influence"], bonus_to="influence")
    g.turn(2, "fund", swarm=True, no_path=True)
    g.turn(2, "fund", swarm=True, no_path=True)
    g.expect("program/swarm-invalid")
    g.turn(2, "influence", swarm=True, no_path=True, mode="trust")
    return g


@case
def build_facility_out_of_order():
    """§1 step 6 and §7 Build: place your lowest-numbered unbuilt Facility (1 first, then 2, 3,
    4). Era I: Kestralyn's Build records Facility 2 with none built -> build/out-of-order at the
    build, not later at Production."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "build", 2: "fund", 3: "fund"})
    g.turn(1, "build", to="I1", facility=2)
    g.expect("build/out-of-order")
    return g


@case
def headline_tie_target_not_nearest_initiative():
    """§2 Universal tie rule: an effect that targets the player with the lowest of something goes
    to the tied player nearest Initiative clockwise. Era I cycle 1 (Initiative: seat 1), Open
    Weights Become the Default: the lowest-Customer player gains 1 Trust; Kestralyn and Mirevanta
    have 0 Customers (Loopfold 1): the tie goes to seat 1. The table records seat 3
    -> headline/tie-target at the Headline."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline("open_weights_drop", target=3)
    g.expect("headline/tie-target")
    return g
