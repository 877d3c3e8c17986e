"""The simulator's fast paths for the secret selection and the immediate trades agree with the
plain computations over whole simulated games: each seat's eligible picks (quick checks read
once per seat) equal the full walk of every pick; the trade offers equal the offers checked one
by one with the seat's resources changed; the shared reveal equals a fresh one."""

from __future__ import annotations

import pytest

from engine.core.findings import FindingSink
from engine.core.registry import get_ruleset
from engine.mandate2038 import moves as mv
from engine.mandate2038.state import CORE_ACTIONS
from engine.simulate import simulate_one

GAMES = [(3, "random", 0), (4, "heuristic", 1), (5, "mixed", 2), (4, "mixed", 3), (4, "random", 4)]


def _walk(st, s, pick) -> bool:
    """The plain computation: the pick has a resolution when its first option exists."""
    return next(iter(mv._turn_events(st, s, pick)), None) is not None


def _plain_eligible_picks(st, s) -> list[str]:
    """Every Core Action and selectable Program of the seat, kept when the walk finds an option."""
    out = [a for a in CORE_ACTIONS if a not in s.exhausted and _walk(st, s, a)]
    for p in mv._unlocked_programs(st):
        if p in s.programs_used or p == st.paused_program:
            continue
        if p == "fusion" and st.fusion_owner is not None:
            continue
        if s.markers <= 0 and not (p == "agent_swarm" and st.headline == "agent_swarm_escapes_scope"):
            continue
        if _walk(st, s, p):
            out.append(p)
    return out


def _plain_trade_options(st, s, pick, resolvable):
    """Every rival's accepted and rejected offer of each thing given, each checked on its own:
    the accepted one with the seat's Compute and Runway changed, by the full walk."""
    if st.headline == "export_controls":
        return []
    out = []
    for give in ("runway", "compute"):
        if (s.runway if give == "runway" else s.compute) < 1:
            continue
        mine_ok = s.compute < st.c.cap_compute if give == "runway" else s.runway < st.c.cap_runway
        for r in st.order_from(s.seat)[1:]:
            rs = st.seat(r)
            if give == "runway":
                can_accept = mine_ok and rs.compute >= 1 and rs.runway < st.c.cap_runway
            else:
                can_accept = mine_ok and rs.runway >= 1 and rs.compute < st.c.cap_compute
            if can_accept:
                d = -1 if give == "compute" else 1
                s.compute += d
                s.runway -= d
                try:
                    ok = _walk(st, s, pick)
                finally:
                    s.compute -= d
                    s.runway += d
                if ok:
                    out.append((s.seat, r, give, True))
            if resolvable:
                out.append((s.seat, r, give, False))
    return out


@pytest.mark.parametrize("players,bot,index", GAMES)
def test_selection_and_trades_agree_with_the_plain_computation(players, bot, index):
    """At every selection of whole games, each seat's eligible picks equal the plain walk (same
    picks, same order) and the shared reveal equals a fresh one; at every turn, the trade offers
    equal the plain ones (same offers, same order), lazy and eager."""
    rs = get_ruleset("mandate2038")
    log = simulate_one("select", index, players, bot)
    sink = FindingSink(rs.catalogue)
    st = rs.setup(log.header, sink)
    picks_checked = trades_checked = 0
    for ev in log.events:
        if ev.type == "reveal":
            sel = mv._Selection(st)
            for s in st.seats:
                assert mv._eligible_picks(st, s, sel) == _plain_eligible_picks(st, s), (s.seat, st.era)
                assert mv.eligible_picks(st, s.seat) == _plain_eligible_picks(st, s)
                picks_checked += 1
            picks = {x.seat: x.pick for x in ev.selections}
            lazy = mv.legal_moves(st, None, frozenset(), lazy=True)
            eager = mv.legal_moves(st, None, frozenset())
            assert lazy.per_seat == eager.per_seat
            assert lazy.combine(picks) == eager.combine(picks) == ev
        elif st.to_resolve and (st.turn is None or not (st.turn.traded or st.turn.started)):
            seat = st.to_resolve[0]
            s = st.seat(seat)
            pick = st.selections[seat]
            resolvable = _walk(st, s, pick)
            plain = _plain_trade_options(st, s, pick, resolvable)
            eager = [(o.seat, o.rival, o.give, o.accepted)
                     for o in mv._trade_options(st, s, pick, resolvable=resolvable)]
            lazy = [(o.seat, o.rival, o.give, o.accepted)
                    for o in mv._trade_options(st, s, pick, resolvable=resolvable, lazy=True)]
            assert eager == lazy == plain, (seat, pick)
            trades_checked += bool(plain)
        rs.apply(st, ev, sink)
    assert sink.findings == []
    assert picks_checked >= 4 * players and trades_checked > 10
