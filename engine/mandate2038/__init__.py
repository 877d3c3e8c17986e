"""Mandate 2038 (rules 0.8.0-rc.17-test): the replay engine. Importing registers the ruleset."""

from engine.core.registry import register
from engine.mandate2038.ruleset import RULESET, MandateRuleset

register(RULESET)

__all__ = ["RULESET", "MandateRuleset"]
