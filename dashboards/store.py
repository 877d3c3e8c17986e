"""Where the dashboard's data lives, and short-lived read-only access to it.

The database path comes from ``PLAYTEST_DB`` (set by ``playtest dashboard`` / ``serve``), else
the warehouse's default location. Connections are opened read-only for one query and closed at
once, so the single writing process (ingest) is never blocked for long. When ``ingest.db``
exists its ``connect`` (with lock retry) is used; until then DuckDB is opened directly.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from dashboards import DB_ENV

PROJECT_ROOT = Path(__file__).resolve().parent.parent
FALLBACK_DB = PROJECT_ROOT / "data" / "warehouse" / "playtest.duckdb"


class StoreError(Exception):
    """The database could not be read (locked, corrupt); the message says what to do."""


class MissingTableError(StoreError):
    """The database file exists but has no ``games`` table: it is not a playtest warehouse, or
    one whose creation did not finish. Said as such, never shown as "no games"."""


#: the table without which a database file is not a warehouse
GAMES_TABLE = "games"


def _missing(db: Path, err: Exception) -> pl.DataFrame:
    """The one place a missing table is judged: another table missing is an empty state (a
    warehouse made before that table existed: that part of a page has nothing to show); the
    ``games`` table missing is an error naming the file and what to do."""
    text = str(err)
    if f"with name {GAMES_TABLE} does not exist" in text or (
            f'"{GAMES_TABLE}"' in text and "does not exist" in text):
        raise MissingTableError(
            f"the database {db} has no '{GAMES_TABLE}' table: it is not a playtest warehouse, "
            "or its creation did not finish. Run `playtest rebuild` (or `playtest ingest "
            "PATH`) to make it one, or point PLAYTEST_DB at the warehouse.") from err
    return pl.DataFrame()


def db_path() -> Path:
    """The database this dashboard reads: ``PLAYTEST_DB``, else the project default."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
    try:
        from ingest.db import default_db_path

        return Path(default_db_path())
    except Exception:  # ingest not there yet, or it failed: use the documented default
        return FALLBACK_DB


def drafts_dir(db: Path | None = None) -> Path:
    """``<db dir>/drafts``: the live-entry drafts (created on first use)."""
    return (db or db_path()).parent / "drafts"


#: the connection pinned for the page run in progress on this thread (see :func:`page`)
_PINNED = threading.local()


@contextlib.contextmanager
def page(db: Path) -> Iterator[None]:
    """Run a read-only page body with ONE connection for all its queries, opened at the first
    query and closed when the body ends (well under a second).

    Opening the warehouse costs 13-18 ms of CPU (DuckDB reads its catalog), as much as a
    query; an analytics page asks 5-15 queries. Only the thread running the page uses the
    connection; anything else (a download generated later, another session) opens its own.
    Never around a page that writes: DuckDB refuses a read-write connection to a file this
    process already holds read-only."""
    if getattr(_PINNED, "db", None) is not None:  # nested: the outer run owns it
        yield
        return
    _PINNED.db, _PINNED.stack = db, None
    try:
        yield
    finally:
        stack = _PINNED.stack
        _PINNED.db = _PINNED.stack = _PINNED.con = None
        if stack is not None:
            stack.close()


@contextlib.contextmanager
def read_only(db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only connection (via ``ingest.db.connect`` when available); inside
    :func:`page` for the same database, the page's connection."""
    if getattr(_PINNED, "db", None) == db:
        if _PINNED.stack is None:
            stack = contextlib.ExitStack()
            _PINNED.con = stack.enter_context(_open(db))
            _PINNED.stack = stack
        yield _PINNED.con
        return
    with _open(db) as con:
        yield con


@contextlib.contextmanager
def _open(db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connect: Any
    try:
        from ingest.db import connect
    except Exception:
        connect = None
    if connect is not None:
        with connect(db, read_only=True) as con:
            yield con
        return
    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.IOException as err:
        raise StoreError(
            f"the database {db} could not be opened read-only ({err}); another process may be "
            "writing to it: wait a moment and reload"
        ) from err
    try:
        yield con
    finally:
        con.close()


_CACHE: OrderedDict[tuple[Any, ...], pl.DataFrame] = OrderedDict()
_CACHE_SIZE = 256


def _version(db: Path) -> tuple[Any, ...]:
    """What changes when the database changes: size and mtime of the file and its WAL."""
    out: list[Any] = []
    for p in (db, db.with_name(db.name + ".wal")):
        try:
            st = p.stat()
            out += [st.st_mtime_ns, st.st_size]
        except OSError:
            out += [None, None]
    return tuple(out)


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def query(db: Path, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
    """Run one parameterised query; an absent database gives an empty frame (nothing loaded
    yet), and so does a missing table other than ``games`` (see :func:`_missing`).

    A database file without the ``games`` table raises :class:`MissingTableError`: it must not
    read as "no games". Other failures raise :class:`StoreError` with a readable message.
    Results are kept in a small in-process cache keyed by the query, its parameters and the
    database file's version (size and modification time of the file and its WAL), so a page
    redrawn on the same data does not reopen the file.
    """
    if not db.exists():
        return pl.DataFrame()
    key = (str(db), _version(db), sql, _freeze(params or []))
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    frame = _run(db, sql, params)
    _CACHE[key] = frame
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return frame


def query_many(db: Path, statements: list[tuple[str, list[Any] | None]]) -> list[pl.DataFrame]:
    """:func:`query` for several statements, the ones not cached run on ONE connection.

    Opening a connection costs about as much CPU as a small query on a warehouse of 10,000
    games (DuckDB reads its catalog each time), so a page with many queries runs them together.
    Same cache, same empty-frame and error rules as :func:`query`.
    """
    if not db.exists():
        return [pl.DataFrame() for _ in statements]
    version = _version(db)
    keys = [(str(db), version, sql, _freeze(params or [])) for sql, params in statements]
    out: list[pl.DataFrame | None] = [_CACHE.get(k) for k in keys]
    missing = [i for i, frame in enumerate(out) if frame is None]
    if missing:
        try:
            with read_only(db) as con:
                for i in missing:
                    sql, params = statements[i]
                    try:
                        rel = con.sql(sql, params=params or None)
                        out[i] = rel.pl() if rel is not None else pl.DataFrame()
                    except duckdb.CatalogException as err:
                        out[i] = _missing(db, err)
                    _CACHE[keys[i]] = out[i]  # type: ignore[assignment]
        except StoreError:
            raise
        except duckdb.Error as err:
            raise StoreError(f"the warehouse query failed: {err}") from err
        except OSError as err:
            raise StoreError(f"the database {db} could not be read: {err}") from err
        except Exception as err:
            if type(err).__name__ in ("StorageError", "DatabaseBusy"):
                raise StoreError(str(err)) from err
            raise
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return [frame if frame is not None else pl.DataFrame() for frame in out]


def _run(db: Path, sql: str, params: list[Any] | None) -> pl.DataFrame:
    try:
        with read_only(db) as con:
            rel = con.sql(sql, params=params or None)
            frame: pl.DataFrame = rel.pl() if rel is not None else pl.DataFrame()
            return frame
    except duckdb.CatalogException as err:
        return _missing(db, err)
    except StoreError:
        raise
    except duckdb.Error as err:
        raise StoreError(f"the warehouse query failed: {err}") from err
    except OSError as err:
        raise StoreError(f"the database {db} could not be read: {err}") from err
    except Exception as err:
        # ingest.db raises its own StorageError / DatabaseBusy with a message meant for users
        if type(err).__name__ in ("StorageError", "DatabaseBusy"):
            raise StoreError(str(err)) from err
        raise


def table_exists(db: Path, table: str) -> bool:
    """True when ``table`` exists in the warehouse."""
    # every table's name in one query, kept in the query cache (a page asks for several:
    # each question was a catalog query of its own); the warehouse has no views, and
    # information_schema.tables costs half as much again (catalog views); the warehouse's own
    # catalog only (0.005 s instead of 0.02-0.03 at a million games: the others are scanned too)
    df = query(db, "SELECT list(table_name) AS names FROM duckdb_tables() "
                   "WHERE database_name = current_database()")
    if df.is_empty() or df["names"][0] is None:
        return False
    return table in df["names"][0].to_list()


def has_column(db: Path, table: str, column: str) -> bool:
    """True when ``table`` has ``column`` in the warehouse's own catalog (``duckdb_columns()``
    lists the columns of every attached catalog, the system's and temp's too, unless told
    which database: half the cost again)."""
    df = query(db, "SELECT count(*) AS n FROM duckdb_columns() "
                   "WHERE database_name = current_database() AND table_name = ? "
                   "AND column_name = ?", [table, column])
    return not df.is_empty() and int(df["n"][0]) > 0


def version(db: Path) -> tuple[Any, ...]:
    """What changes when the warehouse changes (size and mtime of its file and WAL): the key of
    every cache of derived results, so that an import is seen at once."""
    return _version(db)
