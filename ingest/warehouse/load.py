"""Bulk loading of game frames into the warehouse: one statement per table, one transaction.

Frames come from :func:`ingest.pipeline.process_batch` (one polars frame per table for a batch of
games). A game whose id is already in ``games`` is skipped; the rest of the batch is inserted
all-or-nothing, so a crash or error never leaves a game half-loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import duckdb
import polars as pl

from ingest import spool
from ingest.spool import SpooledBatch
from ingest.warehouse import balance, game_totals, summaries
from ingest.warehouse.schema import TABLES, empty_frame, polars_schema


@dataclass(slots=True)
class LoadResult:
    """Which games a load inserted and which it skipped because they were already loaded."""

    loaded: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)


def existing_game_ids(con: duckdb.DuckDBPyConnection, ids: Iterable[str] | None = None) -> set[str]:
    """Game ids already in ``games`` (all of them, or those among ``ids``)."""
    if ids is None:
        return {r[0] for r in con.execute("SELECT game_id FROM games").fetchall()}
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    # a semi join on the ids (list_contains compared every stored id with every wanted one)
    rows = con.execute(
        "SELECT game_id FROM games WHERE game_id IN (SELECT unnest(?::VARCHAR[]))", [wanted]
    ).fetchall()
    return {r[0] for r in rows}


def conform(table: str, frame: pl.DataFrame | None) -> pl.DataFrame:
    """``frame`` with exactly the columns of ``table``, in order, cast to its dtypes (strict)."""
    if frame is None:
        return empty_frame(table)
    schema = polars_schema(table)
    missing = [c for c in schema if c not in frame.columns]
    extra = [c for c in frame.columns if c not in schema]
    if missing or extra:
        raise ValueError(f"frame for table {table!r}: missing columns {missing}, unknown {extra}")
    if list(frame.schema.items()) == list(schema.items()):
        return frame  # already the table's columns, in order, with its dtypes (FrameBuilder's)
    return frame.select([pl.col(c).cast(t, strict=True) for c, t in schema.items()])


def stored_columns(con: duckdb.DuckDBPyConnection) -> dict[str, frozenset[str]]:
    """Every table of the warehouse (schema ``main``) with its columns: what a load needs to
    know of the catalog (which derived tables exist, which columns the stored tables have), in
    one statement. A connection held across loads reads it once (the schema does not change
    during an ingest: the migrations run before)."""
    stored: dict[str, set[str]] = {}
    for table, column in con.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'main'").fetchall():
        stored.setdefault(str(table), set()).add(str(column))
    return {t: frozenset(cols) for t, cols in stored.items()}


def _batch_has_stored_columns(con: duckdb.DuckDBPyConnection,
                              columns: Mapping[str, Iterable[str]],
                              stored: Mapping[str, frozenset[str]] | None = None) -> bool:
    """Whether each table's batch (``columns[table]``: its column names) has every column of
    the stored table (``stored``: the catalog, :func:`stored_columns`, when the caller has
    it)."""
    if stored is None:
        stored = stored_columns(con)
    return all(stored.get(t, frozenset()) <= set(cols) for t, cols in columns.items())


def _detach(con: duckdb.DuckDBPyConnection, names: list[str]) -> None:
    """Drop the registered Arrow tables, temporary views and temporary tables ``names`` (any
    may be gone already)."""
    kinds = dict(con.execute(
        "SELECT table_name, table_type FROM information_schema.tables "
        "WHERE table_catalog = 'temp' AND list_contains(?::VARCHAR[], table_name)",
        [names]).fetchall()) if names else {}
    for name in names:
        con.unregister(name)
        # identifiers are this module's names (tables' and the batch views')
        kind = "VIEW" if kinds.get(name) == "VIEW" else "TABLE" if name in kinds else None
        if kind is not None:
            con.execute(f'DROP {kind} IF EXISTS temp.main."{name}"')


def load_frames(
    con: duckdb.DuckDBPyConnection, frames: Mapping[str, pl.DataFrame], *,
    summarised: frozenset[str] | None = None,
    stored: Mapping[str, frozenset[str]] | None = None,
) -> LoadResult:
    """Insert a batch of games in one transaction, skipping games already in ``games``.

    Every table's rows must belong to a game present in ``frames["games"]`` (else ValueError
    before anything is written), and a game id may appear only once in a batch.
    ``summarised``: the summary tables of this warehouse (:func:`summaries.present`), when the
    caller knows them already (a connection held across loads asks once); ``stored``: the
    warehouse's tables and their columns (:func:`stored_columns`), likewise.

    The ``seat_balance`` rows of the new games are computed from the batch itself: after the
    inserts, every table's batch rows are registered under the table's own name, which DuckDB
    resolves before the stored table, so :func:`balance.refresh` reads the batch (a few hundred
    games) instead of scanning the whole warehouse on every load. Same rows: the new games'
    rows in each table are exactly the batch's (their ids are new, and loads are atomic).
    """
    unknown = set(frames) - set(TABLES)
    if unknown:
        raise ValueError(f"no warehouse table named {sorted(unknown)}")
    games = conform("games", frames.get("games"))
    batch_ids = games["game_id"].to_list()
    if len(set(batch_ids)) != len(batch_ids):
        raise ValueError("a game id appears twice in one batch; deduplicate before loading")
    id_set = set(batch_ids)
    tables = {name: conform(name, frames.get(name)) for name in TABLES}
    for name, frame in tables.items():
        if frame.height and not set(frame["game_id"].unique().to_list()) <= id_set:
            raise ValueError(f"rows for table {name!r} belong to games not in the batch")
    con.execute("BEGIN TRANSACTION")
    try:
        already = existing_game_ids(con, batch_ids)
        if already:
            keep = pl.Series("game_id", [g for g in batch_ids if g not in already],
                             dtype=pl.String).implode()
            tables = {name: frame.filter(pl.col("game_id").is_in(keep))
                      for name, frame in tables.items()}
        # Arrow's string views: polars' own layout, no copy into large strings
        arrows = {name: frame.to_arrow(compat_level=pl.CompatLevel.newest())
                  for name, frame in tables.items()}

        def attach(view: str, table: str) -> None:
            con.register(view, arrows[table])

        return _load_batch(con, batch_ids, already, {n: f.height for n, f in tables.items()},
                           {n: tuple(a.schema.names) for n, a in arrows.items()}, attach,
                           summarised=summarised, stored=stored)
    except BaseException:
        con.execute("ROLLBACK")
        raise


def load_spooled(
    con: duckdb.DuckDBPyConnection, batches: Sequence[SpooledBatch], *,
    summarised: frozenset[str] | None = None,
    stored: Mapping[str, frozenset[str]] | None = None,
) -> LoadResult:
    """:func:`load_frames` for batches spooled as Parquet files (:mod:`ingest.spool`): each
    table's rows of every batch are read by DuckDB from the files, in one statement per table;
    the loading process never holds them. The batches' game ids must be distinct (the loader
    keeps the first of a repeated game); games already loaded are skipped as by
    :func:`load_frames` (the batches are then read back into frames and loaded so: rare, a
    game loaded by another ingest meanwhile)."""
    batch_ids = [g for b in batches for g in b.game_ids]
    if len(set(batch_ids)) != len(batch_ids):
        raise ValueError("a game id appears twice in one batch; deduplicate before loading")
    for b in batches:
        unknown = set(b.columns) - set(TABLES)
        if unknown:
            raise ValueError(f"no warehouse table named {sorted(unknown)}")
        for name, columns in b.columns.items():
            if list(columns) != list(polars_schema(name)):
                raise ValueError(f"spooled batch {b.folder}: the columns of table {name!r} are "
                                 "not the table's (written by another version?)")
    if existing_game_ids(con, batch_ids):
        frames = [spool.read(b) for b in batches]
        merged = {t: pl.concat([f[t] for f in frames], rechunk=False) for t in TABLES}
        del frames
        return load_frames(con, merged, summarised=summarised, stored=stored)
    rows = {name: sum(b.rows.get(name, 0) for b in batches) for name in TABLES}
    # the database's own name, to name a stored table past the temporary views of a load
    found = con.execute("SELECT current_database()").fetchall()
    catalog = '"' + str(found[0][0]).replace('"', '""') + '"'

    def attach(view: str, table: str) -> None:
        files = spool.files_of(batches, table)
        if not files:  # no rows: none of the stored table's (its columns and types)
            con.execute(f'CREATE OR REPLACE TEMP VIEW "{view}" AS SELECT * FROM '
                        f'{catalog}.main."{table}" WHERE FALSE')
            return
        # a temporary view (dropped by _load_batch); the file names are this process's own
        # spool's, quoted as SQL strings (DDL takes no parameters)
        listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
        con.execute(f'CREATE OR REPLACE TEMP VIEW "{view}" AS SELECT * FROM read_parquet([{listed}])')

    con.execute("BEGIN TRANSACTION")
    try:
        return _load_batch(con, batch_ids, set(), rows,
                           {name: tuple(polars_schema(name)) for name in TABLES}, attach,
                           summarised=summarised, stored=stored)
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _load_batch(
    con: duckdb.DuckDBPyConnection, batch_ids: list[str], already: set[str],
    rows: Mapping[str, int], columns: Mapping[str, tuple[str, ...]],
    attach: Callable[[str, str], None], *,
    summarised: frozenset[str] | None, stored: Mapping[str, frozenset[str]] | None,
) -> LoadResult:
    """The body of a load, in the caller's open transaction, committed here: ``rows`` and
    ``columns`` of each table's batch (games in ``already`` left out of them), ``attach(view,
    table)`` makes the batch's rows of ``table`` readable under the name ``view`` (a registered
    Arrow table, or a temporary view over spooled files); every name attached is gone after."""
    result = LoadResult()
    attached: list[str] = []

    def attach_as(view: str, table: str) -> None:
        attach(view, table)
        attached.append(view)

    try:
        result.skipped = [g for g in batch_ids if g in already]
        result.loaded = [g for g in batch_ids if g not in already]
        if summarised is None:
            summarised = summaries.present(con)
        if stored is None:
            stored = stored_columns(con)
        views: dict[str, str] = {}
        for name in TABLES:
            result.rows[name] = height = rows.get(name, 0)
            if height == 0:
                continue
            view = f"_load_{name}"
            attach_as(view, name)
            views[name] = view
            # Identifiers are our own table names (never user input); values travel as Arrow
            # or Parquet.
            con.execute(f'INSERT INTO "{name}" BY NAME SELECT * FROM "{view}"')
            # the per-game summaries the pages read, from the same rows
            summaries.add_batch(con, name, view, summarised, height)
        summaries.add_totals(con, views, summarised)
        if result.loaded:
            # derived per-seat balance rows of the new games, in the same transaction, from the
            # batch's rows under the tables' names (docstring of load_frames) when the batch
            # has every stored column (a warehouse made with more games registered than now
            # has columns of theirs the batch lacks: then from the stored tables, as before)
            batch = _batch_has_stored_columns(con, columns, stored)
            if batch:
                for name in TABLES:
                    attach_as(name, name)
            # the new games' rows; from the batch, computed once, inserted, and (below) read
            # by the totals from the batch too: the stored rows of these games are exactly these
            attached.append(balance.BATCH_VIEW)
            sb = balance.refresh(con, result.loaded, present="seat_balance" in stored,
                                 batch=batch)
            if sb is not None:
                # identifiers: the table's and balance's constant
                con.execute(f'CREATE OR REPLACE TEMP VIEW seat_balance AS SELECT * FROM "{sb}"')
                attached.append("seat_balance")
            # seat and balance totals of the new games: from the batch too where it is
            # registered under the tables' names (``seat_balance`` included)
            game_totals.add_loaded(con, result.loaded,
                                   frozenset(game_totals.TABLES).intersection(stored),
                                   batch=batch)
        _detach(con, attached)
        attached = []
        con.execute("COMMIT")
    finally:
        # a name left attached would hide a table from every later statement on this (held)
        # connection (a rollback drops temporary views too; dropping twice is harmless)
        _detach(con, attached)
    return result
