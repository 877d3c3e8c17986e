"""More single-error cases, and clean "rule probes": short legal prefixes that expect no
finding and end with a checkpoint holding the values the rules give (a disagreement shows up as
checkpoint/mismatch at that checkpoint)."""

from tests.golden.build import Game, case
from tests.golden.cases.complete_games import game_three_players


def _opening(g: Game) -> None:
    g.setup()
    g.era_start(1)


@case
def trade_pushes_rival_above_runway_cap():
    """§3 Universal costs and caps: a trade cannot move resources through a player above a cap
    (Runway 12). Kestralyn takes Venture funding on the Allocation Exchange in cycle 1 (6 + 4 + 1
    = 11, 2 cubes). In cycle 2 Loopfold sells it nothing but buys a Compute with a Runway
    (Kestralyn 12); then Mirevanta does the same, accepted: Kestralyn would hold 13
    -> trade/over-cap at Mirevanta's trade."""
    g = Game()
    _opening(g)
    g.cycle_of({1: ("fund", {"to": "I4", "mode": "venture"}), 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    g.add("trade", seat=2, rival=1, give="runway", accepted=True)
    g.play(2, "organize")
    g.add("trade", seat=3, rival=1, give="runway", accepted=True)
    g.expect("trade/over-cap")
    return g


@case
def checkpoint_trust_above_track():
    """§3 Trust: a zero-to-six track. After cycle 1 the table writes Mirevanta's Trust as 7
    -> resource/out-of-range at the checkpoint (the impossible value is the slip)."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.add("checkpoint", label="after cycle 1", seats=[{"seat": 3, "trust": 7}])
    g.expect("resource/out-of-range")
    return g


@case
def deploy_after_trading_away_the_compute():
    """§7 Deploy: spend one Compute. Mirevanta researches Code, Science in cycle 1 (C3 -> 2, Cap 2),
    sells a Compute to seat 1 before its cycle 2 Fund (C1), and in cycle 3 (Initiative 3) sells
    its last Compute to seat 1 and then resolves its Deploy on Frontier with none left
    -> deploy/no-compute. (The Deploy was eligible when selected, with one Compute; a trade
    cannot replace the selected Action.)"""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: ("research", {"cards": ["code", "science"]})})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "fund"})
    g.play(2, "organize")
    g.add("trade", seat=3, rival=1, give="compute", accepted=True)
    g.play(3, "fund")
    g.play(1, "organize")
    g.headline()
    g.reveal({1: "influence", 2: "influence", 3: "deploy"})
    g.add("trade", seat=3, rival=2, give="compute", accepted=True)
    g.turn(3, "deploy")
    g.expect("deploy/no-compute")
    return g


@case
def research_after_trading_away_the_compute():
    """§7 Research: spend one Compute. Mirevanta (C3) sells one Compute before each of its three
    turns in Era I; it selects Research in cycle 3 holding 1 Compute (eligible), sells it, then
    researches with none -> research/no-compute at the Research event."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.play(1, "fund")
    g.play(2, "fund")
    g.add("trade", seat=3, rival=1, give="compute", accepted=True)
    g.play(3, "fund")
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    g.play(2, "organize")
    g.add("trade", seat=3, rival=2, give="compute", accepted=True)
    g.play(3, "organize")
    g.play(1, "organize")
    g.headline()
    g.reveal({1: "influence", 2: "influence", 3: "research"})
    g.add("trade", seat=3, rival=1, give="compute", accepted=True)
    g.research(3, ["code"], "bank")
    g.expect("research/no-compute", g.last - 2)
    return g


@case
def cycle_skipped():
    """§6B: three action cycles in order. After cycle 1 the log reveals the Headline of cycle 3
    -> cycle/out-of-order."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.headline(cycle=3)
    g.expect("cycle/out-of-order")
    return g


@case
def event_after_game_end():
    """Canonical log / §11: nothing is played after the game ends. The clean three-player game
    followed by one more Fund -> log/event-after-game-end."""
    g = game_three_players()
    g.add("fund", seat=1, path=["I4"])
    g.expect("log/event-after-game-end")
    return g


# --- clean rule probes ----------------------------------------------------------------------


@case
def probe_audit_costs_trust_without_runway():
    """Clean probe, §6E: each drawn cube costs its owner one Runway; if none remains, one Trust.
    Mirevanta (R3 C3 T3): c1 builds Facility 1 on I1 (R1); c2 moves to the Workforce Transition
    District (I5) and recruits a Team there for 2-1 = 1 Runway (visit bonus; R0); c3 researches
    Code, Code and crashes (+1 cube, C2). Production: Facility 1 on the Research Commons +1 C
    (C3). Audit (2 draws, the bag holds Mirevanta's one cube): no Runway left, so Trust 3 -> 2
    (Mandate does not fall: Trust thresholds are permanent). Expected: no finding; the
    checkpoint holds M Mandate 2, Runway 0, Compute 3, Trust 2, bag 0."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: ("build", {"to": "I1"})})
    g.cycle_of({1: "organize", 2: "organize", 3: ("organize", {"mode": "recruit", "to": "I5"})})
    g.cycle_of({1: "influence", 2: "influence",
                3: ("research", {"cards": ["code", "code"], "end": "crash", "banked": 0})})
    g.end_era(draws=[3])
    g.add("checkpoint", label="end of Era I", seats=[
        {"seat": 3, "mandate": 2, "runway": 0, "compute": 3, "capability": 0, "trust": 2,
         "scrutiny": 0}])
    return g


@case
def probe_frontier_visit_bonus():
    """Clean probe, Map reference (FACTS §2): an acting piece ending on Frontier may, after Act,
    gain 1 Runway and add 1 Scrutiny. Seat 1 Funds on Frontier and takes the bonus: Runway
    6 + 2 + 1 = 9 and one cube in the bag. Expected: no finding; checkpoint R9, bag 1."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "fund", frontier_bonus=True)
    g.play(2, "fund")
    g.play(3, "fund")
    g.add("checkpoint", label="after cycle 1", seats=[{"seat": 1, "runway": 9, "scrutiny": 1}])
    return g


@case
def probe_matter_compiler_crash_systemic_risk():
    """Clean probe, Headline The Matter Compiler Enters Public Maintenance (Era IV): a crash adds 3
    Scrutiny instead of 1, plus one black Systemic Risk cube. After three filler Eras (Fund,
    Organize, Influence; no cubes), seat 1 researches Code, Code in Era IV cycle 1 and crashes:
    3 cubes and 1 black cube. Expected: no finding; checkpoint bag 3, Systemic Risk 1."""
    g = Game()
    g.setup()
    for e in (1, 2, 3):
        g.filler_era(e)
    g.era_start(4)
    g.cycle_of({1: ("research", {"cards": ["code", "code"], "end": "crash", "banked": 0}),
                2: "fund", 3: "fund"}, headline="recursive_self_improvement")
    g.add("checkpoint", label="after Era IV cycle 1", seats=[{"seat": 1, "scrutiny": 3}],
          systemic_risk=1)
    return g
