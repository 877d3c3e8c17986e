"""Turn options of the legal-move generator: every way of resolving a revealed pick now (core
rules §2, §4 and §7: the move, then the action at the destination), grouped per move as
:class:`~engine.mandate2038.lazy_options.Options`.

Part of :mod:`engine.mandate2038.moves`; nothing here does I/O or uses randomness.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any, cast

from engine.core.ruleset import Decision
from engine.mandate2038 import hex_board as hb
from engine.mandate2038.board import ADJACENT, DISTANCE, FRONTIER, POSITIONS
from engine.mandate2038.content import DEPLOY_DISTRICTS
from engine.mandate2038.core_actions import compute_free, deploy_requirement
from engine.mandate2038.factions import has_active
from engine.mandate2038.lazy_options import (
    _ADJ_SORTED,
    _FAR,
    _POS_INDEX,
    PATHS,
    _event,
    _group_ends,
    _option_maker,
    _path,
    _spec,
    _tile,
    _tiles,
)
from engine.mandate2038.rulings import option
from engine.mandate2038.state import CORE_ACTIONS, GameState, SeatState
from schemas import mandate2038 as ev

#: per pick, the things given (for the other) that take nothing its resolution reads (as
#: :func:`_action_at` and the Orbital Compute / Social Graph options read them): Build and
#: Fusion cost Runway only, Deploy reads Compute only, Influence neither
_TRADE_GAINS: dict[str, tuple[str, ...]] = {
    "build": ("compute",), "fusion": ("compute",), "deploy": ("runway",),
    "influence": ("runway", "compute"),
}


def _pieces(s: SeatState) -> list[tuple[str, str]]:
    out = [("ceo", s.ceo)]
    for h in sorted(set(s.teams), key=_POS_INDEX.__getitem__):
        out.append(("team", h))
    return out


def _moves(s: SeatState) -> Iterator[tuple[str, list[str]]]:
    """Every (piece, path) of an ordinary move: each destination within two steps, one path."""
    for piece, start in _pieces(s):
        for path in PATHS[start].values():
            yield piece, path


def _turn_events(st: GameState, s: SeatState, pick: str,
                 new: Callable[..., Any] = _event) -> Iterator[Any]:
    """Every option of resolving ``pick`` now (lazily; the first is enough for eligibility),
    each made by ``new`` (:func:`_event`, or :func:`_spec` for lazy options)."""
    tiles = _tiles(st)
    for piece, start in _pieces(s):
        for path in PATHS[start].values():
            dest = path[-1]
            kw = {"seat": s.seat, "piece": piece, "path": path}
            for e in _action_at(st, s, pick, dest, kw, new, bonus=True, piece_moved=(piece, path),
                                tiles=tiles):
                yield e  # and the Frontier visit with its bonus (as _with_frontier)
                if dest == FRONTIER and not e.swarm and not e.blocked:
                    yield e.model_copy(update={"frontier_bonus": True})
    if pick in ORBITAL_PICKS and s.facilities and has_active(st, s, "orbital_compute"):
        yield from _orbital_options(st, s, pick, new)
    if pick == "deploy" and has_active(st, s, "social_graph"):
        yield from _social_graph_options(st, s, new)


#: picks whose options are the same at every destination but the Frontier (its bonus twin)
_SAME_EVERYWHERE = frozenset({"fund", "covenant", "narrative_capture"})


def _turn_groups(
    st: GameState, s: SeatState, pick: str
) -> tuple[list[tuple[dict[str, Any], list[Any]]], list[Any], int | None, list[int] | None]:
    """The options of :func:`_turn_events`, in the same order, as :class:`Options` groups: one
    ``(seat/piece/path fields, variants)`` per move. The variants are computed once per
    destination, or once per what :func:`_action_at` reads of a destination for that pick (Fund,
    Covenant, Narrative Capture: only whether it is the Frontier; Research: and whether its visit
    discounts Compute; Deploy: and its district and visit; Build: its tile, free space and
    Generator slots; Influence before Era III: its tile) -- keep these keys in step with
    :func:`_action_at` (``tests/test_simulate.py`` compares the options with the eager walk).
    Organize and Reorganization assemble theirs from shared parts
    (:func:`_organize_variants`); then the Orbital Compute and Social Graph options.
    Lazy options only: the variants are :class:`Spec` objects (:func:`_spec`)."""
    tiles = _tiles(st)
    cache: dict[Any, Any] = {}
    groups: list[tuple[dict[str, Any], list[Any]]] = []
    size: int | None = None  # the groups' number of options, when known
    ends: list[int] | None = None  # and their Options._ends
    seat = s.seat
    if pick == "organize":
        for piece, start in _pieces(s):
            for dest, path, kw in _moves_kw(seat, piece, start):
                here = tiles.get(dest)
                vs = _organize_variants(st, s, dest, here.visit_key if here is not None else None,
                                        (piece, path), cache)
                if vs:
                    groups.append((kw, vs))
    elif pick == "reorganization":  # the options depend on where the Teams stand after the move
        for piece, start in _pieces(s):
            for dest, path, kw in _moves_kw(seat, piece, start):
                rvs = _reorganization_variants(s, dest, (piece, path))
                if rvs:
                    groups.append((kw, rvs))
    elif (uniform := _uniform_variants(st, s, pick, tiles)) is not None:
        groups, size, ends = _uniform_groups(s, uniform)
    else:  # the options depend on the destination only: each destination once
        same = pick in _SAME_EVERYWHERE
        # Influence before Era III reads only whether the destination is political
        by_tile = pick == "influence" and st.era < 3
        influence = pick == "influence"
        research, deploy = pick == "research", pick == "deploy"
        build, fusion, swarm = pick == "build", pick == "fusion", pick == "agent_swarm"
        occupied: dict[str | None, int] = {}
        own: set[str | None] = set()
        if build or swarm:  # Facilities per hex, as hb.facilities_on counts them
            for x in st.seats:
                for f in x.facilities.values():
                    occupied[f.hex] = occupied.get(f.hex, 0) + 1
            room = len(s.facilities) < 4  # a Facility may be built (where there is space)
            generator = st.era >= 2 and s.generator is None  # a Generator may be built
        if influence or swarm:  # from Era III: Joint Ventures at the seat's own Facilities
            own = {f.hex for f in s.facilities.values()}
        political = st.c.political
        tile_at = st.board.tile_at
        by_pairs: dict[Any, list[Any]] = {}
        by_dest: dict[str, list[Any]] = {}
        mt = _move_table(s)
        firsts, flat = mt.firsts, mt.flat
        for dest, piece, path in firsts:
            frontier = dest == FRONTIER
            if same:
                key: Any = frontier
            elif research:  # what _action_at reads of the destination for Research
                here = tiles.get(dest)
                key = (frontier, here is not None and here.visit_key == "compute_discount")
            elif deploy:  # ... and for a Deploy
                here = tiles.get(dest)
                key = (frontier, tile_at.get(dest) in DEPLOY_DISTRICTS,
                       here.visit_key if here is not None else None)
            elif by_tile:
                key = (frontier, tile_at.get(dest) in political)
            elif influence:  # ... and from Era III, whether the seat has a Facility there
                key = (frontier, tile_at.get(dest) in political, dest if dest in own else None)
            elif build:  # what _action_at reads of the destination for a Build: free space
                here = tiles.get(dest)  # and the visit (a Facility), the tile and its Generator
                spaces = 0 if frontier else (here.facility_spaces if here is not None else 2)
                free = room and occupied.get(dest, 0) < spaces
                key = (frontier, free, free and here is not None and here.visit_key == "build_discount",
                       (here.id, len(st.gen_slots.get(dest, ()))) if (
                           generator and here is not None and here.category == "energy") else None)
            elif fusion:  # ... for Fusion: the tile and its Generator slots
                here = tiles.get(dest)
                key = (frontier, here.id if here is not None else None, len(st.gen_slots.get(dest, ())))
            elif swarm:  # ... for Agent Swarm, what its actions read: the visit bonus, Build
                here = tiles.get(dest)  # (free space; an energy tile and its slots),
                tid = tile_at.get(dest)  # Deploy (a district), Influence (political; own Facility)
                spaces = 0 if frontier else (here.facility_spaces if here is not None else 2)
                key = (frontier, here.visit_key if here is not None else None,
                       room and occupied.get(dest, 0) < spaces,
                       (here.id, len(st.gen_slots.get(dest, ()))) if (
                           generator and here is not None and here.category == "energy") else None,
                       tid in DEPLOY_DISTRICTS, tid in political, dest if dest in own else None)
            else:
                key = dest
            dvs: list[Any] | None = cache.get(key)
            if dvs is None:
                dvs = cache[key] = _dest_variants(st, s, pick, dest, (piece, path), tiles, by_pairs)
            by_dest[dest] = dvs
        groups = [(kw, vs) for kw, dest in flat if (vs := by_dest[dest])]
    tail: list[Any] = []
    if pick in ORBITAL_PICKS and s.facilities and has_active(st, s, "orbital_compute"):
        tail.extend(_orbital_options(st, s, pick, _spec))
    if pick == "deploy" and has_active(st, s, "social_graph"):
        tail.extend(_social_graph_options(st, s, _spec))
    return groups, tail, size, ends


#: shared variant lists (read-only Specs) by what they depend on: (variants from any destination
#: but the Frontier, the same from the Frontier with their bonus twins)
_SHARED: dict[tuple[Any, ...], tuple[list[Any], list[Any]]] = {}


#: Reorganization's variants by (Frontier destination, the Teams' hexes after the move):
#: geometry only, shared by every decision (read-only)
_REORGANIZATIONS: dict[tuple[Any, ...], list[Any]] = {}


def _reorganization_variants(s: SeatState, dest: str, piece_moved: tuple[str, list[str]]) -> list[Any]:
    """``_dest_variants`` of a Reorganization: it reads only where the Teams stand after the
    move (and whether the destination is the Frontier, for the bonus twins)."""
    key = (dest == FRONTIER, *_after_move(s, piece_moved)[1])
    hit = _REORGANIZATIONS.get(key)
    if hit is None:
        if len(_REORGANIZATIONS) > 20000:
            _REORGANIZATIONS.clear()
        hit = list(_reorganization(s, {}, piece_moved, _spec))
        hit = _REORGANIZATIONS[key] = _with_bonus(hit) if dest == FRONTIER else hit
    return hit


def _uniform_variants(st: GameState, s: SeatState, pick: str,
                      tiles: dict[str, Any]) -> tuple[list[Any], list[Any]] | None:
    """The variants of resolving ``pick`` when they are the same from every destination but the
    Frontier (where each comes with its bonus twin), as a shared pair (:data:`_SHARED`);
    ``None`` when they depend on the destination. As :func:`_action_at` reads the destination
    (keep in step): Fund and Covenant never; Narrative Capture only through the Frontier (its
    options: whether the seat holds Scrutiny, and the rivals with more Customers); Research
    not when the seat has the Compute without the visit's discount (then: whether Scaling Law
    Breakthrough is active); Deploy not when no discount or district matters (the seat meets
    the requirement and has the Compute, or misses even the lowered requirement)."""
    if pick == "fund" or pick == "covenant":
        key: tuple[Any, ...] = (pick,)
    elif pick == "narrative_capture":
        key = (pick, s.bag >= 1,
               *(r for r in st.order_from(s.seat)[1:] if st.seats[r - 1].customers > s.customers))
    elif pick == "research":
        if s.compute < (0 if compute_free(st) else 1):
            return None  # a Compute Estate's discount decides
        key = (pick, has_active(st, s, "scaling_law_breakthrough"))
    elif pick == "deploy":
        req = st.c.customer_requirement(s.customers + 1) if s.customers < st.c.cap_customers else None
        if req is None:
            key = (pick, False)
        else:
            if s.capability < (deploy_requirement(st, s, district=True) or req):
                key = (pick, False)  # not even at a Human Access District with the Home Robot
            elif s.capability >= req and (s.compute >= 1 or compute_free(st)):
                key = (pick, True)  # every destination: the requirement met, the cost paid
            else:
                return None
    else:
        return None
    hit = _SHARED.get(key)
    if hit is None:  # the variants from a destination that is not the Frontier
        vs = list(_action_at(st, s, pick, _NOT_FRONTIER, {}, _spec, bonus=True, piece_moved=None,
                             tiles=tiles))
        hit = _SHARED[key] = (vs, _with_bonus(vs))
    return hit


_NOT_FRONTIER = next(p for p in POSITIONS if p != FRONTIER)


def _uniform_groups(s: SeatState, shared: tuple[list[Any], list[Any]]
                    ) -> tuple[list[tuple[dict[str, Any], list[Any]]], int, list[int]]:
    """The groups of every move when the variants do not depend on the destination (but for the
    Frontier), their number of options and their :attr:`Options._ends`: built once per seat's
    positions and variant pair (both shared), so kept with the moves."""
    memo = _move_table(s)
    hit = memo.uniform.get(id(shared))
    if hit is None:
        vs, at_frontier = shared
        groups = [(kw, at_frontier if dest == FRONTIER else vs) for kw, dest in memo.flat]
        groups = [g for g in groups if g[1]]
        ends = _group_ends(groups)
        hit = memo.uniform[id(shared)] = (groups, ends[-1] if ends else 0, ends)
    return hit


def _dest_variants(st: GameState, s: SeatState, pick: str, dest: str,
                   piece_moved: tuple[str, list[str]], tiles: dict[str, Any],
                   by_pairs: dict[Any, list[Any]]) -> list[Any]:
    """The lazy variants of resolving ``pick`` from ``dest`` (without seat, piece and path),
    each Frontier visit followed by its bonus twin, as :func:`_turn_events` yields them."""
    if pick == "agent_swarm":  # the same pairs wherever the same Core Actions resolve
        vs = list(_agent_swarm(st, s, dest, {}, _spec, by_pairs))
    else:
        vs = list(_action_at(st, s, pick, dest, {}, _spec, bonus=True, piece_moved=piece_moved, tiles=tiles))
    if dest == FRONTIER and vs:
        vs = _with_bonus(vs)
    return vs


_MISSING = object()


_MOVES_KW: dict[tuple[int, str, str], list[tuple[str, list[str], dict[str, Any]]]] = {}


class _Moves:
    """A seat's moves by the positions of its pieces (geometry only: built once and shared by
    every decision and game; treat as read-only). ``firsts``: every destination once, with the
    first (piece, path) reaching it; ``flat``: every move as (its seat/piece/path fields,
    destination), in the order of :func:`_turn_events`; ``reach``: the destinations;
    ``uniform``: :func:`_uniform_groups`' groups by their variant lists."""

    __slots__ = ("firsts", "flat", "reach", "uniform")

    def __init__(self, s: SeatState) -> None:
        self.firsts: list[tuple[str, str, list[str]]] = []
        self.flat: list[tuple[dict[str, Any], str]] = []
        seen: set[str] = set()
        for piece, start in _pieces(s):
            firsts, flat = _piece_moves(s.seat, piece, start)
            self.flat += flat
            if not seen:  # the first piece: every destination is new
                self.firsts += firsts
                seen.update(dest for _kw, dest in flat)
                continue
            for first in firsts:
                if first[0] not in seen:
                    seen.add(first[0])
                    self.firsts.append(first)
        self.reach = frozenset(seen)
        self.uniform: dict[int, tuple[list[tuple[dict[str, Any], list[Any]]], int, list[int]]] = {}


_PIECE_MOVES: dict[tuple[int, str, str], tuple[list[tuple[str, str, list[str]]],
                                                 list[tuple[dict[str, Any], str]]]] = {}


def _piece_moves(seat: int, piece: str, start: str) -> tuple[list[tuple[str, str, list[str]]],
                                                            list[tuple[dict[str, Any], str]]]:
    """The moves of one piece from ``start`` as :class:`_Moves` lists them (each destination
    once): (destination, piece, path) and (seat/piece/path fields, destination); geometry only."""
    hit = _PIECE_MOVES.get((seat, piece, start))
    if hit is None:
        moves = _moves_kw(seat, piece, start)
        hit = _PIECE_MOVES[(seat, piece, start)] = ([(dest, piece, path) for dest, path, _kw in moves],
                                                    [(kw, dest) for dest, _path, kw in moves])
    return hit


_MOVE_TABLES: dict[tuple[Any, ...], _Moves] = {}


def _move_table(s: SeatState) -> _Moves:
    """The seat's moves (:class:`_Moves`, shared)."""
    key = (s.seat, s.ceo, *s.teams)
    hit = _MOVE_TABLES.get(key)
    if hit is None:
        if len(_MOVE_TABLES) > 20000:
            _MOVE_TABLES.clear()
        hit = _MOVE_TABLES[key] = _Moves(s)
    return hit


def _moves_kw(seat: int, piece: str, start: str) -> list[tuple[str, list[str], dict[str, Any]]]:
    """(destination, path, the option's seat/piece/path fields) of every move of ``piece`` from
    ``start``: geometry only, so built once and shared (the fields are never mutated: binding an
    option copies them)."""
    out = _MOVES_KW.get((seat, piece, start))
    if out is None:
        out = _MOVES_KW[(seat, piece, start)] = [
            (dest, path, {"seat": seat, "piece": piece, "path": path})
            for dest, path in PATHS[start].items()]
    return out


#: Organize's movement plans and their redistribute options (lazy specs) by the CEO's hex, and
#: by a Team's hex and seat: board geometry only, so shared by every decision (treat as read-only)
_PLANS: dict[tuple[Any, ...], Any] = {}


def _organize_variants(
    st: GameState, s: SeatState, dest: str, visit: str | None,
    piece_moved: tuple[str, list[str]], cache: dict[Any, Any],
) -> list[Any]:
    """``list(_organize(st, s, dest, {}, visit, piece_moved))`` for lazy options (the Frontier
    bonus twins included), assembled from shared parts: the CEO's plans (by the CEO's hex
    after the move) and each Team's plan (by its hex), which are geometry only (``_PLANS``),
    and the recruit and relocate options (by destination, within the decision)."""
    ceo, teams = _after_move(s, piece_moved)
    cp = _PLANS.get(("ceo", ceo))
    if cp is None:  # geometry only: built once per hex
        plans: list[list[Any]] = [[_spec(ev.Step, piece="ceo", path=[ceo, target])]
                                  for target in _ADJ_SORTED[ceo][:2]]
        far = _FAR[ceo]
        if far:
            plans.append([_spec(ev.Step, piece="ceo", path=far[len(far) // 2])])
        cp = _PLANS[("ceo", ceo)] = (plans, [_spec(ev.Organize, mode="redistribute", moves=p) for p in plans])
    # the Teams' plans: the same for every move of the CEO (kept in the decision's cache)
    team_part = cache.get("teams") if piece_moved[0] == "ceo" else None
    if team_part is None:
        team_part = _team_plans(s.seat, teams)
        if piece_moved[0] == "ceo":
            cache["teams"] = team_part
    out = cp[1] + team_part[0]
    first_team_plan = team_part[1]
    dp = cache.get(("dest", dest))
    if dp is None:
        gate_opts: list[Any] = []
        rest: list[Any] = []
        cost = 2 - (1 if visit == "recruit_discount" else 0)
        if st.headline == "humanoid_factory_gate":  # The Last Hazard Shift Is Retired
            cost = 1 - (1 if visit == "recruit_discount" else 0)
            if s.teams_supply >= 2 and s.runway >= cost:
                gate_opts.append(_spec(ev.Organize, mode="recruit", recruits=2))
        if s.teams_supply >= 1 and s.runway >= cost:
            rest.append(_spec(ev.Organize, mode="recruit"))
            step = _ADJ_SORTED[dest][(s.seat + st.cycle) % len(ADJACENT[dest])]
            rest.append(_spec(ev.Organize, mode="recruit", then=_spec(ev.Step, piece="team", path=[dest, step])))
        if s.runway >= 1 and dest != FRONTIER:
            for no, f in sorted(s.facilities.items()):
                if f.hex != dest:
                    continue
                for to in _ADJ_SORTED[dest]:
                    if to != FRONTIER and hb.has_free_space(st, to):
                        rest.append(_spec(ev.Organize, mode="relocate", facility=no, to=to))
                break
        if dest == FRONTIER:  # each Frontier visit with its bonus (as _turn_events)
            gate_opts, rest = _with_bonus(gate_opts), _with_bonus(rest)
        dp = cache[("dest", dest)] = (gate_opts, rest)
    if dest == FRONTIER:
        out = _with_bonus(out)
    out.extend(dp[0])
    plan0 = cp[0][0] if cp[0] else first_team_plan
    if st.headline == "employee_free_unicorn" and teams and plan0 is not None:
        # The Company Brain Survives Bankruptcy: return deployed Teams for Runway
        u = _spec(ev.Organize, mode="redistribute", moves=plan0, return_teams=[teams[-1]])
        out.extend(_with_bonus([u]) if dest == FRONTIER else [u])
    out.extend(dp[1])
    return out


def _team_plans(seat: int, teams: list[str]) -> tuple[list[Any], list[Any] | None]:
    """Organize's redistribute options of the first two Team hexes (as :func:`_organize`), and
    the first Team plan; each Team hex's plan is geometry (and the seat) only: built once."""
    opts: list[Any] = []
    first_team_plan = None
    for h in sorted(set(teams), key=_POS_INDEX.__getitem__)[:2]:
        tp = _PLANS.get(("team", h, seat), _MISSING)
        if tp is _MISSING:
            path = PATHS[h].get(FRONTIER, [h]) if h != FRONTIER else [h, _ADJ_SORTED[h][seat % 6]]
            plan = [_spec(ev.Step, piece="team", path=path)]
            tp = _PLANS[("team", h, seat)] = (plan, _spec(ev.Organize, mode="redistribute", moves=plan)
                                              if len(path) > 1 else None)
        if first_team_plan is None:
            first_team_plan = tp[0]
        if tp[1] is not None:
            opts.append(tp[1])
    return opts, first_team_plan


def _with_bonus(vs: list[Any]) -> list[Any]:
    """Each option followed by its Frontier-bonus twin (for an option resolved at the Frontier)."""
    return [x for e in vs for x in ((e, e.model_copy(update={"frontier_bonus": True}))
                                    if not e.swarm and not e.blocked else (e,))]


#: Core Actions whose resolution does not depend on where a Facility stands (Orbital Compute)
ORBITAL_PICKS = frozenset({"fund", "research", "deploy"})


def _orbital_options(st: GameState, s: SeatState, pick: str, new: Callable[..., Any]) -> Iterator[Any]:
    """Kestralyn, Orbital Compute: instead of moving, move one Facility to any open space."""
    spaces = [h for h in POSITIONS if h != FRONTIER and hb.has_free_space(st, h)]
    if not spaces:
        return
    for no, f in sorted(s.facilities.items()):
        targets = [h for h in spaces if h != f.hex]
        for to in targets[:: max(1, len(targets) // 3)][:3]:
            kw = {"seat": s.seat, "piece": "ceo", "path": [],
                  "orbital": ev.OrbitalMove(facility=no, to=to)}
            yield from _action_at(st, s, pick, s.ceo, kw, new, bonus=True, piece_moved=None)


def _social_graph_options(st: GameState, s: SeatState, new: Callable[..., Any]) -> Iterator[Any]:
    """Loopfold, The Social Graph: Deploy at a controlled Human Access District or Consensus
    Network without moving there (it supplies that hex's visit bonus)."""
    if s.customers >= st.c.cap_customers:
        return
    req = st.c.customer_requirement(s.customers + 1)
    if req is None or s.capability < req:
        return
    for h in POSITIONS:
        tid = st.board.tile(h)
        if tid not in ("consumer", "media") or hb.controller(st, h) != s.seat:
            continue
        cost = 0 if (tid == "consumer" or compute_free(st)) else 1
        if s.compute >= cost:
            yield new(ev.Deploy, seat=s.seat, piece="ceo", path=[s.ceo], remote=h)


def _with_frontier(e: Any) -> Iterator[Any]:
    yield e
    if e.path and e.path[-1] == FRONTIER and not e.swarm and not e.blocked:
        yield e.model_copy(update={"frontier_bonus": True})


def _after_move(s: SeatState, piece_moved: tuple[str, list[str]] | None) -> tuple[str, list[str]]:
    """The seat's CEO hex and Team hexes once the acting piece has moved."""
    ceo, teams = s.ceo, list(s.teams)
    if piece_moved is not None:
        piece, path = piece_moved
        if piece == "ceo":
            ceo = path[-1]
        elif path[0] in teams:
            teams[teams.index(path[0])] = path[-1]
    return ceo, teams


def _action_at(
    st: GameState, s: SeatState, pick: str, dest: str, kw: dict[str, Any], new: Callable[..., Any],
    *, bonus: bool, piece_moved: tuple[str, list[str]] | None, tiles: dict[str, Any] | None = None,
) -> Iterator[Any]:
    """Options of resolving ``pick`` from ``dest``, each made by ``new`` (:func:`_event` or
    :func:`_spec`); ``bonus``: the visit bonus applies.
    ``tiles``: the map's position -> tile table, when the caller has it (:func:`_tiles`).
    :func:`_turn_groups` shares the result between destinations that read alike here (its
    keys name what each pick reads of ``dest``): update them with any new read of ``dest``."""
    here = (tiles if tiles is not None else _tiles(st)).get(dest)
    visit = here.visit_key if (bonus and here is not None) else None
    cat = here.category if here is not None else None
    head = st.headline
    if pick == "fund":
        yield new(ev.Fund, mode="conservative", **kw)
        yield new(ev.Fund, mode="venture", **kw)
    elif pick == "research":
        cost = 0 if compute_free(st) else 1
        if visit == "compute_discount":
            cost = max(0, cost - 1)
        if s.compute >= cost:
            yield new(ev.Research, **kw)
            if has_active(st, s, "scaling_law_breakthrough"):
                yield new(ev.Research, breakthrough=True, **kw)
    elif pick == "build":
        if dest != FRONTIER and len(s.facilities) < 4 and hb.has_free_space(st, dest):
            cost = 2
            if visit == "build_discount":
                cost -= 1
            if has_active(st, s, "industrial_velocity") and s.era.facility_builds == 0:
                cost -= 1
            if s.runway >= max(0, cost):
                yield new(ev.Build, mode="facility", **kw)
        if st.era >= 2 and cat == "energy" and s.generator is None:
            tile = _tile(st, dest)
            con = st.c.generator_at.get(tile.id) if tile is not None else None
            slots = tile.generator_slots if tile is not None else 0
            cost = con.runway if con is not None else 0
            if (con is not None and con.id == "civic_heat_battery"
                    and head == "reactor_restart_one_model" and not st.beam_used):
                cost = max(0, cost - 1)  # Orbital Power Receives a Beam Corridor
            if con is not None and len(st.gen_slots.get(dest, [])) < slots and s.runway >= cost:
                yield new(ev.Build, mode="generator", **kw)
    elif pick == "organize":
        yield from _organize(st, s, dest, kw, visit, piece_moved, new)
    elif pick == "deploy":
        if s.customers < st.c.cap_customers:
            tid = st.board.tile(dest)
            req = deploy_requirement(st, s, tid in DEPLOY_DISTRICTS)
            if req is not None and s.capability >= req:
                cost = 1
                if compute_free(st) or visit == "deploy_free":
                    cost = 0
                if tid in DEPLOY_DISTRICTS and has_active(st, s, "installed_base"):
                    cost = 0  # Loopfold, Installed Base
                if visit == "compute_discount" and option(st, "compute-estate-discount") == "first-compute-cost":
                    cost = max(0, cost - 1)
                if s.compute >= cost:
                    yield new(ev.Deploy, **kw)
    elif pick == "influence":
        yield from _influence(st, s, dest, kw, new)
    elif pick == "mega_cluster":
        yield from _mega_cluster(st, s, dest, kw, new)
    elif pick == "reorganization":
        yield from _reorganization(s, kw, piece_moved, new)
    elif pick == "covenant":
        yield new(ev.Covenant, **kw)
    elif pick == "narrative_capture":
        if s.bag >= 1:
            yield new(ev.NarrativeCapture, mode="remove_scrutiny", **kw)
        yield new(ev.NarrativeCapture, mode="runway", **kw)
        for r in st.order_from(s.seat)[1:]:
            if st.seat(r).customers > s.customers:
                yield new(ev.NarrativeCapture, mode="give_scrutiny", target=r, **kw)
    elif pick == "agent_swarm":
        yield from _agent_swarm(st, s, dest, kw, new)
    elif pick == "fusion":
        tile = _tile(st, dest)
        fus = st.c.fusion
        if (fus is not None and tile is not None and tile.id == fus.tile and st.fusion_owner is None
                and len(st.gen_slots.get(dest, [])) < tile.generator_slots and s.runway >= fus.runway):
            yield new(ev.Fusion, **kw)


def _organize(
    st: GameState, s: SeatState, dest: str, kw: dict[str, Any], visit: str | None,
    piece_moved: tuple[str, list[str]] | None, new: Callable[..., Any],
) -> Iterator[Any]:
    ceo, teams = _after_move(s, piece_moved)
    # redistribute: a few representative plans of up to five combined steps
    plans: list[list[ev.Step]] = []
    for target in _ADJ_SORTED[ceo][:2]:
        plans.append([new(ev.Step, piece="ceo", path=[ceo, target])])
    far = _FAR[ceo]
    if far:
        plans.append([new(ev.Step, piece="ceo", path=far[len(far) // 2])])
    for h in sorted(set(teams), key=_POS_INDEX.__getitem__)[:2]:
        if h != FRONTIER:
            plans.append([new(ev.Step, piece="team", path=PATHS[h].get(FRONTIER, [h]))])
        else:
            plans.append([new(ev.Step, piece="team", path=[h, _ADJ_SORTED[h][s.seat % 6]])])
    for plan in plans:
        if all(len(step.path) > 1 for step in plan):
            yield new(ev.Organize, mode="redistribute", moves=plan, **kw)
    # recruit one Team at the destination, then optionally move one piece up to two steps
    cost = 2 - (1 if visit == "recruit_discount" else 0)
    gate = st.headline == "humanoid_factory_gate"  # The Last Hazard Shift Is Retired
    if gate:
        cost = 1 - (1 if visit == "recruit_discount" else 0)
        if s.teams_supply >= 2 and s.runway >= cost:
            yield new(ev.Organize, mode="recruit", recruits=2, **kw)
    if st.headline == "employee_free_unicorn" and teams and plans:
        # The Company Brain Survives Bankruptcy: return deployed Teams for Runway
        yield new(ev.Organize, mode="redistribute", moves=plans[0], return_teams=[teams[-1]], **kw)
    if s.teams_supply >= 1 and s.runway >= cost:
        yield new(ev.Organize, mode="recruit", **kw)
        step = _ADJ_SORTED[dest][(s.seat + st.cycle) % len(ADJACENT[dest])]
        yield new(ev.Organize, mode="recruit", then=new(ev.Step, piece="team", path=[dest, step]), **kw)
    # relocate one own Facility at the destination to an adjacent hex with a free space
    if s.runway >= 1 and dest != FRONTIER:
        for no, f in sorted(s.facilities.items()):
            if f.hex != dest:
                continue
            for to in _ADJ_SORTED[dest]:
                if to != FRONTIER and hb.has_free_space(st, to):
                    yield new(ev.Organize, mode="relocate", facility=no, to=to, **kw)
            break


def _influence(st: GameState, s: SeatState, dest: str, kw: dict[str, Any],
               new: Callable[..., Any]) -> Iterator[Any]:
    if st.board.tile(dest) in st.c.political:
        if s.trust < st.c.cap_trust:
            yield new(ev.Influence, mode="trust", **kw)
        if s.bag >= 1:
            yield new(ev.Influence, mode="scrutiny", **kw)
    if st.era < 3 or dest == FRONTIER:
        return
    own_here = sorted(no for no, f in s.facilities.items() if f.hex == dest)
    if not own_here:
        return
    own_reach = 2 if has_active(st, s, "strategic_partnership") else 1
    either = option(st, "partnership-range") == "either-partner"
    if len(st.jvs) < st.c.jv_pairs:
        existing = {(j.a_seat, j.a_facility, j.b_seat, j.b_facility) for j in st.jvs.values()}
        existing |= {(b, bf, a, af) for (a, af, b, bf) in existing}
        for no in own_here:
            for r in st.order_from(s.seat)[1:]:
                # Dovetalis' Strategic Partnership reaches two hexes: the proposer's only, or
                # either partner's (ruling partnership-range)
                reach = own_reach
                if either and has_active(st, st.seat(r), "strategic_partnership"):
                    reach = 2
                for rno, rf in sorted(st.seat(r).facilities.items()):
                    if rf.hex is None or rf.hex == dest or DISTANCE[dest].get(rf.hex, 9) > reach:
                        continue
                    if (s.seat, no, r, rno) in existing:
                        continue
                    for accepted in (True, False):
                        yield new(ev.Influence, mode="jv", facility=no, partner=r, partner_facility=rno,
                                           accepted=accepted, **kw)
            break
    # §7 Influence: at one of your Facilities, terminate one named Joint Venture you share
    for num, j in sorted(st.jvs.items()):
        if s.seat in (j.a_seat, j.b_seat):
            yield new(ev.Influence, mode="terminate", contract=num, **kw)


def _mega_cluster(st: GameState, s: SeatState, dest: str, kw: dict[str, Any],
                  new: Callable[..., Any]) -> Iterator[Any]:
    if s.runway < 3 or s.compute < 2 or len(st.megas) >= st.c.mega_pairs:
        return
    facs = sorted(s.facilities.items())
    for (a, fa), (b, fb) in itertools.combinations(facs, 2):
        if fa.mega is not None or fb.mega is not None or dest not in (fa.hex, fb.hex):
            continue
        if not hb.adjacent_hexes(fa.hex, fb.hex):
            continue
        if hb.locally_eligible(st, s, a) and hb.locally_eligible(st, s, b):
            yield new(ev.MegaCluster, hosts=(a, b), **kw)


def _reorganization(
    s: SeatState, kw: dict[str, Any], piece_moved: tuple[str, list[str]] | None,
    new: Callable[..., Any],
) -> Iterator[Any]:
    _ceo, teams = _after_move(s, piece_moved)
    toward = [new(ev.TeamMove, path=[h] if h == FRONTIER else [h, _path(h, FRONTIER)[1]]) for h in teams]
    yield new(ev.Reorganization, **kw)
    if teams:
        yield new(ev.Reorganization, team_moves=toward, **kw)
        yield new(ev.Reorganization, return_team=teams[0], **kw)


def _agent_swarm(st: GameState, s: SeatState, dest: str, kw: dict[str, Any], new: Callable[..., Any],
                 by_pairs: dict[Any, list[Any]] | None = None) -> Iterator[Any]:
    """Agent Swarm from ``dest``: every pair of unused Core Actions with the visit bonus on
    either that the seat can resolve there, the two together (:func:`_swarm_triples`).
    ``by_pairs`` (lazy options without ``kw`` only): the decision's variant lists by the
    legal triples, shared between destinations."""
    triples = _swarm_triples(st, s, dest)
    if by_pairs is not None:
        key = tuple(triples)
        hit = by_pairs.get(key)
        if hit is None:
            hit = by_pairs[key] = list(_swarm_pairs(triples, kw, new))
        yield from hit
        return
    yield from _swarm_pairs(triples, kw, new)


def _swarm_pairs(triples: list[tuple[str, str, str]], kw: dict[str, Any],
                 new: Callable[..., Any]) -> Iterator[Any]:
    for a, b, bonus in triples:
        yield new(ev.AgentSwarm, actions=cast(Any, (a, b)), bonus_to=cast(Any, bonus), **kw)


#: what a Conservative Fund gains (§7 Fund): the least a first Fund adds before the second action
_FUND_RUNWAY = 2


def _swarm_can(st: GameState, s: SeatState, a: str, dest: str, bonus: bool) -> bool:
    """Whether Core Action ``a`` has a resolution from ``dest`` now (``bonus``: with the visit
    bonus), as :func:`_action_at` reads it; Fund and Organize resolve anywhere. (A check: the
    first option is a :class:`Spec`, whatever the mode of the call.)"""
    if a == "fund" or a == "organize":
        return True
    sw = {"seat": s.seat, "swarm": True}
    return next(iter(_action_at(st, s, a, dest, sw, _spec, bonus=bonus, piece_moved=None)), None) is not None


def _swarm_triples(st: GameState, s: SeatState, dest: str) -> list[tuple[str, str, str]]:
    """(first, second, bonus_to) for every pair of unused Core Actions the seat can resolve
    together from ``dest`` (§5 Agent Swarm: two different Core Actions from one destination,
    the visit bonus to one of them): each with the bonus when it has it, and in either order,
    so that a Fund's Runway may pay the Build that follows it (the engine's reading). Pairs in
    Core Action order, the bonus to the first then to the second (as before)."""
    unused = [a for a in CORE_ACTIONS if a not in s.exhausted]
    if len(unused) < 2:
        return []
    now = {(a, b): _swarm_can(st, s, a, dest, b) for a in unused for b in (False, True)}
    after_fund: dict[tuple[str, bool], bool] = {}
    if "fund" in unused and not all(now.values()):
        before = s.runway
        s.runway = min(st.c.caps["runway"], before + _FUND_RUNWAY)
        try:
            after_fund = {(a, b): now[(a, b)] or _swarm_can(st, s, a, dest, b)
                          for a in unused if a != "fund" for b in (False, True)}
        finally:
            s.runway = before
    out: list[tuple[str, str, str]] = []
    for a, b in itertools.combinations(unused, 2):
        for x in (a, b):
            ra, rb = now[(a, x == a)], now[(b, x == b)]
            ok = (ra and rb) or (a == "fund" and after_fund.get((b, x == b), False)) or (
                b == "fund" and after_fund.get((a, x == a), False))
            if ok:
                out.append((a, b, x))
    return out


def _swarm_decision(st: GameState, t: Any, lazy: bool = False) -> Decision:
    """The next Agent Swarm action: the left actions that resolve now (the other may need the
    first one's gains); a left action resolves blocked only when none of them resolves.
    ``lazy``: the options are :class:`Spec` objects."""
    new = _option_maker(lazy)
    s = st.seat(t.seat)
    dest = t.dest
    sw = {"seat": s.seat, "swarm": True}
    options: list[Any] = []
    blocked: list[Any] = []
    for a in dict.fromkeys(t.swarm_left):
        found = list(_action_at(st, s, a, dest, sw, new, bonus=(t.swarm_bonus == a), piece_moved=None))
        if found:
            options.extend(found)
        else:
            blocked.append(_blocked(a, sw, new))
    return Decision(kind="player", seat=s.seat, options=options or blocked,
                    label=f"seat {s.seat} resolves an Agent Swarm action")


_TURN_MODELS: dict[str, tuple[type, dict[str, Any]]] = {
    "fund": (ev.Fund, {}),
    "research": (ev.Research, {}),
    "build": (ev.Build, {}),
    "organize": (ev.Organize, {"mode": "redistribute"}),
    "deploy": (ev.Deploy, {}),
    "influence": (ev.Influence, {"mode": "trust"}),
    "mega_cluster": (ev.MegaCluster, {"hosts": (1, 2)}),
    "reorganization": (ev.Reorganization, {}),
    "covenant": (ev.Covenant, {}),
    "narrative_capture": (ev.NarrativeCapture, {"mode": "runway"}),
    "fusion": (ev.Fusion, {}),
}


def _blocked(pick: str, kw: dict[str, Any], new: Callable[..., Any]) -> Any:
    model, extra = _TURN_MODELS[pick]
    return new(model, blocked=True, **extra, **kw)


def _blocked_events(st: GameState, s: SeatState, pick: str,
                    new: Callable[..., Any] = _event) -> list[Any]:
    """§2 A committed Action that becomes blocked: movement resolves, the action exhausts.
    Agent Swarm names two unused Core Actions (the engine asks only for two at selection).
    Each made by ``new`` (:func:`_event`, or :func:`_spec` for lazy options)."""
    extra: dict[str, Any] = {}
    if pick == "agent_swarm":
        unused = [a for a in CORE_ACTIONS if a not in s.exhausted]
        if len(unused) < 2:
            return []
        extra = {"actions": (unused[0], unused[1])}
    elif pick not in _TURN_MODELS:
        return []
    out = []
    for piece, start in _pieces(s)[:1]:
        for path in list(PATHS[start].values())[:7]:
            kw = {"seat": s.seat, "piece": piece, "path": path}
            out.append(new(ev.AgentSwarm, blocked=True, **extra, **kw) if extra
                       else _blocked(pick, kw, new))
    return out
