"""``playtest validate``: Replay games and report rule findings (the validate contract, DESIGN.md §4)."""

from __future__ import annotations

import argparse
import json
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
from schemas.findings import value_words

EXIT_INTERNAL = 3  # a game's rules engine raised (cli/main.py: an internal error)


def format_validate_text(files: list[dict[str, Any]], *, quiet: bool = False) -> str:
    """Readable report, grouped per file (``quiet``: clean games are only counted)."""
    lines = []
    for f in files:
        title = f["path"] + (f" ({f['game_id']})" if f.get("game_id") else "")
        n = len(f["findings"])
        under = _variant_text(f.get("variant"))
        if f["status"] == "clean":
            if not quiet:
                lines.append(f"{title}: clean")
                if under:
                    lines.append(f"  {under}")
            continue
        label = "UNREADABLE" if f["status"] == "unreadable" else (
            "FAILED (the game's engine raised)" if _failed(f)
            else f"{n} finding{'s' if n != 1 else ''}")
        lines.append(f"{title}: {label}")
        if under:
            lines.append(f"  {under}")
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


def _variant_text(v: dict[str, Any] | None) -> str:
    """The text report's line naming the rules variant a game was audited under."""
    if not v:
        return ""
    how = " (as validate --variant asked)" if v.get("from") == "--variant" else ""
    return f"audited under the rules variant {v['name']} (content hash {v['hash']}){how}"


def audited_under(item: Loaded, variant: Any, entry: dict[str, Any]) -> dict[str, Any] | None:
    """The rules variant a game was audited under, for its contract entry's ``variant`` field:
    ``{"name", "hash", "from"}`` (``from``: ``header``, the log's own stamp, or ``--variant``),
    or None for the rules as printed: no stamp, ``--printed-rules``, an unreadable log, or a
    stamp the game could not play (``log/variant``: replayed under the printed rules)."""
    from cli.commands.variant import PRINTED

    header = getattr(item.parsed, "header", None) if item.readable else None
    if header is None or variant == PRINTED or "variant" not in type(header).model_fields:
        return None
    stamp = variant if variant is not None else getattr(header, "variant", None)
    if stamp is None or any(x.get("code") == "log/variant" for x in entry["findings"]):
        return None
    return {"name": stamp.name, "hash": stamp.hash,
            "from": "header" if variant is None else "--variant"}


def _validate_input(item: Path | Loaded, rulings: str | None = None, variant: Any = None
                    ) -> list[dict[str, Any]]:
    """The contract entries of every game in one input (worker function; never raises), each
    with the rules variant it was audited under (``variant``: :func:`audited_under`)."""
    loaded = [item] if isinstance(item, Loaded) else _read_one(item)
    out = []
    for one in loaded:
        try:
            entry = validate_one(one, rulings, variant)
        except Exception as err:  # noqa: BLE001 - one game's engine must not stop the others
            entry = _engine_failed(one, err)
        try:
            entry["variant"] = audited_under(one, variant, entry)
        except Exception:  # noqa: BLE001 - naming the variant must not lose the entry
            entry["variant"] = None
        out.append(entry)
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
