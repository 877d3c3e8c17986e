"""Rules variants, checked and applied (pure: no I/O; docs/variants.md).

A variant (``schemas.variants.VariantFile``, read from TOML) names changes to a game's content
pack by path, paused faction abilities and unwritten-rule options. :func:`check` validates it
against the pack (the path exists, the value has the pack's type) and the game's declared bounds
(``data/content/<game>/variant-bounds.json``: named knobs, bounds by path pattern, enumerated
choices, constraints between values) and returns every problem with the file's line;
:func:`stamp` turns a valid variant into the :class:`schemas.variants.VariantStamp` a log's
header stores; :func:`apply_to_pack` builds the variant's content pack from the base pack.

Paths are dotted: a list of entries with ids is indexed by id (``factions.kestralyn.starts.
runway``), any other list by position from 0 (``scoring.customer_capability.1``), a mapping by
key (``scoring.caps.trust``). Only paths the game declares bounds for are knobs: the rest of the
pack (names, texts, sources, ids) is not, and neither is a number the engine does not read from
the pack (a change to it would silently do nothing).
"""

from __future__ import annotations

import copy
import fnmatch
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from schemas.variants import (
    VariantError,
    VariantFile,
    VariantProblem,
    VariantStamp,
    content_hash,
)

#: a value the pack does not hold at a path
MISSING = object()


@dataclass(frozen=True)
class Change:
    """One effective change: the pack path, the base value, the variant's value."""

    path: str
    base: Any
    value: Any
    knob: str | None = None  # the named knob it was given as, if any
    why: str = ""  # the rule the value belongs to (from the bounds)


# --- paths ----------------------------------------------------------------------------------


def _index(part: str) -> bool:
    # ASCII digits only: "١" and "²" are digits to str.isdigit, not list positions
    return part.isascii() and part.isdigit()


def _step(node: Any, part: str) -> Any:
    if isinstance(node, dict):
        if part in node:
            return node[part]
        if _index(part.removeprefix("-")) and int(part) in node:
            return node[int(part)]
        return MISSING
    if isinstance(node, list):
        if _index(part):
            i = int(part)
            return node[i] if i < len(node) else MISSING
        for e in node:
            if isinstance(e, dict) and part in (e.get("id"), e.get("ref_id")):
                return e
        return MISSING
    return MISSING


def get_path(pack: Any, path: str) -> Any:
    """The value at ``path`` in a dumped pack, or :data:`MISSING`."""
    node = pack
    for part in path.split("."):
        node = _step(node, part)
        if node is MISSING:
            return MISSING
    return node


def set_path(pack: Any, path: str, value: Any) -> None:
    """Set the value at ``path`` (which must exist) in a dumped pack, in place."""
    parts = path.split(".")
    node = get_path(pack, ".".join(parts[:-1])) if len(parts) > 1 else pack
    last = parts[-1]
    if isinstance(node, dict):
        key: Any = last if last in node else int(last)
        node[key] = value
    elif isinstance(node, list):
        if _index(last):
            node[int(last)] = value
        else:
            i = next(i for i, e in enumerate(node) if last in (e.get("id"), e.get("ref_id")))
            node[i] = value


def canonical_path(pack: Any, path: str) -> str:
    """``path`` with list entries named by id where they have one (``factions.3`` ->
    ``factions.kestralyn``), so that two spellings of one value are one path."""
    node = pack
    out = []
    for part in path.split("."):
        if isinstance(node, list) and _index(part):
            i = int(part)
            e = node[i] if i < len(node) else None
            if isinstance(e, dict) and e.get("id"):
                part = str(e["id"])
        node = _step(node, part)
        out.append(part)
    return ".".join(out)


def _match(path: str, pattern: str) -> bool:
    # "*" is one path part, "**" any number of parts
    p, q = path.split("."), pattern.split(".")

    def go(i: int, j: int) -> bool:
        if j == len(q):
            return i == len(p)
        if q[j] == "**":
            return any(go(k, j + 1) for k in range(i, len(p) + 1))
        return i < len(p) and fnmatch.fnmatchcase(p[i], q[j]) and go(i + 1, j + 1)

    return go(0, 0)


def bound_for(bounds: Mapping[str, Any], path: str) -> dict[str, Any] | None:
    """The game's declared bound for ``path`` (a named knob's, else the first pattern that
    matches), or None."""
    for b in [*bounds.get("knobs", []), *bounds.get("bounds", [])]:
        if _match(path, b["path"]):
            return dict(b)
    return None


def knob_path(bounds: Mapping[str, Any], name: str) -> str | None:
    """The pack path of the named knob ``name``, or None."""
    for k in bounds.get("knobs", []):
        if k["name"] == name:
            return str(k["path"])
    return None


# --- checking -------------------------------------------------------------------------------


def _same_type(base: Any, value: Any) -> bool:
    if isinstance(base, bool) or isinstance(value, bool):
        return isinstance(base, bool) and isinstance(value, bool)
    if isinstance(base, int):
        return isinstance(value, int)
    if isinstance(base, float):
        return isinstance(value, (int, float))
    if isinstance(base, str):
        return isinstance(value, str)
    if isinstance(base, list):
        return isinstance(value, list) and len(value) == len(base) and all(
            _same_type(a, b) for a, b in zip(base, value, strict=True))
    return False


def _leaves(path: str, base: Any, value: Any) -> Iterator[tuple[str, Any, Any]]:
    # a list value changes each of its elements: each is checked against its own bound
    if isinstance(base, list) and isinstance(value, list):
        for i, (a, b) in enumerate(zip(base, value, strict=True)):
            yield from _leaves(f"{path}.{i}", a, b)
    else:
        yield path, base, value


def _check_bound(path: str, value: Any, b: dict[str, Any]) -> str | None:
    if "choices" in b:
        if value not in b["choices"]:
            return (f"{value!r} is not one of the allowed values "
                    f"({', '.join(map(repr, b['choices']))})")
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{value!r} is not a number"
    lo, hi = b.get("min"), b.get("max")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return (f"{value} is out of bounds: the game allows {lo}..{hi}"
                + (f" ({b['why']})" if b.get("why") else ""))
    return None


def _constraint_values(pack: Any, pattern: str) -> list[tuple[str, Any]]:
    """Every (path, value) of the pack matching ``pattern`` ("*" one part, by id or index)."""
    out: list[tuple[str, Any]] = [("", pack)]
    for part in pattern.split("."):
        nxt: list[tuple[str, Any]] = []
        for p, node in out:
            if part == "*":
                if isinstance(node, dict):
                    items = [(str(k), v) for k, v in node.items()]
                elif isinstance(node, list):
                    items = [(str(e.get("id", i)) if isinstance(e, dict) else str(i), e)
                             for i, e in enumerate(node)]
                else:
                    items = []
            else:
                v = _step(node, part)
                items = [] if v is MISSING else [(part, v)]
            nxt.extend((f"{p}.{k}" if p else k, v) for k, v in items)
        out = nxt
    return out


def constraint_problems(pack: Any, constraints: Iterable[Mapping[str, Any]]
                        ) -> list[tuple[Mapping[str, Any], list[str], str]]:
    """Every constraint the (changed) pack breaks: (constraint, the paths involved, why)."""
    bad: list[tuple[Mapping[str, Any], list[str], str]] = []
    for c in constraints:
        kind = c["kind"]
        if kind == "non_decreasing":
            seq = get_path(pack, c["path"])
            if isinstance(seq, list):
                for i in range(1, len(seq)):
                    if seq[i] < seq[i - 1]:
                        bad.append((c, [f"{c['path']}.{i - 1}", f"{c['path']}.{i}"],
                                    f"{c['path']}.{i} = {seq[i]} is below "
                                    f"{c['path']}.{i - 1} = {seq[i - 1]}"))
        elif kind in ("at_most", "less_than"):
            rights = _constraint_values(pack, c["right"])
            for lp, lv in _constraint_values(pack, c["left"]):
                for rp, rv in rights:
                    broken = lv > rv if kind == "at_most" else lv >= rv
                    if broken:
                        word = "at most" if kind == "at_most" else "below"
                        bad.append((c, [lp, rp], f"{lp} = {lv} must be {word} {rp} = {rv}"))
        else:  # a bounds file with an unknown kind is the game's mistake, not the user's
            raise ValueError(f"unknown constraint kind {kind!r} in the game's bounds")
    return bad


OptionCheck = Callable[[str, Any], str | None]


def check(vf: VariantFile, pack: Mapping[str, Any], bounds: Mapping[str, Any], *,
          game: str, rules_version: str, option_check: OptionCheck | None = None
          ) -> tuple[list[Change], list[VariantProblem]]:
    """The variant's effective changes and every problem with it (file, line, path, why).

    ``pack`` is the base content pack dumped to plain data (``model_dump(mode="json")``);
    ``option_check(id, value)`` says why an unwritten-rule option cannot be used (None when it
    can)."""
    problems: list[VariantProblem] = []
    f = vf.file
    if not pack and bounds.get("values"):  # a game without a content pack: its declared numbers
        pack = bounds["values"]

    def bad(section: str, key: str, path: str, reason: str) -> None:
        problems.append(VariantProblem(f, vf.line(section, key), path, reason))

    if vf.game != game:
        bad("game", "", "game", f"{vf.game!r} is not {game!r}")
    if vf.rules_version != rules_version:
        bad("rules_version", "", "rules_version",
            f"{vf.rules_version!r}: no such rules version of {game} (known: {rules_version})")
    changes: list[Change] = []
    work = copy.deepcopy(dict(pack))
    line_of: dict[str, tuple[str, str]] = {}
    knob_why = {k["name"]: k.get("why", "") for k in bounds.get("knobs", [])}
    for key, value in vf.changes.items():
        kp = knob_path(bounds, key)
        path = kp or key
        base = get_path(work, path)
        if base is MISSING:
            known = ", ".join(k["name"] for k in bounds.get("knobs", []))
            bad("changes", key, key, "unknown path: neither a named knob of the game "
                f"({known}) nor a value of its content pack" if pack else
                f"unknown path: {game} has no content pack values a variant may change "
                "(only its [options])")
            continue
        path = canonical_path(work, path)
        if not _same_type(base, value):
            bad("changes", key, path, f"{value!r} does not have the pack's type (the base "
                f"value is {base!r})")
            continue
        leaf_bad = False
        for lp, _lb, lv in _leaves(path, base, value):
            b = bound_for(bounds, lp)
            if b is None:
                bad("changes", key, lp, "not a knob: the game declares no bounds for this "
                    "value (names, texts and numbers the engine does not read cannot change)")
                leaf_bad = True
                continue
            why = _check_bound(lp, lv, b)
            if why:
                bad("changes", key, lp, why)
                leaf_bad = True
        if leaf_bad:
            continue
        set_path(work, path, value)
        line_of[path] = ("changes", key)
        if base != value:
            changes.append(Change(path=path, base=base, value=value,
                                  knob=key if kp else None,
                                  why=knob_why.get(key, "") if kp else
                                  str((bound_for(bounds, next(_leaves(path, base, value))[0])
                                       or {}).get("why", ""))))
    for item in vf.paused:
        fid, _, aid = item.partition("/")
        fac = _step(work.get("factions", []), fid)
        if fac is MISSING or not aid:
            bad("abilities", "paused", f"abilities.paused {item}",
                f"unknown faction {fid!r}" if fac is MISSING else
                'write "faction/ability"')
            continue
        if not any(a.get("id") == aid for a in fac.get("abilities", [])):
            bad("abilities", "paused", f"abilities.paused {item}",
                f"{fid} has no ability {aid!r} (its abilities: "
                f"{', '.join(a['id'] for a in fac.get('abilities', []))})")
    for oid, value in vf.options.items():
        why = option_check(oid, value) if option_check else "this game has no options"
        if why:
            bad("options", oid, f"options.{oid}", why)
    for c, paths, why in constraint_problems(work, bounds.get("constraints", [])):
        mine = [p for p in paths if p in line_of] or paths
        sec_key = line_of.get(mine[0], ("changes", ""))
        # a broken constraint the base pack already breaks is not the variant's doing
        if not any(p in line_of for p in paths):
            continue
        because = f" ({c['why']})" if c.get("why") else ""
        bad(sec_key[0], sec_key[1], mine[0], f"violates constraint {c['id']}: {why}{because}")
    return changes, problems


def stamp(vf: VariantFile, changes: list[Change]) -> VariantStamp:
    """The stamp a log's header stores for a checked variant (its changes by canonical path)."""
    ch = {c.path: c.value for c in sorted(changes, key=lambda c: c.path)}
    paused = sorted(vf.paused)
    options = dict(sorted(vf.options.items()))
    return VariantStamp(name=vf.name, hash=content_hash(vf.game, vf.rules_version, ch, paused,
                                                        options),
                        changes=ch, paused=paused, options=options)


def checked(vf: VariantFile, pack: Mapping[str, Any], bounds: Mapping[str, Any], *, game: str,
            rules_version: str, option_check: OptionCheck | None = None
            ) -> tuple[VariantStamp, list[Change]]:
    """:func:`check` then :func:`stamp`; VariantError listing every problem."""
    changes, problems = check(vf, pack, bounds, game=game, rules_version=rules_version,
                              option_check=option_check)
    if problems:
        raise VariantError(problems)
    return stamp(vf, changes), changes


def stamp_hash_ok(st: VariantStamp, game: str, rules_version: str) -> bool:
    """The stamp's hash is the hash of its content (a log edited by hand fails this)."""
    return st.hash == content_hash(game, rules_version, st.changes, st.paused, st.options)


def apply_to_pack(pack: Any, st: VariantStamp) -> Any:
    """The content pack under the variant: a new validated pack of ``pack``'s model with every
    change set and the paused abilities removed from their factions (ValueError when the stamp
    does not fit the pack)."""
    data = pack.model_dump(mode="json")
    for path, value in st.changes.items():
        if get_path(data, path) is MISSING:
            raise ValueError(f"the variant changes {path}, which the content pack does not hold")
        set_path(data, path, value)
    for item in st.paused:
        fid, _, aid = item.partition("/")
        fac = _step(data.get("factions", []), fid)
        if fac is MISSING:
            raise ValueError(f"the variant pauses an ability of {fid!r}, not a faction")
        fac["abilities"] = [a for a in fac["abilities"] if a["id"] != aid]
    return type(pack).model_validate(data)


def without(st: VariantStamp, key: str, game: str, rules_version: str) -> VariantStamp:
    """The stamp with one change (a path, ``paused:<faction/ability>`` or ``option:<id>``)
    reverted to the base, re-hashed: what a finding is tested against to learn whether it rests
    on that change."""
    ch = {k: v for k, v in st.changes.items() if k != key}
    paused = [p for p in st.paused if f"paused:{p}" != key]
    options = {k: v for k, v in st.options.items() if f"option:{k}" != key}
    return VariantStamp(name=st.name, hash=content_hash(game, rules_version, ch, paused, options),
                        changes=ch, paused=paused, options=options)


def change_keys(st: VariantStamp) -> list[str]:
    """Every single change of a stamp, as :func:`without` names them."""
    return ([*st.changes] + [f"paused:{p}" for p in st.paused]
            + [f"option:{k}" for k in st.options])


def describe(st: VariantStamp, key: str) -> str:
    """A change as a finding cites it: ``PATH=VALUE``, ``paused:faction/ability``,
    ``option:ID=VALUE``."""
    if key in st.changes:
        return f"{key}={st.changes[key]}"
    if key.startswith("option:"):
        return f"{key}={st.options[key[7:]]}"
    return key


def rests_on(header: Any, findings: list[Any], replay_under: Callable[[Any], list[Any]]
             ) -> list[Any]:
    """``findings`` (of a replay under the header's variant) with ``variant_changes`` naming
    the variant's changes each rests on: replayed with that one change reverted to the rules
    as printed (``replay_under(header) -> findings``), the engine does not report it (the same
    code, event, seat and message). Findings under a header without a variant are returned as
    they are."""
    st: VariantStamp | None = getattr(header, "variant", None)
    if st is None or not findings or not change_keys(st):
        return findings
    keys = change_keys(st)

    def sig(f: Any) -> tuple[Any, ...]:
        return (f.code, f.where.event, f.where.seat, f.message)

    rests: dict[tuple[Any, ...], list[str]] = {}
    for k in keys:
        reverted = without(st, k, header.game, header.rules_version) if len(keys) > 1 else None
        others = {sig(f) for f in replay_under(header.model_copy(update={"variant": reverted}))}
        for f in findings:
            if sig(f) not in others:
                rests.setdefault(sig(f), []).append(describe(st, k))
    return [f.model_copy(update={"variant_changes": tuple(rests[sig(f)])}) if sig(f) in rests
            else f for f in findings]


# --- the header a game's setup reads --------------------------------------------------------


def for_setup(header: Any) -> Any:
    """The header a ruleset's setup reads under the header's variant: the variant's
    unwritten-rule options added to the header's ruling set (the one options mechanism, every
    game's ``header.rulings``), as ``ID=OPTION`` pairs after what the header names. A header
    without a variant, or whose variant sets no option, is returned as it is."""
    st = getattr(header, "variant", None)
    if st is None or not st.options or "rulings" not in type(header).model_fields:
        return header
    extra = ",".join(f"{k}={v}" for k, v in st.options.items())
    spec = header.rulings
    return header.model_copy(update={"rulings": f"{spec},{extra}" if spec else extra})


def variant_unplayable(header: Any, ruleset: Any) -> str | None:
    """Why the header's variant cannot be played by ``ruleset`` (None when it can): a change to
    content or a paused ability needs a game that plays variant packs (``plays_variants``), an
    option needs a header with a ruling set."""
    st = getattr(header, "variant", None)
    if st is None:
        return None
    if (st.changes or st.paused) and not ruleset.plays_variants:
        return (f"the log names the rules variant {st.name!r}, which changes content values or "
                f"pauses abilities; {ruleset.game} cannot change its content per game yet: "
                "replayed under the rules as printed")
    if st.options and "rulings" not in type(header).model_fields:
        return (f"the log names the rules variant {st.name!r}, which sets options; "
                f"{ruleset.game}'s header has no ruling set: replayed under the rules as printed")
    return None
