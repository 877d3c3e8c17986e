"""Rulings as one mechanism for every game (issue 16, engine/core/options.py): Mandate 2038's
rulings and Vestige's declared values are read from files of one format, resolved per replay
from a spec or a mapping, and a bad spec is an error naming what is wrong."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.core.options import (
    Rulings,
    RulingsError,
    book_for,
    load_book,
    resolve_options,
    rulings_files,
)


@pytest.mark.needs_game("mandate2038")
def test_a_spec_text_and_a_mapping_resolve_the_same_options() -> None:
    text = resolve_options("mandate2038", "executable,cpa-controller=most-copies")
    mapping = resolve_options("mandate2038", {**book_for("mandate2038").sets["executable"],
                                              "cpa-controller": "most-copies"})
    assert dict(text) == dict(mapping)
    assert text["cpa-controller"] == "most-copies" and text.tag("cpa-controller") == \
        "cpa-controller=most-copies"
    assert "cpa-controller=most-copies" in text.spec().split(",")
    assert resolve_options("mandate2038").spec() == ""  # the defaults differ from nothing


@pytest.mark.needs_game("mandate2038")
@pytest.mark.parametrize(("spec", "named"), [
    ("no-such-set", "no-such-set"), ("cpa-controller=nope", "nope"),
    ({"no-such-ruling": "x"}, "no-such-ruling"),
])
def test_a_bad_spec_names_what_is_wrong(spec: object, named: str) -> None:
    with pytest.raises(RulingsError, match=named):
        resolve_options("mandate2038", spec)  # type: ignore[arg-type]


@pytest.mark.needs_game("vestige")
def test_vestige_declared_values_are_rulings_with_values() -> None:
    book = book_for("vestige")
    r = book.rulings["garage_speed"]
    assert r.default == "declared" and r.values["declared"] == 1
    assert "Garage" in r.seed_says  # the source text the value stands in for
    chosen = resolve_options("vestige", "garage_speed=declared")
    assert chosen.value("garage_speed") == 1


@pytest.mark.needs_game("vestige")
def test_a_declared_value_is_switched_per_replay_through_the_content_sheet() -> None:
    from engine.vestige.content import CONTENT, content_for

    book = book_for("vestige")
    two = dataclasses.replace(book.rulings["garage_speed"],
                              options={"declared": "+1", "two": "+2"},
                              values={"declared": 1, "two": 2})
    wider = dataclasses.replace(book, rulings={**book.rulings, "garage_speed": two})
    assert content_for(wider.resolve("garage_speed=two")).garage_speed == 2
    assert content_for(wider.resolve(None)) is CONTENT and CONTENT.garage_speed == 1


def test_book_parts_merge_and_a_ruling_defined_twice_is_an_error(tmp_path) -> None:
    def ruling(rid: str) -> dict[str, object]:
        return {"id": rid, "topic": "t", "seed_says": "p. 1", "options": {"a": "A", "b": "B"},
                "values": {"a": 1, "b": 2}, "default": "a", "why_default": "w"}

    (tmp_path / "v1.json").write_text(json.dumps({
        "game": "g", "rules_version": "v1", "rulings_version": 3, "rulings": [ruling("x")],
        "sets": {"bee": {"x": "b"}}}))
    (tmp_path / "v1.extra.json").write_text(json.dumps({"rulings": [ruling("y")]}))
    files = rulings_files(tmp_path, "v1")
    assert [f.rsplit("/", 1)[1] for f in files] == ["v1.json", "v1.extra.json"]
    book = load_book(files)
    assert set(book.rulings) == {"x", "y"} and book.version == 3
    chosen = book.resolve("bee,y=b")
    assert isinstance(chosen, Rulings) and chosen.value("x") == 2 and chosen.value("y") == 2
    (tmp_path / "v2.json").write_text(json.dumps({"rules_version": "v2",
                                                  "rulings": [ruling("x")]}))
    (tmp_path / "v2.dup.json").write_text(json.dumps({"rulings": [ruling("x")]}))
    with pytest.raises(RulingsError, match="x is defined twice"):
        load_book(rulings_files(tmp_path, "v2"))


@pytest.mark.needs_game("mandate2038", "vestige")
def test_the_rulings_in_force_live_on_each_replays_state() -> None:
    from engine.core.findings import FindingSink
    from engine.core.registry import get_ruleset
    from engine.simulate import simulate_one

    rs = get_ruleset("mandate2038")
    assert rs is not None
    header = simulate_one(3, 0, 3).header
    a = rs.setup(header.model_copy(update={"rulings": "engine-2026-11"}), FindingSink(rs.catalogue))
    b = rs.setup(header, FindingSink(rs.catalogue))
    assert isinstance(a.rulings, Rulings) and a.rulings["cpa-controller"] == "most-copies"
    assert b.rulings["cpa-controller"] == "each-copy"  # not shared with the other replay


def test_every_game_header_can_name_rulings() -> None:
    from engine.core.registry import rulesets

    for rs in rulesets().values():
        assert "rulings" in rs.header_model.model_fields, rs.game
