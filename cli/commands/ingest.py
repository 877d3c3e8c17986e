"""``playtest ingest``: Archive and load games (files or folders) into the warehouse."""

from __future__ import annotations

import argparse
import contextlib
import json
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    _db_path,
    _pipeline,
    _summary_text,
    _unreadable_count,
)


def start_pool(args: argparse.Namespace) -> Any:
    """Start a large ingest's workers (``args.pool``, also returned), before anything heavy is
    imported: they import beside this process's own imports, walk and database set-up
    (ingest.pool). ``cli.main`` calls it as soon as the arguments are parsed (the command's
    ``early_start``) and closes the pool once the command ends."""
    from ingest.pool import prestart  # the standard library only

    args.pool = prestart(args.paths)
    return args.pool


def cmd_ingest(args: argparse.Namespace) -> int:
    # the pool :func:`start_pool` started (or started now); closed on every way out
    with contextlib.ExitStack() as stack:
        if "pool" not in vars(args):
            start_pool(args)
        pool = args.pool
        if pool is not None:
            stack.enter_context(pool)
        pipeline = _pipeline()
        db = _db_path(args)
        # ingest_paths reports a path that does not exist as an unreadable input itself
        summary = pipeline.ingest_paths([Path(p) for p in args.paths], db,
                                        progress=args.format != "json", pool=pool)
    if args.format == "json" and hasattr(summary, "to_dict"):
        print(json.dumps(summary.to_dict(), ensure_ascii=False, indent=2, default=str))
    else:
        print(_summary_text(summary))
    return EXIT_UNREADABLE if _unreadable_count(summary) else EXIT_OK



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``ingest`` to the ``playtest`` subcommands."""
    i = sub.add_parser("ingest", parents=[db_parent], help="archive and load games (files or folders)")
    i.add_argument("paths", nargs="+", metavar="PATH")
    i.add_argument("--format", choices=("text", "json"), default="text")
    i.set_defaults(func=cmd_ingest, early_start=start_pool)
