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

from schemas.log import MAX_VARIANT_CHANGES, VariantStamp
from schemas.packs import data_dir

__all__ = ["VariantStamp", "VariantFile", "VariantError", "VariantProblem", "content_hash",
           "parse_variant", "load_bounds", "printable", "MAX_VARIANT_BYTES", "MAX_CHANGES"]

VARIANT_KEYS = ("name", "game", "rules_version", "description", "changes", "abilities", "options")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._=+-]*")  # fullmatch: no trailing newline
_PART = re.compile(r"[A-Za-z0-9_-]+")  # one part of a pack path or an option id
_PAUSED = re.compile(r"[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]*)?")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")

#: a variant file's size limit: the largest real one is under 2 KB
MAX_VARIANT_BYTES = 64 * 1024
#: changes, paused abilities and options of one variant (a stamp holds no more)
MAX_CHANGES = MAX_VARIANT_CHANGES
#: parts of one pack path
MAX_PATH_PARTS = 12


def printable(text: str) -> str:
    """``text`` with control characters (a terminal's escape codes, newlines) and lone
    surrogates written as ``\\x1b`` / ``\\ud800`` escapes: safe to print and to store."""
    if _CONTROL.search(text) or _SURROGATE.search(text):
        return "".join(f"\\x{ord(c):02x}" if _CONTROL.match(c) else
                       f"\\u{ord(c):04x}" if _SURROGATE.match(c) else c for c in text)
    return text


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
        text = f"{at}: {self.path}: {self.reason}" if self.path else f"{at}: {self.reason}"
        return printable(text)


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
    header, for naming lines in errors (tomllib keeps no positions). One pass over each line's
    characters: no regular expression that could backtrack on a long dotted key."""
    out: dict[str, int] = {}
    table = ""
    for no, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s.startswith("[") and not s.startswith("[["):
            parts, _ = _dotted(s, 1)
            table = ".".join(parts)
            out.setdefault(table, no)
            continue
        parts, end = _dotted(s, 0)
        if parts and s[end:end + 1] == "=":
            key = ".".join(parts)
            out.setdefault(f"{table}.{key}" if table else key, no)
    return out


_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _dotted(line: str, i: int) -> tuple[list[str], int]:
    """The parts of the TOML dotted key starting at ``line[i]`` (quotes removed: ``a."b.c".d``
    -> a, b.c, d) and where it ends (past trailing blanks); no parts when none starts there."""
    parts: list[str] = []
    n = len(line)
    while True:
        while i < n and line[i] in " \t":
            i += 1
        if i < n and line[i] in "\"'":
            end = line.find(line[i], i + 1)
            if end < 0:
                return [], i
            parts.append(line[i + 1:end])
            i = end + 1
        else:
            start = i
            while i < n and line[i] in _BARE:
                i += 1
            if i == start:
                return [], i
            parts.append(line[start:i])
        while i < n and line[i] in " \t":
            i += 1
        if i < n and line[i] == ".":
            i += 1
            continue
        return parts, i


def _flatten(value: dict[str, Any], section: str, out: dict[str, Any],
             problems: list[tuple[str, str]]) -> None:
    """``value``'s leaves by dotted path (nested tables are paths: [changes.scoring]
    caps.trust = 5 is "scoring.caps.trust"), each path checked: at most :data:`MAX_PATH_PARTS`
    parts of ASCII letters, digits, _ and - (a pack path; no other digits, blanks or control
    characters), each value a number, a text, true/false or (in [changes]) a list of those.
    Why each bad one cannot be used goes to ``problems`` as ``(path, why)``."""
    stack: list[tuple[str, int, Any]] = [("", 0, value)]
    while stack:
        prefix, depth, node = stack.pop()
        if depth > MAX_PATH_PARTS or (isinstance(node, dict) and depth == MAX_PATH_PARTS):
            problems.append((printable(prefix), f"a path of more than {MAX_PATH_PARTS} "
                             "parts: no value of the game lies that deep"))
        elif isinstance(node, dict):
            for k, v in reversed(node.items()):
                path = f"{prefix}.{k}" if prefix else k
                parts = k.split(".")  # a quoted key may hold a whole dotted path
                if not all(_PART.fullmatch(part) for part in parts):
                    problems.append((printable(path), "a path part is ASCII letters, "
                                     "digits, _ or - only"))
                    continue
                stack.append((path, depth + len(parts), v))
        elif not _plain(node, allow_list=section == "changes"):
            problems.append((printable(prefix), "a value is a number, a text or true/false"
                             + (" (or a list of those)" if section == "changes" else "")))
        else:
            out[prefix] = node


def _plain(value: Any, allow_list: bool) -> bool:
    if isinstance(value, list):
        return allow_list and all(_plain(v, allow_list=False) for v in value)
    return isinstance(value, (str, int, float, bool))


def parse_variant(text: str, file: str = "<variant>") -> VariantFile:
    """A variant file's text read into a :class:`VariantFile` (VariantError naming the file,
    line and reason for bad TOML, a file over :data:`MAX_VARIANT_BYTES`, a malformed top level,
    a bad path or value, or more than :data:`MAX_CHANGES` changes)."""
    file = printable(file)
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_VARIANT_BYTES:
        raise VariantError([VariantProblem(file, None, "", f"{size:,} bytes: a variant file "
                                           f"holds at most {MAX_VARIANT_BYTES:,}")])
    if _SURROGATE.search(text):
        raise VariantError([VariantProblem(file, None, "", "the text holds a lone surrogate "
                                           "(not a Unicode character)")])
    for no, line in enumerate(text.splitlines(), 1):
        # the TOML reader takes quadratic time on a long dotted key (24 s on 60 KB): refused
        # before it reads one
        s = line.lstrip()
        parts, _ = _dotted(s, s.startswith("[") + s.startswith("[["))
        if len(parts) > MAX_PATH_PARTS + 1:
            raise VariantError([VariantProblem(file, no, "", f"a key of {len(parts):,} parts: "
                                               f"no value of the game lies deeper than "
                                               f"{MAX_PATH_PARTS}")])
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise VariantError([VariantProblem(file, int(m.group(1)) if m else None, "",
                                           f"not valid TOML: {printable(str(exc))}")]) from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise VariantError([VariantProblem(file, None, "", "not valid TOML here: "
                                           f"{printable(str(exc))[:200]}")]) from None
    except RecursionError:
        raise VariantError([VariantProblem(file, None, "", "not valid TOML here: arrays or "
                                           "tables nested too deeply")]) from None
    lines = _key_lines(text)
    problems: list[VariantProblem] = []
    for key in raw:
        if key not in VARIANT_KEYS:
            problems.append(VariantProblem(file, lines.get(key), printable(key),
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
    if strs["name"] and not _NAME.fullmatch(strs["name"]):
        problems.append(VariantProblem(file, lines.get("name"), "name",
                                       "letters, digits and . _ = + - only (it names files and "
                                       "columns)"))
    tables: dict[str, dict[str, Any]] = {}
    for section in ("changes", "options"):
        table = raw.get(section, {})
        tables[section] = {}
        if not isinstance(table, dict):
            problems.append(VariantProblem(file, lines.get(section), section, "must be a table"))
            continue
        bad: list[tuple[str, str]] = []
        _flatten(table, section, tables[section], bad)
        problems.extend(VariantProblem(file, lines.get(f"{section}.{path}")
                                       or lines.get(section), f"{section}.{path}", why)
                        for path, why in bad)
    changes, options = tables["changes"], tables["options"]
    ab = raw.get("abilities", {})
    paused: list[str] = []
    if not isinstance(ab, dict):
        problems.append(VariantProblem(file, lines.get("abilities"), "abilities",
                                       "must be a table"))
    else:
        for k in ab:
            if k != "paused":
                problems.append(VariantProblem(file, lines.get(f"abilities.{k}"),
                                               printable(f"abilities.{k}"),
                                               "unknown key (known: paused)"))
        p = ab.get("paused", [])
        if not isinstance(p, list) or not all(isinstance(x, str) and _PAUSED.fullmatch(x)
                                              for x in p):
            problems.append(VariantProblem(file, lines.get("abilities.paused"),
                                           "abilities.paused",
                                           'must be a list of "faction/ability" strings'))
        else:
            paused = list(p)
    count = len(changes) + len(paused) + len(options)
    if count > MAX_CHANGES:
        problems.append(VariantProblem(file, None, "", f"{count:,} changes: a variant makes at "
                                       f"most {MAX_CHANGES} (changes, paused abilities and "
                                       "options together)"))
    if problems:
        raise VariantError(problems)
    return VariantFile(file=file, name=strs["name"], game=strs["game"],
                       rules_version=strs["rules_version"], description=strs["description"],
                       changes=changes, paused=paused, options=options, lines=lines)


# --- each game's declared bounds ------------------------------------------------------------


def bounds_path(game: str) -> Path:
    return data_dir() / "content" / game / "variant-bounds.json"


def load_bounds(game: str) -> dict[str, Any]:
    """The game's declared variant bounds (``data/content/<game>/variant-bounds.json``):
    named knobs, bounds by path pattern, enumerated choices and constraints. FileNotFoundError
    when the game declares none."""
    path = bounds_path(game)
    declared = declared_bounds(game) if re.match(r"^[a-z0-9_]+$", game) else None
    if declared is not None:
        return declared
    if not re.match(r"^[a-z0-9_]+$", game) or not path.is_file():
        raise FileNotFoundError(f"{game!r} declares no variant bounds ({path} does not exist)")
    out: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return out


def declared_bounds(game: str) -> dict[str, Any] | None:
    """The variant bounds a game declares in its designer loop (``DesignerLoop.knobs`` over
    the numbers of ``DesignerLoop.values``; engine.core.game), in the bounds file's shape, or
    None when it declares no knobs. A knob whose path has a ``*`` bounds every value it
    matches; the others are named knobs."""
    from engine.core.game import resolve
    from engine.core.registry import get_ruleset

    rs = get_ruleset(game)
    loop = rs.designer_loop if rs is not None else None
    if rs is None or loop is None or not loop.knobs:
        return None
    values = resolve(loop.values)() if loop.values is not None else {}
    knobs: list[dict[str, Any]] = [
        {"name": k.name, "path": k.path, "min": k.min, "max": k.max, "why": k.why}
        for k in loop.knobs]
    return {"game": game, "rules_version": rs.rules_versions[0], "pack": False,
            "values": values, "options": "rulings" if rs.rulings_dir is not None else None,
            "knobs": [k for k in knobs if "*" not in k["path"]],
            "bounds": [k for k in knobs if "*" in k["path"]], "constraints": []}
