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


def test_the_page_bench_times_only_the_pages_asked(tmp_path) -> None:
    """``python -m cli.bench.pages DB REPEAT Games,Audit``: those pages only, in the app's
    order; a title that is no page is refused before any page runs."""
    import io

    from cli.bench import pages

    out = io.StringIO()
    status = pages.print_page_times(tmp_path / "none.duckdb", 0, out, only=("Audit", "Games"))
    lines = out.getvalue().splitlines()
    timed = [ln.split("  ")[0].strip() for ln in lines[3:]]  # the note, then two header lines
    assert status == 0, out.getvalue()
    assert timed == [t for t in pages.PAGES if t in ("Audit", "Games")]
    with pytest.raises(ValueError, match="no page titled"):
        pages.page_times(tmp_path / "none.duckdb", 0, only=("No such page",))


def test_the_page_bench_compiles_a_page_script_once_as_the_server_does() -> None:
    """AppTest makes a new compiled-script cache per run; the page bench shares one across its
    runs (the served app's runtime has one), and puts AppTest's own back afterwards."""
    from streamlit.testing.v1 import app_test

    from cli.bench.pages import _one_script_cache

    before = app_test.ScriptCache
    restore = _one_script_cache()
    try:
        assert app_test.ScriptCache() is app_test.ScriptCache()
    finally:
        restore()
    assert app_test.ScriptCache is before
    assert app_test.ScriptCache() is not app_test.ScriptCache()
