"""The simulator's fast paths for the decisions around the turns (Training draws, Production
allocations, Dossiers, the Audit, Headlines, Era starts, the final record) agree with the plain
computations over whole simulated games."""

from __future__ import annotations

import pytest

from engine.core.findings import FindingSink
from engine.core.registry import get_ruleset
from engine.core.ruleset import Pass
from engine.mandate2038 import moves as mv
from engine.simulate import simulate_one

GAMES = [(3, "random", 0), (4, "heuristic", 1), (5, "mixed", 2), (4, "mixed", 3)]


def _snapshot(st):
    """A deep copy of the state sharing only the read-only pack, content, header and board."""
    memo = {id(st.pack): st.pack, id(st.c): st.c, id(st.header): st.header, id(st.board): st.board}
    return mv._copy(st, memo)


@pytest.mark.parametrize("players,bot,index", GAMES)
def test_final_record_from_the_state_and_the_light_copy_equal_the_full_copy(players, bot, index):
    """At the final record of whole games, the values read from the state (``_final_values``)
    and final scoring on the light copy give the same record as final scoring on a full copy of
    the state, and leave the game state untouched."""
    rs = get_ruleset("mandate2038")
    log = simulate_one("phases", index, players, bot)
    sink = FindingSink(rs.catalogue)
    st = rs.setup(log.header, sink)
    for ev in log.events:
        if ev.type == "final_record":
            assert mv._final_values(st) is not None  # the direct values are what was used
            before = _snapshot(st)
            direct = mv.final_record_event(st)
            assert st == before
            light = mv._record_from(mv._scored_copy(st, False).final)
            assert mv._final_scoring_copy(st) is not None  # (the light copy was used)
            assert st == before
            full = mv.final_record_event(st, full_copy=True)
            assert direct == light == full == ev
            assert st == before
        rs.apply(st, ev, sink)
    assert st.final_done and sink.findings == []


def test_final_values_equal_final_scoring_on_a_copy_with_claims_and_ties():
    """Over 45 whole games (3, 4 and 5 players), the record read from the state equals the one
    final scoring gives on a full copy, including games where an eligible claim forms AGI."""
    rs = get_ruleset("mandate2038")
    agi = 0
    for index in range(45):
        log = simulate_one("final", index, 3 + index % 3, "mixed")
        sink = FindingSink(rs.catalogue)
        st = rs.setup(log.header, sink)
        for ev in log.events[:-1]:
            rs.apply(st, ev, sink)
        assert log.events[-1].type == "final_record" and mv._final_values(st) is not None
        record = mv.final_record_event(st)
        assert record == mv.final_record_event(st, full_copy=True) == log.events[-1]
        agi += bool(record.agi)
    assert agi >= 3


@pytest.mark.parametrize("players,bot,index", GAMES)
def test_shared_lazy_options_and_weights_equal_fresh_ones(players, bot, index):
    """At every decision of whole games (played after others, so the process-wide tables of
    draws, reveals, Audits and built options are warm), the lazy decision offers the same
    options as the plain one, in the same order, with exactly the same weights and label."""
    rs = get_ruleset("mandate2038")
    simulate_one("phases-warm", index, players, bot)
    log = simulate_one("phases", index, players, bot)
    sink = FindingSink(rs.catalogue)
    st = rs.setup(log.header, sink)
    kinds: set[str] = set()
    for ev in log.events:
        passed: set[str] = set()
        while True:  # the decision, then the ones after declining each optional window in turn
            eager = mv.legal_moves(st, None, frozenset(passed))
            lazy = mv.legal_moves(st, None, frozenset(passed), lazy=True)
            assert (lazy.kind, lazy.seat, lazy.label) == (eager.kind, eager.seat, eager.label)
            if eager.kind == "chance" or (eager.kind == "player" and not isinstance(lazy.options, mv.Options)):
                built = [o.materialize() if isinstance(o, mv.Spec) else o for o in lazy.options]
                assert built == list(eager.options), eager.label
                assert lazy.weights == eager.weights, eager.label
                kinds.add(eager.label[:11])
            declines = [o.key for o in eager.options if isinstance(o, Pass)] if eager.kind == "player" else []
            if not declines:
                break
            passed.add(declines[0])
        rs.apply(st, ev, sink)
    assert sink.findings == []
    assert {"draw a Trai", "draw the Au", "reveal cycl", "reveal Era ", "reveal ever", "score the E",
            "bank or con", "Corthaven m"} <= kinds
    assert any(k.startswith("seat") for k in kinds)
    if "orisonix" in [s.faction for s in log.header.seats]:
        assert "Orisonix ma" in kinds


def test_shared_allocation_options_equal_the_plain_search():
    """Every Production allocation of 24 whole games (warm table: games repeat their keys):
    the options shared by ``_allocation_key`` equal the plain greedy search on that state, and
    the games include Mega-Cluster demand and several Facilities per seat."""
    rs = get_ruleset("mandate2038")
    checked = with_megas = several = 0
    for index in range(24):  # 24: the first Mega-Cluster since the rules changes of issue 21
        log = simulate_one("alloc", index, (3, 4, 5)[index % 3], ("random", "heuristic", "mixed")[index % 3])
        sink = FindingSink(rs.catalogue)
        st = rs.setup(log.header, sink)
        for ev in log.events:
            if ev.type == "allocate" and st.seat(ev.seat).facilities:
                s = st.seat(ev.seat)
                shared = mv.allocation_options(st, s, lazy=True)
                assert shared == mv._allocation_options(st, s)
                assert ev in shared
                checked += 1
                with_megas += any(m.owner == s.seat for m in st.megas.values())
                several += len(s.facilities) >= 3
            rs.apply(st, ev, sink)
    assert checked > 150 and with_megas > 0 and several > 20


def test_audit_options_are_every_multiset_with_its_probability():
    """The Audit's options against a plain enumeration: every vector of cubes drawn per colour
    that sums to k, in lexicographic order, weighted C(count, drawn) products over C(total, k)."""
    import itertools
    import math
    import random

    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(0, 6)
        colours = [*range(1, n), "black"][:n]
        counts = [rng.randint(1, 6) for _ in colours]
        k = rng.randint(0, min(12, sum(counts)))
        options, weights = mv._audit_options(colours, counts, k)
        want = [v for v in itertools.product(*[range(c + 1) for c in counts]) if sum(v) == k]
        if not colours:
            want = [()] if k == 0 else []
        assert [o.draws for o in options] == [
            [c for c, p in zip(colours, v, strict=True) for _ in range(p)] for v in want]
        assert weights == [math.prod(math.comb(c, p) for c, p in zip(counts, v, strict=True))
                           / math.comb(sum(counts), k) for v in want]
        assert abs(sum(weights) - 1) < 1e-9


def test_simulation_entry_equals_lazy_legal_moves():
    """``simulation_legal_moves`` (the simulator's direct entry) gives the lazy decision of
    ``legal_moves`` at every decision of a whole game, and an eager call after it gives events."""
    rs = get_ruleset("mandate2038")
    log = simulate_one("entry", 0, 4, "mixed")
    sink = FindingSink(rs.catalogue)
    st = rs.setup(log.header, sink)
    for ev in log.events:
        a = mv.simulation_legal_moves(st)
        assert not any(isinstance(o, mv.Spec) for o in mv.legal_moves(st).options)
        b = mv.legal_moves(st, None, frozenset(), lazy=True)
        assert (a.kind, a.seat, a.label, len(a.options), a.weights) == (b.kind, b.seat, b.label, len(b.options),
                                                                          b.weights)
        rs.apply(st, ev, sink)
