"""Where the warehouse lives, and short-lived DuckDB connections that wait politely for a lock.

One DuckDB file has one writing process (DESIGN.md §8). Every command opens a connection for as
long as it needs it and closes it again. When another process holds the file, :func:`connect`
prints one line to stderr, retries with exponential backoff for a few seconds and then raises
:class:`DatabaseBusy`, whose message the CLI prints as it is (never a traceback).

Locations:

* the database: ``--db PATH`` (passed to :func:`resolve_db`), else the environment variable
  ``PLAYTEST_DB``, else ``<repo>/data/warehouse/playtest.duckdb`` (:func:`default_db_path`);
* the archive: ``<directory of the database>/archive`` (:func:`archive_root`).

``PLAYTEST_DB_WAIT`` (seconds, default 5) sets how long :func:`connect` waits for a busy file.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb

REPO_ROOT = Path(__file__).resolve().parents[1]
DB_FILE_NAME = "playtest.duckdb"
DEFAULT_WAIT_SECONDS = 5.0
RETRY_MAX_SECONDS = 0.1  # longest pause between two tries of a busy database


class StorageError(Exception):
    """A storage problem the user can act on; the message says what and where."""


class DatabaseBusy(StorageError):
    """Another process holds the database file and did not release it in time."""


def default_db_path() -> Path:
    """The database used when no ``--db`` is given: ``$PLAYTEST_DB``, else
    ``<repo>/data/warehouse/playtest.duckdb``."""
    env = os.environ.get("PLAYTEST_DB", "").strip()
    if env:
        return Path(env).expanduser().resolve()
    return REPO_ROOT / "data" / "warehouse" / DB_FILE_NAME


def resolve_db(db: str | Path | None) -> Path:
    """The absolute database path for a ``--db`` value (None: :func:`default_db_path`).

    An existing directory means ``<dir>/playtest.duckdb``. Raises :class:`StorageError` for an
    empty string.
    """
    if db is None:
        return default_db_path()
    if isinstance(db, str) and not db.strip():
        raise StorageError("--db is empty; give a database file path")
    path = Path(db).expanduser().resolve()
    if path.is_dir():
        path = path / DB_FILE_NAME
    return path


def archive_root(db_path: str | Path) -> Path:
    """The archive that belongs to a database: ``<db dir>/archive``."""
    return Path(db_path).resolve().parent / "archive"


def wait_seconds() -> float:
    """How long :func:`connect` waits for a busy database (``$PLAYTEST_DB_WAIT``, default 5)."""
    raw = os.environ.get("PLAYTEST_DB_WAIT", "").strip()
    if not raw:
        return DEFAULT_WAIT_SECONDS
    try:
        value = float(raw)
    except ValueError:
        raise StorageError(f"PLAYTEST_DB_WAIT must be a number of seconds, got {raw!r}") from None
    return max(0.0, value)


def _is_lock_error(err: BaseException) -> bool:
    text = str(err)
    return "lock" in text.lower() and ("Conflicting lock" in text or "Could not set lock" in text)


@contextlib.contextmanager
def connect(
    db_path: str | Path, read_only: bool = False, *, wait: float | None = None
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived connection to ``db_path``, closed on exit.

    Creates the parent directory when writing. When another process holds the file, prints
    ``database <path> is busy (held by another process); retrying...`` once to stderr, retries
    (0.05 s, then every 0.1 s) for ``wait`` seconds (default ``$PLAYTEST_DB_WAIT`` or 5) and
    then raises :class:`DatabaseBusy`. A read-only connection to a missing file raises
    :class:`StorageError`.
    """
    path = Path(db_path)
    if read_only and not path.exists():
        raise StorageError(f"database {path} does not exist (nothing has been ingested yet)")
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    budget = wait_seconds() if wait is None else max(0.0, wait)
    deadline = time.monotonic() + budget
    delay = 0.05
    told = False
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only)
            break
        except duckdb.IOException as err:
            if not _is_lock_error(err):
                raise StorageError(f"cannot open database {path}: {err}") from None
            now = time.monotonic()
            if now >= deadline:
                holder = ""
                text = str(err)
                if "(PID" in text:
                    holder = " by process " + text.split("(PID", 1)[1].split(")", 1)[0].strip()
                raise DatabaseBusy(
                    f"database {path} is busy: it is held{holder or ' by another process'} and "
                    f"was not released within {budget:g} s. Wait for that command to finish "
                    "(or close the program that has the database open) and try again; "
                    "PLAYTEST_DB_WAIT sets how long to wait."
                ) from None
            if not told:
                print(
                    f"database {path} is busy (held by another process); retrying...",
                    file=sys.stderr,
                    flush=True,
                )
                told = True
            time.sleep(min(delay, max(0.0, deadline - now)))
            # at most 0.1 s between tries: an ingest frees the database for short gaps
            # (ingest.loading._Writer) and DuckDB's lock keeps no queue of waiters
            delay = min(delay * 2, RETRY_MAX_SECONDS)
        except duckdb.Error as err:
            raise StorageError(f"cannot open database {path}: {err}") from None
    try:
        # DuckDB's own progress bar would interleave with ours on stderr.
        con.execute("SET enable_progress_bar = false")
        yield con
    finally:
        con.close()
