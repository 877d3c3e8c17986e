"""Events are immutable (schemas.log.Frozen): assigning a field of an event, or of a model an
event holds, raises; every event model of every registered game, and every model nested in
one, is frozen (the canonical reader's parsed-line cache hands one event out more than once)."""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from engine.core.registry import rulesets
from schemas.log import BaseHeader, Frozen, Strict, all_frozen, model_classes
from schemas.mandate2038.log import EVENT_ADAPTER as MANDATE_EVENTS
from schemas.mandate2038.log import Checkpoint, Fund, MandateLog, SeatValues
from schemas.vestige.log import EVENT_ADAPTER as VESTIGE_EVENTS


def _event_models(adapter: TypeAdapter[Any]) -> list[type[BaseModel]]:
    """The members of a game's event union, read from its annotation (not its core schema)."""
    ann = adapter._type  # the Annotated[Union[...], Field(discriminator=...)] the game declared
    union = typing.get_args(ann)[0] if typing.get_origin(ann) is typing.Annotated else ann
    return [m for m in typing.get_args(union) if isinstance(m, type) and issubclass(m, BaseModel)]


def _nested_models(model: type[BaseModel]) -> set[type[BaseModel]]:
    """``model`` and every model its fields' annotations name, recursively (from the
    annotations, independently of :func:`schemas.log.model_classes`)."""
    found: set[type[BaseModel]] = set()
    todo: list[Any] = [model]
    while todo:
        t = todo.pop()
        if isinstance(t, type) and issubclass(t, BaseModel):
            if t in found:
                continue
            found.add(t)
            todo.extend(f.annotation for f in t.model_fields.values())
        elif typing.get_origin(t) is not None or isinstance(t, types.UnionType):
            todo.extend(typing.get_args(t))
    return found


def test_an_event_cannot_be_assigned() -> None:
    ev = Fund(seat=1, path=["F", "I1"])
    with pytest.raises(ValidationError) as err:
        ev.seat = 2  # type: ignore[misc]
    assert err.value.errors()[0]["type"] == "frozen_instance"
    assert ev.seat == 1


def test_a_model_inside_an_event_cannot_be_assigned() -> None:
    cp = Checkpoint(seats=[SeatValues(seat=1, runway=3)])
    with pytest.raises(ValidationError):
        cp.seats[0].runway = 4  # type: ignore[misc]
    assert cp.seats[0].runway == 3


def test_an_event_read_from_json_cannot_be_assigned() -> None:
    for adapter, line in ((MANDATE_EVENTS, b'{"type": "draw", "seat": 2, "card": "x"}'),
                          (VESTIGE_EVENTS, b'{"type": "round_start", "round": 1}')):
        ev = adapter.validate_json(line)
        with pytest.raises(ValidationError):
            ev.comment = "changed"


def test_a_changed_event_is_a_copy() -> None:
    ev = Fund(seat=1)
    changed = ev.model_copy(update={"frontier_bonus": True})
    assert changed.frontier_bonus and not ev.frontier_bonus and changed is not ev


def test_every_event_of_every_registered_game_is_frozen() -> None:
    games = rulesets()
    assert {"mandate2038", "vestige"} <= set(games)
    for gid, rs in games.items():
        events = _event_models(rs.event_adapter)
        assert events, gid
        # every event type the game declares is a member of its union
        assert {m.model_fields["type"].default for m in events} >= set(rs.event_types), gid
        declared = set().union(*(_nested_models(m) for m in events))
        not_frozen = sorted(m.__name__ for m in declared if m.model_config.get("frozen") is not True)
        assert not_frozen == [], f"{gid}: {not_frozen}"
        assert all(issubclass(m, Frozen) for m in declared), gid
        # the reader's check (schemas.log.all_frozen) sees the same models
        assert model_classes(rs.event_adapter.core_schema) == declared, gid
        assert all_frozen(rs.event_adapter.core_schema), gid


def test_headers_are_not_frozen_and_a_log_is_not_shareable() -> None:
    # headers stay mutable models (not cached); the check says a whole log is not frozen
    assert issubclass(BaseHeader, Strict) and not issubclass(BaseHeader, Frozen)
    assert not all_frozen(TypeAdapter(MandateLog).core_schema)
