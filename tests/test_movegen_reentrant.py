"""The Mandate 2038 move generator's lazy mode belongs to the call: eager and lazy
``legal_moves`` calls give the same decisions side by side as alone, whether one runs inside
the other (a callback during generation) or both run in threads (a Ray worker, a Streamlit
session). Issue 21: the mode was a module global (``lazy_options._LAZY``) that a lazy call set
and reset, so an eager call made meanwhile got specs and the outer lazy call finished eagerly."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest

from engine.core.findings import FindingSink
from engine.core.registry import get_ruleset
from engine.mandate2038 import moves as mv
from engine.mandate2038 import selection_moves
from engine.simulate import simulate_one


def _copy(st: Any) -> Any:
    """An independent copy of the state (sharing only the read-only pack, content, header, board)."""
    memo = {id(st.pack): st.pack, id(st.c): st.c, id(st.header): st.header, id(st.board): st.board}
    return mv._copy(st, memo)


def _states(index: int = 0, players: int = 4) -> list[Any]:
    """A copy of the state before every event of a simulated game."""
    rs = get_ruleset("mandate2038")
    log = simulate_one("reentrant", index, players, "mixed")
    sink = FindingSink(rs.catalogue)
    st = rs.setup(log.header, sink)
    out = []
    for ev in log.events:
        out.append(_copy(st))
        rs.apply(st, ev, sink)
    assert sink.findings == []
    return out


def _view(d: Any) -> tuple[Any, ...]:
    """What a caller reads of a decision: its kind, seat, label, weights, per-seat picks, the
    options' container and each option (whether it is a spec, and its event)."""
    opts = [(isinstance(o, mv.Spec), o.materialize() if isinstance(o, mv.Spec) else o) for o in d.options]
    weights = list(d.weights) if d.weights is not None else None
    return (d.kind, d.seat, d.label, weights, d.per_seat, type(d.options).__name__, opts)


def _eager(st: Any) -> tuple[Any, ...]:
    return _view(mv.legal_moves(st, None, frozenset()))


def _lazy(st: Any) -> tuple[Any, ...]:
    return _view(mv.legal_moves(st, None, frozenset(), lazy=True))


@pytest.fixture(scope="module")
def turns() -> list[Any]:
    """States at turn decisions with the immediate trades open (the lazy options are grouped
    :class:`~engine.mandate2038.lazy_options.Options` headed by trade specs)."""
    out = []
    for st in _states():
        d = mv.legal_moves(st, None, frozenset(), lazy=True)
        if isinstance(d.options, mv.Options) and d.options.head and isinstance(d.options.head[0], mv.Spec):
            out.append(st)
    assert len(out) >= 6
    return out


def _during_turn_options(monkeypatch: pytest.MonkeyPatch, hook: Any) -> None:
    """Run ``hook()`` once, in the middle of the next lazy turn decision (as it groups its
    options), then let that decision finish."""
    original = selection_moves._turn_groups
    fired = []

    def grouped(st: Any, s: Any, pick: str) -> Any:
        if not fired:
            fired.append(True)
            hook()
        return original(st, s, pick)

    monkeypatch.setattr(selection_moves, "_turn_groups", grouped)


def test_calls_made_during_a_lazy_call_keep_their_own_mode(turns, monkeypatch):
    """An eager and a lazy call made while a lazy call is generating (e.g. from a bot's
    callback): each gives what it gives alone, and so does the outer call."""
    outer, inner_eager, inner_lazy = turns[0], turns[1], turns[2]
    want = (_lazy(outer), _eager(inner_eager), _lazy(inner_lazy))
    got: dict[str, Any] = {}

    def inner() -> None:
        got["eager"] = _eager(inner_eager)
        got["lazy"] = _lazy(inner_lazy)

    _during_turn_options(monkeypatch, inner)
    got["outer"] = _lazy(outer)
    assert got["eager"] == want[1]
    assert got["lazy"] == want[2]
    assert got["outer"] == want[0]
    assert not any(spec for spec, _ in got["eager"][-1])


def test_a_thread_paused_in_a_lazy_call_and_another_generating(turns, monkeypatch):
    """One thread's lazy call paused in the middle while another thread makes an eager and a
    lazy call: every call gives what it gives alone."""
    a, b, c = turns[3], turns[4], turns[5]
    want = (_lazy(a), _eager(b), _lazy(c))
    paused, resume = threading.Event(), threading.Event()
    got: dict[str, Any] = {}

    def pause() -> None:
        paused.set()
        assert resume.wait(30)

    def worker() -> None:
        try:
            got["a"] = _lazy(a)
        except BaseException as e:  # reported by the main thread
            got["error"] = e

    _during_turn_options(monkeypatch, pause)
    t = threading.Thread(target=worker)
    t.start()
    try:
        assert paused.wait(30)
        got["b"] = _eager(b)
        got["c"] = _lazy(c)
    finally:
        resume.set()
        t.join(30)
    assert "error" not in got, got.get("error")
    assert got["b"] == want[1]
    assert got["c"] == want[2]
    assert got["a"] == want[0]


def _in_threads(work: dict[str, Any]) -> dict[str, Any]:
    """Run each named function in its own thread, switching as often as the interpreter allows;
    what each returned (or raised)."""
    got: dict[str, Any] = {}

    def run(name: str) -> None:
        try:
            got[name] = work[name]()
        except BaseException as e:  # reported by the main thread
            got[name] = e

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(k,)) for k in work]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        sys.setswitchinterval(old)
    return got


def test_eager_and_lazy_threads_over_a_game(monkeypatch):
    """Two threads over every decision of a game, one eager and one lazy, switching as often
    as the interpreter allows: each gives the decisions it gives alone."""
    states = _states(1, 3)
    want_eager = [_eager(st) for st in states]
    want_lazy = [_lazy(st) for st in states]
    got = _in_threads({"eager": lambda: [_eager(st) for st in states],
                       "lazy": lambda: [_lazy(st) for st in states]})
    assert got["eager"] == want_eager
    assert got["lazy"] == want_lazy


def test_two_games_in_two_threads():
    """Two simulator threads, each generating lazily over its own game (its own map), switching
    as often as the interpreter allows: each gives the decisions it gives alone. (The generator keeps
    its last map and that map's table as one pair; the race of two slots, a map checked and
    then another thread's table read, is too narrow for this test to hit reliably.)"""
    games = {"a": _states(2, 4), "b": _states(3, 5)}
    want = {k: [_lazy(st) for st in v] for k, v in games.items()}
    got = _in_threads({k: (lambda v=v: [_lazy(st) for st in v]) for k, v in games.items()})
    assert got == want


def test_no_module_state_holds_the_mode():
    """The generator keeps no mode flag: ``moves`` no longer exports one."""
    assert "_LAZY" not in mv.__all__ and not hasattr(mv, "_LAZY")
