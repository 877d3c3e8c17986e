"""Bots that play Mandate 2038 through the legal-move generator.

Every bot takes a seeded ``random.Random`` and answers ``choose(state, seat, options, label)``
with one of ``options`` (complete events, or a :class:`~engine.mandate2038.moves.Pass`). Bots
never see more than a player at the table would use, except that the rival's answer to an
offer (trade, Joint Venture, Allocation Window) is chosen by the acting bot, as the legal-move
generator folds those answers into the acting player's options.

* :class:`RandomBot` picks uniformly among the legal options.
* :class:`HeuristicBot` is greedy: it scores each option by what it is likely to earn now
  (Customers, Capability thresholds, Trust thresholds, Facilities that produce) and banks a
  Training Run once the chance of a crash on the next card outweighs what is at stake. Ties
  are broken by the random generator, so two heuristic games still differ.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core.ruleset import Pass
from engine.mandate2038.board import ADJACENT
from engine.mandate2038.moves import Options
from engine.mandate2038.state import GameState, SeatState

BOT_VERSION = "1"


class RandomBot:
    """Uniformly random legal play."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, seat: int | None, options: Sequence[Any], label: str = "") -> Any:
        """One of ``options``, uniformly at random."""
        return options[self.rng.randrange(len(options))]


# --- the heuristic bot ----------------------------------------------------------------------

_PICK_BASE = {
    "fund": 2.0, "research": 3.0, "build": 3.0, "organize": 0.5, "deploy": 5.0, "influence": 2.0,
    "mega_cluster": 5.5, "reorganization": 0.5, "covenant": 4.0, "narrative_capture": 1.5,
    "agent_swarm": 3.0, "fusion": 4.5,
}


def _next_customer_req(st: GameState, s: SeatState) -> int | None:
    return st.c.customer_requirement(s.customers + 1)


def _crash_risk(st: GameState) -> float:
    """Probability that the next Training card is a duplicate of the current run."""
    run = st.run
    if run is None:
        return 0.0
    pool = {k: v for k, v in st.deck.items() if v > 0} or {k: v for k, v in st.discard.items() if v > 0}
    total = sum(pool.values())
    if not total:
        return 0.0
    dup = sum(v for k, v in pool.items() if k in run.domains)
    if len(run.domains) >= len(st.c.domains):
        dup += pool.get("curated_corpus", 0)
    return dup / total


class HeuristicBot:
    """Greedy on Mandate: Customers, Capability and Trust thresholds, producing Facilities."""

    name = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, seat: int | None, options: Sequence[Any], label: str = "") -> Any:
        """The best-scoring option (random tie-break)."""
        if type(options) is Options:
            return self._choose_grouped(state, seat, options)
        best: list[Any] = []
        best_score = float("-inf")
        for o in options:
            sc = self.score(state, seat, o) + self.rng.random() * 0.25
            if sc > best_score + 1e-9:
                best, best_score = [o], sc
            elif abs(sc - best_score) <= 1e-9:
                best.append(o)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _choose_grouped(self, st: GameState, seat: int | None, options: Options) -> Any:
        """:meth:`choose` over lazy turn options, option by option in the same order with the
        same random draws (so the same choice), without binding the options: a variant is
        scored with its move's path passed to the scorer, and as a turn option's score depends
        on its path at most through the path's length and destination (``_PATH_READS``), it is
        computed once per variant and what its scorer reads."""
        rnd = self.rng.random
        s = st.seat(seat) if seat is not None else None
        best: list[int] = []
        best_score = float("-inf")
        # below lo (kept at best_score - 2e-9) an option neither beats nor ties the best
        lo = best_score
        i = 0
        gives = _trade_gives(s) if s is not None else None  # an accepted trade's score, by give
        for o in options.head:  # trade offers (or blocked resolutions): as score()
            if gives is None:
                sc = rnd() * 0.25
            elif o.type == "trade":  # as _t_trade
                sc = (gives.get(o.give, -2) if o.accepted else -3) + rnd() * 0.25
            else:
                fn = _SCORERS.get(o.type)
                sc = (fn(self, st, s, o) if fn is not None else 0.0) + rnd() * 0.25
            best, best_score, lo = _take(sc, i, best, best_score, lo)
            i += 1
        # a turn's variants are all of its action's type (moves.Options), so one scorer and
        # one read of the path (_PATH_READS) serve every group
        groups = options.groups
        t = groups[0][1][0].type if groups else ""
        reads = _PATH_READS.get(t, 3)  # what of the path the score reads
        fn = _SCORERS.get(t) if s is not None else None
        research = _RESEARCH[1] if _RESEARCH[0] is st.board else _research_hexes(st)
        known: dict[Any, float] = {}  # a variant's score, by the variant and what is read
        lists: dict[Any, list[float]] = {}  # a variant list's scores, by the list and what is read
        lists_get = lists.get
        for kw, vs in groups:
            path = kw["path"]
            if reads == 2:
                read: Any = path[-1]
                key: Any = (id(vs), read)
            elif reads == 1:
                read = len(path)
                key = (id(vs), read)
            elif reads == 0:
                read = None
                key = id(vs)
            elif reads == 4:
                read = path[-1] in research
                key = (id(vs), read)
            else:
                read = (len(path), path[-1])
                key = (id(vs), read)
            bases = lists_get(key)
            if bases is None:
                bases = lists[key] = []
                for v in vs:  # as score(), without binding the option
                    vk = id(v) if read is None else (id(v), read)
                    base = known.get(vk)
                    if base is None:
                        base = known[vk] = float(fn(self, st, s, v, path)) if fn is not None else 0.0
                    bases.append(base)
            for base in bases:  # the hot loop: _take inlined
                sc = base + rnd() * 0.25
                if sc >= lo:
                    if sc > best_score + 1e-9:
                        best, best_score = [i], sc
                        lo = sc - 2e-9
                    elif abs(sc - best_score) <= 1e-9:
                        best.append(i)
                i += 1
        for o in options.tail:
            best, best_score, lo = _take(self.score(st, seat, o) + rnd() * 0.25, i, best, best_score, lo)
            i += 1
        return options[best[0] if len(best) == 1 else self.rng.choice(best)]

    # one number per option: higher is better
    def score(self, st: GameState, seat: int | None, o: Any) -> float:
        """How much this bot likes option ``o``."""
        s = st.seat(seat) if seat is not None else None
        if isinstance(o, str):  # a secret selection
            return self._pick(st, s, o) if s is not None else 0.0
        if isinstance(o, Pass):
            if o.key == "continue" and st.run is not None:
                risk = _crash_risk(st)
                at_stake = st.run.provisional
                return 1.0 if risk * (at_stake + 1) < 0.9 and at_stake < 4 else -1.0
            return 0.5
        t = getattr(o, "type", "")
        if s is None:
            return 0.0
        method = _SCORERS.get(t)
        return method(self, st, s, o) if method is not None else 0.0

    def _pick(self, st: GameState, s: SeatState, pick: str) -> float:
        sc = _PICK_BASE.get(pick, 1.0)
        req = _next_customer_req(st, s)
        if pick == "deploy" and (req is None or s.capability < req):
            sc -= 4
        if pick == "research":
            sc += 1.5 if s.compute >= 1 else -2
            if req is not None and s.capability >= req:
                sc -= 1
        if pick == "build":
            sc += 1.5 if len(s.facilities) < 3 else -1
            if s.runway < 2:
                sc -= 2
        if pick == "fund" and s.runway <= 3:
            sc += 2
        if pick == "influence" and (s.trust < 4 or s.bag >= 4):
            sc += 1.5
        if pick in ("mega_cluster", "fusion", "covenant", "agent_swarm"):
            sc += 0.5
        return sc

    def _t_trade(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return _trade_gives(s).get(o.give, -2) if o.accepted else -3

    def _dest_value(self, st: GameState, hexname: str | None) -> float:
        if hexname is None:
            return 0.0
        values = _VALUES[1] if _VALUES[0] is st.board else _dest_values(st)
        return float(values.get(hexname, 0.0))

    def _t_fund(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return (2.0 if o.mode == "venture" and s.bag <= 4 else 1.0) - 0.1 * len(
            o.path if path is None else path) + (
            0.3 if o.frontier_bonus and s.bag <= 4 else 0.0)

    def _t_research(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        p = o.path if path is None else path
        dest = p[-1] if p else None
        tid = st.board.tile(dest) if dest else None
        return 1.0 + (0.8 if tid == "research" else 0.0) + (0.5 if o.breakthrough else 0.0)

    def _t_build(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        p = o.path if path is None else path
        dest = p[-1] if p else None
        if o.blocked:
            return -5
        if o.mode == "generator":
            near_own = sum(1 for f in s.facilities.values() if f.hex and dest and (
                f.hex == dest or dest in _adj(f.hex)))
            return 1.0 + 1.5 * near_own
        near_gen = 1.0 if s.generator and dest and (dest == s.generator or dest in _adj(s.generator)) else 0.0
        return 2.0 + self._dest_value(st, dest) + (1.5 if not s.facilities else near_gen)

    def _t_deploy(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return 3.0 - 0.1 * len(o.path if path is None else path) + (0.5 if o.remote else 0.0)

    def _t_mega_cluster(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return 3.0

    def _t_influence(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        if o.mode == "trust":
            nxt = min((t for t in (2, 4, 6) if t > s.trust), default=None)
            return 2.0 + (1.0 if nxt is not None and nxt - s.trust <= 2 else 0)
        if o.mode == "scrutiny":
            return 0.5 + 0.3 * s.bag
        if o.mode == "jv":
            return 1.5 if o.accepted else -1
        return -1.0

    def _t_organize(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return {"recruit": 1.0, "redistribute": 0.5, "relocate": 0.2}[o.mode]

    def _t_allocate(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return float(len(o.facilities) + 2 * len(o.mega_clusters) - 0.6 * o.emergency - (
            1.5 if o.emergency >= 2 else 0.0))

    def _t_dossier(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        commit = o.orientation == "commit"
        era = st.era
        if era == 1:
            good = s.capability >= 1
        elif era == 2:
            good = len(s.facilities) >= 2
        elif era == 3:
            good = s.trust >= 3
        else:
            filed = sum(1 for e in (1, 2, 3) if s.dossier.get(e) == "commit")
            good = filed >= 2 and s.compute >= filed + 1
        return 1.0 if commit == good else 0.0

    def _t_run_end(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return {"bank": 2.0, "protect": 3.0, "method": 2.5, "crash": 0.0}[o.outcome]

    def _t_narrative_capture(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return {"remove_scrutiny": 0.4 * s.bag, "runway": 1.5, "give_scrutiny": 0.8}[o.mode]

    def _t_agent_swarm(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return sum(_PICK_BASE.get(a, 1.0) for a in o.actions) / 2

    def _t_reorganization(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return 1.0 if o.return_team and s.runway <= 4 else 0.5

    def _t_allocation_window(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return sum(1 for w in o.offers if w.answer == "accept")

    def _t_emergency_pause(self, st: GameState, s: SeatState, o: Any, path: Any = None) -> float:
        return 1.0 if s.trust <= 4 else 0.0


def _trade_gives(s: SeatState) -> dict[str, float]:
    """An accepted trade's score by what the seat gives (-2 for any other)."""
    return {"runway": 2.0 if s.compute == 0 and s.runway >= 3 else -2,
            "compute": 2.0 if s.runway <= 1 and s.compute >= 3 else -2}


_VALUES: list[Any] = [None, {}]  # the last map and what its hexes produce (its Facilities' value)


def _dest_values(st: GameState) -> dict[str, float]:
    """Per hex of this game's map, what a Facility there produces (weighted); kept for the map."""
    values: dict[str, float] = {}
    for h, tid in st.board.tile_at.items():
        t = st.c.tiles.get(tid) if tid else None
        if t is not None:
            p = t.production
            values[h] = float(p.compute * 1.2 + p.runway + p.trust * 1.5 + p.remove_scrutiny * 0.5)
    _VALUES[0], _VALUES[1] = st.board, values
    return values


def _take(sc: float, i: int, best: list[int], best_score: float,
          lo: float) -> tuple[list[int], float, float]:
    """Option ``i`` scoring ``sc`` against the best so far: more than 1e-9 above it replaces
    it, within 1e-9 joins it; ``lo`` (the best less 2e-9) is the score below which an option
    can do neither. Returns the new (best, best score, lo)."""
    if sc >= lo:
        if sc > best_score + 1e-9:
            return [i], sc, sc - 2e-9
        if abs(sc - best_score) <= 1e-9:
            best.append(i)
    return best, best_score, lo


_RESEARCH: list[Any] = [None, frozenset()]  # the last map and its research tiles' hexes


def _research_hexes(st: GameState) -> frozenset[str]:
    """The hexes of this game's map whose tile is ``research`` (what ``_t_research`` reads of
    a destination); kept for the map."""
    hexes = frozenset(h for h, tid in st.board.tile_at.items() if tid == "research")
    _RESEARCH[0], _RESEARCH[1] = st.board, hexes
    return hexes


#: what a turn option's score reads of its path: 1 = its length, 2 = its destination, 4 =
#: whether its destination is a research tile (``_research_hexes``), 0 = nothing (every other
#: type: length and destination). Keep in step with the ``_t_<type>`` scorers above.
_PATH_READS: dict[str, int] = {
    "fund": 1, "deploy": 1, "research": 4, "build": 2, "mega_cluster": 0, "influence": 0,
    "organize": 0, "narrative_capture": 0, "agent_swarm": 0, "reorganization": 0,
    "covenant": 0, "fusion": 0,
}

#: option type -> HeuristicBot._t_<type> (looked up once, not per option)
_SCORERS: dict[str, Any] = {
    name[3:]: fn for name, fn in vars(HeuristicBot).items() if name.startswith("_t_")
}


def _adj(h: str) -> frozenset[str]:
    return ADJACENT.get(h, frozenset())


BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, rng: random.Random) -> RandomBot | HeuristicBot:
    """A bot by name (``random`` or ``heuristic``)."""
    try:
        bot: RandomBot | HeuristicBot = BOTS[name](rng)
        return bot
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(sorted(BOTS))}") from None
