"""Vestige: the replay engine. ``RULESET`` is the game's declaration, registered through the
``playtest.games`` entry point ``vestige = "engine.vestige:RULESET"`` (engine/core/registry.py)."""

from engine.vestige.ruleset import RULESET, VestigeRuleset

__all__ = ["RULESET", "VestigeRuleset"]
