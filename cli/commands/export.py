"""``playtest export``: Export the warehouse tables as Parquet or CSV."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    _db_path,
    _pipeline,
)


def cmd_export(args: argparse.Namespace) -> int:
    pipeline = _pipeline()
    fmt, out = ("parquet", args.parquet) if args.parquet else ("csv", args.csv)
    result = pipeline.export(_db_path(args), Path(out), fmt)
    n = len(result) if isinstance(result, list) else 0
    from schemas.variants import printable

    # the folder as typed: its terminal escape codes are shown, not obeyed
    print(f"exported the warehouse as {fmt} to {printable(str(out))}"
          + (f" ({n} files)" if n else ""))
    return EXIT_OK



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``export`` to the ``playtest`` subcommands."""
    e = sub.add_parser("export", parents=[db_parent], help="export the warehouse tables")
    g = e.add_mutually_exclusive_group(required=True)
    g.add_argument("--parquet", metavar="DIR")
    g.add_argument("--csv", metavar="DIR")
    e.set_defaults(func=cmd_export)
