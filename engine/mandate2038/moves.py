"""Legal moves of Mandate 2038 (Default Game): what may be recorded next, as complete events.

:func:`legal_moves` reads the engine's :class:`~engine.mandate2038.state.GameState` and returns
an :class:`engine.core.ruleset.Decision`:

* ``chance`` nodes: the Era Mandate reveal, the Headline reveal, every Training draw and the
  Audit draws, weighted by what is left in the deck or bag. Forced bookkeeping events (the
  ``phase: production`` marker, the Era IV Dossier reveal, the Era Mandate scoring and the final
  record, which the table writes from the visible state) are chance nodes with a single option
  of weight 1.
* ``simultaneous``: the secret selection; ``per_seat`` lists each seat's eligible picks (Core
  Actions, and Programs while it holds a marker) and ``combine`` builds the ``reveal`` event.
* ``player``: every turn (piece, path, mode and targets in one event), the optional immediate
  trade (offered as alternative options before the turn event), bank-or-continue during a
  Training Run, Production allocations, Dossier filings and faction-ability windows.

Some windows are optional and record nothing when declined (continue a Training Run, open the
Allocation Window, call the Emergency Pause). Their "decline" option is a :class:`Pass`; the
caller records no event and asks again with ``passed`` holding :attr:`Pass.key` (the simulator
clears ``passed`` after every event it applies).

Option lists are deliberately small but varied: each destination within two steps is reached
by one path; Organize and Reorganization offer a few representative movement plans; answers of
rivals (trade acceptance, Joint Venture consent) are part of the acting player's options.
Affordability checks are conservative (a discount that only sometimes applies is ignored), so
every option is legal; a choice is offered only when it has a legal resolution now (core rules
§2). Nothing here does I/O or uses randomness.
"""

from __future__ import annotations

import bisect
import copy
import functools
import itertools
import math
import operator
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Union, cast, get_args, get_origin, overload

from pydantic import BaseModel as _BaseModel

from engine.core.ruleset import Decision, Pass
from engine.mandate2038 import hex_board as hb
from engine.mandate2038.board import ADJACENT, DISTANCE, FRONTIER, POSITIONS, WITHIN_TWO
from engine.mandate2038.content import DEPLOY_DISTRICTS, DOSSIER_CARDS
from engine.mandate2038.factions import has_active
from engine.mandate2038.state import CORE_ACTIONS, GameState, SeatState
from schemas import mandate2038 as ev


def _path(a: str, b: str) -> list[str]:
    """One shortest path from ``a`` to ``b`` (at most two steps), deterministic."""
    if a == b:
        return [a]
    if b in ADJACENT[a]:
        return [a, b]
    mids = sorted(ADJACENT[a] & ADJACENT[b], key=POSITIONS.index)
    return [a, mids[0], b]


#: one path from every position to every position within two steps
PATHS: dict[str, dict[str, list[str]]] = {
    a: {b: _path(a, b) for b in sorted(WITHIN_TWO[a], key=POSITIONS.index)} for a in POSITIONS
}


# --- lazy options (the simulator's fast path) -------------------------------------------------

class Spec:
    """A complete event of the option list, not yet built (``legal_moves(..., lazy=True)``).

    It reads like the event (``spec.type``, ``spec.mode``, ``spec.path``, ...: the given fields,
    the model's defaults as class attributes) and :meth:`materialize` builds and validates the
    event. Building a pydantic event costs more than everything else a bot does with an option
    it will not choose, so the simulator asks for specs and builds only the chosen one. Treat a
    spec as read-only.
    """

    _model: Any = None

    def model_copy(self, update: dict[str, Any]) -> Spec:
        o = object.__new__(type(self))
        o.__dict__ = {**self.__dict__, **update}
        return o

    def materialize(self) -> Any:
        """The event; nested specs (e.g. an Organize's steps) are built too.

        Built as pydantic's validation builds it (the same ``__dict__`` in field order, the
        same fields set, lists copied, tuples and nested models in place) but without
        re-validating values the move generator already produces in the model's types:
        tests/test_engine_sim_build.py checks over whole games that every built event equals
        the validated one, value types included. A spec whose fields do not fit the model
        (a required field missing, an unknown one) is validated, so it raises as before."""
        given = self.__dict__
        model = self._model
        recipe = _RECIPES.get((model, *given)) or _recipe(model, given)
        if recipe is not _BY_VALIDATION:
            template, fresh, shaped = recipe
            d = template | given
            for name, make in fresh:  # default factories of the fields not given
                d[name] = make()
            for name, shape in shaped:  # given fields whose values need shaping
                v = given[name]
                if v is not None:  # (a default is None, immutable or a fresh factory value)
                    v = d[name] = shape(v)
                    if v is _MISFIT:  # e.g. a dict for a nested model: validation builds it
                        break
            else:
                o = _new_model(model)
                _set_dict(o, d)
                _set_fields_set(o, set(given))
                _set_extra(o, None)
                _set_private(o, None)
                return o
        fields = {k: _built(v) for k, v in given.items()}
        return model.__pydantic_validator__.validate_python(fields)

    def __repr__(self) -> str:
        return f"Spec({self._model.__name__}, {self.__dict__!r})"


def _built(v: Any) -> Any:
    if isinstance(v, Spec):
        return v.materialize()
    if isinstance(v, list) and v and isinstance(v[0], Spec):
        return [x.materialize() for x in v]
    return v


def _one_model(v: Any) -> Any:
    """A nested model field's value as validation gives it: a spec built, a model as is."""
    if isinstance(v, Spec):
        return v.materialize()
    return v if isinstance(v, _BaseModel) else _MISFIT


def _model_list(v: Any) -> Any:
    """A list (or tuple) of nested models: a new list, its specs built."""
    if not isinstance(v, (list, tuple)):
        return _MISFIT
    out = [x.materialize() if isinstance(x, Spec) else x for x in v]
    return out if all(isinstance(x, _BaseModel) for x in out) else _MISFIT


def _scalar_list(v: Any) -> Any:
    """A list of scalars (hexes, seats, Facility numbers): a new list, as validation copies."""
    return list(v) if isinstance(v, (list, tuple)) else _MISFIT


def _scalar_tuple(v: Any) -> Any:
    """A fixed tuple of scalars (hosts, actions): a tuple, as validation gives."""
    return tuple(v) if isinstance(v, (list, tuple)) else _MISFIT


_new_model = object.__new__
# the four slots of a pydantic model, set through their descriptors (half the cost of
# object.__setattr__, which looks the name up first)
_set_dict = _BaseModel.__dict__["__dict__"].__set__
_set_fields_set = _BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = _BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = _BaseModel.__dict__["__pydantic_private__"].__set__
_BY_VALIDATION: Any = "validate"
_MISFIT: Any = object()
#: per event model: (template of every field in order, required names, known names, fields
#: with a default factory, fields whose values need shaping and their container type)
_BUILD_PLANS: dict[type, Any] = {}


def _plan(model: Any) -> Any:
    """How :meth:`Spec.materialize` builds ``model``; ``_BY_VALIDATION`` for a model with its own
    validators, extra fields, private attributes, a dict field or a mutable default (those
    always go through validation)."""
    d = model.__pydantic_decorators__
    custom = (d.validators or d.field_validators or d.root_validators or d.model_validators
              or model.__pydantic_post_init__ or model.__private_attributes__
              or model.model_config.get("extra") != "forbid"
              or any(_container(f.annotation) is dict or isinstance(f.default, (list, dict, set))
                     for f in model.model_fields.values()))
    if custom:
        _BUILD_PLANS[model] = _BY_VALIDATION
        return _BY_VALIDATION
    template: dict[str, Any] = {}
    required, fresh, shaped = set(), [], []
    for name, f in model.model_fields.items():
        if f.is_required():
            template[name] = None
            required.add(name)
        elif f.default_factory is not None:
            template[name] = None
            fresh.append((name, f.default_factory))
        else:
            template[name] = f.default
        shape = _shape_of(f.annotation)
        if shape is not None:
            shaped.append((name, shape))
    plan = (template, frozenset(required), frozenset(template), tuple(fresh), tuple(shaped))
    _BUILD_PLANS[model] = plan
    return plan


#: (event model, *the given field names in order) -> :func:`_recipe`
_RECIPES: dict[tuple[Any, ...], Any] = {}


def _recipe(model: Any, given: dict[str, Any]) -> Any:
    """How :meth:`Spec.materialize` builds ``model`` from fields named as in ``given`` (its
    :func:`_plan` narrowed to those names): ``(template, fresh, shaped)`` with only the default
    factories of the fields not given and only the given fields that need shaping; or
    ``_BY_VALIDATION`` (the model's own validators, or a required field missing or an unknown
    one given: validation raises as for any bad event)."""
    plan = _BUILD_PLANS.get(model) or _plan(model)
    if plan is _BY_VALIDATION or not plan[1] <= given.keys() <= plan[2]:
        recipe = _BY_VALIDATION
    else:
        template, _required, _known, fresh, shaped = plan
        recipe = (template, tuple((n, f) for n, f in fresh if n not in given),
                  tuple((n, f) for n, f in shaped if n in given))
    _RECIPES[(model, *given)] = recipe
    return recipe


def _container(annotation: Any) -> type | None:
    """``list``, ``tuple`` or ``dict`` for a field holding one (``X | None`` too),
    ``BaseModel`` for a nested model, None for a scalar (str, int, bool, Literal, constrained)."""
    origin = get_origin(annotation)
    if origin in (list, tuple, dict):
        return cast(type, origin)
    if origin is Union or isinstance(annotation, types.UnionType):
        kinds = {_container(a) for a in get_args(annotation)} - {None}
        if len(kinds) > 1:
            raise TypeError(f"no single container type in {annotation!r}")
        return kinds.pop() if kinds else None
    if isinstance(annotation, type) and issubclass(annotation, _BaseModel):
        return _BaseModel
    return None


def _shape_of(annotation: Any) -> Any:
    """The function that gives a field's value as validation would (None: a scalar, as is)."""
    kind = _container(annotation)
    if kind is None:
        return None
    if kind is _BaseModel:
        return _one_model
    if kind is dict:
        raise TypeError("dict fields are built by validation")  # _plan sends those there
    items = [a for a in get_args(_strip_none(annotation)) if a is not Ellipsis]
    if any(_container(a) is not None for a in items):
        if kind is not list:
            raise TypeError(f"no tuple of models in the schemas: {annotation!r}")
        return _model_list
    return _scalar_list if kind is list else _scalar_tuple


def _strip_none(annotation: Any) -> Any:
    """``X`` of ``X | None``."""
    if get_origin(annotation) is Union or isinstance(annotation, types.UnionType):
        (inner,) = [a for a in get_args(annotation) if a is not type(None)]
        return inner
    return annotation


_SPECS: dict[type, type] = {}


def _spec_class(model: Any) -> type:
    sc = _SPECS.get(model)
    if sc is None:
        attrs: dict[str, Any] = {k: f.get_default(call_default_factory=True)
                                 for k, f in model.model_fields.items() if not f.is_required()}
        attrs["_model"] = model
        attrs["__slots__"] = ()  # instances keep only the given fields in their __dict__
        sc = _SPECS[model] = type(f"{model.__name__}Spec", (Spec,), attrs)
    return sc


_LAZY = [False]


def _new(model: type, **fields: Any) -> Any:
    """An option: the event, or its :class:`Spec` while ``legal_moves(lazy=True)`` runs."""
    if not _LAZY[0]:
        return model(**fields)
    o: Any = object.__new__(_SPECS.get(model) or _spec_class(model))
    o.__dict__ = fields
    return o


class Options(Sequence[Any]):
    """A turn's lazy option list (``legal_moves(..., lazy=True)``), without one object per option.

    ``head`` (ready options: trade offers, or the blocked resolutions), then ``groups`` of
    ``(fields, variants)``: the acting piece and path (``{"seat", "piece", "path"}``) and the
    :class:`Spec` variants that resolve the action from that destination (each without those
    three fields; variants are shared by every path that reaches the same destination when
    the action does not depend on the moving piece), then ``tail`` (Orbital Compute and Social
    Graph options). Indexing or iterating binds a variant to its fields: the :class:`Spec` equals
    what the eager walk (:func:`_turn_events`) yields at that position. Bots that score by what
    an option does may read ``groups`` directly (``engine.mandate2038.bots``) and bind only the
    option they choose; every variant of the groups is an event of the turn's action (one type).
    """

    __slots__ = ("head", "groups", "tail", "_ends_cache", "_len")

    def __init__(self, head: list[Any], groups: list[tuple[dict[str, Any], list[Any]]],
                 tail: list[Any], size: int | None = None, ends: list[int] | None = None) -> None:
        """``size``: the groups' number of options, when the caller knows it; ``ends``: the
        :attr:`_ends` of ``groups`` (shared, read-only), when the caller has them."""
        self.head = head
        self.groups = groups
        self.tail = tail
        self._ends_cache = ends
        if size is None:
            size = sum(map(len, map(_SECOND, groups)))
        self._len = len(head) + size + len(tail)

    @property
    def _ends(self) -> list[int]:
        """The number of the groups' options up to and including each group (not counting
        ``head``): the index after each group's last option, less ``len(head)``."""
        ends = self._ends_cache
        if ends is None:
            ends = self._ends_cache = _group_ends(self.groups)
        return ends

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        n = self._len
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("option index out of range")
        h = len(self.head)
        if i < h:
            return self.head[i]
        i -= h
        ends = self._ends
        if not ends or i >= ends[-1]:
            return self.tail[i - (ends[-1] if ends else 0)]
        g = bisect.bisect_right(ends, i)
        kw, vs = self.groups[g]
        return bind(vs[i - ends[g] + len(vs)], kw)

    def __iter__(self) -> Iterator[Any]:
        yield from self.head
        for kw, vs in self.groups:
            for v in vs:
                yield bind(v, kw)
        yield from self.tail


_SECOND = operator.itemgetter(1)


def _group_ends(groups: list[tuple[dict[str, Any], list[Any]]]) -> list[int]:
    """:attr:`Options._ends` of ``groups``."""
    return list(itertools.accumulate(map(len, map(_SECOND, groups))))


def bind(variant: Any, kw: dict[str, Any]) -> Any:
    """The option ``variant`` (a :class:`Spec` without seat, piece and path) with ``kw``."""
    o: Any = object.__new__(type(variant))
    o.__dict__ = {**variant.__dict__, **kw}
    return o


#: neighbours of every position in board order, and the two-step paths from it (geometry only)
_ADJ_SORTED: dict[str, list[str]] = {a: sorted(ADJACENT[a], key=POSITIONS.index) for a in POSITIONS}
_POS_INDEX: dict[str, int] = {p: i for i, p in enumerate(POSITIONS)}
_FAR: dict[str, list[list[str]]] = {a: [p for p in PATHS[a].values() if len(p) == 3] for a in POSITIONS}


def _forced(event: Any, label: str) -> Decision:
    return Decision(kind="chance", options=[event], weights=[1.0], label=label)


# --- tiles and small helpers ----------------------------------------------------------------


_TILES: dict[int, tuple[Any, dict[str, Any]]] = {}


_LAST_TILES: list[Any] = [None, {}]  # the last board looked up and its table (the common case)


def _tiles(st: GameState) -> dict[str, Any]:
    """Position -> Tile of this game's map (cached per board; the map never changes)."""
    if _LAST_TILES[0] is st.board:
        return cast(dict[str, Any], _LAST_TILES[1])
    hit = _TILES.get(id(st.board))
    if hit is not None and hit[0] is st.board:
        _LAST_TILES[0], _LAST_TILES[1] = st.board, hit[1]
        return hit[1]
    table = {}
    for pos in POSITIONS:
        tid = st.board.tile(pos)
        table[pos] = st.c.tiles.get(tid) if tid else None
    if len(_TILES) > 256:
        _TILES.clear()
    _TILES[id(st.board)] = (st.board, table)
    _LAST_TILES[0], _LAST_TILES[1] = st.board, table
    return table


class _BoardSets:
    """Per map (cached like :func:`_tiles`): the positions of political tiles, and every
    position's Facility spaces (as ``hb.facility_spaces``)."""

    __slots__ = ("board", "political", "spaces")

    def __init__(self, st: GameState) -> None:
        self.board = st.board
        self.political = frozenset(p for p in POSITIONS if st.board.tile_at.get(p) in st.c.political)
        self.spaces = {p: hb.facility_spaces(st, p) for p in POSITIONS}


_LAST_SETS: list[_BoardSets | None] = [None]


def _board_sets(st: GameState) -> _BoardSets:
    hit = _LAST_SETS[0]
    if hit is None or hit.board is not st.board:
        hit = _LAST_SETS[0] = _BoardSets(st)
    return hit


def _tile(st: GameState, pos: str | None) -> Any:
    if pos is None:
        return None
    return _tiles(st).get(pos)


def _visit(st: GameState, pos: str | None) -> str | None:
    t = _tile(st, pos)
    return t.visit_key if t is not None else None


def _category(st: GameState, pos: str | None) -> str | None:
    t = _tile(st, pos)
    return t.category if t is not None else None


# --- the top-level dispatcher ---------------------------------------------------------------


def legal_moves(state: GameState, pack: Any = None, passed: frozenset[str] = frozenset(),
                lazy: bool = False) -> Decision:
    """The next decision of the game in ``state``: who decides and what may be recorded.

    ``pack`` is accepted for symmetry with the ruleset protocol; the state's indexed content
    (``state.c``) is what is read. ``passed`` holds the keys of :class:`Pass` options already
    chosen since the last event. With ``lazy`` the turn options (and trades) are
    :class:`Spec` objects: call ``materialize()`` on the chosen one to get its event.
    """
    if lazy:
        _LAZY[0] = True
        try:
            return _legal_moves(state, passed)
        finally:
            _LAZY[0] = False
    return _legal_moves(state, passed)


def simulation_legal_moves(state: GameState, passed: frozenset[str] = frozenset()) -> Decision:
    """``legal_moves(state, passed=passed, lazy=True)``, for the simulator's loop: called
    directly it saves the partial's keyword handling (about 2,500 instructions of a decision,
    160 decisions per game)."""
    _LAZY[0] = True
    try:
        return _legal_moves(state, passed)
    finally:
        _LAZY[0] = False


def _legal_moves(state: GameState, passed: frozenset[str]) -> Decision:
    st = state
    if st.ended or st.phase == "ended" or st.final_done:
        return Decision(kind="end", label="the game is over")
    if st.run is not None:
        return _training_decision(st, passed)
    t = st.turn
    if t is not None and t.swarm_left:
        return _swarm_decision(st, t)
    if st.era == 0:
        return _era_start(st, 1)
    if not st.production_started and not st.production_done:
        if st.cycle == 0:
            return _headline_reveal(st, 1)
        if not st.revealed:
            return _before_selection(st, passed)
        if st.to_resolve:
            return _turn_decision(st, st.to_resolve[0])
        if st.cycle < 3:
            return _headline_reveal(st, st.cycle + 1)
        return _production_begins()
    if not st.production_done:
        return _production(st)
    if not any(st.era in x.dossier for x in st.seats):
        d = _workforce(st, passed)
        if d is not None:
            return d
    for seat in st.initiative_order():
        if st.era not in st.seat(seat).dossier:
            return _dossier(st, seat)
    if st.era == 4 and not st.dossier_revealed:
        return _forced(dossier_reveal_event(st), "reveal every Dossier")
    if not st.audit_done:
        return _audit(st)
    if not st.era_mandate_done:
        return _forced(era_mandate_event(st), "score the Era Mandate")
    if st.era < 4:
        return _era_start(st, st.era + 1)
    return _forced(final_record_event(st), "final scoring: the public record")


# --- Era start, Headlines -------------------------------------------------------------------


def _era_start(st: GameState, era: int) -> Decision:
    cards = _decks(st)[0].get(era, ())
    key = ("era_start", era, cards)
    hit = _REVEALS.get(key) if _LAZY[0] else None
    if hit is None:
        hit = Decision(kind="chance", options=[_option((ev.EraStart, era, c), ev.EraStart, era=era, mandate=c)
                                               for c in cards],
                       weights=[1.0 / len(cards)] * len(cards), label=f"reveal Era {era}'s Mandate")
        if _LAZY[0]:
            _keep_reveal(key, hit)
    return hit


def _decks(st: GameState) -> tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]]:
    """The pack's Era Mandate cards and default Headlines by Era, in pack order (kept for the
    last pack seen: one per process in practice)."""
    if _DECKS[0] is not st.pack:
        mandates: dict[int, tuple[str, ...]] = {}
        for m in st.pack.era_mandates:
            mandates[m.era] = (*mandates.get(m.era, ()), m.id)
        headlines: dict[int, tuple[str, ...]] = {}
        for h in st.pack.headlines:
            if h.default:
                headlines[h.era] = (*headlines.get(h.era, ()), h.id)
        _DECKS[0], _DECKS[1] = st.pack, (mandates, headlines)
    return cast(tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]], _DECKS[1])


_DECKS: list[Any] = [None, None]

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
    from engine.mandate2038.central_loop import initiative_for

    order = st.order_from(initiative_for(st, st.era, cycle))
    caps = [st.seat(s).capability for s in order]
    return order[caps.index(min(caps))]


def _headline_reveal(st: GameState, cycle: int) -> Decision:
    seen = {h for (_e, _c, h) in st.headlines_seen}
    seen.update(st.era_headlines.get(st.era, ()))
    cards = tuple([h for h in _decks(st)[1].get(st.era, ()) if h not in seen])
    powered: list[int] = []  # the Facilities The Passive Citizen Dividend may name
    if "weights_on_internet" in cards:
        low = st.seat(_lowest_capability_seat(st, cycle))
        powered = sorted([n for n, f in low.facilities.items() if f.powered])
    key = ("headline", cycle, cards, *powered)
    hit = _REVEALS.get(key) if _LAZY[0] else None
    if hit is not None:
        return hit
    if not cards:  # the Era's deck is exhausted: the cycle begins without a Headline
        hit = _forced(_option((ev.HeadlineReveal, cycle), ev.HeadlineReveal, cycle=cycle), f"cycle {cycle} begins")
    else:
        hit = _headline_options(cycle, cards, powered)
    if _LAZY[0]:
        _keep_reveal(key, hit)
    return hit


def _headline_options(cycle: int, cards: tuple[str, ...], powered: list[int]) -> Decision:
    """The Headline reveal of ``cycle``: each card left equally likely, shared among the Core
    Actions AI-Written Law may name and the Facilities The Passive Citizen Dividend may name."""
    options: list[Any] = []
    weights: list[float] = []
    share = 1.0 / len(cards)
    for h in cards:
        if h == "ai_written_law":
            for a in CORE_ACTIONS:
                options.append(_option((ev.HeadlineReveal, cycle, h, a), ev.HeadlineReveal, cycle=cycle,
                                       headline=h, action=cast(Any, a)))
                weights.append(share / len(CORE_ACTIONS))
        elif h == "weights_on_internet" and powered:
            for n in powered:
                options.append(_option((ev.HeadlineReveal, cycle, h, None, n), ev.HeadlineReveal,
                                       cycle=cycle, headline=h, facility=n))
                weights.append(share / len(powered))
        else:
            options.append(_option((ev.HeadlineReveal, cycle, h), ev.HeadlineReveal, cycle=cycle, headline=h))
            weights.append(share)
    return Decision(kind="chance", options=options, weights=weights, label=f"reveal cycle {cycle}'s Headline")


# --- before selection: faction windows, then the secret selection ---------------------------


def _before_selection(st: GameState, passed: frozenset[str]) -> Decision:
    for seat in st.initiative_order():
        s = st.seat(seat)
        if st.era == 2 and has_active(st, s, "allocation_window"):
            key = f"allocation_window:{seat}"
            if key not in passed:
                opts = _allocation_window_options(st, s)
                if opts:
                    return Decision(kind="player", seat=seat,
                                    options=[*opts, Pass(key, "keep the Allocation Window closed")],
                                    label="Corthaven may open the Allocation Window")
        if s.runway >= 1 and has_active(st, s, "emergency_pause"):
            key = f"emergency_pause:{seat}"
            progs = _unlocked_programs(st) if key not in passed else None
            if progs:
                opts = [_option((ev.EmergencyPause, seat, p), ev.EmergencyPause, seat=seat, program=cast(Any, p))
                        for p in progs]
                return Decision(kind="player", seat=seat, options=[*opts, Pass(key, "no Emergency Pause")],
                                label="Orisonix may call the Emergency Pause")
    return selection_decision(st)


def _allocation_window_options(st: GameState, s: SeatState) -> list[Any]:
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
    return [_allocation_window(s.seat, o) for o in offers]


def _allocation_window(seat: int, offers: tuple[tuple[int, str], ...]) -> Any:
    """The window's event: an offer of 1 Runway, accepted or rejected, to each rival named, or
    of 2 to one rival who counters with 1, accepted (shared in lazy mode, like :func:`_option`)."""
    key = (ev.AllocationWindow, seat, offers)
    o = _OPTIONS.get(key) if _LAZY[0] else None
    if o is None:
        o = ev.AllocationWindow(seat=seat, offers=[
            ev.WindowOffer(to=to, price=2, answer="counter", counter_price=1, counter_accepted=True)
            if ans == "counter" else ev.WindowOffer(to=to, price=1, answer=cast(Any, ans))
            for to, ans in offers])
        if _LAZY[0]:
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
    hit = _LAST_PICK_MAP[0]
    if hit is None or hit.board is not st.board:
        hit = _LAST_PICK_MAP[0] = _PickMap(st)
    return hit


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
        if s.compute >= 1 or st.headline == "ten_dollar_intelligence":
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


def selection_decision(st: GameState) -> Decision:
    """The simultaneous secret selection of this cycle."""
    per_seat: dict[int, Any] = {}
    sel = _Selection(st)  # the board as every seat's picks read it (one per selection)
    for s in st.seats:
        picks = _eligible_picks(st, s, sel)
        if not picks:
            # No choice has a legal resolution (rare): the seat still commits an unused Core
            # Action, which resolves blocked (a forced no-op in the designers' terms).
            picks = [a for a in CORE_ACTIONS if a not in s.exhausted and a not in ("deploy", "build")]
        per_seat[s.seat] = picks
    lazy = _LAZY[0]

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
    """Whether ``pick`` has a resolution, by walking the destinations (as :func:`_turn_events`)."""
    if pick in _PIECE_DEPENDENT:
        return next(iter(_turn_events(st, s, pick)), None) is not None
    # the options at a destination do not depend on the moving piece: each destination once
    tiles = _tiles(st)
    seen: set[str] = set()
    for piece, start in _pieces(s):
        for dest, path in PATHS[start].items():
            if dest in seen:
                continue
            seen.add(dest)
            kw = {"seat": s.seat, "piece": piece, "path": path}
            if next(iter(_action_at(st, s, pick, dest, kw, bonus=True, piece_moved=None,
                                    tiles=tiles)), None) is not None:
                return True
    if (pick in ORBITAL_PICKS and s.facilities and has_active(st, s, "orbital_compute")
            and next(iter(_orbital_options(st, s, pick)), None) is not None):
        return True
    if pick == "deploy" and has_active(st, s, "social_graph"):
        return next(iter(_social_graph_options(st, s)), None) is not None
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
        if s.compute >= 1 or st.headline == "ten_dollar_intelligence":
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
                    + ("research" not in ex and (s.compute >= 1 or st.headline == "ten_dollar_intelligence")))
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
    robot = st.headline == "synthetic_celebrity" and not st.robot_used
    if s.capability < req - (1 if robot else 0):
        return False
    if s.capability < req:
        return None
    if s.compute >= 1 or (s.compute >= 0 and st.headline == "ten_dollar_intelligence"):
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
    discount = st.rulings.get("compute-estate-discount", "first-compute-cost") == "first-compute-cost"
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


# --- turns ----------------------------------------------------------------------------------


def _turn_decision(st: GameState, seat: int) -> Decision:
    s = st.seat(seat)
    pick = st.selections.get(seat)
    if pick is None:
        return Decision(kind="end", label=f"seat {seat} has no revealed selection")
    t = st.turn
    trades_open = not (t is not None and t.seat == seat and (t.traded or t.started))
    if _LAZY[0]:  # grouped options: no object per option (see Options)
        groups, tail, size, ends = _turn_groups(st, s, pick)
        resolvable = bool(groups or tail)
        head = [] if resolvable else _blocked_events(st, s, pick)
        if trades_open:
            head = _trade_options(st, s, pick, resolvable=resolvable) + head
        return Decision(kind="player", seat=seat, options=Options(head, groups, tail, size, ends),
                        label=f"seat {seat} resolves {pick}")
    options: list[Any] = list(_turn_events(st, s, pick))
    if not options:
        options = _blocked_events(st, s, pick)
    if trades_open:
        options = _trade_options(st, s, pick, resolvable=bool(options) and not getattr(
            options[0], "blocked", False)) + options
    return Decision(kind="player", seat=seat, options=options,
                    label=f"seat {seat} resolves {pick}")


def _trade_options(st: GameState, s: SeatState, pick: str, resolvable: bool | None = None) -> list[Any]:
    """The immediate 1-for-1 trade offers (§6B) that leave the selected action resolvable.

    ``resolvable``: whether the action has a legal resolution without a trade, when the caller
    knows. A trade's effect on the acting seat depends only on what is given and whether it is
    accepted, so each distinct effect is checked once (not once per rival).
    """
    if st.headline == "export_controls":  # Compute Borders Harden: Compute cannot be traded
        return []
    out: list[Any] = []
    seats = st.seats
    cap_runway, cap_compute = st.c.cap_runway, st.c.cap_compute
    # (with any Compute and Runway, as _quick_resolution; a Build reads the free spaces twice)
    always = pick in _ALWAYS_RESOLVABLE
    sel = _Selection(st) if pick == "build" else None
    # a trade that only adds what the pick reads keeps a resolvable pick resolvable
    gains = _TRADE_GAINS.get(pick, ()) if resolvable else ()
    for give, offers in _trade_offers(s.seat, st.n):
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
                    out.append(accept if accept is not None else _trade(s.seat, r + 1, give, True))
            if ok_rejected is None:
                ok_rejected = _has_resolution(st, s, pick)
            if ok_rejected:
                out.append(reject if reject is not None else _trade(s.seat, r + 1, give, False))
    return out


#: per pick, the things given (for the other) that take nothing its resolution reads (as
#: :func:`_action_at` and the Orbital Compute / Social Graph options read them): Build and
#: Fusion cost Runway only, Deploy reads Compute only, Influence neither
_TRADE_GAINS: dict[str, tuple[str, ...]] = {
    "build": ("compute",), "fusion": ("compute",), "deploy": ("runway",),
    "influence": ("runway", "compute"),
}


_OFFERS: dict[tuple[int, int], list[tuple[str, list[tuple[int, Any, Any]]]]] = {}


def _trade_offers(seat: int, n: int) -> list[tuple[str, list[tuple[int, Any, Any]]]]:
    """Per thing given (Runway, then Compute), the rivals clockwise from ``seat`` as (index in
    ``st.seats``, the accepted offer, the rejected offer): as lazy options, the shared
    :class:`Spec` offers; otherwise ``None`` (the caller builds each event)."""
    lazy = _LAZY[0]
    hit = _OFFERS.get((seat, n)) if lazy else None
    if hit is None:
        rivals = [((seat - 1 + i) % n) + 1 for i in range(1, n)]  # as st.order_from(seat)[1:]
        hit = [(give, [(r - 1, _trade(seat, r, give, True) if lazy else None,
                        _trade(seat, r, give, False) if lazy else None) for r in rivals])
               for give in ("runway", "compute")]
        if lazy:
            _OFFERS[(seat, n)] = hit
    return hit


_TRADES: dict[tuple[int, int, str, bool], Any] = {}


def _trade(seat: int, rival: int, give: str, accepted: bool) -> Any:
    """A trade offer; as a lazy option, one shared :class:`Spec` per offer (read-only)."""
    if not _LAZY[0]:
        return ev.Trade(seat=seat, rival=rival, give=cast(Any, give), accepted=accepted)
    key = (seat, rival, give, accepted)
    o = _TRADES.get(key)
    if o is None:
        o = _TRADES[key] = _new(ev.Trade, seat=seat, rival=rival, give=cast(Any, give), accepted=accepted)
    return o


def _resolvable_after(st: GameState, s: SeatState, pick: str, give: str, n: int,
                      sel: _Selection | None = None) -> bool:
    """Whether ``pick`` has a resolution once ``n`` of ``give`` is traded for the other (the
    seat's values are changed for the check and restored). ``sel``: as :func:`_has_resolution`."""
    d = -n if give == "compute" else n  # the Compute change; Runway changes the other way
    if pick == "research" and (s.compute + d >= 1 or st.headline == "ten_dollar_intelligence"):
        return True  # (as _quick_resolution)
    s.compute += d
    s.runway -= d
    try:
        return _has_resolution(st, s, pick, sel)
    finally:
        s.compute -= d
        s.runway += d


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


def _turn_events(st: GameState, s: SeatState, pick: str) -> Iterator[Any]:
    """Every option of resolving ``pick`` now (lazily; the first is enough for eligibility)."""
    tiles = _tiles(st)
    for piece, start in _pieces(s):
        for path in PATHS[start].values():
            dest = path[-1]
            kw = {"seat": s.seat, "piece": piece, "path": path}
            for e in _action_at(st, s, pick, dest, kw, bonus=True, piece_moved=(piece, path),
                                tiles=tiles):
                yield e  # and the Frontier visit with its bonus (as _with_frontier)
                if dest == FRONTIER and not e.swarm and not e.blocked:
                    yield e.model_copy(update={"frontier_bonus": True})
    if pick in ORBITAL_PICKS and s.facilities and has_active(st, s, "orbital_compute"):
        yield from _orbital_options(st, s, pick)
    if pick == "deploy" and has_active(st, s, "social_graph"):
        yield from _social_graph_options(st, s)


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
    Only for lazy options (the variants are :class:`Spec` objects)."""
    if not _LAZY[0]:
        raise RuntimeError("_turn_groups builds lazy options only (legal_moves(..., lazy=True))")
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
            elif swarm:  # ... for Agent Swarm, what its actions read without the visit bonus:
                here = tiles.get(dest)  # Build (free space; an energy tile and its slots),
                tid = tile_at.get(dest)  # Deploy (a district), Influence (political; own Facility)
                spaces = 0 if frontier else (here.facility_spaces if here is not None else 2)
                key = (frontier, room and occupied.get(dest, 0) < spaces,
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
        tail.extend(_orbital_options(st, s, pick))
    if pick == "deploy" and has_active(st, s, "social_graph"):
        tail.extend(_social_graph_options(st, s))
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
        hit = list(_reorganization(s, {}, piece_moved))
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
        if s.compute < (0 if st.headline == "ten_dollar_intelligence" else 1):
            return None  # a Compute Estate's discount decides
        key = (pick, has_active(st, s, "scaling_law_breakthrough"))
    elif pick == "deploy":
        req = st.c.customer_requirement(s.customers + 1) if s.customers < st.c.cap_customers else None
        if req is None:
            key = (pick, False)
        else:
            robot = st.headline == "synthetic_celebrity" and not st.robot_used
            if s.capability < (max(1, req - 1) if robot else req):
                key = (pick, False)  # not even at a Human Access District with the Home Robot
            elif s.capability >= req and (s.compute >= 1 or st.headline == "ten_dollar_intelligence"):
                key = (pick, True)  # every destination: the requirement met, the cost paid
            else:
                return None
    else:
        return None
    hit = _SHARED.get(key)
    if hit is None:  # the variants from a destination that is not the Frontier
        vs = list(_action_at(st, s, pick, _NOT_FRONTIER, {}, bonus=True, piece_moved=None, tiles=tiles))
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
        vs = list(_agent_swarm(st, s, dest, {}, by_pairs))
    else:
        vs = list(_action_at(st, s, pick, dest, {}, bonus=True, piece_moved=piece_moved, tiles=tiles))
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
        plans: list[list[Any]] = [[_new(ev.Step, piece="ceo", path=[ceo, target])]
                                  for target in _ADJ_SORTED[ceo][:2]]
        far = _FAR[ceo]
        if far:
            plans.append([_new(ev.Step, piece="ceo", path=far[len(far) // 2])])
        cp = _PLANS[("ceo", ceo)] = (plans, [_new(ev.Organize, mode="redistribute", moves=p) for p in plans])
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
                gate_opts.append(_new(ev.Organize, mode="recruit", recruits=2))
        if s.teams_supply >= 1 and s.runway >= cost:
            rest.append(_new(ev.Organize, mode="recruit"))
            step = _ADJ_SORTED[dest][(s.seat + st.cycle) % len(ADJACENT[dest])]
            rest.append(_new(ev.Organize, mode="recruit", then=_new(ev.Step, piece="team", path=[dest, step])))
        if s.runway >= 1 and dest != FRONTIER:
            for no, f in sorted(s.facilities.items()):
                if f.hex != dest:
                    continue
                for to in _ADJ_SORTED[dest]:
                    if to != FRONTIER and hb.has_free_space(st, to):
                        rest.append(_new(ev.Organize, mode="relocate", facility=no, to=to))
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
        u = _new(ev.Organize, mode="redistribute", moves=plan0, return_teams=[teams[-1]])
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
            plan = [_new(ev.Step, piece="team", path=path)]
            tp = _PLANS[("team", h, seat)] = (plan, _new(ev.Organize, mode="redistribute", moves=plan)
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


def _orbital_options(st: GameState, s: SeatState, pick: str) -> Iterator[Any]:
    """Kestralyn, Orbital Compute: instead of moving, move one Facility to any open space."""
    spaces = [h for h in POSITIONS if h != FRONTIER and hb.has_free_space(st, h)]
    if not spaces:
        return
    for no, f in sorted(s.facilities.items()):
        targets = [h for h in spaces if h != f.hex]
        for to in targets[:: max(1, len(targets) // 3)][:3]:
            kw = {"seat": s.seat, "piece": "ceo", "path": [],
                  "orbital": ev.OrbitalMove(facility=no, to=to)}
            yield from _action_at(st, s, pick, s.ceo, kw, bonus=True, piece_moved=None)


def _social_graph_options(st: GameState, s: SeatState) -> Iterator[Any]:
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
        cost = 0 if (tid == "consumer" or st.headline == "ten_dollar_intelligence") else 1
        if s.compute >= cost:
            yield _new(ev.Deploy, seat=s.seat, piece="ceo", path=[s.ceo], remote=h)


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
    st: GameState, s: SeatState, pick: str, dest: str, kw: dict[str, Any], *, bonus: bool,
    piece_moved: tuple[str, list[str]] | None, tiles: dict[str, Any] | None = None,
) -> Iterator[Any]:
    """Options of resolving ``pick`` from ``dest``; ``bonus``: the visit bonus applies.
    ``tiles``: the map's position -> tile table, when the caller has it (:func:`_tiles`).
    :func:`_turn_groups` shares the result between destinations that read alike here (its
    keys name what each pick reads of ``dest``): update them with any new read of ``dest``."""
    here = (tiles if tiles is not None else _tiles(st)).get(dest)
    visit = here.visit_key if (bonus and here is not None) else None
    cat = here.category if here is not None else None
    head = st.headline
    if pick == "fund":
        yield _new(ev.Fund, mode="conservative", **kw)
        yield _new(ev.Fund, mode="venture", **kw)
    elif pick == "research":
        cost = 0 if head == "ten_dollar_intelligence" else 1
        if visit == "compute_discount":
            cost = max(0, cost - 1)
        if s.compute >= cost:
            yield _new(ev.Research, **kw)
            if has_active(st, s, "scaling_law_breakthrough"):
                yield _new(ev.Research, breakthrough=True, **kw)
    elif pick == "build":
        if dest != FRONTIER and len(s.facilities) < 4 and hb.has_free_space(st, dest):
            cost = 2
            if visit == "build_discount":
                cost -= 1
            if has_active(st, s, "industrial_velocity") and s.era.facility_builds == 0:
                cost -= 1
            if s.runway >= max(0, cost):
                yield _new(ev.Build, mode="facility", **kw)
        if st.era >= 2 and cat == "energy" and s.generator is None:
            tile = _tile(st, dest)
            con = st.c.generator_at.get(tile.id) if tile is not None else None
            slots = tile.generator_slots if tile is not None else 0
            cost = con.runway if con is not None else 0
            if (con is not None and con.id == "civic_heat_battery"
                    and head == "reactor_restart_one_model" and not st.beam_used):
                cost = max(0, cost - 1)  # Orbital Power Receives a Beam Corridor
            if con is not None and len(st.gen_slots.get(dest, [])) < slots and s.runway >= cost:
                yield _new(ev.Build, mode="generator", **kw)
    elif pick == "organize":
        yield from _organize(st, s, dest, kw, visit, piece_moved)
    elif pick == "deploy":
        if s.customers < st.c.cap_customers:
            req = st.c.customer_requirement(s.customers + 1)
            tid = st.board.tile(dest)
            if (req is not None and head == "synthetic_celebrity" and not st.robot_used
                    and tid in DEPLOY_DISTRICTS):
                req = max(1, req - 1)  # The Home Robot Requests Expert Assistance
            if req is not None and s.capability >= req:
                cost = 1
                if head == "ten_dollar_intelligence" or visit == "deploy_free":
                    cost = 0
                if tid in DEPLOY_DISTRICTS and has_active(st, s, "installed_base"):
                    cost = 0  # Loopfold, Installed Base
                if visit == "compute_discount" and st.rulings.get(
                        "compute-estate-discount", "first-compute-cost") == "first-compute-cost":
                    cost = max(0, cost - 1)
                if s.compute >= cost:
                    yield _new(ev.Deploy, **kw)
    elif pick == "influence":
        yield from _influence(st, s, dest, kw)
    elif pick == "mega_cluster":
        yield from _mega_cluster(st, s, dest, kw)
    elif pick == "reorganization":
        yield from _reorganization(s, kw, piece_moved)
    elif pick == "covenant":
        yield _new(ev.Covenant, **kw)
    elif pick == "narrative_capture":
        if s.bag >= 1:
            yield _new(ev.NarrativeCapture, mode="remove_scrutiny", **kw)
        yield _new(ev.NarrativeCapture, mode="runway", **kw)
        for r in st.order_from(s.seat)[1:]:
            if st.seat(r).customers > s.customers:
                yield _new(ev.NarrativeCapture, mode="give_scrutiny", target=r, **kw)
    elif pick == "agent_swarm":
        yield from _agent_swarm(st, s, dest, kw)
    elif pick == "fusion":
        tile = _tile(st, dest)
        fus = st.c.fusion
        if (fus is not None and tile is not None and tile.id == fus.tile and st.fusion_owner is None
                and len(st.gen_slots.get(dest, [])) < tile.generator_slots and s.runway >= fus.runway):
            yield _new(ev.Fusion, **kw)


def _organize(
    st: GameState, s: SeatState, dest: str, kw: dict[str, Any], visit: str | None,
    piece_moved: tuple[str, list[str]] | None,
) -> Iterator[Any]:
    ceo, teams = _after_move(s, piece_moved)
    # redistribute: a few representative plans of up to five combined steps
    plans: list[list[ev.Step]] = []
    for target in _ADJ_SORTED[ceo][:2]:
        plans.append([_new(ev.Step, piece="ceo", path=[ceo, target])])
    far = _FAR[ceo]
    if far:
        plans.append([_new(ev.Step, piece="ceo", path=far[len(far) // 2])])
    for h in sorted(set(teams), key=_POS_INDEX.__getitem__)[:2]:
        if h != FRONTIER:
            plans.append([_new(ev.Step, piece="team", path=PATHS[h].get(FRONTIER, [h]))])
        else:
            plans.append([_new(ev.Step, piece="team", path=[h, _ADJ_SORTED[h][s.seat % 6]])])
    for plan in plans:
        if all(len(step.path) > 1 for step in plan):
            yield _new(ev.Organize, mode="redistribute", moves=plan, **kw)
    # recruit one Team at the destination, then optionally move one piece up to two steps
    cost = 2 - (1 if visit == "recruit_discount" else 0)
    gate = st.headline == "humanoid_factory_gate"  # The Last Hazard Shift Is Retired
    if gate:
        cost = 1 - (1 if visit == "recruit_discount" else 0)
        if s.teams_supply >= 2 and s.runway >= cost:
            yield _new(ev.Organize, mode="recruit", recruits=2, **kw)
    if st.headline == "employee_free_unicorn" and teams and plans:
        # The Company Brain Survives Bankruptcy: return deployed Teams for Runway
        yield _new(ev.Organize, mode="redistribute", moves=plans[0], return_teams=[teams[-1]], **kw)
    if s.teams_supply >= 1 and s.runway >= cost:
        yield _new(ev.Organize, mode="recruit", **kw)
        step = _ADJ_SORTED[dest][(s.seat + st.cycle) % len(ADJACENT[dest])]
        yield _new(ev.Organize, mode="recruit", then=_new(ev.Step, piece="team", path=[dest, step]), **kw)
    # relocate one own Facility at the destination to an adjacent hex with a free space
    if s.runway >= 1 and dest != FRONTIER:
        for no, f in sorted(s.facilities.items()):
            if f.hex != dest:
                continue
            for to in _ADJ_SORTED[dest]:
                if to != FRONTIER and hb.has_free_space(st, to):
                    yield _new(ev.Organize, mode="relocate", facility=no, to=to, **kw)
            break


def _influence(st: GameState, s: SeatState, dest: str, kw: dict[str, Any]) -> Iterator[Any]:
    if st.board.tile(dest) in st.c.political:
        if s.trust < st.c.cap_trust:
            yield _new(ev.Influence, mode="trust", **kw)
        if s.bag >= 1:
            yield _new(ev.Influence, mode="scrutiny", **kw)
    if st.era < 3 or dest == FRONTIER:
        return
    own_here = sorted(no for no, f in s.facilities.items() if f.hex == dest)
    if not own_here:
        return
    own_reach = 2 if has_active(st, s, "strategic_partnership") else 1
    either = st.rulings.get("partnership-range", "proposer") == "either-partner"
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
                        yield _new(ev.Influence, mode="jv", facility=no, partner=r, partner_facility=rno,
                                           accepted=accepted, **kw)
            break
    # §7 Influence: at one of your Facilities, terminate one named Joint Venture you share
    for num, j in sorted(st.jvs.items()):
        if s.seat in (j.a_seat, j.b_seat):
            yield _new(ev.Influence, mode="terminate", contract=num, **kw)


def _mega_cluster(st: GameState, s: SeatState, dest: str, kw: dict[str, Any]) -> Iterator[Any]:
    if s.runway < 3 or s.compute < 2 or len(st.megas) >= st.c.mega_pairs:
        return
    facs = sorted(s.facilities.items())
    for (a, fa), (b, fb) in itertools.combinations(facs, 2):
        if fa.mega is not None or fb.mega is not None or dest not in (fa.hex, fb.hex):
            continue
        if not hb.adjacent_hexes(fa.hex, fb.hex):
            continue
        if hb.locally_eligible(st, s, a) and hb.locally_eligible(st, s, b):
            yield _new(ev.MegaCluster, hosts=(a, b), **kw)


def _reorganization(
    s: SeatState, kw: dict[str, Any], piece_moved: tuple[str, list[str]] | None
) -> Iterator[Any]:
    _ceo, teams = _after_move(s, piece_moved)
    toward = [_new(ev.TeamMove, path=[h] if h == FRONTIER else [h, _path(h, FRONTIER)[1]]) for h in teams]
    yield _new(ev.Reorganization, **kw)
    if teams:
        yield _new(ev.Reorganization, team_moves=toward, **kw)
        yield _new(ev.Reorganization, return_team=teams[0], **kw)


def _agent_swarm(st: GameState, s: SeatState, dest: str, kw: dict[str, Any],
                 by_pairs: dict[Any, list[Any]] | None = None) -> Iterator[Any]:
    """Agent Swarm from ``dest``: every pair of unused Core Actions that resolve there (without
    the visit bonus), the bonus to either. ``by_pairs`` (lazy options without ``kw`` only):
    the decision's variant lists by the resolvable actions, shared between destinations."""
    ok = _swarm_ok(st, s, dest)
    if by_pairs is not None:
        key = tuple(ok)
        hit = by_pairs.get(key)
        if hit is None:
            hit = by_pairs[key] = list(_swarm_pairs(ok, kw))
        yield from hit
        return
    yield from _swarm_pairs(ok, kw)


def _swarm_pairs(ok: list[str], kw: dict[str, Any]) -> Iterator[Any]:
    for a, b in itertools.combinations(ok, 2):
        yield _new(ev.AgentSwarm, actions=cast(Any, (a, b)), bonus_to=cast(Any, a), **kw)
        yield _new(ev.AgentSwarm, actions=cast(Any, (a, b)), bonus_to=cast(Any, b), **kw)


def _swarm_ok(st: GameState, s: SeatState, dest: str) -> list[str]:
    """The unused Core Actions that resolve from ``dest`` without the visit bonus."""
    unused = [a for a in CORE_ACTIONS if a not in s.exhausted]
    ok = []
    for a in unused:
        # without a visit bonus Fund and Organize resolve anywhere, Research with its Compute
        if a == "fund" or a == "organize":
            ok.append(a)
            continue
        if a == "research":
            if s.compute >= (0 if st.headline == "ten_dollar_intelligence" else 1):
                ok.append(a)
            continue
        sw = {"seat": s.seat, "swarm": True}
        if next(iter(_action_at(st, s, a, dest, sw, bonus=False, piece_moved=None)), None) is not None:
            ok.append(a)
    return ok


def _swarm_decision(st: GameState, t: Any) -> Decision:
    s = st.seat(t.seat)
    dest = t.dest
    options: list[Any] = []
    for a in dict.fromkeys(t.swarm_left):
        sw = {"seat": s.seat, "swarm": True}
        found = list(_action_at(st, s, a, dest, sw, bonus=(t.swarm_bonus == a), piece_moved=None))
        if not found:
            found = [_blocked(a, sw)]
        options.extend(found)
    return Decision(kind="player", seat=s.seat, options=options,
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


def _blocked(pick: str, kw: dict[str, Any]) -> Any:
    model, extra = _TURN_MODELS[pick]
    return _new(model, blocked=True, **extra, **kw)


def _blocked_events(st: GameState, s: SeatState, pick: str) -> list[Any]:
    """§2 A committed Action that becomes blocked: movement resolves, the action exhausts."""
    if pick not in _TURN_MODELS:
        return []
    out = []
    for piece, start in _pieces(s)[:1]:
        for path in list(PATHS[start].values())[:7]:
            out.append(_blocked(pick, {"seat": s.seat, "piece": piece, "path": path}))
    return out


# --- Training Runs --------------------------------------------------------------------------


#: the options below the turns that are whole events (draws, allocations, Dossier filings,
#: Headline and Era reveals, faction windows, ends of runs, the Era's scorers), built once per
#: process in lazy mode and then shared by every decision and game that offers them: a key holds
#: every field of its event (seats, numbers and content ids), so it never goes stale, and a
#: simulated game never changes an event it records. Some whole decisions (a Dossier filing, bank
#: or continue, Production's start) are kept here too, shared like their options (treat as
#: read-only). The table is bounded: it is cleared when it grows past _OPTIONS_MAX.
_OPTIONS: dict[tuple[Any, ...], Any] = {}
_OPTIONS_MAX = 5_000


def _option(key: tuple[Any, ...], model: type, **fields: Any) -> Any:
    """The event ``model(**fields)`` (``key``: the model and the values of ``fields``): a fresh
    one, or in lazy mode (the simulator) the shared built one, which needs no materialising."""
    if not _LAZY[0]:
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


def _training_decision(st: GameState, passed: frozenset[str]) -> Decision:
    run = st.run
    assert run is not None
    s = st.seat(run.seat)
    if run.duplicate is not None:
        options: list[Any] = [_run_end(s.seat, "crash", 0)]
        if s.protection + run.protection_bonus >= 1:
            options.append(_run_end(s.seat, "protect", banked_value(st)))
        if s.runway >= 1 and has_active(st, s, "scientific_method"):
            options.append(_run_end(s.seat, "method", banked_value(st)))
        return Decision(kind="player", seat=s.seat, options=options,
                        label="a duplicate: crash, protect or Scientific Method")
    if run.ended_by_card:
        return _forced(_run_end(s.seat, "bank", banked_value(st)), "Human Evaluation banks the run")
    if not run.cards or "continue" in passed:
        return _draw(st, s)
    banked = banked_value(st)
    key = ("bank or continue", s.seat, banked)
    shared = _OPTIONS.get(key) if _LAZY[0] else None
    if shared is None:
        shared = Decision(kind="player", seat=s.seat, options=[_run_end(s.seat, "bank", banked), _CONTINUE],
                          label="bank or continue the Training Run")
        if _LAZY[0]:
            _keep_option(key, shared)
    return cast(Decision, shared)


def _run_end(seat: int, outcome: str, banked: int) -> Any:
    return _option((ev.RunEnd, seat, outcome, banked), ev.RunEnd, seat=seat, outcome=outcome, banked=banked)


def _draw(st: GameState, s: SeatState) -> Decision:
    run = st.run
    assert run is not None
    if _LAZY[0] and st.deck_left > 0:
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
    return Decision(kind="chance", options=_draw_options(s.seat, free, tuple(cards)), weights=weights,
                    label="draw a Training card")


def _draw_options(seat: int, free: tuple[str, ...], cards: tuple[str, ...]) -> list[Any]:
    """A Training draw's options: one per card with copies left (``cards``, sorted), Curated
    Corpus once per Domain it may name (``free``); in lazy mode shared by every draw alike."""
    key = (seat, free, cards)  # what the options depend on
    options = _DRAWS.get(key) if _LAZY[0] else None
    if options is None:
        options = []
        for card in cards:
            if card == "curated_corpus" and free:
                for d in free:
                    options.append(_option((ev.Draw, seat, card, d), ev.Draw, seat=seat, card=card, domain=d))
            else:
                options.append(_option((ev.Draw, seat, card), ev.Draw, seat=seat, card=card))
        if _LAZY[0]:
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
    if _DECK_FACES[0] is not c:
        faces = tuple(sorted(c.training))  # the deck's faces at setup
        _DECK_FACES[:] = [c, (faces, frozenset(faces), tuple(sorted(c.domains)),
                              faces.index("curated_corpus") if "curated_corpus" in faces else -1)]
    faces, faceset, domains, corpus = _DECK_FACES[1]
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
    return Decision(kind="chance", options=_draw_options(seat, free, cards), weights=weights,
                    label="draw a Training card")


#: [content, (the Training deck's faces sorted, as a set, the Domains sorted, Curated Corpus's
#: place among the faces)] for the last content seen (one per process in practice)
_DECK_FACES: list[Any] = [None, None]


#: a Training draw's lazy options by (seat, the cards in the pool, the Domains Curated Corpus
#: may name): shared by every game of the process (treat as read-only); bounded
_DRAWS: dict[tuple[Any, ...], list[Any]] = {}


# --- Production, Dossier, Audit -------------------------------------------------------------


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


def allocation_options(st: GameState, s: SeatState) -> list[ev.Allocate]:
    """Maximal feasible allocations for the seat: with and without Mega-Cluster demand, and
    with emergency Power while The Counterfactual Casino Clears Priority Load is in force.

    In lazy mode (the simulator) the list is shared by every allocation with the same
    :func:`_allocation_key` (treat as read-only)."""
    if not _LAZY[0]:
        return _allocation_options(st, s)
    return cast(list[ev.Allocate], _allocation_decision(st, s).options)


def _allocation_decision(st: GameState, s: SeatState) -> Decision:
    """The seat's allocation decision; in lazy mode shared by every allocation with the same
    :func:`_allocation_key` (treat as read-only)."""
    if not _LAZY[0]:
        return Decision(kind="player", seat=s.seat, options=_allocation_options(st, s),
                        label=f"seat {s.seat} allocates Power")
    key = _allocation_key(st, s)
    hit = _ALLOCATIONS.get(key)
    if hit is None:
        if len(_ALLOCATIONS) >= 5_000:
            _ALLOCATIONS.clear()
        hit = _ALLOCATIONS[key] = Decision(kind="player", seat=s.seat, options=_allocation_options(st, s),
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
                key.append(("mega", num, tuple(m.hosts), st.rulings.get("mega-cluster-demand"),
                            fa is not None and fb is not None and hb.adjacent_hexes(fa.hex, fb.hex),
                            *[f is not None and f.hex in n for f in (fa, fb) for n in near]))
    return tuple(key)


#: each position's hexes within one step, itself included (``hex_board.near(a, b)`` is
#: ``b in _WITHIN_ONE[a]``; an unknown or missing hex is near nothing)
_WITHIN_ONE: dict[str | None, frozenset[str]] = {
    a: frozenset(b for b in POSITIONS if DISTANCE[a][b] <= 1) for a in POSITIONS}
_NOWHERE: frozenset[str] = frozenset()


def _allocation_options(st: GameState, s: SeatState) -> list[ev.Allocate]:
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
                out.append(_option((ev.Allocate, s.seat, *key), ev.Allocate, seat=s.seat, facilities=chosen_f,
                                   mega_clusters=chosen_m, emergency=emergency))
    return out


def _production_begins() -> Decision:
    """The ``phase: production`` marker (one shared decision in lazy mode)."""
    if not _LAZY[0]:
        return _forced(ev.Phase(name="production"), "Production begins")
    d = _OPTIONS.get(("production begins",))
    if d is None:
        d = _keep_option(("production begins",),
                         _forced(_option((ev.Phase, "production"), ev.Phase, name="production"), "Production begins"))
    return cast(Decision, d)


def _production(st: GameState) -> Decision:
    for seat in st.initiative_order():
        s = st.seat(seat)
        if not s.allocated:
            if not s.facilities:
                return _forced(_option((ev.Allocate, seat), ev.Allocate, seat=seat),
                               f"seat {seat} has no Facility to power")
            return _allocation_decision(st, s)
    return Decision(kind="end", label="Production is waiting for its allocations")


def _workforce(st: GameState, passed: frozenset[str]) -> Decision | None:
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
        opts: list[Any] = []
        for h in sorted(set(s.teams), key=POSITIONS.index)[:2]:
            for to in _ADJ_SORTED[h][:2]:
                opts.append(_new(ev.WorkforceMove, seat=seat, facility=fac, path=[h, to]))
        return Decision(kind="player", seat=seat, options=[*opts, Pass(key, "no Workforce move")],
                        label=f"seat {seat} may move a Team (Workforce Transition District)")
    return None


def _dossier(st: GameState, seat: int) -> Decision:
    key = ("dossier", seat, st.era)
    hit = _OPTIONS.get(key) if _LAZY[0] else None
    if hit is None:
        hit = Decision(kind="player", seat=seat, options=[
            _option((ev.DossierFile, seat, "commit"), ev.DossierFile, seat=seat, orientation="commit"),
            _option((ev.DossierFile, seat, "hedge"), ev.DossierFile, seat=seat, orientation="hedge")],
            label=f"seat {seat} files the {DOSSIER_CARDS.get(st.era, '')} Dossier")
        if _LAZY[0]:
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


def _audit(st: GameState) -> Decision:
    """Every multiset of drawn cubes, with its multivariate hypergeometric probability."""
    colours: list[int | str] = [s.seat for s in st.seats if s.bag > 0]
    counts = [st.seat(c).bag for c in colours if isinstance(c, int)]
    if st.black:
        colours.append("black")
        counts.append(st.black)
    # (not kept for later: over 150 games, 92% of the Audits drew from a bag no earlier one had)
    opts, weights = _audit_options(colours, counts, audit_draw_count(st))
    return Decision(kind="chance", options=opts, weights=weights, label="draw the Audit")


def _audit_options(colours: list[int | str], counts: list[int], k: int) -> tuple[Sequence[Any], list[float]]:
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
    if _LAZY[0]:
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


# --- values the table writes from the state -------------------------------------------------


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
    elif t is tuple:
        r = tuple([x if type(x) in _ATOMIC else _copy(x, memo) for x in o])
        memo[i] = r
    else:
        names = _SLOTS.get(t)
        if names is None:
            names = _slot_names(t)
        if names:
            r = memo[i] = object.__new__(t)
            for name in names:
                v = getattr(o, name, _MISSING)
                if v is not _MISSING:
                    object.__setattr__(r, name, v if type(v) in _ATOMIC else _copy(v, memo))
        else:
            r = copy.deepcopy(o, memo)
    return r


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slot_names(t: type) -> tuple[str, ...]:
    """The slots of a slotted dataclass that :func:`_copy` may copy field by field; empty for
    any other class (left to :func:`copy.deepcopy`)."""
    names = _SLOTS.get(t)
    if names is None:
        if (getattr(t, "__dataclass_fields__", None) is not None and "__slots__" in t.__dict__
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


def era_mandate_event(st: GameState) -> ev.EraMandate:
    """The Era Mandate scoring as the table writes it: whoever the rules score (§6F)."""
    from engine.mandate2038.era_sequence import compute_era_mandate

    card = st.c.mandates.get(st.mandate_card) if st.mandate_card else None
    if card is None:  # the card was not recorded: the engine scores nothing to compare
        return ev.EraMandate()
    scorers, _values = compute_era_mandate(st, card)
    return cast(ev.EraMandate, _option((ev.EraMandate, *scorers), ev.EraMandate, scorers=scorers))


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
    namespace: dict[str, Any] = {"new": object.__new__, "t": t}
    exec(f"def shallow(o):\n    r = new(t)\n{body}    return r\n", namespace)  # noqa: S102
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
    """The values of the final record of a complete game, read from the state without playing
    final scoring forward; None (a copy is scored instead) unless the game is complete
    (not a partial log), :func:`_settled` and not yet scored.

    It is ``compute_final``'s arithmetic (core rules §11) for that case, where the Era's end and
    the engine's checks before it change nothing the record reads: each seat loses one Mandate
    per offline Facility, never below zero (§11.1); the provisional winners have the most
    Mandate, ties by Trust, Customers, Compute (§11.2); the claims are ``claim_of``'s (§5),
    the strongest eligible one by strength, then Mandate, Trust, Customers, Compute and the
    Initiative order of the ruling final-claim-initiative, forms AGI (§11.3); Open needs
    Collective Trust >= Setup Collective Trust + players and Systemic Risk < players (§11.4).
    The engine still scores the game and compares every field when the record is applied
    (``compare_record``), and ``tests/test_simulate_phases.py`` compares the record with the
    one scored on a full copy over whole games."""
    if st.partial or st.final_done or not _settled(st):
        return None
    from engine.mandate2038.final_scoring import claim_of

    penalty = st.c.scoring.offline_penalty
    offline: dict[int, int] = {}
    rank: dict[int, tuple[int, int, int, int]] = {}
    for s in st.seats:
        k = sum(1 for f in s.facilities.values() if not f.powered)
        offline[s.seat] = k
        rank[s.seat] = (s.mandate - min(s.mandate, k * penalty), s.trust, s.customers, s.compute)
    best = max(rank.values())
    provisional = [seat for seat, r in rank.items() if r == best]
    blog = any(e == 4 and h == "agi_blog_post" for e, _c, h in st.headlines_seen)
    claims = [cl for cl in (claim_of(st, s, blog) for s in st.seats) if cl is not None]
    eligible = [cl for cl in claims if cl["eligible"]]
    claimant = None
    if eligible:
        after_pass = st.rulings.get("final-claim-initiative", "after-last-pass") == "after-last-pass"
        order = st.order_from(st.initiative % st.n + 1) if after_pass else st.initiative_order()
        claimant = max(eligible, key=lambda cl: (cl["strength"], *rank[cl["seat"]],
                                                 -order.index(cl["seat"])))["seat"]
    agi = claimant is not None
    ct = sum(s.trust for s in st.seats)
    threshold = st.setup_trust + st.n
    sr = st.systemic_risk_final if st.systemic_risk_final is not None else st.black
    is_open = ct >= threshold and sr < st.n
    ending = st.c.endings.get((agi, is_open))
    return {"offline": offline, "provisional_winners": provisional, "claims": claims, "claimant": claimant,
            "agi": agi, "winners": [claimant] if claimant is not None else provisional,
            "collective_trust": ct, "open_threshold": threshold, "systemic_risk": sr, "open": is_open,
            "ending": ending.id if ending is not None else None}


def final_record_event(st: GameState, full_copy: bool = False) -> ev.FinalRecord:
    """The Governance Board's final public record: :func:`_final_values` when it applies, else
    filled from the engine's final scoring applied to a copy of the state
    (:func:`_final_scoring_copy` when it applies, else a full copy, or always with ``full_copy``)."""
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


def _spec(model: type, **fields: Any) -> Any:
    """A :class:`Spec` of ``model`` with ``fields`` (what :func:`_new` gives in lazy mode)."""
    o: Any = object.__new__(_SPECS.get(model) or _spec_class(model))
    o.__dict__ = fields
    return o
