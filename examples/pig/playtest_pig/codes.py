"""Every finding code the Pig ruleset reports, with the rule section it enforces.

Sections are those of the rules in ``examples/pig/README.md``. Codes are stable: tests and the
sample game depend on them. Add new codes at the end of their group; never rename one.
"""

from __future__ import annotations

from engine.api import CORE_RULES, Catalogue, Rule

R = "Pig rules (examples/pig/README.md)"
PLAYERS = f"{R} §1.2 Players"
SEATS = f"{R} §2.1 Seats"
FIRST = f"{R} §2.4 First player"
ONE = f"{R} §3.2 Rolling a one"
TWO_TO_SIX = f"{R} §3.3 Rolling two to six"
HOLD = f"{R} §3.4 Holding"
ROLL_FIRST = f"{R} §3.5 Roll first"
ORDER = f"{R} §3.6 Order of play"
TARGET = f"{R} §4.1 Reaching the target"
EQUAL = f"{R} §4.2 Equal turns (house rule)"
RECORD = f"{R} §5.2 Keeping the record"

PIG_RULES: list[Rule] = [
    Rule("pig-setup/players", PLAYERS, "fewer than two players"),
    Rule("pig-setup/seats", SEATS, "seats are not numbered 1..N without gaps"),
    Rule("pig-setup/first-player", FIRST, "the first player is not a seat at the table"),
    Rule("pig-setup/rulings", f"{R} §4.2 (the end rule is the table's choice: rulings)",
         "the header names a ruling set or option that does not exist"),
    Rule("pig-turn/not-your-turn", ORDER, "a seat rolled or held during another seat's turn"),
    Rule("pig-turn/rolled-after-one", ONE, "the seat that rolled a 1 went on with its turn"),
    Rule("pig-hold/before-roll", ROLL_FIRST, "a hold before any roll of the turn"),
    Rule("pig-end/winner", TARGET, "the final record names other winners than the rules give"),
    Rule("pig-end/not-over", TARGET, "the final record closes a game the rules have not ended"),
    Rule("log/partial", f"{R} §5.1 (the log ends before the game ends)",
         "the log ends before the game ends; only what was recorded was checked", "info"),
]

CATALOGUE = Catalogue(CORE_RULES + PIG_RULES)
