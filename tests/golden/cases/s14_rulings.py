"""Rulings as data (issue 9; docs/engine.md "Rulings"): for each ruling, one game that is clean
under one option and gives a finding under the other. The pair shares its events; the second
file's header names the other option (``header.rulings``), which is how a log (or ``playtest
validate --rulings``) switches it. The rulings with no cheap whole-game witness (final claim
Initiative, a moved Facility's cube, Mega-Cluster demand, Peer Validation at six players) are
covered by tests/test_engine_rulings.py."""

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
    """Ruling partnership-same-hex = allowed (default; the executable compares the distance 0
    with the range 2). Era III: Dovetalis proposes a venture between its Facility 1 and
    Loopfold's, both on I1; clean."""
    return _same_hex(None, None)


@case
def ruling_partnership_same_hex_not_allowed():
    """The same game under partnership-same-hex = not-allowed: co-located hosts are not one or
    two hexes apart -> influence/jv-invalid."""
    return _same_hex("partnership-same-hex=not-allowed", "influence/jv-invalid")


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
