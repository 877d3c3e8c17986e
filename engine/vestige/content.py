"""The Vestige component sheet (``data/content/vestige/``): what the rulebook states, with its
page (``stated.json``), and the values it does not print, each *declared* (a stand-in a designer
confirms): a ruling with a ``declared`` option and its value in
``rulings/<rules version>.declared.json``, the mechanism every game shares for what its rules
leave open (engine/core/options.py, docs/notes/game-declaration.md).

Rules code reads numbers only from :data:`CONTENT` (the declared defaults) or from
:func:`content_for` the rulings of a replay. Each declared value has a name (its ruling id); a
check that rests on one calls ``state.rest_on(name)`` so the engine can list, per game, which
checks rested on declared values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from engine.core.options import OptionBook, Rulings, load_book, rulings_files

ROOT = Path(__file__).resolve().parents[2] / "data" / "content" / "vestige"
RULINGS_DIR = ROOT / "rulings"
#: the rules version whose declared values :data:`CONTENT` holds (schemas.vestige.RULES_VERSION)
CONTENT_VERSION = "rulebook-1"

JsonDict = dict[str, object]


def _read(name: str) -> JsonDict:
    return cast(JsonDict, json.loads((ROOT / name).read_text(encoding="utf-8")))


def _values(doc: JsonDict) -> dict[str, JsonDict]:
    return cast(dict[str, JsonDict], doc["values"])


@dataclass(frozen=True, slots=True)
class Content:
    stated: dict[str, int]
    stated_where: dict[str, str]
    declared_notes: dict[str, str]
    secondary: dict[str, tuple[str, str]]
    contact_attribute: dict[str, str]
    contact_jobs: dict[str, frozenset[str]]
    card_colour: dict[str, str]
    base_regions: dict[str, int]
    extra_regions: frozenset[str]
    repeatable: frozenset[str]
    no_visit_effect: frozenset[str]
    box: dict[str, int]  # cards of each kind in the box (Game Components)
    box_blocks: int  # blocks of one player colour (20 and the speed counter)
    box_nemesis_blocks: int
    # declared
    start_letters: dict[str, int]
    setup_other_blocks: dict[str, int]
    region_leverage: dict[str, int]
    locked_regions: frozenset[str]
    garage_speed: int
    speed_leverage: dict[int, int]
    max_speed: int
    trigger_points: tuple[int, ...]
    magenta_triggers: frozenset[int]
    mastery_leverage: dict[str, int]
    chop_bot_colour: str

    def secondary_of(self, a: str, b: str) -> str | None:
        """The secondary attribute between two different primaries on the wheel."""
        for sec, pair in self.secondary.items():
            if {a, b} == set(pair):
                return sec
        return None


def declared_book(rules_version: str = CONTENT_VERSION) -> OptionBook:
    """The rulings book holding the declared values (and any other Vestige rulings)."""
    return load_book(rulings_files(RULINGS_DIR, rules_version))


def _declared(rulings: Rulings) -> dict[str, dict[str, Any]]:
    """Declared value name -> {"value", "note"} under ``rulings`` (the options in force)."""
    book = rulings.book
    assert book is not None
    return {rid: {"value": rulings.value(rid), "note": r.seed_says}
            for rid, r in book.rulings.items() if r.values}


def load(rulings: Rulings | None = None) -> Content:
    """The component sheet with the declared values of ``rulings`` (default: every default)."""
    if rulings is None:
        rulings = declared_book().defaults()
    st = _read("stated.json")
    sv, dv = _values(st), _declared(rulings)
    wheel = cast(dict[str, dict[str, object]], st["wheel"])
    regions = cast(dict[str, object], st["regions"])

    def d(name: str) -> object:
        return dv[name]["value"]

    return Content(
        stated={k: cast(int, v["value"]) for k, v in sv.items()},
        stated_where={k: f"{v['page']}, {v['section']}" for k, v in sv.items()},
        declared_notes={k: str(v["note"]) for k, v in dv.items()},
        secondary={k: (v[0], v[1]) for k, v in cast(dict[str, list[str]], wheel["secondary"]).items()},
        contact_attribute=cast(dict[str, str], wheel["contact_attribute"]),
        contact_jobs={k: frozenset(v) for k, v in cast(dict[str, list[str]], wheel["contact_jobs"]).items()},
        card_colour=cast(dict[str, str], wheel["card_colour"]),
        base_regions=cast(dict[str, int], regions["base"]),
        extra_regions=frozenset(cast(list[str], regions["extra"])),
        repeatable=frozenset(cast(list[str], regions["repeatable"])),
        no_visit_effect=frozenset(cast(list[str], regions["no_visit_effect"])),
        box=cast(dict[str, int], cast(dict[str, object], st["components"])["cards"]),
        box_blocks=cast(int, cast(dict[str, object], st["components"])["blocks_per_colour"]),
        box_nemesis_blocks=cast(int, cast(dict[str, object], st["components"])[
            "nemesis_blocks_per_colour"]),
        start_letters=cast(dict[str, int], d("start_letters")),
        setup_other_blocks=cast(dict[str, int], d("setup_other_blocks")),
        region_leverage=cast(dict[str, int], d("region_leverage")),
        locked_regions=frozenset(cast(list[str], d("locked_regions"))),
        garage_speed=cast(int, d("garage_speed")),
        speed_leverage={int(k): v for k, v in cast(dict[str, int], d("speed_track_leverage")).items()},
        max_speed=cast(int, d("max_speed")),
        trigger_points=tuple(cast(list[int], d("trigger_points"))),
        magenta_triggers=frozenset(cast(list[int], d("magenta_triggers"))),
        mastery_leverage=cast(dict[str, int], d("mastery_leverage")),
        chop_bot_colour=cast(str, d("chop_bot_colour")),
    )


def content_for(rulings: Rulings) -> Content:
    """The component sheet of one replay: :data:`CONTENT` with the declared values of the
    options in force (``state.rulings``); :data:`CONTENT` itself when they are the defaults."""
    book = rulings.book
    if book is None or all(rulings.get(rid, r.default) == r.default
                           for rid, r in book.rulings.items() if r.values):
        return CONTENT
    return load(rulings)


CONTENT = load()


#: the printed numbers a rules variant may change, by their name in ``stated`` (the rules code
#: reads these from ``state.content``): engine/vestige/loop.py declares their bounds
VARIANT_STATED: tuple[str, ...] = ("endgame_needed", "chop_shop_leverage", "ingenuity_mastery",
                                   "bone_goal_regions")


def values(content: Content = CONTENT) -> dict[str, dict[str, int]]:
    """The numbers a Vestige rules variant addresses by path (``stated.endgame_needed``,
    ``region_leverage.trench``, ``mastery_leverage.red``): the printed values a variant may
    change and the declared ones (docs/variants.md)."""
    return {"stated": {k: content.stated[k] for k in VARIANT_STATED},
            "region_leverage": dict(content.region_leverage),
            "mastery_leverage": dict(content.mastery_leverage)}


def with_changes(content: Content, changes: Mapping[str, Any]) -> Content:
    """``content`` with a variant's changes (paths of :func:`values`); ValueError naming a
    path Vestige's numbers do not hold, or a value that is not a whole number."""
    data = values(content)
    for path, value in changes.items():
        top, _, key = path.partition(".")
        if key not in data.get(top, {}):
            raise ValueError(f"the variant changes {path}, which is not a number of Vestige a "
                             "variant may change")
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"the variant sets {path} to {value!r}, not a whole number")
        data[top][key] = value
    return replace(content, stated={**content.stated, **data["stated"]},
                   region_leverage=data["region_leverage"],
                   mastery_leverage=data["mastery_leverage"])
