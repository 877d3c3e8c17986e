"""Mandate 2038's rulings: the points where the core rules are unclear, each a named ruling with
options and a default, read from ``data/content/mandate2038/rulings/<rules version>.json``
(versioned beside the content pack; docs/engine.md "Rulings") through the mechanism every game
shares (engine/core/options.py).

A log header may name a ruling set (``header.rulings``), and ``playtest validate --rulings``
overrides it. A spec is a set name (``default``, ``executable``, ...), ``ID=OPTION`` pairs
separated by commas (on top of the defaults), or both: ``SET,ID=OPTION``.

While replaying, :func:`used` records that a ruling decided something for a seat: findings of
that event, and checkpoint mismatches of that seat until the next checkpoint, name the rulings
they rest on (``Finding.rulings``: ``ID=OPTION``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.core.options import OptionBook, Ruling, Rulings, RulingsError, book_for, cite
from schemas.packs import data_dir

RulingBook = OptionBook  # the name this module used before the mechanism was shared

__all__ = ["Ruling", "RulingBook", "Rulings", "RulingsError", "load_rulings", "option",
           "rulings_path", "used"]


def rulings_path(rules_version: str) -> Path:
    return data_dir() / "content" / "mandate2038" / "rulings" / f"{rules_version}.json"


@lru_cache(maxsize=16)
def load_rulings(rules_version: str = "0.8.0-rc.17-test") -> OptionBook:
    """The ruling book of ``rules_version`` (falls back to rc.17's when the version has none).
    Cached per version: every replay's setup asks, and naming the files costs about 50 µs
    (``book_for`` caches the files and the book, not the path arithmetic; issue 30)."""
    from engine.mandate2038.ruleset import RULESET

    return book_for(RULESET, rules_version)


def used(st: Any, rid: str, seat: int | None = None) -> None:
    """Record that ruling ``rid`` decided something in the event being applied (for ``seat``,
    or every seat when None)."""
    cite(st.event_rulings, st.seat_rulings, f"{rid}={st.rulings[rid]}",
         [s.seat for s in st.seats] if seat is None else seat)


def _load(path: str) -> OptionBook:
    """The book of one rulings file (kept for code that loads a file by path)."""
    from engine.core.options import load_book

    return load_book((path,))


def option(st: Any, rid: str) -> str:
    """The option of ruling ``rid`` in force for this replay (the book's default when the state
    names none): the one place a check reads a ruling, so no default is written twice."""
    opt = st.rulings.get(rid)
    if opt is None:
        opt = load_rulings().rulings[rid].default
    return str(opt)
