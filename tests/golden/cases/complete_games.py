"""Clean complete games, authored by hand from the rules (not by a bot). Each expects ZERO
error/warning findings, the outcome and the full score ledger, worked out in its docstring.

Conventions used in the working: R Runway, C Compute, Cap Capability, Cu Customers, T Trust,
M Mandate, bag = the seat's Scrutiny cubes in the Audit bag. Starting values from FACTS §3;
the printed starting Mandate already includes the thresholds a faction starts at (Trust 2, and
Loopfold's Customer #1, Orisonix's Trust 4), so those never score again.
"""

from __future__ import annotations

from tests.golden.build import Game, case


def checkpoint(g: Game, label: str, rows: dict[int, tuple[int, ...]]) -> None:
    """rows: seat -> (M, R, C, Cap, Cu, T, bag)."""
    keys = ("mandate", "runway", "compute", "capability", "customers", "trust", "scrutiny")
    g.add("checkpoint", label=label,
          seats=[{"seat": s, **dict(zip(keys, v, strict=True))} for s, v in sorted(rows.items())])


def hedge(era_commits: dict[int, str] | None = None) -> dict[int, str]:
    return era_commits or {}


def game_three_players(final: dict | None = None, loopfold_claim: bool = False) -> Game:
    """The clean three-player game. ``loopfold_claim``: Loopfold also commits Benchmark (Era I)
    and Publication (Era IV), a claim with only one supported module (see final_scoring.py)."""
    g = Game(("kestralyn", "loopfold", "mirevanta"), first=1,
             description="golden complete game, three players")
    g.setup()
    # ---------------- Era I -------------------------------------------------------------
    g.era_start(1, mandate="quarter_humanity_notices")
    # c1 Initiative 1. Open Weights: everyone +1 Cap; lowest Customers K/M tie -> K (Initiative) T3
    g.headline("open_weights_drop")
    g.reveal({1: "build", 2: "fund", 3: "research"})
    g.turn(1, "build", to="I1")  # Facility 1 on I1: 2-1 (Industrial Velocity) = 1, +1 M
    g.turn(2, "fund")  # R 4->6
    g.research(3, ["code", "science"], "bank", banked=2)  # C3->2, Cap 1->3: +2 M
    # c2 Initiative 2. Last Clinic: banking >= 3 gives +1 Trust
    g.headline("professional_exam_sweep")
    g.reveal({1: "fund", 2: "research", 3: "fund"})
    g.research(2, ["web", "books", "images"], "bank", banked=3)  # C2->1, Cap 1->4 (+2 M), T3
    g.turn(3, "fund")  # R 3->5
    g.turn(1, "fund")  # R 5->7
    # c3 Initiative 3
    g.headline("employee_free_unicorn")
    g.reveal({1: "research", 2: "organize", 3: "deploy"})
    g.turn(3, "deploy")  # Cap 3 >= 2: Customer #1 (+2 M), C2->1, bag 1
    g.research(1, ["video", "video"], "protect")  # on I1: C3->2, banks 1 (Cap 2)
    g.turn(2, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I1"]}])
    g.production({1: [1], 2: [], 3: []})  # K: I1 +1 C (3); L, M: +1 R per Customer
    g.dossiers({3: "commit", 2: "commit"} if loopfold_claim else {3: "commit"})
    g.audit([3])  # 2 draws, bag holds 1 cube: M R6->5
    g.scoring([2])  # Cap gained: K 2, L 4, M 3 -> L +2
    checkpoint(g, "end of Era I", {1: (3, 7, 3, 2, 0, 3, 0), 2: (8, 7, 1, 4, 1, 3, 0),
                                   3: (6, 5, 1, 3, 1, 3, 0)})
    # ---------------- Era II ------------------------------------------------------------
    g.era_start(2, mandate="building_has_weather")
    g.headline("humanoid_factory_gate")
    g.reveal({1: "fund", 2: "build", 3: "fund"})
    g.turn(1, "fund")  # on I1: R7->9
    g.turn(2, "build", to="I2")  # Facility 1 on the Compute Estate: R7->5
    g.turn(3, "fund")  # R5->7
    g.headline("reactor_restart_one_model")
    g.reveal({1: "build", 2: "fund", 3: "build"})
    g.turn(2, "fund")  # on I2: R5->7
    g.turn(3, "build", to="I4")  # Facility 1 on the Allocation Exchange: R7->5
    g.turn(1, "build", to="I6", mode="generator")  # Emergency Power Complex: R9->8
    g.headline("emergency_power_authority")
    g.reveal({1: "organize", 2: "deploy", 3: "research"})
    g.research(3, ["synthetic", ("curated_corpus", "code")], "bank", banked=2)  # C1->0, Cap 5
    g.turn(1, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I1"]}])
    g.turn(2, "deploy")  # on I2 (first Compute cost -1: free): Customer #2 (+2 M), bag 1
    g.production({1: [1], 2: [1], 3: [1]})  # EPC operates (I1 in reach): +1 cube to K
    g.dossiers()
    g.audit([1, 2])
    g.scoring([1, 2, 3])  # powered Facilities 1 each: tied, 1 each
    checkpoint(g, "end of Era II", {1: (4, 7, 4, 2, 0, 3, 0), 2: (11, 8, 3, 4, 2, 3, 0),
                                    3: (7, 8, 0, 5, 1, 3, 0)})
    # ---------------- Era III -----------------------------------------------------------
    g.era_start(3, mandate="legibility_offensive")
    g.headline("ai_written_law", action="build")  # CPA uncontrolled: Initiative (1) names Build
    g.reveal({1: "influence", 2: "research", 3: "deploy"})
    g.turn(1, "influence", to="I4", mode="trust")  # T3->4: +2 M
    g.research(2, ["code", "science", "web"], "bank", banked=3, to="F")  # C3->2, Cap 7: +2 M
    g.add("trade", seat=3, rival=1, give="runway", accepted=True)  # M R8->7 C0->1; K R8 C3
    g.turn(3, "deploy")  # Cap 5: Customer #2 (+2 M), C1->0, bag 1
    g.headline("benchmark_is_economy")
    g.reveal({1: "research", 2: "deploy", 3: "influence"})
    g.turn(2, "deploy")  # Cap 7: Customer #3 (+2 M), C2->1, bag 1
    g.turn(3, "influence", mode="trust")  # on I4: T3->4: +2 M
    g.research(1, ["images", "books", "video"], "bank", banked=3)  # C3->2, Cap 5: +2 M, +1 M
    # Passive Citizen Dividend: lowest Cap K 5 = M 5 -> M (nearest Initiative 3): its powered
    # Facility 1 (Allocation Exchange) produces +2 R; highest Cap L 7: +1 T (4: +2 M)
    g.headline("weights_on_internet", facility=1)
    g.reveal({1: "fund", 2: "organize", 3: "fund"})
    g.turn(3, "fund")  # on I4: 2+1 = 3, R9->12
    g.turn(1, "fund")  # on I4: R8->11
    g.turn(2, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["I1", "F"]}])
    g.production({1: [1], 2: [1], 3: [1]})
    g.dossiers()
    g.audit([2, 3, 1])
    g.scoring([2, 3])  # deployed this Era: L T4, M T4 -> tied, 1 each
    checkpoint(g, "end of Era III", {1: (9, 10, 3, 5, 0, 4, 0), 2: (18, 10, 3, 7, 3, 4, 0),
                                     3: (12, 11, 0, 5, 2, 4, 0)})
    # ---------------- Era IV ------------------------------------------------------------
    g.era_start(4, mandate="responsible_acceleration")
    g.headline("recursive_self_improvement")
    g.reveal({1: "fund", 2: "fund", 3: "influence"})
    g.turn(1, "fund")  # on I4: R10+3 -> 12 (cap)
    g.turn(2, "fund")  # R10->12
    g.turn(3, "influence", mode="trust")  # T4->5
    g.headline("agent_swarm_escapes_scope")
    g.reveal({1: "research", 2: "research", 3: "fund"})
    g.research(2, ["synthetic", "human_evaluation"], "bank", banked=1)  # C3->2, Cap 8, T5
    g.turn(3, "fund")  # on I4: R11+3 -> 12 (cap)
    g.research(1, ["code", "science"], "bank", banked=2)  # C3->2, Cap 7: +2 M
    g.headline("agi_blog_post")
    g.reveal({1: "organize", 2: "deploy", 3: "organize"})
    g.turn(3, "organize", mode="redistribute", moves=[{"piece": "ceo", "path": ["I4", "F"]}])
    g.turn(1, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["I1", "F"]}])
    g.turn(2, "deploy")  # Cap 8: Customer #4 (+1 M), C2->1, bag 1
    g.production({1: [1], 2: [1], 3: [1]})
    g.dossiers({2: "commit"} if loopfold_claim else None)
    g.reveal_dossiers()  # M's Benchmark Commit: 1 Compute (has 0: pays 0) + 1 Scrutiny
    g.audit([1, 2, 2, 3] if loopfold_claim else [1, 2, 3])  # 4 draws, the bag holds 3 (or 5)
    g.scoring([2])  # Trust >= 4: K Cap 7, L 8, M 5 -> L
    if not loopfold_claim:
            checkpoint(g, "end of Era IV", {1: (11, 11, 3, 7, 0, 4, 0), 2: (21, 11, 3, 8, 4, 5, 0),
                                        3: (12, 11, 0, 5, 2, 5, 0)})
    g.add("phase", name="final_scoring")
    rec = {"offline": {1: 0, 2: 0, 3: 0}, "collective_trust": 14, "open_threshold": 10,
           "systemic_risk": 0, "provisional_winners": [2], "claims": [], "agi": False,
           "winners": [2], "open": True, "ending": "plural_future"}
    if final is not None:
        rec = final
    g.add("final_record", **rec)
    g.add("phase", name="game_end")
    return g


@case
def complete_three_players():
    """A clean three-player game (Kestralyn, Loopfold, Mirevanta; first Initiative seat 1; the
    standard map). Zero errors expected; outcome and ledger worked out by hand:

    Start: K R6 C3 T2 M2; L R4 C2 Cu1 T2 M4; M R3 C3 T3 M2. Setup Collective Trust 7.

    Era I (Intelligence Enters the Price: most Capability gained this Era).
    c1 Open Weights Become the Default: everyone Cap +1; lowest Customers K=M=0 -> the one
    nearest Initiative, K: T3. K builds Facility 1 on I1 (Research Commons) for 2-1=1 (Industrial
    Velocity, the discount is real: +1 M). L Funds (R6). M researches Code, Science, banks 2:
    Cap 3 (+2 M).
    c2 The Last Clinic Clears Its Waitlist: L researches Web, Books, Images, banks 3: Cap 4
    (+2 M for Cap 3) and, banking >= 3, +1 T (3). M Funds (R5), K Funds (R7).
    c3: M deploys (Cap 3 >= 2): Customer #1 +2 M, C1, 1 cube. K researches on I1 (Research
    Commons: +1 protection for this run): Video, Video -> protect, banks 1: Cap 2. L Organizes.
    Production: K's Facility 1 (grid) on Research Commons +1 C; L and M +1 R per Customer.
    Dossier: M commits Benchmark, others hedge. Audit (3 players, Era I: round(1.5)=2 draws):
    only M's cube is in the bag; M R6->5. Mandate: gained K 2, L 4, M 3 -> L +2.
    End I: K M3 R7 C3 Cap2 T3; L M8 R7 C1 Cap4 Cu1 T3; M M6 R5 C1 Cap3 Cu1 T3.

    Era II (The Campus Becomes a Climate: most powered Facilities).
    c1: K Funds (R9); L builds Facility 1 on I2, the Compute Estate (R5); M Funds (R7).
    c2: L Funds (R7); M builds Facility 1 on I4 (R5); K builds its Emergency Power Complex on I6
    (1 R: R8). c3: M researches Synthetic + Curated Corpus as Code, banks 2: Cap 5, C0;
    K Organizes; L deploys on I2 (Cap 4 >= 4): the Compute Estate visit reduces the first Compute
    cost by 1, so the Deploy is free (C1); Customer #2 +2 M, 1 cube.
    Production: K's EPC has Facility 1 (I1) in reach, so it operates: +1 cube to K. Everyone
    powers Facility 1 on its starting grid: K +1 C (C4); L +2 C (C3), 2 Customers +2 R (R9);
    M +2 R (Allocation Exchange) +1 R (R8). Audit (round(2.25)=2 draws): K's and L's cubes:
    K R7, L R8. Mandate: 1 powered Facility each: tied leaders, 1 M each.
    End II: K M4 R7 C4 Cap2 T3; L M11 R8 C3 Cap4 Cu2 T3; M M7 R8 C0 Cap5 Cu1 T3.

    Era III (Refusal Remains Legible: among players who deployed this Era, most Trust).
    c1 The Court Adopts Supported Meaning: the Civic Permission Authority is uncontrolled, so
    Initiative (K) names Build; nobody selects it. K moves I6-I4 and Influences: T4 (+2 M).
    L moves to F and researches Code, Science, Web, banks 3: Cap 7 (+2 M for 6). M trades 1 R to
    K for 1 C (K R8 C3), then deploys on I4 (Cap 5 >= 4): Customer #2 +2 M, C0, 1 cube.
    c2 The Billionth Instance Enters the Record: L deploys (Cap 7 >= 6): Customer #3 +2 M, 1 cube.
    M Influences on I4: T4 (+2 M). K researches Images, Books, Video on I4, banks 3: Cap 5 (+2 M
    for 3) and the Headline's +1 M for banking >= 3.
    c3 The Passive Citizen Dividend Activates: lowest Capability K=M=5 -> M (nearest Initiative,
    seat 3) resolves its powered Facility 1 (Allocation Exchange): +2 R (R9); highest Capability
    L (7): +1 T -> 4 (+2 M). M Funds on I4 (+1 Allocation Exchange): R12. K Funds on I4: R11.
    L Organizes. Production: EPC +1 cube K; K +1 C; L +2 C, 3 Customers +3 R (R11); M +2 R +2 R
    (capped at 12). Audit (3 draws): one cube each of L, M, K: each -1 R.
    Mandate: deployed this Era L (T4) and M (T4): tied, 1 each.
    End III: K M9 R10 C3 Cap5 T4; L M18 R10 C3 Cap7 Cu3 T4; M M12 R11 C0 Cap5 Cu2 T4.

    Era IV (Contestability Standard Maintained: most Capability among Trust >= 4).
    c1 The Matter Compiler (nobody researches): K Funds on I4 (13, capped 12), L Funds (R12),
    M Influences on I4 (T5). c2: L researches Synthetic, Human Evaluation (+1 T: 5; banks 1):
    Cap 8. M Funds on I4 (capped 12). K researches Code, Science, banks 2: Cap 7 (+2 M for 6).
    c3 The Universe Receives a Continuity Plan: M and K Organize; L deploys (Cap 8 >= 8):
    Customer #4 +1 M, 1 cube. Production: EPC +1 cube K; K +1 C; L +2 C, +4 R (capped 12);
    M +4 R (12). Dossier reveal: only M committed (Benchmark, Era I): 1 C owed, M has 0: pays
    all it has (0), still adds 1 cube, ineligible (and no Publication anyway). Audit
    (round(3.75)=4 draws) draws the 3 cubes in the bag: each -1 R. Mandate: Trust >= 4 is
    everyone; Cap K 7, L 8, M 5 -> L +2.

    Final scoring: every Facility was powered in the last Production: no offline penalty.
    Mandate K 11, L 21, M 12: provisional winner L. No Publication committed: no claim, AGI does
    not emerge, winner L. Collective Trust 4+5+5 = 14 >= 7+3 = 10 and Systemic Risk 0 < 3: Open.
    World Ending: The Plural Future.
    """
    g = game_three_players()
    g.outcome(provisional_winners=[2], winners=[2], agi=False, open=True,
              ending="plural_future", mandate={"1": 11, "2": 21, "3": 12})
    g.score([
        (1, "starting", 2), (2, "starting", 4), (3, "starting", 2),
        # Era I
        (1, "faction_ability", 1), (3, "capability_threshold", 2), (2, "capability_threshold", 2),
        (3, "customer", 2), (2, "era_mandate", 2),
        # Era II
        (2, "customer", 2), (1, "era_mandate", 1), (2, "era_mandate", 1), (3, "era_mandate", 1),
        # Era III
        (1, "trust_threshold", 2), (2, "capability_threshold", 2), (3, "customer", 2),
        (2, "customer", 2), (3, "trust_threshold", 2), (1, "capability_threshold", 2),
        (1, "headline", 1), (2, "trust_threshold", 2), (2, "era_mandate", 1),
        (3, "era_mandate", 1),
        # Era IV
        (1, "capability_threshold", 2), (2, "customer", 1), (2, "era_mandate", 2),
    ])
    return g


def game_four_players() -> Game:
    # seats: 1 Mirevanta, 2 Kestralyn, 3 Corthaven, 4 Loopfold (Session A); first Initiative 2
    g = Game(("mirevanta", "kestralyn", "corthaven", "loopfold"), first=2,
             description="golden complete game, four players (Session A factions)")
    g.setup()
    # ---------------- Era I (Initiative 2, 3, 4) ---------------------------------------
    g.era_start(1, mandate="markets_prefer_destiny")
    g.headline("ten_dollar_intelligence")  # Research/Deploy cost 0 Compute, +1 Scrutiny each
    g.reveal({1: "research", 2: "fund", 3: "research", 4: "fund"})
    g.turn(2, "fund", mode="venture")  # R6->10, bag 2
    g.research(3, ["code", "benchmark_leak", "science"], "bank", banked=4)  # bag 2, Cap 4 (+2)
    g.turn(4, "fund")  # R4->6
    g.research(1, ["web", "web"], "crash", banked=0)  # bag 2 (Headline + crash), Cap 0
    g.headline("professional_exam_sweep")
    g.reveal({1: "fund", 2: "build", 3: "build", 4: "research"})
    g.turn(3, "build", to="I2")  # R5->3
    g.research(4, ["books", "images"], "bank", banked=2)  # C2->1, Cap 2
    g.turn(1, "fund")  # R3->5
    g.turn(2, "build", to="I1")  # 2-1 = 1 (+1 M): R9
    g.headline("employee_free_unicorn")
    g.reveal({1: "organize", 2: "research", 3: "fund", 4: "organize"})
    g.turn(4, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I1"]}])
    g.turn(1, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I4"]}])
    g.research(2, ["code", "science", "synthetic"], "bank", banked=3)  # on I1: C2, Cap 3 (+2)
    g.turn(3, "fund")  # on I2: R5
    g.production({2: [1], 3: [1]})  # K +1 C (3); C +2 C (6); L +1 R (7)
    g.dossiers()
    g.audit([3, 1])  # 2 draws: C R4, M R4
    g.scoring([2])  # Fund Runway: K 4, L 2, M 2, C 2
    checkpoint(g, "end of Era I", {1: (2, 4, 3, 0, 0, 3, 1), 2: (7, 9, 3, 3, 0, 2, 2),
                                   3: (4, 4, 6, 4, 0, 3, 1), 4: (4, 7, 1, 2, 1, 2, 0)})
    # ---------------- Era II (Initiative 1, 2, 3) --------------------------------------
    g.era_start(2, mandate="compute_new_weather")
    g.headline("humanoid_factory_gate")
    g.reveal({1: "reorganization", 2: "build", 3: "deploy", 4: "organize"})
    g.turn(1, "reorganization", return_team="I4")  # +3 R (R7), bag 2
    g.turn(2, "build", to="I6", mode="generator")  # Emergency Power Complex: R8
    g.turn(3, "deploy")  # on I2 (first Compute cost -1): free; Customer #1 (+2 M), bag 2
    g.turn(4, "organize", mode="recruit", recruits=2)  # Headline: 2 Teams for 1 R (R6), bag 2
    g.headline("export_controls")  # nobody is on I3, O5 or O11: no controller gains
    g.reveal({1: "research", 2: "fund", 3: "fund", 4: "research"})
    g.turn(2, "fund")  # on I6: R10
    g.turn(3, "fund")  # R6
    g.research(4, ["video", ("curated_corpus", "code")], "bank", banked=2)  # C0, Cap 4 (+2)
    g.research(1, ["science", "code", "images"], "bank", banked=3)  # C2, Cap 3 (+2)
    g.headline("reactor_restart_one_model")
    g.reveal({1: "fund", 2: "influence", 3: "research", 4: "deploy"})
    g.research(3, ["web", "synthetic"], "bank", banked=2)  # on I2: free; Cap 6 (+2)
    g.turn(4, "deploy", to="I2")  # on I2: free; Customer #2 (+2 M), bag 3
    g.turn(1, "fund")  # R9
    g.turn(2, "influence", to="O10", mode="scrutiny")  # Consensus Network: remove 1+1: bag 0
    g.production({2: [1], 3: [1]})  # EPC operates (Facility 1 on I1 in reach): +1 cube K
    g.dossiers()
    g.audit([4, 4, 2])  # 3 draws: L R6, K R9
    g.scoring([3])  # Compute produced: K 1, C 2 -> C
    checkpoint(g, "end of Era II", {1: (4, 9, 2, 3, 0, 3, 2), 2: (7, 9, 4, 3, 0, 2, 0),
                                    3: (10, 7, 8, 6, 1, 3, 2), 4: (8, 6, 0, 4, 2, 2, 1)})
    # ---------------- Era III (Initiative 4, 1, 2) -------------------------------------
    g.era_start(3, mandate="legibility_offensive")
    g.headline("ai_written_law", action="fund")  # CPA uncontrolled: Initiative (4) names Fund
    g.reveal({1: "fund", 2: "build", 3: "influence", 4: "narrative_capture"})
    g.turn(4, "narrative_capture", mode="runway")  # R8
    g.turn(1, "fund")  # +2, Headline +2 R and +1 Scrutiny: R13 -> 12, bag 3
    g.turn(2, "build")  # Facility 2 on O10: 2-1 = 1 (+1 M): R8
    g.turn(3, "influence", mode="jv", facility=1, partner=2, partner_facility=1, accepted=True)
    g.headline("benchmark_is_economy")
    g.reveal({1: "research", 2: "research", 3: "fund", 4: "fund"})
    g.research(1, ["code", "science", "web", "books"], "bank", banked=4)  # C1, Cap 7: +2, +1
    g.research(2, ["images", "video", ("curated_corpus", "code")], "bank", banked=3)  # +2, +1
    g.turn(3, "fund")  # R9
    g.turn(4, "fund")  # R10
    # Passive Citizen Dividend: lowest Cap L (4) has no Facility: nothing; highest M (7): T4
    g.headline("weights_on_internet")
    g.reveal({1: "deploy", 2: "fund", 3: "research", 4: "organize"})
    g.turn(2, "fund")  # on O10: R10
    g.research(3, ["images", "synthetic", "human_evaluation"], "bank", banked=2)  # T4, Cap 8
    g.turn(4, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["I1", "F"]}])
    g.turn(1, "deploy")  # Customer #1 (+2 M), C0, bag 4
    g.production({2: [1, 2], 3: [1]})  # EPC +1 cube K, Consensus Network Facility -1
    g.dossiers()
    g.audit([1, 3, 1, 3])  # 4 draws: M R10, C R8
    g.scoring([1])  # only M deployed this Era
    checkpoint(g, "end of Era III", {1: (13, 10, 0, 7, 1, 4, 2), 2: (11, 10, 5, 6, 0, 2, 0),
                                     3: (12, 8, 10, 8, 1, 4, 0), 4: (8, 12, 0, 4, 2, 2, 1)})
    # ---------------- Era IV (Initiative 3, 4, 1) --------------------------------------
    g.era_start(4, mandate="continent_signs_loi")
    g.headline("recursive_self_improvement")
    g.reveal({1: "fund", 2: "deploy", 3: "deploy", 4: "organize"})
    g.turn(3, "deploy")  # on I2: free; Customer #2 (+2 M), bag 1
    g.turn(4, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I1"]}])
    g.turn(1, "fund")  # R12
    g.turn(2, "deploy")  # on O10: C5->4; Customer #1 (+2 M), bag 1
    g.headline("agent_swarm_escapes_scope")
    g.reveal({1: "research", 2: "fund", 3: "fund", 4: "influence"})
    g.turn(4, "influence", to="I4", mode="trust")  # T3
    g.add("trade", seat=1, rival=3, give="runway", accepted=True)  # M R11 C1; C R9 C9
    g.research(1, ["video", "books", ("curated_corpus", "science")], "bank", banked=3)  # Cap 10
    g.turn(2, "fund")  # on O10: R12
    g.turn(3, "fund")  # R11
    g.headline("agi_blog_post")
    g.reveal({1: "organize", 2: "build", 3: "organize", 4: "build"})
    g.turn(1, "organize", mode="redistribute", moves=[{"piece": "ceo", "path": ["F", "I1"]}])
    g.turn(2, "build")  # Facility 3 on O10: 2-1 = 1 (+1 M): R11
    g.turn(3, "organize", mode="redistribute", moves=[{"piece": "team", "path": ["F", "I3"]}])
    g.turn(4, "build")  # Facility 1 on I4: R10
    g.production({2: [1, 2, 3], 3: [1], 4: [1]})
    g.dossiers()
    g.reveal_dossiers()  # all Hedge: nothing to pay
    g.audit([1, 3, 1, 4])  # 5 draws, the bag holds 4
    g.scoring([2, 3])  # Customers gained this Era: K 1, C 1 -> tied, 1 each
    checkpoint(g, "end of Era IV", {1: (14, 10, 0, 10, 1, 4, 0), 2: (15, 12, 6, 6, 1, 2, 0),
                                    3: (15, 11, 10, 8, 2, 4, 0), 4: (8, 11, 0, 4, 2, 3, 0)})
    g.add("phase", name="final_scoring")
    g.add("final_record", offline={1: 0, 2: 0, 3: 0, 4: 0}, collective_trust=13,
          open_threshold=14, systemic_risk=0, provisional_winners=[3], claims=[], agi=False,
          winners=[3], open=False, ending="assured_continuity")
    g.add("phase", name="game_end")
    return g


@case
def complete_four_players():
    """A clean four-player game (Session A: Mirevanta 1, Kestralyn 2, Corthaven 3, Loopfold 4;
    first Initiative seat 2, so Initiative runs 2,3,4 | 1,2,3 | 4,1,2 | 3,4,1). Zero errors.

    Start: M R3 C3 T3 M2; K R6 C3 T2 M2; C R5 C4 T3 M2; L R4 C2 Cu1 T2 M4.
    Setup Collective Trust 3+2+3+2 = 10; Open threshold 14.

    Era I (Capital Finds the Default: most Runway gained through Fund).
    c1 The Token Price Reaches Zero (Research/Deploy free, +1 Scrutiny each): K Venture Funds
    (+4, 2 cubes). C researches free (+1 cube): Code, Benchmark Leak (+2 provisional, +1 cube),
    Science -> banks 4: Cap 4 (+2 M for 3). L Funds (+2). M researches free (+1 cube): Web, Web,
    crash (+1 cube, no protection spent): Cap 0.
    c2: C builds Facility 1 on I2 (R3). L researches Books, Images, banks 2 (below the
    Headline's 3). M Funds (+2). K builds Facility 1 on I1 for 2-1 (+1 M; R9).
    c3: L, M Organize. K researches on I1: Code, Science, Synthetic, banks 3: Cap 3 (+2 M).
    C Funds (+2). Production: K +1 C, C +2 C (Compute Estate), L +1 R. Audit (2 draws): C, M
    -1 R each. Mandate: Fund Runway K 4, others 2 -> K +2.

    Era II (Compute Becomes Public Weather: most Compute produced in Production).
    c1 The Last Hazard Shift Is Retired: M selects Reorganization (its Era II marker) and returns
    its Team from I4: +3 R, +1 cube. K builds its EPC on I6 (1 R). C deploys on I2 (the Compute
    Estate makes the first Compute cost 0): Customer #1 +2 M, 1 cube. L recruits two Teams at F
    for 1 R total (Headline), +2 cubes.
    c2 Compute Borders Harden (nobody controls I3/O5/O11; no trade): K Funds (Build is spent).
    C Funds. L researches Video + Curated Corpus as Code, banks 2: Cap 4 (+2 M). M researches
    Science, Code, Images, banks 3: Cap 3 (+2 M).
    c3: C researches on I2 (free): Web, Synthetic, banks 2: Cap 6 (+2 M). L moves to I2 and
    deploys free: Customer #2 +2 M, 1 cube. M Funds. K moves to O10 (Consensus Network) and
    Influences: remove 1 + 1 Scrutiny (bag 0).
    Production: the EPC has K's Facility 1 (I1) in reach, so it operates: +1 cube K. K +1 C
    (Facility 1 on its grid); C +2 C, +1 R (Customer); L +2 R. Compute produced K 1, C 2 -> C +2.
    Audit (3 draws): L, L, K: -1 R each.

    Era III (Refusal Remains Legible: among players who deployed this Era, most Trust).
    c1 The Court Adopts Supported Meaning: the CPA is uncontrolled, Initiative (L) names Fund.
    L Narrative Capture: +2 R. M Funds: +2, and the Headline +2 R +1 cube (13, capped 12).
    K builds Facility 2 on O10 for 2-1 (+1 M). C, at its Facility on I2, forms Joint Venture #1
    with K's Facility 1 on the adjacent I1 (accepted).
    c2 The Billionth Instance Enters the Record: M researches Code, Science, Web, Books, banks 4:
    Cap 7 (+2 M for 6, +1 M Headline). K researches Images, Video, Curated Corpus as Code,
    banks 3: Cap 6 (+2 M, +1 M Headline). C, L Fund.
    c3 The Passive Citizen Dividend Activates: lowest Capability L (4) has no powered Facility:
    nothing; highest M (7): +1 T -> 4 (+2 M). K Funds. C researches on I2 (free): Images,
    Synthetic, Human Evaluation (+1 T -> 4: +2 M), banks 2: Cap 8. L Organizes. M deploys
    (Cap 7 >= 2): Customer #1 +2 M, 1 cube.
    Production: EPC (I1, O10 in reach) +1 cube K; K powers Facility 1 (grid) and 2 (EPC): +1 C,
    and the Consensus Network Facility removes 1 K cube; C +2 C (10) and +1 R; L +2 R; M +1 R
    (capped). Partner: JV #1 is active (both hosts powered, adjacent): C gains I1's Compute
    icon (+1, capped at 10), K gains I2's Compute icon (+1: C5). Audit (4 draws): M, C, M, C.
    Mandate: only M deployed this Era -> M +2.

    Era IV (Successor Accounts Recognized: most Customers gained this Era).
    c1 The Matter Compiler (nobody researches): C deploys on I2 free: Customer #2 +2 M, 1 cube.
    L Organizes. M Funds (R12). K deploys on O10 (1 C): Customer #1 +2 M, 1 cube.
    c2: L moves to I4 and Influences: T3. M buys 1 C from C for 1 R, researches Video, Books,
    Curated Corpus as Science, banks 3: Cap 10: Capability 9 scores Mirevanta only 1 M (Peer
    Validation, four players). K (R12), C Fund.
    c3: M, C Organize; K builds Facility 3 on O10 for 2-1 (+1 M); L builds Facility 1 on I4.
    Production: EPC +1 cube K, two Consensus Network Facilities remove it (bag 0); K +1 C, +1 R;
    C +2 C (capped), +2 R (12); L +2 R (Allocation Exchange) +2 R (capped 12); M +1 R.
    JV #1: C +1 C (capped), K +1 C (6). Dossiers: all Hedge. Audit (5 draws) empties the bag of
    its 4 cubes: M, C, M, L. Mandate: Customers gained C 1, K 1: tied, 1 each.

    Final: nobody offline (M has no Facility). Mandate M 14, K 15, C 15, L 8: K and C tie on
    Mandate; the first tie breaker, Trust, gives C (4) over K (2): C is the provisional winner;
    no claim, so C wins. Collective Trust 4+2+4+3 = 13 < 14: Closed (Systemic Risk 0).
    AGI does not emerge x Closed: Assured Continuity.
    """
    g = game_four_players()
    g.outcome(provisional_winners=[3], winners=[3], agi=False, open=False,
              ending="assured_continuity", mandate={"1": 14, "2": 15, "3": 15, "4": 8})
    g.score([
        (1, "starting", 2), (2, "starting", 2), (3, "starting", 2), (4, "starting", 4),
        # Era I
        (3, "capability_threshold", 2), (2, "faction_ability", 1),
        (2, "capability_threshold", 2), (2, "era_mandate", 2),
        # Era II
        (3, "customer", 2), (4, "capability_threshold", 2),
        (1, "capability_threshold", 2), (3, "capability_threshold", 2), (4, "customer", 2),
        (3, "era_mandate", 2),
        # Era III
        (2, "faction_ability", 1), (1, "capability_threshold", 2), (1, "headline", 1),
        (2, "capability_threshold", 2), (2, "headline", 1), (1, "trust_threshold", 2),
        (3, "trust_threshold", 2), (1, "customer", 2), (1, "era_mandate", 2),
        # Era IV
        (3, "customer", 2), (2, "customer", 2), (1, "capability_threshold", 1),
        (2, "faction_ability", 1), (3, "era_mandate", 1), (2, "era_mandate", 1),
    ])
    return g


def game_five_players() -> Game:
    # seats: 1 Dovetalis, 2 Orisonix, 3 Mirevanta, 4 Loopfold, 5 Kestralyn; first Initiative 1
    g = Game(("dovetalis", "orisonix", "mirevanta", "loopfold", "kestralyn"), first=1,
             description="golden complete game, five players (AGI claim replaces the winner)")
    g.setup()
    red = {"piece": "team"}
    # ---------------- Era I (Initiative 1, 2, 3) ---------------------------------------
    g.era_start(1, mandate="model_ate_tuesday")
    g.headline("employee_free_unicorn")
    g.reveal({1: "fund", 2: "research", 3: "research", 4: "fund", 5: "build"})
    g.turn(1, "fund")  # R7
    g.research(2, ["code", "science", "web"], "bank", banked=3)  # C1, Cap 3 (+2)
    g.research(3, ["books", "images", "video", "synthetic"], "bank", banked=4, to="I1")  # Cap 4
    g.turn(4, "fund")  # R6
    g.turn(5, "build", to="I1")  # Facility 1 on I1: 2-1 (+1 M): R5
    g.headline("synthetic_celebrity")
    g.reveal({1: "build", 2: "fund", 3: "fund", 4: "research", 5: "research"})
    g.turn(2, "fund")  # R5
    g.turn(3, "fund")  # on I1: R5
    g.research(4, ["code", "science"], "bank", banked=2)  # C1, Cap 2
    g.research(5, ["web", "books"], "bank", banked=2)  # on I1: C2, Cap 2
    g.turn(1, "build", to="I2")  # Facility 1 on the Compute Estate: R5
    g.headline("professional_exam_sweep")
    g.reveal({1: "research", 2: "build", 3: "deploy", 4: "organize", 5: "fund"})
    g.turn(3, "deploy")  # Cap 4: Customer #1 (+2 M), C1, bag 1
    g.turn(4, "organize", mode="redistribute", moves=[{**red, "path": ["F", "I1"]}])
    g.turn(5, "fund")  # R7
    g.research(1, ["images", "synthetic", ("curated_corpus", "code")], "bank", banked=3)
    g.turn(2, "build", to="O8")  # Facility 1 on the Compute Estate O8: R3
    g.production({1: [1], 2: [1], 5: [1]})
    g.dossiers({2: "commit", 3: "commit"})  # Benchmark
    g.audit([3])  # 3 draws, the bag holds 1: M R5
    g.scoring([3])  # best successful run: M 4 domains, D 3, O 3, L 2, K 2
    checkpoint(g, "end of Era I", {
        1: (6, 5, 4, 3, 0, 4, 0), 2: (6, 3, 3, 3, 0, 5, 0), 3: (8, 5, 1, 4, 1, 3, 0),
        4: (4, 7, 1, 2, 1, 2, 0), 5: (3, 7, 3, 2, 0, 2, 0)})
    # ---------------- Era II (Initiative 4, 5, 1) --------------------------------------
    g.era_start(2, mandate="building_has_weather")
    g.headline("reactor_restart_one_model")
    g.reveal({1: "fund", 2: "fund", 3: "research", 4: "research", 5: "build"})
    g.research(4, ["video", "images", "web"], "bank", banked=3)  # C0, Cap 5 (+2)
    g.turn(5, "build", to="O12", mode="generator")  # Civic Heat Battery: 2-1, +1 M, T3: R6
    g.turn(1, "fund")  # on I2: R7
    g.turn(2, "fund")  # on O8: R5
    g.research(3, ["code", "science", "web"], "bank", banked=3)  # on I1: C0, Cap 7 (+2)
    g.headline("export_controls")  # nobody on I3, O5, O11; no trades this cycle
    g.reveal({1: "research", 2: "deploy", 3: "fund", 4: "fund", 5: "fund"})
    g.turn(5, "fund")  # on O12: R8
    g.research(1, ["books", "video"], "bank", banked=2)  # on I2: free; Cap 5
    g.turn(2, "deploy")  # on O8: free; Customer #1 (+2 M); Audited Deployment: no cube
    g.turn(3, "fund")  # on I1: R7
    g.turn(4, "fund")  # R9
    g.headline("humanoid_factory_gate")
    g.reveal({1: "organize", 2: "organize", 3: "deploy", 4: "deploy", 5: "organize"})
    g.turn(1, "organize", mode="redistribute", moves=[{**red, "path": ["F", "I1"]}])
    g.turn(2, "organize", mode="redistribute", moves=[{**red, "path": ["F", "I5"]}])
    g.add("trade", seat=3, rival=5, give="runway", accepted=True)  # M R6 C1; K R9 C2
    g.turn(3, "deploy")  # on I1: Customer #2 (+2 M), C0, bag 1
    g.turn(4, "deploy", to="O1")  # Human Access District: free; Customer #2 (+2 M), bag 1
    g.turn(5, "organize", mode="redistribute", moves=[{**red, "path": ["F", "I6"]}])
    g.production({1: [1], 2: [1], 5: [1]})  # K's CHB (O12) operates: Facility 1 in reach
    g.dossiers()
    g.audit([3, 4])  # 4 draws, the bag holds 2
    g.scoring([1, 2, 5])  # powered Facilities: D 1, O 1, K 1 -> tied, 1 each
    checkpoint(g, "end of Era II", {
        1: (7, 7, 6, 5, 0, 4, 0), 2: (9, 6, 5, 3, 1, 5, 0), 3: (12, 7, 0, 7, 2, 3, 0),
        4: (8, 10, 0, 5, 2, 2, 0), 5: (5, 9, 3, 2, 0, 3, 0)})
    # ---------------- Era III (Initiative 2, 3, 4) -------------------------------------
    g.era_start(3, mandate="legibility_offensive")
    g.headline("ai_written_law", action="organize")  # CPA uncontrolled: Initiative (2) names
    g.reveal({1: "fund", 2: "covenant", 3: "influence", 4: "fund", 5: "research"})
    g.turn(2, "covenant")  # all +1 Cap (D 6, O 4, M 8, L 6, K 3); O T5+2 -> 6 (capped)
    g.turn(3, "influence", to="I4", mode="trust")  # T4 (+2)
    g.turn(4, "fund")  # on O1: R12
    g.research(5, ["synthetic", ("curated_corpus", "code"), "human_evaluation"], "bank",
               banked=2, to="I1")  # C2; Human Evaluation T4 (+2); Cap 5
    g.turn(1, "fund")  # on I2: R9
    g.headline("benchmark_is_economy")
    g.reveal({1: "deploy", 2: "fund", 3: "research", 4: "deploy", 5: "build"})
    g.add("trade", seat=3, rival=5, give="runway", accepted=True)  # M R6 C1; K R10 C1
    g.research(3, ["books", "images", "video"], "bank", banked=3)  # Cap 11: 9 -> +1, +1 Headline
    g.turn(4, "deploy")  # on O1: free; Cap 6: Customer #3 (+2 M), bag 1
    g.turn(5, "build")  # Facility 2 on I1: 2-1 (+1 M): R9
    g.turn(1, "deploy")  # on I2: free; Cap 6: Customer #1 (+2 M), bag 1
    g.turn(2, "fund")  # on O8: R8
    # Passive Citizen Dividend: lowest Cap O (4): its Facility 1 on O8 produces +2 C;
    # highest Cap M (11): +1 T (5)
    g.headline("weights_on_internet", facility=1)
    g.reveal({1: "organize", 2: "deploy", 3: "fund", 4: "organize", 5: "deploy"})
    g.turn(4, "organize", mode="redistribute", moves=[{"piece": "ceo", "path": ["O1", "I1"]}])
    g.turn(5, "deploy")  # on I1: Cap 5: Customer #1 (+2 M), C0, bag 1
    g.turn(1, "organize", mode="redistribute", moves=[{**red, "path": ["I1", "F"]}])
    g.turn(2, "deploy")  # on O8: free; Cap 4: Customer #2 (+2 M); first Deploy: no cube
    g.turn(3, "fund")  # on I4: R9
    g.production({1: [1], 2: [1], 5: [1, 2]})
    g.dossiers({2: "commit", 3: "commit"})  # Authority
    g.audit([4, 1, 5])  # 5 draws, the bag holds 3
    g.scoring([2])  # deployed this Era: L T2, D T4, K T4, O T6 -> O
    checkpoint(g, "end of Era III", {
        1: (11, 9, 8, 6, 1, 4, 0), 2: (15, 10, 9, 4, 2, 6, 0), 3: (16, 11, 0, 11, 2, 5, 0),
        4: (12, 11, 0, 6, 3, 2, 0), 5: (12, 9, 2, 5, 1, 4, 0)})
    # ---------------- Era IV (Initiative 5, 1, 2) --------------------------------------
    g.era_start(4, mandate="responsible_acceleration")
    g.headline("recursive_self_improvement")  # nobody researches this cycle
    g.reveal({1: "fund", 2: "organize", 3: "fund", 4: "fund", 5: "fund"})
    g.turn(5, "fund")  # on I1: R11
    g.turn(1, "fund")  # on I2: R11
    g.add("trade", seat=2, rival=3, give="compute", accepted=True)  # O C8 R11; M C1 R10
    g.turn(2, "organize", mode="redistribute", moves=[{**red, "path": ["I5", "F"]}])
    g.turn(3, "fund")  # on I4: 10+3 -> 12 (cap)
    g.turn(4, "fund")  # on I1: 11+2 -> 12 (cap)
    g.headline("agent_swarm_escapes_scope")
    g.reveal({1: "deploy", 2: "build", 3: "organize", 4: "organize", 5: "research"})
    g.turn(1, "deploy")  # on I2: free; Customer #2 (+2 M), bag 1
    g.add("trade", seat=2, rival=3, give="compute", accepted=True)  # O C7 R12; M C2 R11
    g.turn(2, "build")  # Facility 2 on O8 (no Generator reaches it): R10
    g.turn(3, "organize", mode="redistribute", moves=[{"piece": "ceo", "path": ["I4", "F"]}])
    g.turn(4, "organize", mode="redistribute", moves=[{**red, "path": ["I1", "F"]}])
    g.research(5, ["code", "science"], "bank", banked=2)  # on I1: C1, Cap 7 (+2)
    g.headline("agi_blog_post")
    g.reveal({1: "research", 2: "research", 3: "deploy", 4: "build", 5: "deploy"})
    g.research(2, ["synthetic"], "bank", banked=1)  # on O8: free; Cap 5
    g.turn(3, "deploy")  # Cap 11: Customer #3 (+2 M), C1, bag 1
    g.turn(4, "build", to="O12")  # Facility 1 on the Thermal and Water Basin: R10
    g.turn(5, "deploy")  # on I1: Cap 7: Customer #2 (+2 M), C0, bag 1
    g.research(1, [("curated_corpus", "web"), ("curated_corpus", "books")], "bank", banked=2)
    g.production({1: [1], 2: [1], 4: [1], 5: [1, 2]})  # O's Facility 2 stays offline
    g.dossiers({2: "commit", 3: "commit"})  # Publication
    g.reveal_dossiers()  # O pays 3 C, +3 cubes; M owes 3, has 1: pays 1, +3 cubes, ineligible
    g.audit([2, 3, 2, 3, 1, 5])  # 6 draws from 9 cubes
    g.scoring([3])  # Trust >= 4: D 8, O 5, M 11, K 7 (L has T2) -> M
    checkpoint(g, "end of Era IV", {
        1: (13, 11, 10, 8, 2, 4, 0), 2: (15, 10, 6, 5, 2, 6, 1), 3: (20, 10, 0, 11, 3, 5, 2),
        4: (12, 12, 0, 6, 3, 2, 0), 5: (16, 11, 2, 7, 2, 4, 0)})
    g.add("phase", name="final_scoring")
    g.add("final_record", offline={1: 0, 2: 1, 3: 0, 4: 0, 5: 0}, collective_trust=21,
          open_threshold=20, systemic_risk=0, provisional_winners=[3],
          claims=[{"seat": 2, "strength": 5}], agi=True, claimant=2, winners=[2], open=True,
          ending="singularity")
    g.add("phase", name="game_end")
    return g


@case
def complete_five_players():
    """A clean five-player game (Dovetalis 1, Orisonix 2, Mirevanta 3, Loopfold 4, Kestralyn 5;
    first Initiative seat 1: Initiative runs 1,2,3 | 4,5,1 | 2,3,4 | 5,1,2). Zero errors. The
    provisional winner (Mirevanta) is replaced by Orisonix's AGI claim.

    Start: D R5 C2 T3 M2; O R3 C2 T5 M4; M R3 C3 T3 M2; L R4 C2 Cu1 T2 M4; K R6 C3 T2 M2.
    Setup Collective Trust 3+5+3+2+2 = 15; Open threshold 20. Audit draws (five players):
    round(2.5)=3, round(3.75)=4, 5, round(6.25)=6.

    Era I (The Public Result Holds: most unique domains in a best successful run).
    c1: D Funds. O researches Code, Science, Web: Cap 3 (+2). M moves to I1 and researches
    Books, Images, Video, Synthetic: Cap 4 (+2). L Funds. K builds Facility 1 on I1 for 2-1
    (+1 M). c2 (The Home Robot; nobody deploys): O, M Fund; L researches Code, Science (Cap 2);
    K researches Web, Books on I1 (Cap 2); D builds Facility 1 on I2.
    c3 The Last Clinic: M deploys on I1: Customer #1 (+2), 1 cube. L, K. D researches on I2
    (Compute Estate: free) Images, Synthetic, Curated Corpus as Code, banks 3: Cap 3 (+2) and
    the Headline's +1 T -> 4 (+2). O builds Facility 1 on the Compute Estate O8.
    Production: K +1 C, D +2 C, O +2 C; L, M +1 R. Dossiers: O and M commit Benchmark.
    Audit: only M's cube. Mandate: M's run had 4 domains -> M +2.

    Era II (The Campus Becomes a Climate: most powered Facilities).
    c1 Orbital Power Receives a Beam Corridor: L researches Video, Images, Web: Cap 5 (+2).
    K builds the Civic Heat Battery on O12: 2-1 = 1 R, the Headline's +1 M, the battery's +1 T.
    D, O Fund. M researches Code, Science, Web on I1: Cap 7 (+2 for 6).
    c2 Compute Borders Harden (no controller, no trade): K Funds (its Build is spent).
    D researches Books, Video on I2 (free): Cap 5. O deploys on O8 (free): Customer #1 (+2);
    Audited Deployment: no cube. M, L Fund.
    c3: D, O, K Organize. M buys 1 C from K for 1 R and deploys: Customer #2 (+2), 1 cube.
    L walks to O1 (Human Access District, free Deploy): Customer #2 (+2), 1 cube.
    Production: K's battery (O12) has Facility 1 (I1) in reach and operates (no Scrutiny); K +1 C;
    D +2 C; O +2 C, +1 R; M +2 R; L +2 R. Audit draws the 2 cubes. Mandate: D, O and K each
    power 1 Facility: tied leaders, 1 M each.

    Era III (Refusal Remains Legible).
    c1 The Court Adopts Supported Meaning (Initiative O names Organize; nobody picks it):
    O's Public Capability Covenant: everyone +1 Cap (D 6 +2, O 4, M 8, L 6 +2, K 3 +2); O +2 T
    (5 -> 6, capped: +2 M for Trust 6). M moves to I4, Influences: T4 (+2). L Funds (it had
    Capability 5 when selecting, so Deploy was not eligible this cycle). K moves to I1 and
    researches Synthetic, Curated Corpus as Code, Human Evaluation
    (+1 T -> 4: +2; banks 2): Cap 5. D Funds.
    c2 The Billionth Instance: M buys 1 C from K, researches Books, Images, Video, banks 3:
    Cap 11; Capability 9 scores Mirevanta 1 (Peer Validation), plus the Headline's +1. L deploys
    on O1 (free): Customer #3 (+2), 1 cube. K builds Facility 2 on I1 for 2-1 (+1 M; the battery
    on O12 reaches it). D deploys on I2 (free): Customer #1 (+2), 1 cube. O Funds.
    c3 The Passive Citizen Dividend: lowest Capability O (4) resolves its Facility 1 on O8: +2 C;
    highest M (11): T5. L, D Organize. K deploys on I1: Customer #1 (+2), 1 cube. O deploys on O8
    (free): Customer #2 (+2), no cube (first Deploy this Era). M Funds on I4 (+1).
    Production: K powers Facility 1 (grid) and 2 (battery): +2 C, +1 R; D +2 C, +1 R; O +2 C, +2 R; M +2 R; L +3 R (capped).
    Dossiers: O and M commit Authority. Audit draws the 3 cubes. Mandate: deployed this Era
    L (T2), D (T4), K (T4), O (T6) -> O +2.

    Era IV (Contestability Standard Maintained: most Capability among Trust >= 4).
    c1 The Matter Compiler (nobody researches): K, D Fund; O sells M 1 C for 1 R and Organizes;
    M Funds on I4 (capped 12); L Funds (capped 12).
    c2: D deploys on I2 (free): Customer #2 (+2), 1 cube. O sells M another C and builds
    Facility 2 on O8 (no Generator of O's reaches it). M, L Organize. K researches Code, Science
    on I1: Cap 7 (+2 for 6).
    c3 The Universe Receives a Continuity Plan: O researches Synthetic on O8 (free): Cap 5.
    M deploys: Customer #3 (+2), C1, 1 cube. L builds Facility 1 on O12. K deploys: Customer #2
    (+2), 1 cube. D researches two Curated Corpus (as Web, then Books), banks 2: Cap 8.
    Production: O powers only Facility 1 (its starting grid cannot reach Facility 2).
    Dossier reveal: O committed Benchmark, Authority, Publication: pays 3 C (9 -> 6), +3 cubes.
    M committed the same three but has 1 C: pays it, still adds 3 cubes, ineligible.
    Audit: 6 draws from 9 cubes (D1 O3 M4 K1): O, M, O, M, D, K. Mandate: Trust >= 4 are D (Cap
    8), O (5), M (11), K (7) -> M +2.

    Final scoring: O's Facility 2 is offline: -1 M (15 -> 14). Mandate D 13, O 14, M 20, L 12,
    K 16: provisional winner M. Claims: O's is fully paid with Publication, Benchmark supported
    (Cap 5 >= 3) and Authority supported (T6 >= 4): strength 2 (Publication under The Universe
    Receives a Continuity Plan) + 2 modules + 1 threshold (3) = 5. M's is unpaid: ineligible.
    AGI emerges with O, who replaces M as winner. Collective Trust 4+6+5+2+4 = 21 >= 20 and
    Systemic Risk 0 < 5: Open. AGI x Open: The Singularity.
    """
    g = game_five_players()
    g.outcome(provisional_winners=[3], winners=[2], agi=True, open=True,
              ending="singularity", mandate={"1": 13, "2": 14, "3": 20, "4": 12, "5": 16})
    g.score([
        (1, "starting", 2), (2, "starting", 4), (3, "starting", 2), (4, "starting", 4),
        (5, "starting", 2),
        # Era I
        (2, "capability_threshold", 2), (3, "capability_threshold", 2), (5, "faction_ability", 1),
        (3, "customer", 2), (1, "capability_threshold", 2), (1, "trust_threshold", 2),
        (3, "era_mandate", 2),
        # Era II
        (4, "capability_threshold", 2), (5, "headline", 1), (3, "capability_threshold", 2),
        (2, "customer", 2), (3, "customer", 2), (4, "customer", 2),
        (1, "era_mandate", 1), (2, "era_mandate", 1), (5, "era_mandate", 1),
        # Era III
        (2, "trust_threshold", 2), (1, "capability_threshold", 2), (4, "capability_threshold", 2),
        (5, "capability_threshold", 2), (3, "trust_threshold", 2), (4, "customer", 2),
        (5, "trust_threshold", 2), (3, "capability_threshold", 1), (3, "headline", 1),
        (5, "faction_ability", 1), (1, "customer", 2), (5, "customer", 2), (2, "customer", 2),
        (2, "era_mandate", 2),
        # Era IV
        (1, "customer", 2), (5, "capability_threshold", 2), (3, "customer", 2),
        (5, "customer", 2), (3, "era_mandate", 2),
        # final scoring
        (2, "offline_penalty", -1),
    ])
    return g
