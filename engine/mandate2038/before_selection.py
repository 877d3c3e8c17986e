"""The Faction abilities timed before selection (§2 "Effect precedence": every exception is timed
before selection, during movement, during action, or after action; §9 Printed card authorities
for the Faction boards): Orisonix's Emergency Pause (Era IV, once per game) and Corthaven's
Allocation Window (Era II, once), with the end of the Allocation Window's Temporary Compute when
the cycle closes.
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.mandate2038 import factions
from engine.mandate2038.headlines import compute_trade_banned
from engine.mandate2038.resources import gain, pay
from engine.mandate2038.state import GameState
from engine.mandate2038.trace import step
from schemas.mandate2038 import AllocationWindow, EmergencyPause


def on_emergency_pause(st: GameState, ev: EmergencyPause, sink: FindingSink) -> None:
    """Orisonix, Emergency Pause: before selection, pay 1 Runway, name an unlocked Program that
    nobody may select this cycle, gain 2 Trust (Era IV, once per game)."""
    s = st.seats[ev.seat - 1]
    factions.check_use(st, s, "emergency_pause", sink)
    if st.revealed:
        sink.report("ability/invalid", "Emergency Pause must be used before Action selection",
                    seat=s.seat)
    unlocked = st.c.eras[st.era].programs if st.era in st.c.eras else []
    if ev.program not in unlocked:
        sink.report("ability/invalid",
                    f"Emergency Pause named {ev.program}, which is not unlocked in Era {st.era}",
                    seat=s.seat, recorded=ev.program)
    pay(st, s, "runway", 1, sink, "resource/insufficient", "Emergency Pause")
    gain(st, s, "trust", 2)
    st.paused_program = ev.program


def on_allocation_window(st: GameState, ev: AllocationWindow, sink: FindingSink) -> None:
    """Corthaven, Allocation Window (Era II only, once): make two temporary Compute and offer
    each to a rival for a Runway price no higher than the rival's Runway; one lower counter
    allowed. Temporary Compute left anywhere at cycle end is gone, sold or unsold (the
    designers' executable gives the two units to Corthaven and moves each sold one to its
    buyer; :func:`expire_temporary_compute` removes what is left when the cycle closes)."""
    s = st.seats[ev.seat - 1]
    factions.check_use(st, s, "allocation_window", sink)
    if st.revealed:
        sink.report("ability/invalid", "Allocation Window is used before selection", seat=s.seat)
    made = gain(st, s, "compute", 2)
    s.temp_compute += made
    st.temp_compute_live = True
    if ev.offers and compute_trade_banned(st):
        # each offer sells Compute for Runway: a trade the Headline forbids (one finding)
        sink.report("trade/resource-banned",
                    "Compute Borders Harden: Compute cannot be traded this cycle, so the "
                    "Allocation Window's temporary Compute may not be offered to a rival",
                    seat=s.seat)
    for off in ev.offers:
        if not 1 <= off.to <= st.n or off.to == s.seat:
            sink.report("ability/invalid",
                        f"Allocation Window offered Compute to seat {off.to}, not a rival",
                        seat=s.seat, recorded=off.to)
            continue
        rival = st.seats[off.to - 1]
        if off.price < 1 or off.price > rival.runway:
            sink.report("ability/invalid",
                        f"Allocation Window price {off.price} for seat {off.to} must be between 1 "
                        f"and that rival's Runway ({rival.runway})", seat=s.seat,
                        recorded=off.price)
        price = None
        if off.answer == "accept":
            price = off.price
        elif off.answer == "counter" and off.counter_accepted:
            if off.counter_price is None or off.counter_price >= off.price:
                sink.report("ability/invalid",
                            "Allocation Window: a counter must be one lower price",
                            seat=s.seat, recorded=off.counter_price)
            price = off.counter_price if off.counter_price is not None else off.price
        if price is None:
            continue
        paid = pay(st, rival, "runway", price, sink, "resource/insufficient",
                   "temporary Compute")
        gain(st, s, "runway", paid)
        if s.temp_compute > 0 and s.compute > 0:
            s.temp_compute -= 1
            s.compute -= 1
        rival.temp_compute += gain(st, rival, "compute", 1)


def expire_temporary_compute(st: GameState) -> None:
    """Corthaven, Allocation Window: "Temporary Compute left anywhere at cycle end is gone",
    sold or unsold. Compute spent this cycle was paid with the temporary tokens first
    (resources.pay), so ``temp_compute`` is what remains of them now."""
    for s in st.seats:
        if s.temp_compute:
            gone = min(s.temp_compute, s.compute)  # never more than the seat holds
            s.compute -= gone
            step(st, s, "compute", -gone, "temporary_compute")
            s.temp_compute = 0
    st.temp_compute_live = False


