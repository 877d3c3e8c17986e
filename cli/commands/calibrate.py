"""``playtest calibrate``: a study's balance figures beside the designers' published ones;
``--null-check N``: how often each balance verdict is wrong under random winners.

The study folder names its game (``study.json``); the report is that game's, declared as
``designer_loop.calibrate`` (Mandate 2038: ingest/mandate2038/calibrate.py). A game that
publishes no figures says so. Without a study folder (``--null-check`` on the documented pool)
the game is the default one.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from engine.core.game import resolve
    from engine.core.registry import DEFAULT_GAME, get_ruleset
    from ingest.study import folder_game, study_problems
    from schemas.variants import printable

    if args.study is not None and (Path(args.study) / "_batches").is_dir():
        # every batch finished, of this study, and no file of another (as `study` trusts one)
        problems = study_problems(Path(args.study))
        if problems:
            raise CliError(f"{printable(args.study)}: the study folder cannot be read as one "
                           f"study: {'; '.join(map(printable, problems))}; run `playtest "
                           f"study` again with --out {printable(args.study)} to play damaged "
                           "or missing batches again, and remove files of other studies")
    game = folder_game(Path(args.study)) if args.study is not None else DEFAULT_GAME
    rs = get_ruleset(game)
    if rs is None:
        raise CliError(f"{printable(args.study)} is a study of {printable(game)}, which is not "
                       "installed")
    loop = rs.designer_loop
    if loop is None or loop.calibrate is None:
        raise CliError(f"{rs.title} publishes no designers' figures to calibrate a study "
                       "against (playtest compare compares a variant study's arms)")
    try:
        print(resolve(loop.calibrate)(args))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return EXIT_OK


def add_arguments(parser: Any) -> None:
    """The ``calibrate`` command's arguments."""
    parser.add_argument("study", metavar="STUDY_DIR", nargs="?", default=None,
                        help="a folder written by playtest study (for --null-check: the pool "
                             "of games to draw replicate studies from; without it the null "
                             "check plays its documented pool, 200 games per player count and "
                             "policy, into simulated/null-pool once)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--null-check", type=int, default=None, metavar="N",
                        help="instead: each check's false-verdict rate and interval coverage "
                             "under random winners over N replicate studies of 50, 200 and "
                             "1,000 games (docs/balance.md)")
    parser.add_argument("--players", default="",
                        help="with --null-check: the player counts to check (default: all)")


def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``calibrate`` to the ``playtest`` subcommands."""
    ca = sub.add_parser("calibrate", help="a study's balance figures beside the designers' "
                        "published ones; --null-check: how sure each verdict is")
    add_arguments(ca)
    ca.set_defaults(func=cmd_calibrate)
