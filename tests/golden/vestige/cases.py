"""Vestige golden games: each a short legal game with exactly one error, from the rulebook.

The docstring of each case says which rule it breaks and why the rest is legal. Standard table
and cards: see ``tests/golden/vestige/build.py``. Regenerate: ``python -m tests.golden.vestige.regen``.
"""

from __future__ import annotations

from engine.vestige.blocks import cost_rule
from engine.vestige.checkpoints import CP_RULES
from engine.vestige.codes import CONTROL
from tests.golden.vestige.build import MAP, Game, case

CONTROL_COST = f"{CONTROL} (1 conviction; 2 if controlled by another player)"

VISIT_C = {"seat": 1, "position": "C", "region": "archives", "gain": ["ambition", "ambition"]}


# --- 5-Minute Setup -------------------------------------------------------------------------


@case
def setup_duplicate_colour() -> Game:
    """Step 1: each player chooses one of the colours. Both seats play blue."""
    return Game(colours=("blue", "blue")).expect_setup("vestige-setup/seats").opening()


@case
def setup_wrong_starting_blocks() -> Game:
    """p. 8: you start with 8 influence and 8 potential. Seat 2 starts with 9 influence and 7
    potential (still 20 blocks)."""
    g = Game()
    g.e("phase", name="setup")
    g.card("Bartholomew").e("seat_setup", seat=1, start=19, chop_bot="Bartholomew",
                            blocks={"conviction": 4})
    g.card("Rusty").e("seat_setup", seat=2, start=25, chop_bot="Rusty",
                      blocks={"influence": 9, "potential": 7, "conviction": 4})
    return g.expect("vestige-setup/blocks")


@case
def setup_seat_twice() -> Game:
    """Step 3: each player draws one setup card. Seat 1 is set up a second time."""
    g = Game()
    g.e("phase", name="setup")
    g.card("Bartholomew").e("seat_setup", seat=1, start=19, chop_bot="Bartholomew",
                            blocks={"conviction": 4})
    g.e("seat_setup", seat=1, start=19, chop_bot="Bartholomew", blocks={"conviction": 4})
    return g.expect("vestige-setup/duplicate")


@case
def setup_start_on_other_pawn() -> Game:
    """p. 12: a pawn cannot end on another's space. Seat 2 starts on seat 1's space 19."""
    g = Game()
    g.e("phase", name="setup")
    g.card("Bartholomew").e("seat_setup", seat=1, start=19, chop_bot="Bartholomew",
                            blocks={"conviction": 4})
    g.card("Rusty").e("seat_setup", seat=2, start=19, chop_bot="Rusty", blocks={"conviction": 4})
    return g.expect("vestige-setup/start-occupied")


@case
def setup_two_endgame_reveals() -> Game:
    """Step 8: one remaining endgame condition is revealed at setup. A second is revealed."""
    g = Game().setup()
    g.e("endgame_reveal", card="Scorched Earth")
    return g.expect("vestige-setup/endgame-reveal")


@case
def setup_solo_reveals_endgame() -> Game:
    """p. 28 Solo: do not reveal an endgame condition at the start. A solo game against Bone
    reveals one."""
    g = Game(seats=1, mode="solo", nemeses=["bone"])
    g.setup(reveal_all=True, endgame=False)
    g.e("endgame_reveal", card="Network Sprawl")
    return g.expect("vestige-setup/endgame-reveal")


@case
def setup_map_three_garages() -> Game:
    """Step 6 and Game Components: there are 2 Garage tiles. The map places a third (on O8
    instead of the Jump Point)."""
    return Game(map={**MAP, "O8": "garage"}).expect_setup("vestige-setup/map").opening()


@case
def setup_solo_without_nemesis() -> Game:
    """p. 28 Solo: include at least 1 nemesis. A solo game has none."""
    return Game(seats=1, mode="solo").expect_setup("vestige-setup/mode").setup(endgame=False)


@case
def reveal_other_region() -> Game:
    """Step 6: tiles keep their places. Seat 1's move flips I4, recorded as the Archives, but
    the map has Lawmaker Ridge there."""
    g = Game().opening()
    g.e("move", seat=1, path=[19, 24], reveals=[{"position": "I4", "region": "archives"}])
    return g.expect("vestige-setup/tile-mismatch")


@case
def setup_turn_before_setup() -> Game:
    """Step 3: every player sets up before play. Seat 2 takes a turn without a seat setup."""
    g = Game()
    g.e("phase", name="setup")
    g.card("Bartholomew").e("seat_setup", seat=1, start=19, chop_bot="Bartholomew",
                            blocks={"conviction": 4})
    g.e("covert_op", seat=1, action="draw")
    g.reveal(["C", "I2", "I3"])
    g.e("endgame_reveal", card="Network Sprawl").e("phase", name="setup_end")
    g.round(1).quiet_turn(1, [19, 24])
    g.turn(2)
    return g.expect("vestige-setup/missing")


# --- cards recorded, not known -----------------------------------------------------------


@case
def card_contradicts_record() -> Game:
    """Cards are recorded once: Bartholomew was recorded with 1 leverage; a later record says 2."""
    g = Game().opening()
    g.card("Bartholomew", leverage=2)
    return g.expect("vestige-card/contradicts")


@case
def card_unrecorded_chop_bot() -> Game:
    """Cards are recorded at first appearance. Seat 1's chop bot Ghost was never recorded; its
    activation can only be checked as a generic chop bot (a warning)."""
    g = Game()
    g.e("phase", name="setup")
    g.e("seat_setup", seat=1, start=19, chop_bot="Ghost", blocks={"conviction": 4})
    g.card("Rusty").e("seat_setup", seat=2, start=25, chop_bot="Rusty", blocks={"conviction": 4})
    g.e("covert_op", seat=1, action="draw").e("covert_op", seat=2, action="draw")
    g.space = {1: 19, 2: 25}
    g.reveal(["C", "I1", "I2", "I3"]).e("endgame_reveal", card="Network Sprawl")
    g.round(1).turn(1)
    g.e("activate", seat=1, card="Ghost", gain=["might"])
    return g.expect("vestige-card/unrecorded")


@case
def recover_from_rivals_card() -> Game:
    """p. 16 Recover Influence: move any of *your* blocks. Seat 1 recovers from Rusty, seat 2's
    chop bot."""
    g = Game().opening()
    g.e("recover", seat=1, source="card:Rusty")
    return g.expect("vestige-card/not-owned")


@case
def contact_visit_without_draw() -> Game:
    """p. 21 and p. 31: Lawmaker Ridge: use 2 ambition to add a lawmaker. Seat 1 (2 ambition
    from its setup card) moves next to it (24), visits and ends its turn without drawing one."""
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"ambition": 2}}})
    g.move(1, [19, 24]).e("visit", seat=1, position="I4", region="lawmaker_ridge")
    g.end(1)
    return g.expect("vestige-card/draw-missing")


@case
def draw_wrong_kind() -> Game:
    """Network & Tableau: a lawmaker stack holds lawmakers. A card drawn from it is recorded as a
    smuggler."""
    g = Game().opening()
    g.e("draw", seat=1, stack="lawmaker", card="Veil",
        printed={"kind": "smuggler", "attributes": ["cunning", "cunning"], "leverage": 1})
    return g.expect("vestige-card/wrong-kind")


@case
def surveil_wrong_count() -> Game:
    """p. 16 Surveil: each conviction adds 2 cards to the draw. One surveil records 2 cards
    drawn instead of 3."""
    g = Game().opening()
    g.e("draw", seat=1, stack="lawmaker", card="Dispatch", surveil=1,
        drawn=["Dispatch", "Quill"], printed={"kind": "lawmaker", "colour": "ambition",
                                              "leverage": 1, "attributes": ["ambition", "ambition"],
                                              "jobs": ["bounty", "artifact"]})
    return g.expect("vestige-card/surveil")


# --- rounds and turns -------------------------------------------------------------------


@case
def round_skipped() -> Game:
    """Game Summary: rounds of turns. The first round is numbered 2."""
    g = Game().setup()
    g.round(2)
    return g.expect("vestige-round/out-of-order")


@case
def turn_out_of_order() -> Game:
    """Game Summary: the starting player (seat 1) goes first, then clockwise. Seat 2 starts."""
    g = Game().setup().round(1)
    g.turn(2)
    return g.expect("vestige-turn/out-of-order")


@case
def move_in_rivals_turn() -> Game:
    """Turns & Actions: main actions on your turn. Seat 2 moves during seat 1's turn."""
    g = Game().opening()
    g.move(2, [25, 20])
    return g.expect("vestige-turn/not-your-turn")


@case
def move_twice_without_reset() -> Game:
    """p. 10: each main action once per turn. Seat 1 moves twice without a reset."""
    g = Game().opening().move(1, [19, 24])
    g.move(1, [24, 18])
    return g.expect("vestige-turn/action-repeated")


@case
def visit_and_rest() -> Game:
    """p. 13: visit *or* rest, one action. Seat 1 visits the Archives and then rests."""
    g = Game().opening().move(1, [19, 24]).e("visit", **VISIT_C)
    g.e("rest", seat=1, upgrade="potential")
    return g.expect("vestige-turn/action-repeated")


@case
def reset_twice() -> Game:
    """p. 16: each action may be reset only once per turn. Seat 1 resets its move twice."""
    g = Game().opening().move(1, [19, 24]).e("reset", seat=1, action="move")
    g.e("reset", seat=1, action="move")
    return g.expect("vestige-turn/reset-twice")


@case
def reset_unused_action() -> Game:
    """p. 16: a reset slides a used action back up. Seat 1 resets its visit before visiting."""
    g = Game().opening()
    g.e("reset", seat=1, action="visit")
    return g.expect("vestige-turn/reset-unused")


@case
def turn_without_move() -> Game:
    """p. 12: moving is mandatory every turn. Seat 1 ends its turn without moving."""
    g = Game().opening()
    g.end(1)
    return g.expect("vestige-turn/no-move")


@case
def round_missing_a_turn() -> Game:
    """Game Summary: every player takes a turn each round. Round 2 starts before seat 2's turn."""
    g = Game().setup().round(1).quiet_turn(1, [19, 24])
    g.round(2)
    return g.expect("vestige-turn/missing")


@case
def convert_without_attributes() -> Game:
    """p. 9: converting uses 1 block from each of two primary hexes. Seat 1 has no ambition or
    cunning (the finding names the first one missing)."""
    g = Game().opening()
    g.e("convert", seat=1, spend=["ambition", "cunning"])
    return g.expect("vestige-blocks/unaffordable", cost_rule("convert"))


# --- activate and move ------------------------------------------------------------------


@case
def activate_a_job_card() -> Game:
    """p. 11: activate one of your contacts or chop bots. Seat 1 activates the face-up artifact
    job it does not hold."""
    g = Game().opening()
    g.e("activate", seat=1, card="Obelisk Heart Shard", gain=["intrigue"])
    return g.expect("vestige-activate/not-character")


@case
def activate_chop_bot_secondary() -> Game:
    """pp. 18-19: a chop bot grants 1 primary attribute of your choice. Bartholomew is recorded
    granting guile."""
    g = Game().opening()
    g.e("activate", seat=1, card="Bartholomew", gain=["guile"])
    return g.expect("vestige-activate/wrong-attributes")


@case
def move_wrong_start() -> Game:
    """p. 12: the pawn moves from where it stands (19). The path starts on space 14."""
    g = Game().opening()
    g.move(1, [14, 9])
    return g.expect("vestige-move/wrong-start")


@case
def move_zero_spaces() -> Game:
    """p. 12: you must move at least 1 space. Seat 1 records a move that stays on 19."""
    g = Game().opening()
    g.move(1, [19])
    return g.expect("vestige-move/too-short")


@case
def move_back_to_start() -> Game:
    """p. 12: you cannot end your movement on the space you began. 19 -> 24 -> 19."""
    g = Game().opening()
    g.move(1, [19, 24, 19])
    return g.expect("vestige-move/too-short")


@case
def move_beyond_speed() -> Game:
    """p. 12: up to your movement speed (2 at the start). Seat 1 moves 3 spaces."""
    g = Game().opening()
    g.move(1, [19, 24, 18, 13])
    return g.expect("vestige-move/too-far")


@case
def move_jumps() -> Game:
    """p. 12: pawns move on the spaces between the tiles, one neighbour at a time. 19 -> 20 is
    not a step."""
    g = Game().opening()
    g.move(1, [19, 20])
    return g.expect("vestige-move/not-adjacent")


@case
def move_onto_pawn() -> Game:
    """p. 12: you may pass through other pawns but not end on them. Seat 1 ends on 25."""
    g = Game().opening()
    g.move(1, [19, 25])
    return g.expect("vestige-move/occupied")


@case
def move_without_flipping() -> Game:
    """p. 12 Revealing Locations: moving next to a face-down tile flips it. Seat 1 moves to 24,
    next to the face-down I4, and flips nothing."""
    g = Game().opening()
    g.move(1, [19, 24], reveals=[])
    return g.expect("vestige-move/reveal-missing")


@case
def move_flips_face_up_tile() -> Game:
    """p. 12: only face-down tiles are flipped. Seat 1's move flips I4 (right) and C, which has
    been face up since setup."""
    g = Game().opening()
    g.move(1, [19, 24], reveals=["C", "I4"])
    return g.expect("vestige-move/reveal-invalid")


@case
def speed_boost_twice() -> Game:
    """p. 12 Temporary Speed Boost: once per turn. Seat 1 boosts twice."""
    g = Game().opening().e("speed_boost", seat=1, downgrade="influence")
    g.e("speed_boost", seat=1, downgrade="influence")
    return g.expect("vestige-move/boost-twice")


@case
def boosted_move_too_far() -> Game:
    """p. 12: a boost adds 2 to the speed (2 + 2 = 4). Seat 1 boosts and moves 5 spaces."""
    g = Game().opening().e("speed_boost", seat=1, downgrade="conviction")
    g.move(1, [19, 14, 9, 13, 8, 12])
    return g.expect("vestige-move/too-far")


# --- visit, regions, control ------------------------------------------------------------


@case
def visit_far_tile() -> Game:
    """p. 13: visit a tile adjacent to your pawn. Seat 1 on 19 visits the Trench (O7)."""
    g = Game().opening().move(1, [19, 24])
    g.e("visit", seat=1, position="O7", region="trench")
    return g.expect("vestige-visit/not-adjacent")


@case
def visit_wrong_region_name() -> Game:
    """p. 13: the region visited is the tile at that position. C is the Archives; the visit says
    Black Market."""
    g = Game().opening().move(1, [19, 24])
    g.e("visit", seat=1, position="C", region="black_market", gain=["ambition", "ambition"])
    return g.expect("vestige-visit/wrong-region")


@case
def visit_arrow_twice() -> Game:
    """p. 13: arrow effects resolve once per visit. The Archives (gain 2 ambition) is resolved
    twice."""
    g = Game().opening().move(1, [19, 24])
    g.e("visit", **{**VISIT_C, "times": 2})
    return g.expect("vestige-visit/repeat-arrow")


@case
def visit_archives_gains_cunning() -> Game:
    """p. 30: The Archives: gain 2 ambition. The visit records 2 cunning."""
    g = Game().opening().move(1, [19, 24])
    g.e("visit", seat=1, position="C", region="archives", gain=["cunning", "cunning"])
    return g.expect("vestige-visit/wrong-effect")


@case
def visit_generator_overfill() -> Game:
    """p. 30 Generator: a total of up to 3 influence. Seat 1 adds 4 (it has no artifact either;
    the total is reported first)."""
    g = Game().opening().move(1, [19, 25, 20])
    g.e("visit", seat=1, position="O2", region="generator",
        charges=[{"card": "Obelisk Heart Shard", "n": 4}])
    return g.expect("vestige-visit/wrong-effect")


@case
def garage_without_might() -> Game:
    """p. 30 Garage: use 3 might. Seat 1 (on 19 -> 24 -> 30, next to the Garage I5) has none."""
    g = Game().opening().move(1, [19, 24, 30])
    g.e("visit", seat=1, position="I5", region="garage")
    return g.expect("vestige-blocks/unaffordable", cost_rule("visiting garage"))


@case
def control_without_visit() -> Game:
    """p. 17: visit the region before or after you gain control. Seat 1 controls the Archives
    and ends its turn without visiting it."""
    g = Game().opening().move(1, [19, 24]).e("control", seat=1, position="C")
    g.end(1)
    return g.expect("vestige-control/no-visit")


@case
def control_twice_in_turn() -> Game:
    """p. 17 Fine Print: never the same region more than once in a turn. Seat 1 controls the
    Archives, recovers the block, and controls it again."""
    g = Game().opening().move(1, [19, 24]).e("visit", **VISIT_C)
    g.e("control", seat=1, position="C").e("recover", seat=1, source="region:C")
    g.e("control", seat=1, position="C")
    return g.expect("vestige-control/twice")


@case
def control_own_region() -> Game:
    """p. 17: you gain control of a region someone else (or nobody) controls. Seat 1 controls
    the Archives in round 1 and again in round 2."""
    g = Game().opening().move(1, [19, 24]).e("visit", **VISIT_C).e("control", seat=1, position="C")
    g.end(1).quiet_turn(2, [25, 31]).round(2).turn(1).move(1, [24, 19]).e("visit", **VISIT_C)
    g.e("control", seat=1, position="C")
    return g.expect("vestige-control/own")


@case
def takeover_with_one_conviction() -> Game:
    """p. 17: a region controlled by another costs 2 conviction. Seat 2 (its setup card left it
    1 conviction and 3 might) tries to take the Archives from seat 1 with 1."""
    g = Game().setup(blocks={2: {"conviction": 1, "influence": 8, "potential": 8,
                                 "attributes": {"might": 3}}}).round(1).turn(1)
    g.move(1, [19, 24]).e("visit", **VISIT_C).e("control", seat=1, position="C").end(1)
    g.turn(2).move(2, [25, 31])
    g.e("visit", seat=2, position="C", region="archives", gain=["ambition", "ambition"])
    g.e("control", seat=2, position="C")
    return g.expect("vestige-blocks/unaffordable", CONTROL_COST)


# --- jobs -------------------------------------------------------------------------------


@case
def pickup_away_from_tile() -> Game:
    """p. 14: be adjacent to the tile the stack indicates. The artifact is picked up at the
    Black Market (I1); seat 1 on 19 is not next to it."""
    g = Game().opening().move(1, [19, 24])
    g.e("pickup", seat=1, stack="artifact", card="Obelisk Heart Shard", at="I1",
        assignee="Bartholomew", face_up=True)
    return g.expect("vestige-job/pickup-not-adjacent")


@case
def pickup_at_wrong_tile() -> Game:
    """p. 14: the card shows where the job is. The artifact is at the Black Market; seat 1
    takes it at the Archives (C)."""
    g = Game().opening().move(1, [19, 24])
    g.e("pickup", seat=1, stack="artifact", card="Obelisk Heart Shard", at="C",
        assignee="Bartholomew", face_up=True)
    return g.expect("vestige-job/pickup-wrong-region")


@case
def pickup_incapable_chop_bot() -> Game:
    """p. 14 and p. 19: a character capable of that job type. Rusty does bounties only; seat 2
    assigns it the augmentation job."""
    g = Game().setup().round(1).quiet_turn(1, [19, 24]).turn(2).move(2, [25, 31])
    g.e("pickup", seat=2, stack="augmentation", card="Reflex Weave", at="C", assignee="Rusty",
        face_up=True)
    return g.expect("vestige-job/incapable")


@case
def pickup_busy_assignee() -> Game:
    """p. 15: a character can only be on one job at a time. After a reset, seat 1 gives
    Bartholomew a second job."""
    g = Game().opening().move(1, [19, 24])
    g.e("pickup", seat=1, stack="bounty", card="Marked Courier", at="C",
        assignee="Bartholomew", face_up=True).e("reset", seat=1, action="job")
    g.e(  # a second bounty, drawn from the stack
        "card", name="Long Haul", printed={"kind": "bounty", "colour": "guile", "leverage": 4,
                                           "pickup": "archives", "complete_at": "trench",
                                           "cost": {"guile": 2}})
    g.e("pickup", seat=1, stack="bounty", card="Long Haul", at="C", assignee="Bartholomew")
    return g.expect("vestige-job/assignee-busy")


@case
def pickup_face_up_mismatch() -> Game:
    """p. 14: take the face-up card or draw the top one. Seat 1 takes 'Other Mark' as the
    face-up bounty; the face-up bounty is Marked Courier."""
    g = Game().opening().move(1, [19, 24])
    g.e("card", name="Other Mark", printed={"kind": "bounty", "colour": "guile", "leverage": 4,
                                            "pickup": "archives", "complete_at": "trench",
                                            "cost": {"guile": 2}})
    g.e("pickup", seat=1, stack="bounty", card="Other Mark", at="C", assignee="Bartholomew",
        face_up=True)
    return g.expect("vestige-job/face-up-mismatch")


@case
def pickup_from_wrong_stack() -> Game:
    """p. 14: jobs of a stack are of its type. Reflex Weave, an augmentation, is picked up from
    the bounty stack."""
    g = Game().opening().move(1, [19, 24])
    g.e("pickup", seat=1, stack="bounty", card="Reflex Weave", at="C", assignee="Bartholomew")
    return g.expect("vestige-job/wrong-stack")


def _bounty_in_hand() -> Game:
    """Seat 1 (2 guile from its setup card) picks up Marked Courier at the Archives from its
    start, resets its job action and moves 19 -> 14, next to the Scrapyard (I2) where the job
    completes."""
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"guile": 2}}})
    g.e("pickup", seat=1, stack="bounty", card="Marked Courier", at="C",
        assignee="Bartholomew", face_up=True)
    return g.e("reset", seat=1, action="job").move(1, [19, 14])


@case
def complete_unassigned_job() -> Game:
    """p. 15: complete a job someone in your network is on. Seat 1 completes the artifact job it
    never picked up."""
    g = Game().opening().move(1, [19, 24]).e("roll", seat=1, face="strain")
    g.e("complete", seat=1, card="Obelisk Heart Shard", face="strain", pay={"intrigue": 2})
    return g.expect("vestige-job/not-assigned")


@case
def complete_away_from_tile() -> Game:
    """p. 15: your pawn is adjacent to the location on the job. Long Haul completes at the
    Trench (O7); seat 1 is on 24."""
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"guile": 2}}})
    g.move(1, [19, 24])
    g.e("card", name="Long Haul", printed={"kind": "bounty", "colour": "guile", "leverage": 4,
                                           "pickup": "archives", "complete_at": "trench",
                                           "cost": {"guile": 2}})
    g.e("pickup", seat=1, stack="bounty", card="Long Haul", at="C", assignee="Bartholomew")
    g.e("reset", seat=1, action="job").e("roll", seat=1, face="strain")
    g.e("complete", seat=1, card="Long Haul", face="strain", pay={"guile": 2})
    return g.expect("vestige-job/complete-not-adjacent")


@case
def complete_without_roll() -> Game:
    """p. 15: roll and resolve the outcome die first, then pay. No roll is recorded."""
    g = _bounty_in_hand()
    g.e("complete", seat=1, card="Marked Courier", face="efficient", pay={"guile": 1})
    return g.expect("vestige-job/no-roll")


@case
def complete_with_unrolled_face() -> Game:
    """p. 15 Adjust Your Roll: choose between the results rolled. STRAIN was rolled; the job is
    completed as EFFICIENT."""
    g = _bounty_in_hand().e("roll", seat=1, face="strain")
    g.e("complete", seat=1, card="Marked Courier", face="efficient", pay={"guile": 1})
    return g.expect("vestige-job/face-not-rolled")


@case
def complete_underpaid() -> Game:
    """p. 15: pay the attribute cost (2 guile); EFFICIENT was not rolled. Seat 1 pays 1."""
    g = _bounty_in_hand().e("roll", seat=1, face="strain")
    g.e("complete", seat=1, card="Marked Courier", face="strain", pay={"guile": 1})
    return g.expect("vestige-job/wrong-cost")


@case
def complete_upgrade_not_taken() -> Game:
    """p. 15 Outcome Die: UPGRADE: upgrade 1 block. The completion records no upgrade."""
    g = _bounty_in_hand().e("roll", seat=1, face="upgrade")
    g.e("complete", seat=1, card="Marked Courier", face="upgrade", pay={"guile": 2})
    return g.expect("vestige-job/die-result")


@case
def reroll_before_roll() -> Game:
    """p. 16 Reroll: roll the die again. A reroll is recorded before any roll."""
    g = _bounty_in_hand()
    g.e("roll", seat=1, face="sever", reroll=True)
    return g.expect("vestige-job/reroll-without-roll")


def _artifact_in_hand() -> Game:
    """Seat 1 (2 intrigue from its setup card) moves 19 -> 25 -> 20 (next to the Black Market I1,
    the Scrapyard I2 and the Generator O2), picks up the artifact, resets its job action and rolls
    STRAIN (2 influence onto Bartholomew)."""
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"intrigue": 2}}})
    g.move(1, [19, 25, 20])
    g.e("pickup", seat=1, stack="artifact", card="Obelisk Heart Shard", at="I1",
        assignee="Bartholomew", face_up=True)
    g.replace("artifact", "Dust Compass", pickup="black_market", top="scrapyard")
    return g.e("reset", seat=1, action="job").e("roll", seat=1, face="strain")


@case
def artifact_without_charges() -> Game:
    """p. 22: place 1-3 influence onto a new artifact. It gets none."""
    g = _artifact_in_hand()
    g.e("complete", seat=1, card="Obelisk Heart Shard", face="strain", pay={"intrigue": 2})
    return g.expect("vestige-job/charges")


@case
def artifact_used_twice() -> Game:
    """p. 22: each artifact once per turn. Seat 1 uses its new artifact (2 charges) twice."""
    g = _artifact_in_hand()
    g.e("complete", seat=1, card="Obelisk Heart Shard", face="strain", pay={"intrigue": 2},
        charges=2)
    g.e("effect", seat=1, card="Obelisk Heart Shard", via="artifact")
    g.e("effect", seat=1, card="Obelisk Heart Shard", via="artifact")
    return g.expect("vestige-artifact/twice")


@case
def artifact_used_empty() -> Game:
    """p. 22: a use returns a charge. Seat 1's artifact (1 charge) is used in round 1 and again
    in round 2 without a recharge."""
    g = _artifact_in_hand()
    g.e("complete", seat=1, card="Obelisk Heart Shard", face="strain", pay={"intrigue": 2},
        charges=1)
    g.e("effect", seat=1, card="Obelisk Heart Shard", via="artifact").end(1)
    g.quiet_turn(2, [25, 31]).round(2).turn(1)
    g.e("effect", seat=1, card="Obelisk Heart Shard", via="artifact")
    return g.expect("vestige-artifact/no-charge")


@case
def generator_overcharges_artifact() -> Game:
    """p. 30 Generator: artifacts cannot hold more than 3 influence. Seat 1's new artifact has 1
    charge; the Generator adds 3."""
    g = _artifact_in_hand()
    g.e("complete", seat=1, card="Obelisk Heart Shard", face="strain", pay={"intrigue": 2},
        charges=1)
    g.e("visit", seat=1, position="O2", region="generator",
        charges=[{"card": "Obelisk Heart Shard", "n": 3}])
    return g.expect("vestige-artifact/overcharged")


@case
def augmentation_on_chop_bot() -> Game:
    """p. 23: tuck the augmentation beneath a contact. Seat 1 (on 31: Archives, Black Market)
    completes Reflex Weave and attaches it to Bartholomew, a chop bot."""
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"ingenuity": 2}}})
    g.move(1, [19, 25, 31])
    g.e("pickup", seat=1, stack="augmentation", card="Reflex Weave", at="C",
        assignee="Bartholomew", face_up=True)
    g.e("reset", seat=1, action="job").e("roll", seat=1, face="strain")
    g.e("complete", seat=1, card="Reflex Weave", face="strain", pay={"ingenuity": 2},
        attach_to="Bartholomew")
    return g.expect("vestige-job/attach-not-contact")


# --- bonus actions ----------------------------------------------------------------------


@case
def convert_same_primary() -> Game:
    """p. 9: convert 2 *different* primaries. Seat 1 converts 2 ambition."""
    g = Game().opening().move(1, [19, 24]).e("visit", **VISIT_C)
    g.e("convert", seat=1, spend=["ambition", "ambition"], into="guile")
    return g.expect("vestige-convert/invalid")


@case
def convert_secondary_back() -> Game:
    """p. 9: secondary attributes cannot be split back. Seat 1 (1 guile, 1 ambition from setup)
    converts guile and ambition."""
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"guile": 1, "ambition": 1}}})
    g.e("convert", seat=1, spend=["guile", "ambition"])
    return g.expect("vestige-convert/invalid")


@case
def recover_potential() -> Game:
    """p. 16: recover from anywhere except potential. Seat 1 recovers a potential block."""
    g = Game().opening()
    g.e("recover", seat=1, source="potential")
    return g.expect("vestige-recover/from-potential")


@case
def recover_part_of_card() -> Game:
    """p. 16: recovering from a card abandons it; all its blocks return. Bartholomew holds 1;
    the recovery records 2."""
    g = Game().opening().e("activate", seat=1, card="Bartholomew", gain=["might"])
    g.e("recover", seat=1, source="card:Bartholomew", n=2)
    return g.expect("vestige-recover/card-blocks")


@case
def recover_reassign_to_stranger() -> Game:
    """p. 15 Recovering Contacts with Jobs: reassign to another eligible character in your
    tableau. Bartholomew's bounty job goes to 'Nobody'."""
    g = Game().opening().move(1, [19, 24])
    g.e("pickup", seat=1, stack="bounty", card="Marked Courier", at="C", assignee="Bartholomew",
        face_up=True).e("activate", seat=1, card="Bartholomew", gain=["might"])
    g.e("recover", seat=1, source="card:Bartholomew", reassign="Nobody")
    return g.expect("vestige-recover/reassign")


@case
def contact_ability_not_activated() -> Game:
    """p. 11: a contact's ability is available the turn you activate it. Seat 1 draws Dispatch
    (a card effect) and uses her ability without activating her."""
    g = Game().opening()
    g.e("draw", seat=1, stack="lawmaker", card="Dispatch", printed={
        "kind": "lawmaker", "colour": "ambition", "leverage": 1,
        "attributes": ["ambition", "ambition"], "jobs": ["bounty", "artifact"]})
    g.e("effect", seat=1, card="Dispatch", via="contact", leverage=1)
    return g.expect("vestige-effect/inactive-contact")


@case
def chop_bot_passive_too_early() -> Game:
    """pp. 18-19: a chop bot's passive needs 2 blocks on it. Bartholomew (1 block) uses it."""
    g = Game().opening().e("activate", seat=1, card="Bartholomew", gain=["might"])
    g.e("effect", seat=1, card="Bartholomew", via="chop_bot",
        moves=[{"src": "might", "dst": "influence"}])
    return g.expect("vestige-effect/passive-inactive")


@case
def attach_chop_bot_as_augmentation() -> Game:
    """p. 23: augmentations are attached to contacts. Seat 1 attaches Bartholomew."""
    g = Game().opening()
    g.e("attach", seat=1, card="Bartholomew", to="Rusty")
    return g.expect("vestige-attach/invalid")


@case
def covert_op_flipped_twice() -> Game:
    """p. 24: each covert op flips once. Seat 1 holds one (setup) and flips two."""
    g = Game().opening().e("covert_op", seat=1, action="flip", leverage=2)
    g.e("covert_op", seat=1, action="flip", leverage=2)
    return g.expect("vestige-covert/flip-invalid")


@case
def covert_op_draw_unreached() -> Game:
    """p. 24: draw a covert op when your disc reaches a magenta trigger. Seat 1 (0 leverage)
    draws at trigger 1."""
    g = Game().opening()
    g.e("covert_op", seat=1, action="draw", trigger=1)
    return g.expect("vestige-covert/draw-invalid")


@case
def transfer_outside_coop() -> Game:
    """p. 29: card transfers are a co-op rule. Seat 1 gives Bartholomew to seat 2 in a
    competitive game."""
    g = Game().opening()
    g.e("transfer", seat=1, to=2, card="Bartholomew")
    return g.expect("vestige-transfer/invalid")


# --- leverage track and endgame ---------------------------------------------------------


def _ten_leverage() -> Game:
    """Seat 1 draws Dispatch (+1 leverage), activates her (2 ambition) and her ability, as
    recorded, gains 9 leverage: 10 in all, reaching trigger 1 (declared at 10)."""
    g = Game().opening().move(1, [19, 24])
    g.e("draw", seat=1, stack="lawmaker", card="Dispatch", printed={
        "kind": "lawmaker", "colour": "ambition", "leverage": 1,
        "attributes": ["ambition", "ambition"], "jobs": ["bounty", "artifact"]})
    g.e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    return g.e("effect", seat=1, card="Dispatch", via="contact", leverage=9)


@case
def trigger_unreached() -> Game:
    """p. 25: a trigger fires when a disc reaches or passes it. Seat 1 (0 leverage) records
    trigger 1 (declared at 10)."""
    g = Game().opening()
    g.e("trigger", seat=1, point=1)
    return g.expect("vestige-trigger/not-reached")


@case
def trigger_twice() -> Game:
    """p. 24: crossing the same trigger again gains nothing. Trigger 1 is recorded twice."""
    g = _ten_leverage().e("trigger", seat=1, point=1, endgame="Scorched Earth")
    g.e("covert_op", seat=1, action="draw", trigger=1)
    g.e("trigger", seat=1, point=1)
    return g.expect("vestige-trigger/repeated")


@case
def trigger_not_recorded() -> Game:
    """p. 25: reaching a trigger reveals its stack. Seat 1 reaches 10 and ends its turn without
    recording trigger 1."""
    g = _ten_leverage()
    g.end(1)
    return g.expect("vestige-trigger/missing")


@case
def endgame_met_unrevealed() -> Game:
    """p. 25: revealed endgame conditions can be met. 'Deep Roots' was never revealed."""
    g = Game().opening()
    g.e("endgame_met", card="Deep Roots")
    return g.expect("vestige-endgame/not-revealed")


@case
def endgame_met_twice() -> Game:
    """p. 25: a met condition is flipped and stays met. Network Sprawl is met twice."""
    g = Game().opening().e("endgame_met", card="Network Sprawl")
    g.e("endgame_met", card="Network Sprawl")
    return g.expect("vestige-endgame/already-met")


@case
def endgame_reveal_unreached_trigger() -> Game:
    """p. 25: endgame cards are revealed at triggers reached. Trigger 2 was reached by nobody."""
    g = Game().opening()
    g.e("endgame_reveal", card="Scorched Earth", trigger=2)
    return g.expect("vestige-endgame/reveal-not-triggered")


@case
def endgame_reveal_after_final() -> Game:
    """p. 10: once the final round is triggered no endgame card is revealed. Two conditions are
    met in round 1; then a card is revealed at trigger 1."""
    g = _ten_leverage().e("trigger", seat=1, point=1, endgame="Scorched Earth")
    g.e("covert_op", seat=1, action="draw", trigger=1)
    g.e("endgame_met", card="Network Sprawl").e("endgame_met", card="Scorched Earth")
    g.e("endgame_reveal", card="Deep Roots", trigger=1)
    return g.expect("vestige-endgame/reveal-after-final")


def _final_in_round_two() -> Game:
    """Round 1: seat 1 reaches trigger 1 (Scorched Earth revealed); both conditions are met, so
    round 2 is the final round. Both seats then move in rounds 1 and 2."""
    g = _ten_leverage().e("trigger", seat=1, point=1, endgame="Scorched Earth")
    g.e("covert_op", seat=1, action="draw", trigger=1)
    g.e("endgame_met", card="Network Sprawl").e("endgame_met", card="Scorched Earth").end(1)
    g.quiet_turn(2, [25, 31]).round(2).quiet_turn(1, [24, 18]).quiet_turn(2, [31, 36])
    return g


@case
def round_after_final() -> Game:
    """p. 25: the round after the conditions are met is the final one. A third round is played."""
    g = _final_in_round_two()
    g.round(3)
    return g.expect("vestige-endgame/round-after-final")


@case
def game_ends_early() -> Game:
    """p. 25: the game ends after the final round, which needs 2 conditions met. Final scoring
    comes after round 1 with only one condition."""
    g = Game().setup().round(1).quiet_turn(1, [19, 24]).quiet_turn(2, [25, 31])
    g.e("endgame_met", card="Network Sprawl")
    g.e("phase", name="final_scoring")
    return g.expect("vestige-endgame/early-end")


@case
def final_total_wrong() -> Game:
    """p. 25 Endgame Scoring: seat 1 has 10 leverage (Dispatch 1 + her recorded effect 9), no
    bounties, regions or covert op rewards; mastery: seat 1 alone has an ambition card
    (Dispatch) and claims ambition mastery (declared 7): 17. The table writes 18."""
    g = _final_in_round_two().e("phase", name="final_scoring")
    g.e("final_scoring", scores=[{"seat": 1, "total": 18}])
    return g.expect("vestige-final/mismatch")


@case
def final_wrong_winner() -> Game:
    """p. 25: the most leverage wins. Seat 1 has 17 (see final_total_wrong), seat 2 0; the
    table names seat 2 the winner."""
    g = _final_in_round_two().e("phase", name="final_scoring")
    g.e("final_scoring", winners=["2"])
    return g.expect("vestige-final/winners")


@case
def complete_short_game() -> Game:
    """A complete legal game: seat 1 ends with 10 leverage from play and 7 for ambition mastery
    (declared value), 17; seat 2 with 0. Chop bots: one each, a tie: unclaimed. Seat 1 wins."""
    g = _final_in_round_two().e("phase", name="final_scoring")
    g.e("final_scoring", scores=[{"seat": 1, "total": 17, "mastery": ["ambition"]},
                                 {"seat": 2, "total": 0}], winners=["1"])
    g.e("phase", name="game_end")
    return g.outcome(["1"], {1: 17, 2: 0}, "most_leverage")


@case
def event_after_game_end() -> Game:
    """The game is over after game_end; a move follows."""
    g = complete_short_game()
    g.result = None
    g.move(1, [18, 13])
    return g.expect("log/event-after-game-end")


# --- nemeses and modes ------------------------------------------------------------------


def _solo(difficulty: str = "nuisance") -> Game:
    """Solo against Bone: every tile face up at setup, no endgame condition revealed."""
    g = Game(seats=1, mode="solo", nemeses=["bone"], difficulty=difficulty)
    return g.setup(reveal_all=True, endgame=False).round(1)


@case
def nemesis_unknown() -> Game:
    """p. 26: only the nemeses set up play. 'Happy' takes a turn in a game against Bone."""
    g = _solo().quiet_turn(1, [19, 24])
    g.e("nemesis_turn", nemesis="happy", threat=0, leverage=2)
    return g.expect("vestige-nemesis/unknown")


@case
def nemesis_before_players() -> Game:
    """p. 26: each round, after all players take their turn, each nemesis gets a turn. Bone
    goes first."""
    g = _solo()
    g.e("nemesis_turn", nemesis="bone", threat=0, leverage=2)
    return g.expect("vestige-nemesis/out-of-order")


@case
def nemesis_threat_level_wrong() -> Game:
    """p. 26: the threat level is the number of threat cards in the column (none yet). Bone's
    turn is resolved at level 1."""
    g = _solo().quiet_turn(1, [19, 24])
    g.e("nemesis_turn", nemesis="bone", threat=1, leverage=2, cards=["Sim mercenary"])
    return g.expect("vestige-nemesis/threat-level")


@case
def bone_gains_too_much() -> Game:
    """p. 27 Bone, threat level 0: Bone gains 2 leverage. The turn records 3."""
    g = _solo().quiet_turn(1, [19, 24])
    g.e("nemesis_turn", nemesis="bone", threat=0, leverage=3)
    return g.expect("vestige-nemesis/leverage")


@case
def bone_turn_skipped() -> Game:
    """p. 26: every round ends with the nemeses' turns. Round 2 starts without Bone's turn."""
    g = _solo().quiet_turn(1, [19, 24])
    g.round(2)
    return g.expect("vestige-nemesis/missing-turn")


@case
def solo_needs_three_conditions() -> Game:
    """p. 28 Solo: 3 endgame conditions trigger the final round. Seat 1 reaches 20 leverage
    (Dispatch 1 + her recorded effect 19), triggers 1 and 2 reveal two conditions, both are met;
    the solo game is scored after round 2 anyway."""
    g = Game(seats=1, mode="solo", nemeses=["bone"])
    g.setup(reveal_all=True, endgame=False).round(1).turn(1).move(1, [19, 24])
    g.e("draw", seat=1, stack="lawmaker", card="Dispatch", printed={
        "kind": "lawmaker", "colour": "ambition", "leverage": 1,
        "attributes": ["ambition", "ambition"], "jobs": ["bounty", "artifact"]})
    g.e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", leverage=19)
    g.e("trigger", seat=1, point=1, endgame="Scorched Earth")
    g.e("covert_op", seat=1, action="draw", trigger=1)
    g.e("trigger", seat=1, point=2, endgame="Deep Roots")
    g.e("endgame_met", card="Scorched Earth").e("endgame_met", card="Deep Roots").end(1)
    g.e("nemesis_turn", nemesis="bone", threat=0, leverage=2)
    g.round(2).quiet_turn(1, [24, 18]).e("nemesis_turn", nemesis="bone", threat=0, leverage=2)
    g.e("phase", name="final_scoring")
    return g.expect("vestige-endgame/early-end")


# --- checkpoints and partial logs -------------------------------------------------------


@case
def checkpoint_leverage_resync() -> Game:
    """Checkpoints: seat 1 has 0 leverage; the table records 5. Reported once; replay follows
    the table, so a later checkpoint of 5 is no new finding."""
    g = Game().opening()
    g.e("checkpoint", seats=[{"seat": 1, "leverage": 5}])
    g.expect("checkpoint/mismatch", CP_RULES["leverage"])
    g.move(1, [19, 24]).e("checkpoint", seats=[{"seat": 1, "leverage": 5}])
    return g


@case
def checkpoint_influence_resync() -> Game:
    """Checkpoints: after gaining 2 ambition at the Archives seat 1 has 6 influence; the table
    writes 7."""
    g = Game().opening().move(1, [19, 24]).e("visit", **VISIT_C)
    g.e("checkpoint", seats=[{"seat": 1, "influence": 6}])
    g.e("checkpoint", seats=[{"seat": 1, "influence": 7}])
    return g.expect("checkpoint/mismatch", CP_RULES["dash"])


@case
def partial_negative_leverage() -> Game:
    """Partial logs are checked by their invariants: leverage is never negative."""
    g = Game(partial=True)
    g.e("checkpoint", round=1, seats=[{"seat": 1, "leverage": 3}, {"seat": 2, "leverage": 4}])
    g.e("checkpoint", round=2, seats=[{"seat": 1, "leverage": -2}, {"seat": 2, "leverage": 6}])
    return g.expect("vestige-partial/negative-leverage")


@case
def partial_rounds_backwards() -> Game:
    """Partial logs: rounds follow each other. A round 2 checkpoint is followed by round 1."""
    g = Game(partial=True)
    g.e("checkpoint", round=2, seats=[{"seat": 1, "leverage": 3}, {"seat": 2, "leverage": 4}])
    g.e("checkpoint", round=1, seats=[{"seat": 1, "leverage": 3}, {"seat": 2, "leverage": 4}])
    return g.expect("vestige-round/out-of-order")


@case
def partial_too_many_blocks() -> Game:
    """p. 8: a seat has 20 blocks. A checkpoint lists 12 influence, 8 potential, 3 conviction."""
    g = Game(partial=True)
    g.e("checkpoint", round=1, seats=[{"seat": 1, "leverage": 3, "influence": 12,
                                       "potential": 8, "conviction": 3}])
    return g.expect("vestige-partial/blocks-total")


@case
def partial_winner_against_totals() -> Game:
    """Partial logs: the winner has the most recorded leverage; a tie means everyone loses.
    Totals 30 and 30; the table names seat 1."""
    g = Game(partial=True)
    g.e("checkpoint", round=1, seats=[{"seat": 1, "leverage": 12}, {"seat": 2, "leverage": 14}])
    g.e("phase", name="final_scoring")
    g.e("final_scoring", scores=[{"seat": 1, "total": 30}, {"seat": 2, "total": 30}],
        winners=["1"])
    return g.expect("vestige-final/winners")


@case
def seat_out_of_range() -> Game:
    """The table has 2 seats; seat 3 moves."""
    g = Game().opening()
    g.e("move", seat=3, path=[30, 24])
    return g.expect("log/seat-out-of-range")


@case
def coop_transfer_loaded_card() -> Game:
    """p. 29 Card Transfers: only cards with no blocks on them. In a co-op game against Bone,
    seat 1 activates Bartholomew (1 block on him) in the team turn and gives him to seat 2
    (the pawns on 19 and 25 are adjacent)."""
    g = Game(mode="coop", nemeses=["bone"]).setup(reveal_all=True, endgame=False).round(1)
    g.e("turn_start").e("activate", seat=1, card="Bartholomew", gain=["might"])
    g.e("transfer", seat=1, to=2, card="Bartholomew")
    return g.expect("vestige-transfer/invalid")


@case
def bone_menace_resolves_lower_levels() -> Game:
    """p. 26 Menace: resolve the current threat level and all below. Seat 1 reaches trigger 1
    (10 leverage: Dispatch 1 + her recorded effect 9), which puts the threat Syndicate Lord in
    Bone's column: level 1. Menace resolves level 0 (2 leverage) and level 1 (2 leverage and a
    mercenary): 4. The turn records 2."""
    g = Game(seats=1, mode="solo", nemeses=["bone"], difficulty="menace")
    g.setup(reveal_all=True, endgame=False).round(1).turn(1).move(1, [19, 24])
    g.e("draw", seat=1, stack="lawmaker", card="Dispatch", printed={
        "kind": "lawmaker", "colour": "ambition", "leverage": 1,
        "attributes": ["ambition", "ambition"], "jobs": ["bounty", "artifact"]})
    g.e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", leverage=9)
    g.e("trigger", seat=1, point=1, endgame="Scorched Earth", threats=["Syndicate Lord"])
    g.e("covert_op", seat=1, action="draw", trigger=1).end(1)
    g.e("nemesis_turn", nemesis="bone", threat=1, leverage=2, cards=["Hired Gun"])
    return g.expect("vestige-nemesis/leverage")


# --- rules round two (issue 20): each wrong reading and each rule never checked before, as a
# pair: a legal log that must replay clean and an illegal one with the finding --------------

DISPATCH = {"kind": "lawmaker", "colour": "ambition", "leverage": 1,
            "attributes": ["ambition", "ambition"], "jobs": ["bounty", "artifact"]}
AUG = {"kind": "augmentation", "colour": "ingenuity", "leverage": 2, "pickup": "archives",
       "complete_at": "black_market", "cost": {"ingenuity": 2}}


def _dispatch(g: Game, seat: int = 1) -> Game:
    """A card effect draws Dispatch (lawmaker, 1 leverage) into the seat's tableau."""
    return g.e("draw", seat=seat, stack="lawmaker", card="Dispatch", printed=DISPATCH)


def _pickup_top(at: int | None, space_path: list[int]) -> Game:
    """The artifact stack's top card shows the Archives (C) while the face-up artifact's own
    back shows the Black Market. Seat 1 moves along ``space_path`` and takes the face-up card
    at ``at``; the stack's top card (its back: the Archives) is flipped into its place."""
    g = Game().opening(tops={"artifact": "archives"}, starts=(19, 36)).move(1, space_path)
    g.e("pickup", seat=1, stack="artifact", card="Obelisk Heart Shard",
        at={None: None, 0: "C", 1: "I1"}[at], assignee="Bartholomew", face_up=True)
    return g


@case
def pickup_at_stack_top_region() -> Game:
    """Legal. p. 14: 'The top card of each card stack indicates where on the map you can
    currently find jobs of that type.' The stack's top card shows the Archives; seat 1 (space
    24, next to C) takes the face-up artifact at the Archives, although that card's own back
    shows the Black Market, and the top card is flipped into its place."""
    g = _pickup_top(0, [19, 24])
    g.replace("artifact", "Dust Compass", pickup="archives", top="scrapyard")
    return g.end(1)


@case
def turn_end_missing() -> Game:
    """p. 10: the starting player takes a turn, then play continues clockwise; p. 16: at the end
    of your turn, slide the discs back up. Seat 1 moves and the log goes on with seat 2's
    turn_start without seat 1's turn_end: one warning there (the turn is closed and checked)."""
    g = Game().opening().move(1, [19, 24])
    return g.turn(2).expect("vestige-turn/end-missing").move(2, [25, 31]).end(2)


@case
def face_up_replacement_shows_other_region() -> Game:
    """p. 14: 'If you take the face-up card, immediately replace it by flipping the top card of
    the stack into that place.' The artifact stack's top card shows the Archives; seat 1 takes
    the face-up artifact and the card recorded flipped into its place shows the Scrapyard: it is
    not the card that was on top (legal twin: pickup_at_stack_top_region)."""
    g = _pickup_top(0, [19, 24])
    g.e("display", stack="artifact", card="Dust Compass", printed={
        "kind": "artifact", "colour": "intrigue", "leverage": 3, "pickup": "scrapyard",
        "complete_at": "trench", "cost": {"guile": 1}})
    g.expect("vestige-job/stack-top-mismatch")
    return g.e("stack_top", stack="artifact", region="archives").end(1)


@case
def pickup_away_from_stack_top_region() -> Game:
    """p. 14: the stack's top card shows the Archives; seat 1 (space 25) takes the face-up
    artifact at the Black Market (I1), where that card's own back points."""
    g = _pickup_top(1, [19, 25])
    return g.expect("vestige-job/pickup-wrong-region")


def _observatory(upgrade: str) -> Game:
    g = Game().opening(blocks={1: {"conviction": 3, "attributes": {"cunning": 1}}})
    g.move(1, [19, 25, 31])
    return g.e("visit", seat=1, position="I6", region="observatory", upgrades=[upgrade])


@case
def observatory_upgrades_potential() -> Game:
    """Legal. p. 30 Observatory: use 1 cunning to upgrade 1 block; p. 8: an upgrade moves a
    block one hex right (potential to influence). Seat 1 upgrades a potential."""
    return _observatory("potential").end(1)


@case
def observatory_upgrades_conviction() -> Game:
    """p. 8: to upgrade, move a block into the hex to its right (potential to influence, or
    influence to conviction). Conviction is the rightmost hex: seat 1 'upgrades' a conviction
    (the engine used to move it down to influence)."""
    return _observatory("conviction").expect("vestige-blocks/direction")


def _dove(downgrades: list[str]) -> Game:
    g = Game().opening(starts=(35, 25)).move(1, [35, 40])
    return g.e("visit", seat=1, position="O9", region="black_dove", times=len(downgrades),
               downgrades=downgrades)


@case
def black_dove_downgrades_influence() -> Game:
    """Legal. p. 30 The Black Dove: downgrade 1 block; p. 8: a downgrade moves it one hex left
    (influence to potential). Seat 1 (space 40, next to O9) downgrades an influence."""
    return _dove(["influence"]).end(1)


@case
def black_dove_downgrades_potential() -> Game:
    """p. 8: to downgrade, move a block one hex to the left. Potential is the leftmost hex:
    seat 1's Black Dove 'downgrade' of a potential (which used to cost nothing) is no
    downgrade."""
    return _dove(["potential"]).expect("vestige-blocks/direction")


def _dove_two_jobs(times: int) -> Game:
    """Seat 1 (space 40, next to the Black Dove O9) has Bartholomew and Dispatch; it resolves the
    Dove ``times`` times and takes the face-up artifact (Bartholomew) and bounty (Dispatch)
    without being next to their pickup tiles, each replaced by its stack's top card."""
    g = _dispatch(Game().opening(starts=(35, 25)).move(1, [35, 40]))
    g.e("visit", seat=1, position="O9", region="black_dove", times=times,
        downgrades=["influence"] * times)
    g.e("pickup", seat=1, stack="artifact", card="Obelisk Heart Shard", assignee="Bartholomew",
        face_up=True, dove=True)
    g.replace("artifact", "Dust Compass", pickup="black_market", top="scrapyard")
    g.e("pickup", seat=1, stack="bounty", card="Marked Courier", assignee="Dispatch",
        face_up=True, dove=True)
    return g


@case
def black_dove_repeated_for_two_jobs() -> Game:
    """Legal (ruling black-dove-repeat=job-per-resolution, docs/vestige.md). p. 30: 'Downgrade
    1 block: you may take an available job without being adjacent to its pickup location ...
    Repeatable.' Two resolutions (two downgrades) take two jobs in the one visit."""
    g = _dove_two_jobs(2)
    g.replace("bounty", "Old Debt", pickup="archives", top="archives")
    return g.end(1)


@case
def black_dove_once_for_two_jobs() -> Game:
    """p. 30: each resolution of the Black Dove takes one job. One downgrade, two Dove jobs: the
    second is taken without adjacency and without a resolution."""
    return _dove_two_jobs(1).expect("vestige-job/pickup-not-adjacent")


RISE_MAP = {**MAP, "I4": "rise", "O7": "lawmaker_ridge"}


def _rise_game(total: int) -> Game:
    """Extra Regions: The Rise on I4. Round 1: seat 1 (space 24) draws Dispatch (+1), activates
    her, records her ability's 9 leverage (10), visits the Rise and controls it (1 conviction,
    declared value 2: 12); trigger 1 (Scorched Earth, a covert op drawn); both conditions met:
    round 2 is the final round. Final scoring: seat 1 flips a covert op (+3), scores the Rise's
    value (2) and the Rise's own bonus, 2 for the one completed covert op (p. 31: 2), and
    ambition mastery (7; chop bots tie): 12 + 3 + 2 + 2 + 7 = 26. Seat 2: 0."""
    g = Game(map=RISE_MAP)
    g.header["modules"] = ["extra_regions"]
    g.opening().move(1, [19, 24])
    _dispatch(g).e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", leverage=9)
    g.e("visit", seat=1, position="I4", region="rise").e("control", seat=1, position="I4")
    g.e("trigger", seat=1, point=1, endgame="Scorched Earth")
    g.e("covert_op", seat=1, action="draw", trigger=1)
    g.e("endgame_met", card="Network Sprawl").e("endgame_met", card="Scorched Earth").end(1)
    g.quiet_turn(2, [25, 31]).round(2).quiet_turn(1, [24, 18]).quiet_turn(2, [31, 36])
    g.e("phase", name="final_scoring").e("covert_op", seat=1, action="flip", leverage=3)
    g.e("final_scoring", scores=[{"seat": 1, "total": total}, {"seat": 2, "total": 0}],
        winners=["1"])
    return g.e("phase", name="game_end")


@case
def rise_scored_at_game_end() -> Game:
    """Legal. p. 31 The Rise: at game end, its controller gains 2 leverage for each of their
    completed covert op cards. The table's 26 includes it (see the helper)."""
    return _rise_game(26).outcome(["1"], {1: 26, 2: 0}, "most_leverage")


@case
def rise_left_unscored() -> Game:
    """p. 31 The Rise: the table leaves out the 2 leverage for seat 1's completed covert op and
    writes 24; the rules give 26."""
    g = _rise_game(24).outcome(["1"], {1: 26, 2: 0}, "most_leverage")
    g.expected.append({"code": "vestige-final/mismatch", "rule": _rule("vestige-final/mismatch"),
                       "event": len(g.events) - 2, "severity": "error"})
    return g


def _rule(code: str) -> str:
    from engine.vestige.codes import CATALOGUE

    return CATALOGUE[code].rule


def _goal_game(winners: list[str]) -> Game:
    """Solo against Dunecrest (Nuisance). Round 1: seat 1 draws Dispatch (+1), activates her and
    records her ability's 29 leverage: 30, reaching triggers 1-3 (covert ops at the magenta 1
    and 3); three conditions are met (solo needs 3): round 2 is the final round. Dunecrest's
    turns gain nothing (its table is not printed). The table records Dunecrest's unique goal
    as met. Seat 1: 30 + ambition and chop bot mastery (7 each) = 44."""
    g = Game(seats=1, mode="solo", nemeses=["dunecrest"])
    g.setup(reveal_all=True, endgame=False).round(1).turn(1).move(1, [19, 24])
    _dispatch(g).e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", leverage=29)
    for point, card in ((1, "Scorched Earth"), (2, "Deep Roots"), (3, "Last Light")):
        g.e("trigger", seat=1, point=point, endgame=card)
        if point in (1, 3):
            g.e("covert_op", seat=1, action="draw", trigger=point)
    for card in ("Scorched Earth", "Deep Roots", "Last Light"):
        g.e("endgame_met", card=card)
    g.end(1).e("nemesis_turn", nemesis="dunecrest", threat=0)
    g.round(2).quiet_turn(1, [24, 18]).e("nemesis_turn", nemesis="dunecrest", threat=0)
    g.e("phase", name="final_scoring")
    g.e("final_scoring", scores=[{"seat": 1, "total": 44}], winners=winners,
        nemesis_goal="dunecrest")
    return g.e("phase", name="game_end")


@case
def nemesis_goal_wins() -> Game:
    """Legal. p. 26 Unique Goal: if any nemesis has completed their 'at game end' objective,
    they automatically win and all players lose. Dunecrest's goal (not printed: the table's
    record is taken) is met; Dunecrest wins with less leverage."""
    return _goal_game(["dunecrest"]).outcome(["dunecrest"], {1: 44}, "nemesis_goal")


@case
def nemesis_goal_ignored() -> Game:
    """p. 26 Unique Goal: the table records Dunecrest's goal as met, yet names seat 1 (most
    leverage) the winner."""
    g = _goal_game(["1"]).outcome(["dunecrest"], {1: 44}, "nemesis_goal")
    g.expected.append({"code": "vestige-final/winners", "rule": _rule("vestige-final/winners"),
                       "event": len(g.events) - 2, "severity": "error"})
    return g


def _jump_game(bone_total: int) -> Game:
    """Seat 1 and 2 against Bone (Nuisance; competitive: one condition revealed at setup; every
    tile face up). Round 1: Bone controls the Trench (O7, declared 4). Seat 1 (35 -> 40, next
    to the Jump Point O8) draws Dispatch (+1), activates her, records 9 from her ability (10),
    visits the Jump Point and controls it (declared 2: 12; Bone +1), swapping it with the
    Trench: the Jump Point now lies on O7 under seat 1's block and the Trench on O8 under
    Bone's. Trigger 1 (a covert op); both conditions met. Bone's turns at threat 0: 2 each.
    Final: seat 1 12 + the Jump Point 2 + ambition mastery 7 = 21; Bone 1 + 2 + 2 + the Trench
    4 = 9."""
    g = Game(nemeses=["bone"]).setup(reveal_all=True, starts=(35, 25)).round(1)
    g.e("nemesis_gain", nemesis="bone", control=["O7"], reason="recorded control")
    g.turn(1).move(1, [35, 40])
    _dispatch(g).e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", leverage=9)
    g.e("visit", seat=1, position="O8", region="jump_point")
    g.e("control", seat=1, position="O8", swap="O7")
    g.e("trigger", seat=1, point=1, endgame="Scorched Earth")
    g.e("covert_op", seat=1, action="draw", trigger=1)
    g.e("endgame_met", card="Network Sprawl").e("endgame_met", card="Scorched Earth").end(1)
    g.quiet_turn(2, [25, 31]).e("nemesis_turn", nemesis="bone", threat=0, leverage=2)
    g.round(2).quiet_turn(1, [40, 35]).quiet_turn(2, [31, 36])
    g.e("nemesis_turn", nemesis="bone", threat=0, leverage=2)
    g.e("phase", name="final_scoring")
    g.e("final_scoring", scores=[{"seat": 1, "total": 21}, {"seat": 2, "total": 0},
                                 {"nemesis": "bone", "total": bone_total}], winners=["1"])
    return g.e("phase", name="game_end")


@case
def jump_point_swap_moves_nemesis_control() -> Game:
    """Legal. p. 30 Jump Point: when you gain control of it, it and another region physically
    swap positions. Bone's block rides on the Trench to O8: Bone scores the Trench (9 in all)."""
    return _jump_game(9).outcome(["1"], {1: 21, 2: 0}, "most_leverage")


@case
def jump_point_swap_nemesis_scored_for_old_tile() -> Game:
    """p. 30 Jump Point: the table scores Bone for the tile now on O7 (the Jump Point, 2) instead
    of the Trench he controls: 7."""
    g = _jump_game(7).outcome(["1"], {1: 21, 2: 0}, "most_leverage")
    g.expected.append({"code": "vestige-final/mismatch", "rule": _rule("vestige-final/mismatch"),
                       "event": len(g.events) - 2, "severity": "error"})
    return g


@case
def coop_teammate_uses_shared_ability() -> Game:
    """Legal. p. 29 Shared Card Effects: the active player may give a card's effect to a
    consenting teammate. In the team turn seat 1 activates Dispatch and gives both her 2
    ambition and her ability to seat 2, who uses the ability."""
    g = Game(mode="coop", nemeses=["bone"]).setup(reveal_all=True, endgame=False).round(1)
    g.e("turn_start")
    _dispatch(g).e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"],
                   attributes_to=2, ability_to=2)
    return g.e("effect", seat=2, card="Dispatch", via="contact", owner=1, leverage=1)


@case
def shared_ability_outside_coop() -> Game:
    """p. 29: shared card effects belong to the cooperative mode. In a competitive game seat 1
    gives Dispatch's ability to seat 2."""
    g = _dispatch(Game().opening())
    g.e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"], ability_to=2)
    return g.expect("vestige-share/invalid")


def _no_at(path: list[int]) -> Game:
    g = Game().opening().move(1, path)
    return g.e("pickup", seat=1, stack="bounty", card="Marked Courier", assignee="Bartholomew",
               face_up=True)


@case
def pickup_without_tile_next_to_it() -> Game:
    """Legal. p. 14: the pawn must be adjacent to the tile the stack indicates; the log need
    not name it. The bounty stack shows the Archives; seat 1 on 24 is next to C."""
    g = _no_at([19, 24])
    return g.replace("bounty", "Old Debt", pickup="archives", top="archives").end(1)


@case
def pickup_without_tile_far_away() -> Game:
    """p. 14: seat 1 on space 18 (Chop Shop, Lawmaker Ridge, Obelisk) takes the bounty, whose
    stack shows the Archives; no tile is recorded, and none next to it is the Archives."""
    return _no_at([19, 24, 18]).expect("vestige-job/pickup-not-adjacent")


def _ridge(stack: str, card: str, printed: dict[str, object]) -> Game:
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"ambition": 2}}})
    g.move(1, [19, 24]).e("visit", seat=1, position="I4", region="lawmaker_ridge")
    return g.e("draw", seat=1, stack=stack, card=card, printed=printed)


@case
def lawmaker_ridge_draws_lawmaker() -> Game:
    """Legal. p. 30 Lawmaker Ridge: use 2 ambition to add a lawmaker. Seat 1 draws Dispatch."""
    return _ridge("lawmaker", "Dispatch", DISPATCH).end(1)


@case
def lawmaker_ridge_draws_mercenary() -> Game:
    """p. 30 Lawmaker Ridge adds a lawmaker; seat 1 draws from the mercenary stack."""
    return _ridge("mercenary", "Brute", {**DISPATCH, "kind": "mercenary", "colour": "might",
                                         "attributes": ["might", "might"]}).expect(
        "vestige-card/draw-wrong-stack")


def _observatory_times(times: int) -> Game:
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"cunning": 2}}})
    g.move(1, [19, 25, 31])
    return g.e("visit", seat=1, position="I6", region="observatory", times=times,
               upgrades=["potential"] * times)


@case
def observatory_repeated_twice() -> Game:
    """Legal. p. 30 Observatory: 'Use 1 cunning to upgrade 1 block. Repeatable.' Twice: 2
    cunning, 2 potential upgraded; then seat 1 takes control (1 conviction)."""
    return _observatory_times(2).e("control", seat=1, position="I6").end(1)


@case
def observatory_visited_zero_times() -> Game:
    """p. 13: you cannot visit a region without resolving its effect. A visit resolving the
    Observatory 0 times resolves nothing, so it is no visit, and the control that follows is
    without one."""
    g = _observatory_times(0).expect("vestige-visit/not-resolved")
    return g.e("control", seat=1, position="I6").end(1).expect("vestige-control/no-visit")


def _jump(swap: str | None) -> Game:
    g = Game().opening(starts=(35, 25)).move(1, [35, 40])
    g.e("visit", seat=1, position="O8", region="jump_point")
    return g.e("control", seat=1, position="O8", swap=swap)


@case
def jump_point_control_swaps() -> Game:
    """Legal. p. 30 Jump Point: control swaps it with another region (the Trench, O7)."""
    return _jump("O7").end(1)


@case
def jump_point_control_without_swap() -> Game:
    """p. 30 Jump Point: 'When you gain control of this region, it and another region
    physically swap their positions.' No swap is recorded."""
    return _jump(None).expect("vestige-control/jump-point-swap")


def _manual_setup(covert: tuple[int, ...]) -> Game:
    g = Game()
    g.e("phase", name="setup")
    for seat, (bot, start) in enumerate((("Bartholomew", 19), ("Rusty", 25)), start=1):
        g.card(bot).e("seat_setup", seat=seat, start=start, chop_bot=bot,
                      blocks={"conviction": 4})
        if seat in covert:
            g.e("covert_op", seat=seat, action="draw")
    g.space = {1: 19, 2: 25}
    g.reveal(["C", "I1", "I2", "I3"]).e("endgame_reveal", card="Network Sprawl")
    return g.e("phase", name="setup_end")


@case
def setup_covert_op_each() -> Game:
    """Legal. p. 24 and setup step 7: each player draws 1 covert op at setup."""
    return _manual_setup((1, 2)).round(1).quiet_turn(1, [19, 24])


@case
def setup_covert_op_missing() -> Game:
    """p. 24: 'You start the game with 1 covert op.' Seat 2 draws none."""
    return _manual_setup((1,)).expect("vestige-covert/draw-missing")


def _magenta(draw: bool) -> Game:
    g = _ten_leverage().e("trigger", seat=1, point=1, endgame="Scorched Earth")
    if draw:
        g.e("covert_op", seat=1, action="draw", trigger=1)
    return g.end(1)


@case
def magenta_trigger_draws_covert_op() -> Game:
    """Legal. p. 24: immediately after your disc reaches a magenta trigger (declared: trigger 1),
    draw a covert op from its stack."""
    return _magenta(True)


@case
def magenta_trigger_without_covert_op() -> Game:
    """p. 24: seat 1 reaches magenta trigger 1 and ends its turn without drawing a covert op."""
    return _magenta(False).expect("vestige-covert/draw-missing")


@case
def setup_reveals_endgame_condition() -> Game:
    """Legal. Setup step 8: in a competitive game, randomly reveal 1 endgame condition."""
    return Game().setup().round(1).quiet_turn(1, [19, 24])


@case
def setup_reveals_no_endgame_condition() -> Game:
    """Setup step 8: a competitive game reveals 1 endgame condition at setup; none is revealed."""
    return Game().setup(endgame=False).expect("vestige-setup/endgame-missing")


def _bots(seat2: dict[str, object]) -> Game:
    g = Game()
    g.e("phase", name="setup")
    g.card("Bartholomew").e("seat_setup", seat=1, start=19, chop_bot="Bartholomew",
                            blocks={"conviction": 4})
    g.card("Rusty").card("Cog").e("seat_setup", seat=2, start=25, **seat2)
    return g


@case
def setup_one_chop_bot_each() -> Game:
    """Legal. p. 18: 'You start each game with a single chop bot.'"""
    return _bots({"chop_bot": "Rusty", "blocks": {"conviction": 4}})


@case
def setup_without_chop_bot() -> Game:
    """p. 18: you start with a single chop bot. Seat 2 starts with none."""
    return _bots({"blocks": {"conviction": 4}}).expect("vestige-setup/chop-bot")


@case
def setup_second_chop_bot() -> Game:
    """p. 18: a single chop bot. Seat 2 starts with Rusty and, with a block on it, Cog."""
    return _bots({"chop_bot": "Rusty", "blocks": {"conviction": 3, "cards": {"Cog": 1}}}).expect(
        "vestige-setup/chop-bot")


def _trigger_reveal() -> Game:
    g = _ten_leverage().e("trigger", seat=1, point=1)
    return g.e("covert_op", seat=1, action="draw", trigger=1)


@case
def trigger_reveals_its_endgame_card() -> Game:
    """Legal. p. 25: when a disc reaches a trigger whose stack has an endgame condition, reveal
    it (here recorded as its own event after the trigger)."""
    return _trigger_reveal().e("endgame_reveal", card="Scorched Earth", trigger=1).end(1)


@case
def trigger_reveals_two_endgame_cards() -> Game:
    """p. 25 and setup step 8: one endgame condition card per trigger. Trigger 1 reveals two."""
    g = _trigger_reveal().e("endgame_reveal", card="Scorched Earth", trigger=1)
    return g.e("endgame_reveal", card="Deep Roots", trigger=1).expect(
        "vestige-endgame/reveal-twice")


@case
def trigger_reveals_no_endgame_card() -> Game:
    """p. 25: seat 1 is the first to reach trigger 1; its stack's endgame condition is never
    revealed (the final round is not triggered)."""
    return _trigger_reveal().end(1).expect("vestige-endgame/reveal-missing")


def _augs() -> Game:
    """Seat 1 draws Dispatch, activates her; her ability (as recorded) gains two augmentations,
    both attached to her."""
    g = _dispatch(Game().opening())
    g.e("card", name="Aug A", printed=AUG).e("card", name="Aug B", printed=AUG)
    g.e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", gain_card="Aug A")
    g.e("effect", seat=1, card="Dispatch", via="contact", gain_card="Aug B")
    g.e("attach", seat=1, card="Aug A", to="Dispatch").e("attach", seat=1, card="Aug B",
                                                        to="Dispatch")
    return g.e("effect", seat=1, card="Aug A", via="augmentation")


@case
def augmentation_one_of_two_used() -> Game:
    """Legal. p. 23: if a contact has multiple augmentations, choose which one to activate this
    turn. Dispatch carries two; one is used."""
    return _augs()


@case
def augmentation_two_of_two_used() -> Game:
    """p. 23: one augmentation per activation; both of Dispatch's are used."""
    return _augs().e("effect", seat=1, card="Aug B", via="augmentation").expect(
        "vestige-effect/second-augmentation")


def _aug_move(path: list[int]) -> Game:
    g = _dispatch(Game().opening(starts=(19, 36)).move(1, path))
    g.e("draw", seat=1, stack="smuggler", card="Veil", printed={
        **DISPATCH, "kind": "smuggler", "colour": "cunning", "attributes": ["cunning"] * 2,
        "jobs": ["artifact", "augmentation"]})
    g.e("card", name="Aug A", printed=AUG)
    g.e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", gain_card="Aug A")
    g.e("attach", seat=1, card="Aug A", to="Dispatch")
    return g.e("attach", seat=1, card="Aug A", to="Veil")


@case
def augmentation_moved_at_chop_shop() -> Game:
    """Legal. p. 23: augmentations can be removed from a contact while adjacent to the Chop
    Shop, and attached at any time. On space 24 (next to the Chop Shop I3) Aug A moves from
    Dispatch to Veil."""
    return _aug_move([19, 24])


@case
def augmentation_moved_away_from_chop_shop() -> Game:
    """p. 23: on space 25 (no Chop Shop next to it) Aug A moves from Dispatch to Veil, which
    removes it from Dispatch."""
    return _aug_move([19, 25]).expect("vestige-attach/invalid")


def _bone_one(cards: list[str]) -> Game:
    g = Game(seats=1, mode="solo", nemeses=["bone"], difficulty="nuisance")
    g.setup(reveal_all=True, endgame=False).round(1).turn(1).move(1, [19, 24])
    _dispatch(g).e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", leverage=9)
    g.e("trigger", seat=1, point=1, endgame="Scorched Earth", threats=["Syndicate Lord"])
    g.e("covert_op", seat=1, action="draw", trigger=1).end(1)
    return g.e("nemesis_turn", nemesis="bone", threat=1, leverage=2, cards=cards)


@case
def bone_threat_one_gains_a_mercenary() -> Game:
    """Legal. p. 27 Bone, Threat Level 1: Bone gains 2 leverage and 1 mercenary (Nuisance)."""
    return _bone_one(["Hired Gun"])


@case
def bone_threat_one_gains_no_mercenary() -> Game:
    """p. 27 Bone, Threat Level 1: 2 leverage and 1 mercenary; the turn records none."""
    return _bone_one([]).expect("vestige-nemesis/cards")


@case
def bone_threat_one_gains_three_mercenaries() -> Game:
    """p. 27 Bone, Threat Level 1: 1 mercenary; the turn records 3."""
    return _bone_one(["Hired Gun", "Hired Gun II", "Hired Gun III"]).expect(
        "vestige-nemesis/cards")


FLOAT_MAP = {**MAP, "I2": "floating_stones", "O7": "scrapyard"}


def _floating(control: bool) -> Game:
    """Extra Regions: Floating Stones on I2 (seat 2 starts on 36). Seat 1 (25: next to C, I1, I2) takes the bounty at
    the Archives (the stack shows it), visits Floating Stones (controlling it or not), rolls
    STRAIN and completes the bounty there (2 guile) instead of at the Scrapyard."""
    g = Game(map=FLOAT_MAP)
    g.header["modules"] = ["extra_regions"]
    g.opening(blocks={1: {"conviction": 2, "attributes": {"guile": 2}}}, starts=(19, 36))
    g.move(1, [19, 25])
    g.e("pickup", seat=1, stack="bounty", card="Marked Courier", at="C",
        assignee="Bartholomew", face_up=True)
    g.replace("bounty", "Old Debt", pickup="archives", top="archives")
    g.e("visit", seat=1, position="I2", region="floating_stones")
    if control:
        g.e("control", seat=1, position="I2")
    g.e("roll", seat=1, face="strain")
    return g.e("complete", seat=1, card="Marked Courier", face="strain", pay={"guile": 2},
               floating=True)


@case
def floating_stones_controller_completes() -> Game:
    """Legal. p. 31 Floating Stones: the controller may complete a job by visiting here, rather
    than using the pickup or complete a job action (seat 1 used its job action on the pickup)."""
    return _floating(True).end(1)


@case
def floating_stones_without_control() -> Game:
    """p. 31 Floating Stones: only its controller completes a job there; seat 1 does not control
    it."""
    return _floating(False).expect("vestige-job/floating-stones")


def _mercs(n: int) -> Game:
    g = Game().opening()
    for i in range(1, n + 1):
        g.e("draw", seat=1 + i % 2, stack="mercenary", card=f"Merc {i}")
    return g


@case
def twelve_mercenaries_drawn() -> Game:
    """Legal. Game Components: 12 mercenaries. Card effects draw all 12."""
    return _mercs(12)


@case
def thirteenth_mercenary_drawn() -> Game:
    """Game Components: the box has 12 mercenaries; a 13th is drawn."""
    return _mercs(13).expect("vestige-card/supply")


@case
def face_up_job_not_replaced() -> Game:
    """p. 14: 'If you take the face-up card, immediately replace it by flipping the top card of
    the stack into that place.' Seat 1 takes the face-up bounty and ends its turn without the
    replacement (legal twin: pickup_without_tile_next_to_it)."""
    return _no_at([19, 24]).end(1).expect("vestige-job/face-up-not-replaced")


# --- format gaps (issue 20): what the table did is recorded, then judged -------------------


@case
def speed_boost_without_downgrade() -> Game:
    """p. 12 Temporary Speed Boost: 'This act of desperation requires you to downgrade 1
    power.' Seat 1 boosts and downgrades nothing."""
    g = Game().opening()
    g.e("speed_boost", seat=1)
    return g.expect("vestige-move/boost-unpaid")


def _ridge_paid(pay: dict[str, int]) -> Game:
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"ambition": 2}}})
    g.move(1, [19, 24]).e("visit", seat=1, position="I4", region="lawmaker_ridge", pay=pay)
    return g.e("draw", seat=1, stack="lawmaker", card="Dispatch", printed=DISPATCH)


@case
def lawmaker_ridge_paid_as_recorded() -> Game:
    """Legal. p. 30 Lawmaker Ridge: use 2 ambition; the table records paying 2 ambition."""
    return _ridge_paid({"ambition": 2}).end(1)


@case
def lawmaker_ridge_underpaid() -> Game:
    """p. 30 Lawmaker Ridge costs 2 ambition; the table records paying 1 (followed: 1 ambition
    stays on the mat)."""
    g = _ridge_paid({"ambition": 1})  # the finding is at the visit, before the draw
    g.expected.append({"code": "vestige-visit/wrong-payment",
                       "rule": _rule("vestige-visit/wrong-payment"),
                       "event": len(g.events) - 2, "severity": "error"})
    return g


def _visit_controlled(leverage: int) -> Game:
    """Seat 1 controls the Archives (round 1); seat 2 visits it, giving seat 1 the recorded
    ``leverage`` (the Archives' declared value is 1)."""
    g = Game().setup().round(1).turn(1)
    g.move(1, [19, 24]).e("visit", **VISIT_C).e("control", seat=1, position="C").end(1)
    g.turn(2).move(2, [25, 31])
    return g.e("visit", seat=2, position="C", region="archives", gain=["ambition", "ambition"],
               leverage=leverage)


@case
def visit_pays_controller() -> Game:
    """Legal. p. 13: if you visit a region controlled by another player, the controller gains
    its leverage; the table moves seat 1's disc 1 (the Archives, declared 1)."""
    return _visit_controlled(1).end(2)


@case
def visit_pays_controller_wrong() -> Game:
    """p. 13: seat 2's visit to the Archives gives seat 1 its value, 1; the table gives 2."""
    return _visit_controlled(2).expect("vestige-visit/controller-leverage")


@case
def convert_split_back_recorded() -> Game:
    """p. 9: 'secondary attributes cannot be split back into primary attributes.' The table
    splits 1 guile into ambition and might (recorded as done)."""
    g = Game().opening(blocks={1: {"conviction": 3, "attributes": {"guile": 1}}})
    g.e("convert", seat=1, spend=["guile"], split=["ambition", "might"])
    return g.expect("vestige-convert/invalid")


@case
def takeover_paid_one_conviction() -> Game:
    """p. 17: taking a region from another player costs 2 conviction. Seat 2 records paying 1
    (and has it)."""
    g = Game().setup().round(1).turn(1)
    g.move(1, [19, 24]).e("visit", **VISIT_C).e("control", seat=1, position="C").end(1)
    g.turn(2).move(2, [25, 31])
    g.e("visit", seat=2, position="C", region="archives", gain=["ambition", "ambition"])
    g.e("control", seat=2, position="C", pay=1)
    return g.expect("vestige-control/wrong-cost")


@case
def reroll_without_conviction() -> Game:
    """p. 16 Reroll the Outcome Die: use 1 conviction. Seat 1's reroll records none paid."""
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"intrigue": 2}}})
    g.move(1, [19, 25, 20])
    g.e("pickup", seat=1, stack="artifact", card="Obelisk Heart Shard", at="I1",
        assignee="Bartholomew", face_up=True)
    g.replace("artifact", "Dust Compass", pickup="black_market", top="scrapyard")
    g.e("reset", seat=1, action="job").e("roll", seat=1, face="sever")
    g.e("roll", seat=1, face="strain", reroll=True, conviction=0)
    return g.expect("vestige-job/reroll-unpaid")


@case
def artifact_four_charges() -> Game:
    """p. 22: place 1-3 influence onto a new artifact. The table places 4 (the log records it;
    the engine judges it)."""
    g = _artifact_in_hand()
    g.e("complete", seat=1, card="Obelisk Heart Shard", face="strain", pay={"intrigue": 2},
        charges=4)
    return g.expect("vestige-job/charges")


@case
def blocks_added_from_nothing() -> Game:
    """p. 8: you control 20 blocks and a speed counter. The table adds a 21st to influence."""
    g = Game().opening()
    g.e("blocks_added", seat=1, dst="influence", n=1, reason="miscount")
    return g.expect("vestige-blocks/created")


@case
def nemesis_disc_triggers_stack() -> Game:
    """p. 26: nemeses' scoring discs do not trigger stacks around the leverage track. Bone's
    disc is recorded triggering trigger 1 (its endgame condition revealed)."""
    g = _solo().quiet_turn(1, [19, 24])
    g.e("trigger", nemesis="bone", point=1, endgame="Scorched Earth")
    return g.expect("vestige-trigger/nemesis")


@case
def severed_chop_bot_activated() -> Game:
    """p. 15 SEVER: the contact or chop bot is lost. Bartholomew is severed completing the
    artifact; seat 1 activates him in its next turn (the finding cites SEVER)."""
    from engine.vestige.cards import SEVER_RULE

    g = _artifact_in_hand().e("roll", seat=1, face="sever", reroll=True)
    g.e("complete", seat=1, card="Obelisk Heart Shard", face="sever", pay={"intrigue": 2},
        charges=1).end(1)
    g.quiet_turn(2, [25, 31]).round(2).turn(1)
    g.e("activate", seat=1, card="Bartholomew", gain=["might"])
    return g.expect("vestige-activate/not-character", SEVER_RULE)
