"""Synthetic logs are a game's declared capability (``Game.synthetic_log``): the benches take
the declared generator and name no game; a reference that does not resolve is refused."""

from __future__ import annotations

import copy

import pytest

from cli.bench import synthetic_source
from engine.core.game import GameDeclarationError, check_declaration
from engine.core.registry import get_ruleset


@pytest.mark.needs_game("vestige")
def test_a_synthetic_log_that_does_not_resolve_is_refused() -> None:
    declared = copy.copy(get_ruleset("vestige"))
    declared.synthetic_log = "engine.vestige.ruleset:no_such_generator"  # type: ignore[union-attr]
    with pytest.raises(GameDeclarationError, match="synthetic_log .* does not resolve"):
        check_declaration(declared)


@pytest.mark.needs_game("mandate2038")
def test_the_benches_take_the_declared_generator() -> None:
    """Mandate 2038 declares its generator; the benches find it through the registry."""
    mandate = get_ruleset("mandate2038")
    assert mandate is not None
    assert mandate.synthetic_log == "ingest.mandate2038.synthetic:synthetic_log"
    game, generator = synthetic_source()
    assert game == "mandate2038"
    assert generator(1, events_target=40).events
    assert synthetic_source("mandate2038")[0] == "mandate2038"
    with pytest.raises(LookupError, match="declares synthetic_log"):
        synthetic_source("no_such_game")
