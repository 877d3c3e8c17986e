"""The simulator builds its events and logs without re-validating them (engine speed, issue 7):
``moves.Spec.materialize`` constructs the chosen event from its fields and
``engine.simulate.build_log`` assembles the log from validated models. These tests prove that
both give exactly what pydantic validation gives, over whole games of every player count and
bot kind, value types and fields set included, and that anything validation would convert or
reject still goes through validation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

import engine.mandate2038.moves as moves
from engine.simulate import build_log, simulate_one
from schemas.canonical import dumps_log
from schemas.mandate2038 import (
    AgentSwarm,
    Audit,
    Fund,
    MandateLog,
    MegaCluster,
    Organize,
    Phase,
)
from schemas.vestige import VestigeLog


def _shape(x: Any, fields_set: bool = True) -> Any:
    """A value with every type spelled out (``True`` and ``1`` differ here, unlike ``==``);
    with ``fields_set``, each model's set of given fields too."""
    if isinstance(x, BaseModel):
        return (type(x), tuple((k, _shape(v, fields_set)) for k, v in x.__dict__.items()),
                frozenset(x.model_fields_set) if fields_set else None,
                x.__pydantic_extra__, x.__pydantic_private__)
    if isinstance(x, (list, tuple)):
        return (type(x), tuple(_shape(v, fields_set) for v in x))
    return (type(x), x)


def _validated(spec: moves.Spec) -> Any:
    fields = {k: moves._built(v) for k, v in spec.__dict__.items()}
    return spec._model.__pydantic_validator__.validate_python(fields)


def test_every_built_event_equals_the_validated_one_over_whole_games(monkeypatch) -> None:
    built_models: set[str] = set()
    fast = moves.Spec.materialize

    def checked(self: moves.Spec) -> Any:
        event = fast(self)
        ref = _validated(self)
        assert _shape(event) == _shape(ref), (self, event, ref)
        assert event == ref
        built_models.add(type(event).__name__)
        return event

    monkeypatch.setattr(moves.Spec, "materialize", checked)
    for players in (3, 4, 5):
        for bots in ("random", "heuristic", "mixed"):
            for i in range(3):
                log = simulate_one("build", i, players, bots)
                # the whole log is what validating its canonical text gives back (the text
                # leaves defaults out, so only the fields set may differ)
                again = MandateLog.model_validate_json(dumps_log(log))
                assert dumps_log(again) == dumps_log(log)
                assert _shape(again, fields_set=False) == _shape(log, fields_set=False)
    # the game's common events and the nested ones were all compared (Training draws, run ends,
    # allocations, Headline reveals and Dossier filings are offered already built and validated:
    # moves._option)
    assert {"Fund", "Build", "Research", "Organize", "Step", "Trade", "Audit"} <= built_models


def _spec(model: type, **fields: Any) -> moves.Spec:
    o: Any = object.__new__(moves._spec_class(model))
    o.__dict__ = fields
    return o


def test_built_events_copy_lists_build_nested_specs_and_shape_tuples() -> None:
    path = ["F", "I1"]
    e = _spec(Fund, seat=1, path=path, mode="venture").materialize()
    assert e == Fund(seat=1, path=["F", "I1"], mode="venture")
    assert e.path == path and e.path is not path  # the generator's shared paths stay its own
    assert list(e.__dict__) == list(Fund.model_fields)
    assert e.model_fields_set == {"seat", "path", "mode"}
    step = _spec(moves.ev.Step, piece="team", path=["O1", "I1"])
    org = _spec(Organize, seat=2, path=["O1"], mode="recruit", then=step).materialize()
    assert org == Organize(seat=2, path=["O1"], mode="recruit",
                           then={"piece": "team", "path": ["O1", "I1"]})
    hosts = _spec(MegaCluster, seat=1, hosts=[1, 2]).materialize()
    assert hosts.hosts == (1, 2) and type(hosts.hosts) is tuple
    swarm = _spec(AgentSwarm, seat=1, actions=("fund", "build")).materialize()
    assert _shape(swarm) == _shape(AgentSwarm(seat=1, actions=("fund", "build")))
    assert _spec(Audit, draws=[1, "black"]).materialize() == Audit(draws=[1, "black"])
    fresh = _spec(Fund, seat=1).materialize()
    assert fresh.path == [] and fresh.path is not _spec(Fund, seat=2).materialize().path


def test_a_spec_that_does_not_fit_its_model_is_validated() -> None:
    with pytest.raises(ValidationError):
        _spec(Fund, path=["F"]).materialize()  # the seat is required
    with pytest.raises(ValidationError):
        _spec(Fund, seat=1, colour="red").materialize()  # unknown field
    with pytest.raises(ValidationError):
        _spec(Phase, name="no-such-phase", extra=1).materialize()
    # a dict for a nested model: validation builds the model
    org = _spec(Organize, seat=2, mode="recruit", then={"piece": "ceo", "path": ["F"]})
    assert org.materialize().then == moves.ev.Step(piece="ceo", path=["F"])


def test_a_log_of_validated_models_is_assembled_without_revalidation_else_validated() -> None:
    log = simulate_one("build-log", 0, 4, "mixed")
    header, events = log.header, list(log.events)
    built = build_log(MandateLog, header, events)
    ref = MandateLog(header=header, events=events)
    assert built == ref and _shape(built) == _shape(ref)
    assert built.events is events  # not copied: nothing was validated again
    # anything but the log's own event models is validated (and a bad one rejected)
    as_dicts = [e.model_dump() for e in events]
    assert build_log(MandateLog, header, as_dicts) == ref
    with pytest.raises(ValidationError):
        build_log(MandateLog, header, [*events, {"type": "no-such-event"}])
    with pytest.raises(ValidationError):
        build_log(VestigeLog, header, events)  # another game's header and events
