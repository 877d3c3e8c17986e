"""``playtest bench``: replay-validate throughput on one core, peak memory, optional ingest and
dashboard page timings.

The corpus is simulated in memory (``--games``, ``--players``, ``--seed``, ``--bot``) or read from
``--corpus DIR`` (canonical JSON files). Three measurements over the same canonical JSON texts:

(a) **read**: a file's bytes read as ``playtest validate`` reads them (``ingest.formats``; the
    canonical layout validates each event line straight from its bytes);
(b) **replay**: the replay ``playtest validate`` runs on the games read (``cli.common.
    validate_one``: the rules, and the findings as the validate contract's entries);
(c) **validate**: (a) then (b), what ``playtest validate`` does per file (start-up and the
    report excluded), under the same collector settings (``cli.common.batch_gc``).

With ``--chess`` the yardstick of issue 30 is timed in the same rounds: after each (c) pass, one
pass of python-chess reading and validating 300 random legal PGN games (``cli.bench.python_chess``),
so that both see the same load on a shared machine; the ratio of (c)'s events per CPU-second to
python-chess's moves per CPU-second (best pass of each) is printed.

Each is reported as events/s and games/s from the best of three passes, on the wall clock
(``time.perf_counter``) and on the process's CPU time (``time.process_time``); on a machine
shared with other work the CPU figure is the one-core throughput, the wall figure what a user
waited.
The canonical reader's parsed-line cache (``ingest.formats.jsonlog.LINE_CACHE``) is emptied
before every timed (a) and (c) pass and before the memory pass, so that each reads the corpus as
a fresh ``playtest validate`` process would; its hits on one (c) pass are printed.
Peak memory is the tracemalloc peak of one extra validate pass over the corpus (run separately,
tracemalloc slows Python down) and the process's maximum resident set size.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(slots=True)
class BenchResult:
    """The measured figures (seconds, counts, bytes)."""

    games: int = 0
    events: int = 0
    simulate_s: float | None = None
    parse_s: float = 0.0
    replay_s: float = 0.0
    validate_s: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds of (a), (b), (c)
    findings: int = 0
    peak_tracemalloc: int = 0
    max_rss: int = 0
    ingest_s: float | None = None
    ingest_games: int | None = None
    db_bytes: int | None = None
    pages: list[dict[str, Any]] = field(default_factory=list)
    jobs: int = 1
    parallel_s: float | None = None
    profile: str = ""
    chess_s: float | None = None  # best CPU seconds of a python-chess pass (--chess)
    chess_moves: int = 0  # the moves (plies) of that pass
    chess_games: int = 0
    repeat: int = 3  # passes of each measurement (the best is kept)
    #: the load average (1, 5, 15 min) before and after the timed passes
    load: list[tuple[float, float, float]] = field(default_factory=list)
    #: the parsed-line cache on the last (c) pass: event lines found in it, lines validated,
    #: lines it held at the end, its capacity
    line_cache: tuple[int, int, int, int] | None = None

    def rate(self, seconds: float, what: str) -> float:
        n = self.events if what == "events" else self.games
        return n / seconds if seconds > 0 else float("inf")


def engine_build() -> str:
    """Which engine the figures are of: the pure-Python one, or the optional compiled one
    (setup.py, ``PLAYTEST_COMPILE=1``; docs/engine.md), by the engine modules imported from a
    compiled extension."""
    native = sorted(name for name, mod in list(sys.modules.items())
                    if name.startswith("engine.")
                    and str(getattr(mod, "__file__", None) or "").endswith(".so"))
    if not native:
        return "interpreted (pure Python)"
    return f"compiled with mypyc, {len(native)} modules imported compiled (docs/engine.md)"


def _corpus_simulated(games: int, players: list[int], seed: str, bot: str) -> tuple[list[str], float]:
    from engine.simulate import simulate
    from schemas.canonical import dumps_log

    t0 = time.perf_counter()
    texts = [dumps_log(log) for log in simulate(games, players, seed, bot)]
    return texts, time.perf_counter() - t0


def _corpus_folder(folder: Path) -> list[str]:
    files = sorted(p for p in folder.rglob("*.json") if p.is_file())
    return [p.read_text(encoding="utf-8") for p in files]


def _parse(text: str) -> Any:
    """(a): the file's bytes read as ``playtest validate`` reads them (ingest.formats)."""
    from cli.common import read_data

    (loaded,) = read_data(text.encode("utf-8"), "bench.json")
    return loaded


def _replay(loaded: Any) -> Any:
    """(b): the replay ``playtest validate`` runs (cli.common), findings turned into the
    validate contract's entries."""
    from cli.common import validate_one

    return validate_one(loaded)


def _loadavg() -> tuple[float, float, float] | None:
    try:
        return os.getloadavg()
    except OSError:  # pragma: no cover - not every platform has one
        return None


def measure(texts: list[str], *, profile: bool = False, repeat: int = 3,
            chess: tuple[list[str], int] | None = None) -> BenchResult:
    """Time (a) read, (b) replay, (c) read+replay over ``texts`` (best of ``repeat`` passes,
    after one warm-up game); tracemalloc peak; optional cProfile of one validate pass.
    ``chess``: PGN texts and their number of moves, read by python-chess once after every (c)
    pass (``cli.bench.python_chess.one_pass``), the best pass kept."""
    from cli.common import batch_gc
    from ingest.formats.jsonlog import LINE_CACHE

    res = BenchResult(games=len(texts), repeat=max(1, repeat))
    parsed = [_parse(t) for t in texts]
    unreadable = [i for i, p in enumerate(parsed) if not p.readable]
    if unreadable:
        raise ValueError(f"{len(unreadable)} corpus game(s) could not be read (first: #{unreadable[0]})")
    res.events = sum(len(p.parsed.events) for p in parsed)
    _replay(parsed[0])  # warm-up: imports, caches, content pack
    best = {"parse": float("inf"), "replay": float("inf"), "validate": float("inf")}
    cpu = dict(best)
    findings = 0

    def clocks() -> tuple[float, float]:
        return time.perf_counter(), time.process_time()

    def keep(name: str, start: tuple[float, float]) -> None:
        w, c = clocks()
        best[name] = min(best[name], w - start[0])
        cpu[name] = min(cpu[name], c - start[1])

    chess_pass = None
    if chess is not None:
        from cli.bench.python_chess import one_pass

        chess_pass = one_pass
        chess_pass(chess[0][:5])  # warm-up
        res.chess_moves, res.chess_games = chess[1], len(chess[0])
    load = _loadavg()
    if load is not None:
        res.load.append(load)
    with batch_gc():  # as playtest validate runs
        for _ in range(max(1, repeat)):
            LINE_CACHE.clear()  # each pass reads as a fresh process would
            t0 = clocks()
            parsed = [_parse(t) for t in texts]
            keep("parse", t0)
            t0 = clocks()
            for p in parsed:
                _replay(p)
            keep("replay", t0)
            del parsed
            LINE_CACHE.clear()
            t0 = clocks()
            findings = 0
            for t in texts:
                findings += len(_replay(_parse(t))["findings"])
            keep("validate", t0)
            res.line_cache = (LINE_CACHE.hits, LINE_CACHE.misses, LINE_CACHE.held,
                              LINE_CACHE.capacity)
            if chess_pass is not None and chess is not None:
                c = chess_pass(chess[0])
                res.chess_s = c if res.chess_s is None else min(res.chess_s, c)
    load = _loadavg()
    if load is not None:
        res.load.append(load)
    res.parse_s, res.replay_s, res.validate_s = best["parse"], best["replay"], best["validate"]
    res.cpu = cpu
    res.findings = findings
    LINE_CACHE.clear()
    tracemalloc.start()
    for t in texts:
        _replay(_parse(t))
    _cur, res.peak_tracemalloc = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    res.max_rss = rss if sys.platform == "darwin" else rss * 1024
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        for t in texts:
            _replay(_parse(t))
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
        res.profile = out.getvalue()
    return res


def _validate_chunk(texts: list[str]) -> int:
    """Worker: validate a chunk of games; the number of findings."""
    n = 0
    for t in texts:
        n += len(_replay(_parse(t))["findings"])
    return n


def measure_parallel(texts: list[str], jobs: int, res: BenchResult) -> None:
    """(d) validate split over ``jobs`` processes (fork), pool start-up included."""
    import multiprocessing as mp

    chunks = [texts[i::jobs] for i in range(jobs)]
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    t0 = time.perf_counter()
    with ctx.Pool(jobs) as pool:
        found = sum(pool.map(_validate_chunk, chunks))
    res.parallel_s = time.perf_counter() - t0
    res.jobs = jobs
    if found != res.findings:
        raise ValueError(f"parallel validation found {found} findings, one process {res.findings}")


def measure_ingest(texts: list[str], res: BenchResult, *, pages: bool = False) -> None:
    """Time ``ingest_paths`` of the corpus into a fresh temporary database (and, with
    ``pages``, the dashboard pages on it)."""
    from ingest.pipeline import ingest_paths

    tmp = Path(tempfile.mkdtemp(prefix="playtest-bench-"))
    try:
        src = tmp / "corpus"
        src.mkdir()
        for i, t in enumerate(texts):
            (src / f"game-{i:05d}.json").write_text(t, encoding="utf-8")
        db = tmp / "db" / "playtest.duckdb"
        t0 = time.perf_counter()
        summary = ingest_paths([src], db, progress=False)
        res.ingest_s = time.perf_counter() - t0
        res.ingest_games = len(summary.loaded)
        res.db_bytes = db.stat().st_size if db.exists() else None
        if pages:
            res.pages = _page_timings(db)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _page_timings(db: Path) -> list[dict[str, Any]]:
    """Server render time of every dashboard page (``cli.bench.pages.page_times``)."""
    from cli.bench.pages import page_times

    return list(page_times(db, repeat=3))


def format_table(res: BenchResult) -> str:
    """The figures as a rich table rendered to text."""
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"replay-validate throughput: {res.games} games, {res.events} events, "
                    "one process, best of 3")
    t.add_column("measurement")
    t.add_column("wall s", justify="right")
    t.add_column("events/s (wall)", justify="right")
    t.add_column("games/s (wall)", justify="right")
    t.add_column("CPU s", justify="right")
    t.add_column("events/s (CPU)", justify="right")
    for name, secs, key in (("(a) read (as validate reads a file)", res.parse_s, "parse"),
                            ("(b) replay only", res.replay_s, "replay"),
                            ("(c) read + replay (validate)", res.validate_s, "validate")):
        c = res.cpu.get(key)
        t.add_row(name, f"{secs:.3f}", f"{res.rate(secs, 'events'):,.0f}", f"{res.rate(secs, 'games'):,.1f}",
                  f"{c:.3f}" if c is not None else "", f"{res.rate(c, 'events'):,.0f}" if c else "")
    if res.parallel_s is not None:
        t.add_row(f"(d) validate in {res.jobs} processes (not one core)", f"{res.parallel_s:.3f}",
                  f"{res.rate(res.parallel_s, 'events'):,.0f}", f"{res.rate(res.parallel_s, 'games'):,.1f}",
                  "", "")
    if res.simulate_s is not None:
        t.add_row("simulate the corpus (bots)", f"{res.simulate_s:.3f}", f"{res.rate(res.simulate_s, 'events'):,.0f}",
                  f"{res.rate(res.simulate_s, 'games'):,.1f}", "", "")
    if res.ingest_s is not None:
        t.add_row("ingest into a temp database", f"{res.ingest_s:.3f}", f"{res.rate(res.ingest_s, 'events'):,.0f}",
                  f"{(res.ingest_games or 0) / res.ingest_s if res.ingest_s else 0:,.1f}", "", "")
    buf = io.StringIO()
    con = Console(file=buf, width=130, force_terminal=False)
    con.print(t)
    lines = [buf.getvalue().rstrip()]
    lines.append(f"findings in the corpus: {res.findings}")
    lines.append(f"engine: {engine_build()}")
    if res.load:
        load = " -> ".join(", ".join(f"{x:.1f}" for x in la) for la in res.load)
        lines.append(f"load average before -> after the timed passes (1, 5, 15 min): {load} "
                     f"on {os.cpu_count()} CPUs")
    if res.line_cache is not None:
        hits, misses, held, cap = res.line_cache
        total = hits + misses
        lines.append(f"parsed-line cache on one (c) pass: {hits:,} of {total:,} event lines "
                     f"found ({hits / total if total else 0:.1%}), {misses:,} validated; "
                     f"{held:,} lines held (at most {cap:,})")
    lines.append(f"peak memory allocated while validating the corpus game by game (tracemalloc, "
                 f"texts already loaded): {res.peak_tracemalloc / 1e6:.1f} MB; "
                 f"process max RSS: {res.max_rss / 1e6:.1f} MB")
    if res.db_bytes is not None:
        lines.append(f"database after ingest: {res.db_bytes / 1e6:.1f} MB for {res.ingest_games} games")
    if res.pages:
        lines.append("dashboard pages on the ingested corpus (server render, AppTest):")
        for r in res.pages:
            status = "ok" if r.get("ok") else f"problem: {r.get('problem')}"
            lines.append(f"  {r['page']:<24} first {float(r['first_s']):.3f} s, "
                         f"median {float(r['median_s']):.3f} s  {status}")
    if res.profile:
        lines.append("cProfile, top entries by own time (one validate pass):")
        lines.append(res.profile.strip())
    return "\n".join(lines)


def run_bench(args: argparse.Namespace) -> int:
    """The ``playtest bench`` command."""
    from cli.common import CliError, _player_counts

    if args.pages and not args.ingest:
        # every page on synthetic warehouses of 10,000 and 100,000 games (cli.bench.pages)
        from cli.bench.pages import bench_pages

        try:
            sizes = [int(x) for x in str(args.page_games).split(",") if x.strip()]
            return bench_pages(sizes, Path(args.page_dir) if args.page_dir else None)
        except ValueError as exc:
            raise CliError(f"--page-games: {exc}") from None
    if args.jobs < 1:
        raise CliError("--jobs must be at least 1")
    if args.corpus:
        folder = Path(args.corpus)
        if not folder.is_dir():
            raise CliError(f"--corpus {folder}: not a folder")
        texts = _corpus_folder(folder)
        if not texts:
            raise CliError(f"--corpus {folder}: no .json game logs found")
        sim_s = None
    else:
        if args.games < 1:
            raise CliError("--games must be at least 1")
        print(f"simulating {args.games} games ...", file=sys.stderr)
        from engine.core.registry import DEFAULT_GAME
        from engine.simulate import ruleset_for

        try:  # the corpus is the default game's (engine.simulate.simulate)
            allowed = ruleset_for(DEFAULT_GAME).player_counts
        except ValueError as exc:
            raise CliError(str(exc)) from None
        counts = _player_counts(args.players, allowed)
        texts, sim_s = _corpus_simulated(args.games, counts, str(args.seed), args.bot)
    chess = _chess_corpus() if args.chess else None
    try:
        res = measure(texts, profile=args.profile, chess=chess)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    res.simulate_s = sim_s
    if args.jobs > 1:
        try:
            measure_parallel(texts, args.jobs, res)
        except (ValueError, OSError) as exc:
            raise CliError(f"parallel validation failed: {exc}") from None
    if args.ingest:
        try:
            measure_ingest(texts, res, pages=args.pages)
        except RuntimeError as exc:
            raise CliError(str(exc)) from None
    print(format_table(res))
    if args.chess:
        print(_chess_line(res))
    return 0


CHESS_GAMES = 300  # random legal PGN games python-chess reads in each --chess pass


def _chess_corpus() -> tuple[list[str], int] | None:
    """The PGN texts of the yardstick and their moves, or None without python-chess."""
    from cli.bench import python_chess as bench_chess

    try:
        bench_chess._chess()
    except ImportError:
        return None
    return bench_chess.make_pgns(CHESS_GAMES, 1)


def _chess_line(res: BenchResult) -> str:
    """The issue's yardstick, timed in the same rounds as row (c) (``measure(chess=...)``):
    python-chess's moves per CPU-second reading and validating PGN against (c)'s events per
    CPU-second."""
    if res.chess_s is None:
        return "python-chess is not installed (pip install -e \".[bench]\"): no yardstick line"
    moves_per_s = res.chess_moves / res.chess_s
    ours = res.rate(res.cpu["validate"], "events")
    return (f"python-chess in the same run: {moves_per_s:,.0f} moves per CPU-second read and "
            f"validated ({res.chess_games} random legal PGN games, {res.chess_moves:,} moves, "
            f"one pass after each (c) pass, best of {res.repeat}); (c) validates {ours:,.0f} "
            f"events per CPU-second, {ours / moves_per_s:.2f}x python-chess")
