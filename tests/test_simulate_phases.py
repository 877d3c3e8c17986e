"""The simulator's fast paths for the decisions around the turns (Training draws, Production
allocations, Dossiers, the Audit, Headlines, Era starts, the final record) agree with the plain
computations over whole simulated games."""

from __future__ import annotations

import pytest

from engine.core.findings import FindingSink
from engine.core.registry import get_ruleset
from engine.mandate2038 import moves as mv
from engine.simulate import simulate_one

GAMES = [(3, "random", 0), (4, "heuristic", 1), (5, "mixed", 2), (4, "mixed", 3)]


def _snapshot(st):
    """A deep copy of the state sharing only the read-only pack, content, header and board."""
    memo = {id(st.pack): st.pack, id(st.c): st.c, id(st.header): st.header, id(st.board): st.board}
    return mv._copy(st, memo)


@pytest.mark.parametrize("players,bot,index", GAMES)
def test_final_record_from_the_light_copy_equals_the_full_copy(players, bot, index):
    """At the final record of whole games, final scoring on the light copy gives the same record
    as on a full copy of the state, and leaves the game state untouched."""
    rs = get_ruleset("mandate2038")
    log = simulate_one("phases", index, players, bot)
    sink = FindingSink(rs.catalogue)
    st = rs.setup(log.header, sink)
    for ev in log.events:
        if ev.type == "final_record":
            assert mv._final_scoring_copy(st) is not None  # the light copy is what was used
            before = _snapshot(st)
            light = mv.final_record_event(st)
            assert st == before
            full = mv.final_record_event(st, full_copy=True)
            assert light == full == ev
            assert st == before
        rs.apply(st, ev, sink)
    assert st.final_done and sink.findings == []
