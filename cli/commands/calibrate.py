"""``playtest calibrate``: a study's balance figures beside the designers' published ones;
``--null-check N``: how often each balance verdict is wrong under random winners."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from cli.calibrate import command
    from ingest.mandate2038.study import completed_batches

    if args.study is not None and (Path(args.study) / "_batches").is_dir():
        damaged: dict[str, str] = {}
        completed_batches(Path(args.study), damaged)  # each batch's files against its marker
        if damaged:
            bid, why = sorted(damaged.items())[0]
            raise CliError(f"{args.study}: {len(damaged)} batch(es) of the study are damaged "
                           f"(batch {bid}: {why}); run `playtest study` again with --out "
                           f"{args.study} to play them again")
    try:
        print(command(args))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return EXIT_OK


def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``calibrate`` to the ``playtest`` subcommands."""
    from cli.calibrate import add_arguments

    ca = sub.add_parser("calibrate", help="a study's balance figures beside the designers' "
                        "published ones; --null-check: how sure each verdict is")
    add_arguments(ca)
    ca.set_defaults(func=cmd_calibrate)
