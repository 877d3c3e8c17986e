"""§11 Final scoring and §5 Claim strength: the clean three-player game (complete_games.py)
with one wrong value in the table's final record. Fields that depend on the wrong one are left
out of the record (every final_record field is optional), so each case has exactly one slip.

Correct values (worked out in complete_three_players): offline 0/0/0, Mandate K 11, L 21,
M 12, provisional winner seat 2, no claim, no AGI, Collective Trust 14, Open threshold 7+3 = 10,
Systemic Risk 0, Open, The Plural Future.
"""

from tests.golden.build import Game, case
from tests.golden.cases.complete_games import game_three_players

RIGHT = {"offline": {1: 0, 2: 0, 3: 0}, "collective_trust": 14, "open_threshold": 10,
         "systemic_risk": 0, "provisional_winners": [2], "claims": [], "agi": False,
         "winners": [2], "open": True, "ending": "plural_future"}


def _with(**changes) -> Game:
    rec = dict(RIGHT)
    for k, v in changes.items():
        if v is None:
            rec.pop(k, None)
        else:
            rec[k] = v
    g = game_three_players(final=rec)
    g.expect_at_record = len(g.events) - 2
    return g


@case
def final_wrong_offline_penalty():
    """§11 step 2: lose one Mandate per offline Facility. Every Facility had a Power cube in the
    final Production (each seat powered its only Facility on its starting grid), so nobody is
    offline; the table records Kestralyn with one offline Facility -> final/offline-penalty at
    the final record."""
    g = _with(offline={1: 1, 2: 0, 3: 0})
    g.expect("final/offline-penalty", g.expect_at_record)
    return g


@case
def final_wrong_provisional_winner():
    """§11 step 3: the highest Mandate is the provisional winner (ties: Trust, Customers,
    Compute). Loopfold has 21, Mirevanta 12; the table names Mirevanta (the final winner is
    left out of the record) -> final/provisional-winner."""
    g = _with(provisional_winners=[3], winners=None)
    g.expect("final/provisional-winner", g.expect_at_record)
    return g


@case
def final_wrong_open():
    """§11 The shared World Ending: Open only if final Collective Trust >= Setup Collective Trust
    + player count (14 >= 7 + 3) and unresolved Systemic Risk < player count (0 < 3): both hold,
    so the ending is Open. The table records Closed (and no ending) -> final/open."""
    g = _with(open=False, ending=None)
    g.expect("final/open", g.expect_at_record)
    return g


@case
def final_wrong_world_ending():
    """§11 / FACTS §9: AGI does not emerge x Open = The Plural Future. The table records AGI no,
    Open yes, but the ending Assured Continuity (the no-AGI x Closed ending)
    -> final/world-ending."""
    g = _with(ending="assured_continuity")
    g.expect("final/world-ending", g.expect_at_record)
    return g


@case
def final_wrong_collective_trust():
    """§11: total every player's final Trust: K 4 + L 5 + M 5 = 14. The table writes 13
    -> final/collective-trust."""
    g = _with(collective_trust=13)
    g.expect("final/collective-trust", g.expect_at_record)
    return g


@case
def final_wrong_systemic_risk():
    """§11: unresolved Systemic Risk is the black cubes left in the bag after the final Audit; no
    black cube ever entered the bag (no Matter Compiler crash, no Counterfactual Casino double
    assignment), so 0. The table writes 1 -> final/systemic-risk."""
    g = _with(systemic_risk=1)
    g.expect("final/systemic-risk", g.expect_at_record)
    return g


@case
def final_agi_claim_with_one_module():
    """§5 Claim strength: a claim needs at least two supported evidence modules. Variant of the
    clean game: Loopfold also commits Benchmark (Era I) and Publication (Era IV); at the reveal it
    pays 2 Compute (C3 -> 1) and adds 2 cubes, so the final Audit's 4 draws come from 5 cubes
    (K, L, L, M drawn). Its claim is fully paid with Publication, but only Benchmark is supported
    (Capability 8 >= 3; Deployment and Authority were hedged). The table records that AGI emerged
    for Loopfold -> final/agi-unsupported (one finding; the ending is left out)."""
    rec = dict(RIGHT)
    rec.update(agi=True, claimant=2)
    for k in ("ending", "claims"):
        rec.pop(k)
    g = game_three_players(final=rec, loopfold_claim=True)
    g.expect("final/agi-unsupported", len(g.events) - 2)
    return g
