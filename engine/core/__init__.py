"""The game-agnostic replay core: ruleset registry, replay fold, findings and checkpoints."""

from engine.core.findings import Catalogue, FindingSink, Rule
from engine.core.registry import get_ruleset, register, rulesets
from engine.core.replay import LedgerEntry, Outcome, ReplayResult, replay, replay_to
from engine.core.ruleset import Decision, Ruleset

__all__ = [
    "Catalogue",
    "Decision",
    "FindingSink",
    "LedgerEntry",
    "Outcome",
    "ReplayResult",
    "Rule",
    "Ruleset",
    "get_ruleset",
    "register",
    "replay",
    "replay_to",
    "rulesets",
]
