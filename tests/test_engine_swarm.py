"""Agent Swarm in the move generator (issue 21): the two actions are tested together, with the
visit bonus and the first action's gains, and a seat whose Agent Swarm has no resolution left
resolves it blocked; a conformance run plays many simulated games over several seeds and every
bot without a seat being left without a legal option.

§5 Agent Swarm (Era IV Program): move once, then resolve two different unused Core Actions from
that destination, the visit bonus to one of them. The engine accepts any order, so a Fund then a
Build paid from the Fund's Runway is legal, and so is a Research made free by the Compute
Estate's visit bonus (the Map reference: "the first Compute cost of the action resolved here is
1 lower", ruling compute-estate-discount)."""

from __future__ import annotations

import pytest

from engine.mandate2038 import turn_moves as tm
from engine.mandate2038.state import CORE_ACTIONS
from engine.simulate import SimulationError, simulate_one
from tests.sim_states import state_at_era


def _era_four_state():
    """A simulated game replayed to the start of Era IV (a real board, pieces and markers)."""
    return state_at_era("swarm-state", 4, 4)


def _hex_of(st, tile: str, free: bool = False) -> str:
    from engine.mandate2038 import hex_board as hb

    return next(h for h, t in sorted(st.board.tile_at.items())
                if t == tile and (not free or hb.has_free_space(st, h)))


def _seat(st, unused: set[str], runway: int, compute: int):
    s = next(x for x in st.seats if x.faction != "kestralyn")  # no Build discount ability
    s.exhausted = {a for a in CORE_ACTIONS if a not in unused}
    s.runway, s.compute = runway, compute
    return s


def test_visit_bonus_makes_the_second_action_resolvable():
    """Fund and Research with no Compute, on a Compute Estate: Research is free with the bonus,
    so (Fund, Research) with the bonus to Research is offered, and not with the bonus to Fund.
    (The generator used to test each action without the bonus and offered nothing.)"""
    st = _era_four_state()
    s = _seat(st, {"fund", "research"}, runway=3, compute=0)
    triples = tm._swarm_triples(st, s, _hex_of(st, "cloud"))
    assert ("fund", "research", "research") in triples
    assert ("fund", "research", "fund") not in triples


def test_first_action_gains_pay_the_second():
    """Fund and Build with no Runway on a free Facility space: a Fund's +2 Runway pays the
    Build (cost 2), so (Fund, Build) is offered; after the Agent Swarm event the decision offers
    the Fund first (Build has no resolution until then), never a blocked Build."""
    st = _era_four_state()
    s = _seat(st, {"fund", "build"}, runway=0, compute=0)
    if len(s.facilities) >= 4:
        pytest.skip("the seat has built every Facility in this game")
    dest = _hex_of(st, "media", free=True)
    triples = tm._swarm_triples(st, s, dest)
    assert ("fund", "build", "fund") in triples and ("fund", "build", "build") in triples

    class T:  # the turn the engine opens for an Agent Swarm (what _swarm_decision reads)
        seat, swarm_left, swarm_bonus = s.seat, ["fund", "build"], "fund"
    T.dest = dest
    d = tm._swarm_decision(st, T)
    assert d.options and {o.type for o in d.options} == {"fund"}
    assert not any(getattr(o, "blocked", False) for o in d.options)


def test_no_pair_resolves_then_agent_swarm_resolves_blocked():
    """Research and Deploy with no Compute, Runway or Capability: no pair resolves anywhere
    the generator looks, and the engine asks only for two unused Core Actions at selection, so
    the committed Agent Swarm resolves blocked (§2 A committed Action that becomes blocked)
    naming two unused Core Actions. (There was no such fallback: 'no legal option'.)"""
    st = _era_four_state()
    s = _seat(st, {"research", "deploy"}, runway=0, compute=0)
    out = tm._blocked_events(st, s, "agent_swarm")
    assert out and all(o.type == "agent_swarm" and o.blocked for o in out)
    assert all(set(o.actions) == {"research", "deploy"} for o in out)


#: the three games of the issue that left an Agent Swarm without a legal option
KNOWN = [("a", 129, 3, "random"), ("e", 158, 5, "random"), ("bench-pages", 40, 4, "mixed")]


@pytest.mark.parametrize(("seed", "index", "players", "bots"), KNOWN)
def test_the_reported_games_complete(seed, index, players, bots):
    log = simulate_one(seed, index, players, bots)
    assert log.events[-1].type in ("final_record", "phase")


def test_conformance_many_games_every_bot_several_seeds():
    """1,800 games: seeds c1-c3, every bot choice, 3/4/5 players in turn (about 25 CPU-seconds).
    Every game ends and every move the bots made replays without a finding (the simulator is
    strict: a finding on a generated move, or a decision with no option, raises)."""
    from engine.mandate2038.simulation import BOT_CHOICES

    failed = []
    for seed in ("c1", "c2", "c3"):
        for bots in BOT_CHOICES:
            for i in range(200):
                try:
                    simulate_one(seed, i, 3 + i % 3, bots)
                except SimulationError as e:
                    failed.append((seed, i, 3 + i % 3, bots, str(e)))
    assert not failed, failed[:5]
