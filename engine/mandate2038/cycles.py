"""Core rules §6B "Three action cycles" (§2 steps 1, 3, 4 and 9): a cycle begins with a Headline
(cycle numbers in order, Initiative passed clockwise from the Era's first), every selection is
revealed together and resolved clockwise from Initiative, and a cycle closes with the selections
never resolved committed (§2 step 8: a committed Action exhausts even without effect) and the
Headline's and Allocation Window's cycle-long effects ended.

The Headline cards themselves are :mod:`headlines`; what may be selected, :mod:`eligibility`; a
resolved turn, :mod:`turns`.
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.mandate2038.before_selection import expire_temporary_compute
from engine.mandate2038.codes import turn_touches
from engine.mandate2038.eligibility import selection_problems
from engine.mandate2038.headlines import (
    headlines_on_selections,
    resolve_headline,
    settle_after_resolve,
)
from engine.mandate2038.initiative import initiative_for
from engine.mandate2038.state import CORE_SET, GameState
from engine.mandate2038.turns import close_production, close_turn, commit, force_close_run
from schemas.mandate2038 import HeadlineReveal, Reveal


def on_headline(st: GameState, ev: HeadlineReveal, sink: FindingSink) -> None:
    """§6B.1: a cycle begins with a Headline (immediate Headlines resolve now)."""
    if st.production_started and not st.production_done:
        close_production(st, sink)
    close_cycle(st, sink)
    if st.era == 0:
        if not st.partial:
            sink.report("turn/wrong-phase", "a Headline was revealed before Era I began")
        st.era = 1
    cycle = _cycle_number(st, ev.cycle, sink)
    st.cycle = cycle
    sink.cycle = cycle
    st.phase = "cycle"
    if st.workforce_left:
        st.workforce_left = {}  # a Production's Team moves are made in that Production
    st.initiative = initiative_for(st, st.era, st.cycle)
    st.selections = {}
    st.resolved = set()
    st.paused_program = None
    st.order_reported = False
    st.beam_used = False
    st.revealed = False
    st.headline_action = ev.action
    st.after_resolve = {}
    resolve_headline(st, ev, sink)


def _cycle_number(st: GameState, cycle: int, sink: FindingSink) -> int:
    """The cycle a Headline begins: the recorded number, checked against the next one (and
    against this Era's Production having begun); a number written wrong is read as the next."""
    expected = st.cycle + 1
    if cycle != expected and not (st.partial and cycle > st.cycle):
        sink.report("cycle/out-of-order",
                    f"cycle {cycle} began after cycle {st.cycle} of Era {st.era}",
                    expected=expected, recorded=cycle)
    if st.production_started and not st.partial:
        sink.report("turn/wrong-phase",
                    f"a Headline (cycle {cycle}) was revealed after this Era's Production")
    elif cycle > expected and expected <= 3 and not st.partial:
        # a cycle number written wrong: the table's evident sequence is the next cycle (the
        # following Headline, with its own number, then reads in order: one slip, one finding)
        cycle = expected
    return cycle


def on_reveal(st: GameState, ev: Reveal, sink: FindingSink) -> None:
    """§2 steps 2-3: every selection revealed together; resolution order from Initiative."""
    if st.production_started and not st.production_done:
        close_production(st, sink)
    if st.revealed or st.cycle == 0:
        # a second reveal in one cycle, or none before the first Headline: a new cycle began
        close_cycle(st, sink)
        if not st.partial:
            sink.report("cycle/no-headline",
                        f"selections were revealed without a Headline (Era {st.era})")
        if st.era == 0:
            st.era = 1
        st.cycle = min(3, st.cycle + 1)
        sink.cycle = st.cycle
        st.initiative = initiative_for(st, st.era, st.cycle)
        st.selections, st.resolved = {}, set()
        st.order_reported = False
        st.headline = None
    close_turn(st, sink)
    st.revealed = True
    st.phase = "resolve"
    picks: dict[int, str] = {}
    era, cycle, append = st.era, st.cycle, st.rows["selections"].append
    seats, n = st.seats, st.n
    for sel in ev.selections:
        seat, pick = sel.seat, sel.pick  # (read once: a pydantic attribute costs several plain ones)
        if not 1 <= seat <= n:
            sink.report("log/seat-out-of-range",
                        f"a selection names seat {seat}; only seats 1..{n} are at the table",
                        seat=seat, recorded=seat)
            continue
        if seat in picks:
            sink.report("select/duplicate-seat",
                        f"seat {seat} selected twice ({picks[seat]}, {pick})",
                        seat=seat)
            continue
        picks[seat] = pick
        selection_problems(st, seats[seat - 1], pick, sink)
        append((era, cycle, seat, pick, "core" if pick in CORE_SET else "program"))
    if not st.partial:
        for seat in range(1, st.n + 1):
            if seat not in picks:
                sink.report("select/missing-seat",
                            f"seat {seat} made no selection in Era {st.era} cycle {st.cycle}",
                            seat=seat)
    st.selections = picks
    st.to_resolve = [x for x in st.initiative_order() if x in picks]
    headlines_on_selections(st, picks, ev, sink)


def close_cycle(st: GameState, sink: FindingSink) -> None:
    """Finish the current cycle: report revealed selections never resolved (full logs) and
    commit them (a committed Action exhausts even without effect)."""
    close_turn(st, sink)
    if st.run is not None:
        force_close_run(st, sink)
    for seat in list(st.to_resolve):
        pick = st.selections.get(seat)
        if pick is None:
            continue
        if not st.partial:
            sink.report("turn/unresolved",
                        f"seat {seat}'s revealed {pick} was never resolved in Era {st.era} "
                        f"cycle {st.cycle}", seat=seat, expected=pick,
                        touches=turn_touches(pick))  # what its lost turn would have changed
        commit(st, st.seats[seat - 1], pick)
    st.to_resolve = []
    if st.after_resolve:
        for seat in list(st.after_resolve):
            settle_after_resolve(st, seat)
    if st.temp_compute_live:
        expire_temporary_compute(st)


