"""Issue 21, round three: a checkpoint mismatch names the rule of the step that explains it
(engine/mandate2038/trace.py), where it used to cite only "§3/§6 ... checkpoints"."""

from engine.mandate2038.trace import RULES
from tests.golden.build import Game, case

MISMATCH = "checkpoint/mismatch"


def _cp(g: Game, label: str, seats: dict[int, dict]) -> None:
    g.add("checkpoint", label=label, seats=[{"seat": s, **v} for s, v in sorted(seats.items())])


@case
def mismatch_deploy_paid_on_human_access_district():
    """§7 Deploy and the Map reference: a Deploy on a Human Access District costs no Compute.
    Era I: Mirevanta (seat 3, Compute 3) Researches from Frontier (code, science: banks
    Capability 2; Compute 2), then Deploys on the Human Access District O1 (Customer #1 needs
    Capability 2; free there). The table paid 1 Compute: its checkpoint says Compute 1, the rules
    give 2 -> one checkpoint/mismatch naming the Deploy's waiver (it cited only checkpoints:
    the engine had no step of that size)."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: "fund", 2: "fund", 3: ("research", {"cards": ["code", "science"], "banked": 2})})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "deploy"})
    for s in g.order():
        if s == 3:
            g.turn(3, "deploy", to="O1")
        else:
            g.play(s, "organize")
    _cp(g, "after the Deploy", {3: {"compute": 1}})
    g.expect(MISMATCH, rule=RULES["deploy_waived"])
    return g


@case
def mismatch_venture_without_scrutiny():
    """§7 Fund: a Venture gives 4 Runway and adds 2 Scrutiny. Era I cycle 1: Kestralyn (seat 1)
    Ventures; the table's checkpoint after the cycle records its bag at 0, the rules give 2
    -> one checkpoint/mismatch naming Fund (the two cubes are added one at a time, and no single
    +2 step matched)."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: ("fund", {"mode": "venture"}), 2: "fund", 3: "fund"})
    g.headline()
    _cp(g, "after cycle 1", {1: {"scrutiny": 0}})
    g.expect(MISMATCH, rule=RULES["fund"])
    return g


@case
def mismatch_era_mandate_tie_scored_as_wins():
    """§6F: tied qualifying leaders score one Mandate each. Era I's Mandate (Capital Finds the
    Default: Runway gained through Fund) is a three-way tie (each Funded once: +2), so each
    scores 1: Kestralyn 2 +1 = 3, Loopfold 4 +1 = 5, Mirevanta 2 +2 (Trust 4) +1 = 5. The table
    scored 2 each (4, 6, 6) -> a checkpoint/mismatch per seat, each naming §6 F (the Era
    Mandate) where they cited only checkpoints."""
    g = Game()
    g.setup()
    g.filler_era(1)
    _cp(g, "end of Era I", {1: {"mandate": 4}, 2: {"mandate": 6}, 3: {"mandate": 6}})
    for _ in range(3):
        g.expect(MISMATCH, rule=RULES["era_mandate"])
    return g


@case
def failed_payment_then_no_full_credit():
    """§3 (a cost needs the resources to pay it) and §9 The Court Adopts Supported Meaning
    (Era III: selecting the named Core Action gives +2 Runway once it has resolved). Mirevanta
    (seat 3, Runway 3) builds Facility 1 on I1 in Era I (Runway 1) and never Funds in Eras I-II
    (its Facility produces Compute). Era III cycle 1: the Headline names Organize; Mirevanta
    recruits a Team for 2 Runway with 1 -> resource/insufficient. The table paid the recruit out
    of the Headline's 2 Runway: 1 + 2 - 2 = 1 at the next checkpoint. The engine used to clamp the
    payment at 0, then add the full 2 (a state the table never had: 2) and flag the checkpoint
    too; the shortfall is now owed and taken from the next gain."""
    g = Game()
    g.setup()
    g.filler_era(1, turns={3: [("build", {"to": "I1"}), "organize", "influence"]})
    g.filler_era(2, turns={3: ["organize", "influence", ("research", {"cards": ["code"]})]})
    g.era_start(3)
    g.headline("ai_written_law", action="organize")
    g.reveal(dict.fromkeys(g.seats, "organize"))
    for s in g.order():
        if s == 3:
            g.turn(3, "organize", to="I1", mode="recruit")
            g.expect("resource/insufficient")
        else:
            g.play(s, "organize")
    g.headline()
    _cp(g, "after cycle 1", {3: {"runway": 1}})
    return g
