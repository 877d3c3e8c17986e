"""``playtest bench``: Measure replay-validate throughput (cli/bench/run.py does the work)."""

from __future__ import annotations

import argparse
from typing import Any


def cmd_bench(args: argparse.Namespace) -> int:
    from cli.bench.run import run_bench

    return run_bench(args)



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``bench`` to the ``playtest`` subcommands."""
    b = sub.add_parser("bench", parents=[db_parent], help="measure replay-validate throughput")
    b.add_argument("--games", type=int, default=200)
    b.add_argument("--players", default="3,4,5")
    b.add_argument("--seed", default="bench")
    b.add_argument("--corpus", metavar="DIR", help="use the games in DIR instead of simulating")
    b.add_argument("--bot", choices=("random", "heuristic", "mixed"), default="mixed")
    b.add_argument("--ingest", action="store_true", help="also time ingest into a temporary database")
    b.add_argument("--pages", action="store_true",
                   help="time every dashboard page: alone, on synthetic warehouses of "
                        "--page-games games; with --ingest, on the ingested corpus")
    b.add_argument("--page-games", default="10000,100000",
                   help="warehouse sizes for --pages (multiples of 125)")
    b.add_argument("--page-dir", default=None,
                   help="where the synthetic warehouses are built and kept "
                        "(default /tmp/playtest-bench-pages or PLAYTEST_BENCH_DIR)")
    b.add_argument("--profile", action="store_true", help="print the top cProfile entries")
    b.add_argument("--chess", action="store_true",
                   help="also time python-chess reading PGN in the same run (the yardstick of "
                        "docs/engine.md; needs the bench extra: pip install -e '.[bench]')")
    b.add_argument("--jobs", type=int, default=1,
                   help="also time validation split over this many processes (row d)")
    b.set_defaults(func=cmd_bench)
