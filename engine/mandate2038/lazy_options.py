"""The move generator's building blocks: lazy options (:class:`Spec`, the grouped turn
options :class:`Options`), one path per reachable destination (:data:`PATHS`) and the map's tiles.

Part of the legal-move generator (:mod:`engine.mandate2038.moves`); nothing here does I/O or
uses randomness.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, Union, cast, get_args, get_origin, overload

from pydantic import BaseModel as _BaseModel

from engine.core.ruleset import Decision
from engine.mandate2038 import hex_board as hb
from engine.mandate2038.board import ADJACENT, POSITIONS, WITHIN_TWO
from engine.mandate2038.state import GameState


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


# The generator's two option constructors. The mode is the call's: ``legal_moves`` passes
# ``lazy`` down, and the functions that build turn options take the constructor (``new``)
# chosen once per call, so eager and lazy calls may run side by side (threads, or a lazy call
# made while an eager one is in progress) without reading each other's mode.


def _event(model: type, **fields: Any) -> Any:
    """An eager option: the validated event ``model(**fields)``."""
    return model(**fields)


def _spec(model: type, **fields: Any) -> Any:
    """A lazy option: the :class:`Spec` of ``model(**fields)`` (built by ``materialize()``)."""
    o: Any = object.__new__(_SPECS.get(model) or _spec_class(model))
    o.__dict__ = fields
    return o


def _option_maker(lazy: bool) -> Callable[..., Any]:
    """The option constructor of a ``legal_moves`` call: :func:`_spec` when ``lazy``."""
    return _spec if lazy else _event


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


_TILES: dict[int, tuple[Any, dict[str, Any]]] = {}


#: the last board looked up and its table (the common case), as one pair: read and replaced
#: whole, so a thread never pairs one game's board with another game's table
_LAST_TILES: list[tuple[Any, dict[str, Any]]] = [(None, {})]


def _tiles(st: GameState) -> dict[str, Any]:
    """Position -> Tile of this game's map (cached per board; the map never changes)."""
    board = st.board
    last = _LAST_TILES[0]
    if last[0] is board:
        return last[1]
    hit = _TILES.get(id(board))
    if hit is not None and hit[0] is board:
        _LAST_TILES[0] = hit
        return hit[1]
    table = {}
    for pos in POSITIONS:
        tid = board.tile(pos)
        table[pos] = st.c.tiles.get(tid) if tid else None
    if len(_TILES) > 256:
        _TILES.clear()
    _TILES[id(board)] = _LAST_TILES[0] = (board, table)
    return table


class _BoardSets:
    """Per map (cached like :func:`_tiles`): the positions of political tiles, and every
    position's Facility spaces (as ``hb.facility_spaces``)."""

    __slots__ = ("board", "political", "spaces")

    def __init__(self, st: GameState) -> None:
        self.board = st.board
        self.political = frozenset(p for p in POSITIONS if st.board.tile_at.get(p) in st.c.political)
        self.spaces = {p: hb.facility_spaces(st, p) for p in POSITIONS}


_T = TypeVar("_T")


def _per_board(slot: list[Any], st: GameState, make: Callable[[GameState], _T]) -> _T:
    """``make(st)``, kept in ``slot`` (a one-item list) while the board is the same: a table of
    the map's positions, built once per game (each game has its own map)."""
    hit = slot[0]
    if hit is None or hit.board is not st.board:
        hit = slot[0] = make(st)
    return cast(_T, hit)


_LAST_SETS: list[_BoardSets | None] = [None]


def _board_sets(st: GameState) -> _BoardSets:
    return _per_board(_LAST_SETS, st, _BoardSets)


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
