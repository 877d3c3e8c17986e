"""§5 Programs: Mega-Cluster, Reorganization, Narrative Capture, Agent Swarm, Fusion."""

from tests.golden.build import Game, case


def _to_era(g: Game, era: int) -> None:
    g.setup()
    for e in range(1, era):
        g.filler_era(e)
    g.era_start(era)


@case
def mega_cluster_non_adjacent_hosts():
    """§5 Era II, Mega-Cluster: two *adjacent* Facilities you own, each eligible for your local
    Power. Kestralyn builds Facility 1 on I1 in Era I and Facility 2 on I3 in Era II cycle 1
    (I1 and I3 are two hexes apart; Industrial Velocity makes each first Build cost 1), then in
    cycle 2 commits its marker to a Mega-Cluster on hosts 1 and 2 from I3
    -> program/mega-cluster-invalid, and, since issue 21 checks a Mega-Cluster's selection
    (§2 step 2: a choice is eligible only when it has a legal resolution now), select/ineligible
    at the reveal (no two adjacent Facilities: as for Deploy, the selection and the resolution
    are each reported)."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"]})
    g.era_start(2)
    g.cycle_of({1: ("build", {"to": "I3"}), 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "mega_cluster", 2: "organize", 3: "organize"})
    g.expect("select/ineligible")
    g.play(2, "organize")
    g.play(3, "organize")
    g.turn(1, "mega_cluster", hosts=[1, 2])
    g.expect("program/mega-cluster-invalid")
    return g


@case
def reorganization_returns_team_not_there():
    """§5 Era II, Reorganization: you may return *one of your Teams* to supply for three Runway.
    Seat 1's only Team on the board stands on I1 (moved there by its Era I Organize); it returns
    a Team from O5 -> program/reorganization-invalid. (A Team move longer than one hex cannot
    even be written: the schema caps a Reorganization path at one step.)"""
    g = Game()
    _to_era(g, 2)
    g.headline()
    g.reveal({1: "reorganization", 2: "fund", 3: "fund"})
    g.turn(1, "reorganization", return_team="O5")
    g.expect("program/reorganization-invalid")
    return g


@case
def narrative_capture_target_without_more_customers():
    """§5 Era III, Narrative Capture: give one Scrutiny to a player with *more Customers than
    you*. Kestralyn (0 Customers) targets Mirevanta (0 Customers)
    -> program/narrative-invalid. (Loopfold, with its starting Customer, would be legal.)"""
    g = Game()
    _to_era(g, 3)
    g.headline()
    g.reveal({1: "narrative_capture", 2: "fund", 3: "fund"})
    g.turn(1, "narrative_capture", mode="give_scrutiny", target=3)
    g.expect("program/narrative-invalid")
    return g


@case
def agent_swarm_same_action_twice():
    """§5 Era IV, Agent Swarm: select it only with two *different* unused Core Actions. Seat 1
    swarms Fund + Fund -> program/swarm-invalid."""
    g = Game()
    _to_era(g, 4)
    g.headline()
    g.reveal({1: "agent_swarm", 2: "fund", 3: "fund"})
    g.turn(1, "agent_swarm", actions=["fund", "fund"])
    g.expect("program/swarm-invalid")
    return g


@case
def fusion_off_power_corridor():
    """§5 Era IV, Fusion Demonstrator: the acting piece must end movement on the Power Corridor.
    Seat 1 stays on the Allocation Exchange (I4) -> program/fusion-invalid."""
    g = Game()
    _to_era(g, 4)
    g.headline()
    g.reveal({1: "fusion", 2: "fund", 3: "fund"})
    g.turn(1, "fusion")
    g.expect("program/fusion-invalid")
    return g


@case
def select_mega_cluster_without_two_facilities():
    """§2 step 2: "A choice is eligible only when it has a legal resolution now"; §5 Era II
    Mega-Cluster needs two adjacent own Facilities. Kestralyn has only Facility 1 (I1) and
    selects Mega-Cluster in Era II cycle 1 -> select/ineligible at the reveal (Mega-Cluster's
    selection was never checked), then program/mega-cluster-invalid at its resolution (Facility
    2 is not built)."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"]})
    g.era_start(2)
    g.headline()
    g.reveal({1: "mega_cluster", 2: "fund", 3: "fund"})
    g.expect("select/ineligible")
    for s in g.order():
        if s == 1:
            g.turn(1, "mega_cluster", hosts=[1, 2])
            g.expect("program/mega-cluster-invalid")
        else:
            g.play(s, "fund")
    return g


@case
def select_fusion_without_runway():
    """§2 step 2 and §5 Era IV Fusion Demonstrator (5 Runway). Mirevanta (seat 3): Runway 3
    printed +2 (Era I Fund) = 5; in Eras II-III it Organizes, Influences for Trust and
    Researches (Compute only): still 5. Era IV cycle 1 it Builds Facility 1 on the Allocation
    Exchange I4 (-2: 3 left), then selects Fusion in cycle 2 -> select/ineligible at the reveal
    (Fusion's selection was never checked) and resource/insufficient at the Fusion itself."""
    g = Game()
    g.setup()
    g.filler_era(1)
    for e in (2, 3):
        g.filler_era(e, turns={3: ["organize", "influence", ("research", {"cards": ["code"]})]})
    g.era_start(4)
    g.cycle_of({1: "fund", 2: "fund", 3: ("build", {"to": "I4"})})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "fusion"})
    g.expect("select/ineligible")
    for s in g.order():
        if s == 3:
            g.turn(3, "fusion", to="I6")
            g.expect("resource/insufficient")
        else:
            g.play(s, "organize")
    return g
