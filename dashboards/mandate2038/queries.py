"""Mandate 2038's own queries (scoring sources, World Endings, claims) over the shared
warehouse tables and Mandate's ``outcomes`` and ``claims``.

Every query restricts ``games`` to ``game = 'mandate2038'`` (as a parameter) on top of the
shared sidebar's :class:`~dashboards.queries.Filters`, so a Mandate figure never counts another
game's rows. The shared queries (the games table, filters, findings, durations, observations)
stay in :mod:`dashboards.queries`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import polars as pl

from dashboards.queries import HUMAN_SQL, KIND_SQL, Filters, counted_values, summarised
from dashboards.store import query

GAME = "mandate2038"


def _where(f: Filters) -> tuple[str, list[Any]]:
    """The sidebar's condition on ``games g`` plus ``g.game = 'mandate2038'``."""
    where, params = f.where()
    return f"g.game = ? AND {where}", [GAME, *params]


# --- Scoring sources -------------------------------------------------------------------------


def ledger_by_source(db: Path, f: Filters) -> pl.DataFrame:
    """Mandate by ledger source, faction, Era and whether the seat won (checkpoint resyncs out),
    from the load step's sums over games of the same filter values (``ledger_totals``, aliased
    ``g`` so the sidebar's condition applies as on ``games``; the ledger itself on a warehouse
    made before it).

    (It counted distinct games per group too, unused and a third of its time at 100,000 games.)"""
    where, params = _where(f)
    if summarised(db, "ledger_totals"):
        sql = f"""
        SELECT g.source, g.faction, g.era, g.winner, {KIND_SQL} AS kind,
               CAST(sum(g.amount) AS BIGINT) AS mandate, CAST(sum(g.entries) AS BIGINT) AS entries
        FROM ledger_totals g
        WHERE {where} AND g.source <> 'checkpoint'
        GROUP BY ALL ORDER BY g.source, g.faction, g.era
        """
    else:
        sql = f"""
        SELECT l.source, s.faction, l.era, coalesce(s.winner, FALSE) AS winner,
               {KIND_SQL} AS kind, CAST(sum(l.amount) AS BIGINT) AS mandate, count(*) AS entries
        FROM ledger l
        JOIN games g USING (game_id)
        JOIN seats s ON s.game_id = l.game_id AND s.seat = l.seat
        WHERE {where} AND l.source <> 'checkpoint'
        GROUP BY ALL ORDER BY l.source, s.faction, l.era
        """
    return query(db, sql, params)


def seats_in_games(db: Path, f: Filters) -> pl.DataFrame:
    """Every seat of the filtered games: faction, winner flag and kind (for per-seat averages)."""
    where, params = _where(f)
    return query(
        db,
        f"""
        SELECT s.game_id, s.seat, s.faction, coalesce(s.winner, FALSE) AS winner,
               s.final_mandate, g.player_count, {KIND_SQL} AS kind, g.complete
        FROM seats s JOIN games g USING (game_id)
        WHERE {where}
        """,
        params,
    )


def seat_counts(db: Path, f: Filters) -> pl.DataFrame:
    """Seat-games of the filtered games per kind, faction and winner flag (``seat_games``):
    what the Scoring sources page divides by, counted in SQL instead of reading every seat; from
    the load step's totals per filtered values (``seat_totals``, aliased ``g``) where the
    warehouse has them, else from ``seats``."""
    where, params = _where(f)
    if summarised(db, "seat_totals"):
        sql = f"""
        SELECT {KIND_SQL} AS kind, g.faction, g.winner, CAST(sum(g.seats) AS BIGINT) AS seat_games
        FROM seat_totals g
        WHERE {where}
        GROUP BY ALL ORDER BY ALL
        """
    else:
        sql = f"""
        SELECT {KIND_SQL} AS kind, s.faction, coalesce(s.winner, FALSE) AS winner,
               count(*) AS seat_games
        FROM seats s JOIN games g USING (game_id)
        WHERE {where}
        GROUP BY ALL ORDER BY ALL
        """
    return query(db, sql, params)


def kind_sizes(db: Path, f: Filters) -> pl.DataFrame:
    """Games with seats and seat-games of the filtered games, per kind (kind, games, seats);
    from ``seat_totals`` where the warehouse has it (a game counted by its first seat)."""
    where, params = _where(f)
    if summarised(db, "seat_totals"):
        sql = f"""
        SELECT {KIND_SQL} AS kind, CAST(sum(g.games) AS BIGINT) AS games,
               CAST(sum(g.seats) AS BIGINT) AS seats
        FROM seat_totals g
        WHERE {where}
        GROUP BY ALL ORDER BY ALL
        """
    else:
        sql = f"""
        SELECT {KIND_SQL} AS kind, count(DISTINCT s.game_id) AS games, count(*) AS seats
        FROM seats s JOIN games g USING (game_id)
        WHERE {where}
        GROUP BY ALL ORDER BY ALL
        """
    return query(db, sql, params)


# --- World Endings ---------------------------------------------------------------------------


ENDING_COLUMNS = ("o.game_id, g.player_count, g.profile, g.session_type, "
                  f"{KIND_SQL} AS kind, o.ending, o.agi, o.open, o.collective_trust, "
                  "o.setup_collective_trust, o.open_threshold, o.trust_margin, o.systemic_risk, "
                  "o.systemic_risk_limit, o.systemic_risk_limit - o.systemic_risk AS risk_margin")


def _first(db: Path, tables: tuple[str, ...], sql: str, params: list[Any], limit: int,
           done: Any = None, share: float | None = None) -> pl.DataFrame:
    """The first ``limit`` rows of ``sql``, reading only the first rows as stored of each of
    ``tables``: ``sql`` names each as ``{table}`` (formatted to a subquery of its first
    ``window`` rows, one LIMIT parameter each, in the order of ``tables``, before ``params``
    and the final ``limit``). The window starts at ``4 x limit`` rows and grows four times while
    fewer than ``limit`` rows are found (or ``done(frame)`` is false), up to every row: then it
    is the whole query. The load step writes a game's rows of every table together, so the
    first outcomes (claims, seats) are those of the first games; joining every row to the
    million games (and seats) read the whole ``game_id`` column of each, 0.1-0.3 CPU s.

    ``share``: the part of the stored rows ``sql`` is expected to find (the kind's games among
    every game, from the totals): the first window is then sized by it, a quarter more than it
    promises (at least ``4 x limit``), so that one window does where the kind's games are a
    fifth of all took two and a count between them."""
    rows: int | None = None  # the most rows of the tables, counted when first needed
    window = 4 * max(1, limit)
    if share is not None and share > 0:
        window = max(window, math.ceil(1.25 * limit / min(1.0, share)))
    while True:
        sub = {t: f"(SELECT * FROM {t} LIMIT ?)" for t in tables}
        frame = query(db, sql.format(**sub), [*([window] * len(tables)), *params, int(limit)])
        if frame.height >= limit and (done is None or done(frame)):
            return frame
        if rows is None:
            counts = query(db, " UNION ALL ".join(f"SELECT count(*) AS n FROM {t}"
                                                  for t in tables))  # our own table names
            rows = max((int(n) for n in counts["n"]), default=0)
        if window >= rows:
            return frame
        window *= 4


def endings(db: Path, f: Filters, kind: str | None = None,
            limit: int | None = None, names: bool = False,
            share: float | None = None) -> pl.DataFrame:
    """One row per complete game's outcome with the Open test's margins (of one ``kind`` of
    game, and only the first ``limit`` of the outcomes as stored when given; with ``names``,
    and the columns their games are named by, :func:`dashboards.ui.split_names`; ``share``:
    the part of the stored outcomes expected to be shown, which sizes the first rows read)."""
    from dashboards import ui

    where, params = _where(f)
    if kind is not None:
        where += f" AND {KIND_SQL} = ?"
        params = [*params, kind]
    if limit is not None:
        return _first(db, ("outcomes", "games"), f"""
            SELECT {ENDING_COLUMNS}{", " + ui.name_columns_sql() if names else ""}
            FROM {{outcomes}} o JOIN {{games}} g USING (game_id)
            WHERE {where} AND o.complete LIMIT ?
            """, params, int(limit),
            share=share)
    return query(
        db,
        f"""
        SELECT {ENDING_COLUMNS}
        FROM outcomes o JOIN games g USING (game_id)
        WHERE {where} AND o.complete
        """,
        params,
    )


def ending_counts(db: Path, f: Filters) -> pl.DataFrame:
    """Complete games counted (``games``) per kind, ending, AGI, Open, the Open test's two
    margins and the page's facets (player count, profile, session type): every figure and chart
    of the End conditions section, aggregated in SQL instead of a row per game."""
    where, params = _where(f)
    totals = _end_totals(db, f).get("outcomes")
    if totals is not None:  # the load step's counts (complete games only)
        return totals
    return query(
        db,
        f"""
        SELECT {KIND_SQL} AS kind, o.ending, g.player_count, g.profile, g.session_type, o.agi,
               o.open, o.trust_margin, o.systemic_risk_limit - o.systemic_risk AS risk_margin,
               count(*) AS games
        FROM outcomes o JOIN games g USING (game_id)
        WHERE {where} AND o.complete
        GROUP BY ALL
        """,
        params,
    )


#: the End conditions section's totals (migration 12) read by :func:`_end_totals`: part ->
#: table, its keys besides the kind and its sum
_END_TOTALS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "outcomes": ("outcome_totals", ("ending", "player_count", "profile", "session_type", "agi",
                                    "open", "trust_margin", "risk_margin"), "games"),
    "claims": ("claim_totals", ("strength", "eligible"), "claims"),
}


def _end_totals(db: Path, f: Filters) -> dict[str, pl.DataFrame]:
    """:func:`ending_counts` and :func:`claim_strengths` from the load step's totals, both in
    ONE statement (its result cached; each function takes its part): per part of
    :data:`_END_TOTALS` whose table the warehouse has, the filtered games' sums per kind and
    key. A part whose table is absent is left out (its function reads the per-row tables)."""
    parts = [p for p, (table, _, _) in _END_TOTALS.items() if summarised(db, table)]
    if not parts:
        return {}
    where, params = _where(f)
    selects = []
    for part in parts:  # our own table and column names
        table, keys, total = _END_TOTALS[part]
        selects.append(f"SELECT '{part}' AS part, {KIND_SQL} AS kind, "
                       + "".join(f"g.{k}, " for k in keys)
                       + f"CAST(sum(g.{total}) AS BIGINT) AS {total} "
                       f"FROM {table} g WHERE {where} GROUP BY ALL")
    df = query(db, " UNION ALL BY NAME ".join(selects), params * len(parts))
    if "part" not in df.columns:
        return {}
    out = {}
    for part in parts:
        _, keys, total = _END_TOTALS[part]
        out[part] = df.filter(pl.col("part") == part).select("kind", *keys, total)
    if "claims" in out:  # in order, as it was read
        out["claims"] = out["claims"].sort(out["claims"].columns, nulls_last=True)
    return out


CLAIM_COLUMNS = ("c.game_id, c.seat, s.faction, c.publication, c.paid, c.modules_supported, "
                 f"c.eligible, c.strength, g.player_count, {KIND_SQL} AS kind")


def claims(db: Path, f: Filters, kind: str | None = None, limit: int | None = None,
           names: bool = False, share: float | None = None) -> pl.DataFrame:
    """Dossier claims of the filtered games with their strengths, in game and seat order (of one
    ``kind`` of game, and only the first ``limit`` as stored when given: sorting every claim to
    show a thousand read them all; with ``names``, and the columns their games are named by,
    :func:`dashboards.ui.split_names`; ``share``: the part of the stored claims expected to be
    shown, which sizes the first rows read)."""
    from dashboards import ui

    where, params = _where(f)
    if kind is not None:
        where += f" AND {KIND_SQL} = ?"
        params = [*params, kind]
    if limit is not None:
        # the first claims found, then the factions of their seats only (a game's seats by
        # its id: the games found are few)
        # a claim whose seat is not among the first seats read has no faction yet: read
        # further until every claim shown has its seat's (or every seat was read)
        named = ", " + ui.name_columns_sql() if names else ""
        carried = "".join(f", c.{ui.NAME_PREFIX}{col}" for col in ui.NAME_COLUMNS
                          if col != "game_id") if names else ""
        return _first(db, ("seats", "claims", "games"), f"""
            WITH s AS (SELECT * FROM {{seats}}),
            c AS (SELECT c.*, g.player_count, {KIND_SQL} AS kind{named}
                  FROM {{claims}} c JOIN {{games}} g USING (game_id) WHERE {where}),
            cs AS (SELECT c.game_id, c.seat, s.faction, c.publication, c.paid,
                          c.modules_supported, c.eligible, c.strength, c.player_count, c.kind,
                          s.seat IS NOT NULL AS seated{carried}
                   FROM c LEFT JOIN s ON s.game_id = c.game_id AND s.seat = c.seat)
            SELECT * FROM cs LIMIT ?
            """, params, int(limit), done=lambda fr: bool(fr["seated"].all()),
            share=share).drop("seated")
    return query(
        db,
        f"""
        SELECT {CLAIM_COLUMNS}
        FROM claims c JOIN games g USING (game_id)
        LEFT JOIN seats s ON s.game_id = c.game_id AND s.seat = c.seat
        WHERE {where} ORDER BY c.game_id, c.seat
        """,
        params,
    )


def claim_strengths(db: Path, f: Filters) -> pl.DataFrame:
    """Claims of the filtered games counted per kind, strength and eligibility (``claims``;
    the load step's ``claim_totals`` where the warehouse has them)."""
    where, params = _where(f)
    totals = _end_totals(db, f).get("claims")
    if totals is not None:
        return totals
    return query(
        db,
        f"""
        SELECT {KIND_SQL} AS kind, c.strength, c.eligible, count(*) AS claims
        FROM claims c JOIN games g USING (game_id)
        WHERE {where}
        GROUP BY ALL ORDER BY ALL
        """,
        params,
    )




# --- Duration --------------------------------------------------------------------------------


def duration_points(db: Path, f: Filters, include_non_human: bool = False) -> pl.DataFrame:
    """The Duration chart's points, counted in SQL: the games
    :func:`dashboards.queries.durations` lists (timed, human unless asked otherwise), one row
    per player count, kind and whole minute (``minute``: the total minutes rounded down) with
    its ``games``, and the ``game_id`` of a bin that holds a single game (else None), so only
    those games are named. (One point per game sent ~200,000 named games to the page at a
    million games.)"""
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include_non_human else HUMAN_SQL
    counted = counted_values(db, f, include_non_human).get("duration")
    if counted is not None:
        return _duration_points_from_totals(db, counted, f"{where} AND {human}", params)
    return query(
        db,
        f"""
        SELECT g.player_count, {KIND_SQL} AS kind,
               CAST(floor(g.total_minutes) AS BIGINT) AS minute, count(*) AS games,
               CASE WHEN count(*) = 1 THEN any_value(g.game_id) END AS game_id
        FROM games g
        WHERE {where} AND {human} AND g.total_minutes IS NOT NULL
              AND NOT isnan(g.total_minutes)
        GROUP BY ALL ORDER BY ALL
        """,
        params,
    )


def _duration_points_from_totals(db: Path, counted: pl.DataFrame, where: str,
                                  params: list[Any]) -> pl.DataFrame:
    """:func:`duration_points` from the timed games counted by kind and total minutes
    (``duration_totals`` of the filtered games, :func:`dashboards.queries.counted_values`,
    the statement the Duration page's statistics read too; ``where``: their condition): the
    games of each bin are sums. The games are read only for a bin that holds a single game
    (its ``game_id``), and only those minutes."""
    keys = ["player_count", "kind", "minute"]
    bins = (counted.rename({"k": "kind"})
            .with_columns(pl.col("v").floor().cast(pl.Int64).alias("minute"))
            .group_by(keys).agg(pl.col("c").sum().cast(pl.Int64).alias("games"))
            .with_columns(pl.lit(None, dtype=pl.Utf8).alias("game_id"))
            .sort([*keys, "games"], nulls_last=True))
    if bins.is_empty():
        return bins
    single = bins.filter(pl.col("games") == 1)
    if single.is_empty():
        return bins
    ones = query(
        db,
        f"""
        SELECT g.player_count, {KIND_SQL} AS kind,
               CAST(floor(g.total_minutes) AS BIGINT) AS minute, g.game_id AS one
        FROM games g
        WHERE {where} AND g.total_minutes IS NOT NULL AND NOT isnan(g.total_minutes)
              AND list_contains(?::BIGINT[], CAST(floor(g.total_minutes) AS BIGINT))
        """,
        [*params, sorted(set(single["minute"].to_list()))],
    )
    named = single.drop("game_id").join(ones, on=keys, how="inner", nulls_equal=True)
    return (bins.join(named.select(*keys, "one"), on=keys, how="left", nulls_equal=True)
            .with_columns(pl.col("one").alias("game_id")).drop("one"))
