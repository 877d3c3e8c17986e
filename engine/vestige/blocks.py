"""Dashboard & Blocks (p. 8) and Attributes (p. 9): where a seat's 20 blocks stand, upgrading and
downgrading, converting attributes, recovering influence, and the leverage they earn.

Every cost goes through :func:`take`: a seat can never spend blocks it does not have there
(``vestige-blocks/unaffordable``). A failed payment is reported once and the event still applies
as far as the blocks allow, so one error never cascades.
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.core.replay import LedgerEntry
from engine.vestige.content import CONTENT
from engine.vestige.state import GameState, SeatState
from schemas.vestige import ATTRIBUTES, PRIMARIES, BlocksAdded, Convert, Recover

UP = {"potential": "influence", "influence": "conviction"}
DOWN = {"influence": "potential", "conviction": "influence"}


def have(s: SeatState, loc: str) -> int:
    """Blocks of seat ``s`` at ``loc`` (dashboard hex, attribute, ``card:``, ``region:``)."""
    if loc.startswith("card:"):
        c = s.cards.get(loc[5:])
        return c.blocks if c else 0
    if loc.startswith("region:"):
        return 1 if loc[7:] in s.regions else 0
    return s.blocks.get(loc, 0)


def _add(s: SeatState, loc: str, n: int) -> None:
    if loc.startswith("card:"):
        c = s.cards.get(loc[5:])
        if c is not None:
            c.blocks += n
        else:  # a card outside the tableau: the block goes back to influence
            s.blocks["influence"] = s.blocks.get("influence", 0) + n
        return
    if loc.startswith("region:"):
        if n > 0:
            s.regions.add(loc[7:])
        else:
            s.regions.discard(loc[7:])
        return
    s.blocks[loc] = s.blocks.get(loc, 0) + n


def cost_rule(why: str) -> str | None:
    """The rule of the action a payment is for (``vestige-blocks/unaffordable`` cites it)."""
    from engine.vestige import codes

    for prefix, rule in (
            ("visiting", f"{codes.REGIONS} and {codes.VISIT} (if you cannot afford the cost of "
                         "an effect, you cannot visit that tile)"),
            ("speed boost", f"{codes.MOVE}, Temporary Speed Boost (downgrade 1 power)"),
            ("control", f"{codes.CONTROL} (1 conviction; 2 if controlled by another player)"),
            ("reroll", f"{codes.BONUS}, Reroll the Outcome Die (use 1 conviction)"),
            ("surveil", f"{codes.BONUS}, Surveil (use 1 conviction)"),
            ("reset", f"{codes.RESET} (use a conviction)"),
            ("activating", f"{codes.ACTIVATE} (place 1 influence; gain the attributes in full)"),
            ("completing", f"{codes.JOBS}, Completing Jobs (pay the attribute cost)"),
            ("STRAIN", f"{codes.JOBS}, Outcome Die Results: STRAIN (add 2 influence)"),
            ("UPGRADE", f"{codes.JOBS}, Outcome Die Results: UPGRADE"),
            ("artifact", f"{codes.ARTIFACTS} (place 1-3 influence; return a charge to use it)"),
            ("convert", f"{codes.ATTR}, Converting Attributes"),
            ("recover", f"{codes.BONUS}, Recover Influence"),
            ("rest", f"{codes.VISIT}, Rest (upgrade 1 power)")):
        if why.startswith(prefix):
            return rule
    return None


def take(s: SeatState, loc: str, n: int, sink: FindingSink, why: str) -> bool:
    """Remove ``n`` blocks from ``loc``; report when the seat has fewer (takes what there is).
    The finding cites the rule of the action that costs (``why``)."""
    if n <= 0:
        return True
    got = have(s, loc)
    if got < n:
        sink.report("vestige-blocks/unaffordable",
                    f"seat {s.seat} needs {n} at {loc} for {why} but has {got}",
                    seat=s.seat, expected=f">= {n}", recorded=got, rule=cost_rule(why),
                    reads=("blocks", "tableau") if loc.startswith("card:") else ("blocks",))
        n = got
        ok = False
    else:
        ok = True
    if n:
        _add(s, loc, -n)
    return ok


def move(s: SeatState, src: str, dst: str, n: int, sink: FindingSink, why: str) -> bool:
    """Move ``n`` blocks ``src`` -> ``dst`` (block conservation: nothing is created or lost)."""
    avail = min(n, have(s, src))
    ok = take(s, src, n, sink, why)
    if avail:
        _add(s, dst, avail)
    return ok


def upgrade(s: SeatState, frm: str, sink: FindingSink, why: str) -> bool:
    """Move a block one hex right (p. 8): potential to influence, influence to conviction."""
    if frm not in UP:
        sink.report("vestige-blocks/direction", f"{why}: a block in {frm} cannot be upgraded "
                    "(an upgrade moves it one hex to the right)", seat=s.seat,
                    expected=sorted(UP), recorded=frm)
        return False
    return move(s, frm, UP[frm], 1, sink, why)


def downgrade(s: SeatState, frm: str, sink: FindingSink, why: str) -> bool:
    """Move a block one hex left (p. 8): conviction to influence, influence to potential."""
    if frm not in DOWN:
        sink.report("vestige-blocks/direction", f"{why}: a block in {frm} cannot be downgraded "
                    "(a downgrade moves it one hex to the left)", seat=s.seat,
                    expected=sorted(DOWN), recorded=frm)
        return False
    return move(s, frm, DOWN[frm], 1, sink, why)


def gain_attributes(s: SeatState, attrs: list[str], sink: FindingSink, why: str) -> bool:
    """Gain attributes in full: one influence into each attribute hex (p. 9)."""
    ok = True
    for a in attrs:
        ok = move(s, "influence", a, 1, sink, why) and ok
    return ok


def spend_attributes(s: SeatState, attrs: dict[str, int], sink: FindingSink, why: str) -> bool:
    """Use attributes: back to influence (p. 9)."""
    ok = True
    for a, n in attrs.items():
        ok = move(s, a, "influence", n, sink, why) and ok
    return ok


def counts(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


# --- leverage -------------------------------------------------------------------------------


def gain(st: GameState, seat: int, amount: int, source: str, detail: str = "") -> None:
    """A seat's leverage changes; reaching or passing a trigger point is noted (p. 25)."""
    if amount == 0:
        return
    s = st.seats[seat]
    before = s.leverage
    s.leverage += amount
    st.ledger.append(LedgerEntry(seat=seat, amount=amount, total=s.leverage, source=source,
                                 era=None, cycle=None, round=st.round or None,
                                 event=st.event_index, detail=detail))
    if amount > 0 and st.phase in ("setup", "play"):
        for i, point in enumerate(st.content.trigger_points, start=1):
            if before < point <= s.leverage and i not in s.triggers:
                s.pending_triggers.add(i)


# --- bonus actions on blocks ----------------------------------------------------------------


def on_convert(st: GameState, ev: Convert, sink: FindingSink) -> None:
    """Convert (p. 9): two different primaries -> the secondary between them, the extra block
    back to influence. Irreversible: only primaries can be spent."""
    s = st.seats[ev.seat]
    if ev.split or len(ev.spend) == 1:
        _split_back(s, ev, sink)
        return
    a, b = ev.spend
    sec = CONTENT.secondary_of(a, b) if a != b else None
    if sec is None or (ev.into is not None and ev.into != sec):
        sink.report("vestige-convert/invalid",
                    f"{a} + {b} does not make {ev.into or 'a secondary'}",
                    seat=ev.seat, expected=sec or "two different primaries",
                    recorded=ev.into or f"{a}+{b}")
        return
    if have(s, a) < 1 or have(s, b) < 1:
        take(s, a if have(s, a) < 1 else b, 1, sink, "convert")
        return
    take(s, a, 1, sink, "convert")
    take(s, b, 1, sink, "convert")
    _add(s, sec, 1)
    _add(s, "influence", 1)


def _split_back(s: SeatState, ev: Convert, sink: FindingSink) -> None:
    """A secondary split back into primaries, as the table did it: reported (p. 9: 'can never
    be reversed'), then followed (1 secondary and 1 influence become the primaries recorded)."""
    sink.report("vestige-convert/invalid", f"{'+'.join(ev.spend)} was split back into "
                f"{'+'.join(ev.split) or 'primaries'}: secondary attributes cannot be split back",
                seat=ev.seat, expected="no reversal", recorded={"spend": list(ev.spend),
                                                               "split": list(ev.split)})
    for a in ev.spend:
        take(s, a, 1, sink, "convert")
    for i, p in enumerate(ev.split):
        if i >= len(ev.spend) and not take(s, "influence", 1, sink, "convert"):
            continue
        _add(s, p, 1)


def on_blocks_added(st: GameState, ev: BlocksAdded, sink: FindingSink) -> None:
    """Blocks put into play from nothing, as the table did: reported (a seat has 20 blocks,
    p. 8), then followed."""
    s = st.seats[ev.seat]
    sink.report("vestige-blocks/created", f"{ev.n} block(s) added to {ev.dst} from nothing"
                + (f" ({ev.reason})" if ev.reason else ""), seat=ev.seat,
                expected="no new blocks", recorded=ev.n)
    _add(s, ev.dst, ev.n)


def on_recover(st: GameState, ev: Recover, sink: FindingSink) -> None:
    """Recover influence (p. 16): any blocks but potential back to influence. From a card the card
    is abandoned (its leverage lost; augmentations and their leverage too; its job reassigned or
    lost); from a region, control and its leverage are lost."""
    from engine.vestige.cards import abandon

    s = st.seats[ev.seat]
    src = ev.source
    if src == "potential":
        sink.report("vestige-recover/from-potential", "blocks in potential cannot be recovered",
                    seat=ev.seat, expected="not potential", recorded=src)
        return
    if src.startswith("card:"):
        name = src[5:]
        card = s.cards.get(name)
        if card is None:
            sink.report("vestige-card/not-owned", f"{name!r} is not in seat {ev.seat}'s tableau",
                        seat=ev.seat, recorded=name)
            return
        if ev.n != card.blocks:
            # more blocks than the log put there: each activation puts one influence on the
            # card (p. 11), so an activate line of the seat is evidently missing, and the
            # attributes it gained: the seat's blocks are in doubt
            more = ev.n > card.blocks
            sink.report("vestige-recover/card-blocks",
                        f"recovering from {name!r} abandons it: all {card.blocks} blocks return"
                        + (f"; the table had {ev.n} on it (an activate line missing?)" if more
                           else ""), seat=ev.seat, expected=card.blocks, recorded=ev.n,
                        touches=("blocks",) if more else None)
        abandon(st, s, name, sink, reassign=ev.reassign, lose_leverage=True)
        return
    if src.startswith("region:"):
        pos = src[7:]
        if pos not in s.regions:
            sink.report("vestige-blocks/unaffordable", f"seat {ev.seat} does not control {pos}",
                        seat=ev.seat, expected="a controlled region", recorded=pos,
                        reads=("regions",))
            return
        s.regions.discard(pos)
        st.controller.pop(pos, None)
        _add(s, "influence", 1)
        region = st.map.get(pos)
        gain(st, ev.seat, -region_value(st, region), "recover_region", pos)
        st.row("control", seat=ev.seat, nemesis=None, position=pos, region=region, change="lost",
               cost=0, leverage=-region_value(st, region))
        return
    move(s, src, "influence", ev.n, sink, "recover")


def region_value(st: GameState, region: str | None) -> int:
    """A region's printed leverage (only the Chop Shop's is in the rulebook; others declared)."""
    if region is None:
        return 0
    if region == "chop_shop":
        return st.content.stated["chop_shop_leverage"]
    st.rest_on("region_leverage")
    return st.content.region_leverage.get(region, 0)


ATTRS = frozenset(ATTRIBUTES)
PRIMS = frozenset(PRIMARIES)
