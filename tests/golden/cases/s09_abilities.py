"""§9 Faction abilities (FACTS §3): unlock Era, timing (once per Era / when unlocked / per game),
and ownership."""

from tests.golden.build import Game, case

FOUR = ("kestralyn", "loopfold", "mirevanta", "orisonix")
CORT = ("kestralyn", "loopfold", "corthaven")


@case
def ability_orbital_compute_in_era_one():
    """§9: each Faction ability unlocks at the Era printed on its board; Kestralyn's Orbital
    Compute is Era IV. Kestralyn builds Facility 1 on I1, then in cycle 2 Funds using Orbital
    Compute to move it to O2 -> ability/locked."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: ("build", {"to": "I1"}), 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "fund", 2: "organize", 3: "organize"})
    g.play(2, "organize")
    g.play(3, "organize")
    g.turn(1, "fund", orbital={"facility": 1, "to": "O2"})
    g.expect("ability/locked")
    return g


@case
def ability_emergency_pause_in_era_three():
    """§9: Orisonix's Emergency Pause unlocks in Era IV. Orisonix (seat 4) pauses Reorganization
    before selection in Era III cycle 1 -> ability/locked."""
    g = Game(FOUR)
    g.setup()
    g.filler_era(1)
    g.filler_era(2)
    g.era_start(3)
    g.headline()
    g.add("emergency_pause", seat=4, program="reorganization")
    g.expect("ability/locked")
    return g


@case
def ability_emergency_pause_twice():
    """§9 timing: Emergency Pause is once per game. Orisonix pauses Fusion in Era IV cycle 1 and
    again in cycle 2 -> ability/used-up at the second."""
    g = Game(FOUR)
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.headline()
    g.add("emergency_pause", seat=4, program="fusion")
    g.reveal({s: "fund" for s in g.seats})
    for s in g.order():
        g.play(s, "fund")
    g.headline()
    g.add("emergency_pause", seat=4, program="fusion")
    g.expect("ability/used-up")
    return g


@case
def ability_paused_program_selected():
    """§9 Orisonix, Emergency Pause: name one unlocked Program that nobody may select this cycle.
    Orisonix names Agent Swarm in Era IV cycle 1; seat 1 selects it -> select/paused-program."""
    g = Game(FOUR)
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.headline()
    g.add("emergency_pause", seat=4, program="agent_swarm")
    g.reveal({1: "agent_swarm", 2: "fund", 3: "fund", 4: "fund"})
    g.expect("select/paused-program")
    return g


@case
def ability_allocation_window_twice():
    """§9 timing: Corthaven's Allocation Window is 'once when unlocked' (Era II only). Corthaven
    opens it in Era II cycle 1 (both offers rejected) and again in cycle 2
    -> ability/used-up at the second."""
    g = Game(CORT)
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    offers = [{"to": 1, "price": 1, "answer": "reject"}, {"to": 2, "price": 1, "answer": "reject"}]
    g.headline()
    g.add("allocation_window", seat=3, offers=offers)
    g.reveal({s: "fund" for s in g.seats})
    for s in g.order():
        g.play(s, "fund")
    g.headline()
    g.add("allocation_window", seat=3, offers=offers)
    g.expect("ability/used-up")
    return g


@case
def ability_allocation_window_wrong_faction():
    """§9: every Faction has its own ability. Kestralyn (seat 1) opens Corthaven's Allocation
    Window in Era II -> ability/not-your-faction."""
    g = Game(CORT)
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.headline()
    g.add("allocation_window", seat=1, offers=[{"to": 2, "price": 1, "answer": "reject"}])
    g.expect("ability/not-your-faction")
    return g


@case
def probe_allocation_window_temporary_compute_expires():
    """§9 Corthaven, Allocation Window (Era II, once when unlocked): "make 2 temporary Compute
    and offer each to a rival ... Temporary Compute left anywhere at cycle end is gone", sold or
    unsold. Era II cycle 1: Corthaven (seat 3, Compute 4 as printed) makes two temporary
    Compute (C6) and sells one to Loopfold (seat 2: Runway 4 +2 in Era I = 6, Compute 2)
    for 1 Runway: Loopfold R5 C3, Corthaven R+1. Everyone Funds (no Compute spent). When cycle 2
    begins, the sold unit on Loopfold and the unsold one on Corthaven are gone: Loopfold C2,
    Corthaven C4 (a checkpoint right after the cycle-2 Headline). Clean: zero findings (the
    engine used to keep the sold unit as permanent Compute: C3)."""
    g = Game(CORT)
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.headline()
    g.add("allocation_window", seat=3, offers=[{"to": 2, "price": 1, "answer": "accept"},
                                               {"to": 1, "price": 1, "answer": "reject"}])
    g.reveal({s: "fund" for s in g.seats})
    for s in g.order():
        g.play(s, "fund")
    g.headline()
    g.add("checkpoint", label="after cycle 1",
          seats=[{"seat": 2, "compute": 2}, {"seat": 3, "compute": 4}])
    return g


@case
def allocation_window_temporary_compute_spent_first():
    """§9 Corthaven, Allocation Window (card text, data/factions.json): "All temporary Compute
    remaining anywhere at cycle end disappears"; the temporary tokens are distinct components, so
    Compute spent during the cycle is paid with them first. Era II cycle 1: Corthaven (seat 3,
    Compute 4 as printed) makes two temporary Compute (C6, both offers rejected), then
    Researches for 1 Compute (C5, one temporary token left). When cycle 2 begins the one
    remaining temporary token is gone: Corthaven C4 (a checkpoint right after the cycle-2
    Headline). Clean: zero findings (the engine used to remove min(temporary, Compute) = 2,
    leaving C3, and flag the correct table with checkpoint/mismatch)."""
    g = Game(CORT)
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.headline()
    g.add("allocation_window", seat=3, offers=[{"to": 2, "price": 1, "answer": "reject"},
                                               {"to": 1, "price": 1, "answer": "reject"}])
    g.reveal({1: "fund", 2: "fund", 3: "research"})
    for s in g.order():
        g.play(s, ("research", {"cards": ["code"]}) if s == 3 else "fund")
    g.headline()
    g.add("checkpoint", label="after cycle 1", seats=[{"seat": 3, "compute": 4}])
    return g


@case
def allocation_window_under_compute_borders_harden():
    """§9 Headline Compute Borders Harden (Era II): "Compute cannot be traded" this cycle (§6B:
    the active Headline may prohibit a named resource from being traded). Corthaven's
    Allocation Window sells temporary Compute to rivals for Runway: opened with offers under
    that Headline -> one trade/resource-banned at the window (it was never checked)."""
    g = Game(CORT)
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.headline("export_controls")
    g.add("allocation_window", seat=3, offers=[{"to": 2, "price": 1, "answer": "accept"},
                                               {"to": 1, "price": 1, "answer": "reject"}])
    g.expect("trade/resource-banned")
    g.reveal({s: "fund" for s in g.seats})
    for s in g.order():
        g.play(s, "fund")
    return g


@case
def orbital_compute_with_a_piece_path():
    """§9 Kestralyn, Orbital Compute (Era IV, once per game): "Instead of moving the acting
    piece, move 1 Facility to any legal open Facility space". Kestralyn (Facility 1 on I1 from
    Era I) Funds in Era IV cycle 1 with Orbital Compute moving Facility 1 to O2, and the turn
    also records its CEO walking I4-F -> one ability/invalid (the path used to be silently
    ignored)."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "influence"]})
    for e in (2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    for s in g.order():
        if s == 1:
            g.turn(1, "fund", to="F", orbital={"facility": 1, "to": "O2"})
            g.expect("ability/invalid")
        else:
            g.play(s, "fund")
    return g
