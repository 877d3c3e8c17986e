"""``playtest reaudit``: Re-audit every archived game under another ruling set and show which findings change."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    _db_path,
    _read_one,
    _where_text,
    check_rulings_spec,
    validate_one,
)
from schemas.variants import printable


def _finding_key(x: dict[str, Any]) -> tuple[Any, ...]:
    """What identifies a finding across two replays. Expected and recorded values may be lists
    or objects (unhashable), so they take part as their canonical JSON text."""
    w = x.get("where") or {}
    return (x["code"], w.get("event"), w.get("seat"), _value_key(x.get("expected")),
            _value_key(x.get("recorded")))


def _value_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def reaudit_entries(paths: list[Path], rulings: str) -> list[dict[str, Any]]:
    """For each game in ``paths``: the findings that appear and disappear when it is replayed
    under ``rulings`` instead of its own ruling set (the header's, else the defaults).

    A game on which our own code fails is an entry with ``error`` (the rest still re-audited),
    never the end of the re-audit."""
    out: list[dict[str, Any]] = []
    for path in paths:
        for item in _read_one(path):
            if not item.readable:  # said, never skipped in silence: the re-audit is partial
                out.append({"path": item.source, "game_id": None, "added": [], "removed": [],
                            "unreadable": printable(str(item.reason or "unreadable"))})
                continue
            header = getattr(item.parsed, "header", None)
            entry: dict[str, Any] = {"path": item.source, "game_id": getattr(header, "game_id", None),
                                     "own_rulings": getattr(header, "rulings", None) or "default",
                                     "added": [], "removed": []}
            try:
                before = validate_one(item)
                after = validate_one(item, rulings)
                keys_b = {_finding_key(x): x for x in before["findings"]}
                keys_a = {_finding_key(x): x for x in after["findings"]}
            except Exception as err:  # noqa: BLE001 - one game must not end the re-audit
                entry["error"] = f"{type(err).__name__}: {err}"
                out.append(entry)
                continue
            entry["added"] = [x for k, x in keys_a.items() if k not in keys_b]
            entry["removed"] = [x for k, x in keys_b.items() if k not in keys_a]
            out.append(entry)
    return out


def cmd_reaudit(args: argparse.Namespace) -> int:
    """Re-audit the archive under ``--rulings`` and print what changes, game by game."""
    from ingest.db import archive_root

    check_rulings_spec(args.rulings)
    root = archive_root(_db_path(args)) / "games"
    files = sorted(p for p in root.rglob("*.json") if not p.name.endswith(".meta.json")) \
        if root.is_dir() else []
    entries = reaudit_entries(files, args.rulings)
    skipped = [e for e in entries if "unreadable" in e]
    entries = [e for e in entries if "unreadable" not in e]
    changed = [e for e in entries if e["added"] or e["removed"]]
    failed = [e for e in entries if "error" in e]
    status = EXIT_UNREADABLE if failed or skipped else EXIT_OK
    if args.format == "json":
        print(json.dumps({"rulings": args.rulings, "games": len(entries), "changed": changed,
                          "failed": failed, "skipped": skipped}, ensure_ascii=False, indent=2,
                         default=str))
        return status
    for e in skipped:
        print(f"{printable(e['path'])}: skipped, the archived game cannot be read "
              f"({e['unreadable']})")
    for e in failed:
        print(f"{e['path']} ({e['game_id']}): could not be re-audited, our code failed on it "
              f"({e['error']}); please report it")
    for e in changed:
        print(f"{e['path']} ({e['game_id']}, own rulings: {e['own_rulings']})")
        for sign, xs in (("+", e["added"]), ("-", e["removed"])):
            for x in xs:
                print(f"  {sign} [{x['severity']}] {x['code']} at {_where_text(x['where'])}: "
                      f"{x['message']}")
    print(f"{len(entries)} archived game(s) re-audited under --rulings {args.rulings}: "
          f"{len(changed)} change(s) their findings"
          + (f", {len(failed)} could not be re-audited" if failed else "")
          + (f", {len(skipped)} archived file(s) skipped as unreadable" if skipped else ""))
    return status



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``reaudit`` to the ``playtest`` subcommands."""
    ra = sub.add_parser("reaudit", help="re-audit every archived game under another ruling set "
                        "and show which findings change")
    ra.add_argument("--rulings", required=True, metavar="NAME",
                    help="the ruling set to compare with each game's own (see `rulings`)")
    ra.add_argument("--db", help="the DuckDB database whose archive to read (default: "
                    "$PLAYTEST_DB or data/warehouse/playtest.duckdb)")
    ra.add_argument("--format", choices=("text", "json"), default="text")
    ra.set_defaults(func=cmd_reaudit)
