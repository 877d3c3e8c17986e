"""Measure ingest and rebuild throughput on synthetic logs (figures go to docs/storage.md).

    python -m cli.bench.warehouse --games 10000 --events 550 --dir /tmp/bench

Writes the synthetic logs once (``<dir>/logs``, reused when already there), then ingests them
into a fresh database ``<dir>/db/playtest.duckdb``, ingests again (everything must be skipped),
and rebuilds. Prints one line per step with the elapsed seconds and the peak resident memory
(this process, and the largest worker process). The logs come from the first registered game
declaring ``synthetic_log`` (well-formed, not legal games); with ``--from DIR`` any folder of logs
(e.g. ``playtest simulate`` output) is used instead. ``--stages N`` instead prints the CPU time
per game of each stage (read, canonical text, archive, replay, rows, frames) over the first N
logs in this process. ``--big-log MB`` instead writes one long log of about MB
megabytes (a synthetic game followed by observation events, canonical JSON) to
``<dir>/big<MB>.json`` and exits; measure its ingest with
``/usr/bin/time -v playtest ingest <dir>/big<MB>.json --db <dir>/big/playtest.duckdb``.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from cli.bench import synthetic_source
from ingest.archive import Archive, canonical_text, game_id_of_text, sha256_hex
from ingest.batching import _meta_for
from ingest.pipeline import FrameBuilder, game_columns, ingest_paths, read_input, rebuild
from schemas.canonical import dumps_log


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--events", type=int, default=550)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/playtest-bench"))
    ap.add_argument("--from", dest="source", type=Path, default=None)
    ap.add_argument("--no-rebuild", action="store_true")
    ap.add_argument("--stages", type=int, default=0, metavar="N")
    ap.add_argument("--big-log", type=int, default=0, metavar="MB")
    args = ap.parse_args(argv)
    if args.big_log:
        args.dir.mkdir(parents=True, exist_ok=True)
        out = args.dir / f"big{args.big_log}.json"
        out.write_text(big_log_text(args.big_log * 1_000_000), encoding="utf-8")
        print(f"wrote {out} ({out.stat().st_size:,} bytes)")
        return 0
    logs = args.source or args.dir / "logs"
    if args.source is None:
        logs.mkdir(parents=True, exist_ok=True)
        have = len(list(logs.glob("*.json")))
        t0 = time.perf_counter()
        synthetic_log = synthetic_source()[1]
        for i in range(have, args.games):
            (logs / f"game_{i:06d}.json").write_text(
                dumps_log(synthetic_log(i, events_target=args.events)), encoding="utf-8"
            )
        print(f"wrote {args.games - have} synthetic logs in {time.perf_counter() - t0:.1f} s")
    if args.stages:
        return stages(sorted(logs.glob("*.json"))[: args.stages])
    db_dir = args.dir / "db"
    shutil.rmtree(db_dir, ignore_errors=True)
    db = db_dir / "playtest.duckdb"
    for step in ("first ingest", "second ingest", "rebuild"):
        if step == "rebuild" and args.no_rebuild:
            break
        own = _cpu(resource.RUSAGE_SELF)
        s = rebuild(db, progress=False) if step == "rebuild" else ingest_paths([logs], db, progress=False)
        n = max(1, len(s.reports))
        print(
            f"{step}: {s.counts()} in {s.seconds:.1f} s wall; batch CPU {s.batch_cpu_seconds:.1f} s "
            f"({1000 * s.batch_cpu_seconds / n:.1f} ms per game), DuckDB load {s.load_seconds:.1f} s "
            f"wall; this process {_cpu(resource.RUSAGE_SELF) - own:.1f} CPU-s (the loads, the "
            "walk, the pool's results)"
        )
        # A worker's own figure (ru_maxrss at the end of each batch): RUSAGE_CHILDREN would count
        # what the worker inherited from this process before it started its program.
        print(f"  peak RSS so far: this process {_max_rss_mb(resource.RUSAGE_SELF):.0f} MB, "
              f"largest batch process {s.batch_max_rss_kb / 1024:.0f} MB")
    return 0


def big_log_text(size: int) -> str:
    """Canonical JSON of a synthetic game followed by observation events, about ``size`` bytes
    (a long recorded session: the worst case for one file's memory)."""
    log = synthetic_source()[1](0, events_target=160)
    data = log.model_dump(mode="json", exclude_none=True)
    base = len(dumps_log(log))
    one = len('{"type": "observation", "category": "moment", "minutes": 0.5, "text": '
              '"the table laughed at headline 000000; nobody checked the rulebook"},\n')
    data["events"] += [
        {"type": "observation", "category": "moment", "minutes": 0.5,
         "text": f"the table laughed at headline {i:06d}; nobody checked the rulebook"}
        for i in range(max(0, (size - base) // one))
    ]
    return dumps_log(type(log).model_validate(data))


def _cpu(who: int) -> float:
    """CPU seconds (user + system) of this process or of its finished children."""
    use = resource.getrusage(who)
    return use.ru_utime + use.ru_stime


def _max_rss_mb(who: int) -> float:
    """Peak resident memory (MB) of this process or of its largest finished child (workers)."""
    rss = resource.getrusage(who).ru_maxrss
    return rss / 1e6 if sys.platform == "darwin" else rss / 1024


def stages(files: list[Path]) -> int:
    """Print the CPU time per game of each ingest stage over ``files`` (one process)."""
    from engine.core.replay import replay

    spent = dict.fromkeys(("read", "canonical", "archive", "replay", "rows", "frames"), 0.0)
    arch = Archive(tempfile.mkdtemp(prefix="stages-"), staged=True)  # as the workers do
    builder = FrameBuilder()
    clock = time.process_time
    for f in files:
        t0 = clock()
        loaded = read_input(f)[0]
        t1 = clock()
        parsed = loaded.parsed
        assert parsed.ruleset is not None, loaded.unreadable
        log = parsed.ruleset.log_model.model_construct(header=parsed.header, events=list(parsed.events))
        text = canonical_text(log)
        gid = game_id_of_text(text)
        t2 = clock()
        raw = arch.put_raw(loaded.raw, "json").path
        meta = _meta_for(loaded, sha256_hex(loaded.raw))
        arch.put_game_text(text, meta, same_as=raw if loaded.raw == text.encode() else None)
        arch.record_games_of_raw(sha256_hex(loaded.raw), [gid])
        t3 = clock()
        replay(parsed.header, parsed.events)
        t4 = clock()
        columns, _ = game_columns(gid, text, parsed.header, parsed.events, meta)  # replays again
        t5 = clock()
        builder.add_columns(gid, columns)
        for k, dt_ in zip(spent, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, (t5 - t4) - (t4 - t3), 0.0),
                          strict=True):
            spent[k] += dt_
    t0 = clock()
    arch.sync()  # one syncfs, the links, a second syncfs (once per batch in the workers)
    t1 = clock()
    builder.build()
    spent["archive"] += t1 - t0
    spent["frames"] += clock() - t1
    n = max(1, len(files))
    print(f"{len(files)} games; CPU ms per game:")
    for k, v in spent.items():
        print(f"  {k:10s} {1000 * v / n:6.1f}")
    print(f"  {'total':10s} {1000 * sum(spent.values()) / n:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
