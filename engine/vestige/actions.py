"""Main Actions: Activate (p. 11) and Move (p. 12, with Revealing Locations and the Temporary
Speed Boost)."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.vestige.blocks import PRIMS, counts, downgrade, gain_attributes, move
from engine.vestige.board import adjacent_tiles, spaces_adjacent
from engine.vestige.cards import CHARACTERS, not_owned_rule, printed_or_warn
from engine.vestige.content import CONTENT
from engine.vestige.setup import check_reveal
from engine.vestige.slips import VALUE_WORDS, card_sign, in_doubt, lose_track, move_sign, words
from engine.vestige.state import GameState
from engine.vestige.turns import take_main
from schemas.findings import Finding
from schemas.vestige import Activate, Move, SpeedBoost

TILES = VALUE_WORDS["table:tiles"]


def on_activate(st: GameState, ev: Activate, sink: FindingSink) -> None:
    """One influence onto a contact or chop bot; gain its attributes in full; it is active."""
    s = st.seats[ev.seat]
    take_main(st, s, "activate", sink)
    card = s.cards.get(ev.card)
    if card is None or card.kind not in CHARACTERS:
        f = sink.report("vestige-activate/not-character",
                        f"{ev.card!r} is not a contact or chop bot in seat {ev.seat}'s tableau"
                        + (" (lost to SEVER)" if ev.card in st.severed else ""),
                        seat=ev.seat, recorded=ev.card, rule=not_owned_rule(st, ev.card))
        card_sign(s, f, ev.card)
        return
    p = printed_or_warn(st, ev.card, sink, ev.seat)
    bad: object = None
    if card.kind == "chop_bot":
        options = set(p.attributes) if p is not None and p.attributes else set(PRIMS)
        if len(ev.gain) != 1 or ev.gain[0] not in options:
            bad = f"one of {sorted(options)}"
    elif p is not None and counts(list(ev.gain)) != counts(list(p.attributes)):
        bad = list(p.attributes)
    if bad is not None:
        sink.report("vestige-activate/wrong-attributes",
                    f"activating {ev.card!r} gains {bad}, not {list(ev.gain)}",
                    seat=ev.seat, expected=bad, recorded=list(ev.gain))
    move(s, "influence", f"card:{ev.card}", 1, sink, f"activating {ev.card}")
    gets = s
    for to in (ev.attributes_to, ev.ability_to):
        if to is None:
            continue
        if st.header.mode != "coop" or to == ev.seat or to not in st.seats:
            sink.report("vestige-share/invalid", f"activating {ev.card!r}: its effect can be "
                        f"given only to another seat of the co-op team, not {to}", seat=ev.seat,
                        expected="a teammate in co-op", recorded=to)
            break
    else:
        if ev.attributes_to is not None:
            gets = st.seats[ev.attributes_to]
        if ev.ability_to is not None:
            st.shared.setdefault((ev.seat, ev.card), set()).add(ev.ability_to)
    gain_attributes(gets, list(ev.gain), sink, f"activating {ev.card}")
    s.activated.add(ev.card)
    st.row("activations", seat=ev.seat, card=ev.card, kind=card.kind)


def on_move(st: GameState, ev: Move, sink: FindingSink) -> None:
    """At least 1 space, at most the speed (+2 boosted), along neighbouring spaces, never ending
    on another pawn or where it began; face-down tiles next to the path are flipped."""
    s = st.seats[ev.seat]
    take_main(st, s, "move", sink)
    path = list(ev.path)
    garbled = None  # a finding that shows this line's path is not what the pawn did
    if s.space is not None and path[0] != s.space:
        # the pawn is where the table has it: after a garbled move, or a turn whose move line
        # is missing, this start is followed without a new error (one slip, one finding)
        garbled = sink.report(
            "vestige-move/wrong-start", f"seat {ev.seat}'s pawn is on space {s.space}, the "
            f"move starts on {path[0]}", seat=ev.seat, expected=s.space, recorded=path[0])
    steps = len(path) - 1
    speed = s.speed + (CONTENT.stated["speed_boost"] if s.boosted else 0)
    if steps < 1 or path[-1] == path[0]:
        sink.report("vestige-move/too-short", "the pawn must move at least 1 space and not end "
                    "where it began", seat=ev.seat, expected=">= 1 space", recorded=steps)
    elif steps > speed:
        sink.report("vestige-move/too-far", f"{steps} spaces with speed {speed}", seat=ev.seat,
                    expected=f"<= {speed}", recorded=steps, follows=garbled,
                    because=words(ev.seat, "space"))  # (a path not the pawn's: its length too)
    for a, b in zip(path, path[1:], strict=False):
        if not spaces_adjacent(a, b):
            garbled = garbled or sink.report(
                "vestige-move/not-adjacent", f"space {b} is not next to space {a}",
                seat=ev.seat, expected="a neighbouring space", recorded=[a, b])
            break
    if path[-1] in st.pawns(but=ev.seat) and steps >= 1:
        # a pawn whose place is in doubt (its move line missing or garbled) may not be there;
        # ending on a pawn that is there says this line's path is garbled (a number mistyped)
        other = next(o for o in st.seats.values() if o.seat != ev.seat and o.space == path[-1])
        there = in_doubt(sink, other.seat, "space")
        f = sink.report("vestige-move/occupied", f"space {path[-1]} holds another pawn",
                        seat=ev.seat, expected="an empty space", recorded=path[-1],
                        follows=there or garbled,
                        because=words(other.seat if there else ev.seat, "space"))
        if st.team_turn and there is None and not other.used.get("move"):
            move_sign(other, f)  # a teammate that has not moved yet: its move line missing?
        elif there is None:
            garbled = garbled or f
    near: set[str] = set()
    for sp in path[1:]:
        near |= adjacent_tiles(sp)
    expected = {p for p in near if p not in st.face_up}
    recorded = set()
    for r in ev.reveals:
        assumed = st.assumed_up.pop(r.position, None)
        if assumed is not None and r.position in near:
            # the engine turned it face up only on an earlier line's word (a move that did not
            # record it, or a garbled one): the table evidently had not flipped it until now
            sink.report("vestige-move/reveal-invalid", f"{r.position} was flipped, which the "
                        "engine had taken as flipped already", seat=ev.seat,
                        recorded=r.position, follows=assumed, because=TILES)
            st.map[r.position] = r.region
            recorded.add(r.position)
            continue
        if r.position in st.face_up or r.position not in near:
            # a flip that does not fit the path: the path (or this line) is garbled
            f = sink.report(
                "vestige-move/reveal-invalid", f"{r.position} was flipped but is "
                f"{'already face up' if r.position in st.face_up else 'not next to the path'}",
                seat=ev.seat, recorded=r.position, follows=garbled,
                because=words(ev.seat, "space"))
            garbled = garbled or f
            continue
        check_reveal(st, r.position, r.region, sink, garbled, words(ev.seat, "space"))
        recorded.add(r.position)
    if garbled is not None:
        # what this line's word alone turned face up: a later move may flip it after all
        for pos in recorded:
            st.assumed_up.setdefault(pos, garbled)
    for pos in recorded:
        st.tiles_doubt.pop(pos, None)
    missing = sorted(expected - recorded)
    # a tile a missing or garbled move may have flipped: the table's record of it was lost
    doubtful = [pos for pos in missing if pos in st.tiles_doubt]
    missing = [pos for pos in missing if pos not in st.tiles_doubt]
    if doubtful and not st.partial:
        sink.report("vestige-move/reveal-missing", f"face-down tiles next to the path were not "
                    f"flipped: {doubtful}", seat=ev.seat, expected=doubtful,
                    recorded=sorted(recorded), follows=st.tiles_doubt[doubtful[0]],
                    because=TILES)
    for pos in doubtful:
        del st.tiles_doubt[pos]
        st.face_up.add(pos)
    unflipped: Finding | None = None
    if missing and not st.partial:
        # a path that is not the pawn's (garbled) says nothing of the tiles next to it
        unflipped = f = sink.report(
            "vestige-move/reveal-missing", f"face-down tiles next to the path were not flipped: "
            f"{missing}", seat=ev.seat, expected=missing, recorded=sorted(recorded),
            follows=garbled, because=words(ev.seat, "space"))
        st.face_up |= set(missing)
        for pos in missing:
            st.assumed_up.setdefault(pos, f)
    lose_track(st, s, garbled)  # (from where the pawn stood: the tiles its real move flipped)
    # the recorded path is where the table has the pawn now; tiles left face down may also
    # mean the path is mistyped: where the pawn ended is in doubt until its next move (that
    # move's start is followed without a new error)
    sink.resolve(ev.seat, ("space",))
    doubt = garbled or unflipped
    if doubt is not None:
        sink.doubt(ev.seat, ("space",), doubt)
    s.turn_doubt = None
    s.space = path[-1]
    st.row("moves", seat=ev.seat, steps=steps, start=path[0], end=path[-1],
           reveals=len(recorded))


def on_speed_boost(st: GameState, ev: SpeedBoost, sink: FindingSink) -> None:
    """+2 speed this turn for one downgrade, once per turn; no leverage, the counter stays."""
    s = st.seats[ev.seat]
    if s.boosted:
        sink.report("vestige-move/boost-twice", "a second speed boost this turn", seat=ev.seat,
                    expected="once per turn", recorded="twice")
        return
    if ev.downgrade is None:
        sink.report("vestige-move/boost-unpaid", "a temporary speed boost requires you to "
                    "downgrade 1 power; none was downgraded", seat=ev.seat,
                    expected="a downgrade", recorded=None)
    else:
        downgrade(s, ev.downgrade, sink, "speed boost")
    s.boosted = True
