"""§6 Era sequence: Production (§6C, §4 Power), Dossier (§6D, §5), Audit (§6E), Era Mandate
(§6F), and the checkpoint resync rule (DESIGN.md §5)."""

from tests.golden.build import Game, case


@case
def production_facility_out_of_local_reach():
    """§4 Power delivery: the starting grid powers only Facility 1; a Generator powers only its own
    or adjacent hexes. Kestralyn has Facility 1 on I1 (Era I) and Facility 2 on I4 (Era II) and no
    Generator; its Era II allocation powers Facilities 1 and 2 -> production/not-powered at
    seat 1's allocation."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"]})
    g.filler_era(2, turns={1: [("build", {"to": "I4"}), "organize", "influence"]},
                 allocs={1: [1, 2]})
    g.expect("production/not-powered", _allocate_index(g, era_end=True, seat=1))
    return g


def _allocate_index(g: Game, era_end: bool, seat: int) -> int:
    """Index of ``seat``'s allocate event in the latest Production."""
    for i in range(len(g.events) - 1, -1, -1):
        e = g.events[i]
        if e["type"] == "allocate" and e["seat"] == seat:
            return i
    raise AssertionError("no allocation")


@case
def production_emergency_power_without_headline():
    """Headline The Counterfactual Casino Clears Priority Load (Era II) is the only source of
    emergency Power. In Era I's Production Kestralyn takes 1 emergency Power
    -> production/emergency-power."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"]})
    # rewrite seat 1's allocation with emergency Power (the filler allocated [1])
    i = _allocate_index(g, True, 1)
    g.events[i]["emergency"] = 1
    g.events[:] = g.events[: i + 1]
    g.expect("production/emergency-power", i)
    return g


@case
def production_allocated_twice():
    """§6C.3: each player chooses *one* complete allocation. Seat 1 allocates twice in Era I
    -> production/twice at the second."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("build", {"to": "I1"}), "organize", "fund"]})
    i = _allocate_index(g, True, 1)
    g.events[:] = g.events[: i + 1]
    g.add("allocate", seat=1, facilities=[1])
    g.expect("production/twice")
    return g


@case
def dossier_filed_twice():
    """§6D: every player files *the matching Era Dossier card* once per Era. Seat 1 files two
    cards in Era I -> dossier/filed-twice at the second."""
    g = Game()
    g.setup()
    g.era_start(1)
    for _ in range(3):
        g.cycle_of(_next_filler(g))
    g.production()
    g.dossiers()
    g.add("dossier", seat=1, orientation="commit")
    g.expect("dossier/filed-twice")
    return g


def _next_filler(g: Game) -> dict:
    plan = ["fund", "organize", "influence"]
    return {s: plan[g.cycle] for s in g.seats}


@case
def dossier_revealed_in_era_one():
    """§5 The secret AGI Dossier: reveal every Dossier in Era IV, before the final Audit. A reveal
    after the Era I filing -> dossier/reveal-early."""
    g = Game()
    g.setup()
    g.era_start(1)
    for _ in range(3):
        g.cycle_of(_next_filler(g))
    g.production()
    g.dossiers()
    g.add("dossier_reveal", hands=[
        {"seat": s, "benchmark": "hedge", "deployment": "hedge", "authority": "hedge",
         "publication": "hedge"} for s in g.seats])
    g.expect("dossier/reveal-early")
    return g


@case
def dossier_reveal_mismatch():
    """§5 The secret AGI Dossier: do not reveal, rotate, exchange or inspect a filed card. Every
    seat filed Hedge in every Era; at the Era IV reveal seat 1's Benchmark shows Commit
    -> dossier/reveal-mismatch at the reveal."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    for _ in range(3):
        g.cycle_of(_next_filler(g))
    g.production()
    g.dossiers()
    g.reveal_dossiers({1: {"benchmark": "commit"}})
    g.expect("dossier/reveal-mismatch")
    return g


@case
def audit_wrong_draw_count_three_players():
    """§6E: draws = round(base × players ÷ 4), halves upward, minimum one; Era I base 2, so three
    players draw round(1.5) = 2. Kestralyn and Loopfold take Venture funding in cycle 1 (two
    Scrutiny each: 4 cubes in the bag); the table draws three -> audit/wrong-draw-count."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("fund", {"mode": "venture"}), "organize", "influence"],
                           2: [("fund", {"mode": "venture"}), "organize", "influence"]},
                 draws=[1, 2, 1])
    g.expect("audit/wrong-draw-count", len(g.events) - 3)
    g.events[:] = g.events[: len(g.events) - 2]
    return g


@case
def audit_wrong_draw_count_five_players():
    """§6E: five players in Era I draw round(2 × 5 ÷ 4) = round(2.5) = 3 (halves upward). Seats 1
    and 2 take Venture funding (4 cubes in the bag); the table draws two
    -> audit/wrong-draw-count."""
    g = Game(("kestralyn", "loopfold", "mirevanta", "orisonix", "corthaven"))
    g.setup()
    g.filler_era(1, turns={1: [("fund", {"mode": "venture"}), "organize", "influence"],
                           2: [("fund", {"mode": "venture"}), "organize", "influence"]},
                 draws=[1, 2])
    g.expect("audit/wrong-draw-count", len(g.events) - 3)
    g.events[:] = g.events[: len(g.events) - 2]
    return g


@case
def audit_cube_not_in_bag():
    """§6E: cubes are drawn from the bag, which holds only the Scrutiny players added. Only
    Kestralyn took Venture funding (2 cubes); the table draws a seat-3 cube
    -> audit/cube-not-in-bag."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={1: [("fund", {"mode": "venture"}), "organize", "influence"]},
                 draws=[1, 3])
    g.expect("audit/cube-not-in-bag", len(g.events) - 3)
    g.events[:] = g.events[: len(g.events) - 2]
    return g


@case
def era_mandate_wrong_scorer():
    """§6F / Era Mandate Capital Finds the Default (markets_prefer_destiny: most Runway gained
    through Fund actions this Era, minimum 1). Cycle 1: seat 1 Funds conservatively (+2), seat 2
    takes Venture funding (+4, 2 Scrutiny), seat 3 Funds conservatively (+2); no other Fund.
    Seat 2 is the sole leader and scores 2. Audit: the bag holds seat 2's two cubes and three
    players draw two in Era I: both are seat 2's. The table scores seat 1
    -> mandate/era-mandate-scorers."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={2: [("fund", {"mode": "venture"}), "organize", "influence"]},
                 draws=[2, 2], scorers=[1])
    g.expect("mandate/era-mandate-scorers")
    return g


@case
def checkpoint_wrong_mandate_no_cascade():
    """DESIGN.md §5 checkpoints: a mismatch is reported once and replay continues from the table's
    value. After cycle 1 (everyone Funds; no Mandate changes) the table writes Kestralyn's
    Mandate as 3 (the rules: 2, its printed start) -> one checkpoint/mismatch. After cycle 2
    (Organize, no Mandate change) the table again writes 3, consistent with its own earlier value
    -> no finding."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of(_next_filler(g))
    g.add("checkpoint", label="after cycle 1", seats=[{"seat": 1, "mandate": 3}])
    g.expect("checkpoint/mismatch")
    g.cycle_of(_next_filler(g))
    g.add("checkpoint", label="after cycle 2", seats=[{"seat": 1, "mandate": 3}])
    return g
