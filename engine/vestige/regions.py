"""Main Actions: Visit or Rest (p. 13), Control Regions (p. 17), Base Game Map Regions (p. 30)
and the Extra Regions module (p. 31).

A visit fully resolves the tile's effect: arrow effects once per visit, colon effects
(``repeatable``) as often as affordable. The recorded resolution (attributes gained and spent,
blocks upgraded, returned or charged) must be the region's effect.
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.vestige.blocks import (
    ATTRS,
    counts,
    downgrade,
    gain,
    gain_attributes,
    move,
    region_value,
    spend_attributes,
    take,
    upgrade,
)
from engine.vestige.board import adjacent_tiles
from engine.vestige.cards import CHARACTERS
from engine.vestige.codes import CONTROL as CONTROL_RULE
from engine.vestige.content import CONTENT
from engine.vestige.rulings import option
from engine.vestige.slips import move_sign, words
from engine.vestige.state import GameState, SeatState
from engine.vestige.turns import actor, take_main
from schemas.vestige import Control, Rest, Visit

GAINS = {"archives": "ambition", "black_market": "cunning", "scrapyard": "might"}
HQ = {"lawmaker_ridge": ("ambition", "lawmaker"), "mercenary_camp": ("might", "mercenary"),
      "smugglers_lair": ("cunning", "smuggler")}


def _used_fields(ev: Visit) -> set[str]:
    names = ("gain", "spend", "upgrades", "downgrades", "returns", "charges", "contact", "source")
    return {n for n in names if getattr(ev, n)}


def expected_fields(region: str) -> set[str]:
    """Which resolution fields a region's effect uses (the rest must stay empty)."""
    return {
        "archives": {"gain"}, "black_market": {"gain"}, "scrapyard": {"gain"},
        "black_dove": {"downgrades"}, "chop_shop": {"source"}, "garage": set(),
        "generator": {"charges"}, "lawmaker_ridge": set(), "mercenary_camp": set(),
        "smugglers_lair": set(), "underground": {"contact"}, "oasis": {"returns"},
        "obelisk": {"spend", "gain"}, "observatory": {"upgrades"},
        "wound": {"spend", "upgrades"},
    }.get(region, set())


def on_visit(st: GameState, ev: Visit, sink: FindingSink) -> None:
    s = st.seats[ev.seat]
    take_main(st, s, "visit", sink)
    pos = ev.position
    known = st.map.get(pos)
    if ev.region is not None and known is not None and ev.region != known:
        # the recorded region is at one tile next to the pawn: the position was the slip (a
        # number off by one, another tile's name): reported once, then read as that tile
        near = [p for p in sorted(adjacent_tiles(s.space or 0)) if st.map.get(p) == ev.region]
        if len(near) == 1 and s.space is not None and not st.partial:
            sink.report("vestige-visit/wrong-region", f"{pos} is {known}, not {ev.region}; "
                        f"{ev.region} is at {near[0]}, next to the pawn: read as {near[0]}",
                        seat=ev.seat, expected=known, recorded=ev.region)
            ev = ev.model_copy(update={"position": near[0]})
            pos = near[0]
    if pos not in adjacent_tiles(s.space or 0):
        move_sign(s, sink.report(
            "vestige-visit/not-adjacent", f"{pos} is not adjacent to space {s.space}",
            seat=ev.seat, expected=sorted(adjacent_tiles(s.space or 0)), recorded=pos,
            follows=s.turn_doubt, because=words(ev.seat, "space")))
    known = st.map.get(pos)
    if ev.region is not None and known is not None and ev.region != known:
        sink.report("vestige-visit/wrong-region", f"{pos} is {known}, not {ev.region}",
                    seat=ev.seat, expected=known, recorded=ev.region)
    region = known or ev.region
    if known is None and ev.region is not None:
        st.map[pos] = ev.region
        st.face_up.add(pos)
    if ev.times < 1:
        # p. 13: you cannot visit a region without resolving its effect
        sink.report("vestige-visit/not-resolved", f"the visit to {region or pos} resolved its "
                    "effect 0 times", seat=ev.seat, expected=">= 1", recorded=ev.times)
        return
    s.visited_now.add(pos)
    if region == "floating_stones":
        s.floating_credit += 1
    if region is not None:
        resolve(st, s, region, ev, sink)
    owner = st.controller.get(pos)
    value = region_value(st, region) if owner is not None and owner != ev.seat else 0
    if ev.leverage is not None and ev.leverage != value:
        sink.report("vestige-visit/controller-leverage", f"visiting {region or pos} gives its "
                    f"controller ({owner}) {value}; the table gave {ev.leverage}",
                    seat=ev.seat, expected=value, recorded=ev.leverage)
        value = ev.leverage  # followed: the controller's disc moved as recorded
    if owner is not None and owner != ev.seat:
        if isinstance(owner, int):
            gain(st, owner, value, "region_visit", f"{pos} visited by seat {ev.seat}")
        else:
            st.nemeses[owner].leverage += value
    st.row("visits", seat=ev.seat, position=pos, region=region,
           controller=None if owner is None else str(owner), times=ev.times)


def _wrong(sink: FindingSink, ev: Visit, region: str, expected: object, recorded: object) -> None:
    """The recorded resolution is not the region's effect: reported once. Where the record
    still says what the table moved (attributes gained or spent, blocks upgraded or downgraded)
    replay follows it, so the seat's blocks do not drift from the table's (no cascade)."""
    sink.report("vestige-visit/wrong-effect", f"the recorded resolution of {region} is not its "
                "effect", seat=ev.seat, expected=expected, recorded=recorded)


def resolve(st: GameState, s: SeatState, region: str, ev: Visit, sink: FindingSink) -> None:
    """Resolve one region's visit effect for seat ``s`` (p. 30-31)."""
    times = ev.times
    if times > 1 and region not in CONTENT.repeatable:
        if region == "obelisk":
            st.rest_on("obelisk_repeatable")
        sink.report("vestige-visit/repeat-arrow", f"{region}'s effect resolves once per visit",
                    seat=ev.seat, expected=1, recorded=times)
        times = 1
    extra = _used_fields(ev) - expected_fields(region)
    if extra:
        _wrong(sink, ev, region, sorted(expected_fields(region)), sorted(extra))
        return
    why = f"visiting {region}"
    if region in GAINS:
        want = {GAINS[region]: 2}
        if counts(list(ev.gain)) != want:
            _wrong(sink, ev, region, want, counts(list(ev.gain)))  # then followed (_wrong)
        gain_attributes(s, list(ev.gain), sink, why)
    elif region in HQ:
        attr, kind = HQ[region]
        _pay(s, ev, {attr: CONTENT.stated["contact_cost"]}, sink, why)
        draw_due(st, ev.seat, kind, sink)
    elif region == "underground":
        _pay(s, ev, {"conviction": 1}, sink, why)
        draw_due(st, ev.seat, ev.contact or "lawmaker", sink)
        if ev.contact is None:
            _wrong(sink, ev, region, "a contact type", None)
    elif region == "chop_shop":
        _pay(s, ev, {"conviction": 1}, sink, why)
        draw_due(st, ev.seat, "chop_bot", sink)
    elif region == "garage":
        if s.speed >= st.content.max_speed and option(st, "garage-top-speed") == "cannot-visit":
            st.rest_on("max_speed")
            sink.report("vestige-visit/not-resolved", f"speed {s.speed} is the end of the "
                        "track: the Garage's effect cannot be resolved", seat=ev.seat,
                        expected=f"speed < {st.content.max_speed}", recorded=s.speed)
            s.visited_now.discard(ev.position)  # no visit: it justifies no control (p. 17)
            return
        if _pay(s, ev, {"might": 3}, sink, why):
            st.rest_on("garage_speed")
            for _ in range(st.content.garage_speed):
                raise_speed(st, s)
    elif region == "generator":
        total = sum(c.n for c in ev.charges)
        if total > 3:
            _wrong(sink, ev, region, "up to 3 influence in all", total)
            return
        for c in ev.charges:
            card = s.cards.get(c.card)
            if card is None or card.kind != "artifact":
                _wrong(sink, ev, region, "artifacts in the tableau", c.card)
                continue
            move(s, "influence", f"card:{c.card}", c.n, sink, why)
            if card.blocks > CONTENT.stated["artifact_charges_max"]:
                sink.report("vestige-artifact/overcharged", f"{c.card!r} holds {card.blocks}",
                            seat=ev.seat, expected="<= 3", recorded=card.blocks)
    elif region == "oasis":
        returned = sum(r.n for r in ev.returns)
        if returned > 2 * times:
            _wrong(sink, ev, region, f"up to {2 * times} influence returned", returned)
            return
        _pay(s, ev, {"ambition": times}, sink, why)
        for r in ev.returns:
            card = s.cards.get(r.card)
            if card is None or card.kind not in CHARACTERS:
                _wrong(sink, ev, region, "contacts or chop bots", r.card)
                continue
            move(s, f"card:{r.card}", "influence", r.n, sink, why)
    elif region == "obelisk":
        if len(ev.spend) == 2 and len(ev.gain) == 2:
            if option(st, "obelisk-other") == "other-than-spent":
                other = not set(ev.gain) & set(ev.spend)
            else:
                other = sorted(ev.gain) != sorted(ev.spend)
        if len(ev.spend) != 2 or len(ev.gain) != 2 or not other:
            _wrong(sink, ev, region, "2 attributes spent, 2 other attributes gained",
                   {"spend": list(ev.spend), "gain": list(ev.gain)})
        spend_attributes(s, counts(list(ev.spend)), sink, why)
        gain_attributes(s, list(ev.gain), sink, why)
    elif region == "observatory":
        if len(ev.upgrades) != times:
            _wrong(sink, ev, region, f"{times} upgrades", len(ev.upgrades))
            times = len(ev.upgrades)  # followed: the upgrades the table made, paid for
        _pay(s, ev, {"cunning": times}, sink, why)
        for u in ev.upgrades:
            upgrade(s, u, sink, why)
    elif region == "black_dove":
        if len(ev.downgrades) != times:
            _wrong(sink, ev, region, f"{times} downgrades", len(ev.downgrades))
        for d in ev.downgrades:
            if downgrade(s, d, sink, why):
                s.dove_jobs += 1  # each resolution takes one job (ruling black-dove-repeat)
        s.dove = True
    elif region == "wound":
        if len(ev.spend) != 2 or not set(ev.spend) <= ATTRS:
            _wrong(sink, ev, region, "2 attributes", list(ev.spend))
            return
        spend_attributes(s, counts(list(ev.spend)), sink, why)
        if s.blocks.get("potential", 0) > 0:
            move(s, "potential", "conviction", 1, sink, why)
        else:
            move(s, "influence", "conviction", 2, sink, why)
    # trench, jump point, rise, den, ring, floating stones: no visit effect; bridge, refugee
    # camp, white raven, deserted factory: resolved through ``effect`` (via "region") events


def _pay(s: SeatState, ev: Visit, want: dict[str, int], sink: FindingSink, why: str) -> bool:
    """Pay a region's cost back to influence. A recorded payment (``pay``) that differs from
    the cost is reported and followed: replay goes on with the blocks the table moved."""
    want = {k: v for k, v in want.items() if v}
    got = want if ev.pay is None else {k: v for k, v in ev.pay.items() if v}
    if got != want:
        sink.report("vestige-visit/wrong-payment", f"{why} costs {want}; the table paid {got}",
                    seat=ev.seat, expected=want, recorded=got)
    ok = True
    for loc, n in got.items():
        if loc not in ATTRS and loc != "conviction":
            continue
        ok = move(s, loc, "influence", n, sink, why) and ok
    return ok


def raise_speed(st: GameState, s: SeatState) -> None:
    """Move the speed counter one space right and score the space's leverage (p. 12)."""
    if s.speed >= st.content.max_speed:
        st.rest_on("max_speed")
        return
    s.speed += 1
    value = st.content.speed_leverage.get(s.speed, 0)
    if s.speed not in (3, 4):
        st.rest_on("speed_track_leverage")
    gain(st, s.seat, value, "speed", f"speed {s.speed}")


def on_rest(st: GameState, ev: Rest, sink: FindingSink) -> None:
    s = st.seats[ev.seat]
    take_main(st, s, "visit", sink)
    upgrade(s, ev.upgrade, sink, "rest")


def on_control(st: GameState, ev: Control, sink: FindingSink) -> None:
    """1 conviction onto the tile (2 to take it over: the first and the old controller's block
    return to influence); gain its leverage; once per region per turn; a visit before or after
    (checked at the end of the turn)."""
    s = st.seats[ev.seat]
    actor(st, ev.seat, sink, "control")
    pos = ev.position
    team_twice = (st.team_turn and pos in st.team_controlled
                  and option(st, "coop-control-twice") == "once-per-team-turn")
    if pos in s.controlled_now or team_twice:
        sink.report("vestige-control/twice", f"{pos} was already controlled this "
                    + ("team turn" if team_twice else "turn"), seat=ev.seat,
                    expected="once per turn", recorded="twice")
        return
    owner = st.controller.get(pos)
    if owner == ev.seat:
        sink.report("vestige-control/own", f"seat {ev.seat} already controls {pos}",
                    seat=ev.seat, recorded=pos)
        return
    cost = CONTENT.stated["takeover_cost"] if owner is not None else CONTENT.stated["control_cost"]
    if ev.pay is not None and ev.pay != cost:
        sink.report("vestige-control/wrong-cost", f"control of {pos} costs {cost} conviction"
                    + (" (it is another's)" if owner is not None else "") + f"; the table paid "
                    f"{ev.pay}", seat=ev.seat, expected=cost, recorded=ev.pay)
        cost = ev.pay  # followed: the blocks the table moved
    if s.blocks.get("conviction", 0) < cost:
        sink.report("vestige-blocks/unaffordable", f"control of {pos} costs {cost} conviction; "
                    f"seat {ev.seat} has {s.blocks.get('conviction', 0)}", seat=ev.seat,
                    expected=f">= {cost}", recorded=s.blocks.get("conviction", 0), reads=("blocks",),
                    rule=f"{CONTROL_RULE} (1 conviction; 2 if controlled by another player)")
        return
    if cost < 1:  # the table paid no conviction: the block on the tile came from influence
        take(s, "influence", 1, sink, f"control of {pos}")
    else:
        take(s, "conviction", cost, sink, f"control of {pos}")
        s.blocks["influence"] = s.blocks.get("influence", 0) + cost - 1
    if isinstance(owner, int):
        o = st.seats[owner]
        o.regions.discard(pos)
        o.blocks["influence"] = o.blocks.get("influence", 0) + 1
    elif isinstance(owner, str):
        st.nemeses[owner].regions.discard(pos)
    s.regions.add(pos)
    st.controller[pos] = ev.seat
    s.controlled_now.add(pos)
    if st.team_turn:
        st.team_controlled.add(pos)
    region = st.map.get(pos)
    value = region_value(st, region)
    gain(st, ev.seat, value, "region_control", pos)
    st.row("control", seat=ev.seat, nemesis=None, position=pos, region=region,
           change="takeover" if owner is not None else "gained", cost=cost, leverage=value)
    if "bone" in st.nemeses:  # Bone's triggered ability (p. 27)
        st.nemeses["bone"].leverage += 1
    if region == "jump_point":
        if ev.swap is None or ev.swap == pos:
            sink.report("vestige-control/jump-point-swap", "gaining control of the Jump Point "
                        "swaps it with another region", seat=ev.seat,
                        expected="another region's position", recorded=ev.swap)
        else:
            swap_tiles(st, pos, ev.swap)


def swap_tiles(st: GameState, a: str, b: str) -> None:
    """The Jump Point and another region physically swap positions (p. 30): each tile keeps its
    controller (a seat's or a nemesis's block rides on it) and its face; pawns stay."""
    ra, rb = st.map.get(a), st.map.get(b)
    for pos, region in ((b, ra), (a, rb)):
        if region is not None:
            st.map[pos] = region
        else:
            st.map.pop(pos, None)
    ca, cb = st.controller.pop(a, None), st.controller.pop(b, None)
    if ca is not None:
        st.controller[b] = ca
    if cb is not None:
        st.controller[a] = cb
    holders: list[set[str]] = [x.regions for x in st.seats.values()]
    holders += [n.regions for n in st.nemeses.values()]
    for regions in holders:
        had_a, had_b = a in regions, b in regions
        regions.discard(a)
        regions.discard(b)
        if had_a:
            regions.add(b)
        if had_b:
            regions.add(a)
    fa, fb = a in st.face_up, b in st.face_up
    st.face_up.discard(a)
    st.face_up.discard(b)
    if fa:
        st.face_up.add(b)
    if fb:
        st.face_up.add(a)


def draw_due(st: GameState, seat: int, kind: str, sink: FindingSink) -> None:
    """The visit adds a card of ``kind`` to the network: it is drawn next. A card of that kind
    the seat drew earlier this turn, with no visit calling for it, was this one written before
    its visit (two lines swapped): reported once, and not asked for again."""
    early = st.early_draw
    if early is not None and early[0] == seat and early[1] == kind:
        st.early_draw = None
        where = f"line {early[2]}" if early[2] is not None else "earlier"
        sink.report("vestige-card/draw-order", f"seat {seat}'s visit adds a {kind}; the {kind} "
                    f"drawn for it was recorded before the visit ({where}): two lines out of "
                    "order?", seat=seat, expected="the draw after the visit", recorded=where)
        return
    st.pending_draw = (seat, kind)
