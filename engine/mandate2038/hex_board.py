"""Core rules §4 Modular hex board: movement, Facility spaces, presence and control, local Power.

* Movement: one step crosses one shared edge; an acting CEO or Team moves 0-2 steps.
* Facility spaces: two on every non-Frontier hex; Frontier has none.
* Presence: a CEO, a Team and a Facility each count one (Generators do not; offline Facilities
  do). The seat with the most presence controls a non-Frontier hex; a tie means nobody.
* Local Power (Default Game): the starting grid powers only Facility 1; a Generator (and Fusion)
  powers only its owner's Facilities on its own or an adjacent hex; Facilities do not relay.
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.mandate2038.board import ADJACENT, DISTANCE, FRONTIER, path_problem
from engine.mandate2038.rulings import option
from engine.mandate2038.state import GameState, SeatState


def facilities_on(st: GameState, hexname: str) -> int:
    """Facilities of every seat on ``hexname`` (each hex has two spaces)."""
    n = 0
    for s in st.seats:
        for f in s.facilities.values():
            if f.hex == hexname:
                n += 1
    return n


def facility_spaces(st: GameState, hexname: str) -> int:
    """Facility spaces printed on the tile at ``hexname`` (Frontier: 0; unknown map: 2)."""
    if hexname == FRONTIER:
        return 0
    tid = st.board.tile_at.get(hexname)
    return st.c.facility_spaces.get(tid, 2) if tid else 2


def has_free_space(st: GameState, hexname: str) -> bool:
    """``facilities_on(st, hexname) < facility_spaces(st, hexname)``, counting only until the
    spaces are full (a hot check of the move generator)."""
    left = facility_spaces(st, hexname)
    if left <= 0:
        return False  # the Frontier has no Facility spaces
    for s in st.seats:
        for f in s.facilities.values():
            if f.hex == hexname:
                left -= 1
                if left <= 0:
                    return False
    return left > 0


def presence(st: GameState, hexname: str) -> list[int]:
    """Presence of every seat on ``hexname`` (index seat-1)."""
    out = []
    for s in st.seats:
        p = (s.ceo == hexname) + s.teams.count(hexname)
        for f in s.facilities.values():
            if f.hex == hexname:
                p += 1
        out.append(p)
    return out


def controller(st: GameState, hexname: str) -> int | None:
    """The seat controlling ``hexname``: strictly most presence; ties and Frontier: nobody."""
    if hexname == FRONTIER:
        return None
    pres = presence(st, hexname)
    best = max(pres) if pres else 0
    if best == 0 or pres.count(best) > 1:
        return None
    return pres.index(best) + 1


def controlled_categories(st: GameState, seat: int) -> set[str]:
    """Distinct non-Frontier tile categories whose hexes ``seat`` controls (Era III Mandate)."""
    cats: set[str] = set()
    for pos, tid in st.board.tile_at.items():
        if pos == FRONTIER or tid is None:
            continue
        if controller(st, pos) == seat:
            t = st.c.tiles.get(tid)
            if t is not None and t.category != "frontier":
                cats.add(t.category)
    return cats


def categories_by_seat(st: GameState) -> dict[int, set[str]]:
    """For every seat, the distinct non-Frontier tile categories it controls (one pass)."""
    out: dict[int, set[str]] = {s.seat: set() for s in st.seats}
    for pos, tid in st.board.tile_at.items():
        if pos == FRONTIER or tid is None:
            continue
        c = controller(st, pos)
        if c is not None:
            t = st.c.tiles.get(tid)
            if t is not None and t.category != "frontier":
                out[c].add(t.category)
    return out


def near(a: str | None, b: str | None, reach: int = 1) -> bool:
    """``a`` and ``b`` are the same hex or within ``reach`` steps."""
    if a is None or b is None:
        return False
    row = DISTANCE.get(a)
    d = row.get(b) if row is not None else None
    return d is not None and d <= reach


def adjacent_hexes(a: str | None, b: str | None) -> bool:
    """Hexes sharing an edge (co-located is not adjacent)."""
    if a is None or b is None:
        return False
    n = ADJACENT.get(a)
    return n is not None and b in n


def check_path(
    st: GameState, sink: FindingSink, seat: int, path: list[str], max_steps: int | None,
    code_far: str = "move/too-far",
) -> bool:
    """Report an illegal path (unknown hex, too far, a step without a shared edge)."""
    n = len(path)
    if n <= 1:
        return True
    # fast path for the common legal moves (one or two steps along shared edges)
    if n == 2 and path[1] in ADJACENT.get(path[0], ()):
        return True
    if n == 3 and (max_steps is None or max_steps >= 2) and path[1] in ADJACENT.get(
            path[0], ()) and path[2] in ADJACENT.get(path[1], ()):
        return True
    problem = path_problem(path, None)
    if problem is not None:
        code = "move/unknown-hex" if "not a map position" in problem else "move/not-adjacent"
        sink.report(code, f"seat {seat}'s path {'-'.join(path)}: {problem}",
                    seat=seat, recorded=path)
        return False
    if max_steps is not None and len(path) - 1 > max_steps:
        sink.report(code_far, f"seat {seat}'s piece moved {len(path) - 1} steps "
                    f"({'-'.join(path)}); at most {max_steps} are allowed",
                    seat=seat, expected=f"<= {max_steps} steps", recorded=len(path) - 1)
        return False
    return True


def move_piece(
    st: GameState, sink: FindingSink, s: SeatState, piece: str, path: list[str],
    *, report_missing: bool = True,
) -> None:
    """Move the seat's CEO or one Team from ``path[0]`` to ``path[-1]``. A piece that is not
    on ``path[0]`` is reported and placed at the destination anyway (what the table did)."""
    if not path:
        return
    # a partial log does not record every move, so the engine's piece positions may be stale
    report_missing = report_missing and not st.partial
    start, dest = path[0], path[-1]
    if piece == "ceo":
        if s.ceo != start and report_missing:
            sink.report("move/piece-not-there",
                        f"seat {s.seat}'s CEO is on {s.ceo}, not on {start} where its path starts",
                        seat=s.seat, expected=s.ceo, recorded=start)
        s.ceo = dest
        return
    if start in s.teams:
        s.teams[s.teams.index(start)] = dest
        return
    if report_missing:
        where = ", ".join(s.teams) if s.teams else "none on the board"
        sink.report("move/piece-not-there",
                    f"seat {s.seat} has no Team on {start} where the path starts (Teams: {where})",
                    seat=s.seat, recorded=start)
    if s.teams:
        # the table moved some Team: take the nearest one so the board stays plausible
        best = min(range(len(s.teams)), key=lambda i: DISTANCE[s.teams[i]].get(start, 9))
        s.teams[best] = dest


# --- local Power ---------------------------------------------------------------------------


def power_sources(st: GameState, s: SeatState) -> list[tuple[str, int, str | None]]:
    """The seat's local Power sources: (kind, capacity, hex). ``grid`` (1, Facility 1 only),
    ``generator`` (its ordinary Generator) and ``fusion`` (the Fusion project it owns)."""
    out: list[tuple[str, int, str | None]] = [("grid", 1, None)]
    if s.generator is not None and s.generator_kind is not None:
        con = st.c.contracts.get(s.generator_kind)
        out.append(("generator", con.capacity if con is not None else 0, s.generator))
    if st.fusion_owner == s.seat and st.c.fusion is not None:
        out.append(("fusion", st.c.fusion.capacity, st.fusion_hex))
    return out


def locally_eligible(st: GameState, s: SeatState, fac_no: int) -> bool:
    """Facility ``fac_no`` can receive the seat's local Power (grid for Facility 1, or on/next
    to one of its Generators or its Fusion)."""
    f = s.facilities.get(fac_no)
    if f is None:
        return False
    if fac_no == 1:
        return True
    return any(kind != "grid" and near(h, f.hex) for kind, _cap, h in power_sources(st, s))


def allocation_problem(
    st: GameState, s: SeatState, facilities: list[int], megas: list[int], emergency: int
) -> tuple[str, str] | None:
    """Why the seat's allocation cannot be met by its local sources, as (code, reason), or
    None when it can. Solves the small assignment exactly (sources <= 3 plus emergency)."""
    if not megas and not emergency and facilities == [1] and 1 in s.facilities:
        return None  # only Facility 1: the starting grid (always a source) powers it (the usual case)
    if not facilities and not megas:
        return None  # nothing to power (what the exact solver answers for no demands)
    sources = power_sources(st, s)
    # demands: (amount, source indices allowed)
    demands: list[tuple[int, list[int]]] = []
    for no in facilities:
        f = s.facilities.get(no)
        if f is None:
            return ("production/not-powered", f"Facility {no} is not built")
        allowed = []
        for i, (kind, _cap, h) in enumerate(sources):
            if (kind == "grid" and no == 1) or (kind != "grid" and near(h, f.hex)):
                allowed.append(i)
        if not allowed:
            # emergency Power is supplemental Power: "among legal local Facilities" only
            # (§6C.3 Allocate, §4 Power delivery), never a Facility no local source reaches
            return ("production/not-powered",
                    f"Facility {no} on {f.hex} is not on or next to any of its Power sources"
                    + ("; emergency Power goes only to legal local Facilities (§6C.3)"
                       if emergency else ""))
        if emergency:
            allowed.append(len(sources))
        demands.append((1, allowed))
    for num in megas:
        m = st.megas.get(num)
        if m is None or m.owner != s.seat:
            return ("production/mega-cluster-demand", f"Mega-Cluster {num} is not the seat's")
        hosts = [s.facilities.get(h) for h in m.hosts]
        allowed = []
        grid_ok = False
        if 1 in m.hosts:
            # ruling mega-cluster-demand: may the starting grid feed it (never, in the seed);
            # whether it decided anything: mega_grid_decides
            grid_ok = option(st, "mega-cluster-demand") == "starting-grid-allowed"
        for i, (kind, _cap, h) in enumerate(sources):
            if kind == "grid":
                if grid_ok:
                    allowed.append(i)
            elif any(hf is not None and near(h, hf.hex) for hf in hosts):
                allowed.append(i)
        if emergency:
            allowed.append(len(sources))
        demands.append((2, allowed))
    caps = [cap for _k, cap, _h in sources] + ([emergency] if emergency else [])
    if all(len(al) == 1 for _a, al in demands):
        # every demand has one possible source (the usual case): feasible exactly when no
        # source is asked for more than its capacity (what the solver finds, without search)
        need = [0] * len(caps)
        for a, al in demands:
            need[al[0]] += a
        feasible = all(k <= c for k, c in zip(need, caps, strict=True))
    else:
        feasible = _feasible(demands, caps)
    if not feasible:
        total = sum(a for a, _al in demands)
        return ("production/over-capacity",
                f"the allocation needs {total} Power but its local sources "
                f"({', '.join(f'{k} {c}' for k, c, _h in sources)}"
                + (f", emergency {emergency}" if emergency else "")
                + ") cannot deliver it to those recipients")
    return None


def mega_grid_decides(
    st: GameState, s: SeatState, facilities: list[int], megas: list[int], emergency: int,
    problem: tuple[str, str] | None,
) -> str | None:
    """The ruling tag (``mega-cluster-demand=OPTION``) when ruling mega-cluster-demand decided
    whether this allocation is feasible (the other option gives the other answer), else None.
    Only an allocation with a Mega-Cluster hosted by Facility 1 can depend on it."""
    if not any(num in st.megas and 1 in st.megas[num].hosts for num in megas):
        return None
    rid = "mega-cluster-demand"
    cur = option(st, rid)
    st.rulings[rid] = "starting-grid-allowed" if cur == "not-starting-grid" else "not-starting-grid"
    try:
        other = allocation_problem(st, s, facilities, megas, emergency)
    finally:
        st.rulings[rid] = cur
    return f"{rid}={cur}" if (other is None) != (problem is None) else None


def _feasible(demands: list[tuple[int, list[int]]], caps: list[int]) -> bool:
    """Backtracking assignment of integer demands to capacitated sources (tiny instances)."""
    order = sorted(range(len(demands)), key=lambda i: len(demands[i][1]))
    left = list(caps)

    def go(k: int) -> bool:
        if k == len(order):
            return True
        amount, allowed = demands[order[k]]
        # a Mega-Cluster's two demand may be split across sources
        return _split(amount, allowed, 0, k)

    def _split(amount: int, allowed: list[int], j: int, k: int) -> bool:
        if amount == 0:
            return go(k + 1)
        if j >= len(allowed):
            return False
        i = allowed[j]
        for take in range(min(amount, left[i]), -1, -1):
            left[i] -= take
            if _split(amount - take, allowed, j + 1, k):
                left[i] += take
                return True
            left[i] += take
        return False

    return go(0)
