"""§4 End of the game: reaching the target (§4.1), the equal-turns house rule (§4.2), and the
table's final record (§5.2) compared with the rules' result."""

from __future__ import annotations

from typing import Any

from engine.api import FindingSink, Outcome
from playtest_pig import codes
from playtest_pig.schema import Final
from playtest_pig.state import GameState

ENDINGS: dict[str, str] = {
    "target_reached": "Target reached (§4.1)",
    "equal_turns": "Round played out (§4.2)",
    "table_record": "Closed by the table's record",
}


def leaders(st: GameState) -> list[int]:
    """The seats with the highest score."""
    if not st.scores:
        return []
    best = max(st.scores.values())
    return sorted(s for s, v in st.scores.items() if v == best)


def end_ruling(st: GameState) -> tuple[str, ...]:
    """The ruling a finding about the end of the game rests on (``end=OPTION``)."""
    return (f"end={st.end_rule}",)


def _end(st: GameState, winners: list[int], ending: str) -> None:
    st.over = True
    st.winners = sorted(winners)
    st.ending = ending


def after_hold(st: GameState, seat: int) -> None:
    """A hold that brings a score to the target ends the game at once (§4.1), or fixes the last
    turn of the round (§4.2, equal turns)."""
    if st.reached is not None or st.scores.get(seat, 0) < st.target:
        if st.last_turn is not None and st.turn_no >= st.last_turn:
            _end(st, leaders(st), "equal_turns")
        return
    st.reached = st.turn_no
    if st.end_rule == "immediate":
        _end(st, [seat], "target_reached")
        return
    order = st.seats[st.seats.index(st.first_player):] + st.seats[:st.seats.index(st.first_player)]
    remaining = len(order) - 1 - order.index(seat)
    st.last_turn = st.turn_no + remaining
    if remaining == 0:
        _end(st, leaders(st), "equal_turns")


def after_turn(st: GameState) -> None:
    """Equal turns (§4.2): once the round is played out, the highest score wins."""
    if st.last_turn is not None and st.turn_no > st.last_turn and not st.over:
        _end(st, leaders(st), "equal_turns")


def played_on(st: GameState, ev: Any, sink: FindingSink) -> bool:
    """A roll or hold after the rules ended the game (§4.1): reported once, not applied."""
    if not st.over:
        return False
    if not st.after_end_reported:
        sink.report("log/event-after-game-end",
                    f"seat {ev.seat} {'rolled' if ev.type == 'roll' else 'held'} after the game "
                    f"ended (seat{'s' if len(st.winners) > 1 else ''} "
                    f"{', '.join(map(str, st.winners))} won, §4); it was not applied",
                    seat=ev.seat, rule=codes.EQUAL if st.end_rule == "equal_turns" else codes.TARGET,
                    rulings=end_ruling(st))
        st.after_end_reported = True
    return True


def on_final(st: GameState, ev: Final, sink: FindingSink) -> None:
    """§5.2: the table's final scores and winners, compared with the rules'."""
    if not st.over:
        best = max(st.scores.values(), default=0)
        why = (f"no seat has reached the target of {st.target} (highest score {best})"
               if st.reached is None else "the round is not played out yet (§4.2)")
        sink.report("pig-end/not-over", f"the final record closes the game, but {why}; the "
                    "table's record is taken as the end", expected="the game to go on",
                    recorded="final record",
                    rule=codes.EQUAL if st.reached is not None else codes.TARGET,
                    rulings=end_ruling(st))
        _end(st, list(ev.winners) if ev.winners else leaders(st), "table_record")
    for seat, value in sorted((ev.scores or {}).items()):
        engine = st.scores.get(seat)
        if engine != value:
            sink.report("checkpoint/mismatch",
                        f"the final record gives seat {seat} a score of {value}, the rules give "
                        f"{engine if engine is not None else 'no such seat'}",
                        seat=seat, expected=engine, recorded=value, rule=codes.RECORD)
    if ev.winners is not None and sorted(set(ev.winners)) != st.winners:
        rule = codes.EQUAL if st.end_rule == "equal_turns" else codes.TARGET
        sink.report("pig-end/winner",
                    f"the final record names winner(s) {sorted(set(ev.winners))}, the rules give "
                    f"{st.winners}", expected=st.winners, recorded=sorted(set(ev.winners)),
                    rule=rule, rulings=end_ruling(st))
    st.final_recorded = True
    st.closed = True


def outcome(st: GameState) -> Outcome:
    """How the game ended (complete once the rules ended it), with Pig's own details."""
    details: dict[str, Any] = {
        "final_scores": dict(sorted(st.scores.items())), "target": st.target,
        "rounds": st.round if not st.over else max((t.round for t in st.turns), default=0),
        "turns": len(st.turns), "end_rule": st.end_rule,
    }
    if not st.over:
        return Outcome(complete=False, provisional_winners=leaders(st), details=details)
    return Outcome(complete=True, winners=list(st.winners), ending=st.ending,
                   provisional_winners=list(st.winners), details=details)
