"""The unclear points of the Vestige rulebook as named, switchable options (rulings), read from
``data/content/vestige/rulings/<rules version>.json`` and, beside it, the declared component
values (``<rules version>.declared.json``: a ruling with a value per option): the same file format
and the same loader as Mandate 2038's rulings (engine/core/options.py), the project's one
mechanism for rules the text leaves open.

A log header may name a ruling set or single options (``header.rulings``: ``SET``,
``ID=OPTION,...`` or both); a variant switches them there. The options in force are resolved once
per replay into the state (``GameState.rulings``); rules code reads them only from the state
(:func:`option`), never from module globals, and every finding of an event that rested on a
ruling names it (``Finding.rulings``: ``ID=OPTION``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core.options import OptionBook, Rulings, RulingsError, load_book, rulings_files

RulingBook = OptionBook

ROOT = Path(__file__).resolve().parents[2] / "data" / "content" / "vestige" / "rulings"
DEFAULT_VERSION = "rulebook-1"


def rulings_path(rules_version: str) -> Path:
    return ROOT / f"{rules_version}.json"


def load_rulings(rules_version: str = DEFAULT_VERSION) -> RulingBook:
    """The Vestige ruling book of ``rules_version`` (the rulebook-1 book when it has none): the
    unclear points and the declared values (cached in engine.core.options)."""
    files = rulings_files(ROOT, rules_version) or rulings_files(ROOT, DEFAULT_VERSION)
    return load_book(files)


def resolve(rules_version: str, spec: str | None) -> Rulings:
    """Every ruling's option under ``spec`` (raises :class:`RulingsError` on a bad spec)."""
    return load_rulings(rules_version).resolve(spec)


def option(st: Any, rid: str, seat: int | None = None) -> str:
    """The option of ruling ``rid`` in force in this replay; notes that the event rests on it."""
    value: str = st.rulings[rid]
    st.event_rulings.add(f"{rid}={value}")
    return value


__all__ = ["RulingBook", "RulingsError", "load_rulings", "option", "resolve", "rulings_path"]
