"""The secret selection and the turn decision of the legal-move generator: faction windows
before the selection, the eligible picks (a choice is offered only when it has a legal
resolution now, core rules §2), the turn decision with its immediate trades (§6B).

Part of :mod:`engine.mandate2038.moves`; nothing here does I/O or uses randomness.
"""

from __future__ import annotations

import itertools
from typing import Any, cast

from engine.core.ruleset import Decision, Pass
from engine.mandate2038 import hex_board as hb
from engine.mandate2038.board import ADJACENT, DISTANCE, FRONTIER
from engine.mandate2038.content import DEPLOY_DISTRICTS
from engine.mandate2038.core_actions import compute_free, deploy_requirement
from engine.mandate2038.factions import has_active
from engine.mandate2038.headlines import compute_trade_banned
from engine.mandate2038.lazy_options import (
    PATHS,
    Options,
    _board_sets,
    _event,
    _per_board,
    _spec,
    _tiles,
)
from engine.mandate2038.phase_moves import _OPTIONS, _keep_option, _option
from engine.mandate2038.rulings import option
from engine.mandate2038.state import CORE_ACTIONS, GameState, SeatState
from engine.mandate2038.turn_moves import (
    _TRADE_GAINS,
    ORBITAL_PICKS,
    _action_at,
    _blocked_events,
    _move_table,
    _orbital_options,
    _pieces,
    _social_graph_options,
    _turn_events,
    _turn_groups,
)
from schemas import mandate2038 as ev


def _before_selection(st: GameState, passed: frozenset[str], lazy: bool) -> Decision:
    for seat in st.initiative_order():
        s = st.seat(seat)
        if st.era == 2 and has_active(st, s, "allocation_window") and not compute_trade_banned(st):
            key = f"allocation_window:{seat}"
            if key not in passed:
                opts = _allocation_window_options(st, s, lazy)
                if opts:
                    return Decision(kind="player", seat=seat,
                                    options=[*opts, Pass(key, "keep the Allocation Window closed")],
                                    label="Corthaven may open the Allocation Window")
        if s.runway >= 1 and has_active(st, s, "emergency_pause"):
            key = f"emergency_pause:{seat}"
            progs = _unlocked_programs(st) if key not in passed else None
            if progs:
                opts = [_option(lazy, (ev.EmergencyPause, seat, p), ev.EmergencyPause, seat=seat,
                                program=cast(Any, p)) for p in progs]
                return Decision(kind="player", seat=seat, options=[*opts, Pass(key, "no Emergency Pause")],
                                label="Orisonix may call the Emergency Pause")
    return selection_decision(st, lazy)


def _allocation_window_options(st: GameState, s: SeatState, lazy: bool) -> list[Any]:
    rivals = [r for r in st.order_from(s.seat) if r != s.seat]
    offers: list[tuple[tuple[int, str], ...]] = []  # per option: (rival, answer) per offer
    cap = st.c.cap_compute
    for pair in itertools.combinations(rivals, 2) if len(rivals) >= 2 else [(rivals[0], rivals[0])]:
        for answers in (("accept", "accept"), ("accept", "reject"), ("reject", "reject")):
            ok = True
            for r, ans in zip(pair, answers, strict=True):
                rs = st.seat(r)
                if rs.runway < 1 or (ans == "accept" and rs.compute >= cap):
                    ok = False
            if ok and pair[0] != pair[1]:
                offers.append(tuple(zip(pair, answers, strict=True)))
        rs0 = st.seat(pair[0])
        if rs0.runway >= 2 and rs0.compute < cap:  # a lower counter, accepted
            offers.append(((pair[0], "counter"),))
        if len(offers) >= 6:
            break
    return [_allocation_window(s.seat, o, lazy) for o in offers]


def _allocation_window(seat: int, offers: tuple[tuple[int, str], ...], lazy: bool) -> Any:
    """The window's event: an offer of 1 Runway, accepted or rejected, to each rival named, or
    of 2 to one rival who counters with 1, accepted (shared in lazy mode, like :func:`_option`)."""
    key = (ev.AllocationWindow, seat, offers)
    o = _OPTIONS.get(key) if lazy else None
    if o is None:
        o = ev.AllocationWindow(seat=seat, offers=[
            ev.WindowOffer(to=to, price=2, answer="counter", counter_price=1, counter_accepted=True)
            if ans == "counter" else ev.WindowOffer(to=to, price=1, answer=cast(Any, ans))
            for to, ans in offers])
        if lazy:
            _keep_option(key, o)
    return o


def _unlocked_programs(st: GameState) -> list[str]:
    e = st.c.eras.get(st.era)
    return list(e.programs) if e is not None else []


def eligible_picks(st: GameState, seat: int) -> list[str]:
    """The Core Actions and Programs ``seat`` may select now (each has a legal resolution)."""
    return _eligible_picks(st, st.seat(seat), _Selection(st))


class _Selection:
    """What every seat's picks read alike in one selection (the board stands still meanwhile):
    the political hexes, the hexes with a free Facility space (:func:`_free_hexes`) and the
    Programs unlocked in this Era."""

    __slots__ = ("political", "free", "programs")

    def __init__(self, st: GameState) -> None:
        self.political = _board_sets(st).political
        self.free = _free_hexes(st)
        self.programs = _unlocked_programs(st)


def _free_hexes(st: GameState) -> frozenset[str]:
    """The positions with a free Facility space (as ``hb.has_free_space``: fewer Facilities
    there than the tile's spaces; the Frontier has none): the map's spaced positions less the
    full ones."""
    counts: dict[str | None, int] = {}
    for x in st.seats:
        for f in x.facilities.values():
            counts[f.hex] = counts.get(f.hex, 0) + 1
    spaces = _board_sets(st).spaces
    full = [h for h, n in counts.items() if n >= spaces.get(h, 0)]  # type: ignore[arg-type]
    spaced = _pick_map(st).spaced
    return spaced.difference(full) if full else spaced


class _PickMap:
    """Per map (cached like :class:`_BoardSets`), the positions the quick resolvability checks
    look for: those with Facility spaces, Build and Compute discounts, Energy tiles with a Power
    Contract (position, Generator slots, contract) and the Fusion tile (position, Generator
    slots)."""

    __slots__ = ("board", "spaced", "build_discount", "compute_discount", "generators", "fusion")

    def __init__(self, st: GameState) -> None:
        self.board = st.board
        fus_tile = st.c.fusion.tile if st.c.fusion is not None else None
        generator_at = st.c.generator_at
        self.spaced = frozenset(p for p, n in _board_sets(st).spaces.items() if n > 0)
        build_discount, compute_discount = [], []
        self.generators: list[tuple[str, int, Any]] = []
        self.fusion: list[tuple[str, int]] = []
        for p, t in _tiles(st).items():
            if t is None:
                continue
            visit = t.visit_key
            if visit == "build_discount":
                build_discount.append(p)
            elif visit == "compute_discount":
                compute_discount.append(p)
            if t.category == "energy":
                con = generator_at.get(t.id)
                if con is not None:
                    self.generators.append((p, t.generator_slots, con))
            if t.id == fus_tile:
                self.fusion.append((p, t.generator_slots))
        self.build_discount = frozenset(build_discount)
        self.compute_discount = frozenset(compute_discount)


_LAST_PICK_MAP: list[_PickMap | None] = [None]


def _pick_map(st: GameState) -> _PickMap:
    return _per_board(_LAST_PICK_MAP, st, _PickMap)


if CORE_ACTIONS != ("fund", "research", "build", "organize", "deploy", "influence"):
    raise RuntimeError("_eligible_picks lists the Core Actions in this order: update it")


def _eligible_picks(st: GameState, s: SeatState, sel: _Selection) -> list[str]:
    """:func:`eligible_picks` with ``sel``, what the seats of one selection share.

    Equal to ``[a for a in CORE_ACTIONS if a not in s.exhausted and _has_resolution(st, s, a)]``
    followed by the Programs the seat may select that have a resolution (the plain per-pick
    computation; ``tests/test_simulate.py`` compares them on whole games), with each pick's
    quick check called directly on the seat's reach, read once."""
    ex = s.exhausted
    reach = _move_table(s).reach
    anywhere = 0  # Core Actions left that resolve from anywhere (Agent Swarm reads it)
    out = []
    if "fund" not in ex:
        out.append("fund")
        anywhere += 1
    if "research" not in ex:
        if s.compute >= 1 or compute_free(st):
            out.append("research")
            anywhere += 1
        else:
            qr = _quick_research_without_compute(st, s, reach)
            if qr or (qr is None and _walk_resolution(st, s, "research")):
                out.append("research")
    qb = qd = qi = None  # the quick answers of Build, Deploy and Influence (Agent Swarm reads them)
    if "build" not in ex:
        qb = _quick_build(st, s, reach, sel.free)
        if qb:  # (never undecided)
            out.append("build")
    if "organize" not in ex:
        out.append("organize")
        anywhere += 1
    if "deploy" not in ex:
        qd = _quick_deploy(st, s, reach)
        if qd or (qd is None and _walk_resolution(st, s, "deploy")):
            out.append("deploy")
    if "influence" not in ex:
        qi = _quick_influence(st, s, reach, sel.political)
        if qi or (qi is None and _walk_resolution(st, s, "influence")):
            out.append("influence")
    free_swarm = st.headline == "agent_swarm_escapes_scope"
    for p in sel.programs:
        if p in s.programs_used or p == st.paused_program:
            continue
        if p == "fusion" and st.fusion_owner is not None:
            continue
        if s.markers <= 0 and not (p == "agent_swarm" and free_swarm):
            continue
        if p in _ALWAYS_RESOLVABLE:
            out.append(p)
            continue
        q: bool | None = None
        if p == "mega_cluster":
            q = _quick_mega_cluster(st, s, reach)
        elif p == "fusion":
            q = _quick_fusion(st, s, reach)
        elif p == "agent_swarm":  # as _quick_resolution
            q = True if anywhere >= 2 or (anywhere == 1 and bool(qb or qd or qi)) else None
        if q or (q is None and _walk_resolution(st, s, p)):
            out.append(p)
    return out


def selection_decision(st: GameState, lazy: bool = False) -> Decision:
    """The simultaneous secret selection of this cycle (``lazy``: the reveal events are shared,
    see :func:`_reveal`)."""
    per_seat: dict[int, Any] = {}
    sel = _Selection(st)  # the board as every seat's picks read it (one per selection)
    for s in st.seats:
        picks = _eligible_picks(st, s, sel)
        if not picks:
            # No choice has a legal resolution (rare): the seat still commits an unused Core
            # Action, which resolves blocked (a forced no-op in the designers' terms).
            picks = [a for a in CORE_ACTIONS if a not in s.exhausted and a not in ("deploy", "build")]
        per_seat[s.seat] = picks

    def combine(picks: dict[int, Any]) -> ev.Reveal:
        tie = mind_trust_tie_choice(st, picks)
        if lazy:  # the simulator: one shared event per outcome (see _reveal)
            return _reveal(tuple(sorted(picks.items())), tie)
        sels = [ev.Selection(seat=k, pick=picks[k]) for k in sorted(picks)]
        return ev.Reveal(selections=sels, tie_choice=tie)

    return Decision(kind="simultaneous", per_seat=per_seat, combine=combine,
                    label=f"Era {st.era} cycle {st.cycle}: select secretly")


#: in lazy mode (the simulator), the reveal events and their selections, built once per process
#: and shared like the options of ``_option`` (a simulated game never changes an event it
#: records); a key holds every field. Bounded: cleared past _SELECTION_REVEALS_MAX.
_SELECTION_REVEALS: dict[tuple[Any, ...], ev.Reveal] = {}


_SELECTIONS: dict[tuple[int, str], ev.Selection] = {}


_SELECTION_REVEALS_MAX = 5_000


def _reveal(picks: tuple[tuple[int, str], ...], tie: Any) -> ev.Reveal:
    """``ev.Reveal`` of the (seat, pick) pairs in seat order and the tie choice, shared."""
    key = (picks, tie)
    o = _SELECTION_REVEALS.get(key)
    if o is None:
        sels = []
        for pair in picks:
            x = _SELECTIONS.get(pair)
            if x is None:
                x = _SELECTIONS[pair] = ev.Selection(seat=pair[0], pick=cast(Any, pair[1]))
            sels.append(x)
        if len(_SELECTION_REVEALS) >= _SELECTION_REVEALS_MAX:
            _SELECTION_REVEALS.clear()
        o = _SELECTION_REVEALS[key] = ev.Reveal(selections=sels, tie_choice=tie)
    return o


def mind_trust_tie_choice(st: GameState, picks: dict[int, Any]) -> Any:
    """The Metropolitan Mind Trust Incorporates: "Initiative chooses among ties" for the most
    selected Core Action. The recorded choice (a legal one): the tied action selected by the
    seat nearest Initiative clockwise. None when there is no tie to settle."""
    if st.headline != "autonomous_corporation":
        return None
    counts: dict[str, int] = {}
    for p in picks.values():
        if p in CORE_ACTIONS:
            counts[p] = counts.get(p, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    tied = [a for a, k in counts.items() if k == best]
    if len(tied) < 2:
        return None
    for seat in st.initiative_order():
        if picks.get(seat) in tied:
            return picks[seat]
    return None


def _has_resolution(st: GameState, s: SeatState, pick: str, sel: _Selection | None = None) -> bool:
    quick = _quick_resolution(st, s, pick, sel)
    if quick is not None:
        return quick
    return _walk_resolution(st, s, pick)


def _walk_resolution(st: GameState, s: SeatState, pick: str) -> bool:
    """Whether ``pick`` has a resolution, by walking the destinations (as :func:`_turn_events`;
    a check: the first option is a :class:`Spec`, whatever the mode of the call)."""
    if pick in _PIECE_DEPENDENT:
        return next(iter(_turn_events(st, s, pick, _spec)), None) is not None
    # the options at a destination do not depend on the moving piece: each destination once
    tiles = _tiles(st)
    seen: set[str] = set()
    for piece, start in _pieces(s):
        for dest, path in PATHS[start].items():
            if dest in seen:
                continue
            seen.add(dest)
            kw = {"seat": s.seat, "piece": piece, "path": path}
            if next(iter(_action_at(st, s, pick, dest, kw, _spec, bonus=True, piece_moved=None,
                                    tiles=tiles)), None) is not None:
                return True
    if (pick in ORBITAL_PICKS and s.facilities and has_active(st, s, "orbital_compute")
            and next(iter(_orbital_options(st, s, pick, _spec)), None) is not None):
        return True
    if pick == "deploy" and has_active(st, s, "social_graph"):
        return next(iter(_social_graph_options(st, s, _spec)), None) is not None
    return False


#: picks whose options depend on which piece moved (where the CEO and Teams stand after it)
_PIECE_DEPENDENT = frozenset({"organize", "reorganization"})


#: picks that :func:`_action_at` resolves from every destination without a condition
_ALWAYS_RESOLVABLE = frozenset({"fund", "covenant", "narrative_capture", "reorganization", "organize"})


def _occupied(st: GameState) -> dict[str | None, int]:
    """Facilities per hex (as ``hb.facilities_on``)."""
    occupied: dict[str | None, int] = {}
    for x in st.seats:
        for f in x.facilities.values():
            occupied[f.hex] = occupied.get(f.hex, 0) + 1
    return occupied


def _quick_resolution(st: GameState, s: SeatState, pick: str,
                      sel: _Selection | None = None) -> bool | None:
    """Whether ``pick`` has a resolution, when it is decided without walking the destinations
    (``None`` otherwise). Only conditions that hold at every destination are read here, so it
    agrees with :func:`_turn_events` (``tests/test_simulate.py`` checks that on whole games).
    A speed-up for the simulator: the walk builds events, this reads a few numbers. ``sel``
    (one per selection, while the board stands still) keeps what every seat reads alike."""
    if pick in _ALWAYS_RESOLVABLE:  # Fund, Covenant, Narrative Capture (Runway), Reorganization
        return True  # (no move), Organize (the CEO to an adjacent hex) resolve anywhere
    if pick == "research":  # costs at most 1 Compute anywhere
        if s.compute >= 1 or compute_free(st):
            return True
        return _quick_research_without_compute(st, s, _move_table(s).reach)
    if pick == "deploy":
        return _quick_deploy(st, s, _move_table(s).reach)
    if pick == "mega_cluster":
        return _quick_mega_cluster(st, s, _move_table(s).reach)
    if pick == "fusion":
        return _quick_fusion(st, s, _move_table(s).reach)
    if pick == "build":
        return _quick_build(st, s, _move_table(s).reach, sel.free if sel is not None else None)
    if pick == "agent_swarm":  # two unused Core Actions that resolve anywhere suffice
        ex = s.exhausted
        anywhere = (("fund" not in ex) + ("organize" not in ex)
                    + ("research" not in ex and (s.compute >= 1 or compute_free(st))))
        if anywhere >= 2:
            return True
        # one that resolves anywhere and one that resolves (without the visit bonus) somewhere
        if anywhere == 1 and any(a not in ex and _quick_resolution(st, s, a, sel)
                                 for a in ("deploy", "build", "influence")):
            return True
        return None
    if pick == "influence":
        return _quick_influence(st, s, _move_table(s).reach, _board_sets(st).political)
    return None


def _quick_research_without_compute(st: GameState, s: SeatState, reach: frozenset[str]) -> bool | None:
    """Research for a seat without Compute (at 1 Compute, as :func:`_action_at` reads it): free
    only at a Compute-discount visit in ``reach``; else none unless Orbital Compute offers
    something (undecided)."""
    if s.compute >= 0 and not reach.isdisjoint(_pick_map(st).compute_discount):
        return True
    return None if s.facilities and has_active(st, s, "orbital_compute") else False


def _quick_deploy(st: GameState, s: SeatState, reach: frozenset[str]) -> bool | None:
    """Deploy's quick answer (:func:`_quick_resolution`): the next Customer's Capability, met
    everywhere, nowhere, or only with The Home Robot's district discount (undecided); then its
    Compute, or a destination in ``reach`` where it costs none."""
    if s.customers >= st.c.cap_customers:
        return False
    req = st.c.customer_requirement(s.customers + 1)
    if req is None:
        return False
    if s.capability < (deploy_requirement(st, s, district=True) or req):
        return False
    if s.capability < req:
        return None
    if s.compute >= 1 or (s.compute >= 0 and compute_free(st)):
        return True
    if _free_deploy_in_reach(st, s, reach):
        return True
    # nowhere free: only Orbital Compute or The Social Graph could offer one (undecided)
    if (s.facilities and has_active(st, s, "orbital_compute")) or has_active(st, s, "social_graph"):
        return None
    return False


def _quick_mega_cluster(st: GameState, s: SeatState, reach: frozenset[str]) -> bool:
    """As :func:`_mega_cluster` from every destination in ``reach``: a pair of adjacent, locally
    eligible own Facilities outside any Mega-Cluster, one of them at a destination in reach."""
    if s.runway < 3 or s.compute < 2 or len(st.megas) >= st.c.mega_pairs or len(s.facilities) < 2:
        return False
    free = [(no, f.hex) for no, f in s.facilities.items() if f.mega is None and f.hex is not None]
    for (a, ha), (b, hb_) in itertools.combinations(free, 2):
        if ((ha in reach or hb_ in reach) and hb_ in ADJACENT.get(ha, ())
                and hb.locally_eligible(st, s, a) and hb.locally_eligible(st, s, b)):
            return True
    return False


def _quick_fusion(st: GameState, s: SeatState, reach: frozenset[str]) -> bool:
    """As :func:`_action_at` from every destination in ``reach``: the Fusion tile with a free
    Generator slot, and the Runway for it."""
    fus = st.c.fusion
    if fus is None or st.fusion_owner is not None or s.runway < fus.runway:
        return False
    for dest, slots in _pick_map(st).fusion:
        if dest in reach and len(st.gen_slots.get(dest, [])) < slots:
            return True
    return False


def _quick_build(st: GameState, s: SeatState, reach: frozenset[str], free: frozenset[str] | None) -> bool:
    """Whether Build resolves from a destination in ``reach``, exactly as :func:`_action_at`
    (with the visit bonus) reads it: a Facility on a free space at its cost, or a Generator on
    an Energy tile's free slot. ``free``: the hexes with a free Facility space
    (:func:`_free_hexes`; computed here when None)."""
    if len(s.facilities) < 4:
        if free is None:
            free = _free_hexes(st)
        here = reach & free  # destinations in reach with a free Facility space
        if here:
            runway = s.runway
            if runway >= 2:  # a Facility costs at most 2
                return True
            cost = 2
            if has_active(st, s, "industrial_velocity") and s.era.facility_builds == 0:
                cost -= 1
            if runway >= cost or (runway >= cost - 1 and not here.isdisjoint(_pick_map(st).build_discount)):
                return True
    elif st.era < 2:
        return False
    if st.era >= 2 and s.generator is None:
        beam = st.headline == "reactor_restart_one_model" and not st.beam_used
        for dest, slots, con in _pick_map(st).generators:
            if dest in reach and len(st.gen_slots.get(dest, [])) < slots:
                cost = con.runway
                if con.id == "civic_heat_battery" and beam:
                    cost = max(0, cost - 1)  # Orbital Power Receives a Beam Corridor
                if s.runway >= cost:
                    return True
    return False


def _quick_influence(st: GameState, s: SeatState, reach: frozenset[str],
                     political: frozenset[str]) -> bool | None:
    """Influence's quick answer: Trust or Scrutiny on a political hex in ``reach``; else from
    Era III (§7 Influence) the Joint Ventures at an own Facility in reach."""
    if (s.trust < st.c.cap_trust or s.bag >= 1) and not reach.isdisjoint(political):
        return True
    if st.era < 3:  # Joint Ventures from Era III (§7 Influence)
        return False
    return _joint_venture_in_reach(st, s, reach)


def _joint_venture_in_reach(st: GameState, s: SeatState, reach: frozenset[str]) -> bool | None:
    """From Era III, as :func:`_influence` at an own Facility in reach: False without one; True
    to terminate a Joint Venture the seat shares, or to propose one from the hex's first
    Facility to a rival's Facility on an adjacent hex (the least reach of a partnership);
    None otherwise (undecided)."""
    first: dict[str, Any] = {}  # hex in reach -> the seat's lowest-numbered Facility there
    for no, f in s.facilities.items():
        h = f.hex
        if h in reach and h != FRONTIER and (h not in first or no < first[h]):
            first[h] = no
    if not first:
        return False
    if any(s.seat in (j.a_seat, j.b_seat) for j in st.jvs.values()):
        return True
    if len(st.jvs) >= st.c.jv_pairs:
        return False
    existing = {(j.a_seat, j.a_facility, j.b_seat, j.b_facility) for j in st.jvs.values()}
    existing |= {(b, bf, a, af) for (a, af, b, bf) in existing}
    for dest, no in first.items():
        near = DISTANCE[dest]
        for x in st.seats:
            if x.seat == s.seat:
                continue
            for rno, rf in x.facilities.items():
                if (rf.hex is not None and rf.hex != dest and near.get(rf.hex, 9) <= 1
                        and (s.seat, no, x.seat, rno) not in existing):
                    return True
    return None


def _free_deploy_in_reach(st: GameState, s: SeatState, reach: frozenset[str]) -> bool:
    """A destination in reach where a Deploy costs no Compute (as :func:`_action_at`, with the
    visit bonus): a free-Deploy or Compute-discount visit, or Installed Base in a district."""
    tiles = _tiles(st)
    discount = option(st, "compute-estate-discount") == "first-compute-cost"
    installed = has_active(st, s, "installed_base")
    for dest in reach:
        here = tiles.get(dest)
        if here is not None:
            visit = here.visit_key
            if visit == "deploy_free" or (discount and visit == "compute_discount"):
                return True
        if installed and st.board.tile(dest) in DEPLOY_DISTRICTS:
            return True
    return False


def _turn_decision(st: GameState, seat: int, lazy: bool) -> Decision:
    s = st.seat(seat)
    pick = st.selections.get(seat)
    if pick is None:
        return Decision(kind="end", label=f"seat {seat} has no revealed selection")
    t = st.turn
    trades_open = not (t is not None and t.seat == seat and (t.traded or t.started))
    if lazy:  # grouped options: no object per option (see Options)
        groups, tail, size, ends = _turn_groups(st, s, pick)
        resolvable = bool(groups or tail)
        head = [] if resolvable else _blocked_events(st, s, pick, _spec)
        if trades_open:
            head = _trade_options(st, s, pick, resolvable=resolvable, lazy=True) + head
        return Decision(kind="player", seat=seat, options=Options(head, groups, tail, size, ends),
                        label=f"seat {seat} resolves {pick}")
    options: list[Any] = list(_turn_events(st, s, pick, _event))
    if not options:
        options = _blocked_events(st, s, pick, _event)
    if trades_open:
        options = _trade_options(st, s, pick, resolvable=bool(options) and not getattr(
            options[0], "blocked", False)) + options
    return Decision(kind="player", seat=seat, options=options,
                    label=f"seat {seat} resolves {pick}")


def _trade_options(st: GameState, s: SeatState, pick: str, resolvable: bool | None = None,
                   lazy: bool = False) -> list[Any]:
    """The immediate 1-for-1 trade offers (§6B) that leave the selected action resolvable.

    ``resolvable``: whether the action has a legal resolution without a trade, when the caller
    knows; ``lazy``: the offers are shared :class:`Spec` objects (:func:`_trade_offers`). A
    trade's effect on the acting seat depends only on what is given and whether it is accepted,
    so each distinct effect is checked once (not once per rival).
    """
    if compute_trade_banned(st):  # Compute Borders Harden: Compute cannot be traded
        return []
    out: list[Any] = []
    seats = st.seats
    cap_runway, cap_compute = st.c.cap_runway, st.c.cap_compute
    # (with any Compute and Runway, as _quick_resolution; a Build reads the free spaces twice)
    always = pick in _ALWAYS_RESOLVABLE
    sel = _Selection(st) if pick == "build" else None
    # a trade that only adds what the pick reads keeps a resolvable pick resolvable
    gains = _TRADE_GAINS.get(pick, ()) if resolvable else ()
    for give, offers in _trade_offers(s.seat, st.n, lazy):
        if give == "runway":  # give 1 Runway for 1 Compute
            if s.runway < 1:
                continue
            mine_ok = s.compute < cap_compute
        else:  # give 1 Compute for 1 Runway
            if s.compute < 1:
                continue
            mine_ok = s.runway < cap_runway
        # the action must keep a legal resolution after the trade: one check per outcome
        ok_rejected = resolvable
        ok_accepted: bool | None = True if (always or give in gains) else None
        for r, accept, reject in offers:  # the rivals clockwise
            rs = seats[r]
            if give == "runway":
                can_accept = mine_ok and rs.compute >= 1 and rs.runway < cap_runway
            else:
                can_accept = mine_ok and rs.runway >= 1 and rs.compute < cap_compute
            if can_accept:
                if ok_accepted is None:
                    ok_accepted = _resolvable_after(st, s, pick, give, 1, sel)
                if ok_accepted:
                    out.append(accept if accept is not None else _trade(s.seat, r + 1, give, True, lazy))
            if ok_rejected is None:
                ok_rejected = _has_resolution(st, s, pick)
            if ok_rejected:
                out.append(reject if reject is not None else _trade(s.seat, r + 1, give, False, lazy))
    return out


_OFFERS: dict[tuple[int, int], list[tuple[str, list[tuple[int, Any, Any]]]]] = {}


def _trade_offers(seat: int, n: int, lazy: bool) -> list[tuple[str, list[tuple[int, Any, Any]]]]:
    """Per thing given (Runway, then Compute), the rivals clockwise from ``seat`` as (index in
    ``st.seats``, the accepted offer, the rejected offer): as lazy options, the shared
    :class:`Spec` offers; otherwise ``None`` (the caller builds each event)."""
    hit = _OFFERS.get((seat, n)) if lazy else None
    if hit is None:
        rivals = [((seat - 1 + i) % n) + 1 for i in range(1, n)]  # as st.order_from(seat)[1:]
        hit = [(give, [(r - 1, _trade(seat, r, give, True, lazy) if lazy else None,
                        _trade(seat, r, give, False, lazy) if lazy else None) for r in rivals])
               for give in ("runway", "compute")]
        if lazy:
            _OFFERS[(seat, n)] = hit
    return hit


_TRADES: dict[tuple[int, int, str, bool], Any] = {}


def _trade(seat: int, rival: int, give: str, accepted: bool, lazy: bool) -> Any:
    """A trade offer; as a lazy option, one shared :class:`Spec` per offer (read-only)."""
    if not lazy:
        return ev.Trade(seat=seat, rival=rival, give=cast(Any, give), accepted=accepted)
    key = (seat, rival, give, accepted)
    o = _TRADES.get(key)
    if o is None:
        o = _TRADES[key] = _spec(ev.Trade, seat=seat, rival=rival, give=cast(Any, give), accepted=accepted)
    return o


def _resolvable_after(st: GameState, s: SeatState, pick: str, give: str, n: int,
                      sel: _Selection | None = None) -> bool:
    """Whether ``pick`` has a resolution once ``n`` of ``give`` is traded for the other (the
    seat's values are changed for the check and restored). ``sel``: as :func:`_has_resolution`."""
    d = -n if give == "compute" else n  # the Compute change; Runway changes the other way
    if pick == "research" and (s.compute + d >= 1 or compute_free(st)):
        return True  # (as _quick_resolution)
    s.compute += d
    s.runway -= d
    try:
        return _has_resolution(st, s, pick, sel)
    finally:
        s.compute -= d
        s.runway += d
