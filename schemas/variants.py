"""Rules variants as data: the variant file (TOML), the stamp a log's header carries, and each
game's declared bounds (docs/variants.md).

A **variant file** names changes to a game's content pack values (by path), paused faction
abilities and the game's unwritten-rule options (Mandate's rulings, Vestige's declared values)::

    name = "dossier-compute-2"
    game = "mandate2038"
    rules_version = "0.8.0-rc.17-test"
    description = "What if every Dossier commit cost 2 Compute?"

    [changes]
    dossier_compute = 2                       # a named knob of the game's bounds, or
    "scoring.customer_capability.1" = 5       # any numeric or enumerated value by its pack path

    [abilities]
    paused = ["kestralyn/industrial_velocity"]

    [options]
    partnership-range = "either-partner"

This module reads the file (keeping the line of every key, so that every error names the file,
the line, the path and why) and the bounds file; checking the changes against the pack and
applying them is :mod:`engine.core.variants` (pure).

The **stamp** (:class:`VariantStamp`) is what a log stores: the variant's name, its content hash
and the changes themselves, so that a log is audited under its variant without the file.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemas.log import VariantStamp
from schemas.packs import data_dir

__all__ = ["VariantStamp", "VariantFile", "VariantError", "VariantProblem", "content_hash",
           "parse_variant", "read_variant", "load_bounds"]

VARIANT_KEYS = ("name", "game", "rules_version", "description", "changes", "abilities", "options")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._=+-]*$")


def content_hash(game: str, rules_version: str, changes: dict[str, Any], paused: list[str],
                 options: dict[str, Any]) -> str:
    """The variant's content hash: sha256 of its effective content (not of the file's text, so a
    comment or a reordering does not change it), first 16 hex digits."""
    body = json.dumps({"game": game, "rules_version": rules_version, "changes": changes,
                       "paused": sorted(paused), "options": options},
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class VariantProblem:
    """One reason a variant cannot be used: where (file, line), what (path) and why."""

    file: str
    line: int | None
    path: str
    reason: str

    def __str__(self) -> str:
        at = f"{self.file}:{self.line}" if self.line else self.file
        return f"{at}: {self.path}: {self.reason}" if self.path else f"{at}: {self.reason}"


class VariantError(ValueError):
    """A variant file that cannot be used; ``problems`` lists every reason."""

    def __init__(self, problems: list[VariantProblem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


@dataclass
class VariantFile:
    """A variant file as read (not yet checked against the game)."""

    file: str
    name: str
    game: str
    rules_version: str
    description: str = ""
    changes: dict[str, Any] = field(default_factory=dict)  # knob name or pack path -> value
    paused: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # "changes.<path>" etc. -> line

    def line(self, section: str, key: str) -> int | None:
        return self.lines.get(f"{section}.{key}") or self.lines.get(section)


def _key_lines(text: str) -> dict[str, int]:
    """The line of every ``key = value`` (full dotted key, quotes removed) and of every table
    header, for naming lines in errors (tomllib keeps no positions)."""
    out: dict[str, int] = {}
    table = ""
    key_re = re.compile(r'^\s*((?:"[^"]*"|\'[^\']*\'|[A-Za-z0-9_.-]+)(?:\s*\.\s*(?:"[^"]*"|'
                        r'\'[^\']*\'|[A-Za-z0-9_-]+))*)\s*=')
    for no, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s.startswith("[") and not s.startswith("[["):
            table = s.strip("[] \t").split("]")[0].strip()
            table = ".".join(_parts(table))
            out.setdefault(table, no)
            continue
        m = key_re.match(raw)
        if m:
            key = ".".join(_parts(m.group(1)))
            out.setdefault(f"{table}.{key}" if table else key, no)
    return out


def _parts(dotted: str) -> list[str]:
    """The parts of a TOML dotted key, quotes removed (``a."b.c".d`` -> a, b.c, d)."""
    return [a or b or c for a, b, c in
            re.findall(r'"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)', dotted)]


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    # nested tables are paths: [changes.scoring] caps.trust = 5 is "scoring.caps.trust"
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    else:
        out[prefix] = value


def parse_variant(text: str, file: str = "<variant>") -> VariantFile:
    """A variant file's text read into a :class:`VariantFile` (VariantError naming the file,
    line and reason for bad TOML or a malformed top level)."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise VariantError([VariantProblem(file, int(m.group(1)) if m else None, "",
                                           f"not valid TOML: {exc}")]) from None
    lines = _key_lines(text)
    problems: list[VariantProblem] = []
    for key in raw:
        if key not in VARIANT_KEYS:
            problems.append(VariantProblem(file, lines.get(key), key,
                                           f"unknown top-level key (known: {', '.join(VARIANT_KEYS)})"))
    strs: dict[str, str] = {}
    for key in ("name", "game", "rules_version", "description"):
        v = raw.get(key, "")
        if not isinstance(v, str):
            problems.append(VariantProblem(file, lines.get(key), key, "must be a string"))
            v = ""
        strs[key] = v
    for key in ("name", "game", "rules_version"):
        if not strs[key]:
            problems.append(VariantProblem(file, lines.get(key), key, "is required"))
    if strs["name"] and not _NAME.match(strs["name"]):
        problems.append(VariantProblem(file, lines.get("name"), "name",
                                       "letters, digits and . _ = + - only (it names files and "
                                       "columns)"))
    changes: dict[str, Any] = {}
    for section in ("changes", "options"):
        if not isinstance(raw.get(section, {}), dict):
            problems.append(VariantProblem(file, lines.get(section), section, "must be a table"))
    _flatten("", raw.get("changes", {}) if isinstance(raw.get("changes"), dict) else {},
             changes)
    options: dict[str, Any] = {}
    _flatten("", raw.get("options", {}) if isinstance(raw.get("options"), dict) else {},
             options)
    ab = raw.get("abilities", {})
    paused: list[str] = []
    if not isinstance(ab, dict):
        problems.append(VariantProblem(file, lines.get("abilities"), "abilities",
                                       "must be a table"))
    else:
        for k in ab:
            if k != "paused":
                problems.append(VariantProblem(file, lines.get(f"abilities.{k}"),
                                               f"abilities.{k}", "unknown key (known: paused)"))
        p = ab.get("paused", [])
        if not isinstance(p, list) or not all(isinstance(x, str) for x in p):
            problems.append(VariantProblem(file, lines.get("abilities.paused"),
                                           "abilities.paused",
                                           'must be a list of "faction/ability" strings'))
        else:
            paused = list(p)
    if problems:
        raise VariantError(problems)
    return VariantFile(file=file, name=strs["name"], game=strs["game"],
                       rules_version=strs["rules_version"], description=strs["description"],
                       changes=changes, paused=paused, options=options, lines=lines)


def read_variant(path: Path | str) -> VariantFile:
    """Read a variant file (VariantError when unreadable or malformed)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VariantError([VariantProblem(str(p), None, "", f"cannot be read: {exc}")]) from None
    return parse_variant(text, str(p))


# --- each game's declared bounds ------------------------------------------------------------


def bounds_path(game: str) -> Path:
    return data_dir() / "content" / game / "variant-bounds.json"


def load_bounds(game: str) -> dict[str, Any]:
    """The game's declared variant bounds (``data/content/<game>/variant-bounds.json``):
    named knobs, bounds by path pattern, enumerated choices and constraints. FileNotFoundError
    when the game declares none."""
    path = bounds_path(game)
    if not re.match(r"^[a-z0-9_]+$", game) or not path.is_file():
        raise FileNotFoundError(f"{game!r} declares no variant bounds ({path} does not exist)")
    out: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return out
