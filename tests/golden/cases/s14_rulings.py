"""Rulings as data (issue 9; docs/engine.md "Rulings"): for each ruling, one game that is clean
under one option and gives a finding under the other. The pair shares its events; the second
file's header names the other option (``header.rulings``), which is how a log (or ``playtest
validate --rulings``) switches it (tests/test_engine_rulings.py runs every pair through
``playtest validate`` both ways).

Two rulings cannot make a legal game clean under one option and wrong under the other, and
their pairs say so: ``mega-cluster-demand`` changes nothing for an allocation that powers both
hosts (the pair shows the one thing it changes: a second finding on an allocation that leaves a
host unpowered), and ``peer-validation-six`` matters only at six players, outside the suggested
3-5 (both files carry the ``setup/player-count`` warning; only one has the error)."""

from tests.golden.build import Game, case

DOVE = ("dovetalis", "loopfold", "mirevanta")
JV = {"mode": "jv", "facility": 1, "partner_facility": 1, "accepted": True}


def _cp(g: Game, label: str, seats: dict[int, dict]) -> None:
    g.add("checkpoint", label=label, seats=[{"seat": s, **v} for s, v in sorted(seats.items())])


def _hdr(rulings: str | None) -> dict | None:
    return {"rulings": rulings} if rulings else None


def _dovetalis_table(loopfold_hex: str, rulings: str | None) -> Game:
    """Dovetalis (seat 1) builds Facility 1 on I1, Loopfold (seat 2) on ``loopfold_hex``; both
    CEOs stay on their Facility through Eras I-II (Build, Organize, Fund; then Fund, Organize,
    Research). Dovetalis: R5 -2 +2 (Fund on the Research Commons) = 5 in Era I, +2 = 7 in
    Era II; its Strategic Partnership unlocks in Era III."""
    g = Game(DOVE, header=_hdr(rulings))
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"],
                           2: [("build", {"to": loopfold_hex}), "organize", "fund"]})
    g.filler_era(2, turns={1: ["fund", "organize", ("research", {"cards": ["code"]})],
                           2: ["fund", "organize", ("research", {"cards": ["science"]})]})
    g.era_start(3)
    return g


def _loopfold_proposes(g: Game, expect: str | None) -> None:
    g.headline()
    g.reveal({1: "organize", 2: "influence", 3: "fund"})
    for s in g.order():
        if s == 2:
            g.play(2, ("influence", {**JV, "partner": 1}))
            if expect:
                g.expect(expect)
        else:
            g.play(s, "organize" if s == 1 else "fund")


@case
def ruling_partnership_range_proposer():
    """Ruling partnership-range = proposer (default; the designers' executable widens the range
    only for a proposing Dovetalis). Era III: Loopfold (Facility 1 on I4) proposes a Joint
    Venture to Dovetalis' Facility 1 on I1, two hexes away; Loopfold has no Strategic
    Partnership -> influence/jv-invalid (hosts must be adjacent)."""
    g = _dovetalis_table("I4", None)
    _loopfold_proposes(g, "influence/jv-invalid")
    return g


@case
def ruling_partnership_range_either_partner():
    """The same game under partnership-range = either-partner (header ``rulings``): Dovetalis'
    Strategic Partnership widens the range of a venture it merely accepts; clean."""
    g = _dovetalis_table("I4", "partnership-range=either-partner")
    _loopfold_proposes(g, None)
    return g


@case
def ruling_partnership_runway_proposer():
    """Ruling partnership-runway = proposer (default; the executable pays the proposing holder
    only). Era III cycle 1: Loopfold (Facility 1 on I2, next to I1) proposes a venture to
    Dovetalis, accepted; Dovetalis Organizes and stays at Runway 7. Clean."""
    g = _dovetalis_table("I2", None)
    _loopfold_proposes(g, None)
    _cp(g, "after cycle 1", {1: {"runway": 7}})
    return g


@case
def ruling_partnership_runway_either_side():
    """The same game under partnership-runway = either-side: Dovetalis would take 1 Runway for
    the venture it accepted (8), so the table's 7 -> checkpoint/mismatch, citing §7 Influence:
    the engine's +1 at Loopfold's Influence is the step the table did not make."""
    g = _dovetalis_table("I2", "partnership-runway=either-side")
    _loopfold_proposes(g, None)
    _cp(g, "after cycle 1", {1: {"runway": 7}})
    g.expect("checkpoint/mismatch", rule="core rules §7 Core Actions, Influence")
    return g


def _same_hex(rulings: str | None, expect: str | None) -> Game:
    g = _dovetalis_table("I1", rulings)
    g.headline()
    g.reveal({1: "influence", 2: "organize", 3: "fund"})
    for s in g.order():
        if s == 1:
            g.play(1, ("influence", {**JV, "partner": 2}))
            if expect:
                g.expect(expect)
        else:
            g.play(s, "organize" if s == 2 else "fund")
    return g


@case
def ruling_partnership_same_hex_allowed():
    """Ruling partnership-same-hex = allowed (the engine's reading before issue 21: the
    distance 0 is within the range 2). Era III: Dovetalis proposes a venture between its
    Facility 1 and Loopfold's, both on I1; clean."""
    return _same_hex("partnership-same-hex=allowed", None)


@case
def ruling_partnership_same_hex_not_allowed():
    """The same game under partnership-same-hex = not-allowed (default since issue 21: the
    rules name co-located and adjacent Facilities as different relations, §4, and the
    designers' executable forms no co-located venture): co-located hosts are not one or two
    hexes apart -> influence/jv-invalid."""
    return _same_hex(None, "influence/jv-invalid")


def _two_authorities(rulings: str | None) -> Game:
    """Kestralyn (seat 1) ends Era II alone on the Civic Permission Authority O5, Loopfold
    (seat 2) alone on the other copy O11 (its Organize walks the CEO I4-F-I6-O11). Trust:
    Kestralyn 2 +1 (Era I, Allocation Exchange) +2 (Era II on O5) = 5; Loopfold likewise 5.
    Era III cycle 1 (Initiative seat 1): The Court Adopts Supported Meaning names Fund and
    everyone Funds where they stand."""
    g = Game(header=_hdr(rulings))
    g.setup()
    g.filler_era(1)
    g.filler_era(2, turns={
        1: ["fund", "organize", ("influence", {"to": "O5", "mode": "trust"})],
        2: ["fund", ("organize", {"mode": "redistribute",
                                  "moves": [{"piece": "ceo", "path": ["I4", "F", "I6", "O11"]}]}),
            ("influence", {"mode": "trust"})]})
    g.era_start(3)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"}, headline="ai_written_law", action="fund")
    return g


@case
def ruling_cpa_controller_each_copy():
    """Ruling cpa-controller = each-copy (default; the executable rewards each district's
    controller). Both controllers saw at least half their rivals (2 of 2) choose Fund: each takes
    1 Trust: Kestralyn 6, Loopfold 6. Clean."""
    g = _two_authorities(None)
    _cp(g, "after cycle 1", {1: {"trust": 6}, 2: {"trust": 6}})
    return g


@case
def ruling_cpa_controller_most_copies():
    """The same game under cpa-controller = most-copies: one copy each is a tie, broken toward
    Initiative (seat 1): only Kestralyn is the controller, so Loopfold's 6 Trust
    -> checkpoint/mismatch (the rules under this ruling give 5)."""
    g = _two_authorities("cpa-controller=most-copies")
    _cp(g, "after cycle 1", {1: {"trust": 6}, 2: {"trust": 6}})
    g.expect("checkpoint/mismatch")
    return g


def _lonely_complex(rulings: str | None) -> Game:
    """Era II: Kestralyn builds its Generator on the Power Corridor I6 (an Emergency Power
    Complex, 1 Runway) and has no Facility at all, so the Complex powers nothing in Era II's
    Production."""
    g = Game(header=_hdr(rulings))
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    for c, spec in enumerate([("build", {"to": "I6", "mode": "generator"}), "organize", "fund"]):
        g.cycle_of({1: spec, 2: ["fund", "organize", "influence"][c],
                    3: ["fund", "organize", "influence"][c]})
    g.production()
    return g


@case
def ruling_emergency_power_scrutiny_every_production():
    """Ruling emergency-power-scrutiny = every-production (default: the seed, 'Add one Scrutiny
    for every Emergency Power Complex'): the idle Complex still adds its cube: Kestralyn's bag
    1 after Era II's Production. Clean."""
    g = _lonely_complex(None)
    _cp(g, "after Era II Production", {1: {"scrutiny": 1}})
    return g


@case
def ruling_emergency_power_scrutiny_while_operating():
    """The same game under emergency-power-scrutiny = while-operating (the designers' data): a
    Complex with no eligible Facility does not operate and adds nothing, so the table's bag of 1
    -> checkpoint/mismatch."""
    g = _lonely_complex("emergency-power-scrutiny=while-operating")
    _cp(g, "after Era II Production", {1: {"scrutiny": 1}})
    g.expect("checkpoint/mismatch")
    return g


def _cloud_deploy(rulings: str | None) -> Game:
    """Era I: Kestralyn (C3) researches Code and Science on Frontier and banks 2 (C2,
    Capability 2), Organizes, then Deploys on the Compute Estate I2 for Customer #1
    (Capability 2 needed)."""
    g = Game(header=_hdr(rulings))
    g.setup()
    g.era_start(1)
    g.cycle_of({1: ("research", {"cards": ["code", "science"]}), 2: "fund", 3: "fund"})
    g.cycle_of({1: "organize", 2: "organize", 3: "organize"})
    g.cycle_of({1: ("deploy", {"to": "I2"}), 2: "influence", 3: "influence"})
    return g


@case
def ruling_compute_estate_discount_first_compute_cost():
    """Ruling compute-estate-discount = first-compute-cost (default: the Map reference, which
    the seed makes part of the Default Game: 'the first Compute cost of the action resolved here
    is 1 lower'): the Deploy costs 1 - 1 = 0; Kestralyn keeps C2. Clean."""
    g = _cloud_deploy(None)
    _cp(g, "after the Deploy", {1: {"compute": 2, "customers": 1}})
    return g


@case
def ruling_compute_estate_discount_research_only():
    """The same game under compute-estate-discount = research-only (the designers' executable):
    the Deploy pays 1 Compute, the rules give C1 -> checkpoint/mismatch on the table's 2, citing
    §7 Deploy (the engine's -1 at the Deploy is the step the table did not make)."""
    g = _cloud_deploy("compute-estate-discount=research-only")
    _cp(g, "after the Deploy", {1: {"compute": 2, "customers": 1}})
    g.expect("checkpoint/mismatch", rule="core rules §7 Core Actions, Deploy")
    return g


def _claim_tie(rulings: str | None) -> Game:
    """A partial log (a designers' session that recorded only the end of the game): Era IV,
    cycle 3 (Initiative: seat 3; the Headline is The Universe Receives a Continuity Plan, so
    Publication counts 2). The checkpoint gives Kestralyn (seat 1) and Mirevanta (seat 3) the
    same values: Mandate 10, Trust 4, Customers 1, Compute 4, Capability 6; Loopfold (seat 2)
    Mandate 4, Trust 2, Capability 2. Both reveal Benchmark, Authority and Publication
    committed (3 Compute each: Compute 1 both) and Deployment hedged: strength 2 (Publication)
    + 2 (Benchmark: Capability 6 >= 3; Authority: Trust 4 >= 4) + 2 (thresholds 3 and 6) = 6
    each. Everything the claim comparison looks at is tied, so Initiative-clockwise order
    decides (§5 Claim strength). The table records seat 1 as the claimant and winner."""
    g = Game(detail="partial", header=_hdr(rulings))
    g.setup()
    g.era_start(4)
    g.cycles_done = 11  # Era IV cycle 3 is the twelfth cycle
    g.headline(cycle=3)
    tied = {"mandate": 10, "trust": 4, "customers": 1, "compute": 4, "capability": 6,
            "runway": 5}
    _cp(g, "Era IV cycle 3", {1: tied, 2: {**tied, "mandate": 4, "trust": 2, "capability": 2},
                              3: tied})
    g.add("phase", name="dossier")
    claim = {"benchmark": "commit", "deployment": "hedge", "authority": "commit",
             "publication": "commit"}
    g.add("dossier_reveal", hands=[{"seat": 1, **claim}, {"seat": 2, **dict.fromkeys(claim, "hedge")},
                                   {"seat": 3, **claim}])
    g.add("final_record", agi=True, claimant=1, winners=[1])
    return g


@case
def ruling_final_claim_initiative_after_last_pass():
    """Ruling final-claim-initiative = after-last-pass (default: §6B ends every cycle with 'Pass
    Initiative clockwise', and the executable passes after the last cycle too): Initiative
    passes from seat 3 to seat 1 before the claims are compared, so the order is 1, 2, 3 and
    Kestralyn's claim forms AGI, as recorded. Clean."""
    return _claim_tie(None)


@case
def ruling_final_claim_initiative_last_cycle_holder():
    """The same game under final-claim-initiative = last-cycle-holder: the Era IV cycle 3
    holder (seat 3) leads the order 3, 1, 2, so Mirevanta's claim forms AGI and the table's
    claimant (seat 1) -> final/claimant (§5 Claim strength; the winner that follows from it is
    not reported again)."""
    g = _claim_tie("final-claim-initiative=last-cycle-holder")
    g.expect("final/claimant")
    return g


def _moved_facility(rulings: str | None) -> Game:
    """Mirevanta (seat 3) builds Facility 1 on I1 in Era I and Facility 2 on I1 in Era II. Era
    II's third Headline is The Emergency Power Authority ('each player may allocate up to 2
    Power it does not have, adding 1 Scrutiny per such Power'): Mirevanta powers Facility 1 on
    its starting grid and Facility 2 with one emergency Power (+1 cube, which the Audit draws).
    Era III cycle 1: its CEO (on I1) relocates Facility 2 to the adjacent Compute Estate I2,
    where no local source of Mirevanta's reaches. Cycle 3: The Passive Citizen Dividend
    Activates; everyone is at Capability 0, the tie goes to the Initiative holder (seat 3), who
    names Facility 2 to resolve its production once. (With one Build per Era, a Facility other
    than Facility 1 cannot stand by a Generator before Era III's Production; this Headline is
    the only rule that reads a Power cube between Productions, so the witness's cube is
    emergency Power.) Since emergency Power goes only "among legal local Facilities" (§6C.3),
    that allocation is itself production/not-powered in both files (Facility 2 on I1 has no
    local source but the grid, which powers only Facility 1); the table still placed the cube,
    and the engine follows it, so the pair still shows what the ruling decides: no legal game
    has a clean witness any more (tests/test_engine_rulings.py)."""
    seat = 3
    g = Game(header=_hdr(rulings))
    g.setup()
    g.filler_era(1, turns={seat: [("build", {"to": "I1"}), "organize", "fund"]})
    g.era_start(2)
    plan = {s: ["fund", "organize", "influence"] for s in g.seats}
    plan[seat] = [("build", {"to": "I1"}), "organize", "fund"]
    for c in range(3):
        g.cycle_of({s: plan[s][c] for s in g.seats})
    g.production({seat: [1, 2]}, extra={seat: {"emergency": 1}})
    g.expect("production/not-powered",
             next(i for i, e in enumerate(g.events) if e.get("type") == "allocate"
                  and e.get("seat") == seat and e.get("emergency")))
    g.dossiers()
    g.audit([seat])
    g.scoring()
    g.era_start(3)
    g.cycle_of({**dict.fromkeys(g.seats, "fund"),
                seat: ("organize", {"mode": "relocate", "facility": 2, "relocate_to": "I2"})})
    g.cycle_of({**dict.fromkeys(g.seats, "organize"), seat: "fund"})
    g.headline_at = g.headline(facility=2)  # type: ignore[attr-defined]
    g.reveal(dict.fromkeys(g.seats, "influence"))
    for s in g.order():
        g.play(s, "influence")
    return g


@case
def ruling_moved_facility_power_keep_until_allocate():
    """Ruling moved-facility-power = keep-until-allocate ('The retained Power cubes remain the
    authority' until the next Allocate, §6C): Facility 2 keeps the cube it had in Era II's
    Production snapshot after the move, so naming it for The Passive Citizen Dividend is legal.
    Clean."""
    return _moved_facility("moved-facility-power=keep-until-allocate")


@case
def ruling_moved_facility_power_recheck():
    """The same game under moved-facility-power = recheck (default: 'do not preserve a
    connection the visible board no longer supports', §4): on I2 Facility 2 is not locally
    eligible, so the move takes its cube and the Headline names a Facility that is not powered
    -> headline/choice-invalid."""
    g = _moved_facility(None)
    g.expect("headline/choice-invalid", g.headline_at)  # type: ignore[attr-defined]
    return g


def _mega_unpowered_host(rulings: str | None) -> Game:
    """Kestralyn: Facility 1 on I1 (Era I), a Civic Heat Battery on O12 (Era II: 3 Power,
    reaching O12 and I1), Facility 2 on O12 and a Mega-Cluster on hosts 1 and 2 (Era III
    cycles 1-2; Era III's Production powers all three legally), Facility 3 on I1 (Era IV cycle
    1). Its Era IV allocation powers Facilities 2 and 3 and the Mega-Cluster's two extra demand
    but not host Facility 1 -> production/mega-cluster-demand under either option. Sources: the grid (1, idle: Facility 1 is not allocated) and the
    battery (3) for 1 + 1 + 2 = 4 demand. If the starting grid may feed the extra demand, the
    grid's 1 and the battery's 3 cover it; if not, the battery alone cannot.

    Why no clean pair exists: an allocation that powers both hosts includes Facility 1 when it is
    a host (the only case the ruling is asked), and the grid (capacity 1) can always give its
    Power to Facility 1 instead of the extra demand, the source that fed Facility 1 then feeding
    the extra demand (it is on or next to a host, or emergency Power). So the ruling never
    changes whether a legal allocation is feasible; tests/test_engine_rulings.py checks that
    exhaustively on small boards."""
    g = Game(header=_hdr(rulings))
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
    g.production({1: [2, 3]}, extra={1: {"mega_clusters": [1]}})
    i = next(k for k in range(len(g.events) - 1, -1, -1)
             if g.events[k]["type"] == "allocate" and g.events[k]["seat"] == 1)
    g.expect("production/mega-cluster-demand", i)
    return g


@case
def ruling_mega_cluster_demand_not_starting_grid():
    """Ruling mega-cluster-demand = not-starting-grid (default: the seed, 'the starting grid
    cannot supply the additional demand of Mega-Cluster', §4): besides the unpowered host, the
    battery's 3 Power cannot meet 4 demand -> production/over-capacity too, at the same
    allocation; only that finding rests on the ruling."""
    g = _mega_unpowered_host(None)
    g.expect("production/over-capacity", g.findings[-1]["event"])
    return g


@case
def ruling_mega_cluster_demand_starting_grid_allowed():
    """The same game under mega-cluster-demand = starting-grid-allowed (the executable's older
    data): the idle grid feeds one of the extra demand, so only the unpowered host is wrong."""
    return _mega_unpowered_host("mega-cluster-demand=starting-grid-allowed")


SIX = ("mirevanta", "kestralyn", "loopfold", "dovetalis", "orisonix", "corthaven")


def _peer_validation(rulings: str | None) -> Game:
    """Six players (outside the suggested 3-5 -> setup/player-count, a warning, under either
    option). A partial log: Mirevanta (seat 1) is at Capability 11 and Mandate 20 at one
    checkpoint and at Capability 12 and Mandate 21 at the next: it scored 1 for reaching 12.
    Peer Validation (Mirevanta's printed scoring rule) gives 9 and 12 one Mandate, and 12 the
    full two with at least four rivals."""
    g = Game(SIX, detail="partial", header=_hdr(rulings))
    g.setup()
    g.expect("setup/player-count", None)
    g.era_start(3)
    _cp(g, "Era III start", {1: {"capability": 11, "mandate": 20}})
    g.headline()
    _cp(g, "after the Headline", {1: {"capability": 12, "mandate": 21}})
    return g


@case
def ruling_peer_validation_six_five_only():
    """Ruling peer-validation-six = five-only (the full award exactly at five players): at six,
    reaching 12 scores 1; the table's +1 is right. Only the player-count warning."""
    return _peer_validation("peer-validation-six=five-only")


@case
def ruling_peer_validation_six_five_or_more():
    """The same log under peer-validation-six = five-or-more (default: the designers' data,
    'at least four rivals'): reaching 12 is worth 2, the Mandate rose 1
    -> mandate/threshold-not-scored at the second checkpoint."""
    g = _peer_validation(None)
    g.expect("mandate/threshold-not-scored")
    return g


@case
def headline_production_on_workforce_district_gives_team_move():
    """§9 Headline The Passive Citizen Dividend Activates: the lowest-Capability player
    "resolves the production of 1 Facility that was powered in the latest snapshot"; the
    Workforce Transition District's printed production is "move one Team one hex" (§10 Map
    reference), so that effect grants the move (the designers' executable does). Mirevanta
    (seat 3) builds Facility 1 on the Workforce Transition District I5 in Era I; every Era's
    Production powers it. Era III cycle 3: the Headline (all at Capability 0: the Initiative
    holder, seat 3) names Facility 1; seat 3 moves a Team one hex with it. Clean (the engine
    used to grant no move outside Production: production/workforce-invalid)."""
    seat = 3
    g = Game()
    g.setup()
    g.filler_era(1, turns={seat: [("build", {"to": "I5"}), "organize", "fund"]})
    g.filler_era(2)
    g.era_start(3)
    g.cycle_of(dict.fromkeys(g.seats, "fund"))
    g.cycle_of(dict.fromkeys(g.seats, "organize"))
    g.headline("weights_on_internet", facility=1)
    team = g.teams[seat][0]
    dest = "I5" if team == "F" else "F"
    g.add("workforce_move", seat=seat, facility=1, path=[team, dest])
    g.teams[seat][0] = dest
    g.reveal(dict.fromkeys(g.seats, "influence"))
    for s in g.order():
        g.play(s, "influence")
    return g


def _export_controls_authorities(rulings: str | None) -> Game:
    """Era II cycle 1: Kestralyn (seat 1) Influences on the Civic Permission Authority O5 and
    Loopfold (seat 2) walks its CEO I4-F-I6-O11 to the other copy (Organize), Mirevanta Funds:
    each stands alone on one copy. Cycle 2's Headline is Compute Borders Harden (Era II): "the
    controllers of Fabrication Corridor and Civic Permission Authority each gain +1 Runway"
    (nobody is on the Fabrication Corridor I3). Runway before the Headline: Kestralyn 6 printed
    +2 (Era I Fund) = 8; Loopfold 4 printed +2 (Era I Fund) +1 (its Customer in Era I's
    Production) = 7; Influence for Trust and Organize cost none."""
    g = Game(header=_hdr(rulings))
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.cycle_of({1: ("influence", {"to": "O5", "mode": "trust"}),
                2: ("organize", {"mode": "redistribute",
                                 "moves": [{"piece": "ceo", "path": ["I4", "F", "I6", "O11"]}]}),
                3: "fund"})
    g.headline("export_controls")
    return g


@case
def ruling_cpa_controller_export_controls_each_copy():
    """Ruling cpa-controller = each-copy (default) read by Compute Borders Harden as by The
    Court Adopts Supported Meaning (one ruling for both Headlines, issue 21): both copy
    controllers gain 1 Runway: Kestralyn 8 -> 9, Loopfold 7 -> 8 (a checkpoint right after the
    Headline). Clean."""
    g = _export_controls_authorities(None)
    _cp(g, "after the Headline", {1: {"runway": 9}, 2: {"runway": 8}})
    return g


@case
def ruling_cpa_controller_export_controls_most_copies():
    """The same game under cpa-controller = most-copies: one copy each is a tie, broken by the
    universal tie rule (nearest Initiative clockwise), so only one seat is "the controller" and
    gains the Runway; the table that paid both -> checkpoint/mismatch for the other seat (the
    engine used to pay every copy's controller whatever the ruling)."""
    g = _export_controls_authorities("cpa-controller=most-copies")
    _cp(g, "after the Headline", {1: {"runway": 9}, 2: {"runway": 8}})
    g.expect("checkpoint/mismatch")
    return g


def _overflow_in_era_four(rulings: str | None, scorers: list[int]) -> Game:
    """Kestralyn (seat 1) fills its bag: a Venture Fund (+2 Scrutiny) in each of Eras I-III and
    2 emergency Power in Era II's Production under The Counterfactual Casino Clears Priority Load
    (+2, and a black cube) give 8 cubes; the Audits draw only Loopfold's and Mirevanta's cubes
    (each Ventures every Era too). Era IV (Mandate: Maintained Reality Is Certified, the fewest
    Scrutiny added this Era among those who added at least 1): Kestralyn's Agent Swarm (+3
    Scrutiny: Fund and Influence for Trust) puts 2 cubes in the bag (10) and 1 overflows (-1
    Runway, §6E); Loopfold and Mirevanta Venture (+2 each). Scrutiny added this Era: Kestralyn
    2 in the bag, 3 required; the others 2. The table records the scorers ``scorers``."""
    venture = ("fund", {"mode": "venture"})
    g = Game(header=_hdr(rulings))
    g.setup()
    g.filler_era(1, turns={1: [venture, ("build", {"to": "I1"}), "influence"],
                           2: [venture, "organize", "influence"],
                           3: [venture, "organize", "influence"]}, draws=[2, 3])
    g.era_start(2)
    for c, h in enumerate(("filler", "filler", "emergency_power_authority")):
        g.cycle_of({s: [venture, "organize", "influence"][c] for s in g.seats}, headline=h)
    g.production({1: [1]}, extra={1: {"emergency": 2}})
    g.dossiers()
    g.audit([2, 3])
    g.scoring()
    g.filler_era(3, turns={s: [venture, "organize", "influence"] for s in g.seats},
                 draws=[2, 3, 2])
    g.era_start(4, mandate="zero_incident_quarter")
    g.headline()
    g.reveal({1: "agent_swarm", 2: "fund", 3: "fund"})
    for s in g.order():
        if s == 1:
            g.turn(1, "agent_swarm", actions=["fund", "influence"], bonus_to="influence")
            g.turn(1, "fund", swarm=True, no_path=True)
            g.turn(1, "influence", swarm=True, no_path=True, mode="trust")
        else:
            g.play(s, venture)
    g.cycle_of({s: "organize" if s == 1 else "influence" for s in g.seats})
    g.cycle_of({s: "research" if s == 1 else "organize" for s in g.seats}
               | {1: ("research", {"cards": ["code"]})})
    g.production()
    g.dossiers()
    g.reveal_dossiers()
    g.audit([2, 2, 3, 3])
    g.scoring(scorers)
    return g


@case
def ruling_scrutiny_added_overflow_bag_only():
    """Ruling scrutiny-added-overflow = bag-only (default: an overflowing cube is paid for in
    Runway instead of entering the bag, §6E; the designers' executable does not count it):
    Kestralyn added 2, like Loopfold and Mirevanta: a three-way tie, 1 Mandate each, as the
    table recorded. Clean."""
    return _overflow_in_era_four(None, [1, 2, 3])


@case
def ruling_scrutiny_added_overflow_every_required_cube():
    """The same game under scrutiny-added-overflow = every-required-cube (the engine's reading
    before issue 21): Kestralyn added 3, so Loopfold and Mirevanta tie with 2 and score; the
    table's three scorers -> one Era Mandate finding at the scoring."""
    g = _overflow_in_era_four("scrutiny-added-overflow=every-required-cube", [1, 2, 3])
    g.expect("mandate/era-mandate-scorers")
    return g
