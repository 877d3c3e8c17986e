"""Core rules §5 Four-Era progression: the six Programs (Mega-Cluster, Reorganization, Public
Capability Covenant, Narrative Capture, Agent Swarm, Fusion Demonstrator).

Selection legality (Era unlock, markers, once per player per game) is checked in
``eligibility``; these functions resolve the Program from the turn's destination.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.findings import FindingSink
from engine.mandate2038.board import ADJACENT
from engine.mandate2038.core_actions import compute_cost, shovels
from engine.mandate2038.hex_board import adjacent_hexes, check_path, locally_eligible, move_piece
from engine.mandate2038.resources import (
    add_scrutiny,
    gain,
    gain_capability,
    pay,
    remove_scrutiny,
    score,
)
from engine.mandate2038.state import CORE_ACTIONS, GameState, MegaClusterContract, SeatState, Turn
from schemas.mandate2038 import (
    AgentSwarm,
    Covenant,
    Fusion,
    MegaCluster,
    NarrativeCapture,
    Reorganization,
)


def do_mega_cluster(st: GameState, s: SeatState, ev: MegaCluster, t: Turn, sink: FindingSink) -> None:
    """3 Runway + 2 Compute; two adjacent own Facilities, each locally eligible for Power and
    not already a host; the acting piece ends on one host's hex; +2 Scrutiny."""
    a, b = ev.hosts
    fa, fb = s.facilities.get(a), s.facilities.get(b)
    problem = None
    physical = True
    unbuilt = False  # a host missing: what a checkpoint does not resync (a missing Build line)
    if a == b:
        problem, physical = "the two hosts must be different Facilities", False
    elif fa is None or fb is None:
        problem, physical = f"Facility {a if fa is None else b} is not built", False
        unbuilt = True
    elif fa.mega is not None or fb.mega is not None:
        problem, physical = "a host already holds a Mega-Cluster half", False
    elif len(st.megas) >= st.c.mega_pairs:
        problem, physical = f"all {st.c.mega_pairs} Mega-Cluster pairs are in use", False
    elif not adjacent_hexes(fa.hex, fb.hex):
        problem = f"the hosts ({fa.hex}, {fb.hex}) are not on adjacent hexes"
    elif not (locally_eligible(st, s, a) and locally_eligible(st, s, b)):
        problem = "each host must be eligible for the owner's local Power at construction"
    elif t.dest is not None and t.dest not in (fa.hex, fb.hex):
        problem = f"the acting piece ended on {t.dest}, not on a host's hex"
    if problem is not None:
        sink.report("program/mega-cluster-invalid", f"seat {s.seat}'s Mega-Cluster: {problem}",
                    seat=s.seat, reads=("facilities",) if unbuilt else ())
    prog = st.c.programs.get("mega_cluster")
    runway = prog.runway if prog is not None else 3
    compute = prog.compute if prog is not None else 2
    pay(st, s, "runway", runway, sink, "resource/insufficient", "Mega-Cluster")
    paid = pay(st, s, "compute", compute_cost(st, t, "mega_cluster", compute, False), sink,
               "resource/insufficient", "Mega-Cluster")
    shovels(st, s, paid)
    add_scrutiny(st, s, prog.scrutiny if prog is not None else 2)
    if not physical or fa is None or fb is None:
        return
    num = next(k for k in range(1, st.c.mega_pairs + 1) if k not in st.megas)
    st.megas[num] = MegaClusterContract(number=num, owner=s.seat, hosts=(a, b))
    fa.mega = num
    fb.mega = num


def do_reorganization(st: GameState, s: SeatState, ev: Reorganization, t: Turn, sink: FindingSink) -> None:
    """Every Team up to one hex; optionally return one Team for 3 Runway and 1 Scrutiny."""
    if len(ev.team_moves) > len(s.teams):
        sink.report("program/reorganization-invalid",
                    f"seat {s.seat} moved {len(ev.team_moves)} Teams but has {len(s.teams)} on "
                    "the board; each Team moves at most once", seat=s.seat)
    for m in ev.team_moves:
        if len(m.path) == 2 and m.path[1] not in ADJACENT.get(m.path[0], ()):
            check_path(st, sink, s.seat, m.path, 1)
        move_piece(st, sink, s, "team", m.path)
    if ev.return_team is not None:
        if ev.return_team in s.teams:
            s.teams.remove(ev.return_team)
            s.teams_supply += 1
            gain(st, s, "runway", 3)
            add_scrutiny(st, s, 1)
        else:
            sink.report("program/reorganization-invalid",
                        f"seat {s.seat} returned a Team from {ev.return_team}, but has no Team "
                        "there", seat=s.seat, recorded=ev.return_team)


def do_covenant(st: GameState, s: SeatState, ev: Covenant, t: Turn, sink: FindingSink) -> None:
    """Every player +1 Capability; the selecting player +2 Trust and removes 1 Scrutiny."""
    for other in st.seats:
        gain_capability(st, other, 1)
    gain(st, s, "trust", 2)
    remove_scrutiny(st, s, 1)


def do_narrative_capture(
    st: GameState, s: SeatState, ev: NarrativeCapture, t: Turn, sink: FindingSink
) -> None:
    """Remove two own Scrutiny, gain two Runway, or give one Scrutiny to a player with more
    Customers."""
    if ev.mode == "remove_scrutiny":
        remove_scrutiny(st, s, 2)
    elif ev.mode == "runway":
        gain(st, s, "runway", 2)
    else:
        target = st.seats[ev.target - 1] if ev.target is not None and 1 <= ev.target <= st.n else None
        if target is None or target is s or target.customers <= s.customers:
            who = "no target" if target is None else f"seat {target.seat}"
            sink.report("program/narrative-invalid",
                        f"seat {s.seat} gave Scrutiny to {who}; the target must have more "
                        f"Customers than the player ({s.customers})", seat=s.seat)
        if target is not None and target is not s:
            add_scrutiny(st, target, 1)


def do_agent_swarm(st: GameState, s: SeatState, ev: AgentSwarm, t: Turn, sink: FindingSink) -> None:
    """Move once; two different unused Core Actions follow (``swarm: true``); +3 Scrutiny
    (+4 under The Dead Remain on Shift)."""
    a, b = ev.actions
    problem = None
    if a == b:
        problem = "the two Core Actions must be different"
    else:
        used = [x for x in (a, b) if x in s.exhausted]
        if used:
            problem = f"{', '.join(used)} already exhausted this Era"
    if ev.bonus_to is not None and ev.bonus_to not in (a, b):
        problem = f"the visit bonus goes to {ev.bonus_to}, which is not one of the two actions"
    if problem is not None:
        sink.report("program/swarm-invalid", f"seat {s.seat}'s Agent Swarm: {problem}",
                    seat=s.seat)
    add_scrutiny(st, s, 4 if st.headline == "agent_swarm_escapes_scope" else 3)
    t.swarm_left = [x for x in (a, b) if x in CORE_ACTIONS]
    if a == b:
        t.swarm_left = [a]
    t.swarm_bonus = ev.bonus_to


def do_fusion(st: GameState, s: SeatState, ev: Fusion, t: Turn, sink: FindingSink) -> None:
    """The acting piece ends on the Power Corridor; 5 Runway; a free Generator slot there; one
    Fusion per game; 6 Power, 2 Mandate, 3 Scrutiny."""
    con = st.c.fusion
    dest = t.dest
    tile = st.board.tile_at.get(dest) if dest else None
    problem = None
    if st.fusion_owner is not None:
        problem = f"Fusion was already built by seat {st.fusion_owner}"
    elif con is not None and tile is not None and tile != con.tile:
        problem = f"the acting piece ended on {dest} ({tile}), not on the Power Corridor"
    elif dest is not None:
        tobj = st.c.tiles.get(tile) if tile else None
        if tobj is not None and len(st.gen_slots.get(dest, [])) >= tobj.generator_slots:
            problem = "all three Generator slots on the Power Corridor are occupied"
    if problem is not None:
        sink.report("program/fusion-invalid", f"seat {s.seat}'s Fusion Demonstrator: {problem}",
                    seat=s.seat)
        if st.fusion_owner is not None:
            return
    pay(st, s, "runway", con.runway if con is not None else 5, sink, "resource/insufficient",
        "Fusion Demonstrator")
    st.fusion_owner = s.seat
    st.fusion_hex = dest
    if dest is not None:
        st.gen_slots.setdefault(dest, []).append((s.seat, "fusion"))
    score(st, s, con.mandate_on_build if con is not None else 2, "fusion", "Fusion Demonstrator")
    add_scrutiny(st, s, con.scrutiny_on_build if con is not None else 3)


PROGRAMS: dict[str, Callable[..., None]] = {
    "mega_cluster": do_mega_cluster,
    "reorganization": do_reorganization,
    "covenant": do_covenant,
    "narrative_capture": do_narrative_capture,
    "agent_swarm": do_agent_swarm,
    "fusion": do_fusion,
}
