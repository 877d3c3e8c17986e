"""Mutation property test: every kind of one-event change the Vestige rules forbid, applied to
simulated games that replay clean, yields a finding of the expected code.

Each mutation kind takes the event at ``i`` (and the replayed state just before it) and returns
the mutated event list, or None where it does not apply. The test applies each kind to up to
three applicable events in each of a few simulated games, asserts that every kind applied at
least once, and that each mutated log reports the kind's code (other findings may follow from
the same change; the rule broken must be among them). A last property: random mutations never
make the replay raise.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from functools import cache
from typing import Any, cast

import pytest

from engine.core.replay import replay, replay_to
from engine.vestige import RULESET
from engine.vestige.board import NEIGHBOURS, POSITIONS, adjacent_tiles, reachable
from engine.vestige.content import CONTENT
from engine.vestige.simulate import simulate_one
from engine.vestige.state import GameState
from schemas.canonical import dump_event
from schemas.vestige import EVENT_ADAPTER, Complete, VestigeEvent, VestigeLog

Events = list[VestigeEvent]
Mutation = Callable[[Events, int, GameState], Events | None]


@cache
def games() -> tuple[VestigeLog, ...]:
    """Two random-bot games (speed boosts, recoveries) and the first heuristic games that
    complete an artifact job and another job (completions are rarer)."""
    out = [simulate_one(31, 1, 3, "random"), simulate_one(31, 4, 2, "random")]
    kinds: set[str] = set()
    for i in range(40):
        log = simulate_one(31, 100 + i, 3, "heuristic")
        done = {e.card for e in log.events if e.type == "complete"}
        got = {p.kind for e in log.events if e.type == "display" and e.card in done
               and (p := e.printed) is not None}
        if got - kinds:
            kinds |= got
            out.append(log)
        if "artifact" in kinds and len(kinds) >= 2:
            break
    return tuple(out)


def _ev(d: dict[str, Any]) -> VestigeEvent:
    return EVENT_ADAPTER.validate_python(d)


def _set(events: Events, i: int, **changes: Any) -> Events:
    d = dump_event(events[i])
    d.update(changes)
    return events[:i] + [_ev(d)] + events[i + 1:]


def _insert_copy(events: Events, i: int) -> Events:
    return events[: i + 1] + [events[i]] + events[i + 1:]


def _delete(events: Events, i: int) -> Events:
    return events[:i] + events[i + 1:]


def _of(t: str) -> Callable[[Mutation], Mutation]:
    def wrap(fn: Mutation) -> Mutation:
        def inner(events: Events, i: int, st: GameState) -> Events | None:
            return fn(events, i, st) if events[i].type == t else None
        inner.__name__ = fn.__name__
        inner.etype = t  # type: ignore[attr-defined]
        return inner
    return wrap


def _seat(e: VestigeEvent) -> int:
    return int(getattr(e, "seat", 0) or 0)


# --- move ----------------------------------------------------------------------------------


@_of("move")
def move_too_far(ev: Events, i: int, st: GameState) -> Events | None:
    s = st.seats[_seat(ev[i])]
    speed = s.speed + (2 if s.boosted else 0)
    far = reachable(s.space or 0, speed + 1, st.pawns(but=s.seat))
    path = next((p for p in far.values() if len(p) == speed + 2), None)
    return None if path is None else _set(ev, i, path=path)


@_of("move")
def move_zero(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, path=[st.seats[_seat(ev[i])].space], reveals=[])


@_of("move")
def move_jump(ev: Events, i: int, st: GameState) -> Events | None:
    start = st.seats[_seat(ev[i])].space or 1
    far = next(x for x in range(1, 55) if x != start and x not in NEIGHBOURS[start]
               and x not in st.pawns())
    return _set(ev, i, path=[start, far])


@_of("move")
def move_wrong_start(ev: Events, i: int, st: GameState) -> Events | None:
    path = list(ev[i].path)  # type: ignore[union-attr]
    other = next((n for n in NEIGHBOURS[path[1]] if n != path[0]), None) if len(path) > 1 else None
    return None if other is None else _set(ev, i, path=[other] + path[1:])


@_of("move")
def move_onto_pawn(ev: Events, i: int, st: GameState) -> Events | None:
    s = st.seats[_seat(ev[i])]
    for other in st.pawns(but=s.seat):
        for dest, path in reachable(s.space or 0, s.speed, frozenset()).items():
            if dest == other:
                return _set(ev, i, path=path)
    return None


@_of("move")
def move_drop_reveals(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, reveals=[]) if ev[i].reveals else None  # type: ignore[union-attr]


@_of("move")
def move_deleted(ev: Events, i: int, st: GameState) -> Events | None:
    return _delete(ev, i)


@_of("move")
def move_other_seat(ev: Events, i: int, st: GameState) -> Events | None:
    other = next(x for x in st.seats if x != _seat(ev[i]))
    return _set(ev, i, seat=other)


# --- visit and regions -----------------------------------------------------------------


@_of("visit")
def visit_far(ev: Events, i: int, st: GameState) -> Events | None:
    near = adjacent_tiles(st.seats[_seat(ev[i])].space or 0)
    far = next(p for p in POSITIONS if p not in near)
    return _set(ev, i, position=far, region=st.map.get(far))


@_of("visit")
def visit_wrong_region(ev: Events, i: int, st: GameState) -> Events | None:
    region = ev[i].region  # type: ignore[union-attr]
    return _set(ev, i, region="trench" if region != "trench" else "archives")


@_of("visit")
def visit_arrow_twice(ev: Events, i: int, st: GameState) -> Events | None:
    region = ev[i].region  # type: ignore[union-attr]
    return None if region in CONTENT.repeatable else _set(ev, i, times=2)


@_of("visit")
def visit_wrong_gain(ev: Events, i: int, st: GameState) -> Events | None:
    d = dump_event(ev[i])
    gain = list(d.get("gain", []))
    if d.get("region") not in ("archives", "black_market", "scrapyard"):
        return None
    return _set(ev, i, gain=["guile"] + gain[1:])


def _repeat(t: str) -> Mutation:
    @_of(t)
    def repeat(ev: Events, i: int, st: GameState) -> Events | None:
        return _insert_copy(ev, i)
    repeat.__name__ = f"{t}_twice"
    repeat.etype = t  # type: ignore[attr-defined]
    return repeat


@_of("control")
def control_again(ev: Events, i: int, st: GameState) -> Events | None:
    return _insert_copy(ev, i)


@_of("visit")
def rest_after_visit(ev: Events, i: int, st: GameState) -> Events | None:
    return ev[: i + 1] + [_ev({"type": "rest", "seat": _seat(ev[i]), "upgrade": "influence"})] + ev[i + 1:]


# --- activate, jobs ---------------------------------------------------------------------


@_of("activate")
def activate_wrong_gain(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, gain=["intrigue"])


@_of("activate")
def activate_unknown_card(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, card="Nobody At All")


@_of("pickup")
def pickup_far(ev: Events, i: int, st: GameState) -> Events | None:
    near = adjacent_tiles(st.seats[_seat(ev[i])].space or 0)
    far = next(p for p in POSITIONS if p not in near)
    return _set(ev, i, at=far)


@_of("pickup")
def pickup_incapable(ev: Events, i: int, st: GameState) -> Events | None:
    s = st.seats[_seat(ev[i])]
    stack = ev[i].stack  # type: ignore[union-attr]
    for c in s.cards.values():
        p = st.printed.get(c.name)
        if c.kind == "chop_bot" and c.job is None and p is not None and stack not in p.jobs:
            return _set(ev, i, assignee=c.name)
    return None


@_of("pickup")
def pickup_wrong_region(ev: Events, i: int, st: GameState) -> Events | None:
    """p. 14: another adjacent tile than the one the stack's top card shows."""
    e = ev[i]
    shows = st.stack_top.get(e.stack)  # type: ignore[union-attr]
    near = adjacent_tiles(st.seats[_seat(e)].space or 0)
    other = next((p for p in sorted(near) if st.map.get(p) not in (None, shows)), None)
    return None if shows is None or other is None else _set(ev, i, at=other)


@_of("display")
def display_not_replaced(ev: Events, i: int, st: GameState) -> Events | None:
    """p. 14: the face-up job taken is replaced at once; the replacement is dropped."""
    if st.phase != "play" or ev[i].stack not in st.display_taken:  # type: ignore[union-attr]
        return None
    return _delete(ev, i)


@_of("covert_op")
def covert_draw_deleted(ev: Events, i: int, st: GameState) -> Events | None:
    """p. 24: a covert op at setup and at each magenta trigger; one draw is dropped."""
    return _delete(ev, i) if ev[i].action == "draw" else None  # type: ignore[union-attr]


@_of("endgame_reveal")
def setup_reveal_deleted(ev: Events, i: int, st: GameState) -> Events | None:
    """Setup step 8: a competitive game reveals 1 endgame condition; it is dropped."""
    return _delete(ev, i) if ev[i].trigger is None else None  # type: ignore[union-attr]


@_of("seat_setup")
def setup_no_chop_bot(ev: Events, i: int, st: GameState) -> Events | None:
    """p. 18: a single starting chop bot; a seat starts with none."""
    return _set(ev, i, chop_bot=None)


@_of("complete")
def complete_no_roll(ev: Events, i: int, st: GameState) -> Events | None:
    j = i - 1
    while j >= 0 and ev[j].type == "roll":
        j -= 1
    return ev[: j + 1] + ev[i:] if j < i - 1 else None


@_of("complete")
def complete_unrolled_face(ev: Events, i: int, st: GameState) -> Events | None:
    rolled = set(st.seats[_seat(ev[i])].rolls)
    face = next((f for f in ("strain", "sever", "upgrade") if f not in rolled), None)
    return None if face is None else _set(ev, i, face=face, upgrade="influence")


@_of("complete")
def complete_wrong_pay(ev: Events, i: int, st: GameState) -> Events | None:
    pay = dict(cast(Complete, ev[i]).pay)
    if not pay:
        return None
    k = sorted(pay)[0]
    pay[k] += 1
    return _set(ev, i, pay=pay)


@_of("complete")
def complete_unassigned(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, card="Nobody's Job")


@_of("complete")
def complete_artifact_no_charge(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, charges=0) if ev[i].charges else None  # type: ignore[union-attr]


# --- bonus actions ----------------------------------------------------------------------


@_of("convert")
def convert_same(ev: Events, i: int, st: GameState) -> Events | None:
    a = ev[i].spend[0]  # type: ignore[union-attr]
    return _set(ev, i, spend=[a, a])


@_of("recover")
def recover_potential(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, source="potential")


# --- triggers and endgame ---------------------------------------------------------------


@_of("draw")
def draw_deleted(ev: Events, i: int, st: GameState) -> Events | None:
    return _delete(ev, i)


@_of("trigger")
def trigger_deleted(ev: Events, i: int, st: GameState) -> Events | None:
    return _delete(ev, i)


@_of("covert_op")
def covert_again(ev: Events, i: int, st: GameState) -> Events | None:
    return _insert_copy(ev, i) if ev[i].action == "draw" else None  # type: ignore[union-attr]


@_of("endgame_met")
def endgame_unknown(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, card="Never Revealed")


@_of("endgame_met")
def endgame_met_deleted(ev: Events, i: int, st: GameState) -> Events | None:
    return _delete(ev, i)


@_of("round_start")
def round_renumbered(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, round=int(dump_event(ev[i])["round"]) + 1)


@_of("turn_start")
def turn_wrong_seat(ev: Events, i: int, st: GameState) -> Events | None:
    want = next((x for x in st.order if x not in st.took_turn), None)
    other = next(x for x in st.order if x != want)
    return _set(ev, i, seat=other)


@_of("phase")
def extra_round(ev: Events, i: int, st: GameState) -> Events | None:
    if ev[i].name != "final_scoring":  # type: ignore[union-attr]
        return None
    return ev[:i] + [_ev({"type": "round_start", "round": st.round + 1})] + ev[i:]


@_of("final_scoring")
def final_wrong_winners(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, winners=["9"])


@_of("seat_setup")
def setup_blocks(ev: Events, i: int, st: GameState) -> Events | None:
    return _set(ev, i, blocks={"influence": 9, "potential": 7, "conviction": 4})


@_of("display")
def card_contradicts(ev: Events, i: int, st: GameState) -> Events | None:
    d = dump_event(ev[i])
    printed = dict(d["printed"])
    printed["leverage"] = (printed.get("leverage") or 0) + 1
    rec = _ev({"type": "card", "name": d["card"], "printed": printed})
    return ev[: i + 1] + [rec] + ev[i + 1:]


def event_after_end(ev: Events, i: int, st: GameState) -> Events | None:
    if i != len(ev) - 1:
        return None
    return ev + [_ev({"type": "move", "seat": 1, "path": [1, 2]})]


KINDS: dict[str, tuple[Mutation, set[str]]] = {
    "move-too-far": (move_too_far, {"vestige-move/too-far"}),
    "move-zero": (move_zero, {"vestige-move/too-short"}),
    "move-jump": (move_jump, {"vestige-move/not-adjacent"}),
    "move-wrong-start": (move_wrong_start, {"vestige-move/wrong-start"}),
    "move-onto-pawn": (move_onto_pawn, {"vestige-move/occupied"}),
    "move-drop-reveals": (move_drop_reveals, {"vestige-move/reveal-missing"}),
    "move-deleted": (move_deleted, {"vestige-turn/no-move"}),
    "move-other-seat": (move_other_seat, {"vestige-turn/not-your-turn"}),
    "visit-far": (visit_far, {"vestige-visit/not-adjacent"}),
    "visit-wrong-region": (visit_wrong_region, {"vestige-visit/wrong-region"}),
    "visit-arrow-twice": (visit_arrow_twice, {"vestige-visit/repeat-arrow"}),
    "visit-wrong-gain": (visit_wrong_gain, {"vestige-visit/wrong-effect"}),
    "visit-twice": (_repeat("visit"), {"vestige-turn/action-repeated"}),
    "rest-after-visit": (rest_after_visit, {"vestige-turn/action-repeated"}),
    "activate-twice": (_repeat("activate"), {"vestige-turn/action-repeated"}),
    "move-twice": (_repeat("move"), {"vestige-turn/action-repeated"}),
    "pickup-twice": (_repeat("pickup"), {"vestige-turn/action-repeated"}),
    "control-again": (control_again, {"vestige-control/twice"}),
    "activate-wrong-gain": (activate_wrong_gain, {"vestige-activate/wrong-attributes"}),
    "activate-unknown-card": (activate_unknown_card, {"vestige-activate/not-character"}),
    "pickup-far": (pickup_far, {"vestige-job/pickup-not-adjacent"}),
    "pickup-incapable": (pickup_incapable, {"vestige-job/incapable"}),
    "pickup-wrong-region": (pickup_wrong_region, {"vestige-job/pickup-wrong-region"}),
    "display-not-replaced": (display_not_replaced, {"vestige-job/face-up-not-replaced"}),
    "covert-draw-deleted": (covert_draw_deleted, {"vestige-covert/draw-missing"}),
    "setup-reveal-deleted": (setup_reveal_deleted, {"vestige-setup/endgame-missing"}),
    "setup-no-chop-bot": (setup_no_chop_bot, {"vestige-setup/chop-bot"}),
    "complete-no-roll": (complete_no_roll, {"vestige-job/no-roll"}),
    "complete-unrolled-face": (complete_unrolled_face, {"vestige-job/face-not-rolled"}),
    "complete-wrong-pay": (complete_wrong_pay, {"vestige-job/wrong-cost"}),
    "complete-unassigned": (complete_unassigned, {"vestige-job/not-assigned"}),
    "complete-artifact-no-charge": (complete_artifact_no_charge, {"vestige-job/charges"}),
    "artifact-twice": (_repeat("effect"), {"vestige-artifact/twice", "vestige-artifact/no-charge"}),
    "boost-twice": (_repeat("speed_boost"), {"vestige-move/boost-twice"}),
    "convert-same": (convert_same, {"vestige-convert/invalid"}),
    "recover-potential": (recover_potential, {"vestige-recover/from-potential"}),
    "draw-deleted": (draw_deleted, {"vestige-card/draw-missing"}),
    "trigger-deleted": (trigger_deleted, {"vestige-trigger/missing"}),
    "trigger-twice": (_repeat("trigger"), {"vestige-trigger/repeated"}),
    "covert-draw-twice": (covert_again, {"vestige-covert/draw-invalid"}),
    "endgame-met-twice": (_repeat("endgame_met"), {"vestige-endgame/already-met"}),
    "endgame-met-unknown": (endgame_unknown, {"vestige-endgame/not-revealed"}),
    "endgame-met-deleted": (endgame_met_deleted, {"vestige-endgame/early-end"}),
    "round-renumbered": (round_renumbered, {"vestige-round/out-of-order"}),
    "turn-wrong-seat": (turn_wrong_seat, {"vestige-turn/out-of-order"}),
    "extra-round": (extra_round, {"vestige-endgame/round-after-final"}),
    "final-wrong-winners": (final_wrong_winners, {"vestige-final/winners"}),
    "setup-blocks": (setup_blocks, {"vestige-setup/blocks"}),
    "card-contradicts": (card_contradicts, {"vestige-card/contradicts"}),
    "event-after-end": (event_after_end, {"log/event-after-game-end"}),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_forbidden_one_event_change_is_found(kind: str) -> None:
    mutate, codes = KINDS[kind]
    applied = 0
    for log in games():
        events: Events = list(log.events)
        hits = 0
        etype = getattr(mutate, "etype", None)
        for i in range(len(events)):
            if etype is not None and events[i].type != etype:
                continue
            if etype is None and i != len(events) - 1:
                continue
            before = replay_to(log.header, events, i - 1, ruleset=RULESET).state if i else \
                RULESET.setup(log.header, _Sink())
            try:
                mutated = mutate(events, i, before)
            except (ValueError, StopIteration):  # not expressible as a valid event here
                continue
            if mutated is None:
                continue
            r = replay(log.header, mutated, ruleset=RULESET)
            got = {f.code for f in r.findings}
            assert got & codes, (kind, i, [f.code for f in r.findings][:6])
            applied += 1
            hits += 1
            if hits >= 2:
                break
    assert applied, f"{kind}: no simulated game offered an event to mutate"


class _Sink:
    """A throwaway sink for building the state before the first event."""

    def __new__(cls) -> Any:
        from engine.core.findings import FindingSink

        return FindingSink(RULESET.catalogue)


def test_random_mutations_never_raise() -> None:
    rng = random.Random(5)
    log = games()[1]
    for _ in range(40):
        events = list(log.events)
        for _ in range(4):
            i = rng.randrange(len(events))
            op = rng.random()
            if op < 0.3:
                del events[i]
            elif op < 0.5:
                events.insert(i, events[rng.randrange(len(events))])
            else:
                d = dump_event(events[i])
                keys = [k for k in d if k != "type" and isinstance(d[k], int)
                        and not isinstance(d[k], bool)]
                if keys:
                    d[rng.choice(keys)] = rng.randint(1, 6)
                    with contextlib.suppress(ValueError):
                        events[i] = EVENT_ADAPTER.validate_python(d)
        header = log.header if rng.random() < 0.7 else log.header.model_copy(
            update={"detail": "partial"})
        r = replay(header, events, ruleset=RULESET)
        assert r.state is not None
