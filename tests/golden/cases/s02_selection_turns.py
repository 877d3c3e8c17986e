"""§2 Central loop: Headlines (§1 step 2), selection, Initiative order, movement (§4)."""

from tests.golden.build import Game, case


def _opening(g: Game) -> None:
    g.setup()
    g.era_start(1)


# --- Headlines ------------------------------------------------------------------------------


@case
def headline_wrong_era():
    """§1 step 2: Headline cards are separated by Era; Era I draws only from the Era I deck.
    export_controls (Compute Borders Harden) is an Era II card (FACTS §4)
    -> cycle/headline-wrong-era at the Headline."""
    g = Game()
    _opening(g)
    g.headline("export_controls")
    g.expect("cycle/headline-wrong-era")
    return g


@case
def headline_advanced_in_default():
    """§1 step 2 ◆: a Default Game uses only cards without the Advanced Play badge.
    talent_gold_rush (The Reverse Acquihire Opens, an AUCTION) is Advanced-only
    -> cycle/headline-advanced."""
    g = Game()
    _opening(g)
    g.headline("talent_gold_rush")
    g.expect("cycle/headline-advanced")
    return g


@case
def headline_repeated():
    """§1 step 2 / §9: each Era uses three different Headlines (the Future Timeline holds twelve
    cards). employee_free_unicorn is revealed in cycle 1 and again in cycle 2
    -> cycle/headline-repeated at the second reveal."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.headline("employee_free_unicorn")
    g.expect("cycle/headline-repeated")
    return g


@case
def headline_unknown():
    """§9: a Headline is one of the printed cards. 'alien_landing' is no card
    -> cycle/unknown-headline."""
    g = Game()
    _opening(g)
    g.headline("alien_landing")
    g.expect("cycle/unknown-headline")
    return g


@case
def headline_choice_missing():
    """§9 / FACTS §4: The Court Adopts Supported Meaning (ai_written_law, Era III) makes the Civic
    Permission Authority controller (or Initiative) name a Core Action. The Headline is recorded
    without the named action -> headline/choice-invalid."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.filler_era(2)
    g.era_start(3)
    g.headline("ai_written_law", action=None)
    g.expect("headline/choice-invalid")
    return g


# --- selection ------------------------------------------------------------------------------


@case
def select_action_exhausted():
    """§2: once played, a Core Action remains exhausted until the next Era. Seat 1 Funds in
    cycle 1 and selects Fund again in cycle 2 -> select/action-exhausted at the reveal."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "fund", 2: "organize", 3: "organize"})
    g.expect("select/action-exhausted")
    return g


@case
def select_program_in_era_one():
    """§5 Era I: only Core Actions; Programs unlock in Era II (Mega-Cluster, Reorganization).
    Seat 1 selects Reorganization in Era I -> select/program-locked. (Era I also gives no Program
    marker, but the Program does not exist yet: one illegal selection, one finding, the more
    specific one.)"""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "reorganization", 2: "fund", 3: "fund"})
    g.expect("select/program-locked")
    return g


@case
def select_program_before_its_era():
    """§5: Public Capability Covenant unlocks in Era III. Seat 1 has its Era II marker but selects
    covenant in Era II -> select/program-locked."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.headline()
    g.reveal({1: "covenant", 2: "fund", 3: "fund"})
    g.expect("select/program-locked")
    return g


@case
def select_program_twice():
    """§2 Program markers: each named Program is usable once per player per game. Seat 1 uses
    Reorganization in Era II (its one marker) and selects it again in Era III
    -> select/program-reused at the Era III reveal."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.filler_era(2, turns={1: [("reorganization", {"team_moves": []}), "organize", "influence"]})
    g.era_start(3)
    g.headline()
    g.reveal({1: "reorganization", 2: "fund", 3: "fund"})
    g.expect("select/program-reused")
    return g


@case
def select_program_without_marker():
    """§2 Program markers: zero, one, one, then two markers per Era. In Era III seat 1 commits its
    one marker to Public Capability Covenant in cycle 1, then selects Narrative Capture in
    cycle 2 with no marker left -> select/program-no-marker."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.filler_era(2)
    g.era_start(3)
    g.cycle_of({1: ("covenant", {}), 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "narrative_capture", 2: "organize", 3: "organize"})
    g.expect("select/program-no-marker")
    return g


@case
def select_fusion_after_built():
    """§5 Era IV, Fusion Demonstrator: one shared Fusion marker; once any player constructs it, no
    other player may select Fusion. Seat 1 (Runway 12 after three Funds) builds Fusion on the
    Power Corridor (I6) in cycle 1; seat 2 selects Fusion in cycle 2 -> select/fusion-taken."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.cycle_of({1: ("fusion", {"to": "I6"}), 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "organize", 2: "fusion", 3: "organize"})
    g.expect("select/fusion-taken")
    return g


@case
def select_missing_seat():
    """§2 step 2: every player selects one Action. The reveal has no selection for seat 3
    -> select/missing-seat."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund"})
    g.expect("select/missing-seat")
    return g


@case
def select_duplicate_seat():
    """§2 step 2: every player selects *one* Action. Seat 1 appears twice in the reveal
    -> select/duplicate-seat."""
    g = Game()
    _opening(g)
    g.headline()
    g.add("reveal", selections=[{"seat": 1, "pick": "fund"}, {"seat": 1, "pick": "organize"},
                                {"seat": 2, "pick": "fund"}, {"seat": 3, "pick": "fund"}])
    g.expect("select/duplicate-seat")
    return g


@case
def select_fourth_core_action_partial_log():
    """§2: choose three of six Actions each Era. A full log cannot even express a fourth cycle
    (the schema caps cycles at three), so this case is a *partial* log (header.detail
    "partial": only turns were written down): seat 1 records Fund, Organize, Influence and then a
    fourth Core Action (Research) in Era I -> select/fourth-action at the fourth turn."""
    g = Game(detail="partial")
    g.era_start(1)
    g.turn(1, "fund")
    g.turn(1, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I1"]}])
    g.turn(1, "influence", to="I4", mode="trust")
    g.research(1, ["code"], "bank")
    g.expect("select/fourth-action", g.last - 2)
    return g


# --- turn order -----------------------------------------------------------------------------


@case
def turn_out_of_initiative_order():
    """§2 step 4: resolve clockwise from Initiative. Seat 1 holds first Initiative, but seat 2
    resolves first -> turn/out-of-order at seat 2's turn."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(2, "fund")
    g.expect("turn/out-of-order")
    return g


@case
def turn_initiative_not_passed():
    """§2 step 9 / §6B.5: pass Initiative clockwise before the next cycle. In cycle 2 seat 2 holds
    Initiative; the log resolves seat 1 first -> turn/out-of-order."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    g.turn(1, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I1"]}])
    g.expect("turn/out-of-order")
    return g


@case
def turn_resolves_other_action():
    """§2 A committed Action that becomes blocked: never replace the selected Action. Seat 1
    reveals Fund but resolves Organize -> turn/not-selected."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I1"]}])
    g.expect("turn/not-selected")
    return g


@case
def turn_twice_in_cycle():
    """§2: three turns per Era, one per cycle. After all three seats resolved cycle 1, seat 1
    records another Fund in the same cycle -> turn/twice, and, since that Fund was already played
    this Era, select/action-exhausted (two rules broken by the one event). Since issue 21 (one
    slip, one finding) the second is a note linked to the first (severity info)."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "fund")
    g.expect("turn/twice")
    return g


@case
def turn_before_reveal():
    """§2 step 3: reveal every selected action simultaneously, then resolve. A turn right after
    the Headline, with no reveal -> turn/no-reveal."""
    g = Game()
    _opening(g)
    g.headline()
    g.turn(1, "fund")
    g.expect("turn/no-reveal")
    return g


@case
def turn_seat_not_at_table():
    """Canonical log: seats are 1..N. A three-player log records a Fund by seat 4
    -> log/seat-out-of-range (the core check, before any rule code)."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "fund")
    g.add("fund", seat=4, path=["F"])
    g.expect("log/seat-out-of-range")
    return g


# --- movement -------------------------------------------------------------------------------


def _one_fund_turn(path: list[str], piece: str = "ceo") -> Game:
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "fund", to=path, piece=piece)
    return g


@case
def move_three_steps():
    """§2 step 6 / §4: the acting piece moves zero, one or two adjacent hexes. Seat 1's CEO moves
    F-I1-O1-O2 (three steps) -> move/too-far. NOTE: schemas/mandate2038.py caps ``path`` at three entries, so today the
    reader skips this event as log/invalid-event instead; the rules want the §2 finding (the
    request is in docs/notes/golden.md)."""
    g = _one_fund_turn(["F", "I1", "O1", "O2"])
    g.unvalidated = {g.last}  # the schema caps a turn path at 3 entries; see docs/notes/golden.md
    g.expect("move/too-far")
    return g


@case
def move_non_adjacent_step():
    """§4: one movement step crosses one shared tile edge. F to O1 (axial distance 2) in one step
    -> move/not-adjacent."""
    g = _one_fund_turn(["F", "O1"])
    g.expect("move/not-adjacent")
    return g


@case
def move_ceo_not_there():
    """§1 step 6: every CEO starts at Frontier. Seat 1's CEO path starts at I1
    -> move/piece-not-there."""
    g = _one_fund_turn(["I1", "I2"])
    g.expect("move/piece-not-there")
    return g


@case
def move_team_not_there():
    """§1 step 6: one Team starts at Frontier, the other two in supply. Seat 1's acting Team path
    starts at O3 where it has no Team -> move/piece-not-there."""
    g = _one_fund_turn(["O3"], piece="team")
    g.expect("move/piece-not-there")
    return g
