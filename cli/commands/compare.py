"""``playtest compare DIR``: a study's rules variants against its baseline on common seeds,
per metric, with paired bootstrap intervals (docs/variants.md): the comparison of the study's
game's study parts (``StudyParts.compare``/``text``: Mandate 2038's on its Balance contract,
ingest/mandate2038/compare.py; a game declaring ``play``, the metrics its designer loop declares,
ingest.study.compare_study)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from schemas.variants import printable

EXIT_OK = 0
EXIT_UNUSABLE = 2


#: bootstrap replicates ``compare`` takes (each replicate is an array over every common game)
MIN_REPLICATES, MAX_REPLICATES = 200, 20_000
MAX_SEED = 2**32 - 1  # numpy's seeds


def _bounded(args: argparse.Namespace) -> tuple[int | None, str | None]:
    """(the --players count, None) or (None, why a number typed is out of bounds)."""
    if not MIN_REPLICATES <= args.replicates <= MAX_REPLICATES:
        return None, (f"--replicates must be {MIN_REPLICATES:,} to {MAX_REPLICATES:,}, not "
                      f"{args.replicates:,}")
    if not 0 <= args.seed <= MAX_SEED:
        return None, f"--seed must be 0 to {MAX_SEED:,}, not {args.seed:,}"
    if not args.players:
        return None, None
    text = str(args.players).strip()
    if not (text.isascii() and text.isdigit() and 2 <= int(text) <= 6):
        return None, f"--players must be one player count (2 to 6), not {printable(text)!r}"
    return int(text), None


def cmd_compare(args: argparse.Namespace) -> int:
    """Paired comparison of a study's variants with its baseline (or of two studies)."""
    from ingest.study import StudyError, folder_game, study_parts, study_problems

    players, why = _bounded(args)
    if why:
        print(f"playtest: {why}", file=sys.stderr)
        return EXIT_UNUSABLE
    for folder in (args.dir, args.against):
        # every batch finished, of this study, no file of another: else numbers would be wrong
        problems = study_problems(Path(folder)) if folder else []
        if problems:
            print(f"playtest: {printable(folder)}: the study folder cannot be compared:",
                  file=sys.stderr)
            for p in problems:
                print(f"  {printable(p)}", file=sys.stderr)
            print("  run `playtest study` again with the same options and --out to play "
                  "damaged or missing batches again; remove files of other studies",
                  file=sys.stderr)
            return EXIT_UNUSABLE
    against = Path(args.against) if args.against else None
    try:
        game = folder_game(Path(args.dir))
        if against is not None and folder_game(against) != game:
            raise StudyError(f"{printable(args.against)} is a study of {folder_game(against)}, "
                             f"{printable(args.dir)} of {game}")
        parts = study_parts(game)
        if parts.compare is None:
            raise StudyError(f"{game!r} declares no comparison of its studies "
                             "(ingest.study.StudyParts.compare)")
        result = parts.compare(Path(args.dir), against, players, args.replicates, args.seed)
        text: Any = parts.text or (lambda r: json.dumps(r, indent=1, default=str))
    except ValueError as exc:  # StudyError, the comparison's CompareError
        print(f"playtest: {printable(str(exc))}", file=sys.stderr)
        return EXIT_UNUSABLE
    if args.format == "json":
        print(json.dumps(result, indent=1, default=str))
    else:
        print(printable_lines(text(result)))
    return EXIT_OK


def printable_lines(text: str) -> str:
    """``text``'s lines with their control characters shown as escapes (a study's variant
    names and paths are user text)."""
    return "\n".join(printable(line) for line in text.split("\n"))


def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``compare`` to the ``playtest`` subcommands."""
    del db_parent
    c = sub.add_parser("compare", help="a study's variants against its baseline: paired "
                       "differences with block-bootstrap intervals per balance metric")
    c.add_argument("dir", metavar="DIR")
    c.add_argument("--against", metavar="DIR2", default=None,
                   help="compare DIR's baseline with DIR2's baseline, game index by game index "
                        "(e.g. the same rules on two seeds)")
    c.add_argument("--players", default=None, help="one player count (default: each present)")
    c.add_argument("--replicates", type=int, default=2000, help="bootstrap replicates")
    c.add_argument("--seed", type=int, default=0, help="the bootstrap's random seed")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.set_defaults(func=cmd_compare)


