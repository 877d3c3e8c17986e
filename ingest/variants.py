"""Loading a rules variant file and checking it against its game (the I/O side of
:mod:`engine.core.variants`; docs/variants.md).

:func:`load_variant` reads the TOML file, the game's declared bounds
(``data/content/<game>/variant-bounds.json``), the game's content pack and its unwritten-rule
options, and returns a :class:`LoadedVariant` (the stamp a log stores and the effective changes
against the base) or raises :class:`schemas.variants.VariantError` listing every problem with
the file, line, path and reason.

Unwritten-rule options come from the game's one options mechanism, its ruling book
(``data/content/<game>/rulings/<rules version>.json``, the same format for every game): with
``"options": "rulings"`` in the bounds file, an option is one of a ruling's choices. A game
without a content pack per rules version (Vestige: ``"pack": false``) has options only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.registry import DEFAULT_GAME, get_ruleset
from engine.core.variants import (
    Change,
    checked,
)
from schemas.packs import load_pack
from schemas.variants import (
    MAX_VARIANT_BYTES,
    VariantError,
    VariantFile,
    VariantProblem,
    VariantStamp,
    load_bounds,
    parse_variant,
    printable,
)

MAX_SWEEP = 12  # values of one --sweep


@dataclass(frozen=True)
class LoadedVariant:
    """A checked variant: its file, the stamp a log's header stores, the effective changes."""

    file: VariantFile
    stamp: VariantStamp
    changes: list[Change]
    options: dict[str, tuple[Any, Any]]  # option id -> (base value, the variant's)

    @property
    def name(self) -> str:
        return self.stamp.name


def _ruling_check(game: str, rules_version: str) -> tuple[Callable[[str, Any], str | None],
                                                          Callable[[str], Any]]:
    # the game's one options mechanism (engine.core.options): its ruling book
    from engine.core.options import RulingsError, book_for

    try:
        book = book_for(game, rules_version)
    except RulingsError as exc:
        raise VariantError([VariantProblem("", None, "options", str(exc))]) from None

    def check(oid: str, value: Any) -> str | None:
        r = book.rulings.get(oid)
        if r is None:
            return f"unknown ruling (known: {', '.join(sorted(book.rulings))})"
        if value not in r.options:
            return f"{value!r} is not an option of this ruling (options: {', '.join(r.options)})"
        return None

    return check, lambda oid: book.rulings[oid].default


def read_variant(path: Path | str) -> VariantFile:
    """Read a variant file the way logs are read: a regular file (a link is followed) of at
    most :data:`schemas.variants.MAX_VARIANT_BYTES`, never a FIFO or a device (VariantError
    when unreadable or malformed)."""
    from ingest.formats import NotReadable, read_file, source_name

    name = source_name(path)
    try:
        data = read_file(path, limit=MAX_VARIANT_BYTES)
        text = data.decode("utf-8")
    except NotReadable as exc:
        why = str(exc).replace(f"larger than {MAX_VARIANT_BYTES} bytes",
                               f"larger than {MAX_VARIANT_BYTES:,} bytes, the most a variant "
                               "file holds")
        raise VariantError([VariantProblem(name, None, "", f"cannot be read: {why}")]) from None
    except UnicodeDecodeError as exc:
        raise VariantError([VariantProblem(name, None, "", f"not UTF-8 text (byte "
                                           f"{exc.start})")]) from None
    except OSError as exc:
        raise VariantError([VariantProblem(name, None, "", "cannot be read: "
                                           f"{exc.strerror or exc}")]) from None
    return parse_variant(text, name)


def load_variant(path: Path | str) -> LoadedVariant:
    """Read and check a variant file (VariantError with every problem: file, line, path, why)."""
    return check_variant(read_variant(path))


def check_variant(vf: VariantFile) -> LoadedVariant:
    """Check a variant as read against its game (VariantError listing every problem)."""
    try:
        bounds = load_bounds(vf.game)
    except FileNotFoundError as exc:
        raise VariantError([VariantProblem(vf.file, vf.line("game", ""), "game",
                                           str(exc))]) from None
    pack: dict[str, Any] = {}
    if bounds.get("pack", True):
        try:
            pack = load_pack(vf.game, vf.rules_version).model_dump(mode="json")
        except (OSError, ValueError) as exc:
            raise VariantError([VariantProblem(vf.file, vf.line("rules_version", ""),
                                               "rules_version", str(exc))]) from None
    kind = bounds.get("options")
    if kind == "rulings":
        option_check, base_of = _ruling_check(vf.game, vf.rules_version)
    else:
        option_check, base_of = (lambda oid, v: "this game has no unwritten-rule options"), (
            lambda oid: None)
    rules_version = pack["rules_version"] if pack else bounds.get("rules_version", "")
    stamp, changes = checked(vf, pack, bounds, game=vf.game, rules_version=rules_version,
                             option_check=option_check)
    options = {k: (base_of(k), v) for k, v in stamp.options.items()}
    return LoadedVariant(file=vf, stamp=stamp, changes=changes, options=options)


def sweep_variants(base: LoadedVariant | None, spec: str, game: str = DEFAULT_GAME,
                   rules_version: str | None = None) -> list[LoadedVariant]:
    """``KNOB=LO..HI`` (or ``KNOB=A,B,C``) as a series of variants, one per value, each named
    ``KNOB=VALUE`` and checked like a file (on top of ``base``'s changes when given);
    ``rules_version`` None: the game's current one (the first its declaration replays)."""
    if rules_version is None:
        rs = get_ruleset(game)
        if rs is None:
            raise VariantError([VariantProblem("", None, "game",
                                               f"no installed game has the id {game!r}")])
        rules_version = rs.rules_versions[0]
    knob, sep, rng = spec.partition("=")
    if not sep or not knob.strip() or not rng.strip():
        raise VariantError([VariantProblem("--sweep", None, printable(spec),
                                           "write KNOB=LO..HI or KNOB=A,B,C")])
    knob = knob.strip()
    try:
        if ".." in rng:
            lo, hi = (int(x) for x in rng.split("..", 1))
            # counted before it is listed: 0..99999999999 is not a list to build
            values: list[Any] = list(range(lo, hi + 1)) if 0 <= hi - lo < MAX_SWEEP else []
        else:
            values = [int(x) for x in rng.split(",", MAX_SWEEP)]
    except ValueError:
        raise VariantError([VariantProblem("--sweep", None, printable(spec),
                                           "the values must be integers")]) from None
    if not values or len(values) > MAX_SWEEP:
        raise VariantError([VariantProblem("--sweep", None, printable(spec),
                                           f"a sweep takes 1 to {MAX_SWEEP} values")])
    out = []
    problems: list[VariantProblem] = []
    for v in values:
        text = _sweep_toml(base, knob, v, game, rules_version)
        try:
            vf = parse_variant(text, f"--sweep {spec}")
            out.append(check_variant(vf))
        except VariantError as exc:
            problems.extend(exc.problems)
    if problems:
        raise VariantError(problems)
    return out


def _sweep_toml(base: LoadedVariant | None, knob: str, value: Any, game: str,
                rules_version: str) -> str:
    changes = dict(base.file.changes) if base else {}
    changes[knob] = value
    g = base.file.game if base else game
    rv = base.file.rules_version if base else rules_version
    lines = [f'name = "{knob}={value}"', f'game = "{g}"', f'rules_version = "{rv}"', "",
             "[changes]"]
    lines += [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in changes.items()]
    if base and base.file.paused:
        lines += ["", "[abilities]", f"paused = {json.dumps(base.file.paused)}"]
    if base and base.file.options:
        lines += ["", "[options]"]
        lines += [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in base.file.options.items()]
    return "\n".join(lines) + "\n"
