"""``playtest validate``: Replay games and report rule findings (the validate contract, DESIGN.md §4)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNREADABLE,
    CliError,
    Loaded,
    _read_one,
    _stderr_console,
    _where_text,
    batch_gc,
    check_rulings_spec,
    expand_inputs,
    select_inputs,
    validate_one,
)

EXIT_INTERNAL = 3  # a game's rules engine raised (cli/main.py: an internal error)


def value_words(value: Any, missing: str = "—") -> str:
    """A finding's expected or recorded value as a reader says it, never a Python repr: a
    string without quotes, ``True`` as "yes", a list as "a, b" ("none" when empty), a mapping
    as "facilities: 1, 2; emergency: 0", a value not there as ``missing``. The JSON report
    keeps the raw values (the validate contract)."""
    if value is None:
        return missing
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return ", ".join(value_words(v, "nothing") for v in items) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')}: {value_words(v, 'nothing')}"
                         for k, v in value.items()) or "none"
    # a list the engine wrote into its text ("one of ['a', 'b']") reads "one of a, b"
    return _LIST_REPR.sub(lambda m: ", ".join(re.findall(r"'([^']*)'", m.group(0))) or "none",
                          str(value))


#: a Python list of strings as ``str`` prints it, inside an engine's text
_LIST_REPR = re.compile(r"\[(?:'[^'\[\]]*'(?:, )?)*\]")


def format_validate_text(files: list[dict[str, Any]], *, quiet: bool = False) -> str:
    """Readable report, grouped per file (``quiet``: clean games are only counted)."""
    lines = []
    for f in files:
        title = f["path"] + (f" ({f['game_id']})" if f.get("game_id") else "")
        n = len(f["findings"])
        if f["status"] == "clean":
            if not quiet:
                lines.append(f"{title}: clean")
            continue
        label = "UNREADABLE" if f["status"] == "unreadable" else (
            "FAILED (the game's engine raised)" if _failed(f)
            else f"{n} finding{'s' if n != 1 else ''}")
        lines.append(f"{title}: {label}")
        for x in f["findings"]:
            lines.append(f"  [{x['severity']}] {x['code']} at {_where_text(x['where'])}")
            lines.append(f"      {x['message']}")
            lines.append(f"      rule: {x['rule']}")
            if x.get("rulings"):
                lines.append(f"      rests on rulings: {', '.join(x['rulings'])}")
            if x.get("variant_changes"):
                lines.append("      rests on the variant's changes: "
                             f"{', '.join(x['variant_changes'])}")
            if "expected" in x or "recorded" in x:
                lines.append(f"      expected: {value_words(x.get('expected'), '—')}   "
                             f"recorded: {value_words(x.get('recorded'), 'nothing recorded')}")
    errors = sum(1 for f in files for x in f["findings"] if x["severity"] == "error")
    unreadable = sum(1 for f in files if f["status"] == "unreadable")
    clean = sum(1 for f in files if f["status"] == "clean")
    failed = sum(1 for f in files if _failed(f))
    lines.append(f"{len(files)} game(s): {clean} clean, {errors} error finding(s), {unreadable} unreadable"
                 + (f", {failed} failed" if failed else ""))
    return "\n".join(lines)


def _validate_input(item: Path | Loaded, rulings: str | None = None, variant: Any = None
                    ) -> list[dict[str, Any]]:
    """The contract entries of every game in one input (worker function; never raises)."""
    loaded = [item] if isinstance(item, Loaded) else _read_one(item)
    out = []
    for one in loaded:
        try:
            out.append(validate_one(one, rulings, variant))
        except Exception as err:  # noqa: BLE001 - one game's engine must not stop the others
            out.append(_engine_failed(one, err))
    return out


def _engine_failed(item: Loaded, err: Exception) -> dict[str, Any]:
    """The contract entry of a game whose rules engine raised: status ``findings`` (the
    contract's statuses are clean, findings and unreadable; the log itself was read) with one
    ``engine/internal-error`` finding; the other games of the run are validated and printed as
    usual; the exit status is 3 (an internal error, docs/cli.md)."""
    header = getattr(item.parsed, "header", None)
    game = getattr(header, "game", None) or "?"
    return {"path": item.source, "game_id": getattr(header, "game_id", None), "status": "findings",
            "findings": [{
                "code": "engine/internal-error", "severity": "error",
                "rule": f"the {game} game's rules engine (docs/cli.md: exit 3)",
                "message": f"{item.source}: the {game} game's rules engine raised "
                           f"{type(err).__name__}: {err}; this game was not audited (please "
                           "report it to the game's authors)",
                "where": {"event": None, "line": None, "era": None, "cycle": None,
                          "round": None, "seat": None},
            }]}


def _failed(entry: dict[str, Any]) -> bool:
    """Whether a contract entry is that of a game whose rules engine raised."""
    return any(x["code"] == "engine/internal-error" for x in entry["findings"])


def cmd_validate(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from ingest.formats import source_name

    if args.jobs < 1:
        raise CliError("--jobs must be at least 1")
    rulings = getattr(args, "rulings", None)
    check_rulings_spec(rulings)
    from cli.commands.variant import validate_variant

    variant = validate_variant(args)
    files: list[dict[str, Any]] = []
    work: list[Path | Loaded] = []
    paths, skipped = select_inputs(args.paths)
    for p in paths:
        found = expand_inputs(p)
        work.extend([found] if isinstance(found, Loaded) else found)
    if skipped and not args.quiet:
        print(f"skipped {len(skipped)} file(s) that are not game logs, as a folder walk does: "
              + ", ".join(source_name(x) for x in skipped[:5]) + (" ..." if len(skipped) > 5 else ""),
              file=sys.stderr)
    quiet_bar = args.quiet or len(work) < 20
    with Progress(transient=True, console=_stderr_console(), disable=quiet_bar) as bar:
        task = bar.add_task("validating", total=len(work))
        if args.jobs > 1 and len(work) > 1:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            methods = mp.get_all_start_methods()
            ctx = mp.get_context("fork" if "fork" in methods else methods[0])
            with ProcessPoolExecutor(max_workers=args.jobs, mp_context=ctx) as pool:
                for entries in pool.map(_validate_input, work, [rulings] * len(work),
                                        [variant] * len(work), chunksize=8):
                    files.extend(entries)
                    bar.advance(task)
        else:
            with batch_gc():
                for item in work:
                    files.extend(_validate_input(item, rulings, variant))
                    bar.advance(task)
    if args.format == "json":
        print(json.dumps({"files": files}, ensure_ascii=False, indent=2, default=str))
    else:
        print(format_validate_text(files, quiet=args.quiet))
    if any(_failed(f) for f in files):
        return EXIT_INTERNAL
    if any(f["status"] == "unreadable" for f in files):
        return EXIT_UNREADABLE
    bad = {"error", "warning"} if args.strict else {"error"}
    if any(x["severity"] in bad for f in files for x in f["findings"]):
        return EXIT_FINDINGS
    return EXIT_OK



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``validate`` to the ``playtest`` subcommands."""
    v = sub.add_parser("validate", help="replay games and report rule findings")
    v.add_argument("paths", nargs="+", metavar="PATH")
    v.add_argument("--format", choices=("text", "json"), default="text")
    v.add_argument("--strict", action="store_true", help="warnings also make the exit status 1")
    v.add_argument("--jobs", type=int, default=1, help="validate in this many processes")
    v.add_argument("--quiet", "-q", action="store_true",
                   help="for large runs: no progress bar, and the text report lists only games "
                        "with findings or unreadable input, then the totals")
    v.add_argument("--rulings", metavar="NAME",
                   help="replay under this ruling set (a set name, ID=OPTION pairs, or both, "
                        "comma-separated) instead of the one each log names; docs/engine.md")
    v.set_defaults(func=cmd_validate)
    from cli.commands.variant import add_validate_options

    add_validate_options(v)
