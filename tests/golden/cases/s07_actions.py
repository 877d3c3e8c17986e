"""§7 Core Actions: Research (Training Runs), Build, Organize, Deploy, Influence."""

from tests.golden.build import Game, case


def _research_turn(cards, end, banked=None, seat=1, **kw) -> Game:
    """Era I cycle 1: every seat selects Research; seat 1 (Initiative) runs ``cards``."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "research", 2: "fund", 3: "fund"})
    g.research(seat, cards, end, banked, **kw)
    return g


# --- Research -------------------------------------------------------------------------------


@case
def research_crash_keeps_capability():
    """§7 Research step 6: an unprotected duplicate crashes the run: lose all provisional
    Capability. Seat 1 draws Code, Code and records the crash with 1 banked
    -> research/crash-kept-capability at run_end."""
    g = _research_turn(["code", "code"], "crash", banked=1)
    g.expect("research/crash-kept-capability")
    return g


@case
def research_bank_after_unprotected_duplicate():
    """§7 Research steps 4 and 6: banking is allowed after a non-duplicate card only; an
    unprotected duplicate crashes the run. Code, Code, then 'bank'
    -> research/bank-after-duplicate at run_end."""
    g = _research_turn(["code", "code"], "bank")
    g.expect("research/bank-after-duplicate")
    return g


@case
def research_draw_after_duplicate():
    """§7 Research: an unprotected duplicate crashes and ends the run; protection never lets the
    run continue. Code, Code, then Science is drawn -> research/draw-after-duplicate at the
    third draw."""
    g = _research_turn(["code", "code", "science"], None)
    g.expect("research/draw-after-duplicate")
    return g


@case
def research_draw_after_human_evaluation():
    """§7 Research, Human Evaluation: gain one Trust, immediately bank, end the run. Drawing Code
    after it -> research/draw-after-human-evaluation at that draw."""
    g = _research_turn(["human_evaluation", "code"], None)
    g.expect("research/draw-after-human-evaluation")
    return g


@case
def research_curated_corpus_revealed_domain():
    """§7 Research, Curated Corpus: choose one ordinary domain *not yet revealed* this run. After
    Code, Curated Corpus names Code -> research/curated-domain at that draw."""
    g = _research_turn(["code", ("curated_corpus", "code")], None)
    g.expect("research/curated-domain")
    return g


@case
def research_curated_corpus_unknown_domain():
    """§7 Research: the seven ordinary domains are Code, Science, Web, Books, Images, Video,
    Synthetic. Curated Corpus naming 'poetry' -> research/curated-domain."""
    g = _research_turn([("curated_corpus", "poetry")], None)
    g.expect("research/curated-domain")
    return g


@case
def research_fifth_copy_of_a_card():
    """Component reference (FACTS §6): four copies of each Training face; revealed cards go to the
    discard and the deck reshuffles only when empty. Cycle 1, every seat researches: seat 1 draws
    Code, Code (protects: discards the duplicate and banks 1), seat 2 the same, so all four Codes
    are out of the deck; seat 3 draws a fifth Code -> research/card-unavailable at that draw."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "research", 2: "research", 3: "research"})
    g.research(1, ["code", "code"], "protect")
    g.research(2, ["code", "code"], "protect")
    g.research(3, ["code"], None)
    g.expect("research/card-unavailable")
    return g


@case
def research_unknown_card():
    """Component reference: the Training deck holds ten faces. Drawing 'poetry'
    -> research/unknown-card."""
    g = _research_turn(["poetry"], None)
    g.expect("research/unknown-card")
    return g


@case
def research_draw_outside_run():
    """§7 Research: Training cards are drawn only during a Training Run. A draw right after a Fund
    -> research/draw-outside-run."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.turn(1, "fund")
    g.add("draw", seat=1, card="code")
    g.expect("research/draw-outside-run")
    return g


@case
def research_scientific_method_not_mirevanta():
    """§9 faction abilities (FACTS §3): Scientific Method (pay 1 Runway to discard a duplicate and
    bank) belongs to Mirevanta Works. Kestralyn (seat 1) ends Code, Code with 'method'
    -> research/method-unavailable at run_end (the Research-specific code; see docs/golden.md)."""
    g = _research_turn(["code", "code"], "method")
    g.expect("research/method-unavailable")
    return g


@case
def research_banked_mismatch():
    """§7 Research step 5: banking adds all provisional Capability, one per first card of each
    ordinary domain. Code, Science banks 2; the table wrote 3 -> research/banked-mismatch."""
    g = _research_turn(["code", "science"], "bank", banked=3)
    g.expect("research/banked-mismatch")
    return g


@case
def research_crash_without_duplicate():
    """§7 Research step 6: only a duplicate crashes a run. One Code then 'crash'
    -> research/crash-without-duplicate."""
    g = _research_turn(["code"], "crash", banked=0)
    g.expect("research/crash-without-duplicate")
    return g


@case
def research_breakthrough_before_era_four():
    """§5 Era IV / §9: Mirevanta's Scaling-Law Breakthrough unlocks in Era IV. Mirevanta (seat 3)
    researches with breakthrough in Era I cycle 1 -> research/breakthrough-unavailable at the
    Research event."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "research"})
    g.turn(1, "fund")
    g.turn(2, "fund")
    g.turn(3, "research", breakthrough=True)
    g.expect("research/breakthrough-unavailable")
    return g


# --- Build ----------------------------------------------------------------------------------


def _build_cycle(dest) -> Game:
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "build", 2: "fund", 3: "fund"})
    return g


@case
def build_facility_on_frontier():
    """§7 Build, Construct a Facility: Frontier has no Facility spaces and is never a legal
    destination. Seat 1 builds without leaving F -> build/facility-on-frontier."""
    g = _build_cycle("F")
    g.turn(1, "build")
    g.expect("build/facility-on-frontier")
    return g


@case
def build_third_facility_on_hex():
    """§7 Build: each non-Frontier hex has only two Facility spaces. All three seats build on I1
    in cycle 1; seat 3's is the third -> build/no-facility-space."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: ("build", {"to": "I1"}), 2: ("build", {"to": "I1"}), 3: ("build", {"to": "I1"})})
    g.expect("build/no-facility-space")
    return g


@case
def build_generator_in_era_one():
    """§7 Build, Construct a Generator: this mode unlocks in Era II. Seat 1 moves to the Power
    Corridor (I6) and builds a Generator in Era I -> build/generator-locked."""
    g = _build_cycle("I6")
    g.turn(1, "build", to="I6", mode="generator")
    g.expect("build/generator-locked")
    return g


@case
def build_generator_off_energy_hex():
    """§7 Build, Construct a Generator: the acting piece must be on an Energy hex. In Era II seat 1
    builds a Generator on the Allocation Exchange (I4) -> build/generator-not-energy."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.headline()
    g.reveal({1: "build", 2: "fund", 3: "fund"})
    g.turn(1, "build", mode="generator")
    g.expect("build/generator-not-energy")
    return g


@case
def build_second_ordinary_generator():
    """§7 Build / §8: each player may construct one ordinary Generator. Seat 1 builds an Emergency
    Power Complex on I6 in Era II (1 Runway), then a Civic Heat Battery on O12 in Era III
    -> build/generator-limit."""
    g = Game()
    g.setup()
    g.filler_era(1)
    # §6C.1 / §8: an Emergency Power Complex adds one Scrutiny in every Production (the seed says
    # so without "while it operates"), so the Era II bag holds seat 1's cube and the Audit
    # (2 draws, capped by the bag) draws it.
    g.filler_era(2, turns={1: [("build", {"to": "I6", "mode": "generator"}), "organize", "fund"]},
                 draws=[1])
    g.era_start(3)
    g.headline()
    g.reveal({1: "build", 2: "fund", 3: "fund"})
    g.turn(1, "build", to="O12", mode="generator")
    g.expect("build/generator-limit")
    return g


@case
def build_fourth_generator_slot():
    """§7 Build: each Energy hex has three Generator slots shared by all players. Four players; in
    Era II cycle 1 (Initiative seat 4) seats 4, 1 and 2 build their Emergency Power Complex on
    the Power Corridor I6; seat 3's is the fourth -> build/generator-slots-full."""
    g = Game(("kestralyn", "loopfold", "mirevanta", "orisonix"))
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.cycle_of({s: ("build", {"to": "I6", "mode": "generator"}) for s in (1, 2, 3, 4)})
    g.expect("build/generator-slots-full")
    return g


# --- Organize -------------------------------------------------------------------------------


@case
def organize_six_steps():
    """§7 Organize: move your CEOs and Teams a combined total of five adjacent steps. The CEO
    walks F-I1-O1-O2 and the Team F-I2-O3-O4: six -> organize/too-many-steps."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "organize", 2: "fund", 3: "fund"})
    g.turn(1, "organize", mode="redistribute", moves=[
        {"piece": "ceo", "path": ["F", "I1", "O1", "O2"]},
        {"piece": "team", "path": ["F", "I2", "O3", "O4"]},
    ])
    g.expect("organize/too-many-steps")
    return g


@case
def organize_recruit_with_empty_supply():
    """§1 step 6: two Teams start in supply. Seat 1 recruits one in Era I and one in Era II
    (2 Runway each); the Era III recruit finds the supply empty -> organize/no-team-in-supply."""
    g = Game()
    g.setup()
    rec = ("organize", {"mode": "recruit"})
    g.filler_era(1, turns={1: ["fund", rec, "influence"]})
    g.filler_era(2, turns={1: ["fund", rec, "influence"]})
    g.era_start(3)
    g.headline()
    g.reveal({1: "organize", 2: "fund", 3: "fund"})
    g.turn(1, "organize", mode="recruit")
    g.expect("organize/no-team-in-supply")
    return g


@case
def organize_recruit_extra_move_too_far():
    """§7 Organize, Recruit: then move one CEO or Team up to two additional hexes. The CEO then
    walks F-I1-O1-O2 (three) -> organize/extra-move-too-far."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "organize", 2: "fund", 3: "fund"})
    g.turn(1, "organize", mode="recruit", then={"piece": "ceo", "path": ["F", "I1", "O1", "O2"]})
    g.expect("organize/extra-move-too-far")
    return g


@case
def organize_return_teams_without_headline():
    """§9 (a Headline changes one named field for its duration) / FACTS §4: returning Teams for
    Runway is The Company Brain Survives Bankruptcy (employee_free_unicorn, cycle 1 here). In
    cycle 2 (professional_exam_sweep) seat 2 returns its Frontier Team
    -> organize/headline-not-active."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    g.turn(2, "organize", mode="redistribute", return_teams=["F"])
    g.expect("organize/headline-not-active")
    return g


@case
def organize_relocate_to_non_adjacent_hex():
    """§7 Organize: move one Facility at the destination to an *adjacent* legal Facility space for
    one Runway. Seat 1 builds Facility 1 on I1, then relocates it to O3 (two hexes away)
    -> organize/relocate-invalid."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: ("build", {"to": "I1"}), 2: "fund", 3: "fund"})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    g.play(2, "organize")
    g.play(3, "organize")
    g.turn(1, "organize", mode="relocate", facility=1, relocate_to="O3")
    g.expect("organize/relocate-invalid")
    return g


# --- Deploy ---------------------------------------------------------------------------------


@case
def deploy_without_capability():
    """§7 Deploy (FACTS §7): Customer #1 requires Capability 2. Kestralyn (Capability 0) deploys
    -> deploy/capability-too-low at the Deploy. The selection itself was already illegal (§2
    step 2: a choice is eligible only when it has a legal resolution now)
    -> select/ineligible at the reveal."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "deploy", 2: "fund", 3: "fund"})
    g.expect("select/ineligible")
    g.turn(1, "deploy")
    g.expect("deploy/capability-too-low")
    return g


@case
def deploy_loopfold_second_customer_needs_four():
    """§7 Deploy / FACTS §3: Loopfold starts with Customer #1, so its next Customer (#2) needs
    Capability 4. Open Weights Become the Default (Era I) gives everyone +1 Capability; Loopfold
    then banks Code+Science (+2) -> Capability 3 and deploys in cycle 3
    -> deploy/capability-too-low, and select/ineligible at the reveal (§2 step 2)."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.cycle_of({1: "fund", 2: "fund", 3: "fund"}, headline="open_weights_drop")
    g.cycle_of({1: "organize", 2: ("research", {"cards": ["code", "science"]}), 3: "organize"},
               headline="employee_free_unicorn")
    g.headline("professional_exam_sweep")
    g.reveal({1: "influence", 2: "deploy", 3: "influence"})
    g.expect("select/ineligible")
    g.play(3, "influence")
    g.play(1, "influence")
    g.turn(2, "deploy")
    g.expect("deploy/capability-too-low")
    return g


# --- Influence ------------------------------------------------------------------------------


@case
def influence_trust_off_political_hex():
    """§7 Influence: gain Trust or remove Scrutiny only on Consensus Network, Civic Permission
    Authority or Allocation Exchange. Seat 1 stays on Frontier and gains Trust
    -> influence/not-political."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "influence", 2: "fund", 3: "fund"})
    g.turn(1, "influence", mode="trust")
    g.expect("influence/not-political")
    return g


@case
def influence_scrutiny_on_research_commons():
    """§7 Influence: the Research Commons (I1) is not a political hex. Seat 1 removes Scrutiny
    there -> influence/not-political."""
    g = Game()
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "influence", 2: "fund", 3: "fund"})
    g.turn(1, "influence", to="I1", mode="scrutiny")
    g.expect("influence/not-political")
    return g


def _facilities_then(era_turns_k, k_dest="I1", other=2, other_dest="I2") -> Game:
    """Era I: seat 1 builds Facility 1 on ``k_dest`` and stays; seat ``other`` builds on
    ``other_dest``."""
    g = Game()
    g.setup()
    turns = {1: [("build", {"to": k_dest}), "organize", "fund"],
             other: [("build", {"to": other_dest}), "organize", "influence"]}
    g.filler_era(1, turns=turns)
    return g


@case
def influence_joint_venture_in_era_two():
    """§5 Era III: Joint Ventures now enter play. Seat 1 (Facility 1 on I1) proposes a Joint
    Venture with seat 2's Facility 1 on the adjacent I2 in Era II, accepted
    -> influence/jv-locked."""
    g = _facilities_then(None)
    g.era_start(2)
    g.headline()
    g.reveal({1: "influence", 2: "fund", 3: "fund"})
    g.turn(1, "influence", mode="jv", facility=1, partner=2, partner_facility=1, accepted=True)
    g.expect("influence/jv-locked")
    return g


@case
def influence_joint_venture_not_adjacent():
    """§4 Joint Venture: between two *adjacent* Facilities owned by different players. In Era III
    seat 1 (Facility 1 on I1) proposes one with seat 3's Facility 1 on I4 (two hexes away),
    accepted -> influence/jv-invalid."""
    g = _facilities_then(None, other=3, other_dest="I4")
    g.filler_era(2, turns={1: ["fund", "organize", ("research", {"cards": ["science"]})]})
    g.era_start(3)
    g.headline()
    g.reveal({1: "influence", 2: "fund", 3: "fund"})
    g.turn(1, "influence", mode="jv", facility=1, partner=3, partner_facility=1, accepted=True)
    g.expect("influence/jv-invalid")
    return g


@case
def influence_terminate_unshared_joint_venture():
    """§4 Joint Venture: either participant may terminate one *shared* Joint Venture. In Era III
    seat 1, at its Facility on I1, terminates contract 1, which does not exist
    -> influence/terminate-invalid."""
    g = _facilities_then(None, other=3, other_dest="I4")
    g.filler_era(2, turns={1: ["fund", "organize", ("research", {"cards": ["science"]})]})
    g.era_start(3)
    g.headline()
    g.reveal({1: "influence", 2: "fund", 3: "fund"})
    g.turn(1, "influence", mode="terminate", contract=1)
    g.expect("influence/terminate-invalid")
    return g
