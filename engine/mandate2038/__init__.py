"""Mandate 2038 (rules 0.8.0-rc.17-test): the replay engine. ``RULESET`` is the game's
declaration, registered through the ``playtest.games`` entry point
``mandate2038 = "engine.mandate2038:RULESET"`` (engine/core/registry.py)."""

from engine.mandate2038.ruleset import RULESET, MandateRuleset

__all__ = ["RULESET", "MandateRuleset"]
