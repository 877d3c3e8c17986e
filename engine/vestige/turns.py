"""Game Summary (p. 10), Turns & Actions (p. 10) and Tracking and Resetting (p. 16): rounds of
turns clockwise from the starting player, the four main actions once per turn (move mandatory),
resets (1 conviction, each action at most once per turn), and the end-of-turn checks."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.vestige.blocks import move
from engine.vestige.board import adjacent_tiles
from engine.vestige.slips import (
    MISSING_ACTION,
    TURN_VALUES,
    USED,
    VALUE_WORDS,
    lose_track,
    move_sign,
    restate,
    words,
)
from engine.vestige.state import GameState, SeatState
from schemas.vestige import Reset, RoundStart, TurnEnd, TurnStart


def close_round(st: GameState, sink: FindingSink) -> None:
    """A round is over: every seat took a turn, every nemesis too (full logs)."""
    if st.round == 0 or st.partial:
        st.took_turn.clear()
        st.nemesis_done.clear()
        return
    close_open_turn(st, sink, f"round {st.round}'s end")
    if not st.team_turn and st.header.mode != "coop":
        for seat in st.order:
            if seat not in st.took_turn:
                sink.report("vestige-turn/missing", f"round {st.round} ended without seat "
                            f"{seat}'s turn", seat=seat, expected="a turn", recorded="none")
    elif st.header.mode == "coop" and not st.took_turn:
        sink.report("vestige-turn/missing", f"round {st.round} ended without the team turn")
    for n in st.nemeses:
        if n not in st.nemesis_done:
            sink.report("vestige-nemesis/missing-turn",
                        f"round {st.round} ended without {n}'s turn", expected=n, recorded="none")
    st.took_turn.clear()
    st.nemesis_done.clear()


def on_round_start(st: GameState, ev: RoundStart, sink: FindingSink) -> None:
    from engine.vestige.setup import finish_setup

    finish_setup(st, sink)
    close_round(st, sink)
    # the table lays out the face-up jobs and the stacks afresh each round as far as a log
    # shows them: a line of the last round that could not be read no longer explains them
    sink.resolve(None, ("table:display", "table:stacks"))
    label, st.round_label = st.round_label, None
    # after a mislabelled round, the table's count may go on from its label (that finding said
    # so) as well as from the engine's count
    if ev.round != st.round + 1 and (label is None or ev.round != label + 1):
        sink.report("vestige-round/out-of-order", f"round {ev.round} follows round {st.round}",
                    expected=st.round + 1, recorded=ev.round)
        # one slip, one finding: the next round may follow this label or the count
        st.round_label = ev.round
        ev = ev.model_copy(update={"round": st.round + 1})
    else:
        sink.resolve(None, ("table:round",))  # the round follows in order: the count agrees
    if st.final_round is not None and ev.round > st.final_round:
        sink.report("vestige-endgame/round-after-final",
                    f"round {ev.round} was played after the final round {st.final_round}",
                    expected=f"final scoring after round {st.final_round}", recorded=ev.round)
        st.final_round = ev.round  # report once
    st.round = ev.round
    st.turn_no = 0
    st.phase = "play"


def reset_turn(s: SeatState) -> None:
    s.turn_doubt = None
    s.card_doubt = None
    s.reset_unused.clear()
    s.used.clear()
    s.resets.clear()
    s.boosted = False
    s.activated.clear()
    s.controlled_now.clear()
    s.visited_now.clear()
    s.dove = False
    s.dove_jobs = 0
    s.aug_used.clear()
    s.floating_credit = 0
    s.rolls.clear()
    s.rolling_for = None


def expected_seat(st: GameState) -> int | None:
    for seat in st.order:
        if seat not in st.took_turn:
            return seat
    return None


def on_turn_start(st: GameState, ev: TurnStart, sink: FindingSink) -> None:
    from engine.vestige.setup import finish_setup

    finish_setup(st, sink)
    if st.round == 0:
        st.round = 1
        st.phase = "play"
    st.start_doubt = None
    if ev.seat is not None and ev.seat == st.implicit_start == st.active:
        # the turn began at an action before this line (slips.read_line said so): the
        # turn_start written after it starts nothing new
        st.implicit_start = None
        return
    st.implicit_start = None
    close_open_turn(st, sink, f"seat {ev.seat}'s turn_start" if ev.seat else "a turn_start")
    if (ev.seat is not None and ev.seat in st.took_turn and not st.partial and not st.nemeses
            and st.header.mode != "coop" and all(x in st.took_turn for x in st.order)):
        # every seat had its turn and one starts again: a new round began (its round_start
        # line missing). Reported once; the round count goes on from here
        # (the round_start line may be one that could not be read: the round in doubt)
        lost = sink.doubted.get(None, {}).get("table:round")
        on_round_start(st, RoundStart(round=st.round + 1), sink)
        sink.report("vestige-round/out-of-order", f"seat {ev.seat} starts a turn after every "
                    f"seat had its turn in round {st.round - 1}: read as round {st.round} (its "
                    "round_start line missing?)", expected="a round_start", recorded="none",
                    follows=lost, because=VALUE_WORDS["table:round"])
    st.turn_no += 1
    st.shared.clear()
    st.team_controlled.clear()
    # an artifact once per turn (p. 22; ruling artifact-other-turns): every turn, or the
    # owner's turns only
    every = st.rulings.get("artifact-other-turns") == "every-turn"
    if ev.seat is None or st.header.mode == "coop":
        st.team_turn = True
        st.active = None
        for s in st.seats.values():
            reset_turn(s)
            sink.resolve(s.seat, TURN_VALUES)
            s.artifacts_used.clear()
        return
    for s in st.seats.values():
        if every or s.seat == ev.seat:
            s.artifacts_used.clear()
    want = expected_seat(st)
    if ev.seat != want and not st.partial:
        f = sink.report("vestige-turn/out-of-order", f"seat {ev.seat} took a turn; clockwise "
                        f"order gives seat {want}", seat=ev.seat, expected=want,
                        recorded=ev.seat, involves=(want,) if want is not None else ())
        if want is not None:
            st.start_doubt = (want, f)
    if not st.seats[ev.seat].set_up:
        sink.report("vestige-setup/missing", f"seat {ev.seat} took a turn before its setup",
                    seat=ev.seat)
        st.seats[ev.seat].set_up = True
    st.active = ev.seat
    reset_turn(st.seats[ev.seat])
    sink.resolve(ev.seat, TURN_VALUES)  # what the seat uses this turn starts afresh


def close_open_turn(st: GameState, sink: FindingSink, by: str) -> None:
    """A turn still open when ``by`` (the next turn, a round's end, a nemesis turn, final
    scoring) comes: its turn_end line is missing, reported here where its absence shows; the
    turn's end-of-turn checks run."""
    if st.active is None and not st.team_turn:
        return
    if st.active is not None and not st.team_turn and not st.partial and st.phase == "play":
        sink.report("vestige-turn/end-missing", f"seat {st.active}'s turn was not ended before "
                    f"{by} (its turn_end line missing?)", seat=st.active,
                    expected="a turn_end", recorded="none")
    end_turn(st, sink, None)


def end_turn(st: GameState, sink: FindingSink, seat: int | None) -> None:
    """End-of-turn checks: the mandatory move, control paired with a visit, triggers recorded."""
    seats = list(st.seats) if st.team_turn else [st.active] if st.active is not None else []
    for sn in seats:
        s = st.seats[sn]
        if not st.partial:
            if not s.used.get("move"):
                # the pawn stands where the table has it: its next move's start is followed
                first = s.turn_doubt
                f = sink.report("vestige-turn/no-move", f"seat {sn}'s turn ended without a "
                                "move", seat=sn, expected="one move", recorded="none",
                                stands=first is not None)
                if first is not None:
                    # a visit away from the pawn, a reset of the move not taken, earlier this
                    # turn, was where the missing move line first showed: the one finding
                    # stands there (what followed it links to it)
                    f = restate(sink, first, f, f"seat {sn}'s move line is missing before "
                                f"this line: {first.message}, and the turn ended without a "
                                "move")
                lose_track(st, s, f)
            for action, f in s.reset_unused.items():
                if action != "move" and not s.used.get(action) and f.severity != "info":
                    # reset, never taken: its line is evidently missing, and what it changed
                    sink.doubt(sn, MISSING_ACTION.get(action, ("turn",)), f)
            for pos in sorted(s.controlled_now - s.visited_now):
                sink.report("vestige-control/no-visit", f"seat {sn} took control of {pos} "
                            "without visiting it this turn", seat=sn, expected="a visit",
                            recorded=pos)
            for point in sorted(s.pending_triggers):
                st.rest_on("trigger_points")
                sink.report("vestige-trigger/missing", f"seat {sn}'s leverage {s.leverage} "
                            f"passed trigger {point}, which was not recorded", seat=sn,
                            expected=f"trigger {point}", recorded="none")
        if st.pending_draw is not None and st.pending_draw[0] == sn:
            if not st.partial:
                f = sink.report("vestige-card/draw-missing", f"seat {sn}'s visit adds a "
                                f"{st.pending_draw[1]} but no card was drawn", seat=sn,
                                expected=f"a {st.pending_draw[1]} drawn", recorded="none",
                                stands=s.card_doubt is not None)
                if s.card_doubt is not None:
                    # the card used this turn that is not in the tableau was the one whose
                    # draw line is missing: one slip, one finding, where it first showed; the
                    # table evidently drew it, so it is in the tableau from now on
                    from engine.vestige.cards import enter_tableau

                    first, card = s.card_doubt
                    restate(sink, first, f, f"seat {sn}'s draw line is missing: its visit "
                            f"added a {st.pending_draw[1]} and no card was drawn; "
                            f"{first.message}")
                    if st.owner(card) is None:
                        enter_tableau(st, s, card, st.pending_draw[1], sink)
            st.pending_draw = None
        for point in sorted(s.covert_due):
            if not st.partial:
                st.rest_on("magenta_triggers")
                sink.report("vestige-covert/draw-missing", f"seat {sn} reached magenta trigger "
                            f"{point} and drew no covert op", seat=sn,
                            expected=f"a covert op drawn at trigger {point}", recorded="none")
        s.covert_due.clear()
        s.pending_triggers.clear()
        s.turns += 1
        st.took_turn.add(sn)
        reset_turn(s)
    check_due(st, sink)
    st.early_draw = None
    st.active = None
    st.team_turn = False
    st.shared.clear()
    st.team_controlled.clear()


def check_due(st: GameState, sink: FindingSink) -> None:
    """What must follow at once has followed: a face-up job taken is replaced (p. 14) unless
    its stack is empty; the first human at a trigger revealed its endgame card (p. 25)."""
    from engine.vestige.cards import supply_left

    if st.partial:
        st.display_taken.clear()
        st.endgame_due.clear()
        return
    for stack in sorted(st.display_taken):
        if supply_left(st, stack) != 0:
            sink.report("vestige-job/face-up-not-replaced", f"the face-up {stack} was taken and "
                        "not replaced by the top card of the stack", expected="a display",
                        recorded="none")
    st.display_taken.clear()
    for point in sorted(st.endgame_due):
        if st.final_round is None and point not in st.trigger_endgame:
            sink.report("vestige-endgame/reveal-missing", f"trigger {point} was reached first; "
                        "its stack's endgame condition was not revealed",
                        expected=f"an endgame card at trigger {point}", recorded="none")
    st.endgame_due.clear()


def on_turn_end(st: GameState, ev: TurnEnd, sink: FindingSink) -> None:
    if (ev.seat is not None and st.active is not None and ev.seat != st.active
            and not st.team_turn and not st.partial):
        # the turn that ends is the one that began: the seat number is the slip
        sink.report("vestige-turn/not-your-turn", f"turn_end names seat {ev.seat} during seat "
                    f"{st.active}'s turn: read as the end of seat {st.active}'s turn (a wrong "
                    "seat)", seat=ev.seat, expected=st.active, recorded=ev.seat,
                    involves=(st.active,))
    end_turn(st, sink, ev.seat)


def actor(st: GameState, seat: int, sink: FindingSink, what: str) -> None:
    """A main action must be taken by the seat whose turn it is."""
    if st.team_turn or st.partial or st.phase != "play":
        return
    if st.active != seat:
        sink.report("vestige-turn/not-your-turn", f"seat {seat} took {what} during "
                    f"{'no turn' if st.active is None else f'seat {st.active} turn'}",
                    seat=seat, expected=st.active, recorded=seat)


def take_main(st: GameState, s: SeatState, action: str, sink: FindingSink) -> None:
    """Each main action once per turn, once more after a reset (p. 10, p. 16)."""
    actor(st, s.seat, sink, action)
    allowed = 1 + (1 if action in s.resets else 0)
    n = s.used.get(action, 0)
    if n >= allowed:
        sink.report("vestige-turn/action-repeated", f"seat {s.seat} took {action} again "
                    f"without a reset", seat=s.seat, expected=allowed, recorded=n + 1,
                    reads=(USED.get(action, "turn"),))
    s.used[action] = n + 1


def on_reset(st: GameState, ev: Reset, sink: FindingSink) -> None:
    s = st.seats[ev.seat]
    actor(st, ev.seat, sink, "a reset")
    if ev.action in s.resets:
        sink.report("vestige-turn/reset-twice", f"{ev.action} was already reset this turn",
                    seat=ev.seat, expected="once", recorded="twice")
        return
    if not s.used.get(ev.action):
        moved = ev.action == "move"
        f = sink.report("vestige-turn/reset-unused", f"{ev.action} has not been taken this turn"
                        + (" (if the turn moved, its move line is missing)" if moved else ""),
                        seat=ev.seat, recorded=ev.action,
                        follows=s.turn_doubt if moved else None,
                        because=words(ev.seat, "space"))
        s.reset_unused[ev.action] = f
        if moved and not st.partial:
            move_sign(s, f)
    move(s, "conviction", "influence", 1, sink, "reset")
    s.resets.add(ev.action)


def adjacent_regions(st: GameState, s: SeatState) -> dict[str, str | None]:
    return {p: st.map.get(p) for p in adjacent_tiles(s.space or 0)}
