"""``playtest rebuild``: Recreate the warehouse from the archive."""

from __future__ import annotations

import argparse
from typing import Any

from cli.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    _db_path,
    _pipeline,
    _summary_text,
)


def cmd_rebuild(args: argparse.Namespace) -> int:
    pipeline = _pipeline()
    kwargs = {"allow_drop": True} if args.force else {}
    summary = pipeline.rebuild(_db_path(args), **kwargs)
    if summary is not None:
        print(_summary_text(summary))
        if summary.failed:  # games in the archive that did not load: not a clean rebuild
            return EXIT_UNREADABLE
    return EXIT_OK



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``rebuild`` to the ``playtest`` subcommands."""
    rb = sub.add_parser("rebuild", parents=[db_parent], help="recreate the warehouse from the archive")
    rb.add_argument("--force", action="store_true",
                    help="rebuild even when the warehouse holds games the archive lacks (they are dropped)")
    rb.set_defaults(func=cmd_rebuild)
