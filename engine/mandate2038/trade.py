"""Core rules §6B "Immediate resource trade": immediately before resolving the selected Action,
the active player may make one offer to one rival, one Runway for one Compute or the reverse;
the rival accepts or rejects; the active Headline may prohibit a named resource from being
traded; no trade moves a resource above its cap (§3). With Deal Flow (§9), which pays each
side of an accepted trade that holds it.
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.mandate2038 import factions
from engine.mandate2038.headlines import compute_trade_banned
from engine.mandate2038.resources import gain
from engine.mandate2038.state import GameState, Turn
from engine.mandate2038.turns import close_production, close_turn, force_close_run
from schemas.mandate2038 import Trade


def on_trade(st: GameState, ev: Trade, sink: FindingSink) -> None:
    """§6B Immediate resource trade: before resolving, the active player may offer one rival
    one Runway for one Compute (or the reverse); the rival accepts or rejects."""
    if st.production_started and not st.production_done:
        close_production(st, sink)
    # each field read once (a pydantic attribute costs several plain ones)
    seat, rival, give, accepted = ev.seat, ev.rival, ev.give, ev.accepted
    s = st.seats[seat - 1]
    t = st.turn
    if t is not None and t.seat == seat and not t.started:
        if t.traded:
            sink.report("trade/second-offer",
                        f"seat {s.seat} made a second trade offer before the same action",
                        seat=s.seat)
    else:
        close_turn(st, sink)
        if st.run is not None:
            force_close_run(st, sink)
        nxt = st.to_resolve[0] if st.to_resolve else None
        if not st.revealed and not st.partial and st.cycle > 0:
            sink.report("turn/wrong-phase",
                        f"seat {seat} offered a trade before the selections were revealed; "
                        "the trade comes immediately before resolving", seat=seat)
        if st.revealed and nxt is not None and nxt != seat:
            sink.report("trade/not-active-player",
                        f"seat {seat} offered a trade, but seat {nxt} is the next to resolve",
                        seat=seat, expected=nxt, recorded=seat, involves=(nxt,))
        t = Turn(seat=seat, pick=st.selections.get(seat, "?"))
        st.turn = t
    t.traded = True
    if rival == seat or not 1 <= rival <= st.n:
        sink.report("trade/self" if rival == seat else "log/seat-out-of-range",
                    f"seat {s.seat} offered a trade to seat {rival}", seat=s.seat,
                    recorded=rival)
        return
    if compute_trade_banned(st):
        sink.report("trade/resource-banned",
                    "Compute Borders Harden: Compute cannot be traded this cycle", seat=s.seat)
    st.rows.setdefault("trades", []).append({
        "era": st.era, "cycle": st.cycle, "seat": s.seat, "rival": rival, "give": give,
        "accepted": accepted,
    })
    if not accepted:
        return
    r = st.seats[rival - 1]
    get = "compute" if give == "runway" else "runway"
    for who, res in ((s, give), (r, get)):
        if getattr(who, res) < 1 and not st.partial:
            sink.report("trade/cannot-pay",
                        f"seat {who.seat} gave 1 {res} in a trade with none to give",
                        seat=who.seat, recorded=0)
    for who, res in ((r, give), (s, get)):
        if getattr(who, res) >= st.c.caps[res] and not st.partial:
            sink.report("trade/over-cap",
                        f"seat {who.seat} received 1 {res} in a trade at its cap of "
                        f"{st.c.caps[res]}; a trade cannot move resources above a cap",
                        seat=who.seat)
    s_paid = min(1, getattr(s, give))
    r_paid = min(1, getattr(r, get))
    setattr(s, give, getattr(s, give) - s_paid)
    setattr(r, get, getattr(r, get) - r_paid)
    gain(st, r, give, s_paid)
    gain(st, s, get, r_paid)
    for side in (s, r):
        if factions.has_active(st, side, "deal_flow"):
            factions.use(st, side, "deal_flow")
            gain(st, side, "runway", 1)


