"""``playtest compare DIR``: a study's rules variants against its baseline on common seeds,
per balance-contract metric, with paired block-bootstrap intervals (docs/variants.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_UNUSABLE = 2


def cmd_compare(args: argparse.Namespace) -> int:
    """Paired comparison of a study's variants with its baseline (or of two studies)."""
    from dashboards.variant_queries import CompareError, compare, format_text

    players = int(args.players) if args.players else None
    try:
        result = compare(Path(args.dir), against=Path(args.against) if args.against else None,
                         players=players, replicates=args.replicates, seed=args.seed)
    except CompareError as exc:
        print(f"playtest: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    if args.format == "json":
        print(json.dumps(result, indent=1, default=str))
    else:
        print(format_text(result))
    return EXIT_OK


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


