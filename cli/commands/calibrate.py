"""``playtest calibrate``: A study's balance figures beside the designers' published ones."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from cli.calibrate import report

    study = Path(args.study)
    if not (study / "games").is_dir():
        raise CliError(f"{study}: not a study folder (no games/ tables); make one with playtest study")
    from ingest.study import completed_batches

    damaged: dict[str, str] = {}
    completed_batches(study, damaged)  # each batch's files checked against its marker
    if damaged:
        bid, why = sorted(damaged.items())[0]
        raise CliError(f"{study}: {len(damaged)} batch(es) of the study are damaged (batch {bid}: "
                       f"{why}); run `playtest study` again with --out {study} to play them again")
    print(report(study))
    return EXIT_OK



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``calibrate`` to the ``playtest`` subcommands."""
    ca = sub.add_parser("calibrate", help="a study's balance figures beside the designers' published ones")
    ca.add_argument("study", metavar="STUDY_DIR")
    ca.set_defaults(func=cmd_calibrate)
