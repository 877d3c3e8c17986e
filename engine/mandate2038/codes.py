"""Every finding code the Mandate 2038 ruleset reports, with the rule it enforces.

``rule`` cites the core rules (rc.17, ``shared/seeds/000_04fcdd4fa0174c6f.txt``) by section
number and the heading a designer finds on the page, e.g. "core rules §7 Build: Construct a
Facility". Codes are stable: tests, golden games and dashboards depend on them. Add new codes at
the end of their group; never rename one.
"""

from __future__ import annotations

from engine.core.findings import CORE_RULES, Catalogue, Rule

S1 = "core rules §1 Setup"
S2 = "core rules §2 Central loop"
S3 = "core rules §3 Resources"
S4 = "core rules §4 Modular hex board"
S5 = "core rules §5 Four-Era progression"
S6 = "core rules §6 Era sequence"
S7 = "core rules §7 Core Actions"
S8 = "core rules §8 Printed Power contracts"
S9 = "core rules §9 Printed card authorities"
S10 = "core rules §10 Map and component reference"
S11 = "core rules §11 Final scoring"

MANDATE_RULES: list[Rule] = [
    # §1 Setup
    Rule("setup/unknown-faction", f"{S1}, step 5 (Faction trays)", "a seat plays a faction that is not in the content pack"),
    Rule("setup/duplicate-faction", f"{S1}, step 5 (one prepacked Faction tray each)", "two seats play the same faction"),
    Rule("setup/player-count", "core rules, front matter (Suggested player count: 3–5)", "player count outside the supported 3–5", "warning"),
    Rule("setup/seats", f"{S1}", "seats must be numbered 1..N without gaps"),
    Rule("setup/invalid-map", f"{S1}, step 1, and {S4} (Map reference: ring pools)", "the map layout breaks the ring pools or Frontier-at-centre rule"),
    Rule("setup/unknown-tile", f"{S1}, step 1 (nineteen-tile map)", "the map names a tile that is not in the content pack"),
    Rule("setup/first-initiative", f"{S1}, step 9 (choose Initiative randomly)", "first Initiative names a seat that is not at the table"),
    Rule("setup/advanced-unchecked", "core rules, Play profiles and Advanced Play (the supplement is not in the rulebook)", "Advanced Play rules are not checked for this game", "info"),
    Rule("setup/rulings", f"{S1} (the rules the table plays by; ruling sets: docs/engine.md, Rulings)", "the log names a ruling set or option that does not exist"),
    Rule("setup/baseline-modules", f"{S1} (Do not deal Tactics or secret objectives in the baseline game)", "Tactics or secret objectives used in a baseline game", "warning"),
    # §6A Era start
    Rule("era/out-of-order", f"{S6} A. Begin the quarter", "an Era starts out of sequence"),
    Rule("era/unknown-mandate", f"{S6} A. Begin the quarter (reveal one Mandate from the current Era's deck)", "the revealed Era Mandate is unknown or belongs to another Era"),
    Rule("era/incomplete", f"{S6} B. Three action cycles", "an Era ended before its three cycles, Production, Audit and scoring were recorded", "warning"),
    # §6B cycles and Headlines
    Rule("cycle/out-of-order", f"{S6} B. Three action cycles", "a cycle is out of sequence or a fourth cycle was recorded"),
    Rule("cycle/unknown-headline", f"{S9} (Headline cards) and {S6} B.1", "the revealed Headline is not a known card"),
    Rule("cycle/headline-wrong-era", f"{S1}, step 2 (separate the Headline cards by Era)", "the Headline belongs to another Era's deck"),
    Rule("cycle/headline-advanced", f"{S1}, step 2 (use only Default-eligible cards)", "an Advanced Play Headline was revealed in a Default Game"),
    Rule("cycle/headline-repeated", f"{S1}, step 2 (each Era uses three Headlines)", "the same Headline was revealed twice"),
    Rule("cycle/no-headline", f"{S2}, The complete ordinary turn, step 1 (reveal one Headline)", "a cycle began without a Headline", "warning"),
    # §2 selection
    Rule("select/missing-seat", f"{S2}, step 2 (every player secretly selects)", "a seat made no selection this cycle"),
    Rule("select/duplicate-seat", f"{S2}, step 2 (every player selects one)", "a seat selected twice in one cycle"),
    Rule("select/action-exhausted", f"{S2} (once played, a Core Action remains exhausted until the next Era)", "an exhausted Core Action was selected again"),
    Rule("select/fourth-action", f"{S2} (choose three of six Actions each Era)", "a fourth action was taken in one Era"),
    Rule("select/program-locked", f"{S5} (Program access is cumulative by Era)", "a Program was selected before its Era unlocks it"),
    Rule("select/program-no-marker", f"{S2}, Program markers and Programs (zero, one, one, then two)", "a Program was selected without an available Program marker"),
    Rule("select/program-reused", f"{S2}, Program markers and Programs (each named Program once per player per game)", "a Program was used twice by the same player"),
    Rule("select/ineligible", f"{S2}, step 2 (a choice is eligible only when it has a legal resolution now)", "the selection had no legal resolution when selected"),
    Rule("select/paused-program", "core rules §9 faction abilities: Orisonix, Emergency Pause", "a Program named by Emergency Pause was selected this cycle"),
    Rule("select/fusion-taken", f"{S5} Era IV, Fusion Demonstrator (one Fusion project in the game)", "Fusion was selected after it was built"),
    # turn order and structure
    Rule("turn/out-of-order", f"{S2}, step 4 (resolve clockwise from Initiative)", "a turn was resolved out of Initiative order"),
    Rule("turn/not-selected", f"{S2}, A committed Action that becomes blocked (never replace the selected Action)", "the resolved action differs from the revealed selection"),
    Rule("turn/no-reveal", f"{S2}, step 3 (reveal every selected action simultaneously)", "a turn was resolved before selections were revealed"),
    Rule("turn/unresolved", f"{S2}, step 4 (resolve every revealed selection)", "a revealed selection was never resolved", "warning"),
    Rule("turn/twice", f"{S2} (takes only three turns per Era, one per cycle)", "a seat resolved two turns in one cycle"),
    Rule("turn/wrong-phase", f"{S6} (the Era sequence A–F)", "an event was recorded in a phase where it cannot happen"),
    Rule("turn/blocked-claimed", f"{S2}, A committed Action that becomes blocked", "the table resolved an action as blocked although a legal resolution existed", "warning"),
    Rule("turn/frontier-bonus-invalid", f"{S10} — Map reference: Frontier (after Act, you may gain 1 Runway and add 1 Scrutiny when the acting piece ended there)", "the Frontier visit bonus was taken away from Frontier or twice"),
    # §4 movement and board
    Rule("move/unknown-hex", f"{S4} (nineteen-tile map)", "a path names a hex that is not on the map"),
    Rule("move/too-far", f"{S2}, step 6 and {S4} (move zero, one, or two adjacent hexes)", "the acting piece moved more than two steps"),
    Rule("move/not-adjacent", f"{S4} (one step crosses one shared tile edge)", "a step in the path does not cross a shared edge"),
    Rule("move/piece-not-there", f"{S2}, Acting piece", "the acting piece is not on the path's starting hex"),
    Rule("move/path-missing", f"{S2}, step 6 (choose one acting piece and move it)", "the turn does not record the acting piece's path", "info"),
    # §6B immediate trade
    Rule("trade/not-active-player", f"{S6} B. Immediate resource trade (the active player may make one offer)", "a trade was offered by someone other than the player about to resolve"),
    Rule("trade/second-offer", f"{S6} B. Immediate resource trade (one offer to one rival)", "a second trade offer before the same action"),
    Rule("trade/self", f"{S6} B. Immediate resource trade (one rival)", "a trade offer to oneself"),
    Rule("trade/cannot-pay", f"{S6} B. Immediate resource trade (give exactly one for one)", "a party to an accepted trade did not have the resource it gave"),
    Rule("trade/resource-banned", f"{S9} — Headline: Compute Borders Harden (Compute cannot be traded)", "Compute was traded while the Headline forbids it"),
    Rule("trade/over-cap", f"{S3}, Universal costs and caps (a trade cannot move resources through a player above a cap)", "an accepted trade pushed a player above a resource cap"),
    # §3 resources
    Rule("resource/insufficient", f"{S3}, Universal costs and caps", "a cost was paid with resources the player did not have"),
    Rule("resource/over-cap", f"{S3}, Universal costs and caps (Runway twelve, Compute ten; return excess)", "the table recorded a resource above its cap"),
    Rule("resource/out-of-range", f"{S3} (Trust is a zero-to-six track; caps)", "a recorded value is outside its track"),
    Rule("resource/capability-decreased", f"{S3} (Capability: permanent model quality)", "Capability fell between two checkpoints"),
    Rule("resource/customers-decreased", f"{S3}, Customers (no rule removes a Customer)", "Customers fell between two checkpoints"),
    # §7 Fund
    Rule("fund/invalid", f"{S7}, Fund", "a Fund action recorded an impossible mode"),
    # §7 Research
    Rule("research/no-compute", f"{S7}, Research (spend one Compute)", "Research without the Compute to pay"),
    Rule("research/draw-outside-run", f"{S7}, Research (draw one card at a time during a Training Run)", "a Training card was drawn outside a Training Run"),
    Rule("research/run-not-ended", f"{S7}, Research (banking or a crash ends the run)", "a Training Run was left without its ending"),
    Rule("research/card-unavailable", f"{S10} — Component reference: Training deck (40 cards, four of each face)", "a card was drawn while no copy of it remained in the deck"),
    Rule("research/unknown-card", f"{S10} — Component reference: Training deck", "a drawn card is not a Training card"),
    Rule("research/curated-domain", f"{S7}, Research: Curated Corpus (choose one ordinary domain not yet revealed)", "Curated Corpus named a revealed or unknown domain"),
    Rule("research/draw-after-duplicate", f"{S7}, Research (an unprotected duplicate crashes the run; protection never lets the run continue)", "the run continued after a duplicate"),
    Rule("research/draw-after-human-evaluation", f"{S7}, Research: Human Evaluation (bank and end the run)", "the run continued after Human Evaluation"),
    Rule("research/bank-after-duplicate", f"{S7}, Research, step 6 (an unprotected duplicate crashes the run)", "the run was banked after an unprotected duplicate"),
    Rule("research/crash-without-duplicate", f"{S7}, Research, step 6", "a crash was recorded without a duplicate"),
    Rule("research/no-protection", f"{S7}, Research (spend one Research Protection)", "Research Protection was spent without any available"),
    Rule("research/method-unavailable", "core rules §9 faction abilities: Mirevanta, Scientific Method", "Scientific Method used when it was not available"),
    Rule("research/crash-kept-capability", f"{S7}, Research, step 6 (a crash loses all provisional Capability)", "a crashed run kept Capability"),
    Rule("research/banked-mismatch", f"{S7}, Research, step 5 (banking adds all provisional Capability)", "the banked Capability differs from the cards drawn"),
    Rule("research/breakthrough-unavailable", "core rules §9 faction abilities: Mirevanta, Scaling-Law Breakthrough", "Scaling-Law Breakthrough used when it was not available"),
    Rule("research/protect-without-duplicate", f"{S7}, Research (when a duplicate appears, the player may spend one Research Protection)", "Research Protection or Scientific Method used without a duplicate to discard"),
    # §7 Build
    Rule("build/facility-on-frontier", f"{S7}, Build: Construct a Facility (Frontier has none and is never a legal Facility destination)", "a Facility was built on Frontier"),
    Rule("build/no-facility-space", f"{S7}, Build: Construct a Facility (each non-Frontier hex has only two Facility spaces)", "a Facility was built on a hex with no free space"),
    Rule("build/no-facility-left", f"{S7}, Build: Construct a Facility (four Facilities)", "a fifth Facility was built"),
    Rule("build/out-of-order", f"{S7}, Build: Construct a Facility (place your lowest-numbered unbuilt Facility) and {S1}, step 6 (Facility 1 first, then 2, 3 and 4)", "a Facility was built out of number order"),
    Rule("build/cannot-pay", f"{S7}, Build (pay two Runway)", "a Build was paid with Runway the player did not have"),
    Rule("build/generator-locked", f"{S7}, Build: Construct a Generator (this mode unlocks in Era II)", "a Generator was built in Era I"),
    Rule("build/generator-not-energy", f"{S7}, Build: Construct a Generator (the acting piece must be on an Energy hex)", "a Generator was built away from an Energy hex"),
    Rule("build/generator-slots-full", f"{S7}, Build: Construct a Generator (three shared Generator slots)", "a Generator was built on an Energy hex with no free slot"),
    Rule("build/generator-limit", f"{S7}, Build: Construct a Generator (each player may construct one ordinary Generator)", "a second ordinary Generator was built"),
    # §7 Organize
    Rule("organize/no-team-in-supply", f"{S7}, Organize: Recruit", "a Team was recruited with none left in supply"),
    Rule("organize/too-many-steps", f"{S7}, Organize (a combined total of five adjacent steps)", "more than five combined steps were moved"),
    Rule("organize/relocate-invalid", f"{S7}, Organize (move one Facility at the destination to an adjacent legal Facility space)", "an illegal Facility relocation"),
    Rule("organize/extra-move-too-far", f"{S7}, Organize: Recruit (then move one CEO or Team up to two additional hexes)", "the recruit's extra move exceeded two steps"),
    Rule("organize/headline-not-active", f"{S9} (a Headline changes one named field for its duration)", "a Headline effect was used while that Headline was not active"),
    # §7 Deploy
    Rule("deploy/capability-too-low", f"{S7}, Deploy (the next Customer requires Capability 2/4/6/8/10)", "a Customer was gained beyond the Capability requirement"),
    Rule("deploy/customer-cap", f"{S3}, Customers (Customers #1–5)", "a sixth Customer was gained"),
    Rule("deploy/no-compute", f"{S7}, Deploy (spend one Compute)", "Deploy without the Compute to pay"),
    Rule("deploy/social-graph-invalid", "core rules §9 faction abilities: Loopfold, The Social Graph", "The Social Graph used when it was not available"),
    # §7 Influence and Joint Ventures
    Rule("influence/not-political", f"{S7}, Influence (on Consensus Network, Civic Permission Authority, or Allocation Exchange)", "Trust or Scrutiny Influence away from a political hex"),
    Rule("influence/jv-locked", f"{S5} Era III (Joint Ventures now enter play)", "a Joint Venture before Era III"),
    Rule("influence/jv-invalid", f"{S4}, Joint Venture (two adjacent Facilities owned by different players)", "an illegal Joint Venture proposal"),
    Rule("influence/jv-no-pair", f"{S4}, Contract hosts (shared, matched token pairs)", "no Joint Venture pair was left"),
    Rule("influence/terminate-invalid", f"{S4}, Joint Venture (terminate one shared Joint Venture)", "terminated a Joint Venture that is not shared"),
    Rule("influence/terminate-not-at-facility", f"{S7}, Influence (at one of your Facilities ... terminate one named Joint Venture you share)", "a Joint Venture was terminated away from the seat's own Facilities"),
    # §5 Programs
    Rule("program/mega-cluster-invalid", f"{S5} Era II, Mega-Cluster", "an illegal Mega-Cluster"),
    Rule("program/reorganization-invalid", f"{S5} Era II, Reorganization", "an illegal Reorganization"),
    Rule("program/narrative-invalid", f"{S5} Era III, Narrative Capture", "an illegal Narrative Capture choice"),
    Rule("program/swarm-invalid", f"{S5} Era IV, Agent Swarm (two different unused Core Actions)", "an illegal Agent Swarm"),
    Rule("program/fusion-invalid", f"{S5} Era IV, Fusion Demonstrator", "an illegal Fusion Demonstrator"),
    # §6C Production
    Rule("production/not-powered", f"{S4}, Power delivery (local Power only; the starting grid powers only Facility 1)", "an allocation powers a Facility no local source can reach"),
    Rule("production/over-capacity", f"{S6} C.3 Allocate (assign each local source only among its legal recipients)", "more Power allocated than the sources provide"),
    Rule("production/mega-cluster-demand", f"{S5} Era II, Mega-Cluster (power both hosts plus two additional demand)", "a Mega-Cluster's demand was satisfied illegally"),
    Rule("production/emergency-power", f"{S9} — Headline: The Counterfactual Casino Clears Priority Load", "emergency Power assigned while the Headline was not in force"),
    Rule("production/missing-allocation", f"{S6} C.3 Allocate (each player chooses one complete allocation)", "a seat with Facilities recorded no allocation", "warning"),
    Rule("production/twice", f"{S6} C.3 Allocate", "a seat allocated twice in one Production"),
    Rule("production/workforce-invalid", f"{S10} — Map reference: Workforce Transition District (move one Team one hex)", "an illegal Workforce Transition District move"),
    # §6D / §5 Dossier
    Rule("dossier/filed-twice", f"{S6} D. File the Era Dossier", "a seat filed two Dossier cards in one Era"),
    Rule("dossier/missing", f"{S6} D. File the Era Dossier (every player files)", "a seat did not file its Era Dossier", "warning"),
    Rule("dossier/reveal-early", f"{S5} Era IV, The secret AGI Dossier (reveal in Era IV before the final Audit)", "Dossiers were revealed before Era IV"),
    Rule("dossier/reveal-mismatch", f"{S5} Era IV, The secret AGI Dossier (do not rotate a filed card)", "a revealed orientation differs from the one filed"),
    # §6E Audit
    Rule("audit/wrong-draw-count", f"{S6} E. Public Audit (round(base draws × player count ÷ 4), minimum one)", "the Audit drew the wrong number of cubes"),
    Rule("audit/cube-not-in-bag", f"{S6} E. Public Audit", "a drawn cube was not in the bag"),
    Rule("audit/after-scoring", f"{S6} (the Era sequence: E. Public Audit comes before F. Score the Mandate)", "the Audit was recorded after the Era Mandate was scored"),
    Rule("dossier/after-audit", f"{S6} (the Era sequence: D. File the Era Dossier comes before E. Public Audit)", "a Dossier was filed after the Audit"),
    Rule("audit/missing", f"{S6} E. Public Audit", "an Era ended without its Audit", "warning"),
    # §6F and §3 Mandate
    Rule("mandate/era-mandate-scorers", f"{S6} F. Score the Mandate (qualifying leader scores two; tied leaders one each)", "the table scored the Era Mandate for the wrong players"),
    Rule("mandate/decreased", f"{S3} (threshold awards are permanent; Mandate only falls at final scoring)", "Mandate fell before final scoring"),
    Rule("mandate/threshold-twice", f"{S3} (two the first time a threshold is reached)", "a threshold was scored twice"),
    Rule("mandate/threshold-not-scored", f"{S3} (two the first time Capability reaches 3/6/9/12 and Trust 2/4/6; Customers #1–5)", "Capability, Trust or Customers rose across a threshold without at least that threshold's Mandate"),
    # §9 abilities and Headlines
    Rule("ability/not-your-faction", f"{S9} (every Faction has its own ability)", "an ability was used by a faction that does not have it"),
    Rule("ability/locked", f"{S9} (each Faction ability unlocks at the Era printed on its board)", "an ability was used before it unlocked"),
    Rule("ability/used-up", f"{S9} (timing: once per Era, once when unlocked, or once per game)", "an ability was used more often than its timing allows"),
    Rule("ability/invalid", f"{S9}", "an ability was used illegally"),
    Rule("headline/tie-target", f"{S2}, Universal tie rule (target the tied player nearest Initiative clockwise)", "a Headline's lowest/highest target is not the one the tie rule gives"),
    Rule("headline/choice-invalid", f"{S9} (a Headline calls one public choice procedure)", "a Headline's choice is missing or illegal"),
    # §11 Final scoring
    Rule("final/offline-penalty", f"{S11}, step 2 (lose one Mandate for each offline Facility)", "the offline penalty differs from the rules"),
    Rule("final/provisional-winner", f"{S11}, step 3 and tie breakers (Trust, Customers, Compute)", "the wrong provisional winner"),
    Rule("final/claim-strength", f"{S5} Era IV, Claim strength", "a claim's strength differs from the rules"),
    Rule("final/agi-unsupported", f"{S5} Era IV, Claim strength (a claim needs at least two supported evidence modules)", "AGI was recorded for a claim that is not eligible"),
    Rule("final/agi", f"{S11}, The shared World Ending (AGI emerges only when ...)", "whether AGI emerged differs from the rules"),
    Rule("final/claimant", f"{S5} Era IV, Claim strength (the strongest eligible claim forms AGI; ties by final Mandate, Trust, Customers, Compute, then Initiative-clockwise order)", "the recorded claimant is not the strongest eligible claim"),
    Rule("final/winner", f"{S11}, step 4 (the strongest eligible claim replaces the result)", "the wrong final institutional winner"),
    Rule("final/collective-trust", f"{S11}, The shared World Ending (total every player's final Trust)", "Collective Trust or the Open threshold differs from the rules"),
    Rule("final/systemic-risk", f"{S11}, The shared World Ending (unresolved Systemic Risk after the final Audit)", "the unresolved Systemic Risk differs from the rules"),
    Rule("final/open", f"{S11}, The shared World Ending (Open only if both conditions hold)", "Open/Closed differs from the rules"),
    Rule("final/world-ending", f"{S11}, The shared World Ending (cross AGI with Open/Closed)", "the wrong World Ending"),
    Rule("checkpoint/wrong-era", f"{S6} (the Era the checkpoint's label names is not the Era being played; checkpoints: docs/engine.md, Design)", "a checkpoint labelled for another Era (pasted from elsewhere); its values are not adopted"),
    # log completeness
    Rule("log/partial", f"{S6} (a game is four Eras; partial logs: docs/engine.md, Design)", "the log ends before the game ends; only what was recorded was checked", "info"),
]

#: the generic codes whose Mandate 2038 citation names the rule behind them (a checkpoint
#: mismatch caused by one ledger step cites that step's rule instead: trace.py)
MANDATE_CITATIONS: dict[str, str] = {
    "checkpoint/mismatch": f"{S3} and {S6} (the values the rules give at that point; checkpoints: docs/engine.md, Design)",
    "log/seat-out-of-range": f"{S1}, step 5 (the seats at the table)",
    "log/event-after-game-end": f"{S11} (the game ends after final scoring)",
    "log/unsupported-rules-version": "core rules, Document record (Rules version: 0.8.0-rc.17-test)",
}
#: the codes that say a log could not be read at all: no game rule applies to them
FORMAT_ONLY = frozenset({"log/unreadable", "log/invalid-header", "log/invalid-event",
                         "log/unknown-event", "log/unknown-game", "log/parse-error",
                         "log/variant", "log/variant-hash", "log/too-many-findings"})

CATALOGUE = Catalogue(
    [Rule(r.code, MANDATE_CITATIONS.get(r.code, r.rule), r.title, r.severity) for r in CORE_RULES]
    + MANDATE_RULES)



# --- Provenance (DESIGN.md §5; engine.core.findings.FindingSink) -------------------------------
# A later finding follows from a slip only when a value its check reads is in doubt because of
# that slip. A seat's values: the seven a checkpoint records (resynchronised by the checkpoint
# that records them), ``era`` (what it did this Era: its actions, markers, Research run, Dossier
# and the Era's counters; a new Era starts them afresh), ``power`` (which Facilities it powers:
# its next Production allocation records them), ``pieces`` and ``facilities`` (where its pieces
# stand, which Facilities and Generator it owns: no record resynchronises them). The table's
# values: the Audit bag and Systemic Risk.

RESOURCES = ("mandate", "runway", "compute", "capability", "customers", "trust", "scrutiny")

#: the words a note names each value by
VALUE_WORDS: dict[str, str] = {
    "mandate": "Mandate", "runway": "Runway", "compute": "Compute", "capability": "Capability",
    "customers": "Customers", "trust": "Trust", "scrutiny": "Scrutiny",
    "era": "record of this Era (actions taken, Program markers, Research run)",
    "era:capability": "Capability gained this Era", "era:research": "Training Runs this Era",
    "era:fund": "Runway gained by Fund this Era", "era:deploy": "deployments this Era",
    "era:build": "Joint Ventures and Builds this Era",
    "pieces": "pieces on the board (CEO and Teams)",
    "facilities": "Facilities and Generator (which it owns, where)",
    "power": "powered Facilities this Production",
    "table:bag": "the Audit bag", "table:risk": "Systemic Risk",
}

#: finding code -> the values its check reads (a finding about no seat: of every seat)
READS: dict[str, tuple[str, ...]] = {
    "checkpoint/mismatch": RESOURCES,  # each comparison passes the one field it read
    "turn/unresolved": ("era",), "turn/out-of-order": ("era",), "turn/not-selected": ("era",),
    "turn/twice": ("era",), "select/action-exhausted": ("era",), "select/fourth-action": ("era",),
    "select/ineligible": ("era",), "trade/not-active-player": ("era",), "dossier/missing": ("era",),
    "research/draw-outside-run": ("era",), "research/run-not-ended": ("era",),
    "research/no-compute": ("compute",), "deploy/no-compute": ("compute",),
    "build/cannot-pay": ("runway",), "resource/insufficient": ("runway", "compute"),
    "deploy/capability-too-low": ("capability", "customers"),
    "move/piece-not-there": ("pieces",), "build/no-facility-space": ("facilities",),
    "production/not-powered": ("facilities",),
    "production/missing-allocation": ("facilities", "era"),
    "audit/cube-not-in-bag": ("table:bag", "scrutiny"),
    # the Era Mandate: each call names what its criterion reads, of the seats it disagrees on
    "mandate/era-mandate-scorers": ("era",),
    # the final Mandate: the last checkpoint's, less the offline penalty of the last Production
    "final/offline-penalty": ("power", "facilities"),
    "final/provisional-winner": ("mandate", "trust", "customers", "compute", "power",
                                 "facilities"),
    "final/winner": ("mandate", "trust", "customers", "compute", "power", "facilities"),
    "final/claimant": ("capability", "trust", "customers", "facilities"),
    "final/claim-strength": ("capability", "trust", "customers", "facilities"),
}

#: slip code -> the values of its seat (and of the seat it skipped) it puts in doubt: a turn
#: the table lost, added, repeated or gave another seat may have changed any of them (through
#: Headlines and abilities too); a checkpoint from another Era was neither compared nor adopted,
#: so it puts nothing in doubt
DOUBTS: dict[str, tuple[str, ...]] = {
    "turn/out-of-order": ("*",), "turn/twice": ("*",), "turn/not-selected": ("*",),
    "turn/unresolved": ("*",),
}

#: what an Era Mandate criterion reads of each seat: a count of this Era's (``era:NAME``, which
#: only some turns change) or what stands on the board
CRITERION_READS: dict[str, tuple[str, ...]] = {
    "capability_gained": ("era:capability",), "best_run_unique_domains": ("era:research",),
    "fund_runway_gained": ("era:fund",), "demand_satisfied": ("power", "facilities"),
    "compute_produced": ("power", "facilities"), "customers_gained": ("era:deploy",),
    "powered_facilities": ("power",), "controlled_categories": ("pieces", "facilities"),
    "active_new_joint_ventures": ("era:build",),
    "trust_among_deployers": ("trust", "era:deploy"),
    "capability_among_trust4": ("capability", "trust"),
    "fewest_scrutiny_added": ("scrutiny", "table:bag"),
}
#: this Era's counts, started afresh with each Era
ERA_VALUES = ("era", "era:capability", "era:research", "era:fund", "era:deploy", "era:build")
#: the counts a turn of each kind may change (besides its seat's resources and pieces)
TURN_COUNTS: dict[str, tuple[str, ...]] = {
    "fund": ("era:fund",), "research": ("era:research", "era:capability"),
    "deploy": ("era:deploy", "era:capability"), "build": ("era:build", "facilities"),
    "organize": ("facilities",), "influence": ("era:build",),
}


def turn_touches(kind: str) -> tuple[str, ...]:
    """The values of a seat that a turn of ``kind`` may have changed: its resources, its pieces,
    its actions this Era and the counts that kind of turn changes (another kind: all of them)."""
    counts = TURN_COUNTS.get(kind)
    if counts is None:
        return ("*",)
    return (*RESOURCES, "pieces", "era", *counts)
