"""Covert Ops (p. 24) and the Leverage Track Triggers (p. 25): a human disc reaching or passing a
trigger reveals its stack (endgame condition, threat cards) and, at a magenta trigger, draws the
seat one covert op, once per trigger; covert ops flip when their objective is met."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.vestige.blocks import gain
from engine.vestige.endgame import reveal_endgame
from engine.vestige.state import GameState
from schemas.vestige import CovertOp, Trigger


def on_trigger(st: GameState, ev: Trigger, sink: FindingSink) -> None:
    if ev.seat is None:
        _nemesis_trigger(st, ev, sink)
        return
    s = st.seats[ev.seat]
    point = ev.point
    st.rest_on("trigger_points")
    if point in s.triggers:
        sink.report("vestige-trigger/repeated", f"seat {ev.seat} already reached trigger "
                    f"{point}", seat=ev.seat, expected="once", recorded="again")
        return
    needed = st.content.trigger_points[point - 1]
    if s.leverage < needed and point not in s.pending_triggers and not st.partial:
        # the one trigger its leverage passed and the table has not recorded is evidently the
        # one this line meant (a number off by one): reported once, then read as that trigger
        meant = sorted(s.pending_triggers)
        sink.report("vestige-trigger/not-reached", f"seat {ev.seat} has {s.leverage} leverage; "
                    f"trigger {point} is at {needed}" + (
                        f"; its leverage passed trigger {meant[0]}, not yet recorded: read as "
                        f"trigger {meant[0]} (a number off by one?)" if len(meant) == 1 else ""),
                    seat=ev.seat, expected=f">= {needed}", recorded=s.leverage)
        if len(meant) != 1:
            return
        point = meant[0]
    first = point not in st.triggers_reached
    s.triggers.add(point)
    s.pending_triggers.discard(point)
    st.triggers_reached.add(point)
    if point in st.content.magenta_triggers:
        s.covert_due.add(point)  # drawn immediately after (p. 24)
    if ev.endgame is not None:
        reveal_endgame(st, ev.endgame, point, sink)
    elif first and st.final_round is None and point not in st.trigger_endgame:
        st.endgame_due.add(point)  # may follow as an endgame_reveal of this trigger
    for card in ev.threats:
        p = st.printed.get(card)
        owner = p.nemesis if p is not None and p.nemesis else None
        if owner is None and len(st.nemeses) == 1:
            owner = next(iter(st.nemeses))
        if owner in st.nemeses:
            st.nemeses[owner].threats.append(card)
        else:
            sink.report("vestige-nemesis/unknown", f"threat {card!r} belongs to no nemesis in "
                        "this game", recorded=owner)
    st.row("triggers", seat=ev.seat, point=point, endgame=ev.endgame, threats=len(ev.threats))


def _nemesis_trigger(st: GameState, ev: Trigger, sink: FindingSink) -> None:
    """A nemesis's disc recorded triggering a stack: reported (p. 26: nemesis discs do not
    trigger stacks), then followed (what the table revealed is in play)."""
    sink.report("vestige-trigger/nemesis", f"{ev.nemesis or 'no seat'} reached trigger "
                f"{ev.point}: only a human player's disc triggers a stack",
                expected="a human seat", recorded=ev.nemesis)
    st.triggers_reached.add(ev.point)
    if ev.endgame is not None:
        reveal_endgame(st, ev.endgame, ev.point, sink)
    for card in ev.threats:
        if len(st.nemeses) == 1:
            st.nemeses[next(iter(st.nemeses))].threats.append(card)


def on_covert_op(st: GameState, ev: CovertOp, sink: FindingSink) -> None:
    s = st.seats[ev.seat]
    if ev.action == "draw":
        if ev.trigger is None:
            if st.phase != "setup" or s.covert_held:
                sink.report("vestige-covert/draw-invalid", "the one covert op drawn outside a "
                            "trigger is at setup", seat=ev.seat, expected="setup",
                            recorded=st.phase)
                return
        else:
            st.rest_on("magenta_triggers")
            bad = None
            if ev.trigger not in s.triggers:
                bad = f"seat {ev.seat} has not reached trigger {ev.trigger}"
            elif ev.trigger not in st.content.magenta_triggers:
                bad = f"trigger {ev.trigger} is not magenta"
            elif ev.trigger in s.covert_draws:
                bad = f"seat {ev.seat} already drew at trigger {ev.trigger}"
            point = ev.trigger
            due = sorted(s.covert_due)
            if bad and len(due) == 1:
                # the one magenta trigger reached and not yet drawn at: the line meant it (a
                # number off by one): reported once, then read so
                sink.report("vestige-covert/draw-invalid", f"{bad}; it reached magenta trigger "
                            f"{due[0]} and drew nothing yet: read as trigger {due[0]} (a number "
                            "off by one?)", seat=ev.seat, recorded=ev.trigger)
                point = due[0]
            elif bad:
                sink.report("vestige-covert/draw-invalid", bad, seat=ev.seat,
                            recorded=ev.trigger)
                return
            s.covert_draws.add(point)
            s.covert_due.discard(point)
        s.covert_held += 1
        if ev.card is not None:
            s.covert_named.add(ev.card)
        return
    # flip
    if (ev.card is not None and ev.card in s.covert_flipped) or s.covert_flips >= s.covert_held:
        sink.report("vestige-covert/flip-invalid", f"seat {ev.seat} holds no unflipped covert "
                    f"op {ev.card or ''}".strip(), seat=ev.seat, expected=s.covert_held,
                    recorded=s.covert_flips + 1)
        return
    s.covert_flips += 1
    if ev.card is not None:
        s.covert_flipped.add(ev.card)
    if st.phase == "final_scoring":
        s.end_covert += ev.leverage
    gain(st, ev.seat, ev.leverage, "covert_op", ev.card or "")
    st.row("covert_ops", seat=ev.seat, card=ev.card, leverage=ev.leverage,
           at_end=st.phase == "final_scoring")
