"""§1 Setup, and the structure of Era starts (§6A). Setup findings are reported before the first
event is applied, so their ``event`` is ``null``."""

from tests.golden.build import MAP, Game, case


@case
def setup_duplicate_faction():
    """§1 step 5: each player takes one prepacked Faction tray, so no faction can sit at two seats.
    Seats 1 and 2 both play Kestralyn -> setup/duplicate-faction (at setup, event null)."""
    g = Game(("kestralyn", "kestralyn", "mirevanta"))
    g.expect("setup/duplicate-faction", None)
    g.setup()
    return g


@case
def setup_unknown_faction():
    """§1 step 5: the faction must be one of the six prepacked trays (content pack ids).
    'openmind' is not one -> setup/unknown-faction."""
    g = Game(("kestralyn", "openmind", "mirevanta"))
    g.expect("setup/unknown-faction", None)
    g.setup()
    return g


@case
def setup_bad_map_ring_pool():
    """§1 step 1 / §4 Map reference: the operational ring is drawn from its own six-tile pool
    (research, cloud, foundry, capital, talent, grid_reactor) and the public ring from its twelve.
    Writing a third Compute Estate on O1 (instead of its Human Access District) breaks the public
    ring's pool (two Compute Estates) -> setup/invalid-map."""
    m = dict(MAP)
    m["O1"] = "cloud"
    g = Game(map=m)
    g.expect("setup/invalid-map", None)
    g.setup()
    return g


@case
def setup_bad_map_frontier_off_centre():
    """§1 step 1: Frontier in the centre. Frontier at I1 and the Research Commons at F
    -> setup/invalid-map twice: the centre holds a tile of no centre pool and the operational
    ring holds a Frontier (two separate pool violations of the one layout)."""
    m = dict(MAP)
    m["F"], m["I1"] = "research", "frontier"
    g = Game(map=m)
    g.expect("setup/invalid-map", None)
    g.expect("setup/invalid-map", None)
    g.setup()
    return g


@case
def setup_bad_initiative():
    """§1 step 9: Initiative goes to one of the players. A three-seat game whose first Initiative
    is seat 5 -> setup/first-initiative. (The log stops after setup so that no turn order can
    follow from the impossible seat.)"""
    g = Game(first=5)
    g.expect("setup/first-initiative", None)
    g.setup()
    return g


@case
def era_out_of_order():
    """§6A: the Current Era marker moves to Era I first. A log that starts with Era II
    -> era/out-of-order at that era_start."""
    g = Game()
    g.setup()
    g.era_start(2)
    g.expect("era/out-of-order")
    return g


@case
def era_mandate_from_other_era():
    """§6A: reveal one Mandate from the *current Era's* three-card deck. Era I reveals
    building_has_weather, an Era II card (FACTS §5) -> era/unknown-mandate."""
    g = Game()
    g.setup()
    g.era_start(1, mandate="building_has_weather")
    g.expect("era/unknown-mandate")
    return g
