"""Every finding code the Vestige ruleset reports, with the rulebook page and section it enforces.

Rules cite the Vestige rulebook (``shared/seeds/003_e5f8d543c73887da.txt``) by page and the
heading a designer finds there. Codes are stable: tests, golden games and dashboards depend on
them. Add new codes at the end of their group; never rename one.
"""

from __future__ import annotations

from engine.core.findings import CORE_RULES, Catalogue, Rule

V = "Vestige rulebook"
SETUP = f"{V} pp. 6-7, 5-Minute Setup"
BLOCKS = f"{V} p. 8, Dashboard & Blocks"
ATTR = f"{V} p. 9, Attributes"
SUMMARY = f"{V} p. 10, Game Summary"
TURNS = f"{V} p. 10, Turns & Actions"
ACTIVATE = f"{V} p. 11, Main Actions: Activate"
MOVE = f"{V} p. 12, Main Actions: Move (Mandatory)"
VISIT = f"{V} p. 13, Main Actions: Visit or Rest"
JOBS = f"{V} pp. 14-15, Main Actions: Pickup or Complete a Job"
RESET = f"{V} p. 16, Main Actions: Tracking and Resetting"
BONUS = f"{V} p. 16, Bonus Actions"
CONTROL = f"{V} p. 17, Control Regions"
CHOP = f"{V} pp. 18-19, Chop Bots"
CONTACTS = f"{V} pp. 20-21, Contacts"
ARTIFACTS = f"{V} p. 22, Artifacts"
AUGS = f"{V} p. 23, Augmentations"
COVERT = f"{V} p. 24, Covert Ops"
ENDGAME = f"{V} p. 25, Endgame Conditions, Ending the Game"
TRIGGERS = f"{V} p. 25, Leverage Track Triggers"
NEMESIS = f"{V} pp. 26-27, Nemesis Play"
MODES = f"{V} pp. 28-29, Game Modes"
REGIONS = f"{V} pp. 30-31, Base Game Map Regions"
BASE_REGIONS = f"{V} p. 30, Base Game Map Regions"
EXTRA = f"{V} p. 31, Map Regions Module: Extra Regions"
COMPONENTS = f"{V} Game Components (the component list at the front; its page is not printed)"
UPDOWN = f"{BLOCKS}, Upgrading & Downgrading"
COOP = f"{V} p. 29, Game Modes: Cooperative"

VESTIGE_RULES: list[Rule] = [
    # setup and modes
    Rule("vestige-setup/seats", f"{SETUP}, step 1 (Choose Colors)", "seats must be numbered 1..N without gaps, one colour each"),
    Rule("vestige-setup/mode", MODES, "the mode's players, teams or nemeses are not as the mode requires"),
    Rule("vestige-setup/blocks", f"{BLOCKS} (8 influence, 8 potential; 20 blocks in all)", "a seat's starting blocks are not 8 influence, 8 potential and 20 in all"),
    Rule("vestige-setup/duplicate", f"{SETUP}, step 3 (Draw Setup Cards: one each)", "a seat was set up twice"),
    Rule("vestige-setup/missing", f"{SETUP}, step 3 (Draw Setup Cards)", "a seat took a turn without being set up", "warning"),
    Rule("vestige-setup/start-occupied", f"{MOVE} (never on the same space as another pawn)", "two pawns start on the same space"),
    Rule("vestige-setup/endgame-reveal", f"{SETUP}, step 8 (solo, team and one co-op team do not reveal one)", "an endgame condition was revealed at setup where the mode forbids it, or more than one"),
    Rule("vestige-setup/map", f"{SETUP}, step 6 (19 tiles: the 13 with a lock and 6 others)", "the map's tiles break the setup rule or the supply of tiles"),
    Rule("vestige-setup/tile-mismatch", f"{SETUP}, step 6 (tiles keep their places)", "a tile was revealed as a different region than the map records"),
    Rule("vestige-setup/rulings", "unclear rules as named options (data/content/vestige/rulings; docs/vestige.md)", "the header names an unknown ruling set, ruling or option; the defaults were used"),
    Rule("vestige-setup/chop-bot", f"{CHOP} (You start each game with a single chop bot) and {SETUP}, step 3", "a seat started with no chop bot, a second one, or one another seat holds"),
    Rule("vestige-setup/endgame-missing", f"{SETUP}, step 8 (randomly reveal 1 of the remaining endgame condition cards)", "a game whose mode reveals one endgame condition at setup revealed none"),
    # cards: recorded, not known
    Rule("vestige-card/unrecorded", f"{V} p. 18, Network & Tableau (cards are recorded at first appearance)", "a card was used before its printed values were recorded; checks that need them were skipped", "warning"),
    Rule("vestige-card/contradicts", f"{V} p. 18, Network & Tableau (a card's printed values do not change)", "a record or event contradicts the card's printed values"),
    Rule("vestige-card/not-owned", f"{V} p. 18, Network & Tableau (your tableau)", "the card is not in the seat's tableau"),
    Rule("vestige-card/surveil", f"{BONUS}, Surveil (each conviction draws 2 more cards)", "the cards drawn do not match the surveil paid"),
    Rule("vestige-card/draw-missing", f"{REGIONS} (Chop Shop, Lawmaker Ridge, Mercenary Camp, Smugglers' Lair, the Underground: the effect adds a card)", "a visit that adds a card to the network was not followed by the card drawn"),
    Rule("vestige-card/in-play", f"{COMPONENTS} (each card is one component) and {V} p. 18, Network & Tableau", "a card was drawn that is already in a tableau"),
    Rule("vestige-card/draw-order", f"{REGIONS} (the effect adds a card: it is drawn when the visit resolves)", "the card a visit adds was recorded before the visit (two lines out of order)", "warning"),
    Rule("vestige-card/wrong-kind", f"{V} p. 18, Network & Tableau (card types)", "the card is not of a type this action uses"),
    Rule("vestige-card/draw-wrong-stack", f"{BASE_REGIONS} (Lawmaker Ridge, Mercenary Camp, Smugglers' Lair: that contact type; the Underground: the type chosen; the Chop Shop: a chop bot)", "the card drawn after a visit is not from the stack the region's effect names"),
    Rule("vestige-card/supply", f"{COMPONENTS}: 12 each of lawmakers, mercenaries, smugglers, chop bots, artifacts, augmentations and bounties; 24 covert ops; 9 endgame conditions", "more cards of a kind are out of their stack than the box holds"),
    # rounds and turns
    Rule("vestige-round/out-of-order", f"{SUMMARY} (rounds of turns)", "a round is out of sequence"),
    Rule("vestige-turn/out-of-order", f"{SUMMARY} (the starting player, then clockwise)", "a turn was taken out of clockwise order"),
    Rule("vestige-turn/not-your-turn", TURNS, "a seat acted outside its turn"),
    Rule("vestige-turn/action-repeated", f"{TURNS} (each of the 4 main actions once)", "a main action was taken twice without a reset"),
    Rule("vestige-turn/reset-twice", f"{RESET} (each action may be reset only once per turn)", "an action was reset twice in one turn"),
    Rule("vestige-turn/reset-unused", f"{RESET} (slide a used action back up)", "an action was reset before it was taken", "warning"),
    Rule("vestige-turn/end-missing", f"{TURNS} (the starting player takes a turn, then play continues clockwise) and {RESET} (at the end of your turn, slide the discs back up)", "a turn was closed by the next turn, round or phase without its turn_end line", "warning"),
    Rule("vestige-turn/no-move", f"{MOVE} (the only mandatory action)", "a turn ended without a move"),
    Rule("vestige-turn/missing", f"{SUMMARY} (every player takes a turn each round)", "a round ended without a seat's turn"),
    Rule("vestige-blocks/direction", f"{UPDOWN} (upgrade: one hex right, potential to influence or influence to conviction; downgrade: one hex left)", "a block was upgraded from conviction or downgraded from potential"),
    Rule("vestige-blocks/created", f"{BLOCKS} (you control 21 blocks in your color, 20 blocks and 1 speed counter)", "blocks were put into play from nothing"),
    Rule("vestige-visit/wrong-payment", f"{VISIT} (fully resolve the effect) and {BASE_REGIONS} (each region's cost)", "the table paid other than the region's cost"),
    Rule("vestige-visit/controller-leverage", f"{VISIT} and {CONTROL} (the controlling player gains the region's leverage when another visits; none for your own)", "the leverage the table gave the region's controller differs from the rules"),
    Rule("vestige-control/wrong-cost", f"{CONTROL} (1 conviction; 2 if controlled by another player)", "the table paid other than the control cost"),
    Rule("vestige-job/reroll-unpaid", f"{BONUS}, Reroll the Outcome Die (use 1 conviction)", "a reroll paid other than 1 conviction"),
    Rule("vestige-trigger/nemesis", f"{NEMESIS} (nemeses' scoring discs do not trigger stacks around the leverage track)", "a nemesis's disc was recorded triggering a stack"),
    Rule("vestige-blocks/unaffordable", f"{BLOCKS} and {ATTR} (you cannot spend what you do not have)", "a cost or placement needs blocks the seat does not have there"),
    # activate
    Rule("vestige-activate/not-character", f"{ACTIVATE} (one of your contacts or chop bots)", "only a contact or chop bot in the tableau can be activated"),
    Rule("vestige-activate/wrong-attributes", f"{ACTIVATE}; {CHOP} (1 primary of your choice); {CONTACTS} (the attributes shown)", "the attributes gained differ from the card's"),
    # move
    Rule("vestige-move/wrong-start", MOVE, "the move does not start where the pawn stands"),
    Rule("vestige-move/too-short", f"{MOVE} (at least 1 space; never end where you began)", "the pawn did not move, or ended where it began"),
    Rule("vestige-move/too-far", f"{MOVE} (up to your movement speed; +2 with a boost)", "the move is longer than the pawn's speed"),
    Rule("vestige-move/not-adjacent", f"{MOVE} (on the spaces between the tiles)", "a step of the path is not to a neighbouring space"),
    Rule("vestige-move/occupied", f"{MOVE} (cannot end on another pawn)", "the move ends on a space another pawn occupies"),
    Rule("vestige-move/reveal-missing", f"{MOVE}, Revealing Locations (flip tiles next to the pawn)", "a face-down tile next to the path was not flipped"),
    Rule("vestige-move/reveal-invalid", f"{MOVE}, Revealing Locations", "a flipped tile was not face down or not next to the path"),
    Rule("vestige-move/boost-unpaid", f"{MOVE}, Temporary Speed Boost (this act of desperation requires you to downgrade 1 power)", "a speed boost without its downgrade"),
    Rule("vestige-move/boost-twice", f"{MOVE}, Temporary Speed Boost (once per turn)", "a second speed boost in one turn"),
    # visit and regions
    Rule("vestige-visit/not-adjacent", f"{VISIT} (a tile adjacent to your pawn)", "the visited tile is not adjacent to the pawn"),
    Rule("vestige-visit/wrong-region", VISIT, "the recorded region is not the tile at that position"),
    Rule("vestige-visit/repeat-arrow", f"{VISIT} (arrow effects once per visit; colon effects repeatable)", "a once-per-visit effect was resolved more than once"),
    Rule("vestige-visit/not-resolved", f"{VISIT} (you cannot visit a region without resolving its effect; effects cannot be partially resolved)", "a visit resolved its region's effect zero times, or the effect cannot be resolved"),
    Rule("vestige-visit/wrong-effect", f"{VISIT} (fully resolve the tile's effect) and {REGIONS}", "the recorded resolution is not the region's effect"),
    # jobs
    Rule("vestige-job/pickup-not-adjacent", f"{JOBS}, Picking Up Jobs (adjacent to the tile the stack indicates)", "the job was picked up away from its tile"),
    Rule("vestige-job/pickup-wrong-region", f"{JOBS}, Picking Up Jobs (the top card indicates where)", "the job's pickup region differs from the tile it was taken at"),
    Rule("vestige-job/incapable", f"{JOBS} (a character capable of that job type); {CONTACTS}", "the assignee does not specialise in this job type"),
    Rule("vestige-job/assignee-busy", f"{JOBS} (a character can only be on one job at a time)", "the assignee already has a job"),
    Rule("vestige-job/face-up-mismatch", f"{JOBS}, Picking Up Jobs (take the face-up card or draw)", "the face-up card taken is not the one displayed"),
    Rule("vestige-job/wrong-stack", f"{JOBS} (artifacts, augmentations and bounties are jobs)", "the job card is not of the stack's type"),
    Rule("vestige-job/not-assigned", f"{JOBS}, Completing Jobs (a job someone in your network is on)", "the completed job is not assigned in the seat's network"),
    Rule("vestige-job/complete-not-adjacent", f"{JOBS}, Completing Jobs (adjacent to the location on the job)", "the job was completed away from its completion tile"),
    Rule("vestige-job/no-roll", f"{JOBS}, Completing Jobs (roll and resolve the outcome die first)", "the job was completed without rolling the die"),
    Rule("vestige-job/face-not-rolled", f"{JOBS}, Adjust Your Roll (choose between the results rolled)", "the chosen die result was not rolled"),
    Rule("vestige-job/wrong-cost", f"{JOBS} (die first, then pay; EFFICIENT reduces the cost by 1 attribute)", "the attributes paid differ from the job's cost after the die"),
    Rule("vestige-job/charges", f"{ARTIFACTS} (place 1-3 influence on it)", "an artifact entered the tableau with other than 1-3 charges"),
    Rule("vestige-job/attach-not-contact", f"{AUGS} (tuck beneath a contact)", "an augmentation was attached to something other than a contact"),
    Rule("vestige-job/reroll-without-roll", f"{BONUS}, Reroll the Outcome Die", "a reroll came before any roll"),
    Rule("vestige-job/face-up-not-replaced", f"{JOBS}, Picking Up Jobs (if you take the face-up card, immediately replace it by flipping the top card of the stack)", "a face-up job was taken and not replaced before play went on, or taken again while its place was empty"),
    Rule("vestige-job/stack-top-mismatch", f"{JOBS}, Picking Up Jobs (the face-up replacement is the stack's top card)", "the card flipped face up does not show the region the stack's top card showed"),
    Rule("vestige-job/floating-stones", f"{EXTRA}, Floating Stones (the controller may complete a job by visiting here; limit 1 per visit)", "a job completed through Floating Stones by a seat that does not control it or did not visit it, or twice in one visit"),
    Rule("vestige-job/die-result", f"{JOBS}, Outcome Die Results", "the die result was not resolved as the rules say"),
    # bonus actions
    Rule("vestige-convert/invalid", f"{ATTR}, Converting Attributes (2 different primaries into the secondary between them)", "an invalid conversion"),
    Rule("vestige-recover/from-potential", f"{BONUS}, Recover Influence (except from potential or the speed track)", "blocks were recovered from potential"),
    Rule("vestige-recover/card-blocks", f"{BONUS}, Recover Influence (the card is abandoned: all its blocks return)", "recovering from a card did not return every block on it"),
    Rule("vestige-recover/reassign", f"{JOBS}, Recovering Contacts with Jobs (to an eligible character with no job)", "the job was reassigned to an ineligible character"),
    Rule("vestige-control/no-visit", f"{CONTROL} (visit the region before or after you gain control)", "a region was controlled in a turn that did not visit it"),
    Rule("vestige-control/twice", f"{CONTROL}, Fine Print (never the same region more than once in a turn)", "the same region was controlled twice in one turn"),
    Rule("vestige-control/jump-point-swap", f"{BASE_REGIONS}, Jump Point (when you gain control, it and another region swap positions)", "control of the Jump Point without a swap with another region"),
    Rule("vestige-control/own", f"{CONTROL} (you cannot take what you control)", "the seat already controls the region"),
    Rule("vestige-artifact/twice", f"{ARTIFACTS}, Using Artifacts (each artifact once per turn)", "an artifact was used twice in one turn"),
    Rule("vestige-artifact/no-charge", f"{ARTIFACTS}, Using Artifacts (return a charge to use it)", "an artifact was used without a charge"),
    Rule("vestige-artifact/overcharged", f"{ARTIFACTS} and {REGIONS}, Generator (no more than 3 influence)", "an artifact holds more than 3 charges"),
    Rule("vestige-effect/inactive-contact", f"{ACTIVATE} (the ability is available the turn you activate)", "a contact's ability was used in a turn it was not activated"),
    Rule("vestige-effect/passive-inactive", f"{CHOP}, Passive Abilities (2 or more blocks)", "a chop bot's passive was used with fewer than 2 blocks on it"),
    Rule("vestige-effect/second-augmentation", f"{AUGS}, Using Augmentations (if a contact has multiple augmentations, you must choose which one to activate this turn)", "a second augmentation of the same contact was used in one turn"),
    Rule("vestige-share/invalid", f"{COOP}, Gameplay: Shared Card Effects (the active player may keep, give or split a card's effect with a consenting teammate)", "a card's effect was shared outside co-op, with oneself, or used by a teammate it was not given to"),
    Rule("vestige-attach/invalid", f"{AUGS} (attach any time; remove next to the Chop Shop)", "an augmentation was attached or removed illegally"),
    Rule("vestige-covert/flip-invalid", f"{COVERT} (flip a covert op you hold, once)", "a covert op was flipped that the seat does not hold, or twice"),
    Rule("vestige-covert/draw-missing", f"{COVERT}, Running Covert Ops (you start with 1 covert op; draw one immediately after your disc reaches a magenta trigger) and {SETUP}, step 7", "a seat started play without its covert op, or reached a magenta trigger and drew none"),
    Rule("vestige-covert/draw-invalid", f"{COVERT} (one per magenta trigger reached; crossing again gains none)", "a covert op was drawn at a trigger the seat did not reach, not magenta, or twice"),
    Rule("vestige-transfer/invalid", f"{MODES}, Cooperative: Card Transfers (co-op only, no blocks on it, pawns adjacent)", "an illegal card transfer"),
    # leverage track
    Rule("vestige-trigger/not-reached", f"{TRIGGERS} (when a disc reaches or passes a trigger)", "a trigger was recorded that the seat's leverage has not reached"),
    Rule("vestige-trigger/repeated", f"{TRIGGERS} and {COVERT} (crossing the same point again gains nothing)", "the same trigger was recorded twice for a seat"),
    Rule("vestige-trigger/missing", TRIGGERS, "a seat's leverage passed a trigger that was not recorded"),
    # endgame
    Rule("vestige-endgame/not-revealed", f"{ENDGAME}, Completing endgame conditions (active cards)", "a condition was met that is not revealed"),
    Rule("vestige-endgame/already-met", f"{ENDGAME} (an endgame condition can't be unmet)", "a condition was recorded met twice"),
    Rule("vestige-endgame/reveal-after-final", f"{SUMMARY}, Game End (no more endgame cards are revealed)", "an endgame condition was revealed after the final round was triggered"),
    Rule("vestige-endgame/round-after-final", f"{ENDGAME} (the next round becomes the final round)", "a round was played after the final round"),
    Rule("vestige-endgame/early-end", f"{ENDGAME} (2 met, 3 solo; players get an equal number of turns)", "the game ended before its final round was complete"),
    Rule("vestige-endgame/reveal-not-triggered", f"{ENDGAME}, Revealing endgame conditions (at a trigger point reached)", "an endgame condition was revealed at a trigger nobody reached"),
    Rule("vestige-endgame/reveal-twice", f"{ENDGAME}, Revealing Endgame Conditions (one endgame condition card per trigger stack)", "a second endgame condition was revealed from one trigger's stack"),
    Rule("vestige-endgame/reveal-missing", f"{ENDGAME}, Revealing endgame conditions (when a disc reaches a trigger whose stack has an endgame card, reveal it)", "the first human to reach a trigger revealed no endgame condition before the final round was triggered"),
    Rule("vestige-final/mismatch", f"{ENDGAME}, Step 1: Endgame Scoring and Step 2: Claim Mastery", "a recorded endgame score differs from the rules"),
    Rule("vestige-final/winners", f"{ENDGAME} (most leverage wins; a tie means everyone loses) and {MODES}", "the recorded winners differ from the rules"),
    # nemeses
    Rule("vestige-nemesis/unknown", NEMESIS, "a nemesis not in the game"),
    Rule("vestige-nemesis/out-of-order", f"{NEMESIS}, Nemesis Turn (each round after all players, left to right)", "a nemesis turn out of order"),
    Rule("vestige-nemesis/threat-level", f"{NEMESIS}, Threat (threat cards in the column)", "the threat level resolved differs from the column"),
    Rule("vestige-nemesis/leverage", f"{NEMESIS}, Example Nemesis: Bone (Nuisance: current level; Menace: it and all below)", "the nemesis turn's leverage differs from its threat table"),
    Rule("vestige-nemesis/cards", f"{NEMESIS}, Example Nemesis: Bone (Threat Level 1: 2 leverage and 1 mercenary)", "the cards a nemesis turn gained differ from its threat table"),
    Rule("vestige-nemesis/goal", f"{NEMESIS}, Unique Goal (a nemesis that completed its at-game-end objective wins) and Example Nemesis: Bone (9 or more regions)", "the recorded nemesis goal contradicts the rules (Bone's goal is not met, or the nemesis is not in the game)"),
    Rule("vestige-nemesis/missing-turn", f"{NEMESIS}, Nemesis Turn", "a round ended without a nemesis's turn"),
    # partial logs
    Rule("vestige-partial/negative-leverage", f"{SUMMARY} (leverage is tracked on the track)", "a recorded leverage is negative"),
    Rule("vestige-partial/blocks-total", f"{BLOCKS} (20 blocks)", "a checkpoint's blocks exceed the seat's 20"),
    Rule("log/partial", "checkpoints and partial logs (docs/engine.md, Design)", "the log ends before the game ends; only what was recorded was checked", "info"),
]

CATALOGUE = Catalogue(CORE_RULES + VESTIGE_RULES)
