"""Core rules §2 step 2, eligibility: "Every player secretly selects one eligible unused Core
Action, or commits one Program marker to select one eligible unlocked Program. A choice is
eligible only when it has a legal resolution now. A possible trade cannot make an illegal
selection legal." With §2 "Program markers and Programs" (the Era's markers, each Program once
per player per game), §5's Era-unlocked Programs and three actions per Era.

Only the failures no movement, trade or location could cure are reported as ineligible; the
reach is every hex an acting piece can end on (0-2 steps, §2 step 6).
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.mandate2038 import factions
from engine.mandate2038.board import DISTANCE, FRONTIER, WITHIN_TWO
from engine.mandate2038.core_actions import compute_free, deploy_requirement
from engine.mandate2038.hex_board import adjacent_hexes, locally_eligible
from engine.mandate2038.rulings import option
from engine.mandate2038.state import CORE_ACTIONS, CORE_SET, GameState, SeatState


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


