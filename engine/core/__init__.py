"""The game-agnostic replay core: the game declaration and its registry (discovered through the
``playtest.games`` entry points), the replay fold, findings, checkpoints and rulings."""

from engine.core.findings import Catalogue, FindingSink, Rule
from engine.core.game import (
    ENTRY_POINT_GROUP,
    Format,
    Game,
    GameDeclarationError,
    Page,
    Vocabulary,
)
from engine.core.options import Rulings, RulingsError, resolve_options
from engine.core.registry import get_ruleset, register, rulesets
from engine.core.replay import LedgerEntry, Outcome, ReplayResult, replay, replay_to
from engine.core.ruleset import Decision, Ruleset

#: the core's modules the optional compiled engine compiles with mypyc (setup.py reads this
#: tuple from the source, with each declared game's own ``COMPILED_MODULES``; docs/engine.md
#: "The compiled engine (optional)"): the replay's fold and its findings
COMPILED_MODULES: tuple[str, ...] = ("findings", "replay")

__all__ = [
    "ENTRY_POINT_GROUP",
    "Catalogue",
    "Decision",
    "FindingSink",
    "Format",
    "Game",
    "GameDeclarationError",
    "LedgerEntry",
    "Outcome",
    "Page",
    "ReplayResult",
    "Rule",
    "Ruleset",
    "Rulings",
    "RulingsError",
    "Vocabulary",
    "get_ruleset",
    "register",
    "replay",
    "replay_to",
    "resolve_options",
    "rulesets",
]
