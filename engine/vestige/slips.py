"""One slip, one finding (docs/engine.md, issue 21) for Vestige: how a hand-transcription slip
is reported once and the table's evident state followed, so that what follows from it does not
stand as a rule error of its own.

* The codes (:data:`CONSEQUENCE_CODES`, :data:`LINGERING_CODES`, :data:`SLIP_CODES`,
  :data:`MISMATCH_CODES`) tell the replay's finding sink (engine.core.findings.FindingSink)
  which findings may follow from an earlier slip of the same seat: they are then notes that link
  to it. A line that could not be read is such a slip.
* :func:`read_line` runs before an event is applied: a main-action line that repeats the line
  before it exactly (a line written twice) is reported once and not applied again; a line that
  names another seat in the middle of a seat's turn, and fits only the seat whose turn it is,
  is read as that seat's (a wrong seat), after one finding.
* The move, turn and round handlers follow the table where it shows where things are: a pawn's
  recorded start after a garbled or missing move (:func:`lose_track`), tiles the engine
  assumed flipped (actions.py), the round count after a mislabelled ``round_start`` (turns.py).
  A turn that ends without its move demotes what showed it first (turns.end_turn).
* What every seat's leverage decides (the endgame, a nemesis's threat) follows from a line that
  could not be read or is evidently missing, for the rest of the game (:func:`lost_line`).
"""

from __future__ import annotations

from typing import Any

from engine.core.findings import FindingSink
from engine.vestige.board import adjacent_tiles, reachable
from engine.vestige.content import CONTENT
from engine.vestige.state import GameState, SeatState
from schemas.findings import Finding

#: codes whose check reads state an earlier slip of the seat may have put wrong (where its pawn
#: stands, which tiles are face up, its blocks, what it has used this turn)
CONSEQUENCE_CODES = frozenset({
    "checkpoint/mismatch", "vestige-turn/no-move", "vestige-turn/reset-unused",
    "vestige-turn/reset-twice", "vestige-turn/not-your-turn",
    "vestige-turn/out-of-order", "vestige-turn/missing", "vestige-round/out-of-order",
    "vestige-move/wrong-start", "vestige-move/reveal-missing", "vestige-move/reveal-invalid",
    "vestige-move/too-far", "vestige-move/occupied", "vestige-visit/not-adjacent",
    "vestige-control/no-visit", "vestige-blocks/unaffordable", "vestige-card/draw-missing",
    "vestige-recover/card-blocks", "vestige-activate/not-character",
    "vestige-job/pickup-not-adjacent", "vestige-job/complete-not-adjacent",
    "vestige-job/not-assigned", "vestige-effect/inactive-contact",
    # what a seat's leverage decides: a slip that lost or added leverage moves its triggers
    "vestige-trigger/not-reached", "vestige-trigger/missing", "vestige-covert/draw-invalid",
    "vestige-covert/draw-missing", "vestige-covert/flip-invalid",
    "vestige-endgame/not-revealed", "vestige-endgame/early-end",
    "vestige-endgame/reveal-not-triggered", "vestige-endgame/reveal-missing",
    "vestige-card/not-owned",
})

#: codes about one seat that read what nothing in a Vestige log resynchronises once a round is
#: over (where its pawn stands, which tiles are face up, the blocks on its dashboard and cards,
#: its speed and leverage, unless a checkpoint records them): after a seat's first slip they
#: are notes linked to it for the rest of the game. What every seat's leverage decides (the
#: endgame, the winners) is not among them: a slip of one seat explains those only within its
#: round, or for the rest of the game when a line could not be read (:func:`lost_line`).
LINGERING_CODES = frozenset({
    "vestige-move/wrong-start", "vestige-move/reveal-invalid", "vestige-blocks/unaffordable",
    "vestige-recover/card-blocks", "vestige-move/too-far", "vestige-trigger/not-reached",
    "vestige-trigger/missing", "vestige-covert/draw-invalid", "vestige-covert/draw-missing",
    "vestige-covert/flip-invalid", "vestige-card/not-owned",
})

#: codes that say the log itself is garbled here (a line unreadable, missing, written twice or
#: for the wrong seat, a pawn moving from where it is not, an action reset before it was taken,
#: blocks spent or taken off a card that the seat does not have there, a card used that is not
#: in its tableau): what follows them for the same seat may be their consequence
SLIP_CODES = frozenset({
    "log/parse-error", "vestige-turn/no-move", "vestige-turn/not-your-turn",
    "vestige-turn/action-repeated", "vestige-move/wrong-start", "vestige-round/out-of-order",
    "vestige-turn/out-of-order", "vestige-recover/card-blocks", "vestige-turn/reset-unused",
    "vestige-blocks/unaffordable", "vestige-activate/not-character", "vestige-card/not-owned",
})

#: codes that follow from any earlier finding about the seat until the next round
MISMATCH_CODES = frozenset({"checkpoint/mismatch", "vestige-blocks/unaffordable"})


def lost_line(st: GameState, sink: FindingSink) -> Finding | int | None:
    """An earlier line that could not be read, or that is evidently missing (an action reset
    and never taken in its turn): what it recorded never reached the engine, so what every
    seat's leverage decides may follow from it for the rest of the game. (A turn without its
    move is not one: a move changes no leverage.)"""
    unread = sink.unread()
    if unread is not None:
        return unread
    return st.missing_lines[0] if st.missing_lines else None


def unread_now(sink: FindingSink) -> int | None:
    """A line this round that could not be read (or was read with a cell in doubt): the
    display and the stacks' tops it may have recorded (a face-up job, a stack's new top) were
    lost with it, so what the next pickup finds there follows from it. (Not any slip: a
    display finding is about no seat, and a plain slip of one seat must not hide it.)"""
    return next((c for c in sink.implicated.values() if isinstance(c, int)), None)


def move_sign(s: SeatState, f: Finding) -> None:
    """``f`` (a visit, pickup or completion away from ``s``'s pawn, a reset of its move not
    taken, a teammate's move ending on its pawn), before ``s`` moved this turn, may be the first
    sign of a move line that is missing: if the turn ends without a move, ``f`` is demoted to
    follow from that (turns.end_turn). Notes are no signs: they follow from a slip already."""
    if f.severity != "info" and not s.used.get("move"):
        s.turn_doubt = s.turn_doubt or f


def card_sign(s: SeatState, f: Finding, card: str) -> None:
    """``f`` (``card`` used by ``s`` but not in its tableau) may be the first sign of a draw
    line that is missing: if the turn ends with its visit's draw missing, ``f`` is demoted and
    the card enters the tableau (turns.end_turn)."""
    if f.severity != "info":
        s.card_doubt = s.card_doubt or (f, card)


def lose_track(st: GameState, s: SeatState, cause: Finding | None) -> None:
    """``cause`` shows that a move of ``s`` is missing or garbled: where its pawn stands is in
    doubt until its next recorded move, and so are the face-down tiles that move could have
    flipped (every tile next to a space within its speed, boosted, of where it stood): a later
    move that finds one face down links to ``cause`` (engine/vestige/actions.py)."""
    if cause is None:
        return
    s.space_doubt = cause
    if s.space is None:
        return
    reach = reachable(s.space, s.speed + CONTENT.stated["speed_boost"], frozenset())
    for space in (s.space, *reach):
        for pos in adjacent_tiles(space):
            if pos not in st.face_up:
                st.tiles_doubt.setdefault(pos, cause)


def new_round(sink: FindingSink) -> None:
    """A new round: what a slip of the last round left in doubt was played past (what a round
    does not resynchronise lingers: :data:`LINGERING_CODES`). A slip on this very line (the
    ``round_start`` row could not be read whole) still explains what it gives now."""
    here = {seat: cause for seat, cause in sink.implicated.items()
            if (cause if isinstance(cause, int) else cause.where.line) == sink.line
            and sink.line is not None}
    sink.settle()
    for seat, cause in here.items():
        sink.implicate(seat, cause)


#: lines never written twice in a row: a main action needs a reset between two of them, a
#: job card is picked up or completed once, and a round or turn begins or ends once
_REPEAT = {"move": "vestige-turn/action-repeated", "activate": "vestige-turn/action-repeated",
           "visit": "vestige-turn/action-repeated", "pickup": "vestige-turn/action-repeated",
           "complete": "vestige-turn/action-repeated", "control": "vestige-control/twice",
           "round_start": "vestige-round/out-of-order", "turn_start": "vestige-turn/out-of-order",
           "turn_end": "vestige-turn/out-of-order"}
#: lines that only the seat whose turn it is writes (a main action, its reset)
_IN_TURN = frozenset({"move", "activate", "visit", "pickup", "complete", "control", "reset",
                      "rest"})


def read_line(st: GameState, ev: Any, sink: FindingSink) -> Any:
    """The event as the table evidently meant it, or None when it is not to be applied."""
    prev, st.prev_event = st.prev_event, ev
    kind = ev.type
    if st.partial or st.phase != "play":
        return ev
    seat = getattr(ev, "seat", None)
    code = _REPEAT.get(kind)
    if code is not None and prev is not None and prev.__class__ is ev.__class__ \
            and prev.__dict__ == ev.__dict__:
        whose = f"seat {seat}'s {kind}" if seat is not None else f"the {kind}"
        sink.report(code, f"{whose} line repeats the line before it exactly (a line written "
                    "twice); it is not applied again", seat=seat, expected="once",
                    recorded="twice")
        return None
    if (kind in _IN_TURN and st.active is None and not st.team_turn and seat in st.seats
            and seat not in st.took_turn and st.header.mode != "coop"):
        # an action between two turns, by a seat that has not had its turn this round: its
        # turn_start line is missing. Reported once, and the turn begins here
        from engine.vestige.turns import on_turn_start
        from schemas.vestige import TurnStart

        sink.report("vestige-turn/not-your-turn", f"seat {seat}'s {kind} was recorded "
                    f"between turns: read as the start of seat {seat}'s turn (its turn_start "
                    "line missing?)", seat=seat, expected="a turn_start", recorded=kind)
        on_turn_start(st, TurnStart(seat=seat), sink)
        st.implicit_start = seat
        return ev
    doubt = st.start_doubt
    if (doubt is not None and kind in _IN_TURN and st.active is not None and seat != st.active
            and seat == doubt[0] and not st.seats[st.active].used):
        # the turn_start named another seat than clockwise order gives, and the turn's first
        # action is by the seat it gives: the seat number on turn_start was the slip (that
        # finding said so); the turn is this seat's
        from engine.vestige.turns import reset_turn

        st.start_doubt = None
        st.active = seat
        reset_turn(st.seats[seat])
        return ev
    if st.team_turn and kind == "move" and seat in st.seats and not _fits(st, ev, seat):
        # a team turn (co-op): every teammate moves; a move that starts where another
        # teammate's pawn stands is that teammate's (pawns never share a space)
        meant = [o for o in st.seats if o != seat and _fits(st, ev, o)]
        if len(meant) == 1:
            st.read_as[meant[0]] = sink.report(
                "vestige-move/wrong-start", f"seat {seat}'s move starts on space {ev.path[0]}, "
                f"where seat {meant[0]}'s pawn stands: read as seat {meant[0]}'s (a wrong seat)",
                seat=seat, expected=st.seats[seat].space, recorded=ev.path[0],
                involves=(meant[0],))
            return ev.model_copy(update={"seat": meant[0]})
    active = st.active
    if (active is None or st.team_turn or seat is None or seat == active
            or seat not in st.seats or active not in st.seats):
        return ev
    if _fits(st, ev, active) and not _fits(st, ev, seat):
        st.read_as[active] = sink.report(
            "vestige-turn/not-your-turn", f"seat {seat}'s {kind} was recorded during seat "
            f"{active}'s turn and fits only seat {active}'s turn: read as seat {active}'s "
            "(a wrong seat)", seat=seat, expected=active, recorded=seat, involves=(active,))
        return ev.model_copy(update={"seat": active})
    return ev


def _fits(st: GameState, ev: Any, seat: int) -> bool:
    """Whether ``ev`` is what ``seat`` could have done now, by where it stands and what it
    holds (only the evidence a line carries: a move's start, a visited tile next to the pawn,
    a card in the tableau, an action taken this turn, the card its visit calls for, the covert
    op its trigger calls for)."""
    s = st.seats[seat]
    kind = ev.type
    if kind == "move":
        return s.space is not None and ev.path[0] == s.space
    if kind in ("visit", "control"):
        return s.space is not None and ev.position in adjacent_tiles(s.space)
    if kind == "activate":
        return ev.card in s.cards
    if kind == "reset":
        return bool(s.used.get(ev.action))
    if kind == "draw":  # the card a visit of this seat calls for
        return st.pending_draw == (seat, ev.stack)
    if kind == "covert_op" and ev.action == "draw" and ev.trigger is not None:
        return ev.trigger in s.covert_due  # a magenta trigger this seat just reached
    return False
