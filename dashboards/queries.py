"""Parameterised SQL over the warehouse (docs/warehouse.md), each returning a polars frame.

Every analytics query takes the shared :class:`Filters` and restricts the ``games`` table with
fixed SQL fragments whose values travel as parameters; no SQL is ever built from user text.
An empty or not-yet-created warehouse gives empty frames (see :func:`dashboards.store.query`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl

from dashboards.store import has_column as store_has_column
from dashboards.store import query, query_many, table_exists

#: how a game was played, for side-by-side comparisons (simulated games are always labelled)
KIND_SQL = (
    "CASE WHEN g.session_type = 'simulation' THEN 'simulated' "
    "WHEN g.illustrative THEN 'illustrative' "
    "WHEN g.is_human THEN 'human' ELSE 'walkthrough' END"
)

#: a human playtest that measures human play (illustrative examples carry made-up times)
HUMAN_SQL = "(g.is_human AND NOT coalesce(g.illustrative, FALSE))"


@dataclass(frozen=True)
class Filters:
    """The sidebar's choices. An empty tuple means "no restriction" on that field."""

    rules_versions: tuple[str, ...] = ()
    player_counts: tuple[int, ...] = ()
    session_types: tuple[str, ...] = ()
    profiles: tuple[str, ...] = ()
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    evidence_only: bool = False
    games: tuple[str, ...] = ()  # game ids (games.game): mandate2038, vestige

    def where(self, alias: str = "g", evidence: str = "evidence") -> tuple[str, list[Any]]:
        """``(sql, params)``: the WHERE condition on the games table aliased ``alias``.

        ``evidence`` names the boolean column the evidence switch applies (``evidence`` or
        ``duration_evidence``).
        """
        if evidence not in ("evidence", "duration_evidence"):
            raise ValueError(f"unknown evidence column {evidence!r}")
        a = alias
        parts: list[str] = ["TRUE"]
        params: list[Any] = []
        if self.games:
            parts.append(f"list_contains(?::VARCHAR[], {a}.game)")
            params.append(list(self.games))
        if self.rules_versions:
            parts.append(f"list_contains(?::VARCHAR[], {a}.rules_version)")
            params.append(list(self.rules_versions))
        if self.player_counts:
            parts.append(f"list_contains(?::INTEGER[], {a}.player_count)")
            params.append([int(n) for n in self.player_counts])
        if self.session_types:
            parts.append(f"list_contains(?::VARCHAR[], {a}.session_type)")
            params.append(list(self.session_types))
        if self.profiles:
            parts.append(f"list_contains(?::VARCHAR[], {a}.profile)")
            params.append(list(self.profiles))
        if self.date_from is not None:
            parts.append(f"{a}.date >= ?")
            params.append(self.date_from)
        if self.date_to is not None:
            parts.append(f"{a}.date <= ?")
            params.append(self.date_to)
        if self.evidence_only:
            parts.append(f"coalesce({a}.{evidence}, FALSE)")
        return " AND ".join(parts), params

    def without_evidence(self) -> Filters:
        """The same filters with the evidence switch off (to list what it excludes)."""
        return dataclasses.replace(self, evidence_only=False)


# --- the games table and the filters ---------------------------------------------------------


def filter_options(db: Path) -> dict[str, Any]:
    """Distinct values offered by the sidebar: versions, player counts, types, profiles, dates."""
    # the load step's game counts per filtered values when the warehouse has them
    totals = summarised(db, "game_totals")
    df = query(
        db,
        "SELECT list(DISTINCT game ORDER BY game) AS games, "
        "list(DISTINCT rules_version ORDER BY rules_version) AS rules_versions, "
        "list(DISTINCT player_count ORDER BY player_count) AS player_counts, "
        "list(DISTINCT session_type ORDER BY session_type) AS session_types, "
        "list(DISTINCT profile ORDER BY profile) AS profiles, "
        "min(date) AS date_min, max(date) AS date_max, "
        + ("CAST(coalesce(sum(games), 0) AS BIGINT) AS n_games FROM game_totals" if totals
           else "count(*) AS n_games FROM games"),
    )
    if df.is_empty():
        return {"games": [], "rules_versions": [], "player_counts": [], "session_types": [],
                "profiles": [], "date_min": None, "date_max": None, "n_games": 0}
    row = df.row(0, named=True)
    return {
        "games": [v for v in row["games"] or [] if v is not None],
        "rules_versions": [v for v in row["rules_versions"] or [] if v is not None],
        "player_counts": [v for v in row["player_counts"] or [] if v is not None],
        "session_types": [v for v in row["session_types"] or [] if v is not None],
        "profiles": [v for v in row["profiles"] or [] if v is not None],
        "date_min": row["date_min"],
        "date_max": row["date_max"],
        "n_games": int(row["n_games"] or 0),
    }


def games(db: Path, f: Filters, evidence: str = "evidence", limit: int | None = None,
          offset: int = 0) -> pl.DataFrame:
    """The games that pass the filters, with their evidence status and outcome summary (the
    ``limit`` rows from ``offset`` on when given: a page of the Games table).

    A page is read from the dates it spans only (:func:`_date_window`, from the load step's
    game counts per date): sorting every game for a thousand read a million rows."""
    where, params = f.where("g", evidence)
    cols = f"""g.game, g.game_id, g.date, g.rules_version, g.profile, g.session_type,
               {KIND_SQL} AS kind, g.illustrative, g.player_count, g.status, g.n_events,
               g.n_errors, g.n_warnings, g.complete, g.evidence, g.duration_evidence,
               g.evidence_reasons, g.total_minutes, g.facilitator, g.venue, g.protocol,
               g.source_format, g.source_name"""
    order = "ORDER BY g.date NULLS LAST, g.game_id"
    sql = f"SELECT {cols} FROM games g WHERE {where} {order}"
    if limit is None:
        return query(db, sql, params)
    limit, offset = int(limit), max(0, int(offset))
    window = _date_window(db, where, params, offset, limit) if limit > 0 else None
    if window is not None:
        cond, wparams, skip, expect = window
        # the page found on the two sort keys within its dates, then its rows read by row id
        # (sorting the whole rows read the other 21 columns of every game of those dates)
        part = query(db, f"WITH page AS (SELECT g.rowid AS r FROM games g WHERE {where}{cond} "
                         f"{order} LIMIT ? OFFSET ?) SELECT {cols} FROM games g "
                         f"WHERE g.rowid IN (SELECT r FROM page) {order}",
                     [*params, *wparams, limit, skip])
        if part.height == expect:
            return part
    return query(db, f"{sql} LIMIT ? OFFSET ?", [*params, limit, offset])


def _date_window(db: Path, where: str, params: list[Any], offset: int,
                 limit: int) -> tuple[str, list[Any], int, int] | None:
    """Where rows ``offset`` to ``offset + limit - 1`` of the games passing ``where`` in date
    order (nulls last) are: ``(condition on g.date, its parameters, the rows of the window
    before them, rows expected)``, from ``game_totals``' games per date; None without it.
    The games of the dates before the window come before it in that order and the dates after
    it after it, so the page is the window's rows from that offset on."""
    if not summarised(db, "game_totals"):
        return None
    counts = query(db, f"SELECT g.date, CAST(sum(g.games) AS BIGINT) AS n FROM game_totals g "
                       f"WHERE {where} GROUP BY g.date ORDER BY g.date NULLS LAST", params)
    dated = [(d, int(n)) for d, n in counts.iter_rows() if d is not None]
    undated = sum(int(n) for d, n in counts.iter_rows() if d is None)
    total = sum(n for _, n in dated) + undated
    expect = max(0, min(limit, total - offset))
    before, lo, lo_before, hi = 0, None, 0, None
    for d, n in dated:
        if lo is None and before + n > offset:
            lo, lo_before = d, before
        if before + n >= offset + limit:
            hi = d
            break
        before += n
    if lo is None:  # the page starts among the undated games (or past the end)
        return " AND g.date IS NULL", [], offset - before, expect
    if hi is None:  # it runs on into the undated games
        return " AND (g.date >= ? OR g.date IS NULL)", [lo], offset - lo_before, expect
    return " AND g.date BETWEEN ? AND ?", [lo, hi], offset - lo_before, expect


def game_counts(db: Path, f: Filters) -> pl.DataFrame:
    """Per game (``games.game``) of the games passing the filters, counted in SQL over the
    narrow columns of ``games`` (the Games page's summary and its table's total): games,
    evidence, human, walkthrough, illustrative, simulated, with_errors."""
    where, params = f.where()
    if summarised(db, "game_totals"):  # the load step's counts per filtered values
        n, source, errors = "g.games", "game_totals", "g.with_errors"
    else:
        n, source, errors = "1", "games", "coalesce(g.n_errors, 0) > 0"
    kinds = ", ".join(f"CAST(coalesce(sum({n}) FILTER ({KIND_SQL} = '{k}'), 0) AS BIGINT) AS {k}"
                      for k in ("human", "walkthrough", "illustrative", "simulated"))
    return query(
        db,
        f"SELECT g.game, CAST(sum({n}) AS BIGINT) AS games, CAST(coalesce(sum({n}) FILTER "
        f"(coalesce(g.evidence, FALSE)), 0) AS BIGINT) AS evidence, {kinds}, "
        f"CAST(coalesce(sum({n}) FILTER ({errors}), 0) AS BIGINT) AS with_errors "
        f"FROM {source} g WHERE {where} GROUP BY g.game ORDER BY g.game",
        params,
    )


def has_column(db: Path, table: str, column: str) -> bool:
    """True when ``table`` has ``column`` (the warehouse may be older or newer than the docs):
    :func:`dashboards.store.has_column`, the warehouse's own catalog."""
    return store_has_column(db, table, column)


def excluded_games(db: Path, f: Filters, evidence: str = "evidence") -> pl.DataFrame:
    """Games the other filters keep but the evidence switch drops, with the reasons why.

    For duration evidence the reasons are ``games.duration_reasons`` when the warehouse has it.
    """
    where, params = f.without_evidence().where("g", evidence)
    reasons = "evidence_reasons"
    if evidence == "duration_evidence" and has_column(db, "games", "duration_reasons"):
        reasons = "duration_reasons"
    return query(
        db,
        f"""
        SELECT g.game_id, g.date, g.session_type, g.player_count, g.profile,
               array_to_string(coalesce(g.{reasons}, []), '; ') AS reasons,
               g.evidence, g.duration_evidence
        FROM games g
        WHERE {where} AND NOT coalesce(g.{evidence}, FALSE)
        ORDER BY g.date NULLS LAST, g.game_id
        """,
        params,
    )


def game_list(db: Path) -> pl.DataFrame:
    """Every game, newest first, for pickers (Audit, Replay viewer)."""
    return query(
        db,
        f"""
        SELECT g.game, g.game_id, g.date, g.session_type, {KIND_SQL} AS kind, g.player_count,
               g.status, g.n_errors, g.n_warnings, g.n_events, g.source_name, g.illustrative
        FROM games g ORDER BY g.date DESC NULLS LAST, g.game_id
        """,
    )


#: the orders a game picker lists games in
PICKER_ORDERS = {
    "newest": "g.date DESC NULLS LAST, g.game_id",
    "most_errors": ("g.n_errors DESC NULLS LAST, g.n_warnings DESC NULLS LAST, "
                    "g.date NULLS LAST, g.game_id"),
}

#: the first key of each picker order (descending, nulls last): the column a cut-off is on
PICKER_KEYS = {"newest": "date", "most_errors": "n_errors"}


def _count_sql(db: Path, where: str) -> str:
    """A scalar subquery counting the games passing ``where`` (on ``g``): from the load step's
    ``game_totals`` when the warehouse has it (a few rows per filtered value, not a scan of
    every game), else from ``games``."""
    if summarised(db, "game_totals"):
        return f"(SELECT CAST(coalesce(sum(g.games), 0) AS BIGINT) FROM game_totals g WHERE {where})"
    return f"(SELECT count(*) FROM games g WHERE {where})"


def _key_cut(db: Path, key: str, where: str, params: list[Any], rows: int,
             descending: bool) -> Any:
    """The value ``v`` of ``games.key`` such that at least ``rows`` games passing ``where``
    have ``key`` from ``v`` on (``>= v`` when ``descending``, else ``<= v``), as close to the
    first as the counts allow; None when fewer than ``rows`` games have a ``key`` at all.

    Counted per value of ``key``: from ``game_totals`` for a key it holds (a few rows), else
    over the key's column of ``games`` (a column of integers, not the rows). A picker ordered
    by ``key`` first (nulls last) then reads only the games from the cut on: every other game
    comes after them in its order, so the first ``rows`` are the same, as long as at least
    ``rows`` are read (the caller checks; counts that say more than there are cost a reread)."""
    totals = key == "date" and summarised(db, "game_totals")
    source, n = ("game_totals", "g.games") if totals else ("games", "1")
    sql = f"""
        SELECT {"min" if descending else "max"}(k) AS cut, max(before + n) AS upto FROM (
            SELECT k, n, coalesce(sum(n) OVER (ORDER BY k {"DESC" if descending else "ASC"}
                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
            FROM (SELECT g.{key} AS k, CAST(sum({n}) AS BIGINT) AS n FROM {source} g
                  WHERE {where} AND g.{key} IS NOT NULL GROUP BY g.{key}))
        WHERE before < ?
        """
    df = query(db, sql, [*params, int(rows)])
    if df.is_empty() or df["upto"][0] is None or int(df["upto"][0]) < rows:
        return None
    return df["cut"][0]


#: what a picker line says of a game (:func:`game_choices`)
_PICKER_COLUMNS = (f"g.game, g.game_id, g.date, g.session_type, {KIND_SQL} AS kind, "
                   "g.player_count, g.status, g.n_errors, g.n_warnings, g.n_events, "
                   "g.source_name, g.illustrative")


#: a picker's top-N sorts the games' row ids on the order's columns, then reads the picker's
#: columns of those rows only (instead of sorting every column of the games from the cut on)
PICKER_ROW_IDS_FIRST = True


def game_choices(db: Path, f: Filters | None, order: str, limit: int,
                 wanted: list[str] | tuple[str, ...] = ()) -> pl.DataFrame:
    """The first ``limit`` games passing ``f`` (all games when None) in a picker's ``order``
    (:data:`PICKER_ORDERS`), and any of ``wanted`` that pass too, with what a picker line says
    of them; ``total`` is the number of games passing.

    A picker of 100,000 games took seconds to label and to send; nobody scrolls that far.
    Sorting a million games for the first thousand read every row (0.13-0.16 CPU s): the games
    are read from the cut-off of the order's first key on (:func:`_key_cut`), and the
    ``wanted`` games looked up by id (a scan of every id) only when they are not among them."""
    where, params = f.where() if f is not None else ("TRUE", [])
    by = PICKER_ORDERS[order]
    want = [str(w) for w in wanted]
    key = PICKER_KEYS[order]
    cut = _key_cut(db, key, where, params, int(limit), descending=True)
    if cut is not None:
        first = f"WHERE {where} AND g.{key} >= ? ORDER BY {by} LIMIT ?"
        if PICKER_ROW_IDS_FIRST:  # the top-N over the order's columns, then those rows only
            first = f"WHERE g.rowid IN (SELECT g.rowid FROM games g {first}) ORDER BY {by}"
        top = query(
            db,
            f"SELECT {_PICKER_COLUMNS}, {_count_sql(db, where)} AS total FROM games g {first}",
            [*params, *params, cut, int(limit)],
        )
        if top.height >= int(limit) and set(want) <= set(top["game_id"].to_list()):
            return top
    cols = _PICKER_COLUMNS
    return query(
        db,
        f"""
        SELECT g.*, {_count_sql(db, where)} AS total FROM (
            (SELECT {cols} FROM games g WHERE {where} ORDER BY {by} LIMIT ?)
            UNION
            (SELECT {cols} FROM games g
             WHERE {where} AND list_contains(?::VARCHAR[], g.game_id))
        ) g ORDER BY {by}
        """,
        [*params, *params, int(limit), *params, want],
    )


def seat_factions(db: Path, game_ids: list[str]) -> dict[str, list[str]]:
    """game_id -> its seats' faction ids in seat order (for game pickers).

    A game's seats are read by their stored row ids where ``game_rows`` locates them
    (:func:`located_rows`: the picker's thousand games; ``game_id IN`` scanned the ids of every
    seat, 0.08-0.2 CPU s at a million games), the other games by id."""
    ids = list(dict.fromkeys(str(g) for g in game_ids))
    return factions_of(located_rows(db, "seats", "x.game_id, x.seat, x.faction", ids,
                                    ("game_id", "seat")))


def picker_seats(db: Path, game_ids: list[str]) -> pl.DataFrame:
    """The seats of the games ``game_ids`` (game_id, seat, faction, player; each game's in
    seat order), read as :func:`seat_factions` reads them: the Replay viewer labels its
    picker with their factions (:func:`factions_of`) and rebuilds the chosen game's header
    from its seats when it has no archive file (:func:`dashboards.gamelog.load`), which read
    them again, by their location, in two more statements."""
    ids = list(dict.fromkeys(str(g) for g in game_ids))
    return located_rows(db, "seats", "x.game_id, x.seat, x.faction, x.player", ids,
                        ("game_id", "seat"))


def factions_of(seats: pl.DataFrame) -> dict[str, list[str]]:
    """game_id -> its seats' faction ids in the order of ``seats`` (empty or NULL factions left
    out): the picker lines' seats (:func:`seat_factions`), column by column (a dict a row
    cost 0.01 CPU s for the picker's thousand games)."""
    if seats.is_empty():
        return {}
    faction = pl.col("faction").cast(pl.String)
    per = seats.group_by("game_id", maintain_order=True).agg(  # empty or NULL: left out
        faction.filter(faction.is_not_null() & (faction != "")))
    return dict(zip(per["game_id"].to_list(), per["faction"].to_list(), strict=True))


def game_row(db: Path, game_id: str) -> dict[str, Any] | None:
    """One game's ``games`` row as a dict, or None."""
    df = query(db, "SELECT * FROM games WHERE game_id = ?", [game_id])
    return None if df.is_empty() else df.row(0, named=True)


def game_seats(db: Path, game_id: str) -> pl.DataFrame:
    """One game's seats with their final values."""
    return game_rows(db, "seats", "SELECT * FROM seats", "ORDER BY seat", game_id)


def game_events(db: Path, game_id: str) -> pl.DataFrame:
    """One game's events in order (type, seat, era, cycle, time, source line, JSON payload)."""
    return game_rows(db, "events",
                     "SELECT idx, type, seat, era, cycle, t, line, payload FROM events",
                     "ORDER BY idx", game_id)


def game_rows(db: Path, table: str, select: str, order: str, game_id: str) -> pl.DataFrame:
    """Every row of one game in ``table`` (one of ``summaries.LOCATED``): ``select`` (over
    ``table`` alone, no WHERE) ``WHERE`` the game's rows ``order``.

    Where the load step's ``game_rows`` says the game's ``n`` rows are stored from row id
    ``lo`` on, they are read by row id (DuckDB reads those row groups only; ``game_id = ?``
    scans the column of every row: 21 million events at 100,000 games); the result is used
    when it holds those ``n`` rows, else (a warehouse without ``game_rows``, a game loaded
    since by other means, rows moved) the game's rows are read by its id."""
    if summarised(db, "game_rows"):
        at = query(db, "SELECT lo, n FROM game_rows WHERE tbl = ? AND game_id = ?",
                   [table, game_id])
        if at.height == 1:
            lo, n = int(at["lo"][0]), int(at["n"][0])
            found = query(db, f"{select} WHERE rowid BETWEEN ? AND ? AND game_id = ? {order}",
                          [lo, lo + n - 1, game_id])
            if found.height == n:
                return found
    return query(db, f"{select} WHERE game_id = ? {order}", [game_id])


# --- Audit -----------------------------------------------------------------------------------


def findings_by_code(db: Path, f: Filters) -> pl.DataFrame:
    """Findings across the filtered games, counted by code, rule section and severity (games:
    how many games have such a finding), from the load step's per-game counts
    (``game_findings``; the findings themselves on a warehouse made before it)."""
    where, params = f.where()
    if summarised(db, "finding_totals"):  # the load step's totals per filtered values
        return query(db, "SELECT g.code, g.rule, g.severity, "
                         "CAST(sum(g.findings) AS BIGINT) AS findings, "
                         "CAST(sum(g.games) AS BIGINT) AS games "
                         f"FROM finding_totals g WHERE {where} GROUP BY ALL "
                         "ORDER BY findings DESC, code", params)
    return query(db, _findings_by_code_sql(summarised(db, "game_findings"), where), params)


def _findings_by_code_sql(summary: bool, where: str) -> str:
    # per game first either way: a distinct count over millions of findings cost twice as much
    per_game = ("SELECT fi.game_id, fi.code, fi.rule, fi.severity, fi.n FROM game_findings fi "
                f"JOIN games g USING (game_id) WHERE {where}") if summary else (
                "SELECT fi.game_id, fi.code, fi.rule, fi.severity, count(*) AS n "
                f"FROM findings fi JOIN games g USING (game_id) WHERE {where} GROUP BY ALL")
    return (f"SELECT code, rule, severity, CAST(sum(n) AS BIGINT) AS findings, count(*) AS games "
            f"FROM ({per_game}) GROUP BY ALL ORDER BY findings DESC, code")


#: read the load step's summaries where the warehouse has them (False: the per-event tables,
#: as before migration 8; ``python -m cli.bench.pages --summaries DB`` times both)
USE_SUMMARIES = True


def summarised(db: Path, table: str) -> bool:
    """True when the warehouse has the load step's summary ``table``
    (:mod:`ingest.warehouse.summaries`; a warehouse from before migration 8 has none)."""
    return USE_SUMMARIES and table_exists(db, table)


def game_findings(db: Path, game_id: str) -> pl.DataFrame:
    """One game's findings in log order; what a reader needs first (message, expected and
    recorded values) comes first, the locating columns after."""
    # a warehouse made before migration 5 has no rulings column: the page still reads it
    rulings = "rulings" if has_column(db, "findings", "rulings") else "NULL AS rulings"
    return game_rows(
        db, "findings",
        "SELECT event, severity, message, CAST(expected AS VARCHAR) AS expected, "
        f"CAST(recorded AS VARCHAR) AS recorded, rule, code, line, era, cycle, seat, n, "
        f"{rulings} FROM findings", "ORDER BY event NULLS LAST, n", game_id)


# --- Duration --------------------------------------------------------------------------------


def durations(db: Path, f: Filters, include_non_human: bool = False) -> pl.DataFrame:
    """Total and setup minutes per game (human sessions only unless asked otherwise)."""
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include_non_human else HUMAN_SQL
    return query(
        db,
        f"""
        SELECT g.game_id, g.player_count, g.session_type, {KIND_SQL} AS kind,
               g.total_minutes, g.setup_minutes, g.duration_evidence
        FROM games g
        WHERE {where} AND {human} AND g.total_minutes IS NOT NULL
        ORDER BY g.player_count, g.game_id
        """,
        params,
    )


def duration_moments(db: Path, f: Filters, include_non_human: bool = False) -> pl.DataFrame:
    """Total minutes per player count of the games :func:`durations` lists, summarised:
    n, mean, median, sd, minimum (``stats.summary_from_moments`` makes the same table as
    ``stats.summarise`` on every game's minutes, without sending every game to the page);
    from the timed games counted by total minutes (``duration_totals``,
    :func:`counted_values`) where the warehouse has them."""
    counted = counted_values(db, f, include_non_human).get("duration")
    if counted is not None:
        return _moments_of(_merged(counted, ["player_count"]), ["player_count"])
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include_non_human else HUMAN_SQL
    return query(
        db,
        f"SELECT g.player_count, {_moments('g.total_minutes')} FROM games g "
        f"WHERE {where} AND {human} AND g.total_minutes IS NOT NULL "
        "AND NOT isnan(g.total_minutes) GROUP BY ALL ORDER BY ALL",
        params,
    )


def phase_minutes(db: Path, f: Filters, include_non_human: bool = False) -> pl.DataFrame:
    """Minutes of each timed phase, per game, with the game's player count."""
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include_non_human else HUMAN_SQL
    return query(
        db,
        f"""
        SELECT p.game_id, g.player_count, {KIND_SQL} AS kind, p.phase, p.era, p.minutes
        FROM phases p JOIN games g USING (game_id)
        WHERE {where} AND {human} AND p.minutes IS NOT NULL
        ORDER BY g.player_count, p.game_id, p.start_t
        """,
        params,
    )


def turn_seconds(db: Path, f: Filters, include_non_human: bool = False) -> pl.DataFrame:
    """Per-turn times where the table recorded them."""
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include_non_human else HUMAN_SQL
    return query(
        db,
        f"""
        SELECT t.game_id, g.player_count, t.era, t.cycle, t.seat, t.action, t.seconds
        FROM turn_times t JOIN games g USING (game_id)
        WHERE {where} AND {human} AND t.seconds IS NOT NULL
        """,
        params,
    )


#: per-group moments :func:`dashboards.stats.summary_from_moments` turns into means and
#: t-intervals (the same figures as ``stats.summarise`` on every value)
def _moments(x: str) -> str:
    return (f"count({x}) AS n, avg({x}) AS mean, median({x}) AS median, "
            f"stddev_samp({x}) AS sd, min({x}) AS minimum")


def phase_moments(db: Path, f: Filters, include_non_human: bool = False) -> pl.DataFrame:
    """Minutes of each timed phase summed per game, then per phase and player count: n, mean,
    median, sd, minimum (the per-phase rows of 100,000 games are millions: from the games
    counted per phase and minutes, ``phase_totals`` (:func:`counted_values`), else in SQL)."""
    counted = counted_values(db, f, include_non_human).get("phases")
    if counted is not None:
        return _moments_of(counted.rename({"k": "phase"}), ["phase", "player_count"])
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include_non_human else HUMAN_SQL
    if summarised(db, "game_phases"):  # the load step's per-game sums
        per_game = (f"SELECT p.game_id, g.player_count, p.phase, p.minutes FROM game_phases p "
                    f"JOIN games g USING (game_id) WHERE {where} AND {human}")
    else:
        per_game = (f"SELECT p.game_id, g.player_count, p.phase, sum(p.minutes) AS minutes "
                    f"FROM phases p JOIN games g USING (game_id) "
                    f"WHERE {where} AND {human} AND p.minutes IS NOT NULL GROUP BY ALL")
    return query(db, f"SELECT phase, player_count, {_moments('minutes')} FROM ({per_game}) "
                     "GROUP BY ALL ORDER BY ALL", params)


#: the Duration page's totals (migrations 10 and 13) read by :func:`counted_values`: part ->
#: table, its value column, the key ``k`` beside the player count (the turn's action, the
#: phase, the game's kind)
DURATION_PARTS: dict[str, tuple[str, str, str]] = {
    "turns": ("turn_totals", "seconds", "g.action"),
    "phases": ("phase_totals", "minutes", "g.phase"),
    "duration": ("duration_totals", "total_minutes", KIND_SQL),
}


def counted_values(db: Path, f: Filters, include_non_human: bool = False
                   ) -> dict[str, pl.DataFrame]:
    """The counted values of the Duration page's totals of the filtered games (human sessions
    only unless asked otherwise), in ONE statement (its result cached: each of
    :func:`duration_moments`, :func:`phase_moments`, :func:`turn_time_stats` and Mandate 2038's
    ``duration_points`` reads its part): per part of :data:`DURATION_PARTS` whose table the
    warehouse has, each key ``k``, player count and value ``v`` with how many turns or games
    took it (``c``). The statistics are worked out on them in polars (:func:`_moments_of`,
    :func:`_turn_boxes`, :func:`_turn_moments`); four statements of windows over the same
    few hundred rows cost ten times this one at a million games. A part whose table is absent
    is left out (its function reads the per-row tables)."""
    parts = [p for p, (table, _, _) in DURATION_PARTS.items() if summarised(db, table)]
    if not parts:
        return {}
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include_non_human else HUMAN_SQL
    selects = []
    for part in parts:  # our own table and column names
        table, value, key = DURATION_PARTS[part]
        timed = f" AND NOT isnan(g.{value})" if part == "duration" else ""
        selects.append(f"SELECT '{part}' AS part, {key} AS k, g.player_count, "
                       f"CAST(g.{value} AS DOUBLE) AS v, CAST(sum(g.n) AS BIGINT) AS c "
                       f"FROM {table} g WHERE {where} AND {human}{timed} GROUP BY ALL")
    df = query(db, " UNION ALL ".join(selects), params * len(parts))
    if "part" not in df.columns:
        return {}
    return {p: df.filter(pl.col("part") == p).drop("part") for p in parts}


def _merged(counted: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Counted values (``v``, ``c``) summed over every key but ``keys``."""
    return counted.group_by([*keys, "v"]).agg(pl.col("c").sum())


def _quantile(q: float) -> pl.Expr:
    """The q-quantile of a group's counted values (``v``, ``c``, ``cum``: the counts summed up
    to each value in value order) as :func:`_quantile_at` works it out in SQL (DuckDB's
    ``quantile_cont`` on every row): position ``q * (n - 1)`` in the sorted values,
    interpolated between its two neighbours. The position is exact, as the SQL's decimal
    ``q`` makes it (in doubles ``0.29 * 100`` falls below 29), and its fraction the double
    nearest it: the same bits as the SQL."""
    exact = Fraction(repr(q))  # the decimal the SQL reads
    num, den = exact.numerator, exact.denominator
    at = (pl.col("c").sum() - 1) * num  # the position times den
    below = at // den
    above = (at + den - 1) // den
    lo = pl.col("v").filter(pl.col("cum") > below).min()
    hi = pl.col("v").filter(pl.col("cum") > above).min()
    # divided by a per-group value, not the literal: polars divides by a constant as a
    # multiplication by its inverse (3 / 10 gives 0.30000000000000004)
    return lo + (hi - lo) * ((at - below * den) / (pl.col("c").sum() * 0 + den))


def _cumulated(counted: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Counted values in value order per group of ``keys``, each with ``cum``: the counts of
    its group up to it (what :func:`_quantile` reads)."""
    return (counted.sort([*keys, "v"], nulls_last=True)
            .with_columns(pl.col("c").cum_sum().over(keys).alias("cum")))


def _moments_of(counted: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """:func:`_moments` per group of ``keys`` from counted values (``v``, ``c``): n, mean,
    median (:func:`_quantile`), sd, minimum, in key order. The mean is a sum, the standard
    deviation the sum of squares about the mean (two passes, as ``stddev_samp``: 0 when every
    value is the same, None for a single one); equal to the per-row query (1e-9)."""
    n = pl.col("c").sum()
    mean = (pl.col("c") * pl.col("v")).sum() / n
    dev = pl.col("v") - mean
    sd = pl.when(n > 1).then(((pl.col("c") * dev * dev).sum() / (n - 1)).sqrt())
    return (_cumulated(counted, keys).group_by(keys).agg(
        n.cast(pl.Int64).alias("n"), mean.alias("mean"), _quantile(0.5).alias("median"),
        sd.alias("sd"), pl.col("v").min().alias("minimum"))
        .sort(keys, nulls_last=True))


def _turn_boxes(counted: pl.DataFrame) -> pl.DataFrame:
    """The box plot's statistics per action and player count (lo, q1, median, q3, hi) from
    the counted turn times (:func:`counted_values`' ``turns``)."""
    keys = ["action", "player_count"]
    return (_cumulated(counted.rename({"k": "action"}), keys).group_by(keys).agg(
        pl.col("v").min().alias("lo"), _quantile(0.25).alias("q1"),
        _quantile(0.5).alias("median"), _quantile(0.75).alias("q3"),
        pl.col("v").max().alias("hi"))
        .sort(keys, nulls_last=True))


def _turn_moments(counted: pl.DataFrame) -> pl.DataFrame:
    """The interval table's moments per action (every player count) from the counted turn
    times (:func:`_moments_of`)."""
    return _moments_of(_merged(counted.rename({"k": "action"}), ["action"]), ["action"])


def turn_time_stats(db: Path, f: Filters, include_non_human: bool = False) -> dict[str, pl.DataFrame]:
    """Recorded turn times summarised: ``boxes`` (lo, q1, median, q3, hi per action and player
    count, for the box plot) and ``moments`` (per action, for the interval table); from the
    turns counted per recorded value (``turn_totals``, :func:`counted_values`) where the
    warehouse has them, else in SQL over every turn."""
    counted = counted_values(db, f, include_non_human).get("turns")
    if counted is not None:
        return {"boxes": _turn_boxes(counted), "moments": _turn_moments(counted)}
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include_non_human else HUMAN_SQL
    source = (f"FROM turn_times t JOIN games g USING (game_id) "
              f"WHERE {where} AND {human} AND t.seconds IS NOT NULL")
    boxes, moments = query_many(db, [
        (f"""SELECT t.action, g.player_count, min(t.seconds) AS lo,
                    quantile_cont(t.seconds, 0.25) AS q1, median(t.seconds) AS median,
                    quantile_cont(t.seconds, 0.75) AS q3, max(t.seconds) AS hi
             {source} GROUP BY ALL ORDER BY ALL""", params),
        (f"SELECT t.action, {_moments('t.seconds')} {source} GROUP BY ALL ORDER BY ALL",
         params),
    ])
    return {"boxes": boxes, "moments": moments}


def _counted(table: str, value: str, keys: tuple[str, ...], where: str) -> str:
    """Per group of ``keys`` of the totals ``table`` (aliased ``g``, rows passing ``where``):
    each value ``v`` of its column ``value``, its count ``c`` (the summed ``n``), the rows
    before it and the group's ``total``: what :func:`_quantile_at` reads."""
    by = ", ".join(keys)
    return (f"SELECT {by}, v, c, sum(c) OVER (PARTITION BY {by} ORDER BY v "
            f"ROWS UNBOUNDED PRECEDING) - c AS before, sum(c) OVER (PARTITION BY {by}) "
            f"AS total FROM (SELECT {', '.join(f'g.{k} AS {k}' for k in keys)}, "
            f"g.{value} AS v, CAST(sum(g.n) AS BIGINT) AS c "
            f"FROM {table} g WHERE {where} GROUP BY ALL)")


def _quantile_at(q: float) -> str:
    """The q-quantile over a group's counted values (:func:`_counted`), as DuckDB's
    ``quantile_cont`` on every row: position ``q * (n - 1)`` in the sorted values,
    interpolated between its two neighbours."""
    pos = f"({q!r} * (any_value(total) - 1))"
    lo = f"min(v) FILTER (WHERE before + c > floor({q!r} * (total - 1)))"
    hi = f"min(v) FILTER (WHERE before + c > ceil({q!r} * (total - 1)))"
    return f"{lo} + ({hi} - {lo}) * ({pos} - floor({pos}))"


# --- Observation protocols -------------------------------------------------------------------


OBSERVATION_COLUMNS = (
    "o.game_id, o.idx, o.category, coalesce(o.rule, '(no rule cited)') AS rule, o.seat, o.era, "
    f"o.cycle, o.text, o.minutes, g.protocol, {KIND_SQL} AS kind"
)


def _name_columns(alias: str = "g") -> str:
    """The columns of ``games`` (aliased ``alias``) a shown game's name is made of, prefixed
    ``name__`` (:func:`dashboards.ui.name_columns_sql`): read with a table's rows from the
    join to ``games`` the query makes anyway, they name its games without a lookup of their ids
    (a scan of a million game ids, 0.08-0.15 CPU s a table)."""
    from dashboards import ui

    return ui.name_columns_sql(alias)


def observations(db: Path, f: Filters, categories: list[str] | None = None,
                 limit: int | None = None, names: bool = False) -> pl.DataFrame:
    """Every observation of the filtered games in game and log order (only ``categories``
    when given; with ``limit``, :func:`first_observations`, and the columns their games are
    named by when ``names``: :func:`_name_columns`)."""
    if limit is not None:
        return first_observations(db, f, int(limit), categories, names)
    where, params = f.where()
    if categories is not None:
        where += " AND list_contains(?::VARCHAR[], o.category)"
        params = [*params, list(categories)]
    return query(
        db,
        f"""
        SELECT {OBSERVATION_COLUMNS}
        FROM observations o JOIN games g USING (game_id)
        WHERE {where}
        ORDER BY o.game_id, o.idx
        """,
        params,
    )


def first_observations(db: Path, f: Filters, limit: int,
                       categories: list[str] | None = None, names: bool = False) -> pl.DataFrame:
    """``limit`` observations of the filtered games (only ``categories`` when given), in game
    and log order: those of the observations loaded first, read as far as they are needed.

    Sorting every observation to show the first thousand read all of them (46 million at a
    million games); this reads the first ``window`` observations as stored (a scan DuckDB stops
    there), keeps the filtered games' and sorts those, and reads four times further while fewer
    than ``limit`` are found (up to every observation: then it is the whole query).
    ``names``: with the columns their games are named by (:func:`_name_columns`)."""
    where, params = f.where()
    cols = OBSERVATION_COLUMNS + (f", {_name_columns()}" if names else "")
    cat, cat_params = "TRUE", []
    if categories is not None:
        cat, cat_params = "list_contains(?::VARCHAR[], o.category)", [list(categories)]
    rows: int | None = None  # how many observations there are: counted when needed
    window = 4 * max(1, limit)
    while True:
        # the window's games by row id when they are among the games stored first (as
        # loaded: a game's observations are loaded with it), else every game joined
        first = _first_games(db, cat, cat_params, window)
        games, games_params = ("games", []) if first is None else (
            "(SELECT * FROM games WHERE rowid IN (SELECT unnest(?::BIGINT[])))", [first])
        frame = query(
            db,
            f"""
            SELECT {cols}
            FROM (SELECT * FROM observations o WHERE {cat} LIMIT ?) o
            JOIN {games} g USING (game_id)
            WHERE {where} ORDER BY o.game_id, o.idx LIMIT ?
            """,
            [*cat_params, window, *games_params, *params, int(limit)],
        )
        if frame.height >= limit:
            return frame
        if rows is None:
            stored = query(db, "SELECT count(*) AS n FROM observations")
            rows = int(stored["n"][0]) if not stored.is_empty() else 0
        if window >= rows:
            return frame
        window *= 4


def _first_games(db: Path, cat: str, cat_params: list[Any], window: int) -> list[int] | None:
    """The row ids in ``games`` of the games of the first ``window`` observations as stored
    (those of ``cat``), when every one of them is among the first ``window`` games stored;
    else None. Joining the window to every game read the columns of a million games (0.09 CPU
    s); the games loaded first are read instead (0.02). One statement: the window's games and
    those found among the first games."""
    found = query(
        db,
        f"WITH ids AS (SELECT DISTINCT o.game_id FROM (SELECT o.game_id FROM observations o "
        f"WHERE {cat} LIMIT ?) o) "
        "SELECT (SELECT count(*) FROM ids) AS wanted, (SELECT list(g.r ORDER BY g.r) FROM "
        "(SELECT rowid AS r, game_id FROM games LIMIT ?) g "
        "WHERE g.game_id IN (SELECT game_id FROM ids)) AS found",
        [*cat_params, window, window])
    if found.is_empty() or not found["wanted"][0]:
        return None
    rows = found["found"][0]
    if rows is None or len(rows) != int(found["wanted"][0]):
        return None
    return [int(r) for r in rows.to_list()]


def observation_page(db: Path, f: Filters, limit: int,
                     first: bool = True) -> dict[str, pl.DataFrame]:
    """What the Observation protocols page reads, on one connection, counted in SQL:

    ``counts`` (category, era, rule, observations: the chart's bars), ``first`` (``limit``
    observations in game and log order, :func:`first_observations`), ``interventions``
    (receipts), ``survey_numeric`` (box statistics per item) and ``survey_text`` (the first
    ``limit`` answers in words, ``total`` of them), and ``names``: the rows of ``games`` that
    name the games of ``first``, ``interventions`` and ``survey_text`` (``ui.NAME_COLUMNS``,
    read with them: no lookup of their ids). ``first`` False: no first observations (an
    empty ``first``; the page reads them when their expander is opened)."""
    from dashboards import ui

    where, params = f.where()
    totals = summarised(db, "survey_totals")
    frames = query_many(db, [
        (_observation_counts_sql(summarised(db, "game_observations"), where,
                                 summarised(db, "observation_totals")), params),
        (_survey_values_sql(where) if totals else _survey_numeric_sql(False, where), params),
        # whether any answer is in words (the join below read a million games' filtered
        # columns and seats to find none: 0.012 CPU s at a million games; this 0.002)
        ("SELECT count(*) AS n FROM survey sv "
         "WHERE sv.value_num IS NULL AND sv.value_text IS NOT NULL", None),
    ])
    worded = not frames[2].is_empty() and int(frames[2]["n"][0]) > 0
    text = query(db, f"""SELECT sv.game_id, sv.seat, s.faction, sv.item, sv.value_text,
                    count(*) OVER () AS total, {_name_columns()}
             FROM survey sv JOIN games g USING (game_id)
             LEFT JOIN seats s ON s.game_id = sv.game_id AND s.seat = sv.seat
             WHERE {where} AND sv.value_num IS NULL AND sv.value_text IS NOT NULL
             ORDER BY sv.item, sv.game_id, sv.seat LIMIT ?""",
                 [*params, int(limit) if worded else 0])  # none: its columns only
    first_names: pl.DataFrame | None = None
    if first:
        observed, first_names = ui.split_names(first_observations(db, f, limit, names=True))
    else:
        observed = pl.DataFrame()
    receipts, receipt_names = ui.split_names(interventions(db, f, names=True))
    text, text_names = ui.split_names(text)
    named = [n for n in (first_names, receipt_names, text_names) if n is not None and n.height]
    names = (pl.concat(named, how="vertical_relaxed").unique("game_id", maintain_order=True)
             if named else pl.DataFrame(schema=ui.NAME_COLUMNS))
    numeric = _survey_boxes(frames[1]) if totals else frames[1]
    return {"counts": frames[0], "first": observed, "interventions": receipts,
            "survey_numeric": numeric, "survey_text": text, "names": names}


def survey_numeric(db: Path, f: Filters) -> pl.DataFrame:
    """The numeric survey answers' box statistics per item of the filtered games (as
    :func:`observation_page` reads them with its other queries)."""
    where, params = f.where()
    if summarised(db, "survey_totals"):
        return _survey_boxes(query(db, _survey_values_sql(where), params))
    return query(db, _survey_numeric_sql(False, where), params)


#: the columns of the survey's box statistics (:func:`survey_numeric`)
SURVEY_BOX: dict[str, pl.DataType] = {
    "item": pl.Utf8(), "answers": pl.Int64(), "mean": pl.Float64(), "lo": pl.Float64(),
    "q1": pl.Float64(), "median": pl.Float64(), "q3": pl.Float64(), "hi": pl.Float64()}


def _survey_values_sql(where: str) -> str:
    """Each numeric answer's value per item and how many gave it (``survey_totals`` summed
    over the rows passing ``where``), by item and value: what :func:`_survey_boxes` reads."""
    return ("SELECT g.item, g.value_num AS v, CAST(sum(g.n) AS BIGINT) AS c "
            f"FROM survey_totals g WHERE {where} GROUP BY ALL ORDER BY ALL")


def _survey_boxes(counted: pl.DataFrame) -> pl.DataFrame:
    """The box statistics per item from its values and counts (:func:`_survey_values_sql`),
    as :func:`_survey_numeric_sql` computes them over ``survey_totals`` (the same arithmetic:
    the mean ``sum(c * v) / sum(c)``, a quantile by :func:`_quantile_at`'s rule); a few dozen
    rows, in Python: the SQL's window and filtered aggregates cost 0.013 CPU s at a million
    games, the values 0.003-0.006."""
    if counted.is_empty() or "v" not in counted.columns:
        return pl.DataFrame(schema=SURVEY_BOX)
    rows: list[tuple[Any, ...]] = []
    for item, group in counted.group_by("item", maintain_order=True):
        values = [(float(v), int(c)) for v, c in zip(group["v"].to_list(), group["c"].to_list(),
                                                    strict=True) if v is not None]
        if not values:
            continue
        values.sort()
        total = sum(c for _, c in values)
        weighted = 0.0
        for v, c in values:
            weighted += c * v

        def at(q: float, n: int = total, vs: list[tuple[float, int]] = values) -> float:
            pos = q * (n - 1)
            lo = hi = None
            before = 0
            for v, c in vs:
                if lo is None and before + c > math.floor(pos):
                    lo = v
                if hi is None and before + c > math.ceil(pos):
                    hi = v
                before += c
            assert lo is not None and hi is not None
            return lo + (hi - lo) * (pos - math.floor(pos))

        rows.append((item[0], total, weighted / total, values[0][0], at(0.25), at(0.5),
                     at(0.75), values[-1][0]))
    return pl.DataFrame(rows, schema=SURVEY_BOX, orient="row").sort("item")


def _survey_numeric_sql(totals: bool, where: str) -> str:
    """The numeric survey answers' box statistics per item: from the load step's
    ``survey_totals`` (each value and how many answers gave it, per filtered values; exact, as
    the turn times), else from the answers."""
    if totals:
        at = _quantile_at
        return (f"SELECT item, CAST(sum(c) AS BIGINT) AS answers, sum(c * v) / sum(c) AS mean, "
                f"min(v) AS lo, {at(0.25)} AS q1, {at(0.5)} AS median, {at(0.75)} AS q3, "
                f"max(v) AS hi FROM ({_counted('survey_totals', 'value_num', ('item',), where)}) "
                "GROUP BY item ORDER BY item")
    return f"""SELECT sv.item, count(*) AS answers, avg(sv.value_num) AS mean,
                    min(sv.value_num) AS lo, quantile_cont(sv.value_num, 0.25) AS q1,
                    median(sv.value_num) AS median, quantile_cont(sv.value_num, 0.75) AS q3,
                    max(sv.value_num) AS hi
             FROM survey sv JOIN games g USING (game_id)
             WHERE {where} AND sv.value_num IS NOT NULL
             GROUP BY sv.item ORDER BY sv.item"""


def _observation_counts_sql(summary: bool, where: str, totals: bool = False) -> str:
    # the load step's totals per filtered values (observation_totals), its per-game counts
    # (game_observations), else the observations themselves
    if totals:
        return ("SELECT g.category, g.era, coalesce(g.rule, '(no rule cited)') AS rule, "
                "CAST(sum(g.observations) AS BIGINT) AS observations "
                f"FROM observation_totals g WHERE {where} GROUP BY ALL ORDER BY ALL")
    n, source = ("sum(o.n)", "game_observations") if summary else ("count(*)", "observations")
    return (f"SELECT o.category, o.era, coalesce(o.rule, '(no rule cited)') AS rule, "
            f"CAST({n} AS BIGINT) AS observations "
            f"FROM {source} o JOIN games g USING (game_id) WHERE {where} GROUP BY ALL ORDER BY ALL")


_RECEIPTS = "(len(coalesce({a}.interventions, [])) > 0 OR len(coalesce({a}.rules_deviations, [])) > 0)"


def interventions(db: Path, f: Filters, names: bool = False) -> pl.DataFrame:
    """Facilitator interventions and rules deviations recorded in the games' receipts.

    Two statements: the row ids of the filtered games with either list (reading only the
    columns filtered on), then those games' lists by row id, unnested. One statement reading
    the games' ids and lists while filtering cost 0.05-0.10 CPU s at a million games (none of
    which had a receipt); the row ids 0.015. ``names``: with the columns their games are
    named by (:func:`_name_columns`)."""
    where, params = f.where("k")
    found = query(db, f"SELECT k.rowid AS r FROM games k WHERE {where} AND "
                      f"{_RECEIPTS.format(a='k')} ORDER BY k.rowid", params)
    rows = found["r"].to_list() if not found.is_empty() else []
    if not rows:  # (reading by an empty list of row ids scanned the table)
        return pl.DataFrame(schema={"game_id": pl.Utf8, "kind": pl.Utf8, "text": pl.Utf8})
    where, params = f.where()
    named = f", {_name_columns()}" if names else ""
    carried = ", * EXCLUDE (game_id, interventions, rules_deviations)" if names else ""
    # the filters again on the rows read: a write between the two statements moves nothing in
    return query(
        db,
        f"""
        WITH r AS MATERIALIZED (
            SELECT g.game_id, g.interventions, g.rules_deviations{named} FROM games g
            WHERE g.rowid IN (SELECT unnest(?::BIGINT[])) AND {where}
                  AND {_RECEIPTS.format(a='g')})
        SELECT game_id, 'intervention' AS kind, unnest(interventions) AS text{carried}
        FROM r WHERE len(coalesce(interventions, [])) > 0
        UNION ALL
        SELECT game_id, 'deviation' AS kind, unnest(rules_deviations) AS text{carried}
        FROM r WHERE len(coalesce(rules_deviations, [])) > 0
        """,
        [rows, *params],
    )


def survey(db: Path, f: Filters) -> pl.DataFrame:
    """Post-game survey answers of the filtered games."""
    where, params = f.where()
    return query(
        db,
        f"""
        SELECT sv.game_id, sv.seat, s.faction, sv.item, sv.value_text, sv.value_num
        FROM survey sv JOIN games g USING (game_id)
        LEFT JOIN seats s ON s.game_id = sv.game_id AND s.seat = sv.seat
        WHERE {where}
        ORDER BY sv.item, sv.game_id, sv.seat
        """,
        params,
    )


def protocol_games(db: Path, f: Filters, include_non_human: bool = False,
                   limit: int | None = None) -> pl.DataFrame:
    """The filtered games with their protocol and archived log location, newest first (the
    first ``limit`` when given; ``total`` is the number of matching games either way), and
    what their names are made of (game, player_count, source_name, source_format: with
    game_id and date, ``ui.NAME_COLUMNS``; the page names them without a lookup of their ids).

    Observation protocols are for physical sessions: human sessions only (not illustrative
    samples, whose sessions are made up) unless asked. With ``limit``, the games are read from
    the newest dates holding that many on (:func:`_key_cut`, from ``game_totals``' games per
    date): sorting every human session for the newest hundred read 200,000 at a million
    games."""
    where, params = f.where()
    human = "TRUE" if include_non_human else HUMAN_SQL  # an illustrative sample is not one
    cols = ("g.game_id, g.date, g.protocol, g.archive_path, g.session_type, g.game, "
            "g.player_count, g.source_name, g.source_format, "
            f"{_count_sql(db, f'{where} AND {human}')} AS total")
    order = "ORDER BY g.date DESC NULLS LAST, g.game_id"
    if limit is not None:
        cut = _key_cut(db, "date", f"{where} AND {human}", params, int(limit), descending=True)
        if cut is not None:
            # the sessions found on the sort keys, then their rows read by row id (sorting
            # the whole rows read the other columns of every session of those dates: 0.045-0.065
            # CPU s at a million games, 0.035-0.04 this way)
            top = query(db, f"WITH p AS (SELECT g.rowid AS r FROM games g WHERE {where} AND "
                            f"{human} AND g.date >= ? {order} LIMIT ?) SELECT {cols} "
                            f"FROM games g WHERE g.rowid IN (SELECT r FROM p) {order}",
                        [*params, cut, int(limit), *params])
            if top.height >= int(limit):
                return top
    cap, capped = "", []
    if limit is not None:
        cap, capped = " LIMIT ?", [int(limit)]
    return query(
        db,
        f"SELECT {cols} FROM games g WHERE {where} AND {human} {order}{cap}",
        [*params, *params, *capped],  # the count's, the rows', the limit
    )


def protocol_sessions(db: Path, f: Filters, limit: int) -> pl.DataFrame | None:
    """:func:`protocol_games` of the human sessions (the page's default) with what their
    capture check reads (``capture``, ``categories``, ``survey``, ``seats``: lists, as
    ``protocol_sessions`` keeps them, migration 15), from that table: one statement, the
    newest ``limit`` sessions found on the sort keys and then their rows read by row id.
    None for a warehouse without the table (read as before: :func:`protocol_games`,
    :func:`protocol_check_rows`)."""
    if not summarised(db, "protocol_sessions"):
        return None
    where, params = f.where()
    order = "ORDER BY g.date DESC NULLS LAST, g.game_id"
    cols = ("g.game_id, g.date, g.protocol, g.archive_path, g.session_type, g.game, "
            "g.player_count, g.source_name, g.source_format, "
            f"{_count_sql(db, f'{where} AND {HUMAN_SQL}')} AS total, "
            "g.capture, g.categories, g.survey, g.seats")
    return query(db, f"WITH p AS (SELECT g.rowid AS r FROM protocol_sessions g WHERE {where} "
                     f"AND {HUMAN_SQL} {order} LIMIT ?) SELECT {cols} FROM protocol_sessions g "
                     f"WHERE g.rowid IN (SELECT r FROM p) {order}",
                 [*params, int(limit), *params])


def capture(db: Path, game_ids: list[str]) -> pl.DataFrame:
    """The warehouse's capture results of ``game_ids``: game_id, item, group, captured, reason
    (one row per checklist item of each game's protocol, scored at ingest)."""
    return located_rows(db, "capture", _CAPTURE_COLUMNS, game_ids, ("game_id",))


def protocol_events(db: Path, game_ids: list[str]) -> pl.DataFrame:
    """The observation and survey events of ``game_ids``: game_id, idx, payload (JSON text).

    The rows are found first by their row ids (game and type only), then their payloads read:
    reading the payload column while filtering scanned it for every event of the warehouse
    (1.3 s at 100,000 games; 0.2 s this way)."""
    return query(
        db,
        "SELECT e.game_id, e.idx, CAST(e.payload AS VARCHAR) AS payload FROM events e "
        "WHERE e.rowid IN (SELECT k.rowid FROM events k "
        "WHERE k.game_id IN (SELECT unnest(?::VARCHAR[])) "
        "AND k.type IN ('observation', 'survey')) "
        "ORDER BY e.game_id, e.idx",
        [list(game_ids)],
    )


def protocol_check_rows(db: Path, game_ids: list[str]) -> dict[str, pl.DataFrame]:
    """What :func:`dashboards.protocols.completeness_from_warehouse` reads for ``game_ids``:
    ``capture`` (as :func:`capture`), ``categories`` (each game's observation categories:
    game_id, category, idxs, n; idxs, the events that use it, NULL when read from the load
    step's ``game_observations``; n, how many there are), ``survey`` (the survey answers:
    game_id, idx, item, seat, value_text, value_num) and ``seats`` (as :func:`seat_numbers`).

    ``capture``, ``survey``, ``seats`` and the games' observations are read by their located
    row ids (:func:`located_many`, one statement a table): by game id they scanned the column
    of every row (8.2 million capture rows at a million games: 0.17 CPU s; the seats 0.17;
    ``game_observations``' 5 million game ids 0.05). The observations located give each
    category's events too (:func:`located_categories`), so a category that does not fit needs
    no second read; a game whose observations are not located is read from
    ``game_observations`` by game id (its categories' events then read only for a category
    that does not fit, :func:`observation_events`). No event payload is read: finding a few
    hundred payloads among millions of events cost 0.07 s at 10,000 games and 0.2 s at
    100,000; the ``survey`` table holds each answer exactly enough to rebuild it
    (:func:`dashboards.protocols.survey_value`)."""
    ids = sorted({str(g) for g in game_ids})
    capture, survey, seats, observed = located_many(db, [
        ("capture", _CAPTURE_COLUMNS, ids, ("game_id",), True),
        ("survey", "x.game_id, x.idx, x.item, x.seat, x.value_text, x.value_num", ids,
         ("game_id", "idx"), True),
        ("seats", "x.game_id, x.seat", ids, ("game_id", "seat"), True),
        ("observations", "x.game_id, x.category, x.idx", ids, ("game_id", "idx"), False),
    ])
    categories = located_categories(observed)
    located = set(categories["game_id"].to_list())
    todo = [g for g in ids if g not in located]
    if todo:
        rest = query(
            db,
            # which categories each game used: from the load step's per-game counts (4 rows a
            # game at 100,000 games, against 233 observations); the events that use a category
            # are read only for a category that does not fit (:func:`observation_events`)
            "SELECT o.game_id, o.category, CAST(NULL AS INTEGER[]) AS idxs, "
            "CAST(sum(o.n) AS BIGINT) AS n "
            "FROM game_observations o WHERE o.game_id IN (SELECT unnest(?::VARCHAR[])) "
            "GROUP BY o.game_id, o.category ORDER BY o.game_id, o.category"
            if summarised(db, "game_observations") else
            "SELECT o.game_id, o.category, list(o.idx ORDER BY o.idx) AS idxs, count(*) AS n "
            "FROM observations o WHERE o.game_id IN (SELECT unnest(?::VARCHAR[])) "
            "GROUP BY o.game_id, o.category ORDER BY o.game_id, min(o.idx)", [todo])
        if categories.is_empty() or rest.is_empty():
            categories = rest if categories.is_empty() else categories
        else:
            categories = pl.concat([categories, rest], how="vertical_relaxed").sort(
                "game_id", maintain_order=True)
    return {"capture": capture, "categories": categories, "survey": survey, "seats": seats}


def located_categories(rows: pl.DataFrame) -> pl.DataFrame:
    """Each game's observation categories from its observation rows (game_id, category, idx;
    :func:`located_many`): game_id, category, idxs (the events that use it, in log order), n;
    by game, then each category's first event (as the query on ``observations`` orders
    them)."""
    schema: dict[str, pl.DataType] = {"game_id": pl.Utf8(), "category": pl.Utf8(),
                                      "idxs": pl.List(pl.Int32()), "n": pl.Int64()}
    if rows.is_empty() or "idx" not in rows.columns:
        return pl.DataFrame(schema=schema)
    return (rows.group_by("game_id", "category")
            .agg(pl.col("idx").sort().cast(pl.Int32).alias("idxs"),
                 pl.len().cast(pl.Int64).alias("n"))
            .sort("game_id", pl.col("idxs").list.first())
            .select(list(schema)))


_CAPTURE_COLUMNS = ('x.game_id, x.item_id AS item, x.grp AS "group", x.captured, x.reason')

#: located table -> the table of its games' row locations (as
#: ``ingest.warehouse.summaries.LOCATIONS``: migrations 11, 13 and 14)
LOCATIONS: dict[str, str] = {"events": "game_rows", "findings": "game_rows",
                             "seats": "game_rows", "capture": "protocol_rows",
                             "survey": "protocol_rows", "observations": "protocol_rows"}


def located_rows(db: Path, table: str, columns: str, game_ids: list[str],
                 order: tuple[str, ...], by_id: bool = True) -> pl.DataFrame:
    """Every row of the games ``game_ids`` in ``table`` (one of :data:`LOCATIONS`): the
    select list ``columns`` over the table aliased ``x``, sorted by ``order`` (columns of the
    result), each game's rows in stored order.

    Where the load step located a game's rows (its ``n`` rows from row id ``lo`` on, in
    ``game_rows`` or ``protocol_rows``), they are read by row id (``rowid IN (the ranges'
    ids)``: DuckDB fetches those rows; ``game_id IN (...)`` scanned the column of every row,
    and a UNION of one range scan per game cost more than that scan), in one statement with
    the locations' counts (:func:`_located_sql`). A game is taken from them only when its
    ``n`` rows were found with its id; the others (a warehouse without the locations, rows
    written by other means) are read by game id (left out when ``by_id`` is False: the caller
    reads them from elsewhere)."""
    return located_many(db, [(table, columns, game_ids, order, by_id)])[0]


#: one read of :func:`located_many`: table, select list over it aliased ``x``, game ids, the
#: result's sort columns, and whether games not located are read by game id
LocatedRead = tuple[str, str, list[str], tuple[str, ...], bool]


def _located_sql(table: str, columns: str) -> str:
    """The located rows of ``table`` (``columns``, ``_game``, ``_row``) and, in the same
    result, its locations' rows (``_game``, ``_n``; ``_row`` NULL): two parameters, the
    table's name and the game ids, twice. A separate statement for the counts cost a
    statement per read (a few ms each)."""
    loc = LOCATIONS[table]
    where = "WHERE tbl = ? AND game_id IN (SELECT unnest(?::VARCHAR[]))"
    return (f"SELECT {columns}, x.game_id AS _game, x.rowid AS _row, CAST(NULL AS BIGINT) AS _n "
            f"FROM {table} x WHERE x.rowid IN (SELECT unnest(range(lo, lo + n)) FROM {loc} "
            f"{where}) UNION ALL BY NAME SELECT game_id AS _game, n AS _n FROM {loc} {where}")


def located_many(db: Path, reads: list[LocatedRead]) -> list[pl.DataFrame]:
    """:func:`located_rows` of several tables (``reads``), their statements run together (one
    statement a table; the games not located read by id in a second round)."""
    plans: list[tuple[list[str], str, pl.DataFrame | None, list[str]]] = []
    located: list[tuple[str, list[Any] | None]] = []
    which: list[int] = []
    for i, (table, columns, game_ids, _order, _by_id) in enumerate(reads):
        ids = sorted({str(g) for g in game_ids})
        select = f"SELECT {columns}, x.game_id AS _game, x.rowid AS _row FROM {table} x"
        plans.append((ids, select, None, ids))
        if ids and summarised(db, LOCATIONS[table]):
            located.append((_located_sql(table, columns), [table, ids, table, ids]))
            which.append(i)
    for i, both in zip(which, query_many(db, located), strict=True):
        ids, select, _, _ = plans[i]
        if "_row" not in both.columns:
            continue
        rows = both.filter(pl.col("_row").is_not_null())
        at = both.filter(pl.col("_row").is_null())
        if at.is_empty():
            continue
        counts = dict(rows.group_by("_game").len().iter_rows()) if rows.height else {}
        whole = {g for g, n in at.select("_game", "_n").iter_rows() if counts.get(g) == n}
        kept = rows.filter(pl.col("_game").is_in(list(whole))).drop("_n")
        plans[i] = (ids, select, kept, [g for g in ids if g not in whole])
    rest: list[tuple[str, list[Any] | None]] = []
    rest_of: list[int] = []
    for i, (ids, select, found, todo) in enumerate(plans):
        by_id = reads[i][4]
        if not ids:
            rest.append((f"SELECT {reads[i][1]} FROM {reads[i][0]} x WHERE FALSE", []))
            rest_of.append(i)
        elif todo and (by_id or found is None):
            rest.append((f"{select} WHERE x.game_id IN (SELECT unnest(?::VARCHAR[]))",
                         [todo if by_id else []]))
            rest_of.append(i)
    out: list[pl.DataFrame | None] = [found for _, _, found, _ in plans]
    for i, frame in zip(rest_of, query_many(db, rest), strict=True):
        before = out[i]
        if not plans[i][0]:  # no game asked: the empty result as it stands
            out[i] = frame
            continue
        out[i] = frame if before is None else pl.concat([before, frame], how="vertical_relaxed")
    result = []
    for i, got in enumerate(out):
        if got is None or "_row" not in got.columns:  # no such table: an empty frame
            result.append(pl.DataFrame() if got is None else got)
            continue
        result.append(got.sort([*reads[i][3], "_row"], nulls_last=True).drop("_game", "_row"))
    return result


#: at most this many games' observation events are read by their located rows (one UNION
#: branch each); more are read from ``observations`` at once (the CSV of every misfit)
LOCATED_GAMES = 20


def observation_events(db: Path, pairs: list[tuple[str, str | None]]) -> dict[
        tuple[str, str | None], list[int]]:
    """(game_id, category) -> the idx of each observation of that category in that game, in
    log order, for ``pairs`` (the categories a protocol check found not to fit).

    Where the load step's ``game_rows`` locates a game's events, its observation events are
    read by their row ids (:func:`located_rows`; their category from the payload: a few
    hundred events a game); ``game_id IN (...)`` on ``observations``
    scanned the column of every observation (0.71 s at a million games, 46 million rows) and is
    left for a game not located (or whose located rows are not all its own)."""
    if not pairs:
        return {}
    games = sorted({g for g, _ in pairs})
    found: dict[tuple[str, str | None], list[int]] = {}
    todo = games
    if len(games) <= LOCATED_GAMES and summarised(db, "game_rows"):
        rows = located_rows(db, "events", "x.game_id, x.idx, x.type, "
                            "x.payload->>'category' AS category", games, ("game_id", "idx"),
                            by_id=False)
        if not rows.is_empty():
            obs = rows.filter(pl.col("type") == "observation")
            for r in (obs.group_by("game_id", "category")
                      .agg(pl.col("idx").sort()).iter_rows(named=True)):
                found[(r["game_id"], r["category"])] = list(r["idx"])
            whole = set(rows["game_id"].to_list())
            todo = [g for g in games if g not in whole]
    if todo:
        df = query(
            db,
            "SELECT o.game_id, o.category, list(o.idx ORDER BY o.idx) AS idxs "
            "FROM observations o WHERE o.game_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY ALL",
            [todo])
        found.update({(r["game_id"], r["category"]): list(r["idxs"])
                      for r in df.iter_rows(named=True)})
    wanted = set(pairs)
    return {k: v for k, v in found.items() if k in wanted}


def seat_numbers(db: Path, game_ids: list[str]) -> pl.DataFrame:
    """The seats at the table of each of ``game_ids``: game_id, seat."""
    return located_rows(db, "seats", "x.game_id, x.seat", game_ids, ("game_id", "seat"))


def game_count(db: Path, f: Filters, evidence: str = "evidence") -> int:
    """How many games pass the filters."""
    where, params = f.where("g", evidence)
    df = query(db, f"SELECT {_count_sql(db, where)} AS n", params)
    return int(df["n"][0]) if not df.is_empty() else 0
