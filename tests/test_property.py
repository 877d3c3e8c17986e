"""One changed event in a clean simulated game must produce at least one finding.

A seeded loop over many simulated games (3, 4 and 5 players, both bots) applies many kinds of
mutation, one at a time: illegal moves (a Facility on Frontier, a Generator in Era I, a turn
taken twice (a fourth action), a Program in Era I, a Program used twice, a Deploy beyond
Capability, a three-step path, a step across no shared edge, two seats resolving out of
Initiative order, an exhausted Action selected again, a repeated Headline, an Era out of order)
and wrong recorded values (checkpoint values, Era Mandate scorers, every final-record field,
Audit draws, the Capability banked at a run's end, a Dossier revealed differently from how it
was filed, a Fund recorded as blocked, a second trade offer). Each mutation must yield at least one finding and, for each kind, the specific code
that names the rule broken.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from engine.core.replay import replay
from engine.mandate2038.board import ADJACENT, DISTANCE, POSITIONS
from engine.mandate2038.moves import PATHS
from engine.simulate import simulate_one
from schemas import mandate2038 as m

N_GAMES = 36
TURN_TYPES = set(m.TURN_TYPES)


def _games():
    return [simulate_one("mutations", i, (3, 4, 5)[i % 3], ("random", "heuristic")[(i // 3) % 2])
            for i in range(N_GAMES)]


@pytest.fixture(scope="module")
def games():
    return _games()


Mutation = Callable[[list, random.Random], tuple[list, set[str]] | None]


def _era_of(events: list, idx: int) -> int:
    era = 0
    for e in events[: idx + 1]:
        if e.type == "era_start":
            era = e.era
    return era


def _turn_indices(events: list, pred=lambda e: True) -> list[int]:
    return [i for i, e in enumerate(events)
            if e.type in TURN_TYPES and not getattr(e, "swarm", False) and pred(e)]


def _reveal_before(events: list, idx: int) -> int:
    return max(i for i in range(idx) if events[i].type == "reveal")


def _replace_pick(reveal: m.Reveal, seat: int, pick: str) -> m.Reveal:
    sels = [m.Selection(seat=s.seat, pick=pick if s.seat == seat else s.pick) for s in reveal.selections]
    return reveal.model_copy(update={"selections": sels})


def _simple_turns(events: list, era: int | None = None) -> list[int]:
    """Turns that are a single event (no trade before, no draws after, not Agent Swarm)."""
    out = []
    for i in _turn_indices(events, lambda e: e.type not in ("research", "agent_swarm")):
        if era is not None and _era_of(events, i) != era:
            continue
        if events[i - 1].type == "trade":
            continue
        out.append(i)
    return out


def facility_on_frontier(ev, rng):
    idx = _turn_indices(ev, lambda e: e.type == "build" and e.mode == "facility" and e.path)
    if not idx:
        return None
    i = rng.choice(idx)
    e = ev[i]
    ev[i] = e.model_copy(update={"path": PATHS[e.path[0]]["F"]})
    return ev, {"build/facility-on-frontier"}


def generator_in_era_one(ev, rng):
    idx = [i for i in _turn_indices(ev, lambda e: e.type == "build" and e.mode == "facility")
           if _era_of(ev, i) == 1]
    if not idx:
        return None
    i = rng.choice(idx)
    ev[i] = ev[i].model_copy(update={"mode": "generator"})
    return ev, {"build/generator-locked"}


def turn_taken_twice(ev, rng):
    idx = _simple_turns(ev)
    i = rng.choice(idx)
    ev.insert(i + 1, ev[i].model_copy())
    return ev, {"turn/twice"}


def fourth_action(ev, rng):
    # a seat resolves another turn after its third of the Era (cycle 3)
    cycle3 = []
    cycle = 0
    simple = set(_simple_turns(ev))
    for i, e in enumerate(ev):
        if e.type == "headline":
            cycle = e.cycle
        if cycle == 3 and i in simple:
            cycle3.append(i)
    if not cycle3:
        return None
    i = rng.choice(cycle3)
    ev.insert(i + 1, ev[i].model_copy())
    # an exact copy of the line is read as the turn written twice (issue 21: one slip, one
    # finding), a fourth turn as such where the copy differs
    return ev, {"select/fourth-action", "turn/twice"}


def program_in_era_one(ev, rng):
    idx = _simple_turns(ev, era=1)
    i = rng.choice(idx)
    e = ev[i]
    r = _reveal_before(ev, i)
    ev[r] = _replace_pick(ev[r], e.seat, "covenant")
    ev[i] = m.Covenant(seat=e.seat, piece=e.piece, path=e.path)
    return ev, {"select/program-locked"}


def program_used_twice(ev, rng):
    used = {}
    for i in _turn_indices(ev, lambda e: e.type in ("covenant", "reorganization", "narrative_capture")):
        used.setdefault(ev[i].seat, (i, ev[i]))
    for seat, (first, prog) in sorted(used.items()):
        later = [i for i in _simple_turns(ev) if i > first and ev[i].seat == seat
                 and _era_of(ev, i) > _era_of(ev, first)]
        if later:
            i = rng.choice(later)
            e = ev[i]
            r = _reveal_before(ev, i)
            ev[r] = _replace_pick(ev[r], seat, prog.type)
            ev[i] = prog.model_copy(update={"piece": e.piece, "path": e.path})
            return ev, {"select/program-reused"}
    return None


def deploy_beyond_capability(ev, rng):
    first_cycle = [i for i in _simple_turns(ev, era=1) if i < [j for j, e in enumerate(ev) if e.type == "headline"][1]]
    if not first_cycle:
        return None
    i = rng.choice(first_cycle)
    e = ev[i]
    r = _reveal_before(ev, i)
    ev[r] = _replace_pick(ev[r], e.seat, "deploy")
    ev[i] = m.Deploy(seat=e.seat, piece=e.piece, path=e.path)
    return ev, {"deploy/capability-too-low"}


def three_step_path(ev, rng):
    idx = _turn_indices(ev, lambda e: len(e.path) >= 1)
    i = rng.choice(idx)
    e = ev[i]
    path = list(e.path)
    while len(path) < 4:
        path.append(sorted(ADJACENT[path[-1]], key=POSITIONS.index)[0])
    ev[i] = e.model_copy(update={"path": path[:4]})
    return ev, {"move/too-far"}


def step_without_edge(ev, rng):
    idx = _turn_indices(ev, lambda e: len(e.path) >= 1)
    i = rng.choice(idx)
    e = ev[i]
    far = [p for p in POSITIONS if DISTANCE[e.path[0]][p] >= 2]
    ev[i] = e.model_copy(update={"path": [e.path[0], rng.choice(far)]})
    return ev, {"move/not-adjacent"}


def seats_out_of_order(ev, rng):
    pairs = []
    for i in _simple_turns(ev):
        j = i + 1
        if j < len(ev) and ev[j].type in TURN_TYPES and ev[j].type not in ("research", "agent_swarm") \
                and not ev[j].swarm and ev[j].seat != ev[i].seat:
            pairs.append(i)
    if not pairs:
        return None
    i = rng.choice(pairs)
    ev[i], ev[i + 1] = ev[i + 1], ev[i]
    return ev, {"turn/out-of-order"}


def exhausted_action_again(ev, rng):
    # the same seat's Core Action in cycle 1 selected again in cycle 2 of the same Era
    heads = [i for i, e in enumerate(ev) if e.type == "headline"]
    cands = []
    for h1, h2 in zip(heads, heads[1:], strict=False):
        if ev[h1].cycle != 1 or ev[h2].cycle != 2:
            continue
        r1 = next(i for i in range(h1, h2) if ev[i].type == "reveal")
        r2 = next(i for i in range(h2, len(ev)) if ev[i].type == "reveal")
        for s1 in ev[r1].selections:
            if s1.pick in m.CoreAction.__args__:
                cands.append((r2, s1.seat, s1.pick))
    if not cands:
        return None
    r2, seat, pick = rng.choice(cands)
    ev[r2] = _replace_pick(ev[r2], seat, pick)
    return ev, {"select/action-exhausted"}


def headline_repeated(ev, rng):
    heads = [i for i, e in enumerate(ev) if e.type == "headline" and e.headline]
    i, j = heads[0], heads[1]
    ev[j] = ev[j].model_copy(update={"headline": ev[i].headline, "action": ev[i].action,
                                     "facility": ev[i].facility})
    return ev, {"cycle/headline-repeated"}


def era_out_of_order(ev, rng):
    i = next(i for i, e in enumerate(ev) if e.type == "era_start" and e.era == 3)
    ev[i] = ev[i].model_copy(update={"era": 4, "mandate": None})
    return ev, {"era/out-of-order"}


def checkpoint_value(ev, rng):
    idx = [i for i, e in enumerate(ev) if e.type == "checkpoint"]
    i = rng.choice(idx)
    cp = ev[i]
    field = rng.choice(["mandate", "runway", "compute", "capability", "trust", "scrutiny"])
    k = rng.randrange(len(cp.seats))
    seats = [s.model_copy() for s in cp.seats]
    old = getattr(seats[k], field)
    new = old + 1 if (field != "trust" or old < 6) and (field != "runway" or old < 12) else old - 1
    seats[k] = seats[k].model_copy(update={field: new})
    ev[i] = cp.model_copy(update={"seats": seats})
    return ev, {"checkpoint/mismatch"}


def era_mandate_scorers(ev, rng):
    idx = [i for i, e in enumerate(ev) if e.type == "era_mandate"]
    i = rng.choice(idx)
    sc = list(ev[i].scorers or [])
    n = max(s.seat for e in ev if e.type == "reveal" for s in e.selections)
    others = [s for s in range(1, n + 1) if s not in sc]
    if sc and (rng.random() < 0.5 or not others):
        sc.pop(rng.randrange(len(sc)))
    else:
        sc.append(rng.choice(others))
    ev[i] = ev[i].model_copy(update={"scorers": sorted(sc)})
    return ev, {"mandate/era-mandate-scorers"}


def final_record_field(ev, rng):
    i = next(i for i, e in enumerate(ev) if e.type == "final_record")
    fr = ev[i]
    n = max(s.seat for e in ev if e.type == "reveal" for s in e.selections)
    field = rng.choice(["collective_trust", "open_threshold", "systemic_risk", "winners",
                        "provisional_winners", "open", "agi", "ending"])
    if field in ("collective_trust", "open_threshold", "systemic_risk"):
        new = (getattr(fr, field) or 0) + 1
        code = {"collective_trust": "final/collective-trust", "open_threshold": "final/collective-trust",
                "systemic_risk": "final/systemic-risk"}[field]
    elif field in ("winners", "provisional_winners"):
        cur = getattr(fr, field) or []
        new = [rng.choice([s for s in range(1, n + 1) if [s] != cur])]
        code = "final/winner" if field == "winners" else "final/provisional-winner"
    elif field in ("open", "agi"):
        new = not getattr(fr, field)
        code = f"final/{field}"
        if field == "agi":
            ev[i] = fr.model_copy(update={field: new})
            return ev, {"final/agi", "final/agi-unsupported"}
    else:
        new = rng.choice([x for x in ("singularity", "closed_loop", "plural_future", "assured_continuity")
                          if x != fr.ending])
        code = "final/world-ending"
    ev[i] = fr.model_copy(update={field: new})
    return ev, {code}


def audit_draws(ev, rng):
    idx = [i for i, e in enumerate(ev) if e.type == "audit" and e.draws]
    if not idx:
        return None
    i = rng.choice(idx)
    draws = list(ev[i].draws)
    draws.pop(rng.randrange(len(draws)))
    ev[i] = ev[i].model_copy(update={"draws": draws})
    return ev, {"audit/wrong-draw-count"}


def run_end_banked(ev, rng):
    idx = [i for i, e in enumerate(ev) if e.type == "run_end" and e.outcome != "crash"]
    if not idx:
        return None
    i = rng.choice(idx)
    ev[i] = ev[i].model_copy(update={"banked": (ev[i].banked or 0) + 1})
    return ev, {"research/banked-mismatch"}


def dossier_reveal_flipped(ev, rng):
    i = next(i for i, e in enumerate(ev) if e.type == "dossier_reveal")
    hands = list(ev[i].hands)
    k = rng.randrange(len(hands))
    card = rng.choice(["benchmark", "deployment", "authority", "publication"])
    old = getattr(hands[k], card)
    hands[k] = hands[k].model_copy(update={card: "hedge" if old == "commit" else "commit"})
    ev[i] = ev[i].model_copy(update={"hands": hands})
    return ev, {"dossier/reveal-mismatch"}


def fund_claimed_blocked(ev, rng):
    idx = _turn_indices(ev, lambda e: e.type == "fund")
    i = rng.choice(idx)
    ev[i] = ev[i].model_copy(update={"blocked": True})
    return ev, {"turn/blocked-claimed"}


def second_trade_offer(ev, rng):
    # the same seat offers a second trade before the same action
    idx = [i for i, e in enumerate(ev) if e.type == "trade" and e.accepted]
    if not idx:
        return None
    i = rng.choice(idx)
    t = ev[i]
    ev.insert(i + 1, t.model_copy(update={"accepted": True}))
    return ev, {"trade/second-offer"}


MUTATIONS: list[Mutation] = [
    fund_claimed_blocked, second_trade_offer,
    facility_on_frontier, generator_in_era_one, turn_taken_twice, fourth_action, program_in_era_one,
    program_used_twice, deploy_beyond_capability, three_step_path, step_without_edge,
    seats_out_of_order, exhausted_action_again, headline_repeated, era_out_of_order,
    checkpoint_value, era_mandate_scorers, final_record_field, audit_draws, run_end_banked,
    dossier_reveal_flipped,
]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda f: f.__name__)
def test_one_changed_event_is_found(games, mutation):
    rng = random.Random(f"mutation:{mutation.__name__}")
    applied = 0
    for log in games:
        got = mutation(list(log.events), rng)
        if got is None:
            continue
        events, expected = got
        result = replay(log.header, events)
        codes = Counter(f.code for f in result.findings if f.severity in ("error", "warning"))
        assert codes, f"{mutation.__name__} on {log.header.game_id}: no finding"
        assert expected & set(codes), (
            f"{mutation.__name__} on {log.header.game_id}: expected {expected}, got {dict(codes)}")
        applied += 1
    assert applied >= 5, f"{mutation.__name__} applied to only {applied} of {len(games)} games"


def test_clean_games_stay_clean(games):
    """The unmutated games have no finding (the mutations are what the findings are about)."""
    for log in games:
        assert replay(log.header, log.events).findings == []


def test_legal_moves_never_raise_on_states_of_mutated_logs(games):
    """The live-entry screen asks for legal moves on whatever the table recorded: after every
    event of a mutated (rule-breaking) log, the generator answers with a Decision."""
    from engine.core.findings import FindingSink
    from engine.core.registry import get_ruleset
    from engine.mandate2038.moves import legal_moves

    rs = get_ruleset("mandate2038")
    rng = random.Random("robust")
    checked = 0
    for n, log in enumerate(games[:12]):
        mutation = MUTATIONS[n % len(MUTATIONS)]
        got = mutation(list(log.events), rng)
        events = got[0] if got is not None else list(log.events)
        sink = FindingSink(rs.catalogue)
        st = rs.setup(log.header, sink)
        for i, e in enumerate(events):
            sink.event = i
            rs.apply(st, e, sink)
            d = legal_moves(st)
            assert d.kind in ("player", "chance", "simultaneous", "end")
            checked += 1
    assert checked > 1000
