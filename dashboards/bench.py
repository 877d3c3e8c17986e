"""Server render time of every dashboard page on a given warehouse (``playtest bench --pages``).

Each page is run with Streamlit's AppTest (the same script run a browser session triggers,
without the network and the browser's drawing). The first run of a page includes importing its
modules; ``repeat`` runs after it are timed and the median is reported. Those repeats find the
page's query results in the server's query cache (:mod:`dashboards.store`), as a page redrawn on
unchanged data does; ``repeat`` more runs with that cache emptied before each give the time of
the first view after the data changed (every query runs against DuckDB), reported as "cold".
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import TextIO

from dashboards import APP_PATH, DB_ENV

PAGES: dict[str, str] = {
    "Games": "views/overview.py",
    "Audit": "views/audit.py",
    "Replay viewer": "views/replay.py",
    "Duration": "views/duration.py",
    "Scoring sources": "views/scoring.py",
    "World Endings": "views/endings.py",
    "Observation protocols": "views/observations.py",
    "Balance": "views/balance.py",
    "Import": "views/import_games.py",
    "Record a game": "views/record.py",
}


def page_times(db_path: str | Path, repeat: int = 3, timeout: float = 120) -> list[dict[str, object]]:
    """Render every page ``1 + repeat`` times on ``db_path``; one result row per page.

    Each row: page, first_s (first run), median_s (median of the repeats), cold_median_s
    (median of the repeats with the query cache emptied before each), ok, problem.
    """
    from streamlit.testing.v1 import AppTest

    from dashboards import store

    old_db = os.environ.get(DB_ENV)
    old_pw = os.environ.pop("PLAYTEST_WRITE_PASSWORD", None)
    os.environ[DB_ENV] = str(Path(db_path).resolve())
    rows: list[dict[str, object]] = []
    try:
        at = AppTest.from_file(str(APP_PATH), default_timeout=timeout)
        at.run()
        for title, page in PAGES.items():
            times: list[float] = []
            cold: list[float] = []
            problem = ""
            n = max(0, repeat)
            for i in range(1 + 2 * n):
                if i > n:
                    cache = getattr(store, "_CACHE", None)
                    if cache is not None:
                        cache.clear()
                t = time.perf_counter()
                at.switch_page(page).run()
                (cold if i > n else times).append(time.perf_counter() - t)
                errors = [e.value for e in at.exception] + [e.value for e in at.error]
                if errors:
                    problem = str(errors[0])[:200]
            rows.append({
                "page": title,
                "first_s": round(times[0], 3),
                "median_s": round(statistics.median(times[1:]) if len(times) > 1 else times[0], 3),
                "cold_median_s": round(statistics.median(cold), 3) if cold else None,
                "ok": not problem,
                "problem": problem,
            })
    finally:
        if old_db is None:
            os.environ.pop(DB_ENV, None)
        else:
            os.environ[DB_ENV] = old_db
        if old_pw is not None:
            os.environ["PLAYTEST_WRITE_PASSWORD"] = old_pw
    return rows


def print_page_times(db_path: str | Path, repeat: int = 3, out: TextIO | None = None) -> int:
    """Print each page's server render time on ``db_path``; 0 when every page rendered."""
    out = out or sys.stdout
    db = Path(db_path)
    if not db.exists():
        print(f"database {db} does not exist; pages render their empty states", file=out)
    rows = page_times(db, repeat)
    width = max(len(str(r["page"])) for r in rows)
    print(f"{'page':<{width}}  first run  median of {repeat}  cold median  status", file=out)
    for r in rows:
        status = "ok" if r["ok"] else f"problem: {r['problem']}"
        cold = r.get("cold_median_s")
        cold_text = f"{float(str(cold)):>10.3f}s" if cold is not None else f"{'-':>11}"
        print(f"{r['page']:<{width}}  {r['first_s']:>8.3f}s  {r['median_s']:>11.3f}s  "
              f"{cold_text}  {status}", file=out)
    total = sum(float(str(r["median_s"])) for r in rows)
    cold_total = sum(float(str(r["cold_median_s"])) for r in rows if r.get("cold_median_s") is not None)
    print(f"{'all pages':<{width}}  {'':>9}  {total:>11.3f}s  {cold_total:>10.3f}s", file=out)
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":  # python -m dashboards.bench DB [REPEAT]
    sys.exit(print_page_times(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3))
