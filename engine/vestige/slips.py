"""One slip, one finding, by provenance (DESIGN.md §5; docs/engine.md, issues 21 and 26) for
Vestige: a hand-transcription slip is reported once, and a later finding follows from it only
when a value its check reads is in doubt because of that slip; its note names that value.

* :data:`READS` (finding code -> the values its check reads), :data:`DOUBTS` (slip code -> the
  values of its seat it puts in doubt) and :data:`VALUE_WORDS` are the ruleset's declaration
  for the core's doubt ledger (engine.core.findings.FindingSink). A plain rule error puts
  nothing in doubt: the engine follows the table's record after it, and later findings stay
  errors. A line that could not be read puts every value of the seat its layout shows in doubt
  (the core), and what it may have recorded for the table (:func:`lost_lines`).
* Where the table resynchronises a value the doubt ends (``sink.resolve``): a seat's recorded
  move (where its pawn stands), the start of its turn (what it used this turn), a round start
  (the face-up jobs and the stacks' tops, the round), a checkpoint (the values it records).
* :func:`read_line` runs before an event is applied: a main-action line that repeats the line
  before it exactly (a line written twice) is reported once and not applied again; a line that
  names another seat in the middle of a seat's turn, and fits only the seat whose turn it is,
  is read as that seat's (a wrong seat), after one finding.
* The move, turn and round handlers follow the table where it shows where things are: a pawn's
  recorded start after a garbled or missing move (:func:`lose_track`), tiles the engine
  assumed flipped (actions.py), the round count after a mislabelled ``round_start`` (turns.py).
  A turn that ends without its move is reported where its absence first showed
  (:func:`restate`).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from engine.core.findings import FindingSink
from engine.vestige.board import adjacent_tiles, reachable
from engine.vestige.content import CONTENT
from engine.vestige.state import GameState, SeatState
from schemas.findings import Finding

#: the main actions a seat uses once a turn (each its own value: a line read as another seat's
#: puts that action of the seat in doubt, not the others)
USED = {a: f"used:{a}" for a in ("move", "visit", "activate", "job")}
#: what a seat did this turn: the table starts it afresh at the seat's next turn
TURN_VALUES = ("turn", *USED.values())

#: value name -> the words a note names it by ("seat 2's blocks")
VALUE_WORDS: MappingProxyType[str, str] = MappingProxyType({
    "space": "where its pawn stands",
    "blocks": "blocks",
    "speed": "speed",
    "leverage": "leverage",
    "tableau": "tableau",
    "regions": "regions under its control",
    "triggers": "triggers and covert ops",
    "turn": "actions this turn",
    **{v: f"{a} this turn" for a, v in USED.items()},
    "table:tiles": "the face-down tiles",
    "table:display": "the face-up jobs and the chop bot market",
    "table:stacks": "the regions the job stacks' top cards show",
    "table:round": "the round and whose turn it is",
    "table:endgame": "the endgame conditions revealed",
})

_TURN = ("turn",)
_ROUND = ("table:round",)
#: finding code -> the values its check reads (of the finding's seat; of every seat for a
#: finding about no seat). A code not here reads only its own event and the printed cards:
#: it never follows from a slip.
READS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType({
    "checkpoint/mismatch": ("blocks", "leverage", "speed"),  # (each resync names its value)
    "vestige-card/unrecorded": ("tableau", "table:display"),
    "vestige-card/not-owned": ("tableau",),
    "vestige-card/draw-missing": _TURN,
    "vestige-card/in-play": ("tableau",),
    "vestige-card/draw-order": _TURN,
    "vestige-card/draw-wrong-stack": _TURN,
    "vestige-card/supply": ("tableau", "table:display"),
    "vestige-round/out-of-order": _ROUND,
    "vestige-turn/out-of-order": _ROUND,
    "vestige-turn/not-your-turn": (*_ROUND, *_TURN),
    "vestige-turn/action-repeated": _TURN,
    "vestige-turn/reset-twice": _TURN,
    "vestige-turn/reset-unused": _TURN,
    "vestige-turn/no-move": (USED["move"], "turn"),
    "vestige-turn/missing": (*_ROUND, *_TURN),
    "vestige-visit/not-resolved": ("speed",),
    "vestige-visit/controller-leverage": ("table:tiles",),
    "vestige-blocks/unaffordable": ("blocks",),  # (a card's: its tableau; a region's: regions)
    "vestige-activate/not-character": ("tableau",),
    "vestige-move/wrong-start": ("space",),
    "vestige-move/too-far": ("speed", "turn"),
    "vestige-move/occupied": ("space",),
    "vestige-move/reveal-missing": ("table:tiles",),
    "vestige-move/reveal-invalid": ("table:tiles",),
    "vestige-move/boost-twice": _TURN,
    "vestige-visit/not-adjacent": ("space",),
    "vestige-visit/wrong-region": ("table:tiles",),
    "vestige-job/pickup-not-adjacent": ("space", "table:stacks", *_TURN),
    "vestige-job/pickup-wrong-region": ("table:stacks", "table:tiles"),
    "vestige-job/assignee-busy": ("tableau",),
    "vestige-job/face-up-mismatch": ("table:display",),
    "vestige-job/not-assigned": ("tableau",),
    "vestige-job/complete-not-adjacent": ("space",),
    "vestige-job/no-roll": _TURN,
    "vestige-job/face-not-rolled": _TURN,
    "vestige-job/reroll-without-roll": _TURN,
    "vestige-job/face-up-not-replaced": ("table:display",),
    "vestige-job/stack-top-mismatch": ("table:stacks",),
    "vestige-job/floating-stones": ("regions", *_TURN),
    "vestige-recover/card-blocks": ("blocks", "tableau"),
    "vestige-recover/reassign": ("tableau",),
    "vestige-control/no-visit": _TURN,
    "vestige-control/twice": _TURN,
    "vestige-control/own": ("regions",),
    "vestige-artifact/twice": _TURN,
    "vestige-artifact/no-charge": ("blocks",),
    "vestige-artifact/overcharged": ("blocks",),
    "vestige-effect/inactive-contact": ("tableau", *_TURN),
    "vestige-effect/passive-inactive": ("blocks",),
    "vestige-effect/second-augmentation": _TURN,
    "vestige-attach/invalid": ("tableau", "space"),
    "vestige-transfer/invalid": ("tableau", "blocks", "space"),
    "vestige-covert/flip-invalid": ("triggers",),
    "vestige-covert/draw-missing": ("triggers",),
    "vestige-covert/draw-invalid": ("triggers",),
    "vestige-trigger/not-reached": ("leverage", "triggers"),
    "vestige-trigger/repeated": ("triggers",),
    "vestige-trigger/missing": ("leverage", "triggers"),
    # what every seat's leverage decides: the triggers reached reveal endgame conditions and
    # threat cards (p. 25); a finding about no seat reads the values of every seat
    "vestige-endgame/not-revealed": ("table:endgame", "triggers"),
    "vestige-endgame/early-end": ("table:endgame", "triggers", *_ROUND),
    "vestige-endgame/reveal-not-triggered": ("triggers",),
    "vestige-endgame/reveal-missing": ("triggers",),
    "vestige-endgame/reveal-twice": ("table:endgame",),
    "vestige-endgame/round-after-final": ("table:endgame", *_ROUND),
    "vestige-final/mismatch": ("leverage", "tableau", "regions", "triggers"),
    "vestige-final/winners": ("leverage", "tableau", "regions", "triggers"),
    "vestige-nemesis/threat-level": ("triggers",),
    "vestige-nemesis/leverage": ("triggers",),
    "vestige-nemesis/cards": ("triggers",),
    "vestige-nemesis/missing-turn": _ROUND,
    "vestige-nemesis/out-of-order": _ROUND,
})

#: slip code -> the values of its seat (and ``involves``) the slip puts in doubt. Only codes
#: that say the log itself is garbled: a turn without its move (where the pawn stands), a draw
#: line missing (the card the table drew), a turn_start whose seat is out of order (whose turn
#: it is). A plain rule error is not here: it puts nothing in doubt. (A line read as another
#: seat's, a path that is garbled, a reset of an action never taken: the handlers say what
#: they put in doubt, ``touches``/:func:`lose_track`.)
DOUBTS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType({
    "vestige-turn/no-move": ("space",),
    "vestige-card/draw-missing": ("tableau", "leverage"),
    "vestige-turn/out-of-order": _ROUND,
})

#: what a line that is evidently missing (an action reset and never taken in its turn) may
#: have changed of its seat
MISSING_ACTION = {"activate": ("blocks", "tableau"),
                  "visit": ("blocks", "tableau", "leverage", "speed", "regions"),
                  "job": ("blocks", "tableau", "leverage")}


def in_doubt(sink: FindingSink, seat: int, value: str) -> Finding | int | None:
    """The slip that left ``value`` of ``seat`` in doubt, if any (the core's ledger)."""
    mine = sink.doubted.get(seat)
    if not mine:
        return None
    cause = mine.get(value)
    if cause is None and "*" in mine and value not in sink.cleared.get(seat, ()):
        cause = mine["*"]
    return cause


def words(seat: int, value: str) -> str:
    """``value`` of ``seat`` in a note's words."""
    return f"seat {seat}'s {VALUE_WORDS.get(value, value)}"


def lost_lines(st: GameState, sink: FindingSink) -> None:
    """Lines that could not be read since the last event: besides the values of the seat its
    layout shows (the core), such a line may have recorded what every seat sees (a face-up
    job, a stack's new top; a line of no seat: a round, an endgame card), and a move of its
    seat may have flipped tiles next to where its pawn could go (:func:`lose_track`)."""
    for line in sorted(sink.doubtful_lines - st.lines_lost):
        st.lines_lost.add(line)
        seat = next((x for x, vals in sink.doubted.items()
                     if x is not None and vals.get("*") == line), None)
        if seat is None:
            sink.doubt(None, ("table:display", "table:stacks", "table:round",
                              "table:endgame"), line)
        else:
            sink.doubt(None, ("table:display", "table:stacks"), line)
            if seat in st.seats and not st.seats[seat].used.get("move"):
                lose_track(st, st.seats[seat], line)


def move_sign(s: SeatState, f: Finding) -> None:
    """``f`` (a visit, pickup or completion away from ``s``'s pawn, a reset of its move not
    taken, a teammate's move ending on its pawn), before ``s`` moved this turn, may be the first
    sign of a move line that is missing: if the turn ends without a move, ``f`` is restated as
    that slip (:func:`restate`). Notes are no signs: they follow from a slip already."""
    if f.severity != "info" and not s.used.get("move"):
        s.turn_doubt = s.turn_doubt or f


def card_sign(s: SeatState, f: Finding, card: str) -> None:
    """``f`` (``card`` used by ``s`` but not in its tableau) may be the first sign of a draw
    line that is missing: if the turn ends with its visit's draw missing, ``f`` is restated as
    that slip (:func:`restate`) and the card enters the tableau (turns.end_turn)."""
    if f.severity != "info":
        s.card_doubt = s.card_doubt or (f, card)


def restate(sink: FindingSink, first: Finding, slip: Finding, message: str) -> Finding:
    """``first``, reported earlier, was the first sign of ``slip`` (just reported): the one
    finding of the slip now stands where its absence first showed, at ``first``'s line, saying
    ``message``; ``first`` is gone, and what linked to it links to the slip there."""
    sink.findings.remove(slip)
    moved = slip.model_copy(update={"where": first.where, "message": message})
    old = f"the {first.code} finding at line {first.where.line}"
    new = f"the {slip.code} finding at line {first.where.line}"
    for i, f in enumerate(sink.findings):
        if f is first or (f.code, f.where, f.message) == (first.code, first.where,
                                                          first.message):
            sink.findings[i] = moved
        elif f.severity == "info" and old in f.message:
            sink.findings[i] = f.model_copy(update={"message": f.message.replace(old, new)})
    for vals in sink.doubted.values():
        for k, cause in vals.items():
            if cause is first or cause is slip:
                vals[k] = moved
    return moved


def lose_track(st: GameState, s: SeatState, cause: Finding | int | None,
               sink: FindingSink | None = None) -> None:
    """``cause`` shows that a move of ``s`` is missing or garbled (or a line of ``s`` could not
    be read): where its pawn stands is in doubt until its next recorded move, and so are the
    face-down tiles that move could have flipped (every tile next to a space within its speed,
    boosted, of where it stood): a later move that finds one face down links to ``cause``
    (engine/vestige/actions.py)."""
    if cause is None:
        return
    if sink is not None:
        sink.doubt(s.seat, ("space",), cause)
    if s.space is None:
        return
    reach = reachable(s.space, s.speed + CONTENT.stated["speed_boost"], frozenset())
    for space in (s.space, *reach):
        for pos in adjacent_tiles(space):
            if pos not in st.face_up:
                st.tiles_doubt.setdefault(pos, cause)


#: lines never written twice in a row: a main action needs a reset between two of them, a
#: job card is picked up or completed once, and a round or turn begins or ends once
_REPEAT = {"move": "vestige-turn/action-repeated", "activate": "vestige-turn/action-repeated",
           "visit": "vestige-turn/action-repeated", "pickup": "vestige-turn/action-repeated",
           "complete": "vestige-turn/action-repeated", "control": "vestige-control/twice",
           "round_start": "vestige-round/out-of-order", "turn_start": "vestige-turn/out-of-order",
           "turn_end": "vestige-turn/out-of-order"}
#: the main action a line takes (its value of what the seat used this turn)
_ACTION_OF = {"move": "move", "activate": "activate", "visit": "visit", "rest": "visit",
              "pickup": "job", "complete": "job"}
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
                    recorded="twice", touches=())
        return None
    if (kind in _IN_TURN and st.active is None and not st.team_turn and seat in st.seats
            and seat not in st.took_turn and st.header.mode != "coop"):
        # an action between two turns, by a seat that has not had its turn this round: its
        # turn_start line is missing. Reported once, and the turn begins here
        from engine.vestige.turns import on_turn_start
        from schemas.vestige import TurnStart

        sink.report("vestige-turn/not-your-turn", f"seat {seat}'s {kind} was recorded "
                    f"between turns: read as the start of seat {seat}'s turn (its turn_start "
                    "line missing?)", seat=seat, expected="a turn_start", recorded=kind,
                    touches=())
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
        sink.resolve(seat, TURN_VALUES)
        sink.resolve(None, ("table:round",))  # whose turn it is, settled
        return ev
    if st.team_turn and kind == "move" and seat in st.seats and not _fits(st, ev, seat):
        # a team turn (co-op): every teammate moves; a move that starts where another
        # teammate's pawn stands is that teammate's (pawns never share a space)
        meant = [o for o in st.seats if o != seat and _fits(st, ev, o)]
        if len(meant) == 1:
            sink.report(
                "vestige-move/wrong-start", f"seat {seat}'s move starts on space {ev.path[0]}, "
                f"where seat {meant[0]}'s pawn stands: read as seat {meant[0]}'s (a wrong seat)",
                seat=seat, expected=st.seats[seat].space, recorded=ev.path[0],
                involves=(meant[0],), touches=(USED["move"],))
            return ev.model_copy(update={"seat": meant[0]})
    active = st.active
    if (active is None or st.team_turn or seat is None or seat == active
            or seat not in st.seats or active not in st.seats):
        return ev
    if _fits(st, ev, active) and not _fits(st, ev, seat):
        # a second such action of the seat may be what the line named (the reading is the
        # slip): that action of the seat is in doubt this turn
        action = _ACTION_OF.get(kind)
        sink.report(
            "vestige-turn/not-your-turn", f"seat {seat}'s {kind} was recorded during seat "
            f"{active}'s turn and fits only seat {active}'s turn: read as seat {active}'s "
            "(a wrong seat)", seat=seat, expected=active, recorded=seat, involves=(active,),
            touches=(USED[action],) if action else ())
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
