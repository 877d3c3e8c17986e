"""Mandate 2038's balance metrics (its declaration's ``balance``: the designers' contract
strategic-unsolvability-v3), as parameterised SQL over the warehouse or a study folder.

Definitions (docs/balance.md, "Definitions"; measured against the designers' lab code of the
rc.17 era, ``lab/runner/monte-carlo-runner.js`` and ``lab/balance/winning-path.js``):

* every metric is computed per **player count** and per kind of game (human, simulated,
  walkthrough, illustrative; a study folder is its own kind, ``study``), never pooled;
* a **joint win** credits 1/k to each of its k winners (win shares, winning paths);
* **seat** is the turn order counted from first Initiative (``seats.turn_order``: 0 = the seat
  holding Initiative at the start);
* the **Era II leader** is read from the Mandate at the end of Era II Production, before the
  Audit and the Era Mandate card; every tied leader counts (a game scores leaders who won /
  leaders; the conversion is the mean over games);
* **action entropy** counts every resolved action id (Core Actions, Programs and the extra
  actions they grant, blocked ones included) and normalises by log(number of ids seen).

Only complete games count. Each query returns its counts per *group* (the games' common-seed
blocks, :data:`CLUSTER_SQL`, hashed into :data:`ingest.stats.BLOCKS` groups) so that
:func:`_interval` can put a 95% interval over common-seed blocks on every statistic; the frames
are small (keys x groups), whatever the number of games.

A study folder written by ``playtest study`` (``DIR/<table>/**/*.parquet``, the warehouse's
column names) is read in place through DuckDB (:mod:`ingest.balance`, which runs every game's
metrics): :class:`Source` names either and gives a study folder its ``seat_balance`` view.
Results from a study are shown beside the warehouse's, never pooled with them.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from ingest import balance, stats
from ingest.balance import (
    AllGames,
    Selection,
    columns,
    for_count,
    run,
    run_many,
    study_path,
    study_tables,
)
from ingest.balance import study_version as _study_version

__all__ = ["AllGames", "Selection", "columns", "for_count", "run", "run_many",
           "study_path", "study_tables", "_study_version"]

#: this game's id (the games the warehouse's queries select)
GAME = "mandate2038"


@dataclass(frozen=True)
class Source(balance.Source):
    """:class:`ingest.balance.Source` whose study folder gets a ``seat_balance`` view."""

    def study_views(self, con: duckdb.DuckDBPyConnection, tables: dict[str, list[Path]],
                    key: tuple[Any, ...]) -> None:
        _study_balance(con, tables, key)


def _study_balance(con: duckdb.DuckDBPyConnection, tables: dict[str, list[Path]],
                   key: tuple[Any, ...]) -> None:
    """Give the study connection a ``seat_balance`` view: the study's own table when it wrote
    one, else the rows derived from its tables with the warehouse's SELECT (computed once per
    study version and kept in memory)."""
    if "seat_balance" in tables:
        return
    frame = _STUDY_BALANCE.get(key)
    if frame is None:
        seat_cols = {r[0] for r in con.execute("DESCRIBE seats").fetchall()}
        for missing in ("turns", "selections", "ledger"):
            if missing not in tables:  # an empty table of the right shape
                cols = {"turns": "game_id VARCHAR, seat INTEGER, action VARCHAR, blocked BOOLEAN",
                        "selections": "game_id VARCHAR, era INTEGER, cycle INTEGER, seat INTEGER, "
                                      "pick VARCHAR",
                        "ledger": "game_id VARCHAR, seat INTEGER, era INTEGER, source VARCHAR, "
                                  "amount INTEGER"}[missing]
                con.execute(f"CREATE TEMP TABLE {missing} ({cols})")
        sql = wb.select_sql("TRUE", profile="profile" in seat_cols,
                            player="player" in seat_cols,
                            fallbacks="policy_fallbacks" in seat_cols,
                            production="production" in tables, claims="claims" in tables,
                            turn_order="turn_order" in seat_cols)
        frame = con.sql(sql).pl()
        _STUDY_BALANCE[key] = frame
        if len(_STUDY_BALANCE) > 4:
            _STUDY_BALANCE.pop(next(iter(_STUDY_BALANCE)))
    con.register("seat_balance", frame.to_arrow())


_STUDY_BALANCE: dict[tuple[Any, ...], pl.DataFrame] = {}

#: a current warehouse's columns that the statements depend on, and the tables whose presence
#: (and columns) they depend on
_USUAL = {"games": frozenset({"game_id"}), "seats": frozenset({"turn_order"}),
          "seat_balance": frozenset({"game_id"}), "balance_totals": frozenset({"blk"}),
          "matchup_totals": frozenset({"blk"})}
_PROBED = ("games", "seats", "seat_balance", "balance_totals", "matchup_totals")


def prefetch(src: Source, f: Selection) -> None:
    """Run every query the metrics need together on one connection (a connection costs about
    as much as the queries on 10,000 games), filling the caches the individual functions then
    read."""
    def build() -> None:
        if _totals(src):  # both from the same statement
            _totals_rows(src, f)
            return
        _grouped(src, f)
        matchup_counts(src, f)

    _batch(src, build)


def _batch(src: Source, build: Callable[[], object]) -> None:
    balance.batch(src, build, _PROBED, _USUAL)


#: the common-seed block of a game. A study plays blocks of games on one deal: the games of a
#: block share map, factions by seat, first Initiative and chance stream whatever the policy
#: (engine/mandate2038/lineups.py), so they are not independent and are resampled together.
#: The block is recognised from what the games record, the same in a study folder and in the
#: warehouse (whose game ids are content hashes): for a simulated game its player count,
#: factions by seat and first Initiative (two blocks dealt alike merge, which only widens the
#: interval); any other game is its own block. Needs :data:`DEAL_CTE` as ``dk``.
CLUSTER_SQL = ("CASE WHEN coalesce(g.session_type, '') = 'simulation' AND dk.deal IS NOT NULL "
               "THEN g.player_count || ':' || dk.deal ELSE g.game_id END")


def deal_cte(turn_order: bool = True) -> str:
    """``dk``: each game's deal (factions by seat, and the seat holding first Initiative when
    the seats record turn order)."""
    first = ("|| '/' || coalesce(CAST(arg_min(seat, turn_order) AS VARCHAR), '')"
             if turn_order else "")
    return (f"dk AS (SELECT game_id, string_agg(faction, ',' ORDER BY seat) {first} AS deal "
            "FROM seats GROUP BY game_id)")


def _ctes(src: Source, f: Selection) -> tuple[str, list[Any]]:
    """``g``: the selected complete games with kind (and study arm), player count and interval
    group (:func:`ingest.balance.games_cte`); ``sb``: their ``seat_balance`` rows (derived on
    the fly from a warehouse older than migration 6)."""
    blk = f", hash({CLUSTER_SQL}) % {stats.BLOCKS} AS blk"
    turn_order = src.study is not None or "turn_order" in columns(src, "seats")
    g, params = balance.games_cte(src, f, GAME, extra=blk, join="LEFT JOIN dk USING (game_id)")
    g = f"{deal_cte(turn_order)}, {g}"
    if src.study is None and not columns(src, "seat_balance"):
        cols = columns(src, "seats")
        inner = wb.select_sql("TRUE", turn_order="turn_order" in cols,
                              production=bool(columns(src, "production")),
                              claims=bool(columns(src, "claims")))
        return f"{g}, sb AS ({inner})", params
    return f"{g}, sb AS (SELECT * FROM seat_balance)", params


# --- the block-level counts -----------------------------------------------------------------


def _totals(src: Source) -> bool:
    """True when the counts are read from the load step's totals per filtered games' values
    (``balance_totals``, ``matchup_totals``: migration 12) rather than from every seat."""
    # (a warehouse from before seat_balance or the seats' turn order has no totals either;
    # a test dropping those keeps them)
    return (src.study is None and bool(columns(src, "balance_totals"))
            and bool(columns(src, "matchup_totals")) and bool(columns(src, "seat_balance"))
            and "turn_order" in columns(src, "seats"))


#: the sums of ``balance_totals`` :func:`_totals_rows` reads, and those of ``matchup_totals``
_BALANCE_COLUMNS = ("blk", "turn_order", "faction", "profile", "opening", "path", "appearances",
                    "credit", "blocked", "fallbacks", "fallback_seats", "games", "converted",
                    "tied")
_MATCHUP_COLUMNS = ("blk", "profile", "opponent", "comparisons", "points")


def _totals_sql(f: Selection) -> tuple[str, list[Any]]:
    """ONE statement: the rows of ``balance_totals`` and of ``matchup_totals`` (``part``) of
    the games ``f`` selects, every player count (:func:`_totals_rows` keeps ``f``'s), each
    with the kind and the arm of its games (aliased ``g``, so the sidebar's condition applies
    as on ``games``). The rows are per distinct filtered value already, so nothing is grouped
    here: polars sums them per kind, player count and key (:func:`split_grouped`), where three
    statements (the page's game counts, the block counts, the matchups) each computed the arms
    and grouped the same rows."""
    every = dataclasses.replace(f, player_counts=()) if dataclasses.is_dataclass(f) else f
    cond, params = every.where()
    sel = f"WHERE {cond} AND coalesce(g.game, ?) = ?"
    params = [*params, balance._default_game(), GAME]
    head = f"{balance.KIND_SQL} AS kind0, {balance.VARIANT_ARM_SQL} AS arm, g.player_count"
    sums = ", ".join(f"g.{c}" for c in (*_BALANCE_COLUMNS[6:8], *_action_columns(),
                                        *_BALANCE_COLUMNS[8:]))
    return (f"SELECT 'balance' AS part, {head}, g.blk, g.turn_order, g.faction, "
            f"g.profile_seat AS profile, g.opening, g.path, {sums} FROM balance_totals g {sel} "
            f"UNION ALL BY NAME SELECT 'matchup' AS part, {head}, g.blk, "
            "g.profile_seat AS profile, g.opponent, g.comparisons, g.points "
            f"FROM matchup_totals g {sel}"), [*params, *params]


def _action_columns() -> list[str]:
    return [f"a_{a}" for a in (*wb.ACTION_IDS, "other")]


def _totals_rows(src: Source, f: Selection) -> dict[str, pl.DataFrame]:
    """The rows of the totals of the games ``f`` selects (:func:`_totals_sql`), of ``f``'s
    player counts: ``balance`` (kind, player count and :data:`_BALANCE_COLUMNS` with the
    action counts; rows with seats) and ``matchup`` (kind, player count,
    :data:`_MATCHUP_COLUMNS`); empty while :func:`ingest.balance.batch` collects the
    statement. A kind is split by arm where
    the selected complete games of a kind and player count hold several, as
    :func:`ingest.balance.games_cte` does: their arms are those of ``balance_totals``, which
    keeps a row for every complete game; a matchup row of a kind and player count without
    any is left out, as the join to them left it. Kept per result frame (the query cache's),
    so the page's calls share one."""
    sql, params = _totals_sql(f)
    raw = run(src, sql, params)
    if raw.is_empty():
        return {}
    key = ("rows", id(raw), tuple(f.player_counts))
    hit = _SPLIT.get(key)
    if hit is not None and hit[0] is raw:
        return hit[1]
    every = _SPLIT.get(("rows", id(raw)))  # every player count's (the page's counts read it)
    if every is None or every[0] is not raw:
        balance_row = pl.col("part") == "balance"
        arms = pl.col("arm").filter(balance_row)
        lo = arms.min().over("kind0", "player_count")
        hi = arms.max().over("kind0", "player_count")
        rows = (raw.with_columns(lo.alias("lo"), hi.alias("hi"))
                .filter(pl.col("lo").is_not_null())
                .with_columns(pl.when(pl.col("lo") == pl.col("hi")).then(pl.col("kind0"))
                              .otherwise(pl.col("kind0") + balance.ARM_MARK + pl.col("arm"))
                              .alias("kind")))
        every = (raw, {  # only seats count (a game without seat_balance rows: its arm only)
            "balance": rows.filter(balance_row & (pl.col("appearances") > 0)).select(
                "kind", "player_count", *_BALANCE_COLUMNS[:8], *_action_columns(),
                *_BALANCE_COLUMNS[8:]),
            "matchup": rows.filter(~balance_row).select(
                "kind", "player_count", *_MATCHUP_COLUMNS),
        })
        _SPLIT[("rows", id(raw))] = every
    out = every[1]
    if f.player_counts:
        counts = [int(n) for n in f.player_counts]
        out = {part: frame.filter(pl.col("player_count").is_in(counts))
               for part, frame in out.items()}
    _SPLIT[key] = (raw, out)
    while len(_SPLIT) > 16:
        _SPLIT.pop(next(iter(_SPLIT)))
    return out



#: the groupings of :func:`_grouped`'s parts
_ORDER, _FACTION, _PROFILE, _FS = "turn_order", "faction", "profile", "faction_profile"
_OPENINGS, _PATHS, _TOTALS = "openings", "paths", "totals"

#: the key columns of each part of :func:`_grouped` (besides kind, player count and block)
_PART_KEYS: dict[str, list[str]] = {
    _ORDER: ["turn_order"], _FACTION: ["faction"], _PROFILE: ["profile"],
    _FS: ["faction", "profile"], _OPENINGS: ["opening"], _PATHS: ["path"], _TOTALS: [],
}


def _grouped(src: Source, f: Selection) -> dict[str, pl.DataFrame]:
    """One scan of ``seat_balance`` joined to the selected games, grouped per kind, player
    count, block, turn order, faction, profile, opening and winning path (seats, win credit,
    resolved actions by id, blocked actions, policy fallbacks, games, Era II conversion, tied
    leads), then summed in polars into seven parts per kind, player count and block: by turn
    order, faction, profile, faction and profile (appearances, win credit); by opening; by
    winning path (win credit: only winners have any); and in total (everything else).

    One GROUP BY and small sums of its result cost a third of what DuckDB's seven grouping
    sets over every seat did (each set aggregated every column over every seat). Where the
    warehouse has ``balance_totals``, its rows of the selected games (:func:`_totals_rows`,
    already one per distinct key) are summed in polars alone."""
    if not columns(src, "seats"):
        return {}
    action_ids = [*wb.ACTION_IDS, "other"]
    sums = ", ".join(f"CAST(sum(a_{a}) AS BIGINT) AS a_{a}" for a in action_ids)
    if _totals(src):  # the rows per filtered values, summed in polars
        rows = _totals_rows(src, f).get("balance")
        if rows is None:
            return {}
        return _split(rows)
    ctes, params = _ctes(src, f)
    df = run(src, f"""
        WITH {ctes}
        SELECT g.kind, g.player_count, g.blk, sb.turn_order, sb.faction, sb.profile, sb.opening,
               sb.path,
               count(*) AS appearances, sum(sb.credit)::DOUBLE AS credit,
               {sums},
               CAST(sum(sb.blocked) AS BIGINT) AS blocked,
               CAST(sum(sb.policy_fallbacks) AS BIGINT) AS fallbacks,
               count(sb.policy_fallbacks) AS fallback_seats,
               count(*) FILTER (WHERE sb.seat = 1) AS games,
               sum(sb.lead_won_share)::DOUBLE AS converted,
               count(*) FILTER (WHERE sb.seat = 1 AND sb.era2_leaders > 1) AS tied
        FROM sb JOIN g USING (game_id)
        GROUP BY ALL
        """, params)
    return _split(df)


def _split(df: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """:func:`split_grouped` of a cached result frame, once per frame."""
    if df.is_empty():
        return {}
    key = ("grouped", id(df))
    hit = _SPLIT.get(key)
    if hit is not None and hit[0] is df:
        return hit[1]
    parts = split_grouped(df)
    _SPLIT[key] = (df, parts)
    while len(_SPLIT) > 16:
        _SPLIT.pop(next(iter(_SPLIT)))
    return parts


def split_grouped(df: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """:func:`_grouped`'s parts from its one grouped frame (per kind, player count, block,
    turn order, faction, profile, opening and path: appearances, credit, ``a_<id>``, blocked,
    fallbacks, fallback_seats, games, converted, tied)."""
    action_ids = [*wb.ACTION_IDS, "other"]
    base = ["kind", "player_count", "blk"]
    seats = [pl.col("appearances").sum(), pl.col("credit").sum()]
    totals = [
        *seats, *(pl.col(f"a_{a}").sum() for a in action_ids), pl.col("blocked").sum(),
        # NULL, as DuckDB's sum, where no seat records policy fallbacks
        pl.when(pl.col("fallback_seats").sum() > 0).then(pl.col("fallbacks").sum())
        .alias("fallbacks"),
        pl.col("games").sum(), pl.col("converted").sum(), pl.col("tied").sum()]
    # together: one call into polars instead of seven (each costs about a millisecond)
    frames = pl.collect_all([df.lazy().group_by([*base, *keys])
                             .agg(totals if name == _TOTALS else seats)
                             for name, keys in _PART_KEYS.items()])
    return dict(zip(_PART_KEYS, frames, strict=True))


#: the split of :func:`_grouped`'s cached result frames (the frame is kept to check identity)
_SPLIT: dict[tuple[Any, ...], tuple[pl.DataFrame, dict[str, pl.DataFrame]]] = {}


def _part(src: Source, f: Selection, name: str, cols: list[str]) -> pl.DataFrame:
    return _part_of(_grouped(src, f), name, cols)


def _part_of(parts: dict[str, pl.DataFrame], name: str, cols: list[str]) -> pl.DataFrame:
    if name not in parts or parts[name].is_empty():
        return pl.DataFrame()
    return parts[name].select(["kind", "player_count", "blk", *cols])


def seat_counts(src: Source, f: Selection, by: str = "faction") -> pl.DataFrame:
    """Per kind, player count, block and ``by`` (``turn_order``, ``faction``, ``profile`` or
    ``faction_profile``): seat appearances and win credit (a joint win of k seats credits 1/k
    to each)."""
    return _seat_counts(_grouped(src, f), by)


def _seat_counts(parts: dict[str, pl.DataFrame], by: str) -> pl.DataFrame:
    if by not in (_ORDER, _FACTION, _PROFILE, _FS):
        raise ValueError(f"unknown grouping {by!r}")
    keys = ["faction", "profile"] if by == _FS else [by]
    return _part_of(parts, by, [*keys, "appearances", "credit"])


def leader_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Era II leader conversion per kind, player count and block: games, the sum over games of
    (leaders who won / leaders), and games with a tied lead (``seat_balance`` definitions)."""
    return _leader_counts(_grouped(src, f))


def _leader_counts(parts: dict[str, pl.DataFrame]) -> pl.DataFrame:
    return _part_of(parts, _TOTALS, ["games", "converted", "tied"])


def action_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Every resolved action per kind, player count, block and action id (``n``)."""
    return _action_counts(_grouped(src, f))


def _action_counts(parts: dict[str, pl.DataFrame]) -> pl.DataFrame:
    tot = _part_of(parts, _TOTALS, [f"a_{a}" for a in (*wb.ACTION_IDS, "other")])
    if tot.is_empty():
        return tot
    long = tot.unpivot(index=["kind", "player_count", "blk"], variable_name="action",
                       value_name="n")
    return long.with_columns(pl.col("action").str.slice(2)).filter(pl.col("n") > 0)


def forced_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Blocked actions (forced no-ops), seats and policy fallbacks per kind, player count and
    block (``fallbacks`` is NULL where no seat records them)."""
    return _forced_counts(_grouped(src, f))


def _forced_counts(parts: dict[str, pl.DataFrame]) -> pl.DataFrame:
    tot = _part_of(parts, _TOTALS, ["blocked", "appearances", "fallbacks"])
    return tot.rename({"appearances": "seats"}) if not tot.is_empty() else tot


def opening_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Openings per kind, player count and block: a seat's Era I actions in cycle order joined
    by an arrow (``fund→build→research``), "none" for a seat with no Era I selection."""
    return _opening_counts(_grouped(src, f))


def _opening_counts(parts: dict[str, pl.DataFrame]) -> pl.DataFrame:
    op = _part_of(parts, _OPENINGS, ["opening", "appearances"])
    return op.rename({"appearances": "n"}) if not op.is_empty() else op


def path_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Winning paths (the designers' lane-margin-v1 classes, see
    :mod:`ingest.warehouse.balance`) per kind, player count and block, 1/k credit for joint
    wins (paths only non-winners took carry no credit and are left out)."""
    return _path_counts(_grouped(src, f))


def _path_counts(parts: dict[str, pl.DataFrame]) -> pl.DataFrame:
    pt = _part_of(parts, _PATHS, ["path", "credit"])
    return pt.filter(pl.col("credit") > 0) if not pt.is_empty() else pt


def matchup_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Head-to-head placements per kind, player count, block, profile and opponent profile:
    every ordered pair of seats in a game with different profiles is a comparison, scoring 1
    when the seat's final Mandate is higher, 0.5 when equal."""
    if not columns(src, "seats"):
        return pl.DataFrame()
    if _totals(src):
        rows = _totals_rows(src, f).get("matchup")
        if rows is None or rows.is_empty():
            return pl.DataFrame()
        return (rows.group_by("kind", "player_count", "blk", "profile", "opponent")
                .agg(pl.col("comparisons").sum(), pl.col("points").sum()))
    ctes, params = _ctes(src, f)
    # the pairs are joined on a number given to each game (once: ps is materialised), which
    # costs a fifth less than joining on the game id's text
    return run(src, f"""
        WITH {ctes},
        gn AS (SELECT *, row_number() OVER () AS gnum FROM g),
        ps AS MATERIALIZED (SELECT gn.gnum, sb.seat, sb.profile, sb.final_mandate AS score,
                                   gn.kind, gn.player_count, gn.blk
                            FROM sb JOIN gn USING (game_id) WHERE sb.profile IS NOT NULL)
        SELECT a.kind, a.player_count, a.blk, a.profile, b.profile AS opponent,
               count(*) AS comparisons,
               sum(CASE WHEN a.score > b.score THEN 1.0 WHEN a.score = b.score THEN 0.5
                        ELSE 0.0 END)::DOUBLE AS points
        FROM ps a JOIN ps b ON a.gnum = b.gnum AND a.seat <> b.seat
                           AND a.profile <> b.profile
        GROUP BY ALL
        """, params)


def outcome_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Per kind, player count and block: complete games, games ending with an AGI winner and
    games ending Open (``outcomes.agi``, ``outcomes.open``)."""
    if not columns(src, "seats"):
        return pl.DataFrame()
    ctes, params = _ctes(src, f)
    return run(src, f"""
        WITH {ctes}
        SELECT g.kind, g.player_count, g.blk, count(*) AS games,
               count(*) FILTER (WHERE o.agi) AS agi, count(*) FILTER (WHERE o.open) AS open
        FROM g JOIN outcomes o USING (game_id)
        GROUP BY ALL
        """, params)


def dossier_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Dossier cards filed as Commit per kind, player count and block (``n``; action id
    ``dossier``): the designers count their AGI Dossier as an action, rc.17 files a Dossier
    card each Era without an Action (``calibrate`` compares on their count too)."""
    if not columns(src, "seats"):
        return pl.DataFrame()
    ctes, params = _ctes(src, f)
    return run(src, f"""
        WITH {ctes}
        SELECT g.kind, g.player_count, g.blk, 'dossier' AS action, count(*) AS n
        FROM g JOIN dossiers d USING (game_id)
        WHERE d.orientation = 'commit'
        GROUP BY ALL
        """, params)


# --- from block counts to metrics -----------------------------------------------------------

#: the contract's checks this page computes: id, name as the designers write it, threshold key,
#: bound ("max": at most, "min": at least)
METRICS: tuple[tuple[str, str, str, str], ...] = (
    ("seat_win_share_range", "Seat win-share range (turn order from first Initiative)",
     "seatWinShareRangeMax", "max"),
    ("faction_win_share_range", "Faction win-share range", "factionWinShareRangeMax", "max"),
    ("profile_win_share_range", "Profile win-share range", "profileWinShareRangeMax", "max"),
    ("faction_strategy_interaction", "Faction × strategy interaction range",
     "factionStrategyInteractionRangeMax", "max"),
    ("round_two_leader_conversion", "Era II leader conversion", "roundTwoLeaderConversionMax",
     "max"),
    ("action_entropy", "Action entropy", "actionEntropyMin", "min"),
    ("opening_entropy", "Opening entropy", "openingEntropyMin", "min"),
    ("opening_top_share", "Opening top share", "openingTopShareMax", "max"),
    ("winning_path_entropy", "Winning-path entropy", "winningPathEntropyMin", "min"),
    ("winning_path_top_share", "Winning-path top share", "winningPathTopShareMax", "max"),
    ("pairwise_dominance", "Pairwise (head-to-head) dominance", "pairwiseDominanceMax", "max"),
    ("forced_no_op_rate", "Forced no-op rate", "forcedNoOpRateMax", "max"),
    ("policy_fallbacks", "Policy fallbacks", "policyFallbacksMax", "max"),
)

#: why a metric has no value in a source, by metric id (shown on the page)
NOT_RECORDED = {
    "turn_order": "turn order from first Initiative is not stored for these games (rebuild "
                  "the warehouse: `playtest rebuild`)",
    "profile": "no strategy profile is recorded for people: profile metrics exist only for "
               "bots (simulated games and studies)",
    "fallbacks": "policy fallbacks are a bot's decisions falling back to a default; physical "
                 "logs have no such record (studies record them per seat)",
}


#: the kinds of statistic and their intervals are the shared module's (ingest.stats, the same
#: for `playtest compare` and `playtest calibrate`)
_RARE_RATE = stats.RARE_RATE
_RANGE, _RANGE4, _MAX_RATE, _TOP = stats.RANGE, stats.RANGE4, stats.MAX_RATE, stats.TOP


def _interval(arr: Any, stat: Any, weights: Any = None) -> dict[str, float]:
    """A statistic of block counts ``(blocks, keys, values)`` with its 95% interval over
    common-seed blocks (:func:`ingest.stats.metric_interval`; ``weights``: a function of the
    number of blocks giving the bootstrap draws to reuse)."""
    w = weights(arr.shape[0]) if weights is not None and arr.shape[0] else None
    return stats.metric_interval(arr, stat, w)


def _jk(df: pl.DataFrame, key: list[str], values: list[str], stat: Any) -> dict[str, float]:
    """A statistic of ``df``'s block counts with its interval (:func:`_interval`)."""
    return _interval(stats.block_array(df, key, values)[1], stat)


def _entropy(scale: str) -> Any:
    """The row-wise entropy normalised by the fixed scale of ``scale``
    (:data:`ingest.stats.ENTROPY_SCALE`)."""
    return functools.partial(stats.entropy_fixed_rows, k=stats.ENTROPY_SCALE[scale])


def _groups(df: pl.DataFrame) -> dict[tuple[str, int], pl.DataFrame]:
    if df.is_empty():
        return {}
    return {(str(k), int(n)): part
            for (k, n), part in df.partition_by(["kind", "player_count"], as_dict=True).items()}


def _metrics(src: Source, f: Selection, only: int | None = None) -> pl.DataFrame:
    """Every metric of :data:`METRICS` per kind and player count: value, 95% interval, games,
    threshold, verdict (:func:`ingest.stats.verdict`) and a note where the source does not
    record what the metric needs."""
    prefetch(src, f)
    return metrics_from_parts(_grouped(src, f), matchup_counts(src, f), only)


#: the fewest games a check needs before it gets a verdict when that is more than
#: :data:`ingest.stats.MIN_VERDICT_GAMES` (none: with intervals from simultaneous intervals
#: of the groups, ``playtest calibrate --null-check`` finds no false verdict of the faction x
#: strategy check even at 50 games, where the plug-in interval gave 40-58%)
MIN_GAMES: dict[str, int] = {}


def metrics_from_parts(parts: dict[str, pl.DataFrame], matchups: pl.DataFrame,
                       only: int | None = None, weights: Any = None) -> pl.DataFrame:
    """:func:`metrics` from the block counts (:func:`split_grouped`'s parts and
    :func:`matchup_counts`' frame), whatever their source: the page's queries or the null
    check's replicate studies (``weights``: bootstrap draws to reuse, by number of blocks)."""
    th = stats.thresholds()
    seats = _seat_counts(parts, _FACTION) if parts else pl.DataFrame()
    if seats.is_empty():
        return pl.DataFrame()
    by_order = _groups(_seat_counts(parts, _ORDER).filter(pl.col("turn_order").is_not_null()))
    by_profile = _groups(_seat_counts(parts, _PROFILE).filter(pl.col("profile").is_not_null()))
    by_fs = _groups(_seat_counts(parts, _FS).filter(pl.col("profile").is_not_null()))
    lead = _groups(_leader_counts(parts))
    acts = _groups(_action_counts(parts))
    opens = _groups(_opening_counts(parts))
    paths = _groups(_path_counts(parts))
    pairs = _groups(matchups)
    forced = _groups(_forced_counts(parts))

    def _jk(df: pl.DataFrame, key: list[str], values: list[str], stat: Any) -> dict[str, float]:
        return _interval(stats.block_array(df, key, values)[1], stat, weights)

    rows: list[dict[str, Any]] = []
    for (kind, n), part in sorted(_groups(seats).items()):
        if only is not None and n != only:
            continue
        games = int(round(float(part["appearances"].sum()) / n))
        results: dict[str, tuple[dict[str, float] | None, str]] = {}
        order = by_order.get((kind, n))
        results["seat_win_share_range"] = (
            _jk(order, ["turn_order"], ["appearances", "credit"], _RANGE)
            if order is not None else None,
            "" if order is not None else NOT_RECORDED["turn_order"])
        results["faction_win_share_range"] = (
            _jk(part, ["faction"], ["appearances", "credit"], _RANGE), "")
        bots = by_profile.get((kind, n))
        if bots is not None:
            results["profile_win_share_range"] = (
                _jk(bots, ["profile"], ["appearances", "credit"], _RANGE), "")
            fs = by_fs[(kind, n)]
            results["faction_strategy_interaction"] = (
                _jk(fs, ["faction", "profile"], ["appearances", "credit"],
                    _RANGE4), "")
            pp = pairs.get((kind, n))
            results["pairwise_dominance"] = (
                _jk(pp, ["profile", "opponent"], ["comparisons", "points"],
                    _MAX_RATE) if pp is not None else None,
                "" if pp is not None else "only one strategy profile in these games")
        else:
            for m in ("profile_win_share_range", "faction_strategy_interaction",
                      "pairwise_dominance"):
                results[m] = (None, NOT_RECORDED["profile"])
        lp = lead.get((kind, n))
        results["round_two_leader_conversion"] = (
            _jk(lp, ["kind"], ["converted", "games"], stats.ratio_rows)
            if lp is not None else None,
            "" if lp is not None else "no score ledger for these games")
        ap = acts.get((kind, n))
        results["action_entropy"] = (
            (_jk(ap, ["action"], ["n"], _entropy("action")), "")
            if ap is not None else (None, "no resolved actions recorded for these games"))
        # the ids seen: the designers' scale of each entropy (their verdict's definition)
        seen: dict[str, int] = {}
        if ap is not None:
            seen["action_entropy"] = _ids_seen(stats.block_array(ap, ["action"], ["n"])[1])
        fc = forced.get((kind, n))
        if fc is not None:
            # opportunities: 12 actions per seat (4 Eras x 3 cycles), as the designers count
            opp = fc.with_columns((12 * pl.col("seats")).alias("opportunities"))
            results["forced_no_op_rate"] = (
                _jk(opp, ["kind"], ["blocked", "opportunities"], _RARE_RATE), "")
            if fc["fallbacks"].null_count() < fc.height:
                total = float(fc["fallbacks"].sum())
                results["policy_fallbacks"] = ({"value": total, "low": total, "high": total},
                                               "")
            else:
                results["policy_fallbacks"] = (None, NOT_RECORDED["fallbacks"])
        else:
            results["forced_no_op_rate"] = (None, "no resolved actions recorded")
            results["policy_fallbacks"] = (None, NOT_RECORDED["fallbacks"])
        op = opens.get((kind, n))
        arr = stats.block_array(op, ["opening"], ["n"])[1] if op is not None else None
        if arr is not None:
            seen["opening_entropy"] = _ids_seen(arr)
        for m, fn in (("opening_entropy", _entropy("opening")),
                      ("opening_top_share", _TOP)):
            results[m] = ((_interval(arr, fn, weights), "")
                          if arr is not None else (None, "no selections recorded"))
        pt = paths.get((kind, n))
        arr = stats.block_array(pt, ["path"], ["credit"])[1] if pt is not None else None
        if arr is not None:
            seen["winning_path_entropy"] = _ids_seen(arr)
        for m, fn in (("winning_path_entropy", _entropy("path")),
                      ("winning_path_top_share", _TOP)):
            results[m] = ((_interval(arr, fn, weights), "")
                          if arr is not None else (None, "no winners with recorded actions"))
        for mid, name, key, bound in METRICS:
            res, note = results.get(mid, (None, ""))
            limit = float(th[key]) if key in th else math.nan
            value = low = high = None
            verdict = stats.NOT_ENOUGH
            on_seen: dict[str, Any] = {}
            need: dict[str, int | None] = {"games_needed": None, "tables_needed": None}
            if res is not None and res["value"] is not None and not math.isnan(res["value"]):
                value = float(res["value"])
                # every metric but the fallback count lies in [0, 1]: so does its interval
                low = None if math.isnan(res["low"]) else max(0.0, float(res["low"]))
                high = None if math.isnan(res["high"]) else float(res["high"])
                if high is not None and mid != "policy_fallbacks":
                    high = min(1.0, high)
                # an entropy's verdict is on the designers' scale (normalised by the ids seen,
                # as their contract's floor is defined), the fixed scale stays beside it
                on_seen = _on_seen_scale(mid, value, low, high, seen.get(mid))
                v, lo, hi = (on_seen["value_seen"], on_seen["low_seen"], on_seen["high_seen"]
                             ) if on_seen else (value, low, high)
                if mid == "policy_fallbacks":  # a count, not an estimate: compared as it is
                    verdict = stats.WITHIN if value <= limit else stats.OUTSIDE
                else:
                    least = MIN_GAMES.get(mid, stats.MIN_VERDICT_GAMES)
                    verdict = stats.verdict(lo, hi, limit, bound, games, least)
                    if verdict == stats.NOT_ENOUGH:
                        # the interval's reach before clipping to [0, 1]: what more games
                        # shrink (a range's low end clipped at 0 understates it)
                        scale = (on_seen["value_seen"] / value) if on_seen and value else 1.0
                        need = _needed(mid, v, res.get("low_raw", res["low"]) * scale,
                                       res.get("high_raw", res["high"]) * scale, limit,
                                       games, n, least)
            elif not note:
                note = "not defined for these games (fewer than two groups to compare)"
            if value is None:
                verdict = "no value"
            rows.append({"kind": kind, "player_count": n, "metric": mid, "name": name,
                         "value": value, "low": low, "high": high, "games": games,
                         "bound": "at most" if bound == "max" else "at least",
                         "threshold": limit, "verdict": verdict, "note": note,
                         "ids_seen": on_seen.get("ids_seen"),
                         "value_seen": on_seen.get("value_seen"),
                         "low_seen": on_seen.get("low_seen"),
                         "high_seen": on_seen.get("high_seen"), **need})
    return pl.DataFrame(rows, schema={
        "kind": pl.String, "player_count": pl.Int64, "metric": pl.String, "name": pl.String,
        "value": pl.Float64, "low": pl.Float64, "high": pl.Float64, "games": pl.Int64,
        "bound": pl.String, "threshold": pl.Float64, "verdict": pl.String, "note": pl.String,
        "ids_seen": pl.Int64, "value_seen": pl.Float64, "low_seen": pl.Float64,
        "high_seen": pl.Float64, "games_needed": pl.Int64, "tables_needed": pl.Int64})


#: the entropies and the fixed scale each is normalised by (:data:`ingest.stats.ENTROPY_SCALE`)
ENTROPY_METRICS = {"action_entropy": "action", "opening_entropy": "opening",
                   "winning_path_entropy": "path"}

#: the checks only bots have (people have no strategy profile and make no policy fallbacks)
BOTS_ONLY = frozenset({"profile_win_share_range", "faction_strategy_interaction",
                       "pairwise_dominance", "policy_fallbacks"})


def _ids_seen(arr: Any) -> int:
    """How many ids (keys) of block counts ``(blocks, keys, 1)`` hold anything."""
    return int((arr.sum(axis=0)[:, 0] > 0).sum()) if arr.size else 0


def _on_seen_scale(mid: str, value: float, low: float | None, high: float | None,
                   seen: int | None) -> dict[str, Any]:
    """An entropy on the designers' scale (normalised by the ``seen`` ids instead of the ids
    possible): the value and interval times ``log possible / log seen`` (at most 1); empty for
    any other metric."""
    if mid not in ENTROPY_METRICS or seen is None:
        return {}
    factor = stats.seen_scale(stats.ENTROPY_SCALE[ENTROPY_METRICS[mid]], seen)
    if math.isnan(factor):
        return {"ids_seen": seen, "value_seen": None, "low_seen": None, "high_seen": None}
    return {"ids_seen": seen, "value_seen": min(1.0, value * factor),
            "low_seen": None if low is None else min(1.0, low * factor),
            "high_seen": None if high is None else min(1.0, high * factor)}


def _needed(mid: str, value: float | None, low: float | None, high: float | None,
            limit: float, games: int, n: int, least: int) -> dict[str, int | None]:
    """Games that would settle an undecided check at the current effect size
    (:func:`ingest.stats.games_needed`, 80% chance): for bots in whole line-up blocks of ``n``
    games (a study's common-seed block), and for physical tables (each game its own deal;
    none for the checks only bots have)."""
    bots = stats.games_needed(value, low, high, limit, games, least, block=n)
    tables = (None if mid in BOTS_ONLY
              else stats.games_needed(value, low, high, limit, games, least, block=1))
    return {"games_needed": bots, "tables_needed": tables}


def _shares(src: Source, f: Selection, by: str, only: int | None = None) -> pl.DataFrame:
    """Win share (1/k credit) per kind, player count and ``by`` (``turn_order``, ``faction``
    or ``profile``) with the 95% interval of each share and the even share 1/n."""
    if by not in ("turn_order", "faction", "profile"):
        raise ValueError(f"unknown grouping {by!r}")
    seats = seat_counts(src, f, by)
    if seats.is_empty():
        return pl.DataFrame()
    seats = seats.filter(pl.col(by).is_not_null())
    rows = []
    for (kind, n), part in sorted(_groups(seats).items()):
        if only is not None and n != only:
            continue
        keys, arr = stats.block_array(part, [by], ["appearances", "credit"])
        total = arr.sum(axis=0)
        each = stats.bootstrap_shares(arr)
        for i in sorted(range(len(keys)), key=lambda i: str(keys[i])):
            res = each[i]
            rows.append({"kind": kind, "player_count": n, by: keys[i],
                         "appearances": int(total[i, 0]),
                         "wins": float(total[i, 1]), "share": res["value"],
                         "low": None if math.isnan(res["low"]) else max(0.0, res["low"]),
                         "high": None if math.isnan(res["high"]) else min(1.0, res["high"]),
                         "expected": 1.0 / n})
    return pl.DataFrame(rows)


def metrics(src: Source, f: Selection, player_count: int | None = None) -> pl.DataFrame:
    """Every metric of :data:`METRICS` per kind and player count (only ``player_count`` when
    given): value, 95% interval, games, threshold, verdict
    (:func:`ingest.stats.verdict`) and a note where the source does not record what the
    metric needs. Kept until the data changes."""
    return balance.memo(("metrics", balance.data_version(src), f, player_count),
                 lambda: _metrics(src, f, player_count))


def declared(src: balance.Source, f: Selection, player_count: int | None = None
             ) -> pl.DataFrame:
    """Every metric of :data:`METRICS` as the declaration's ``balance`` names it
    (``ingest.balance.metrics`` calls it once for all of them): :func:`metrics`."""
    if not isinstance(src, Source):
        src = Source(db=src.db, study=src.study, pool_policies=src.pool_policies)
    return metrics(src, f, player_count)


def shares(src: Source, f: Selection, by: str, player_count: int | None = None) -> pl.DataFrame:
    """Win share (1/k credit) per kind, player count (only ``player_count`` when given) and
    ``by`` (``turn_order``, ``faction`` or ``profile``) with the 95% interval of each
    share and the even share 1/n. Kept until the data changes."""
    return balance.memo(("shares", balance.data_version(src), f, by, player_count),
                 lambda: _shares(src, f, by, player_count))


def _game_counts(src: Source, f: Selection) -> pl.DataFrame:
    """Complete games per kind and player count: the games with a first seat in
    ``seat_balance`` (the ``games`` of :func:`leader_counts`, without its blocks)."""
    if not columns(src, "seats"):
        return pl.DataFrame()
    if _totals(src):  # the statement the metrics read too (every player count)
        rows = _totals_rows(src, f).get("balance")
        if rows is None or rows.is_empty():
            return pl.DataFrame()
        return rows.group_by("kind", "player_count").agg(pl.col("games").sum())
    ctes, params = _ctes(src, f)
    return run(src, f"""
        WITH {ctes}
        SELECT g.kind, g.player_count, count(*) FILTER (WHERE sb.seat = 1) AS games
        FROM sb JOIN g USING (game_id)
        GROUP BY ALL
        """, params)


def games_by_count(src: Source, f: Selection) -> dict[tuple[str, int], int]:
    """Complete games per (kind, player count) in the source: one small query, so that a
    page can offer the player counts and then compute the metrics of the one chosen only
    (:func:`for_count`)."""
    _batch(src, lambda: _game_counts(src, f))
    df = _game_counts(src, f)
    if df.is_empty():
        return {}
    return {(str(k), int(n)): int(g) for k, n, g in df.iter_rows()}


def _clear_own() -> None:
    _SPLIT.clear()
    _STUDY_BALANCE.clear()


balance.on_clear(_clear_own)


def clear_caches() -> None:
    """Forget every cached result (the benchmark's "cold" runs)."""
    balance.clear_caches()


def main(argv: list[str] | None = None) -> int:
    """``python -m ingest.mandate2038.balance (--db DB | --study DIR) [--players 4]``: print
    every metric as the Balance page computes it."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", type=Path)
    where.add_argument("--study", type=Path)
    ap.add_argument("--players", default="", help="player counts, e.g. 4 or 3,4,5 (all if empty)")
    args = ap.parse_args(argv)
    counts = tuple(int(x) for x in args.players.split(",") if x.strip())
    src = Source(db=args.db) if args.db is not None else Source(study=args.study)
    df = metrics(src, AllGames(player_counts=counts))
    if df.is_empty():
        print("no complete games")
        return 1
    for r in df.iter_rows(named=True):
        value = "-" if r["value"] is None else f"{r['value']:.4f}"
        interval = "" if r["low"] is None else f" [{r['low']:.4f}, {r['high']:.4f}]"
        print(f"{r['kind']:<12} {r['player_count']}p  {r['metric']:<30} {value}{interval}  "
              f"{r['games']} games  {r['bound']} {r['threshold']:g}: {r['verdict']}"
              + (f"  ({r['note']})" if r["note"] else ""))
    return 0


# last: importing the warehouse registers the games (ingest.warehouse.schema), whose declaration
# names this module's `declared`, which must be bound by then
from ingest.warehouse import balance as wb  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
