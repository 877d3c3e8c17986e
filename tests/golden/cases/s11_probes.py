"""Clean rule probes for Programs, abilities and Headlines: legal prefixes that expect no
finding and end with a checkpoint of the values the rules give. In filler Eras every seat Funds
(Era I on Frontier: +2; later on the Allocation Exchange I4: +2+1), Organizes and Influences for
Trust on I4; Era Mandates are left for the engine to score (scorers not recorded)."""

from tests.golden.build import Game, case


def _cp(g: Game, label: str, seats: dict[int, dict], **kw) -> None:
    g.add("checkpoint", label=label, seats=[{"seat": s, **v} for s, v in sorted(seats.items())],
          **kw)


@case
def probe_fusion_demonstrator():
    """§5 Era IV, Fusion Demonstrator: spend five Runway, score two Mandate, add three Scrutiny.
    Kestralyn: Runway 6 +2 (Era I Fund on F) +3 +3 (Eras II, III on I4: 14, capped 12); Mandate 2
    +1 (Era I: every seat gained 2 Runway by Fund: tied leaders, 1 each) +2 (Trust 4 in Era II)
    = 5. Era IV cycle 1: Fusion on the Power Corridor: Runway 7, Mandate 7, bag 3."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.cycle_of({1: ("fusion", {"to": "I6"}), 2: "fund", 3: "fund"})
    _cp(g, "after Fusion", {1: {"mandate": 7, "runway": 7, "scrutiny": 3}})
    return g


@case
def probe_agent_swarm():
    """§5 Era IV, Agent Swarm: move once, resolve two different unused Core Actions from that
    destination, the visit bonus to only one, +3 Scrutiny. Loopfold on I4 swarms Fund + Influence
    with the bonus on Influence (so the Fund gets no Allocation Exchange +1): Runway 12 (already
    capped) +2 -> 12; Trust 5 -> 6 (+2 Mandate); 3 cubes. Mandate 4 +1 (Era I tie) +2 (Trust 4,
    Era II) +2 (Trust 6) = 9."""
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
    g.turn(2, "influence", mode="trust", swarm=True, no_path=True)
    g.play(3, "fund")
    _cp(g, "after Agent Swarm", {2: {"mandate": 9, "runway": 12, "trust": 6, "scrutiny": 3}})
    return g


@case
def probe_mega_cluster_and_the_shovels():
    """§5 Mega-Cluster and Corthaven's The Shovels. Kestralyn, Loopfold, Corthaven.
    Kestralyn: Era I builds Facility 1 on I1 (2-1 Industrial Velocity: R5), Organizes, Funds on I1
    (R7); Production +1 C (C4). Era II: builds its Emergency Power Complex on I6 (R6), Organizes,
    Funds (R8); Production: +1 cube (EPC), +1 C (C5); the Audit draws its cube (R7).
    Era III: c1 builds Facility 2 on O12 (2-1: R6; the EPC on I6 reaches O12 and I1); c2 (from
    I1) Mega-Cluster on hosts 1 and 2 (adjacent I1-O12): 3 R and 2 C (R3, C3), +2 cubes; another
    player spent two Compute in one Program, so Corthaven gains 1 Runway (12 already after three
    Funds: stays 12); c3 Funds (R5). Production: EPC +1 cube; Facility 1 on its grid, Facility 2
    and the +2 demand on the EPC (3 of 4 Power): Facility 1 +1 C, Facility 2 (Thermal and Water
    Basin) removes one cube, the Mega-Cluster +3 C: C7, bag 2."""
    g = Game(("kestralyn", "loopfold", "corthaven"))
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"]})
    g.filler_era(2, turns={1: [("build", {"to": "I6", "mode": "generator"}), "organize", "fund"]},
                 draws=[1])
    g.era_start(3)
    g.cycle_of({1: ("build", {"to": "O12"}), 2: "fund", 3: "fund"})
    g.cycle_of({1: ("mega_cluster", {"to": "I1", "hosts": [1, 2]}), 2: "organize",
                3: "organize"})
    g.cycle_of({1: "fund", 2: "influence", 3: "influence"})
    g.production({1: [1, 2]}, extra={1: {"mega_clusters": [1]}})
    _cp(g, "after Era III Production", {1: {"compute": 7, "scrutiny": 2},
                                        3: {"runway": 12}})
    return g


@case
def probe_deal_flow():
    """§9 Dovetalis, Deal Flow (Era I, once per Era): after completing a 1-for-1 immediate trade,
    gain 1 Runway. Dovetalis (R5 C2) gives Mirevanta one Runway for one Compute, accepted
    (R4 C3), gains 1 (R5), then Funds (R7). Mirevanta: R3+1 = 4, C2; Funds: R6."""
    g = Game(("dovetalis", "loopfold", "mirevanta"))
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.add("trade", seat=1, rival=3, give="runway", accepted=True)
    g.play(1, "fund")
    g.play(2, "fund")
    g.play(3, "fund")
    _cp(g, "after cycle 1", {1: {"runway": 7, "compute": 3}, 3: {"runway": 6, "compute": 2}})
    return g


@case
def probe_installed_base_on_consensus_network():
    """§9 Loopfold, Installed Base: the first Deploy each Era on a Human Access District or
    Consensus Network costs no Compute. Loopfold researches Code, Science, Web, Books in cycle 1
    (C2 -> 1, Cap 4: +2 Mandate), then walks F-I2-O4 (Consensus Network) in cycle 2 and deploys
    free: Customer #2 (needs Capability 4): +2 Mandate, 1 cube. Compute stays 1; Mandate 4+2+2."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: "fund", 2: ("research", {"cards": ["code", "science", "web", "books"]}),
                3: "fund"})
    g.cycle_of({1: "organize", 2: ("deploy", {"to": ["F", "I2", "O4"]}), 3: "organize"})
    _cp(g, "after cycle 2", {2: {"mandate": 8, "compute": 1, "capability": 4, "customers": 2,
                                 "scrutiny": 1}})
    return g


@case
def probe_black_cube_drawn_returns():
    """§6E: a drawn black Systemic Risk cube gives every player with at least three Customers the
    Era's penalty, then returns to supply. Kestralyn crashes a run under The Matter Compiler (Era
    IV cycle 1): 3 cubes and 1 black cube. The final Audit (3 players, Era IV: 4 draws) draws the
    black cube (nobody has 3 Customers) and Kestralyn's 3 cubes: Runway 12 -> 9. Systemic Risk
    left: 0; bag 0."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.cycle_of({1: ("research", {"cards": ["code", "code"], "end": "crash", "banked": 0}),
                2: "fund", 3: "fund"}, headline="recursive_self_improvement")
    g.cycle_of({1: "organize", 2: "organize", 3: "organize"})
    g.cycle_of({1: "influence", 2: "influence", 3: "influence"})
    g.production()
    g.dossiers()
    g.reveal_dossiers()
    g.audit(["black", 1, 1, 1])
    _cp(g, "after the final Audit", {1: {"runway": 9, "scrutiny": 0}}, systemic_risk=0)
    return g


@case
def probe_orbital_compute():
    """§9 Kestralyn, Orbital Compute (Era IV, once per game): instead of moving the acting piece,
    move one Facility to any legal open space; if it can be powered, resolve its production once;
    +2 Scrutiny. Facility 1 (on I1 since Era I; +1 C in each of three Productions: C6) moves to
    the Compute Estate I2 carrying its starting grid, so it is powered: +2 C -> 8; 2 cubes."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "influence"]})
    g.filler_era(2)
    g.filler_era(3)
    g.era_start(4)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "fund", orbital={"facility": 1, "to": "I2"})
    _cp(g, "after Orbital Compute", {1: {"compute": 8, "scrutiny": 2}})
    return g


@case
def probe_narrative_capture_gives_scrutiny():
    """§5 Era III, Narrative Capture: give a player with more Customers than you one Scrutiny.
    Kestralyn (0 Customers) gives one to Loopfold (1 Customer): Loopfold's bag 1."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.filler_era(2)
    g.era_start(3)
    g.cycle_of({1: ("narrative_capture", {"mode": "give_scrutiny", "target": 2}), 2: "fund",
                3: "fund"})
    _cp(g, "after cycle 1", {2: {"scrutiny": 1}})
    return g


@case
def probe_court_adopts_supported_meaning():
    """Headline The Court Adopts Supported Meaning (Era III): the Civic Permission Authority
    controller names a Core Action; selecting it gives +2 Runway and +1 Scrutiny; the controller
    gains +1 Trust if at least half its rivals (rounded up) picked it.
    Kestralyn Influences on the Civic Permission Authority O5 in Era II (1+1 Trust: 3 -> 5) and
    stays there, controlling it. Era III cycle 1: it names Fund; Loopfold and Mirevanta Fund on
    I4 (+2 +1 Allocation Exchange +2 Headline, capped at 12) and add one cube each; both rivals
    picked it, so Kestralyn gains 1 Trust (6)."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.filler_era(2, turns={1: ["fund", "organize", ("influence", {"to": "O5", "mode": "trust"})]})
    g.era_start(3)
    g.cycle_of({1: "organize", 2: "fund", 3: "fund"}, headline="ai_written_law", action="fund")
    _cp(g, "after cycle 1", {1: {"trust": 6}, 2: {"runway": 12, "scrutiny": 1},
                             3: {"runway": 12, "scrutiny": 1}})
    return g


@case
def probe_strategic_partnership():
    """§9 Dovetalis, Strategic Partnership (Era III): Joint Ventures with a Facility within two
    hexes; gain 1 Runway on forming one. Dovetalis (Facility 1 on I1) forms one in Era III with
    Loopfold's Facility 1 on I4 (two hexes away), accepted: R7 -> 8; Funds on I1 (10).
    Production: both hosts powered on their starting grids: Dovetalis gains Loopfold's host icon
    (Allocation Exchange: Runway) +1 -> 11; Loopfold gains Dovetalis's (Research Commons:
    Compute) +1 -> 3."""
    g = Game(("dovetalis", "loopfold", "mirevanta"))
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"],
                           2: [("build", {"to": "I4"}), "organize", "influence"]})
    g.filler_era(2, turns={1: ["fund", "organize", ("research", {"cards": ["code"]})]})
    g.era_start(3)
    g.cycle_of({1: ("influence", {"mode": "jv", "facility": 1, "partner": 2,
                                  "partner_facility": 1, "accepted": True}),
                2: "fund", 3: "fund"})
    g.cycle_of({1: "organize", 2: "organize", 3: "organize"})
    g.cycle_of({1: "fund", 2: "influence", 3: "influence"})
    g.production()
    _cp(g, "after Era III Production", {1: {"runway": 11}, 2: {"compute": 3}})
    return g


@case
def probe_metropolitan_mind_trust():
    """Headline The Metropolitan Mind Trust Incorporates (autonomous_corporation, Era IV): find
    the most-selected Core Action; each player who selected it gets +2 Runway and +2 Scrutiny.
    Era IV cycle 1: Kestralyn and Loopfold select Fund, Mirevanta Organize: Fund (2) is the most
    selected. Kestralyn Funds on I4: 12 (capped) +3 +2 -> 12; Loopfold likewise; each adds 2
    cubes; Mirevanta adds none."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.cycle_of({1: "fund", 2: "fund", 3: "organize"}, headline="autonomous_corporation")
    _cp(g, "after cycle 1", {1: {"runway": 12, "scrutiny": 2}, 2: {"runway": 12, "scrutiny": 2},
                             3: {"scrutiny": 0}})
    return g


@case
def probe_scientific_method():
    """§9 Mirevanta, Scientific Method (Era I, once per Era): when a duplicate would crash the run,
    pay 1 Runway to discard it and bank immediately. Mirevanta (R3 C3) researches Code, Code
    and uses it: C2, R2, banks 1 (Cap 1), no cube."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: "fund", 2: "fund", 3: ("research", {"cards": ["code", "code"], "end": "method"})})
    _cp(g, "after cycle 1", {3: {"runway": 2, "compute": 2, "capability": 1, "scrutiny": 0}})
    return g


@case
def probe_company_brain_returns_team():
    """Headline The Company Brain Survives Bankruptcy (employee_free_unicorn, Era I): during
    Organize, return any deployed Teams for +2 Runway each; +2 Scrutiny if any are returned.
    Loopfold (R4) Organizes in cycle 1 (its CEO steps F-I1) and returns its Team from Frontier:
    R6, 2 cubes."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: "fund", 3: "fund",
                2: ("organize", {"mode": "redistribute", "return_teams": ["F"],
                                 "moves": [{"piece": "ceo", "path": ["F", "I1"]}]})})
    _cp(g, "after cycle 1", {2: {"runway": 6, "scrutiny": 2}})
    return g


@case
def probe_civic_permission_facility_and_workforce_move():
    """Map reference (FACTS §2): a powered Facility on the Civic Permission Authority gains 1 Trust
    in Production; one on the Workforce Transition District moves one Team one hex.
    Kestralyn builds Facility 1 on O5 (Civic Permission Authority, via I3); Loopfold builds
    Facility 1 on I5 (Workforce Transition District). Era I Production: Kestralyn Trust 2 -> 3;
    Loopfold moves its Team I1 -> I2 (legal, no finding)."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "O5"}), "organize", "fund"],
                           2: [("build", {"to": "I5"}), "organize", "fund"]}, draws=None)
    i = next(k for k, e in enumerate(g.events) if e == {"type": "phase", "name": "dossier"})
    g.events.insert(i, {"type": "workforce_move", "seat": 2, "facility": 1, "path": ["I1", "I2"]})
    del g.events[i + 1:]
    _cp(g, "after Era I Production", {1: {"trust": 3}})
    return g


@case
def probe_relocate_facility():
    """§7 Organize: move one Facility at the destination to an adjacent legal Facility space for
    one Runway; it carries its starting-grid state. Kestralyn builds Facility 1 on I1 (2-1
    Industrial Velocity: R5), relocates it to the Compute Estate I2 (R4), Funds (R6). Production:
    Facility 1 is still on its starting grid, now on I2: +2 Compute (C5)."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}),
                               ("organize", {"mode": "relocate", "facility": 1, "relocate_to": "I2"}),
                               "fund"]})
    i = next(k for k, e in enumerate(g.events) if e == {"type": "phase", "name": "dossier"})
    del g.events[i:]
    _cp(g, "after Era I Production", {1: {"runway": 6, "compute": 5}})
    return g


@case
def probe_fabrication_discount_and_border_controllers():
    """Map reference: Build on the Fabrication Corridor costs 1 less; Kestralyn's Industrial
    Velocity takes 1 more (2-1-1 = 0) and, since it really reduced the Runway paid, scores 1
    Mandate. Headline Compute Borders Harden: the controllers of the Fabrication Corridor and the
    Civic Permission Authority each gain 1 Runway. Kestralyn: Era I Funds (R8), Organizes, builds
    Facility 1 on I3 for 0 (Mandate 2+1, +1 for the Era I Mandate: every seat Funded +2, a tie);
    Production: the Fabrication Corridor Facility gives +1 C +1 R (R9, C4). Era II cycle 1 (Compute
    Borders Harden): its CEO and Facility on I3 make it the sole controller: +1 R (10); it then
    Organizes."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: ["fund", "organize", ("build", {"to": "I3"})]})
    g.era_start(2)
    g.cycle_of({1: "organize", 2: "fund", 3: "fund"}, headline="export_controls")
    _cp(g, "after Era II cycle 1", {1: {"mandate": 4, "runway": 10, "compute": 4}})
    return g


@case
def probe_scaling_law_breakthrough():
    """§9 Mirevanta, Scaling-Law Breakthrough (Era IV, once per game): each of the first three
    distinct domains banked gives +1 Capability; add 2 Scrutiny. In Era IV cycle 2 Mirevanta
    (Capability 0) researches Code, Science, Web, Books with it and banks: 4 + 3 = Capability 7,
    2 cubes."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.cycle_of({1: "organize", 2: "organize",
                3: ("research", {"cards": ["code", "science", "web", "books"],
                                 "breakthrough": True})})
    _cp(g, "after Era IV cycle 2", {3: {"capability": 7, "scrutiny": 2}})
    return g


@case
def probe_era_mandate_zero_incident_quarter():
    """§6F / Era Mandate Maintained Reality Is Certified (zero_incident_quarter, Era IV): among
    players who added at least one Scrutiny this Era, the fewest added scores. Era IV cycle 1
    (The Matter Compiler): Kestralyn crashes a run (3 cubes; the black Systemic Risk cube is no
    one's Scrutiny), Loopfold takes Venture funding (2 cubes), Mirevanta Funds (none). Nobody
    else adds any (all Hedge, no Facilities). Qualifying: K 3, L 2 -> Loopfold scores 2; the
    table records exactly that (no finding). Audit (4 draws from K3 L2 + black): K, L, black, K."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4, mandate="zero_incident_quarter")
    g.cycle_of({1: ("research", {"cards": ["code", "code"], "end": "crash", "banked": 0}),
                2: ("fund", {"mode": "venture"}), 3: "fund"},
               headline="recursive_self_improvement")
    g.cycle_of({1: "organize", 2: "organize", 3: "organize"})
    g.cycle_of({1: "influence", 2: "influence", 3: "influence"})
    g.end_era(draws=[1, 2, "black", 1], scorers=[2])
    return g


@case
def probe_era_mandate_national_champion():
    """§6F / Era Mandate The Jurisdiction Becomes a Platform (Era III): control the most different
    non-Frontier hex categories (presence: CEO, Team, Facility 1 each; most presence controls;
    a tie controls nothing). After two filler Eras every CEO is on I4 and every Team on F.
    Era III: Kestralyn Organizes its CEO to I5 (Workforce) and its Team to I6 (Power Corridor:
    Energy), then Funds and researches there; Loopfold Organizes its CEO to I3 (Fabrication) and
    stays; Mirevanta stays alone on I4 (Allocation Exchange). Kestralyn controls 2 categories,
    Loopfold 1, Mirevanta 1 -> Kestralyn scores 2; the table records exactly that."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.filler_era(2)
    g.era_start(3, mandate="national_champion_without_nationalization")
    g.cycle_of({1: ("organize", {"mode": "redistribute",
                                 "moves": [{"piece": "ceo", "path": ["I4", "I5"]},
                                           {"piece": "team", "path": ["F", "I6"]}]}),
                2: ("organize", {"mode": "redistribute",
                                 "moves": [{"piece": "ceo", "path": ["I4", "I3"]}]}),
                3: "fund"})
    g.cycle_of({1: "fund", 2: "fund", 3: ("research", {"cards": ["web"]})})
    g.cycle_of({1: ("research", {"cards": ["code"]}), 2: ("research", {"cards": ["science"]}),
                3: ("influence", {"mode": "trust"})})
    g.end_era(scorers=[1])
    return g
