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
    from ingest.study import study_problems
    from schemas.variants import printable

    if args.study is not None and (Path(args.study) / "_batches").is_dir():
        # every batch finished, of this study, and no file of another (as `study` trusts one)
        problems = study_problems(Path(args.study))
        if problems:
            raise CliError(f"{printable(args.study)}: the study folder cannot be read as one "
                           f"study: {'; '.join(map(printable, problems))}; run `playtest "
                           f"study` again with --out {printable(args.study)} to play damaged "
                           "or missing batches again, and remove files of other studies")
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
