"""Core rules §2 steps 4-8, a resolved turn: "Resolve clockwise from Initiative. Select: the
revealed Action is the only Action this turn. Move: choose one acting piece and move it zero,
one, or two adjacent hexes. Act: read the chosen Action card from top to bottom and resolve it
from the destination. Exhaust the Core Action, or place the committed Program marker on the
shared Program card." With §2 "A committed Action that becomes blocked", the Frontier bonus
(§4), Agent Swarm's two Core Actions (§5 Era IV Program; §2: the sole compound-action exception),
the end of a Training Run (§7 Research) and Kestralyn's Orbital Compute (§9, in place of the move).

Commitments (exhausting a Core Action, placing a Program marker, marking a Program used) are
made when the turn resolves (or, for a selection never resolved, when the cycle closes:
:func:`engine.mandate2038.cycles.close_cycle`), so that a table that resolved something other
than its revealed selection is reported once (``turn/not-selected``) and the state follows what
it actually did.
"""

from __future__ import annotations

from operator import itemgetter

from engine.core.findings import FindingSink
from engine.mandate2038 import factions
from engine.mandate2038.board import FRONTIER
from engine.mandate2038.codes import turn_touches
from engine.mandate2038.core_actions import ACTIONS, do_run_end, moved_facility_power
from engine.mandate2038.eligibility import selection_problems
from engine.mandate2038.headlines import settle_after_resolve
from engine.mandate2038.hex_board import check_path, has_free_space, locally_eligible, move_piece
from engine.mandate2038.programs import PROGRAMS
from engine.mandate2038.resources import add_scrutiny, gain
from engine.mandate2038.state import CORE_ACTIONS, CORE_SET, GameState, SeatState, Turn
from schemas.mandate2038 import Build, RunEnd, TurnEvent
from schemas.mandate2038.log import OrbitalMove


def close_production(st: GameState, sink: FindingSink) -> None:
    """Production resolves once per Era, when the next event that is not part of it arrives
    (:mod:`engine.mandate2038.era_sequence`): a Headline, reveal, trade or turn after Production
    began closes it first. (Imported when called: ``era_sequence`` imports the cycle modules.)"""
    from engine.mandate2038.era_sequence import resolve_production

    resolve_production(st, sink)


def commit(st: GameState, s: SeatState, pick: str) -> None:
    """Exhaust the Core Action, or place the Program marker and mark the Program used."""
    s.actions_this_era += 1
    if pick in CORE_ACTIONS:
        s.exhausted.add(pick)
        return
    free_swarm = pick == "agent_swarm" and st.headline == "agent_swarm_escapes_scope"
    if not free_swarm and s.markers > 0:
        s.markers -= 1
    s.programs_used.add(pick)


def force_close_run(st: GameState, sink: FindingSink) -> None:
    """A Training Run left open by the log: report it and close it as the cards imply."""
    run = st.run
    if run is None:
        return
    sink.report("research/run-not-ended",
                f"seat {run.seat}'s Training Run ({', '.join(run.cards) or 'no cards'}) has no "
                "recorded ending; closed as the cards imply", seat=run.seat)

    end = RunEnd(seat=run.seat, banked=None,
                 outcome="crash" if run.duplicate is not None else "bank")
    do_run_end(st, end, sink)
    if st.turn is not None and not st.turn.swarm_left:
        st.turn = None
        if st.after_resolve:
            settle_after_resolve(st, run.seat)


def close_turn(st: GameState, sink: FindingSink) -> None:
    """Close the turn in progress (Agent Swarm actions never resolved are reported)."""
    t = st.turn
    if t is None:
        return
    if t.swarm_left and t.started:
        sink.report("program/swarm-invalid",
                    f"seat {t.seat}'s Agent Swarm resolved only part of its two actions "
                    f"(missing: {', '.join(t.swarm_left)})", seat=t.seat)
        st.seats[t.seat - 1].exhausted.update(t.swarm_left)
    st.turn = None
    if st.after_resolve:
        settle_after_resolve(st, t.seat)


def _dest_of(s: SeatState, piece: str) -> str | None:
    if piece == "ceo":
        return s.ceo
    if s.teams and all(h == s.teams[0] for h in s.teams):
        return s.teams[0]
    return None


#: the fields every turn event has that :func:`on_turn` reads, from the event's field dict (the
#: same values as its attributes, read in one call: a pydantic attribute costs several plain ones)
_TURN_FIELDS = itemgetter("type", "seat", "path", "piece", "blocked", "swarm", "orbital",
                          "frontier_bonus")


#: a Core Action's or Program's resolution in one lookup (a Core Action's name first, as
#: ``ACTIONS.get(kind) or PROGRAMS.get(kind)``); both tables are fixed at import
_ACT = {**PROGRAMS, **ACTIONS}.get


def on_turn(st: GameState, ev: TurnEvent, sink: FindingSink) -> None:
    """One resolved selection: checks order and selection, moves, acts, commits."""
    late = st.production_started  # the action cycles are over
    if late and not st.production_done:
        close_production(st, sink)
    kind, seat, path, piece, blocked, swarm, orbital, frontier_bonus = _TURN_FIELDS(ev.__dict__)
    s = st.seats[seat - 1]
    if late and not st.partial:
        _late_turn(st, s, ev, kind, sink)
        return
    if swarm:
        if kind in CORE_SET:
            _swarm_action(st, s, ev, sink)
            return
        sink.report("program/swarm-invalid",
                    f"seat {s.seat}'s {kind} is marked as an Agent Swarm action; Agent Swarm "
                    "resolves two Core Actions, not a Program", seat=s.seat, recorded=kind)
    if st.run is not None:
        force_close_run(st, sink)
    if st.revealed and seat in st.resolved and not st.partial:
        meant = _second_turn(st, ev, seat, kind, sink)
        if meant is None:
            return  # not applied again
        if meant != seat:
            ev = ev.model_copy(update={"seat": meant})
            seat, s = meant, st.seats[meant - 1]
    st.last_turn[seat] = ev
    t = st.turn
    if t is not None and (t.seat != seat or t.started):
        close_turn(st, sink)
        t = None
    if st.cycle == 0 and st.era == 0:
        st.era = 1
    # Select: order and selection
    order = st.to_resolve
    if (order and order[0] == seat and st.revealed and st.initiative_known
            and st.selections.get(seat) == kind and seat not in st.resolved):
        # the usual case, where _check_order_and_selection reports nothing: the seat next in
        # order resolves the Action it revealed
        del order[0]
    else:
        _check_order_and_selection(st, s, seat, kind, sink)
        if seat in st.to_resolve:
            st.to_resolve.remove(seat)
    st.resolved.add(seat)
    if kind in CORE_SET:
        s.actions_this_era += 1
        s.exhausted.add(kind)
    else:
        commit(st, s, kind)
    if t is None:
        t = st.turn = Turn(seat, kind)
    t.pick = kind
    t.started = True
    t.piece = piece
    # Move
    _move(st, s, ev, t, seat, kind, path, piece, orbital, sink)
    dest = t.dest
    st.rows["turns"].append((
        st.era, st.cycle, s.seat, kind, piece, path[0] if path else None, dest,
        len(path) - 1 if path else None, st.board.tile_at.get(dest) if dest else None,
        blocked, st.event_index,
    ))
    # Act
    if not blocked:
        fn = _ACT(kind)
        if fn is not None:
            fn(st, s, ev, t, sink)
    elif not st.partial:
        _check_blocked(st, s, ev, t, sink)
    if frontier_bonus:
        _frontier_bonus(st, s, ev, t, sink)
    if kind == "research" and st.run is not None:
        return  # the turn closes with run_end
    if kind == "agent_swarm" and t.swarm_left and not blocked:
        return  # two swarm actions follow
    st.turn = None
    if st.after_resolve:
        settle_after_resolve(st, seat)


def _late_turn(st: GameState, s: SeatState, ev: TurnEvent, kind: str, sink: FindingSink) -> None:
    """A turn resolved after this Era's Production began (full logs): reported once as out of
    phase; the table's action still happens (no cascade of selection and order findings for
    it)."""
    sink.report("turn/wrong-phase",
                f"seat {ev.seat}'s {kind} was resolved after Era {st.era}'s Production "
                "began; actions belong to the three cycles", seat=ev.seat)
    if st.run is not None:
        force_close_run(st, sink)
    close_turn(st, sink)
    lt = Turn(seat=ev.seat, pick=kind, started=True, piece=ev.piece)
    st.turn = lt
    if ev.path:
        check_path(st, sink, s.seat, ev.path, 2)
        move_piece(st, sink, s, ev.piece, ev.path)
    lt.dest = ev.path[-1] if ev.path else _dest_of(s, ev.piece)
    fn = ACTIONS.get(kind) or PROGRAMS.get(kind)
    if fn is not None and not ev.blocked:
        fn(st, s, ev, lt, sink)
    if st.run is None and not lt.swarm_left:
        st.turn = None
        if st.after_resolve:
            settle_after_resolve(st, seat=s.seat)


def _second_turn(st: GameState, ev: TurnEvent, seat: int, kind: str,
                 sink: FindingSink) -> int | None:
    """A second turn of a seat this cycle (full logs, after the reveal). One slip, one finding:
    it is reported once and the table's evident state is followed (docs/engine.md). Returns the
    seat whose turn it is read as (the seat next to resolve when that seat revealed this
    action: a wrong seat), or None for a line written twice, which is not applied again."""
    nxt = st.to_resolve[0] if st.to_resolve else None
    if st.last_turn.get(seat) == ev:
        sink.report("turn/twice", f"seat {seat}'s {kind} repeats its turn of this cycle "
                    "exactly (a line written twice); it is not applied again", seat=seat,
                    touches=())  # not applied: the table's state is the engine's
        return None
    if nxt is not None and st.selections.get(nxt) == kind:
        sink.report("turn/twice", f"seat {seat} resolved a second turn in Era {st.era} cycle "
                    f"{st.cycle}; seat {nxt}, next to resolve, revealed {kind}: read as seat "
                    f"{nxt}'s turn (a wrong seat)", seat=seat, involves=(nxt,),
                    touches=turn_touches(kind))
        return nxt
    return seat


def _check_order_and_selection(st: GameState, s: SeatState, seat: int, kind: str,
                               sink: FindingSink) -> None:
    """§2 steps 3-5: the turn follows a reveal, is the seat's only turn this cycle, resolves
    the Action it revealed, and comes in order clockwise from Initiative. A header without the
    first Initiative learns it from the first seat to resolve."""
    pick = st.selections.get(seat)
    if not st.initiative_known and st.revealed and pick is not None and not st.resolved:
        # the header did not record the first Initiative: the first seat to resolve holds it
        k = 3 * (max(st.era, 1) - 1) + (max(st.cycle, 1) - 1)
        st.first_initiative = ((seat - 1 - k) % st.n) + 1
        st.initiative = seat
        st.to_resolve = [x for x in st.initiative_order() if x in st.to_resolve]
        st.initiative_known = True
    if not st.revealed:
        if not st.partial and not st.no_reveal_reported:
            sink.report("turn/no-reveal",
                        f"seat {seat}'s {kind} was resolved before selections were revealed",
                        seat=seat)
            st.no_reveal_reported = True
        # without a reveal the cycle is only known from its Headline
        if seat in st.resolved and st.cycle > 0:
            sink.report("turn/twice", f"seat {seat} resolved a second turn this cycle",
                        seat=seat, touches=turn_touches(kind))
        selection_problems(st, s, kind, sink, where="resolved")
    elif seat in st.resolved:
        sink.report("turn/twice", f"seat {seat} resolved a second turn in Era {st.era} "
                    f"cycle {st.cycle}", seat=seat, touches=turn_touches(kind))
        selection_problems(st, s, kind, sink, where="resolved")
    elif pick is None:
        sink.report("turn/not-selected",
                    f"seat {seat} resolved {kind} without a revealed selection",
                    seat=seat, recorded=kind, touches=turn_touches(kind))
        selection_problems(st, s, kind, sink, where="resolved")
    else:
        if pick != kind:
            # the seat still to resolve that revealed this action may be the one the line
            # meant (a wrong seat): what then happens to its turn follows from this finding
            meant = tuple(x for x in st.to_resolve if x != seat and st.selections.get(x) == kind)
            f = sink.report("turn/not-selected",
                            f"seat {seat} revealed {pick} but resolved {kind}; the selected "
                            "Action is the only Action this turn", seat=seat, expected=pick,
                            recorded=kind,
                            touches=tuple({*turn_touches(kind), *turn_touches(pick)}))
            if meant:  # the seat the line may have meant: what a turn of its kind changes
                sink.doubt(meant[0], turn_touches(kind), f)
            selection_problems(st, s, kind, sink, where="resolved")
        nxt = st.to_resolve[0] if st.to_resolve else None
        if nxt is not None and nxt != seat and not st.order_reported:
            st.order_reported = True  # once per cycle: later turns follow from the first slip
            f = sink.report("turn/out-of-order",
                            f"seat {seat} resolved before seat {nxt}; resolution runs clockwise "
                            f"from Initiative (seat {st.initiative})", seat=seat, expected=nxt,
                            recorded=seat, involves=(nxt,), touches=turn_touches(kind))
            # both turns were played in an order the engine did not see; the one it skipped may
            # be the one that is missing
            if f.severity != "info":
                sink.doubt(nxt, turn_touches(st.selections.get(nxt, "")), f)


def _move(st: GameState, s: SeatState, ev: TurnEvent, t: Turn, seat: int, kind: str,
          path: list[str], piece: str, orbital: OrbitalMove | None, sink: FindingSink) -> None:
    """§2 step 6, Move: the acting piece moves along its recorded path (0-2 steps), or Orbital
    Compute moves a Facility instead; ``t.dest`` is where the Action resolves from."""
    if orbital is not None:
        if path and len(path) > 1 and not st.partial:
            # "Instead of moving the acting piece, move 1 Facility" (Kestralyn, Orbital Compute)
            sink.report("ability/invalid",
                        f"seat {seat}'s turn uses Orbital Compute and also moves its {piece} "
                        f"({'-'.join(path)}); the ability replaces the move (the piece stays)",
                        seat=seat, recorded=path)
        _orbital(st, s, ev, sink)
        t.dest = _dest_of(s, piece)
    elif path:
        check_path(st, sink, s.seat, path, 2)
        move_piece(st, sink, s, piece, path)
        t.dest = path[-1]
    else:
        if not st.path_missing_reported and not st.partial:
            sink.report("move/path-missing",
                        f"seat {seat}'s {kind} does not record the acting piece's path; "
                        "destination checks use the piece's last known hex", seat=seat)
            st.path_missing_reported = True
        t.dest = _dest_of(s, piece)


def _check_blocked(st: GameState, s: SeatState, ev: TurnEvent, t: Turn, sink: FindingSink) -> None:
    """A turn resolved as blocked although an evident legal resolution existed (warning).
    Only the clear cases are checked: Fund is never blocked; Build and Fusion are blocked only
    when their space, slot or marker is gone."""
    kind = ev.type
    dest = t.dest
    tile = st.board.tile_at.get(dest) if dest else None
    why = None
    if kind == "fund":
        why = "Fund always has a legal resolution"
    elif isinstance(ev, Build) and ev.mode == "facility" and dest is not None:
        if len(s.facilities) < 4 and dest != FRONTIER and has_free_space(st, dest) and (
                s.runway >= 2):
            why = f"{dest} had a free Facility space and seat {s.seat} could pay"
    elif isinstance(ev, Build) and ev.mode == "generator" and tile in st.c.generator_at:
        tobj = st.c.tiles.get(tile)
        con = st.c.generator_at[tile]
        free = tobj is not None and len(st.gen_slots.get(dest or "", [])) < tobj.generator_slots
        if st.era >= 2 and s.generator is None and free and s.runway >= con.runway:
            why = f"{dest} had a free Generator slot"
    elif kind == "fusion" and st.fusion_owner is None and st.c.fusion is not None and (
            tile == st.c.fusion.tile):
        tobj = st.c.tiles.get(tile)
        if tobj is not None and len(st.gen_slots.get(dest or "", [])) < tobj.generator_slots and (
                s.runway >= st.c.fusion.runway):
            why = "Fusion was not built and the Power Corridor had a free slot"
    if why is not None:
        sink.report("turn/blocked-claimed",
                    f"seat {s.seat}'s {kind} was resolved as blocked, but {why}", seat=s.seat)


def _frontier_bonus(st: GameState, s: SeatState, ev: TurnEvent, t: Turn, sink: FindingSink) -> None:
    if not ev.frontier_bonus:
        return
    if t.frontier_bonus or (t.dest is not None and t.dest != FRONTIER):
        sink.report("turn/frontier-bonus-invalid",
                    f"seat {s.seat} took the Frontier bonus "
                    + ("twice in one turn" if t.frontier_bonus else f"on {t.dest}"),
                    seat=s.seat)
    t.frontier_bonus = True
    gain(st, s, "runway", 1)
    add_scrutiny(st, s, 1)


def _swarm_action(st: GameState, s: SeatState, ev: TurnEvent, sink: FindingSink) -> None:
    kind = ev.type
    t = st.turn
    reported = False
    if t is None or t.seat != s.seat or t.pick != "agent_swarm" or kind not in t.swarm_left:
        reported = True  # one error, one finding: not "already exhausted" again below
        sink.report("program/swarm-invalid",
                    f"seat {s.seat} resolved {kind} as an Agent Swarm action outside its Agent "
                    "Swarm (or one not named by it)", seat=s.seat, recorded=kind)
        if t is None or t.seat != s.seat:
            t = Turn(seat=s.seat, pick="agent_swarm", dest=_dest_of(s, ev.piece), started=True)
            st.turn = t
    else:
        t.swarm_left.remove(kind)
    if st.run is not None:
        force_close_run(st, sink)
        st.turn = t
    if kind in s.exhausted and not reported:
        sink.report("program/swarm-invalid",
                    f"seat {s.seat}'s Agent Swarm resolved {kind}, already exhausted this Era",
                    seat=s.seat)
    s.exhausted.add(kind)
    # one turns row per Agent Swarm action too (the designers count every resolved action)
    dest = t.dest
    st.rows["turns"].append((
        st.era, st.cycle, s.seat, kind, ev.piece, None, dest, None,
        st.board.tile_at.get(dest) if dest else None, ev.blocked, st.event_index,
    ))
    if not ev.blocked:
        ACTIONS[kind](st, s, ev, t, sink)
    _frontier_bonus(st, s, ev, t, sink)
    if kind == "research" and st.run is not None:
        return
    if not t.swarm_left:
        st.turn = None


def on_run_end(st: GameState, ev: RunEnd, sink: FindingSink) -> None:
    """Close the Training Run; close the turn unless Agent Swarm has an action left."""
    if do_run_end(st, ev, sink):
        t = st.turn
        if t is not None and not t.swarm_left:
            st.turn = None
            if st.after_resolve:
                settle_after_resolve(st, ev.seat)


def _orbital(st: GameState, s: SeatState, ev: TurnEvent, sink: FindingSink) -> None:
    """Kestralyn, Orbital Compute (Era IV, once per game): instead of moving, move one Facility
    to any legal open Facility space; if it can be powered, it produces once; +2 Scrutiny."""
    from engine.mandate2038.era_sequence import produce_one_facility

    factions.check_use(st, s, "orbital_compute", sink)
    o = ev.orbital
    if o is None:
        return
    f = s.facilities.get(o.facility)
    if f is None:
        sink.report("ability/invalid", f"Orbital Compute moved Facility {o.facility}, not built",
                    seat=s.seat, reads=("facilities",))  # which Facilities it owns: no checkpoint says
    else:
        if o.to == FRONTIER or (o.to != f.hex and not has_free_space(st, o.to)):
            sink.report("ability/invalid",
                        f"Orbital Compute moved Facility {f.number} to {o.to}, which has no open "
                        "Facility space", seat=s.seat)
        f.hex = o.to
        moved_facility_power(st, s, f)
        if locally_eligible(st, s, f.number):
            produce_one_facility(st, s, f, sink)
    add_scrutiny(st, s, 2)



