"""Rules that were never checked (issue 21, second audit), on states built from a simulated game:
Influence's Joint Venture counted as a legal resolution with no rival Facility in range (§2 step 2:
a choice is eligible only when it has a legal resolution now; §4 Joint Ventures join adjacent
Facilities, Strategic Partnership two hexes apart)."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.core.registry import get_ruleset
from engine.mandate2038 import eligibility
from engine.mandate2038.board import DISTANCE, POSITIONS, Board
from engine.mandate2038.state import Facility
from tests.sim_states import state_at_era


def _era_three_state():
    return state_at_era("never-checked", 3, 3)


def _lonely_hex(st) -> str:
    """O1, with every political district within two hexes of it retiled as a Research Commons
    (every hex of a legal map has one in reach; the check must not depend on that)."""
    hx = "O1"
    st.board = Board(dict(st.board.tile_at))  # this state's own copy (boards may be shared)
    for p, d in DISTANCE[hx].items():
        if d <= 2 and st.board.tile_at.get(p) in st.c.political:
            st.board.tile_at[p] = "research"
    return hx


def test_influence_needs_a_venture_partner_in_range():
    """A seat whose pieces and only Facility stand where no political district is in reach:
    Influence resolves only as a Joint Venture, which needs a rival Facility adjacent. With
    every rival Facility far away it has no legal resolution (it used to count as eligible);
    with one rival Facility moved next to it, it has."""
    st = _era_three_state()
    hx = _lonely_hex(st)
    assert st.board.tile_at[hx] not in st.c.political
    s = st.seats[0]
    s.ceo, s.teams = hx, [hx]
    s.facilities = {1: Facility(number=1, hex=hx)}
    st.jvs.clear()
    far = max(POSITIONS, key=lambda p: DISTANCE[hx].get(p, 0))
    for r in st.seats[1:]:
        for f in r.facilities.values():
            f.hex = far
    assert DISTANCE[hx][far] >= 3
    assert not eligibility._can_influence(st, s)
    sink = FindingSink(get_ruleset("mandate2038").catalogue)
    eligibility._ineligible(st, s, "influence", sink)
    assert [f.code for f in sink.findings] == ["select/ineligible"]
    near = next(p for p, d in DISTANCE[hx].items() if d == 1)
    st.seats[1].facilities[1] = Facility(number=1, hex=near)
    assert eligibility._can_influence(st, s)
