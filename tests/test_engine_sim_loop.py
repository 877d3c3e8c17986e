"""The simulator's loop shortcuts (engine speed, issue 7) play exactly the plain loop's games:
``after_types`` (the after-event hook called only after the events that can return something),
a ruleset's ``simulation_moves()`` (its move generator called directly instead of through
``legal_moves(..., lazy=True)``) and ``apply_locates`` (the ruleset's apply sets the sink's
location; the loop applies the chosen event inline). Whole games of every player count are
played both ways and their logs compared byte for byte. Also the engine's lookup tables that
replace small functions (``Content.customer_requirement``)."""

from __future__ import annotations

import random
from typing import Any

from engine.core.registry import get_ruleset
from engine.mandate2038 import simulation as msim
from engine.mandate2038.bots import make_bot
from engine.simulate import simulate_game
from schemas.canonical import dumps_log
from schemas.packs import load_pack


class _Plain:
    """The Mandate 2038 ruleset without ``simulation_moves`` and ``apply_locates`` (the loop
    falls back to ``legal_moves(..., lazy=True)`` and locates the sink from ``location``)."""

    def __init__(self, ruleset: Any) -> None:
        self._rs = ruleset

    def __getattr__(self, name: str) -> Any:
        if name in ("simulation_moves", "apply_locates"):
            return None  # a declared member left unset (engine/core/game.py): not offered
        return getattr(self._rs, name)


def _game(seed: str, index: int, players: int, plain: bool) -> str:
    """Game ``index`` as ``msim.simulate_one`` plays it; ``plain``: with the hook after every
    event and the ruleset's ``legal_moves``."""
    ruleset = get_ruleset("mandate2038")
    pack = load_pack("mandate2038", "0.8.0-rc.17-test")
    rng = random.Random(f"{seed}:{index}")
    seat_bots = [rng.choice(("random", "heuristic")) for _ in range(players)]
    header = msim.game_header(pack, players, rng, seat_bots, seed=seed, index=index)
    bots = {i + 1: make_bot(b, random.Random(f"{seed}:{index}:bot{i + 1}"))
            for i, b in enumerate(seat_bots)}
    if plain:
        log = simulate_game(_Plain(ruleset), header, bots, rng,
                            after_event=msim._mandate_checkpoints)
    else:
        log = simulate_game(ruleset, header, bots, rng, after_event=msim._mandate_checkpoints,
                            after_types=msim._AFTER_TYPES)
    return dumps_log(log)


def test_loop_shortcuts_play_the_plain_loops_games() -> None:
    for players in (3, 4, 5):
        for i in range(2):
            fast = _game("loop", i, players, plain=False)
            assert fast == _game("loop", i, players, plain=True)
            assert '"checkpoint"' in fast  # the hook did add the Era checkpoints
    # and it is the simulator's own game
    assert _game("loop", 0, 4, plain=False) == dumps_log(msim.simulate_one("loop", 0, 4, "mixed"))


def test_customer_requirement_table_is_the_plain_lookup() -> None:
    c = get_ruleset("mandate2038").content()
    req = c.customer_capability
    for ordinal in range(-2, len(req) + 3):
        plain = req[ordinal - 1] if 1 <= ordinal <= len(req) else None
        assert c.customer_requirement(ordinal) == plain


class _Disagrees:
    """The Mandate 2038 ruleset whose ``apply`` also reports a finding on the tenth event: the
    loop must stop there and name the event and the finding (in both of its apply paths)."""

    def __init__(self, ruleset: Any, plain: bool) -> None:
        self._rs, self._plain = ruleset, plain

    def __getattr__(self, name: str) -> Any:
        if self._plain and name in ("simulation_moves", "apply_locates"):
            return None  # a declared member left unset: not offered
        return getattr(self._rs, name)

    def apply(self, state: Any, event: Any, sink: Any) -> None:
        self._rs.apply(state, event, sink)
        if sink.event == 10:
            sink.report("checkpoint/mismatch", "planted by the test")


def test_a_finding_on_a_legal_move_stops_the_game_naming_it() -> None:
    import pytest

    from engine.simulate import SimulationError

    ruleset = get_ruleset("mandate2038")
    pack = load_pack("mandate2038", "0.8.0-rc.17-test")
    for plain in (False, True):
        rng = random.Random("stop:0")
        header = msim.game_header(pack, 4, rng, ["random"] * 4, seed="stop", index=0)
        bots = {i + 1: make_bot("random", random.Random(f"stop:bot{i}")) for i in range(4)}
        with pytest.raises(SimulationError) as err:
            simulate_game(_Disagrees(ruleset, plain), header, bots, rng)
        assert len(err.value.events) == 11
        assert str(err.value).startswith(f"event 10 ({err.value.events[10].type}) produced finding "
                                          "checkpoint/mismatch: planted by the test")


def test_an_unknown_decision_kind_is_an_error_not_the_end_of_the_game() -> None:
    import pytest

    from engine.core.ruleset import Decision
    from engine.simulate import SimulationError

    class _Odd:
        def __init__(self, ruleset: Any) -> None:
            self._rs = ruleset

        def __getattr__(self, name: str) -> Any:
            return getattr(self._rs, name)

        def simulation_moves(self) -> Any:
            return lambda state, passed=frozenset(): Decision(kind="bogus", label="odd")  # type: ignore[arg-type]

    ruleset = get_ruleset("mandate2038")
    pack = load_pack("mandate2038", "0.8.0-rc.17-test")
    rng = random.Random("odd:0")
    header = msim.game_header(pack, 3, rng, ["random"] * 3, seed="odd", index=0)
    bots = {i + 1: make_bot("random", random.Random(f"odd:bot{i}")) for i in range(3)}
    with pytest.raises(SimulationError, match="unknown decision kind 'bogus' \\(odd\\)"):
        simulate_game(_Odd(ruleset), header, bots, rng)
