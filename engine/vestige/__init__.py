"""Vestige: the replay engine. Importing registers the ruleset (the registry imports every
built-in ruleset package, engine.core.registry.BUILTIN)."""

from engine.core.registry import register
from engine.vestige.ruleset import RULESET, VestigeRuleset

register(RULESET)

__all__ = ["RULESET", "VestigeRuleset"]
