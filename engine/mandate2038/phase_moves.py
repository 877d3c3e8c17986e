"""The legal-move generator outside the turns: Era start and Headlines, Training Runs,
Production, Workforce, the Dossier, the Audit, and the values the table writes from the state
(Era Mandate scoring, the final record, checkpoints).

Part of :mod:`engine.mandate2038.moves`; nothing here does I/O or uses randomness.
"""

from __future__ import annotations

import copy
import functools
import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, cast, overload

from engine.core.ruleset import Decision, Pass
from engine.mandate2038 import hex_board as hb
from engine.mandate2038.board import DISTANCE, POSITIONS
from engine.mandate2038.content import DOSSIER_CARDS
from engine.mandate2038.factions import has_active
from engine.mandate2038.initiative import initiative_for
from engine.mandate2038.lazy_options import _ADJ_SORTED, _forced, _option_maker, _spec
from engine.mandate2038.rulings import option
from engine.mandate2038.state import CORE_ACTIONS, GameState, SeatState
from engine.mandate2038.turn_moves import _MISSING
from schemas import mandate2038 as ev


def _era_start(st: GameState, era: int, lazy: bool) -> Decision:
    cards = _decks(st)[0].get(era, ())
    key = ("era_start", era, cards)
    hit = _REVEALS.get(key) if lazy else None
    if hit is None:
        hit = Decision(kind="chance", options=[_option(lazy, (ev.EraStart, era, c), ev.EraStart, era=era, mandate=c)
                                               for c in cards],
                       weights=[1.0 / len(cards)] * len(cards), label=f"reveal Era {era}'s Mandate")
        if lazy:
            _keep_reveal(key, hit)
    return hit


def _decks(st: GameState) -> tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]]:
    """The pack's Era Mandate cards and default Headlines by Era, in pack order (kept for the
    last pack seen: one per process in practice)."""
    last = _DECKS[0]
    if last[0] is not st.pack:
        mandates: dict[int, tuple[str, ...]] = {}
        for m in st.pack.era_mandates:
            mandates[m.era] = (*mandates.get(m.era, ()), m.id)
        headlines: dict[int, tuple[str, ...]] = {}
        for h in st.pack.headlines:
            if h.default:
                headlines[h.era] = (*headlines.get(h.era, ()), h.id)
        last = _DECKS[0] = (st.pack, (mandates, headlines))
    return cast(tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]], last[1])


#: [(the last pack seen, its decks)]: one pair, read and replaced whole (threads never pair one
#: pack with another's decks)
_DECKS: list[tuple[Any, Any]] = [(None, None)]


#: the lazy decisions (options, weights, label) of the Era Mandate and Headline reveals, by what
#: they depend on (the Era or cycle, the cards left, the Facility numbers a Headline may name):
#: shared by every game of the process (treat as read-only); bounded like _OPTIONS
_REVEALS: dict[tuple[Any, ...], Decision] = {}


def _keep_reveal(key: tuple[Any, ...], hit: Decision) -> None:
    if len(_REVEALS) >= 2_000:
        _REVEALS.clear()
    _REVEALS[key] = hit


def _lowest_capability_seat(st: GameState, cycle: int) -> int:
    """Lowest Capability, ties to the seat nearest the Initiative of ``cycle`` clockwise."""
    order = st.order_from(initiative_for(st, st.era, cycle))
    caps = [st.seat(s).capability for s in order]
    return order[caps.index(min(caps))]


def _headline_reveal(st: GameState, cycle: int, lazy: bool) -> Decision:
    seen = {h for (_e, _c, h) in st.headlines_seen}
    seen.update(st.era_headlines.get(st.era, ()))
    cards = tuple([h for h in _decks(st)[1].get(st.era, ()) if h not in seen])
    powered: list[int] = []  # the Facilities The Passive Citizen Dividend may name
    if "weights_on_internet" in cards:
        low = st.seat(_lowest_capability_seat(st, cycle))
        powered = sorted([n for n, f in low.facilities.items() if f.powered])
    key = ("headline", cycle, cards, *powered)
    hit = _REVEALS.get(key) if lazy else None
    if hit is not None:
        return hit
    if not cards:  # the Era's deck is exhausted: the cycle begins without a Headline
        hit = _forced(_option(lazy, (ev.HeadlineReveal, cycle), ev.HeadlineReveal, cycle=cycle), f"cycle {cycle} begins")
    else:
        hit = _headline_options(cycle, cards, powered, lazy)
    if lazy:
        _keep_reveal(key, hit)
    return hit


def _headline_options(cycle: int, cards: tuple[str, ...], powered: list[int], lazy: bool) -> Decision:
    """The Headline reveal of ``cycle``: each card left equally likely, shared among the Core
    Actions AI-Written Law may name and the Facilities The Passive Citizen Dividend may name."""
    options: list[Any] = []
    weights: list[float] = []
    share = 1.0 / len(cards)
    for h in cards:
        if h == "ai_written_law":
            for a in CORE_ACTIONS:
                options.append(_option(lazy, (ev.HeadlineReveal, cycle, h, a), ev.HeadlineReveal, cycle=cycle,
                                       headline=h, action=cast(Any, a)))
                weights.append(share / len(CORE_ACTIONS))
        elif h == "weights_on_internet" and powered:
            for n in powered:
                options.append(_option(lazy, (ev.HeadlineReveal, cycle, h, None, n), ev.HeadlineReveal,
                                       cycle=cycle, headline=h, facility=n))
                weights.append(share / len(powered))
        else:
            options.append(_option(lazy, (ev.HeadlineReveal, cycle, h), ev.HeadlineReveal, cycle=cycle, headline=h))
            weights.append(share)
    return Decision(kind="chance", options=options, weights=weights, label=f"reveal cycle {cycle}'s Headline")


#: the options below the turns that are whole events (draws, allocations, Dossier filings,
#: Headline and Era reveals, faction windows, ends of runs, the Era's scorers), built once per
#: process in lazy mode and then shared by every decision and game that offers them: a key holds
#: every field of its event (seats, numbers and content ids), so it never goes stale, and a
#: simulated game never changes an event it records. Some whole decisions (a Dossier filing, bank
#: or continue, Production's start) are kept here too, shared like their options (treat as
#: read-only). The table is bounded: it is cleared when it grows past _OPTIONS_MAX.
_OPTIONS: dict[tuple[Any, ...], Any] = {}


_OPTIONS_MAX = 5_000


def _option(lazy: bool, key: tuple[Any, ...], model: type, **fields: Any) -> Any:
    """The event ``model(**fields)`` (``key``: the model and the values of ``fields``): a fresh
    one, or with ``lazy`` (the simulator) the shared built one, which needs no materialising."""
    if not lazy:
        return model(**fields)
    o = _OPTIONS.get(key)
    if o is None:
        o = _keep_option(key, model(**fields))
    return o


def _keep_option(key: tuple[Any, ...], o: Any) -> Any:
    if len(_OPTIONS) >= _OPTIONS_MAX:
        _OPTIONS.clear()
    _OPTIONS[key] = o
    return o


_CONTINUE = Pass("continue", "draw another Training card")


def banked_value(st: GameState) -> int:
    """The Capability a bank of the current run adds (what the table writes as ``banked``)."""
    run = st.run
    if run is None:
        return 0
    return run.provisional + (min(3, len(run.domains)) if run.breakthrough else 0)


def _training_decision(st: GameState, passed: frozenset[str], lazy: bool) -> Decision:
    run = st.run
    assert run is not None
    s = st.seat(run.seat)
    if run.duplicate is not None:
        options: list[Any] = [_run_end(s.seat, "crash", 0, lazy)]
        if s.protection + run.protection_bonus >= 1:
            options.append(_run_end(s.seat, "protect", banked_value(st), lazy))
        if s.runway >= 1 and has_active(st, s, "scientific_method"):
            options.append(_run_end(s.seat, "method", banked_value(st), lazy))
        return Decision(kind="player", seat=s.seat, options=options,
                        label="a duplicate: crash, protect or Scientific Method")
    if run.ended_by_card:
        return _forced(_run_end(s.seat, "bank", banked_value(st), lazy), "Human Evaluation banks the run")
    if not run.cards or "continue" in passed:
        return _draw(st, s, lazy)
    banked = banked_value(st)
    key = ("bank or continue", s.seat, banked)
    shared = _OPTIONS.get(key) if lazy else None
    if shared is None:
        shared = Decision(kind="player", seat=s.seat, options=[_run_end(s.seat, "bank", banked, lazy), _CONTINUE],
                          label="bank or continue the Training Run")
        if lazy:
            _keep_option(key, shared)
    return cast(Decision, shared)


def _run_end(seat: int, outcome: str, banked: int, lazy: bool) -> Any:
    return _option(lazy, (ev.RunEnd, seat, outcome, banked), ev.RunEnd, seat=seat, outcome=outcome, banked=banked)


def _draw(st: GameState, s: SeatState, lazy: bool) -> Decision:
    run = st.run
    assert run is not None
    if lazy and st.deck_left > 0:
        fast = _draw_from_deck(st, s.seat, run)
        if fast is not None:
            return fast
    pool = st.deck
    if st.deck_left <= 0:  # the deck reshuffles its discard pile when empty
        pool = {k: v for k, v in pool.items() if v > 0}
        for k, v in st.discard.items():
            pool[k] = pool.get(k, 0) + v
    cards = sorted([k for k, v in pool.items() if v > 0])
    total = sum([pool[k] for k in cards])
    weights = [pool[k] / total for k in cards]  # each card by its copies left
    free: tuple[str, ...] = ()
    if pool.get("curated_corpus", 0) > 0:  # it names a Domain the run has not drawn
        free = tuple([d for d in sorted(st.c.domains) if d not in run.domains])
        if free:  # one option per free Domain, sharing the card's weight
            i = cards.index("curated_corpus")
            weights[i:i + 1] = [weights[i] / len(free)] * len(free)
    return Decision(kind="chance", options=_draw_options(s.seat, free, tuple(cards), lazy), weights=weights,
                    label="draw a Training card")


def _draw_options(seat: int, free: tuple[str, ...], cards: tuple[str, ...], lazy: bool) -> list[Any]:
    """A Training draw's options: one per card with copies left (``cards``, sorted), Curated
    Corpus once per Domain it may name (``free``); in lazy mode shared by every draw alike."""
    key = (seat, free, cards)  # what the options depend on
    options = _DRAWS.get(key) if lazy else None
    if options is None:
        options = []
        for card in cards:
            if card == "curated_corpus" and free:
                for d in free:
                    options.append(_option(lazy, (ev.Draw, seat, card, d), ev.Draw, seat=seat, card=card, domain=d))
            else:
                options.append(_option(lazy, (ev.Draw, seat, card), ev.Draw, seat=seat, card=card))
        if lazy:
            if len(_DRAWS) >= 2_000:
                _DRAWS.clear()
            _DRAWS[key] = options
    return options


def _draw_from_deck(st: GameState, seat: int, run: Any) -> Decision | None:
    """The simulator's Training draw while the deck is not empty: the same options and weights
    as the plain computation in :func:`_draw`, read through the pack's faces in sorted order
    (kept per content) with C-level counting instead of a sort per draw. None (the plain
    computation then answers) unless the deck holds exactly the pack's faces, none of them
    below zero."""
    deck = st.deck
    c = st.c
    last = _DECK_FACES[0]
    if last[0] is not c:
        faces = tuple(sorted(c.training))  # the deck's faces at setup
        last = _DECK_FACES[0] = (c, (faces, frozenset(faces), tuple(sorted(c.domains)),
                                     faces.index("curated_corpus") if "curated_corpus" in faces else -1))
    faces, faceset, domains, corpus = last[1]
    if deck.keys() != faceset:
        return None
    counts = tuple(map(deck.__getitem__, faces))
    if 0 in counts:
        if min(counts) < 0:
            return None
        cards = tuple(itertools.compress(faces, counts))
        counts = tuple(filter(None, counts))
        corpus = cards.index("curated_corpus") if corpus >= 0 and deck["curated_corpus"] else -1
    else:
        cards = faces
    weights = list(map(operator.truediv, counts, itertools.repeat(sum(counts))))  # copies left / total
    free: tuple[str, ...] = ()
    if corpus >= 0:  # Curated Corpus names a Domain the run has not drawn
        drawn = run.domains
        free = tuple([d for d in domains if d not in drawn]) if drawn else domains
        if free:  # one option per free Domain, sharing the card's weight
            weights[corpus:corpus + 1] = [weights[corpus] / len(free)] * len(free)
    return Decision(kind="chance", options=_draw_options(seat, free, cards, True), weights=weights,
                    label="draw a Training card")


#: [(content, (the Training deck's faces sorted, as a set, the Domains sorted, Curated Corpus's
#: place among the faces))] for the last content seen (one per process in practice): one pair,
#: read and replaced whole
_DECK_FACES: list[tuple[Any, Any]] = [(None, None)]


#: a Training draw's lazy options by (seat, the cards in the pool, the Domains Curated Corpus
#: may name): shared by every game of the process (treat as read-only); bounded
_DRAWS: dict[tuple[Any, ...], list[Any]] = {}


def _greedy_allocation(
    st: GameState, s: SeatState, facs: list[int], megas: list[int], emergency: int
) -> tuple[list[int], list[int]]:
    chosen_f: list[int] = []
    chosen_m: list[int] = []
    for num in megas:  # Mega-Cluster demand first: it needs both hosts and two more Power
        hosts = [h for h in st.megas[num].hosts if h not in chosen_f]
        fa, fb = (s.facilities.get(h) for h in st.megas[num].hosts)
        if fa is None or fb is None or not hb.adjacent_hexes(fa.hex, fb.hex):
            continue  # hosts moved apart: the project cannot operate
        if all(h in facs for h in st.megas[num].hosts) and hb.allocation_problem(
                st, s, [*chosen_f, *hosts], [*chosen_m, num], emergency) is None:
            chosen_f.extend(hosts)
            chosen_m.append(num)
    for no in facs:
        if no not in chosen_f and hb.allocation_problem(
                st, s, [*chosen_f, no], chosen_m, emergency) is None:
            chosen_f.append(no)
    return sorted(chosen_f), chosen_m


def allocation_options(st: GameState, s: SeatState, lazy: bool = False) -> list[ev.Allocate]:
    """Maximal feasible allocations for the seat: with and without Mega-Cluster demand, and
    with emergency Power while The Counterfactual Casino Clears Priority Load is in force.

    With ``lazy`` (the simulator) the list is shared by every allocation with the same
    :func:`_allocation_key` (treat as read-only)."""
    if not lazy:
        return _allocation_options(st, s)
    return cast(list[ev.Allocate], _allocation_decision(st, s, True).options)


def _allocation_decision(st: GameState, s: SeatState, lazy: bool) -> Decision:
    """The seat's allocation decision; in lazy mode shared by every allocation with the same
    :func:`_allocation_key` (treat as read-only)."""
    if not lazy:
        return Decision(kind="player", seat=s.seat, options=_allocation_options(st, s, False),
                        label=f"seat {s.seat} allocates Power")
    key = _allocation_key(st, s)
    hit = _ALLOCATIONS.get(key)
    if hit is None:
        if len(_ALLOCATIONS) >= 5_000:
            _ALLOCATIONS.clear()
        hit = _ALLOCATIONS[key] = Decision(kind="player", seat=s.seat, options=_allocation_options(st, s, True),
                                           label=f"seat {s.seat} allocates Power")
    return hit


#: a seat's allocation decision by :func:`_allocation_key` (it starts with the seat), shared by
#: every game of the process
_ALLOCATIONS: dict[tuple[Any, ...], Decision] = {}


def _allocation_key(st: GameState, s: SeatState) -> tuple[Any, ...]:
    """Everything the seat's allocation options depend on, hexes replaced by what
    ``hex_board.allocation_problem`` and :func:`_greedy_allocation` read of them (§6C: which
    Power source each Facility and Mega-Cluster host is on or next to, and whether the two
    hosts of each Mega-Cluster are adjacent): the seat, whether emergency Power is on offer,
    the sources (kind, capacity), each Facility's number and sources in reach, and each owned
    Mega-Cluster's number, hosts, adjacency and its hosts' sources in reach (with the ruling
    that may let the starting grid feed it)."""
    sources = hb.power_sources(st, s)
    near = [_WITHIN_ONE.get(h, _NOWHERE) for kind, _cap, h in sources if kind != "grid"]  # hb.near(h, _)
    facs = s.facilities
    key: list[Any] = [s.seat, st.production_headline == "emergency_power_authority",
                      *[(kind, cap) for kind, cap, _h in sources]]
    if near:
        for no in sorted(facs):
            fh = facs[no].hex
            key.append((no, *[fh in n for n in near]))
    else:
        key.extend(sorted(facs))
    if st.megas:
        for num, m in sorted(st.megas.items()):
            if m.owner == s.seat:
                fa, fb = (facs.get(h) for h in m.hosts)
                key.append(("mega", num, tuple(m.hosts), option(st, "mega-cluster-demand"),
                            fa is not None and fb is not None and hb.adjacent_hexes(fa.hex, fb.hex),
                            *[f is not None and f.hex in n for f in (fa, fb) for n in near]))
    return tuple(key)


#: each position's hexes within one step, itself included (``hex_board.near(a, b)`` is
#: ``b in _WITHIN_ONE[a]``; an unknown or missing hex is near nothing)
_WITHIN_ONE: dict[str | None, frozenset[str]] = {
    a: frozenset(b for b in POSITIONS if DISTANCE[a][b] <= 1) for a in POSITIONS}


_NOWHERE: frozenset[str] = frozenset()


def _allocation_options(st: GameState, s: SeatState, lazy: bool = False) -> list[ev.Allocate]:
    facs = sorted(s.facilities)
    megas = sorted(num for num, m in st.megas.items() if m.owner == s.seat)
    out: list[ev.Allocate] = []
    seen: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    emergencies = [0]
    if st.production_headline == "emergency_power_authority":
        emergencies += [1, 2]
    for emergency in emergencies:
        for use_megas in ((True, False) if megas else (False,)):  # without megas: the same twice
            chosen_f, chosen_m = _greedy_allocation(st, s, facs, megas if use_megas else [], emergency)
            key = (tuple(chosen_f), tuple(chosen_m), emergency)
            if emergency and len(chosen_f) + 2 * len(chosen_m) <= len(out[0].facilities) + 2 * len(
                    out[0].mega_clusters) + (emergency - 1):
                continue  # emergency Power that powers nothing more is not worth offering
            if key not in seen:
                seen.add(key)
                out.append(_option(lazy, (ev.Allocate, s.seat, *key), ev.Allocate, seat=s.seat, facilities=chosen_f,
                                   mega_clusters=chosen_m, emergency=emergency))
    return out


def _production_begins(lazy: bool) -> Decision:
    """The ``phase: production`` marker (one shared decision in lazy mode)."""
    if not lazy:
        return _forced(ev.Phase(name="production"), "Production begins")
    d = _OPTIONS.get(("production begins",))
    if d is None:
        d = _keep_option(("production begins",),
                         _forced(_option(lazy, (ev.Phase, "production"), ev.Phase, name="production"), "Production begins"))
    return cast(Decision, d)


def _production(st: GameState, lazy: bool) -> Decision:
    for seat in st.initiative_order():
        s = st.seat(seat)
        if not s.allocated:
            if not s.facilities:
                return _forced(_option(lazy, (ev.Allocate, seat), ev.Allocate, seat=seat),
                               f"seat {seat} has no Facility to power")
            return _allocation_decision(st, s, lazy)
    return Decision(kind="end", label="Production is waiting for its allocations")


def _workforce(st: GameState, passed: frozenset[str], lazy: bool) -> Decision | None:
    """Workforce Transition District production: a powered Facility there may move one Team
    one hex (offered after Production, before the Dossiers)."""
    left = st.workforce_left
    if not left:
        return None
    for seat in st.initiative_order():
        s = st.seat(seat)
        if left.get(seat, 0) <= 0 or not s.teams:
            continue
        key = f"workforce:{seat}"
        if key in passed:
            continue
        fac = next((no for no, f in sorted(s.facilities.items())
                    if f.powered and f.hex and st.board.tile(f.hex) == "talent"), None)
        if fac is None:
            continue
        new = _option_maker(lazy)
        opts: list[Any] = []
        for h in sorted(set(s.teams), key=POSITIONS.index)[:2]:
            for to in _ADJ_SORTED[h][:2]:
                opts.append(new(ev.WorkforceMove, seat=seat, facility=fac, path=[h, to]))
        return Decision(kind="player", seat=seat, options=[*opts, Pass(key, "no Workforce move")],
                        label=f"seat {seat} may move a Team (Workforce Transition District)")
    return None


def _dossier(st: GameState, seat: int, lazy: bool) -> Decision:
    key = ("dossier", seat, st.era)
    hit = _OPTIONS.get(key) if lazy else None
    if hit is None:
        hit = Decision(kind="player", seat=seat, options=[
            _option(lazy, (ev.DossierFile, seat, "commit"), ev.DossierFile, seat=seat, orientation="commit"),
            _option(lazy, (ev.DossierFile, seat, "hedge"), ev.DossierFile, seat=seat, orientation="hedge")],
            label=f"seat {seat} files the {DOSSIER_CARDS.get(st.era, '')} Dossier")
        if lazy:
            _keep_option(key, hit)
    return cast(Decision, hit)


def dossier_reveal_event(st: GameState) -> ev.DossierReveal:
    """The Era IV reveal: every seat's four filed orientations."""
    hands = []
    for s in st.seats:
        o = {e: (s.dossier.get(e) or "hedge") for e in (1, 2, 3, 4)}
        hands.append(ev.DossierHand(seat=s.seat, benchmark=cast(Any, o[1]), deployment=cast(Any, o[2]),
                                    authority=cast(Any, o[3]), publication=cast(Any, o[4])))
    return ev.DossierReveal(hands=hands)


def audit_draw_count(st: GameState) -> int:
    """Cubes to draw this Era (round(base × players ÷ 4), at least one), capped by the bag."""
    want = st.c.audit_draws(st.era, st.n)
    return min(want, sum(s.bag for s in st.seats) + st.black)


def _audit(st: GameState, lazy: bool) -> Decision:
    """Every multiset of drawn cubes, with its multivariate hypergeometric probability."""
    colours: list[int | str] = [s.seat for s in st.seats if s.bag > 0]
    counts = [st.seat(c).bag for c in colours if isinstance(c, int)]
    if st.black:
        colours.append("black")
        counts.append(st.black)
    # (not kept for later: over 150 games, 92% of the Audits drew from a bag no earlier one had)
    opts, weights = _audit_options(colours, counts, audit_draw_count(st), lazy)
    return Decision(kind="chance", options=opts, weights=weights, label="draw the Audit")


def _audit_options(colours: list[int | str], counts: list[int], k: int,
                   lazy: bool = False) -> tuple[Sequence[Any], list[float]]:
    """Every multiset of ``k`` cubes drawn from the bag (``counts[i]`` cubes of ``colours[i]``),
    in lexicographic order of the counts drawn per colour, with its multivariate hypergeometric
    probability (the product of C(count, drawn) over C(total, k)). In lazy mode the options are
    an :class:`_AuditOptions`."""
    total = sum(counts)
    denom = math.comb(total, k) if total else 1
    ways: list[tuple[int | str, ...]] = []
    weights: list[float] = []
    if not colours:
        if k == 0:
            ways.append(())
            weights.append(1 / denom)
    else:
        col, count = colours[0], counts[0]
        rest_colours, rest_counts = tuple(colours[1:]), tuple(counts[1:])
        for p in range(min(k, count) + 1):  # cubes of the first colour, then every way to draw the rest
            head, cp = (col,) * p, math.comb(count, p)
            for w, draws in _draw_ways(rest_colours, rest_counts, k - p):
                ways.append(head + draws)
                weights.append(cp * w / denom)
    if lazy:
        return _AuditOptions(ways), weights
    return [ev.Audit(draws=cast(Any, list(d))) for d in ways], weights


class _AuditOptions(Sequence[Any]):
    """The Audit's lazy options, each made (a :class:`Spec`) only when read: the simulator draws
    one by weight and reads only that one, of tens or hundreds."""

    __slots__ = ("_ways",)

    def __init__(self, ways: list[tuple[int | str, ...]]) -> None:
        self._ways = ways

    def __len__(self) -> int:
        return len(self._ways)

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [_spec(ev.Audit, draws=list(d)) for d in self._ways[i]]
        return _spec(ev.Audit, draws=list(self._ways[i]))


@functools.lru_cache(maxsize=4096)
def _draw_ways(colours: tuple[int | str, ...], counts: tuple[int, ...], k: int
               ) -> tuple[tuple[int, tuple[int | str, ...]], ...]:
    """Every way to draw ``k`` cubes from ``counts[i]`` cubes of ``colours[i]``, in lexicographic
    order of the counts per colour: (the product of C(count, drawn), the cubes drawn). Pure
    combinatorics on small numbers, kept for the process: the Audits of different games share
    their bags' tails."""
    if not colours:
        return ((1, ()),) if k == 0 else ()
    col, count = colours[0], counts[0]
    out: list[tuple[int, tuple[int | str, ...]]] = []
    for p in range(min(k, count) + 1):
        head, cp = (col,) * p, math.comb(count, p)
        out.extend([(cp * w, head + draws) for w, draws in _draw_ways(colours[1:], counts[1:], k - p)])
    return tuple(out)


def _apply_copy(st: GameState, event: Any) -> GameState:
    """Apply ``event`` to a deep copy of the state (the pack and header are shared)."""
    from engine.core.findings import FindingSink
    from engine.mandate2038.codes import CATALOGUE
    from engine.mandate2038.rules import apply as apply_event

    memo: dict[int, Any] = {id(st.pack): st.pack, id(st.c): st.c, id(st.header): st.header,
                            id(st.board): st.board}
    # The score ledger and the warehouse rows are append-only records and by far the largest
    # part of the state: a shallow copy of each list (and of each row) is enough, and cheap.
    memo[id(st.ledger)] = list(st.ledger)
    memo[id(st.rows)] = {k: [dict(r) if isinstance(r, dict) else r for r in v]
                         for k, v in st.rows.items()}
    cp: GameState = _copy(st, memo)
    apply_event(cp, event, FindingSink(CATALOGUE))
    return cp


_ATOMIC = frozenset({int, str, float, bool, type(None), bytes})


def _copy(o: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy(o, memo)``, faster for what a game state is made of: lists, dicts and
    tuples of plain values and slotted dataclasses are copied here structurally, sets and
    frozensets (whose members are hashable, so immutable values) by value; anything else (or
    a class with its own ``__deepcopy__``) goes to :func:`copy.deepcopy`."""
    t = type(o)
    if t in _ATOMIC:
        return o
    if t is tuple:
        # not remembered by id: a compiled dataclass (the optional compiled engine) stores a
        # fixed tuple field unboxed and hands out a new tuple on every read, freed once copied,
        # whose id the next one may reuse; a tuple is immutable, so copies need not be shared
        return tuple([x if type(x) in _ATOMIC else _copy(x, memo) for x in o])
    i = id(o)
    hit = memo.get(i, _MISSING)
    if hit is not _MISSING:
        return hit
    r: Any
    if t is list:
        r = memo[i] = []
        r.extend([x if type(x) in _ATOMIC else _copy(x, memo) for x in o])
    elif t is dict:
        r = memo[i] = {}
        for k, v in o.items():
            r[k if type(k) in _ATOMIC else _copy(k, memo)] = v if type(v) in _ATOMIC else _copy(v, memo)
    elif t is set:
        r = memo[i] = set(o)
    elif t is frozenset:
        r = memo[i] = o
    else:
        names = _SLOTS.get(t)
        if names is None:
            names = _slot_names(t)
        if names:
            # not object.__new__: a class compiled by mypyc (docs/engine.md "The compiled
            # engine") refuses it (:func:`_blank`)
            r = memo[i] = _blank(t, o)
            for name in names:
                v = getattr(o, name, _MISSING)
                if v is not _MISSING:
                    setattr(r, name, v if type(v) in _ATOMIC else _copy(v, memo))
        else:
            r = copy.deepcopy(o, memo)
    return r


_SLOTS: dict[type, tuple[str, ...]] = {}

#: type -> the names of the ``__init__`` arguments a blank instance of it must be given (None:
#: ``t.__new__(t)`` makes one); see :func:`_blank`
_REQUIRED: dict[type, tuple[str, ...] | None] = {}


def _required(t: type) -> tuple[str, ...] | None:
    """None when ``t.__new__(t)`` makes a blank instance of the slotted dataclass ``t`` (a plain
    class, or one compiled by mypyc whose ``__init__`` dataclasses generated); else the fields
    without a default, in order: a class compiled by mypyc with its own ``__init__`` (the hot
    classes of state.py write theirs, so that it is compiled) runs that ``__init__`` from
    ``__new__``, which must be given them."""
    if t in _REQUIRED:
        return _REQUIRED[t]
    req: tuple[str, ...] | None
    try:
        cls: Any = t
        cls.__new__(cls)
        req = None
    except TypeError:
        import dataclasses

        req = tuple(f.name for f in dataclasses.fields(cls) if f.init
                    and f.default is dataclasses.MISSING
                    and f.default_factory is dataclasses.MISSING)
    _REQUIRED[t] = req
    return req


def _blank(t: type, o: Any) -> Any:
    """A new instance of ``o``'s slotted dataclass ``t`` whose fields the caller then sets
    (those without a default start as ``o``'s)."""
    req = _required(t)
    cls: Any = t
    if req is None:
        return cls.__new__(cls)
    return cls(*[getattr(o, n) for n in req])


def _slot_names(t: type) -> tuple[str, ...]:
    """The slots of a slotted dataclass that :func:`_copy` may copy field by field; empty for
    any other class (left to :func:`copy.deepcopy`). A dataclass compiled by mypyc (the
    optional compiled engine) has no ``__slots__``: its attributes are its ``__mypyc_attrs__``."""
    names = _SLOTS.get(t)
    if names is None:
        native = t.__dict__.get("__mypyc_attrs__")
        if getattr(t, "__dataclass_fields__", None) is not None and native is not None:
            names = tuple(n for n in native if n not in ("__dict__", "__weakref__"))
        elif (getattr(t, "__dataclass_fields__", None) is not None and "__slots__" in t.__dict__
                and getattr(t, "__deepcopy__", None) is None and "__dict__" not in dir(t)):
            out: list[str] = []
            for k in reversed(t.__mro__):
                sl = k.__dict__.get("__slots__", ())
                out.extend([sl] if isinstance(sl, str) else sl)
            names = tuple(n for n in dict.fromkeys(out) if n not in ("__dict__", "__weakref__"))
        else:
            names = ()
        _SLOTS[t] = names
    return names


def era_mandate_event(st: GameState, lazy: bool = False) -> ev.EraMandate:
    """The Era Mandate scoring as the table writes it: whoever the rules score (§6F)."""
    from engine.mandate2038.era_sequence import compute_era_mandate

    card = st.c.mandates.get(st.mandate_card) if st.mandate_card else None
    if card is None:  # the card was not recorded: the engine scores nothing to compare
        return ev.EraMandate()
    scorers, _values = compute_era_mandate(st, card)
    return cast(ev.EraMandate, _option(lazy, (ev.EraMandate, *scorers), ev.EraMandate, scorers=scorers))


def _shallow(o: Any) -> Any:
    """A new instance of ``o``'s slotted dataclass sharing every field value with ``o``."""
    t = type(o)
    fn = _SHALLOW.get(t)
    if fn is None:
        fn = _SHALLOW[t] = _shallow_copier(t)
    return fn(o)


_SHALLOW: dict[type, Callable[[Any], Any]] = {}


def _shallow_copier(t: type) -> Callable[[Any], Any]:
    """``def shallow(o): r = new(t); r.a = o.a; ...; return r`` for the slots of ``t``, compiled
    once (as :mod:`dataclasses` builds an ``__init__``): a loop over the slot names with
    ``getattr``/``setattr`` takes about 15 times as long."""
    names = _slot_names(t)
    if not names:
        raise TypeError(f"{t.__name__} is not a slotted dataclass")
    body = "".join(f"    r.{n} = o.{n}\n" for n in names)
    # t.__new__(t), not object.__new__(t): a class compiled by mypyc refuses the latter; one
    # compiled with its own __init__ is given the fields without a default (:func:`_blank`)
    req = _required(t)
    make = "new(t)" if req is None else "t(" + "".join(f"o.{n}, " for n in req) + ")"
    namespace: dict[str, Any] = {"new": t.__new__, "t": t}
    exec(f"def shallow(o):\n    r = {make}\n{body}    return r\n", namespace)  # noqa: S102
    return cast(Callable[[Any], Any], namespace["shallow"])


def _settled(st: GameState) -> bool:
    """The game is where a complete log records its final record: no turn, Training Run or
    unresolved selection open, nothing left to settle or expire, and Production, the Audit and
    the Era Mandate recorded (what :func:`_final_scoring_copy` and :func:`_final_values` need)."""
    return not (st.turn is not None or st.run is not None or st.to_resolve or st.after_resolve
                or st.temp_compute_live or not st.production_done or not st.audit_done
                or not st.era_mandate_done)


def _final_scoring_copy(st: GameState) -> GameState | None:
    """A copy of ``st`` that final scoring may write to, or None unless :func:`_settled`.

    Recording the final record then only (core rules §11, via ``compute_final``, and the Era's
    end) moves Mandate markers (the seats, their steps and the ledger), appends warehouse rows,
    notes the rulings used and sets the final result: those are copied, everything else (the
    board, Facilities, decks, ...) is shared with ``st``, read only.
    ``tests/test_simulate_phases.py`` checks, over whole games, that the record equals the one
    from a full copy and that ``st`` is left unchanged."""
    if not _settled(st):
        return None
    cp: GameState = _shallow(st)
    seats = cp.seats = [_shallow(s) for s in st.seats]
    for s in seats:
        s.steps = list(s.steps)
    cp.ledger = list(st.ledger)
    cp.rows = {k: list(v) for k, v in st.rows.items()}
    cp.event_rulings = set(st.event_rulings)
    cp.seat_rulings = {k: set(v) for k, v in st.seat_rulings.items()}
    cp.final = dict(st.final)
    return cp


def _final_values(st: GameState) -> dict[str, Any] | None:
    """The values of the final record of a complete game: final scoring (core rules §11, the
    engine's ``compute_final``, the one place its arithmetic is written) applied to the light
    copy of :func:`_final_scoring_copy`; None (a full copy is scored instead) unless the game is
    complete (not a partial log), :func:`_settled` and not yet scored.
    ``tests/test_simulate_phases.py`` compares the record with the one scored on a full copy
    over whole games."""
    if st.partial or st.final_done or not _settled(st):
        return None
    return _scored_copy(st, False).final


def final_record_event(st: GameState, full_copy: bool = False) -> ev.FinalRecord:
    """The Governance Board's final public record, filled from the engine's final scoring
    applied to a copy of the state: the light copy for a complete, settled game
    (:func:`_final_values`), else :func:`_scored_copy` (the light copy when it applies, else a
    full copy, or always a full copy with ``full_copy``)."""
    f = None if full_copy else _final_values(st)
    return _record_from(f if f is not None else _scored_copy(st, full_copy).final)


def _record_from(f: dict[str, Any]) -> ev.FinalRecord:
    """The final record event of final scoring's result ``f`` (``GameState.final``)."""
    claims = f.get("claims")
    return ev.FinalRecord(
        offline=f.get("offline"),
        collective_trust=f.get("collective_trust"),
        open_threshold=f.get("open_threshold"),
        systemic_risk=f.get("systemic_risk"),
        provisional_winners=f.get("provisional_winners"),
        claims=[ev.ClaimRecord(seat=c["seat"], strength=c["strength"]) for c in claims]
        if claims is not None else None,
        agi=f.get("agi"),
        claimant=f.get("claimant"),
        winners=f.get("winners"),
        open=f.get("open"),
        ending=f.get("ending"),
    )


def _scored_copy(st: GameState, full_copy: bool) -> GameState:
    """A copy of ``st`` with the final record (empty) applied: the light copy when it applies
    (and not ``full_copy``), else a full one."""
    cp = None if full_copy else _final_scoring_copy(st)
    if cp is None:
        return _apply_copy(st, ev.FinalRecord())
    from engine.core.findings import FindingSink
    from engine.mandate2038.codes import CATALOGUE
    from engine.mandate2038.rules import apply as apply_event

    apply_event(cp, ev.FinalRecord(), FindingSink(CATALOGUE))
    return cp


def checkpoint_event(st: GameState, label: str) -> ev.Checkpoint:
    """Every seat's public values now, as the table would write them at an Era's end (built
    like a chosen lazy option, by :meth:`Spec.materialize`: the values are the model's types)."""
    return cast(ev.Checkpoint, _spec(
        ev.Checkpoint, label=label,
        seats=[_spec(ev.SeatValues, seat=s.seat, mandate=s.mandate, runway=s.runway, compute=s.compute,
                     capability=s.capability, customers=s.customers, trust=s.trust, scrutiny=s.bag)
               for s in st.seats],
        systemic_risk=st.black,
    ).materialize())

