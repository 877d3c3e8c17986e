"""Checkpoints and partial logs: the table's recorded values. A recorded leverage or block count
that differs from the engine's is reported once and replay follows the table (resync). A partial
log (``detail: partial``, e.g. leverage per round only) is checked by its invariants: rounds in
order, leverage never negative, no seat with more than its 20 blocks, and (at the end) winners
that agree with the recorded totals."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.core.replay import LedgerEntry
from engine.vestige import codes
from engine.vestige.content import CONTENT
from engine.vestige.state import GameState
from schemas.vestige import Checkpoint

CP_RULES = {
    "leverage": f"{codes.SUMMARY}, Leverage & Endgame Triggers (leverage is tracked on the "
                "leverage track)",
    "nemesis": f"{codes.NEMESIS}, Running a Game with Nemeses (Leverage)",
    "dash": f"{codes.BLOCKS} (influence, potential, conviction on your dashboard)",
    "attribute": f"{codes.ATTR} (blocks on the alchemy mat's hexes)",
    "speed": f"{codes.MOVE} (movement speed on the dashboard's track)",
}


def resync(sink: FindingSink, what: str, engine_value: int, table_value: int | None, *,
           seat: int | None = None, rule: str, reads: tuple[str, ...]) -> int:
    """A table value compared with the engine's: a mismatch is reported once, citing the rule
    that produced the value, and replay continues from the table's value. The mismatch reads
    ``reads`` (it follows from a slip only when one of them is in doubt); the value recorded
    is no longer in doubt after it (the table resynchronised it)."""
    if table_value is None or table_value == engine_value:
        return engine_value
    sink.report("checkpoint/mismatch", f"the table recorded {what} = {table_value!r}, the rules "
                f"give {engine_value!r}; continuing from the table's value", seat=seat,
                expected=engine_value, recorded=table_value, rule=rule, reads=reads)
    return table_value


def on_checkpoint(st: GameState, ev: Checkpoint, sink: FindingSink) -> None:
    if ev.round is not None:
        if ev.round < st.round:
            sink.report("vestige-round/out-of-order", f"a checkpoint of round {ev.round} after "
                        f"round {st.round}", expected=f">= {st.round}", recorded=ev.round)
        elif st.partial:
            st.round = ev.round
    for v in ev.seats:
        if v.nemesis is not None:
            n = st.nemeses.get(v.nemesis)
            if n is not None and v.leverage is not None:
                n.leverage = v.leverage if st.partial else (resync(
                    sink, f"{v.nemesis}'s leverage", n.leverage, v.leverage,
                    rule=CP_RULES["nemesis"], reads=("triggers",)))
            continue
        if v.seat is None or v.seat not in st.seats:
            continue
        s = st.seats[v.seat]
        if v.leverage is not None:
            if v.leverage < 0:
                sink.report("vestige-partial/negative-leverage", "leverage is never negative",
                            seat=v.seat, recorded=v.leverage)
            new = v.leverage if st.partial else (resync(
                sink, f"seat {v.seat}'s leverage", s.leverage, v.leverage, seat=v.seat,
                rule=CP_RULES["leverage"], reads=("leverage",)))
            sink.resolve(v.seat, ("leverage",))
            if new != s.leverage:
                st.ledger.append(LedgerEntry(seat=v.seat, amount=new - s.leverage, total=new,
                                             source="checkpoint", era=None, cycle=None,
                                             round=st.round or None, event=st.event_index))
                s.leverage = new
        dash = {"potential": v.potential, "influence": v.influence, "conviction": v.conviction}
        for k, val in list(dash.items()) + list((v.attributes or {}).items()):
            if val is None:
                continue
            rule = CP_RULES["dash" if k in dash else "attribute"]
            s.blocks[k] = val if st.partial else (resync(
                sink, f"seat {v.seat}'s {k}", s.blocks.get(k, 0), val, seat=v.seat,
                rule=rule, reads=("blocks",)))
        if all(x is not None for x in dash.values()) and v.attributes is not None:
            sink.resolve(v.seat, ("blocks",))  # every hex recorded: the blocks resynchronised
        if v.speed is not None:
            s.speed = v.speed if st.partial else (resync(
                sink, f"seat {v.seat}'s speed", s.speed, v.speed, seat=v.seat,
                rule=CP_RULES["speed"], reads=("speed",)))
            sink.resolve(v.seat, ("speed",))
        listed = sum(x for x in dash.values() if x is not None) + sum(
            (v.attributes or {}).values())
        if listed > CONTENT.stated["blocks_per_seat"]:
            sink.report("vestige-partial/blocks-total", f"seat {v.seat} has "
                        f"{CONTENT.stated['blocks_per_seat']} blocks; the checkpoint lists "
                        f"{listed}", seat=v.seat, expected="<= 20", recorded=listed)
        if st.partial and v.leverage is not None:
            st.last_cp[v.seat] = v.leverage
