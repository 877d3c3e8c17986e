"""Pig, the traditional dice game, as a game package of the playtest toolkit.

Rules, log format and findings: ``examples/pig/README.md``. The toolkit finds this game through
its entry-point group (``pyproject.toml``); nothing in the toolkit names it.
"""

from __future__ import annotations

from playtest_pig.ruleset import RULESET, PigRuleset

#: the game's declaration, named by the ``playtest.games`` entry point
GAME = RULESET

__all__ = ["GAME", "RULESET", "PigRuleset"]
