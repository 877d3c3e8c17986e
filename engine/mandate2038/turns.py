"""Core rules §2 Central loop: Headline, secret selection and reveal, eligibility, resolution
clockwise from Initiative, the immediate trade (§6B), Select -> Move -> Act, exhausting
Core Actions and committing Program markers, and Initiative passing each cycle.

Commitments (exhausting a Core Action, placing a Program marker, marking a Program used) are
made when the turn resolves (or, for a selection never resolved, when the cycle closes), so
that a table that resolved something other than its revealed selection is reported once
(``turn/not-selected``) and the state follows what it actually did.
"""

from __future__ import annotations

from operator import itemgetter

from engine.core.findings import FindingSink
from engine.mandate2038 import factions
from engine.mandate2038.board import DISTANCE, FRONTIER, WITHIN_TWO
from engine.mandate2038.codes import turn_touches
from engine.mandate2038.core_actions import (
    ACTIONS,
    compute_free,
    deploy_requirement,
    do_run_end,
    moved_facility_power,
)
from engine.mandate2038.hex_board import (
    adjacent_hexes,
    check_path,
    controller,
    has_free_space,
    locally_eligible,
    move_piece,
)
from engine.mandate2038.programs import PROGRAMS
from engine.mandate2038.resources import add_scrutiny, gain, gain_capability, pay
from engine.mandate2038.rulings import option, used
from engine.mandate2038.state import CORE_ACTIONS, GameState, SeatState, Turn
from engine.mandate2038.trace import step
from schemas.mandate2038 import (
    AllocationWindow,
    Build,
    EmergencyPause,
    HeadlineReveal,
    Reveal,
    RunEnd,
    Trade,
    TurnEvent,
)

CORE_SET = frozenset(CORE_ACTIONS)


def initiative_for(st: GameState, era: int, cycle: int) -> int:
    """The seat holding Initiative in (era, cycle): it passes clockwise every cycle."""
    first = st.first_initiative
    k = 3 * (max(era, 1) - 1) + (max(cycle, 1) - 1)
    return ((first - 1 + k) % st.n) + 1


def tie_pick(st: GameState, seats: list[int]) -> int | None:
    """Universal tie rule: the tied seat nearest Initiative clockwise."""
    if not seats:
        return None
    order = st.initiative_order()
    return min(seats, key=order.index)


def most(st: GameState, values: dict[int, int], lowest: bool = False) -> int | None:
    """The seat with the most (or least) of something, ties by the universal tie rule."""
    if not values:
        return None
    best = min(values.values()) if lowest else max(values.values())
    return tie_pick(st, [k for k, v in values.items() if v == best])


def government_controller(st: GameState) -> int | None:
    """"The Civic Permission Authority controller": the seat controlling the most Civic
    Permission Authority hexes (ties by the universal tie rule); None when nobody controls
    one (interpretation for two copies: docs/engine.md)."""
    counts: dict[int, int] = {}
    for pos in st.board.positions_of("government"):
        c = controller(st, pos)
        if c is not None:
            counts[c] = counts.get(c, 0) + 1
    return most(st, counts)


def government_controllers(st: GameState) -> list[int]:
    """The seats an effect treats as "the Civic Permission Authority's controller" (ruling
    cpa-controller: ``each-copy``, every seat controlling a copy; ``most-copies``, the one
    :func:`government_controller`)."""
    ctrls = sorted({c for pos in st.board.positions_of("government")
                    if (c := controller(st, pos)) is not None})
    if len(ctrls) < 2:
        return ctrls
    used(st, "cpa-controller")
    if option(st, "cpa-controller") == "each-copy":
        return ctrls
    one = government_controller(st)
    return [one] if one is not None else []


def _close_production(st: GameState, sink: FindingSink) -> None:
    from engine.mandate2038.era_sequence import resolve_production

    resolve_production(st, sink)


# --- cycle start ------------------------------------------------------------------------------


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


def settle_after_resolve(st: GameState, seat: int) -> None:
    """The Court Adopts Supported Meaning / The Metropolitan Mind Trust Incorporates: a seat
    that selected the rewarded Core Action "takes 2 Runway once it has resolved" (and its
    Scrutiny): paid when that seat's turn closes, so the action cannot spend the reward and the
    cap applies after the action's own costs and gains."""
    due = st.after_resolve.pop(seat, None)
    if due is None:
        return
    s = st.seats[seat - 1]
    gain(st, s, "runway", due[0])
    add_scrutiny(st, s, due[1])


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


def on_headline(st: GameState, ev: HeadlineReveal, sink: FindingSink) -> None:
    """§6B.1: a cycle begins with a Headline (immediate Headlines resolve now)."""
    if st.production_started and not st.production_done:
        _close_production(st, sink)
    close_cycle(st, sink)
    if st.era == 0:
        if not st.partial:
            sink.report("turn/wrong-phase", "a Headline was revealed before Era I began")
        st.era = 1
    expected = st.cycle + 1
    cycle = ev.cycle  # (read once: a pydantic attribute costs several plain ones)
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
    hid = ev.headline
    st.headline = hid
    if hid is None:
        return
    card = st.c.headlines.get(hid)
    if card is None:
        sink.report("cycle/unknown-headline", f"the Headline {hid!r} is not a known card",
                    recorded=hid)
        st.headline = None
        return
    st.rows["headlines"].append({"era": st.era, "cycle": st.cycle, "headline": hid})
    if card.era != st.era:
        sink.report("cycle/headline-wrong-era",
                    f"{card.name} ({hid}) belongs to Era {card.era}'s deck, revealed in Era {st.era}",
                    expected=card.era, recorded=st.era)
    if not card.default and st.profile == "default":
        sink.report("cycle/headline-advanced",
                    f"{card.name} ({hid}) carries the Advanced Play badge and is not used in the "
                    "Default Game")
    if hid in [h for _e, _c, h in st.headlines_seen]:
        sink.report("cycle/headline-repeated", f"{card.name} ({hid}) was already revealed")
    st.headlines_seen.append((st.era, st.cycle, hid))
    if card.duration == "this_production":
        st.production_headline = hid
    if not card.default:
        return  # Advanced Headlines are not checked (see unchecked())
    if hid == "open_weights_drop":
        for s in st.seats:
            gain_capability(st, s, 1)
        low = _tie_target(st, ev, {s.seat: s.customers for s in st.seats}, card.name,
                          "lowest Customers", sink)
        if low is not None:
            gain(st, st.seats[low - 1], "trust", 1)
    elif hid == "weights_on_internet":
        from engine.mandate2038.era_sequence import produce_one_facility

        low = _tie_target(st, ev, {s.seat: s.capability for s in st.seats}, card.name,
                          "lowest Capability", sink)
        high = most(st, {s.seat: s.capability for s in st.seats})
        if low is not None:
            s = st.seats[low - 1]
            powered = [f.number for f in s.facilities.values() if f.powered]
            if (low, ev.facility) in st.ruled_power:
                used(st, "moved-facility-power", low)  # whether it still has its cube
            if ev.facility is None:
                if powered and not st.partial:
                    sink.report(
                        "headline/choice-invalid",
                        f"The Passive Citizen Dividend Activates: seat {low} (lowest Capability) "
                        "must name a Facility powered in the latest snapshot; none recorded",
                        seat=low, expected=powered)
            elif ev.facility not in powered:
                sink.report("headline/choice-invalid",
                            f"The Passive Citizen Dividend Activates: seat {low}'s Facility "
                            f"{ev.facility} was not powered in the latest Production snapshot",
                            seat=low, expected=powered, recorded=ev.facility)
            else:
                produce_one_facility(st, s, s.facilities[ev.facility], sink)
        if high is not None:
            gain(st, st.seats[high - 1], "trust", 1)
    elif hid == "export_controls":
        # each controller of a Fabrication Corridor gains 1 Runway, and "the Civic Permission
        # Authority controller" as The Court Adopts Supported Meaning reads it (ruling
        # cpa-controller: one ruling for both Headlines)
        ctrl = {controller(st, pos) for pos in st.board.positions_of("foundry")}
        for c in sorted(x for x in ctrl if x is not None):
            gain(st, st.seats[c - 1], "runway", 1)
        for c in government_controllers(st):
            gain(st, st.seats[c - 1], "runway", 1)
    elif hid == "ai_written_law" and ev.action is None and not st.partial:
        sink.report("headline/choice-invalid",
                    "The Court Adopts Supported Meaning: the named Core Action was not recorded")


def _tie_target(st: GameState, ev: HeadlineReveal, values: dict[int, int], name: str,
                what: str, sink: FindingSink) -> int | None:
    """The seat a Headline's "lowest ..." effect targets: the universal tie rule's (§2: the tied
    player nearest Initiative clockwise), checked against the target the log records
    (``headline.target``); the state follows the table's target (no cascade)."""
    rule_seat = most(st, values, lowest=True)
    rec = ev.target
    if rec is None or rec == rule_seat:
        return rule_seat
    low = min(values.values()) if values else None
    if not 1 <= rec <= st.n or values.get(rec) != low:
        why = f"seat {rec} does not have the {what} ({low})"
    else:
        tied = sorted(k for k, v in values.items() if v == low)
        why = (f"seats {', '.join(map(str, tied))} tie for the {what}; the tie goes to the one "
               f"nearest Initiative (seat {st.initiative}) clockwise")
    sink.report("headline/tie-target",
                f"{name}: the effect went to seat {rec}, but {why}: seat {rule_seat}",
                seat=rec, expected=rule_seat, recorded=rec)
    return rec if 1 <= rec <= st.n else rule_seat


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


def compute_trade_banned(st: GameState) -> bool:
    """Compute Borders Harden: "Compute cannot be traded" this cycle (§9; §6B: the active
    Headline may prohibit a named resource from being traded). Read by the immediate trade, the
    Allocation Window's sales and the move generator."""
    return st.headline == "export_controls"


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


# --- selection ------------------------------------------------------------------------------


def selection_problems(
    st: GameState, s: SeatState, pick: str, sink: FindingSink, *, where: str = "selected"
) -> None:
    """Report why ``pick`` may not be selected by ``s`` now (§2 and §5)."""
    if pick in CORE_SET:
        if pick in s.exhausted:
            sink.report("select/action-exhausted",
                        f"seat {s.seat} {where} {pick}, already exhausted this Era",
                        seat=s.seat, recorded=pick)
        _ineligible(st, s, pick, sink)
    else:
        unlock = st.c.program_unlock.get(pick, 9)
        if pick in ("agent_swarm", "mega_cluster", "fusion") and st.era >= unlock:
            _ineligible(st, s, pick, sink)
        if st.era < unlock:
            sink.report("select/program-locked",
                        f"seat {s.seat} {where} the Program {pick}, which unlocks in Era {unlock}",
                        seat=s.seat, recorded=pick)
        if pick in s.programs_used:
            sink.report("select/program-reused",
                        f"seat {s.seat} {where} {pick} again; each Program is usable once per "
                        "player per game", seat=s.seat, recorded=pick)
        free_swarm = pick == "agent_swarm" and st.headline == "agent_swarm_escapes_scope"
        # a locked Program is reported as locked only (no marker is its consequence in Era I)
        if s.markers <= 0 and not free_swarm and st.era >= unlock:
            sink.report("select/program-no-marker",
                        f"seat {s.seat} {where} {pick} without an available Program marker "
                        f"(Era {st.era} gives {st.c.markers(st.era)})", seat=s.seat)
        if st.paused_program == pick:
            sink.report("select/paused-program",
                        f"seat {s.seat} {where} {pick}, which Emergency Pause closed this cycle",
                        seat=s.seat)
        if pick == "fusion" and st.fusion_owner is not None:
            sink.report("select/fusion-taken",
                        f"seat {s.seat} {where} Fusion after seat {st.fusion_owner} built it",
                        seat=s.seat)
    if s.actions_this_era >= 3:
        sink.report("select/fourth-action",
                    f"seat {s.seat} {where} a fourth action in Era {st.era}", seat=s.seat)


def _ineligible(st: GameState, s: SeatState, pick: str, sink: FindingSink) -> None:
    """The few eligibility failures that no movement, trade or location could cure."""
    why = None
    if pick == "deploy":
        if s.customers >= st.c.cap_customers:
            why = f"all {st.c.cap_customers} Customers are already gained"
        else:
            req = deploy_requirement(st, s, district=True) or 0  # the best destination
            if s.capability < req:
                why = f"Customer #{s.customers + 1} needs Capability {req}; it has {s.capability}"
            elif s.compute < 1 and not compute_free(st) and st.board.known:
                free = {"consumer", "cloud"}
                if option(st, "compute-estate-discount") == "research-only":
                    free.discard("cloud")
                if factions.has_active(st, s, "installed_base"):
                    free.add("media")
                if not _reachable(st, s, free, remote=True):
                    why = "it has no Compute and no Compute-free Deploy is within reach"
    elif pick == "research" and s.compute < 1 and not compute_free(st) and (
            st.board.known and not _reachable(st, s, {"cloud"})):
        why = "it has no Compute and no Compute Estate is within reach"
    elif pick == "build" and len(s.facilities) >= 4 and (st.era < 2 or s.generator is not None):
        why = "every Facility is built and no Generator can be built"
    elif pick == "build" and st.board.known and not _can_build(st, s):
        why = "no Facility space or Generator slot it could pay for is within reach"
    elif pick == "influence" and st.board.known and not _can_influence(st, s):
        why = ("no political district is within reach and it has no Joint Venture to form or "
               "end")
    elif pick == "agent_swarm" and sum(1 for a in CORE_ACTIONS if a not in s.exhausted) < 2:
        why = "Agent Swarm needs two different unused Core Actions"
    elif pick == "mega_cluster":
        why = _mega_cluster_blocked(st, s)
    elif pick == "fusion" and st.fusion_owner is None and st.c.fusion is not None:
        if s.runway < st.c.fusion.runway:
            why = f"Fusion costs {st.c.fusion.runway} Runway; it has {s.runway}"
        elif st.board.known and not any(
                st.board.tile_at.get(pos) == st.c.fusion.tile
                and len(st.gen_slots.get(pos, [])) < _slots(st, pos) for pos in _reach(st, s)):
            why = "no Power Corridor with a free Generator slot is within reach"
    if why is not None and not st.partial:
        sink.report("select/ineligible", f"seat {s.seat} selected {pick}, which had no legal "
                    f"resolution: {why}", seat=s.seat, recorded=pick)


def _reach(st: GameState, s: SeatState) -> set[str]:
    """Every hex one of the seat's acting pieces can end on (0-2 steps)."""
    out: set[str] = set()
    for start in (s.ceo, *s.teams):
        out |= WITHIN_TWO.get(start, frozenset())
    return out


def _can_build(st: GameState, s: SeatState) -> bool:
    """Some legal Build (Facility or Generator) the seat can pay for is within reach."""
    reach = _reach(st, s)
    if len(s.facilities) < 4:
        iv = 1 if (s.era.facility_builds == 0
                   and factions.has_active(st, s, "industrial_velocity")) else 0
        if s.runway >= 2 - iv:
            cheap_only = False  # any free space will do
        elif s.runway >= 1 - iv:
            cheap_only = True  # only a Fabrication Corridor visit makes it affordable
        else:
            cheap_only = None
        if cheap_only is not None:
            used: dict[str | None, int] = {}
            for other in st.seats:
                for f in other.facilities.values():
                    used[f.hex] = used.get(f.hex, 0) + 1
            tiles = st.board.tile_at
            spaces = st.c.facility_spaces  # tile id -> Facility spaces
            for pos in reach:
                if pos == FRONTIER or (cheap_only and tiles.get(pos) != "foundry"):
                    continue
                if used.get(pos, 0) < spaces.get(tiles.get(pos) or "", 2):
                    return True
    if st.era >= 2 and s.generator is None:
        for pos in reach:
            tid = st.board.tile_at.get(pos)
            con = st.c.generator_at.get(tid) if tid else None
            tile = st.c.tiles.get(tid) if tid else None
            if con is None or tile is None:
                continue
            beam = con.id == "civic_heat_battery" and st.headline == "reactor_restart_one_model"
            if len(st.gen_slots.get(pos, [])) < tile.generator_slots and (
                    s.runway >= con.runway - (1 if beam else 0)):
                return True
    return False


def _can_influence(st: GameState, s: SeatState) -> bool:
    """A political district within reach, or an own Facility within reach (§7 Influence: Joint
    Ventures are created or terminated at one of your Facilities) while the seat shares a Joint
    Venture it could terminate, or in Era III+ where a venture could form: a free token pair and
    a rival Facility in range of that Facility (§4: adjacent; Strategic Partnership, two
    hexes)."""
    reach = _reach(st, s)
    if any(st.board.tile_at.get(pos) in st.c.political for pos in reach):
        return True
    here = [f.hex for f in s.facilities.values() if f.hex in reach]
    if not here:
        return False
    if any(s.seat in (j.a_seat, j.b_seat) for j in st.jvs.values()):
        return True
    if st.era < 3 or len(st.jvs) >= st.c.jv_pairs:
        return False
    return any(_venture_partner(st, s, h) for h in here)


def _venture_partner(st: GameState, s: SeatState, hx: str) -> bool:
    """Some rival Facility a Joint Venture from the seat's Facility on ``hx`` could join: the
    distances core_actions.do_influence accepts (rulings partnership-range, -same-hex)."""
    own_wide = factions.has_active(st, s, "strategic_partnership")
    either = option(st, "partnership-range") == "either-partner"
    same_hex = option(st, "partnership-same-hex") == "allowed"
    near_hx = DISTANCE[hx]
    for r in st.seats:
        if r is s:
            continue
        wide = own_wide or (either and factions.has_active(st, r, "strategic_partnership"))
        for rf in r.facilities.values():
            d = near_hx.get(rf.hex, 9) if rf.hex is not None else 9
            if d == 1 or (wide and (d == 2 or (d == 0 and same_hex))):
                return True
    return False


def _slots(st: GameState, pos: str) -> int:
    tid = st.board.tile_at.get(pos)
    tile = st.c.tiles.get(tid) if tid else None
    return tile.generator_slots if tile is not None else 0


def _mega_cluster_blocked(st: GameState, s: SeatState) -> str | None:
    """Why no Mega-Cluster could be built now whatever the move (§5 Era II Program: two
    adjacent own Facilities, neither a host yet, each eligible for local Power, a free token
    pair, 3 Runway and 2 Compute, the first Compute cost 1 lower on a Compute Estate host), or
    None."""
    if len(st.megas) >= st.c.mega_pairs:
        return f"all {st.c.mega_pairs} Mega-Cluster pairs are in use"
    prog = st.c.programs.get("mega_cluster")
    runway = prog.runway if prog is not None else 3
    compute = prog.compute if prog is not None else 2
    if s.runway < runway:
        return f"a Mega-Cluster costs {runway} Runway; it has {s.runway}"
    if not st.board.known:
        return None
    reach = _reach(st, s)
    discount = option(st, "compute-estate-discount") == "first-compute-cost"
    free = [f for f in s.facilities.values() if f.mega is None and f.hex is not None
            and locally_eligible(st, s, f.number)]
    for i, fa in enumerate(free):
        for fb in free[i + 1:]:
            if not adjacent_hexes(fa.hex, fb.hex):
                continue
            for h in (fa.hex, fb.hex):
                if h not in reach:
                    continue
                cloud = discount and st.board.tile_at.get(h) == "cloud"
                if s.compute >= compute - (1 if cloud else 0):
                    return None
    return ("no two adjacent own Facilities (neither a host yet, each eligible for local "
            f"Power) within reach that it can pay for ({runway} Runway, {compute} Compute)")


def _reachable(st: GameState, s: SeatState, tiles: set[str], *, remote: bool = False) -> bool:
    """Some acting piece of the seat can end its move (0-2 steps) on one of ``tiles``
    (``remote``: Loopfold's Social Graph may use a district without moving: counted as yes)."""
    if remote and factions.has_active(st, s, "social_graph"):
        return True
    for start in (s.ceo, *s.teams):
        for pos in WITHIN_TWO.get(start, ()):
            if st.board.tile_at.get(pos) in tiles:
                return True
    return False


def on_reveal(st: GameState, ev: Reveal, sink: FindingSink) -> None:
    """§2 steps 2-3: every selection revealed together; resolution order from Initiative."""
    if st.production_started and not st.production_done:
        _close_production(st, sink)
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
    _reveal_headlines(st, picks, ev, sink)


def _reveal_headlines(st: GameState, picks: dict[int, str], ev: Reveal, sink: FindingSink) -> None:
    """Headlines that act on the revealed selections. The Runway and Scrutiny they give are due
    once each seat's action has resolved (:func:`settle_after_resolve`)."""
    if st.headline == "ai_written_law" and st.headline_action is not None:
        named = st.headline_action
        pickers = [seat for seat, p in picks.items() if p == named]
        for seat in pickers:
            st.after_resolve[seat] = (2, 1)
        for ctrl in government_controllers(st):
            rivals = [seat for seat in pickers if seat != ctrl]
            if 2 * len(rivals) >= st.n - 1:
                gain(st, st.seats[ctrl - 1], "trust", 1)
    elif st.headline == "autonomous_corporation":
        counts: dict[str, int] = {}
        for p in picks.values():
            if p in CORE_SET:
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            if ev.tie_choice is not None:
                sink.report("headline/choice-invalid",
                            "The Metropolitan Mind Trust Incorporates: no Core Action was "
                            f"selected, yet the log records Initiative's choice {ev.tie_choice}",
                            recorded=ev.tie_choice)
            return
        best = max(counts.values())
        tied = sorted(a for a, k in counts.items() if k == best)
        chosen = tied[0]
        if len(tied) > 1:
            # "Initiative chooses among ties": the Initiative holder's recorded choice
            if ev.tie_choice in tied:
                chosen = ev.tie_choice
            else:
                if ev.tie_choice is not None or not st.partial:
                    sink.report(
                        "headline/choice-invalid",
                        "The Metropolitan Mind Trust Incorporates: "
                        + ", ".join(tied) + f" tie with {best} selections each; Initiative "
                        f"(seat {st.initiative}) chooses among them, "
                        + ("and the log records no choice (reveal.tie_choice)"
                           if ev.tie_choice is None else f"not {ev.tie_choice}"),
                        seat=st.initiative, expected=tied, recorded=ev.tie_choice)
                if ev.tie_choice is not None and ev.tie_choice in counts:
                    chosen = ev.tie_choice  # the table paid those who chose it
                else:
                    # nothing usable recorded: the tied action selected nearest Initiative
                    for seat in st.initiative_order():
                        if picks.get(seat) in tied:
                            chosen = picks[seat]
                            break
        elif ev.tie_choice is not None and ev.tie_choice != chosen:
            sink.report("headline/choice-invalid",
                        f"The Metropolitan Mind Trust Incorporates: {chosen} was selected most "
                        f"often ({best}); there was no tie for Initiative to settle, yet the log "
                        f"records {ev.tie_choice}", expected=chosen, recorded=ev.tie_choice)
        for seat, p in picks.items():
            if p == chosen:
                st.after_resolve[seat] = (2, 2)


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


# --- trade ----------------------------------------------------------------------------------


def on_trade(st: GameState, ev: Trade, sink: FindingSink) -> None:
    """§6B Immediate resource trade: before resolving, the active player may offer one rival
    one Runway for one Compute (or the reverse); the rival accepts or rejects."""
    if st.production_started and not st.production_done:
        _close_production(st, sink)
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


# --- turns ----------------------------------------------------------------------------------


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


def on_turn(st: GameState, ev: TurnEvent, sink: FindingSink) -> None:
    """One resolved selection: checks order and selection, moves, acts, commits."""
    late = st.production_started  # the action cycles are over
    if late and not st.production_done:
        _close_production(st, sink)
    kind, seat, path, piece, blocked, swarm, orbital, frontier_bonus = _TURN_FIELDS(ev.__dict__)
    s = st.seats[seat - 1]
    if late and not st.partial:
        # reported once as out of phase; the table's action still happens (no cascade of
        # selection and order findings for it)
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
        # one slip, one finding: a second turn of a seat this cycle is reported once, and the
        # table's evident state is followed (docs/engine.md)
        nxt = st.to_resolve[0] if st.to_resolve else None
        if st.last_turn.get(seat) == ev:
            sink.report("turn/twice", f"seat {seat}'s {kind} repeats its turn of this cycle "
                        "exactly (a line written twice); it is not applied again", seat=seat,
                        touches=())  # not applied: the table's state is the engine's
            return
        if nxt is not None and st.selections.get(nxt) == kind:
            sink.report("turn/twice", f"seat {seat} resolved a second turn in Era {st.era} cycle "
                        f"{st.cycle}; seat {nxt}, next to resolve, revealed {kind}: read as seat "
                        f"{nxt}'s turn (a wrong seat)", seat=seat, involves=(nxt,),
                        touches=turn_touches(kind))
            ev = ev.model_copy(update={"seat": nxt})
            seat, s = nxt, st.seats[nxt - 1]
    st.last_turn[seat] = ev
    t = st.turn
    if t is not None and (t.seat != seat or t.started):
        close_turn(st, sink)
        t = None
    if st.cycle == 0 and st.era == 0:
        st.era = 1
    # order and selection
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
    if seat in st.to_resolve:
        st.to_resolve.remove(seat)
    st.resolved.add(seat)
    if kind in CORE_SET:
        s.actions_this_era += 1
        s.exhausted.add(kind)
    else:
        commit(st, s, kind)
    if t is None:
        t = Turn(seat=seat, pick=kind)
        st.turn = t
    t.pick = kind
    t.started = True
    t.piece = piece
    # Move
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
    dest = t.dest
    st.rows["turns"].append((
        st.era, st.cycle, s.seat, kind, piece, path[0] if path else None, dest,
        len(path) - 1 if path else None, st.board.tile_at.get(dest) if dest else None,
        blocked, st.event_index,
    ))
    # Act
    if not blocked:
        fn = ACTIONS.get(kind) or PROGRAMS.get(kind)
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

