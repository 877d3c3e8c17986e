"""Measure ingest and rebuild throughput on synthetic logs (figures go to docs/storage.md).

    python -m ingest.warehouse.bench --games 10000 --events 550 --dir /tmp/bench

Writes the synthetic logs once (``<dir>/logs``, reused when already there), then ingests them
into a fresh database ``<dir>/db/playtest.duckdb``, ingests again (everything must be skipped),
and rebuilds. Prints one line per step with the elapsed seconds. The logs come from
:mod:`ingest.warehouse.synthetic` (well-formed, not legal games); with ``--from DIR`` any folder
of logs (e.g. ``playtest simulate`` output) is used instead.
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

from ingest.pipeline import ingest_paths, rebuild
from ingest.warehouse.synthetic import synthetic_log
from schemas.canonical import dumps_log


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--events", type=int, default=550)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/playtest-bench"))
    ap.add_argument("--from", dest="source", type=Path, default=None)
    ap.add_argument("--no-rebuild", action="store_true")
    args = ap.parse_args(argv)
    logs = args.source or args.dir / "logs"
    if args.source is None:
        logs.mkdir(parents=True, exist_ok=True)
        have = len(list(logs.glob("*.json")))
        t0 = time.perf_counter()
        for i in range(have, args.games):
            (logs / f"game_{i:06d}.json").write_text(
                dumps_log(synthetic_log(i, events_target=args.events)), encoding="utf-8"
            )
        print(f"wrote {args.games - have} synthetic logs in {time.perf_counter() - t0:.1f} s")
    db_dir = args.dir / "db"
    shutil.rmtree(db_dir, ignore_errors=True)
    db = db_dir / "playtest.duckdb"
    for step in ("first ingest", "second ingest", "rebuild"):
        if step == "rebuild" and args.no_rebuild:
            break
        s = rebuild(db, progress=False) if step == "rebuild" else ingest_paths([logs], db, progress=False)
        n = max(1, len(s.reports))
        print(
            f"{step}: {s.counts()} in {s.seconds:.1f} s wall; batch CPU {s.batch_cpu_seconds:.1f} s "
            f"({1000 * s.batch_cpu_seconds / n:.1f} ms per game), DuckDB load {s.load_seconds:.1f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
