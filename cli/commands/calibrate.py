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
    print(report(study))
    return EXIT_OK



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``calibrate`` to the ``playtest`` subcommands."""
    ca = sub.add_parser("calibrate", help="a study's balance figures beside the designers' published ones")
    ca.add_argument("study", metavar="STUDY_DIR")
    ca.set_defaults(func=cmd_calibrate)
