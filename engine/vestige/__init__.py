"""Vestige: the replay engine. Importing registers the ruleset."""

from engine.core.registry import register, rulesets
from engine.vestige.ruleset import RULESET, VestigeRuleset

rulesets()  # make sure the built-in rulesets are loaded before this one registers
register(RULESET)

__all__ = ["RULESET", "VestigeRuleset"]
