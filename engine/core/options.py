"""Rulings: the points a game's rules leave open, as data, one mechanism for every game.

A ruling is named, has options (each with its text and, when the rules code reads a number or
a list, its value) and a default; named sets choose options for several rulings at once. A game
keeps its rulings in ``<rulings_dir>/<rules_version>.json`` (its declaration's ``rulings_dir``),
plus any ``<rules_version>.<part>.json`` beside it, merged into one book (Mandate 2038's rulings;
Vestige's declared component values). docs/notes/game-declaration.md gives the file format.

For a replay, :func:`resolve_options` turns a spec (a set name, ``ID=OPTION`` pairs, both, or a
mapping) into :class:`Rulings`, which setup keeps on the replay state (``state.rulings``). A
check that rests on a ruling calls :func:`cite`; the ruleset then names the rulings on the
findings of that event (:func:`cite_findings`, ``Finding.rulings``: ``ID=OPTION``).

Reading the files is content loading (cached, on first use); nothing is read at import time.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any


class RulingsError(ValueError):
    """An unknown ruling set, ruling or option, or a malformed rulings file."""


@dataclass(frozen=True, slots=True)
class Ruling:
    """One point the rules leave open: its options (option -> text), their values (option ->
    the value the rules code reads, when it reads one), the default and why."""

    id: str
    topic: str
    seed_says: str
    executable_does: str
    options: dict[str, str]
    default: str
    why_default: str
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OptionBook:
    """Every ruling of one game's rules version and the named sets."""

    rules_version: str
    version: int
    rulings: dict[str, Ruling]
    sets: dict[str, dict[str, str]]
    game: str = ""

    def defaults(self) -> Rulings:
        """Every ruling at its default option."""
        return Rulings({r.id: r.default for r in self.rulings.values()}, self)

    def resolve(self, spec: str | Mapping[str, str] | None) -> Rulings:
        """The option of every ruling under ``spec``: None (the defaults), a text of
        comma-separated set names and ``ID=OPTION`` pairs applied in order on top of the
        defaults, or a mapping ``{ruling id: option}``. Raises :class:`RulingsError` naming an
        unknown set, ruling or option."""
        out = self.defaults()
        if not spec:
            return out
        pairs: list[tuple[str, str | None]]
        if isinstance(spec, Mapping):
            pairs = [(str(k), str(v)) for k, v in spec.items()]
        else:
            pairs = []
            for part in (p.strip() for p in str(spec).split(",")):
                if not part:
                    continue
                if "=" in part:
                    rid, chosen_opt = (x.strip() for x in part.split("=", 1))
                    pairs.append((rid, chosen_opt))
                else:
                    pairs.append((part, None))
        for name, opt in pairs:
            if opt is None:
                chosen = self.sets.get(name)
                if chosen is None:
                    known = ", ".join(sorted(self.sets)) or "none"
                    raise RulingsError(f"unknown ruling set {name!r} (sets: {known})")
                out.update(chosen)
                continue
            r = self.rulings.get(name)
            if r is None:
                known = ", ".join(sorted(self.rulings)) or "none"
                raise RulingsError(f"unknown ruling {name!r} (known: {known})")
            if opt not in r.options:
                raise RulingsError(f"ruling {name!r} has no option {opt!r} "
                                   f"(options: {', '.join(r.options)})")
            out[name] = opt
        return out


class Rulings(dict[str, str]):
    """The option in force for every ruling of a replay (ruling id -> option), with the book
    it comes from. Kept on the replay state (``state.rulings``)."""

    __slots__ = ("book",)

    def __init__(self, chosen: Mapping[str, str] | None = None,
                 book: OptionBook | None = None) -> None:
        super().__init__(chosen or {})
        self.book = book

    def value(self, rid: str) -> Any:
        """The value of ruling ``rid``'s option in force (``values`` in the file)."""
        if self.book is None or rid not in self.book.rulings:
            raise KeyError(f"no ruling {rid!r}")
        r = self.book.rulings[rid]
        opt = self.get(rid, r.default)
        if opt not in r.values:
            raise KeyError(f"ruling {rid!r}: option {opt!r} declares no value")
        return r.values[opt]

    def tag(self, rid: str) -> str:
        """``ID=OPTION`` of ruling ``rid`` (what a finding that rests on it names)."""
        return f"{rid}={self[rid]}"

    def spec(self) -> str:
        """The options that differ from the defaults, as an ``ID=OPTION,...`` spec."""
        if self.book is None:
            return ",".join(f"{k}={v}" for k, v in sorted(self.items()))
        d = self.book.defaults()
        return ",".join(f"{k}={v}" for k, v in sorted(self.items()) if d.get(k) != v)

    def copy(self) -> Rulings:
        return Rulings(self, self.book)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Rulings, (dict(self), self.book))


_EMPTY = OptionBook(rules_version="", version=0, rulings={}, sets={"default": {}})


def _ruling(path: Path, r: Mapping[str, Any]) -> Ruling:
    try:
        ruling = Ruling(id=str(r["id"]), topic=str(r["topic"]), seed_says=str(r["seed_says"]),
                        executable_does=str(r.get("executable_does", "")),
                        options=dict(r["options"]), default=str(r["default"]),
                        why_default=str(r.get("why_default", "")),
                        values=dict(r.get("values", {})))
    except (KeyError, TypeError, ValueError) as err:
        raise RulingsError(f"{path}: a ruling lacks {err}") from None
    if ruling.default not in ruling.options:
        raise RulingsError(f"{path}: ruling {ruling.id}: default {ruling.default!r} is not one "
                           "of its options")
    stray = set(ruling.values) - set(ruling.options)
    if stray:
        raise RulingsError(f"{path}: ruling {ruling.id}: values for options it does not have: "
                           f"{', '.join(sorted(stray))}")
    return ruling


@lru_cache(maxsize=32)
def load_book(paths: tuple[str, ...]) -> OptionBook:
    """One book from rulings files (the first names the version; the others add rulings and
    sets). A ruling id defined twice, a default or set option that is not an option, is a
    :class:`RulingsError` naming the file."""
    rulings: dict[str, Ruling] = {}
    sets: dict[str, dict[str, str]] = {"default": {}}
    first: dict[str, Any] = {}
    for i, text in enumerate(paths):
        path = Path(text)
        try:
            raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise RulingsError(f"{path}: cannot be read: {err}") from None
        if i == 0:
            first = raw
        for r in raw.get("rulings", []):
            ruling = _ruling(path, r)
            if ruling.id in rulings:
                raise RulingsError(f"{path}: ruling {ruling.id} is defined twice")
            rulings[ruling.id] = ruling
        for name, chosen in raw.get("sets", {}).items():
            sets.setdefault(name, {}).update({str(k): str(v) for k, v in chosen.items()})
    for name, chosen in sets.items():
        for rid, opt in chosen.items():
            if rid not in rulings or opt not in rulings[rid].options:
                raise RulingsError(f"{paths[0]}: set {name!r}: {rid}={opt} is not a ruling option")
    return OptionBook(rules_version=str(first.get("rules_version", "")),
                      version=int(first.get("rulings_version", 0)), rulings=rulings, sets=sets,
                      game=str(first.get("game", "")))


def rulings_files(folder: Path, rules_version: str) -> tuple[str, ...]:
    """``<rules_version>.json`` and its ``<rules_version>.<part>.json`` parts in ``folder``
    (the main file first, parts by name). Cached: every replay's setup asks."""
    return _rulings_files(str(folder), rules_version)


@lru_cache(maxsize=64)
def _rulings_files(folder_text: str, rules_version: str) -> tuple[str, ...]:
    folder = Path(folder_text)
    main = folder / f"{rules_version}.json"
    parts = sorted(p for p in folder.glob(f"{rules_version}.*.json") if p != main) \
        if folder.is_dir() else []
    return tuple(str(p) for p in ([main] if main.is_file() else []) + parts)


def _game(game: Any) -> Any:
    if isinstance(game, str):
        from engine.core.registry import get_ruleset

        rs = get_ruleset(game)
        if rs is None:
            raise RulingsError(f"no installed game {game!r}")
        return rs
    return game


def book_for(game: Any, rules_version: str | None = None) -> OptionBook:
    """The rulings of ``game`` (a declaration or its id) for ``rules_version`` (default: its
    first), falling back to its first rules version's book when that version has none; an
    empty book when the game declares no ``rulings_dir`` or has no file."""
    rs = _game(game)
    folder = rs.rulings_dir
    if folder is None:
        return _EMPTY
    version = rules_version or rs.rules_versions[0]
    files = rulings_files(Path(folder), version)
    if not files and version != rs.rules_versions[0]:
        files = rulings_files(Path(folder), rs.rules_versions[0])
    return load_book(files) if files else _EMPTY


def resolve_options(game: Any, spec: str | Mapping[str, str] | None = None,
                    rules_version: str | None = None) -> Rulings:
    """The rulings in force for a replay of ``game`` under ``spec`` (None: the defaults; a
    ``--rulings`` text; or a mapping ``{ruling id: option}``, e.g. from a variant file).
    Raises :class:`RulingsError` naming an unknown set, ruling or option."""
    return book_for(game, rules_version).resolve(spec)


def cite(event_tags: set[str], seat_tags: dict[int, set[str]], tag: str,
         seats: int | Iterable[int]) -> None:
    """Record that the ruling ``tag`` (``ID=OPTION``) decided something in the event being
    applied, for one seat or several (their checkpoint mismatches cite it until their next
    checkpoint)."""
    event_tags.add(tag)
    for seat in (seats,) if isinstance(seats, int) else seats:
        seat_tags.setdefault(seat, set()).add(tag)


def cite_findings(sink: Any, start: int, event_tags: set[str],
                  seat_tags: Mapping[int, set[str]], *,
                  mismatch_code: str = "checkpoint/mismatch") -> None:
    """Name the rulings the findings ``sink.findings[start:]`` rest on: the event's own, and
    for a seat's checkpoint mismatch every ruling cited for that seat since its previous
    checkpoint (``Finding.rulings``)."""
    findings = sink.findings
    for i in range(start, len(findings)):
        f = findings[i]
        mine = set(event_tags)
        if f.code == mismatch_code and f.where.seat is not None:
            mine |= seat_tags.get(f.where.seat, set())
        if mine:
            findings[i] = f.model_copy(update={"rulings": tuple(sorted(mine | set(f.rulings)))})
