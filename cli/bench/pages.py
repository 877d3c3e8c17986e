"""Server render time of every dashboard page (``playtest bench --pages``).

Each page is run with Streamlit's AppTest (the same script run a browser session triggers,
without the network and the browser's drawing). The first run of a page includes importing its
modules; ``repeat`` runs after it are timed and the median is reported. Those repeats find the
page's query results in the server's query cache (:mod:`dashboards.store`), as a page redrawn on
unchanged data does; ``repeat`` more runs with that cache emptied before each give the time of
the first view after the data changed (every query runs against DuckDB), reported as "cold".
Times are wall-clock seconds of the page run and the process's CPU seconds during it (the
server's own work, all threads, DuckDB's included); the budgets are judged on CPU seconds,
since on a shared machine the wall clock also measures the other processes.

The served app compiles each page's script once (its runtime's one ``ScriptCache``, emptied when
a file changes); AppTest compiles the app and the page anew on every run (a new ``ScriptCache``
per run: Streamlit's magic rewrite and ``compile``, 0.005-0.015 CPU s a page). The bench hands
AppTest one cache for all its runs, as the server has: a page's first run includes compiling its
script, the later runs, warm or cold, do not (:func:`_one_script_cache`).

:func:`synthetic_warehouse` builds the warehouses the figures are measured on (10,000 and
100,000 games by default): a base corpus is ingested through the real pipeline once (simulated
games played by the bots through the engine, and synthetic facilitated-playtest logs from
the game declaring ``synthetic_log`` (:func:`cli.bench.synthetic_source`), which are
well-formed but not legal games, so the Audit page has findings), then every game table is replicated under new game ids up to the size asked.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from dashboards import APP_PATH, DB_ENV
from ingest.warehouse import game_totals, summaries


def _pages() -> dict[str, str]:
    """Title -> file of every page of the app (:mod:`dashboards.navigation`)."""
    from dashboards.navigation import all_pages

    return {p.title: p.path for p in all_pages()}


PAGES: dict[str, str] = _pages()

#: the page budgets of issues 7 and 30: seconds per page at this many games
BUDGETS: dict[int, float] = {10_000: 0.3, 100_000: 1.0, 1_000_000: 0.3}

#: the base corpus replicated into the synthetic warehouses: simulated games and synthetic
#: facilitated-playtest logs (their sum divides 10,000 and 100,000)
BASE_SIMULATED = 100
BASE_FACILITATED = 25

#: the synthetic builder's DuckDB memory limit and rows per insert statement (of the largest table)
BUILD_MEMORY = "1GB"
COPY_ROWS = 1_000_000

#: tables the load step derives from the game tables (replicated like them)
DERIVED_TABLES: tuple[str, ...] = ("seat_balance", *summaries.TABLES)


def page_times(db_path: str | Path, repeat: int = 3, timeout: float = 120,
               only: Sequence[str] = ()) -> list[dict[str, object]]:
    """Render every page (the pages titled ``only`` when given) ``1 + 2 * repeat`` times on
    ``db_path``; one result row per page.

    Each row: page, first_s (first run), median_s (median of the repeats), cold_median_s
    (median of the repeats with the query cache emptied before each), the same three as CPU
    seconds (``*_cpu_s``), ok, problem.
    """
    from streamlit.testing.v1 import AppTest

    from dashboards import store

    restore = _one_script_cache()

    old_db = os.environ.get(DB_ENV)
    old_pw = os.environ.pop("PLAYTEST_WRITE_PASSWORD", None)
    os.environ[DB_ENV] = str(Path(db_path).resolve())
    rows: list[dict[str, object]] = []
    try:
        at = AppTest.from_file(str(APP_PATH), default_timeout=timeout)
        at.run()
        unknown = set(only) - set(PAGES)
        if unknown:
            raise ValueError(f"no page titled {sorted(unknown)}; pages: {list(PAGES)}")
        for title, page in PAGES.items():
            if only and title not in only:
                continue
            times: list[float] = []
            cold: list[float] = []
            cpu: list[float] = []
            cold_cpu: list[float] = []
            problem = ""
            n = max(0, repeat)
            for i in range(1 + 2 * n):
                if i > n:
                    store._CACHE.clear()
                    _clear_balance_cache()
                t, c = time.perf_counter(), time.process_time()
                at.switch_page(page).run()
                wall, used = time.perf_counter() - t, time.process_time() - c
                (cold if i > n else times).append(wall)
                (cold_cpu if i > n else cpu).append(used)
                errors = [e.value for e in at.exception] + [e.value for e in at.error]
                if errors:
                    problem = str(errors[0])[:200]
            rows.append({
                "page": title,
                "first_s": round(times[0], 3),
                "median_s": round(statistics.median(times[1:]) if len(times) > 1 else times[0], 3),
                "cold_median_s": round(statistics.median(cold), 3) if cold else None,
                "first_cpu_s": round(cpu[0], 3),
                "median_cpu_s": round(statistics.median(cpu[1:]) if len(cpu) > 1 else cpu[0], 3),
                "cold_median_cpu_s": round(statistics.median(cold_cpu), 3) if cold_cpu else None,
                "ok": not problem,
                "problem": problem,
            })
    finally:
        restore()
        if old_db is None:
            os.environ.pop(DB_ENV, None)
        else:
            os.environ[DB_ENV] = old_db
        if old_pw is not None:
            os.environ["PLAYTEST_WRITE_PASSWORD"] = old_pw
    return rows


def _one_script_cache() -> Callable[[], None]:
    """Make AppTest's runs share one compiled-script cache, as the served app's runs do (see
    the module's docstring); return what undoes it."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test

    shared = ScriptCache()
    name = "ScriptCache"  # AppTest's module imports it (not re-exported: set by name)
    before = getattr(app_test, name)
    setattr(app_test, name, lambda: shared)

    def restore() -> None:
        setattr(app_test, name, before)

    return restore


def _clear_balance_cache() -> None:
    """Empty every cache of derived results, as a change of the warehouse does (each is keyed
    on the database's version): the balance metrics' and Streamlit's ``st.cache_data`` /
    ``st.cache_resource`` (capture completeness, an archived game read for replay, ...)."""
    import streamlit as st

    from dashboards import balance_queries

    balance_queries.clear_caches()
    st.cache_data.clear()
    st.cache_resource.clear()


def print_page_times(db_path: str | Path, repeat: int = 3, out: TextIO | None = None,
                     budget: float | None = None, only: Sequence[str] = ()) -> int:
    """Print each page's server render time on ``db_path`` (the pages titled ``only`` when
    given); 0 when every page rendered."""
    out = out or sys.stdout
    db = Path(db_path)
    if not db.exists():
        print(f"database {db} does not exist; pages render their empty states", file=out)
    rows = page_times(db, repeat, only=only)
    width = max(len(str(r["page"])) for r in rows)
    print(f"{'page':<{width}}  {'first':>7}  {'redraw':>7}  {'cold':>7}  {'first':>7}  "
          f"{'redraw':>7}  {'cold':>7}  status", file=out)
    print(f"{'':<{width}}  {'wall s':>7}  {'wall s':>7}  {'wall s':>7}  {'CPU s':>7}  "
          f"{'CPU s':>7}  {'CPU s':>7}", file=out)
    for r in rows:
        status = "ok" if r["ok"] else f"problem: {r['problem']}"
        if budget is not None and r["ok"]:
            # judged on CPU seconds: wall time on a shared machine measures the other load
            worst = max(float(str(r["median_cpu_s"])), float(str(r["cold_median_cpu_s"] or 0)))
            status = (f"within {budget:g} s" if worst <= budget
                      else f"over the {budget:g} s budget")
        print(f"{r['page']:<{width}}  {float(str(r['first_s'])):>7.3f}  "
              f"{float(str(r['median_s'])):>7.3f}  {float(str(r['cold_median_s'] or 0)):>7.3f}  "
              f"{float(str(r['first_cpu_s'])):>7.3f}  {float(str(r['median_cpu_s'])):>7.3f}  {float(str(r['cold_median_cpu_s'] or 0)):>7.3f}"
              f"  {status}", file=out)
    return 0 if all(r["ok"] for r in rows) else 1


# --- the synthetic warehouses -----------------------------------------------------------------


def _stamp() -> str:
    """What a kept warehouse must match to be reused: the warehouse schema version."""
    from ingest.warehouse.migrations import MIGRATIONS

    return f"schema {MIGRATIONS[-1][0]}\n"


def _kept(db: Path, done: Path) -> bool:
    """Whether a kept warehouse can be reused: complete at this schema, or complete at an
    older one and migrated now (a million games are not rebuilt for a new summary: its
    migration computes it from the tables, as on any warehouse loaded before it)."""
    if not (done.exists() and db.exists()):
        return False
    stamp = done.read_text(encoding="utf-8")
    if stamp == _stamp():
        return True
    if not stamp.startswith("schema "):
        return False
    import duckdb

    from ingest.warehouse.migrations import migrate

    con = duckdb.connect(str(db))
    try:
        con.execute(f"SET memory_limit = '{BUILD_MEMORY}'")
        con.execute("SET enable_progress_bar = false")
        migrate(con)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    done.write_text(_stamp(), encoding="utf-8")
    return True


def base_corpus(work: Path, seed: str = "bench-pages") -> Path:
    """Ingest the base corpus once into ``work/base/playtest.duckdb`` (reused when present)."""
    from cli.bench import synthetic_source
    from engine.simulate import simulate
    from ingest.pipeline import ingest_paths
    from schemas.canonical import dumps_log

    db = work / "base" / "playtest.duckdb"
    done = work / "base" / "complete"
    if _kept(db, done):
        return db
    shutil.rmtree(work / "base", ignore_errors=True)
    logs = work / "base" / "logs"
    logs.mkdir(parents=True)
    for i, log in enumerate(simulate(BASE_SIMULATED, [3, 4, 5], seed, "mixed")):
        (logs / f"sim-{i:04d}.json").write_text(dumps_log(log), encoding="utf-8")
    synthetic_log = synthetic_source()[1]
    for i in range(BASE_FACILITATED):
        log = synthetic_log(i, events_target=400, session_type="facilitated_playtest")
        (logs / f"table-{i:04d}.json").write_text(dumps_log(log), encoding="utf-8")
    summary = ingest_paths([logs], db, progress=False)
    if len(summary.loaded) != BASE_SIMULATED + BASE_FACILITATED:
        raise RuntimeError(f"the base corpus loaded {len(summary.loaded)} of "
                           f"{BASE_SIMULATED + BASE_FACILITATED} games")
    done.write_text(_stamp(), encoding="utf-8")
    return db


def synthetic_warehouse(games: int, work: Path, seed: str = "bench-pages") -> Path:
    """A warehouse of ``games`` games at ``work/<games>/playtest.duckdb``: the base corpus with
    every game table replicated under new game ids (``<id>~<copy>``). Reused when present."""
    import duckdb

    from ingest.warehouse.schema import GAME_TABLES

    base = base_corpus(work, seed)
    per = BASE_SIMULATED + BASE_FACILITATED
    if games % per:
        raise ValueError(f"the synthetic warehouse holds a multiple of {per} games, not {games}")
    out = work / str(games) / "playtest.duckdb"
    done = out.parent / "complete"
    if _kept(out, done):
        return out
    shutil.rmtree(out.parent, ignore_errors=True)
    out.parent.mkdir(parents=True)
    shutil.copyfile(base, out)
    copies = games // per
    con = duckdb.connect(str(out))
    try:
        # bounded: DuckDB's buffer pool (default 80% of the machine) and one copy batch at a time
        con.execute(f"SET memory_limit = '{BUILD_MEMORY}'")
        con.execute("SET enable_progress_bar = false")
        present = {r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables").fetchall()}
        derived = [t for t in DERIVED_TABLES if t in present]
        tables = [t for t in (*GAME_TABLES, *derived) if t in present]
        largest = 1
        for table in tables:
            con.execute(f"CREATE TEMP TABLE src_{table} AS SELECT * FROM {table}")
            row = con.execute(f"SELECT count(*) FROM src_{table}").fetchone()
            largest = max(largest, int(row[0]) if row else 0)
        # a few copies per statement, each copy's rows together as an ingest writes a game's
        # (sorted within the statement only: the global sort of every copy held 20 GB of memory
        # after 26 minutes at a million games; unsorted, the copies of one base row were stored
        # side by side, which compressed 100,000 games to 510 MB instead of 792)
        step = max(1, COPY_ROWS // largest)
        for lo in range(1, copies, step):
            hi = min(copies, lo + step)
            con.execute("BEGIN TRANSACTION")
            for table in tables:
                con.execute(
                    f"INSERT INTO {table} SELECT s.* REPLACE (s.game_id || '~' || r.i AS game_id) "
                    f"FROM range(?, ?) AS r(i) CROSS JOIN src_{table} s ORDER BY r.i",
                    [lo, hi],
                )
            con.execute("COMMIT")
        for table in tables:
            con.execute(f"DROP TABLE src_{table}")
        # every copy has the base games' filter values: the totals' sums, ``copies`` times over
        if "ledger_totals" in present:
            con.execute("UPDATE ledger_totals SET amount = amount * ?, entries = entries * ?",
                        [copies, copies])
        for table, (*_, sums) in summaries.TOTALS.items():
            if table in present:
                con.execute(f"UPDATE {table} SET "
                            + ", ".join(f"{c} = {c} * {int(copies)}" for c in sums))
        # where each game's rows are: the copies' own row ids (migration 11); seat and balance
        # totals (a copied game's block is its own): from the copied tables (migration 12)
        con.execute("BEGIN TRANSACTION")
        summaries.locate(con)
        summaries.sessions(con)  # each session's protocol check rows (migration 15)
        game_totals.refresh(con)
        con.execute("COMMIT")
        con.execute("CHECKPOINT")
        n = con.execute("SELECT count(*) FROM games").fetchone()
    finally:
        con.close()
    if n is None or int(n[0]) != games:
        raise RuntimeError(f"the synthetic warehouse has {n} games, not {games}")
    done.write_text(_stamp(), encoding="utf-8")
    return out


def bench_pages(sizes: Sequence[int] = (10_000, 100_000), work: Path | None = None,
                repeat: int = 3, out: TextIO | None = None) -> int:
    """``playtest bench --pages``: build (or reuse) each synthetic warehouse and print every
    page's render time on it against the budget; 0 when every page rendered."""
    out = out or sys.stdout
    work = work or Path(os.environ.get("PLAYTEST_BENCH_DIR", "/tmp/playtest-bench-pages"))
    status = 0
    for games in sizes:
        t = time.perf_counter()
        db = synthetic_warehouse(games, work)
        size = db.stat().st_size / 1e6
        print(f"\n{games:,} games: synthetic warehouse {db} ({size:,.0f} MB, ready in "
              f"{time.perf_counter() - t:.0f} s; {BASE_SIMULATED} simulated + "
              f"{BASE_FACILITATED} synthetic facilitated games, replicated)", file=out)
        status |= print_page_times(db, repeat, out, BUDGETS.get(games))
    return status


def summary_times(db_path: str | Path, repeat: int = 3, out: TextIO | None = None) -> int:
    """Print the CPU seconds of each shared query that reads a load-step summary (on one open
    connection, as a page run shares; the Observation protocols entry is the page's five
    queries, one of them the counts), on the summary and on the per-event tables
    (``queries.USE_SUMMARIES`` off), the least of ``repeat`` runs each; the results must be equal, floats to 1e-9 (1 when one is not): a sum of doubles depends on
    the order DuckDB's threads add them in, whichever table it reads. (Mandate 2038's Scoring
    query on ``ledger_totals`` is a game's own, which shared code does not import;
    ``tests/test_warehouse_summaries.py`` compares it with the ledger.)"""
    import polars as pl

    from dashboards import queries, store
    from dashboards.queries import Filters

    out = out or sys.stdout
    db = Path(db_path)
    f = Filters()
    probes: dict[str, Callable[[], pl.DataFrame]] = {
        "findings by code (Audit)": lambda: queries.findings_by_code(db, f),
        "observation page queries (Observation protocols)":
            lambda: queries.observation_page(db, f, 100)["counts"],
        "phase moments (Duration)": lambda: queries.phase_moments(db, f),
        "turn-time boxes (Duration)": lambda: queries.turn_time_stats(db, f)["boxes"],
        "turn-time moments (Duration)": lambda: queries.turn_time_stats(db, f)["moments"],
        "game counts (Games)": lambda: queries.game_counts(db, f),
        "survey box statistics (Observation protocols)":
            lambda: queries.survey_numeric(db, f),
    }
    status = 0
    try:
        for label, probe in probes.items():
            got: dict[bool, tuple[float, pl.DataFrame]] = {}
            for use in (False, True):
                queries.USE_SUMMARIES = use
                best = float("inf")
                with store.page(db):  # one connection, as a page run has (opened here)
                    probe()
                    for _ in range(max(1, repeat)):
                        store._CACHE.clear()
                        c = time.process_time()
                        frame = probe()
                        best = min(best, time.process_time() - c)
                got[use] = (best, frame)
            same = _same(got[True][1], got[False][1])
            status |= 0 if same else 1
            print(f"{label:<44} per-event {got[False][0]:.3f} s CPU, summary {got[True][0]:.3f} s "
                  f"CPU, {'equal' if same else 'NOT EQUAL'}", file=out)
    finally:
        queries.USE_SUMMARIES = True
    return status


def _same(a: object, b: object) -> bool:
    import polars as pl
    from polars.testing import assert_frame_equal

    assert isinstance(a, pl.DataFrame) and isinstance(b, pl.DataFrame)
    try:
        assert_frame_equal(a.sort(a.columns), b.sort(b.columns), rel_tol=1e-9, abs_tol=1e-9)
    except AssertionError:
        return False
    return True


if __name__ == "__main__":  # python -m cli.bench.pages [--summaries] DB [REPEAT] [PAGE,PAGE]
    if sys.argv[1:2] == ["--summaries"]:
        sys.exit(summary_times(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3))
    sys.exit(print_page_times(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3,
                              only=tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else ()))
