"""Rulings as data: the points where the core rules are unclear, each a named ruling with
options and a default, read from ``data/content/mandate2038/rulings/<rules version>.json``
(versioned beside the content pack; docs/engine.md "Rulings").

A log header may name a ruling set (``header.rulings``), and ``playtest validate --rulings``
overrides it. A spec is a set name (``default``, ``executable``, ...), ``ID=OPTION`` pairs
separated by commas (on top of the defaults), or both: ``SET,ID=OPTION``.

While replaying, :func:`used` records that a ruling decided something for a seat: findings of
that event, and checkpoint mismatches of that seat until the next checkpoint, name the rulings
they rest on (``Finding.rulings``: ``ID=OPTION``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from schemas.packs import data_dir


class RulingsError(ValueError):
    """An unknown ruling set, ruling or option."""


@dataclass(frozen=True, slots=True)
class Ruling:
    id: str
    topic: str
    seed_says: str
    executable_does: str
    options: dict[str, str]
    default: str
    why_default: str


@dataclass(frozen=True, slots=True)
class RulingBook:
    """Every ruling of one rules version and the named sets."""

    rules_version: str
    version: int
    rulings: dict[str, Ruling]
    sets: dict[str, dict[str, str]]

    def defaults(self) -> dict[str, str]:
        return {r.id: r.default for r in self.rulings.values()}

    def resolve(self, spec: str | None) -> dict[str, str]:
        """The option of every ruling under ``spec`` (see the module docstring)."""
        out = self.defaults()
        if not spec:
            return out
        for part in (p.strip() for p in spec.split(",")):
            if not part:
                continue
            if "=" in part:
                rid, opt = (x.strip() for x in part.split("=", 1))
                r = self.rulings.get(rid)
                if r is None:
                    raise RulingsError(f"unknown ruling {rid!r} (known: {', '.join(sorted(self.rulings))})")
                if opt not in r.options:
                    raise RulingsError(f"ruling {rid!r} has no option {opt!r} "
                                       f"(options: {', '.join(r.options)})")
                out[rid] = opt
            else:
                chosen = self.sets.get(part)
                if chosen is None:
                    raise RulingsError(f"unknown ruling set {part!r} "
                                       f"(sets: {', '.join(sorted(self.sets))})")
                out.update(chosen)
        return out


def rulings_path(rules_version: str) -> Path:
    return data_dir() / "content" / "mandate2038" / "rulings" / f"{rules_version}.json"


@lru_cache(maxsize=8)
def _load(path: str) -> RulingBook:
    raw: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    rulings: dict[str, Ruling] = {}
    for r in raw["rulings"]:
        ruling = Ruling(id=r["id"], topic=r["topic"], seed_says=r["seed_says"],
                        executable_does=r["executable_does"], options=dict(r["options"]),
                        default=r["default"], why_default=r["why_default"])
        if ruling.default not in ruling.options:
            raise RulingsError(f"{path}: ruling {ruling.id}: default {ruling.default!r} is not "
                               "one of its options")
        rulings[ruling.id] = ruling
    sets = {name: dict(v) for name, v in raw["sets"].items()}
    for name, v in sets.items():
        for rid, opt in v.items():
            if rid not in rulings or opt not in rulings[rid].options:
                raise RulingsError(f"{path}: set {name!r}: {rid}={opt} is not a ruling option")
    return RulingBook(rules_version=raw["rules_version"], version=int(raw["rulings_version"]),
                      rulings=rulings, sets=sets)


@lru_cache(maxsize=16)
def load_rulings(rules_version: str = "0.8.0-rc.17-test") -> RulingBook:
    """The ruling book of ``rules_version`` (falls back to rc.17's when the version has none).
    Cached: every replay's setup asks, and finding the file costs file-system calls."""
    path = rulings_path(rules_version)
    if not path.is_file():
        path = rulings_path("0.8.0-rc.17-test")
    return _load(str(path))


def used(st: Any, rid: str, seat: int | None = None) -> None:
    """Record that ruling ``rid`` decided something in the event being applied (for ``seat``,
    or every seat when None)."""
    tag = f"{rid}={st.rulings[rid]}"
    st.event_rulings.add(tag)
    if seat is None:
        for s in st.seats:
            st.seat_rulings.setdefault(s.seat, set()).add(tag)
    else:
        st.seat_rulings.setdefault(seat, set()).add(tag)


def option(st: Any, rid: str) -> str:
    """The option of ruling ``rid`` in force for this replay (the book's default when the state
    names none): the one place a check reads a ruling, so no default is written twice."""
    opt = st.rulings.get(rid)
    if opt is None:
        opt = load_rulings().rulings[rid].default
    return str(opt)
