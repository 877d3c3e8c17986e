"""Bulk loading of game frames into the warehouse: one statement per table, one transaction.

Frames come from :func:`ingest.pipeline.process_batch` (one polars frame per table for a batch of
games). A game whose id is already in ``games`` is skipped; the rest of the batch is inserted
all-or-nothing, so a crash or error never leaves a game half-loaded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import duckdb
import polars as pl

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


def _batch_has_stored_columns(con: duckdb.DuckDBPyConnection, arrows: Mapping[str, Any],
                              stored: Mapping[str, frozenset[str]] | None = None) -> bool:
    """Whether each table's batch has every column of the stored table (``stored``: the
    catalog, :func:`stored_columns`, when the caller has it)."""
    if stored is None:
        stored = stored_columns(con)
    return all(stored.get(t, frozenset()) <= set(arrow.schema.names) for t, arrow in arrows.items())


def _unregister(con: duckdb.DuckDBPyConnection, names: list[str]) -> None:
    for name in names:
        con.unregister(name)


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
    result = LoadResult()
    views: dict[str, str] = {}
    shadows: list[str] = []
    con.execute("BEGIN TRANSACTION")
    try:
        already = existing_game_ids(con, batch_ids)
        result.skipped = [g for g in batch_ids if g in already]
        result.loaded = [g for g in batch_ids if g not in already]
        keep = pl.Series("game_id", result.loaded, dtype=pl.String)
        if summarised is None:
            summarised = summaries.present(con)
        if stored is None:
            stored = stored_columns(con)
        arrows: dict[str, Any] = {}
        for name, frame in tables.items():
            if already:
                frame = frame.filter(pl.col("game_id").is_in(keep.implode()))
            # Arrow's string views: polars' own layout, no copy into large strings
            arrows[name] = arrow = frame.to_arrow(compat_level=pl.CompatLevel.newest())
            if frame.height == 0:
                result.rows[name] = 0
                continue
            view = f"_load_{name}"
            con.register(view, arrow)
            views[name] = view
            # Identifiers are our own table names (never user input); values travel as Arrow.
            con.execute(f'INSERT INTO "{name}" BY NAME SELECT * FROM "{view}"')
            # the per-game summaries the pages read, from the same rows
            summaries.add_batch(con, name, view, summarised, frame.height)
            result.rows[name] = frame.height
        summaries.add_totals(con, views, summarised)
        if result.loaded:
            # derived per-seat balance rows of the new games, in the same transaction, from the
            # batch's rows under the tables' names (docstring) when the batch has every stored
            # column (a warehouse made with more games registered than now has columns of
            # theirs the batch lacks: then from the stored tables, as before)
            batch = _batch_has_stored_columns(con, arrows, stored)
            if batch:
                for name, arrow in arrows.items():
                    con.register(name, arrow)
                    shadows.append(name)
            # the new games' rows; from the batch, computed once, inserted, and (below) read
            # by the totals from the batch too: the stored rows of these games are exactly these
            shadows.append(balance.BATCH_VIEW)
            sb = balance.refresh(con, result.loaded, present="seat_balance" in stored,
                                 batch=batch)
            if sb is not None:
                con.register("seat_balance", sb)
                shadows.append("seat_balance")
            # seat and balance totals of the new games: from the batch too where it is
            # registered under the tables' names (``seat_balance`` included)
            game_totals.add_loaded(con, result.loaded,
                                   frozenset(game_totals.TABLES).intersection(stored))
        _unregister(con, [*views.values(), *shadows])
        views, shadows = {}, []
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        # a view left under a table's name would hide the table from every later statement on
        # this (held) connection (the rollback drops them too; unregistering twice is harmless)
        _unregister(con, [*views.values(), *shadows])
        raise
    return result
