"""§3 A turn: rolling (§3.1), a one (§3.2), two to six (§3.3), holding (§3.4), rolling first
(§3.5) and the order of play (§3.6).

The log records decisions and the die (§5.1); everything else follows from them. When the log
breaks the order of play, the finding is reported once and the replay goes on from what the
table did (the recorded seat takes its turn), so one slip does not cause a cascade.
"""

from __future__ import annotations

from engine.api import FindingSink, LedgerEntry
from playtest_pig import codes
from playtest_pig.ending import after_hold, after_turn, played_on
from playtest_pig.schema import Hold, Roll
from playtest_pig.state import GameState


def next_seat(st: GameState, seat: int) -> int:
    """The seat after ``seat`` clockwise (§3.6: after seat N comes seat 1)."""
    i = st.seats.index(seat) if seat in st.seats else -1
    return st.seats[(i + 1) % len(st.seats)]


def pass_turn(st: GameState, to: int | None = None) -> None:
    """End the current turn and give the next one to ``to`` (the next seat by default, §3.6); a
    new round starts each time play comes back to the first player."""
    nxt = next_seat(st, st.active) if to is None else to
    seat = st.active
    while True:  # every first-player crossing between the two seats starts a round
        seat = next_seat(st, seat)
        if seat == st.first_player:
            st.round += 1
        if seat == nxt or seat == st.active:
            break
    st.active = nxt
    st.turn_no += 1
    st.turn_total = 0
    st.rolled = False
    after_turn(st)


def _take_turn(st: GameState, seat: int, what: str, sink: FindingSink) -> None:
    """Check that ``seat`` is on turn (§3.6); if not, report it once and let it take the turn."""
    if seat == st.active:
        st.pigged_out = None
        return
    if seat == st.pigged_out:
        sink.report(
            "pig-turn/rolled-after-one",
            f"seat {seat} rolled a 1, which ended its turn (§3.2), then {what}; replay goes on "
            f"as if its turn had continued from a turn total of 0",
            seat=seat, expected=f"seat {st.active} to roll", recorded=f"seat {seat} {what}")
        st.turns[-1].ended = None
        st.active, st.turn_no, st.round = seat, st.turns[-1].number, st.turns[-1].round
        st.turn_total, st.rolled, st.pigged_out = 0, True, None
        return
    sink.report(
        "pig-turn/not-your-turn",
        f"seat {seat} {what} during seat {st.active}'s turn; replay goes on with seat {seat} "
        "taking its turn" + (f" (seat {st.active}'s turn total of {st.turn_total} is not banked)"
                             if st.turn_total else ""),
        seat=seat, expected=st.active, recorded=seat)
    if st.rolled:
        st.current.ended = "interrupted"
    st.pigged_out = None
    pass_turn(st, seat)


def on_roll(st: GameState, ev: Roll, sink: FindingSink) -> None:
    """§3.1-§3.3: a one loses the turn total and ends the turn; two to six add to it."""
    if played_on(st, ev, sink):
        return
    _take_turn(st, ev.seat, f"rolled a {ev.face}", sink)
    turn = st.current
    turn.rolls.append(ev.face)
    st.rolled = True
    total = 0 if ev.face == 1 else st.turn_total + ev.face
    if ev.total is not None and ev.total != total:
        sink.report(
            "checkpoint/mismatch",
            f"the table wrote seat {st.active}'s turn total as {ev.total} after rolling a "
            f"{ev.face}, the rules give {total}"
            + ("" if ev.face == 1 else f" ({st.turn_total} + {ev.face})")
            + "; continuing from the table's value", seat=st.active, expected=total,
            recorded=ev.total, rule=codes.ONE if ev.face == 1 else codes.TWO_TO_SIX)
        total = ev.total
    if ev.face == 1:
        turn.ended, turn.banked = "pig_out", 0
        turn.score_after = st.scores.get(st.active, 0)
        st.pigged_out = st.active
        pass_turn(st)
    else:
        st.turn_total = total


def on_hold(st: GameState, ev: Hold, sink: FindingSink) -> None:
    """§3.4: the turn total is added to the score and the turn ends; §3.5: not before a roll."""
    if played_on(st, ev, sink):
        return
    _take_turn(st, ev.seat, "held", sink)
    seat = st.active
    turn = st.current
    if not st.rolled:
        sink.report("pig-hold/before-roll",
                    f"seat {seat} held before rolling in this turn; a turn begins with a roll "
                    "(nothing is banked)", seat=seat)
    amount = st.turn_total
    score = st.scores.get(seat, 0) + amount
    st.scores[seat] = score
    if amount:
        st.ledger.append(LedgerEntry(
            seat=seat, amount=amount, total=score, source="held_turn", era=None, cycle=None,
            event=st.event_index, detail=f"{len(turn.rolls)} rolls", round=st.round))
    if ev.score is not None and ev.score != score:
        sink.report(
            "checkpoint/mismatch",
            f"the table wrote seat {seat}'s score as {ev.score} after holding, the rules give "
            f"{score} ({score - amount} + a turn total of {amount}); continuing from the "
            "table's value", seat=seat, expected=score, recorded=ev.score, rule=codes.HOLD)
        st.ledger.append(LedgerEntry(
            seat=seat, amount=ev.score - score, total=ev.score, source="table_correction",
            era=None, cycle=None, event=st.event_index, detail="score written at the hold",
            round=st.round))
        st.scores[seat] = score = ev.score
    turn.ended, turn.banked, turn.score_after = "hold", amount, score
    after_hold(st, seat)
    if not st.over:
        pass_turn(st)
