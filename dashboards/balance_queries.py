"""The designers' balance metrics, as parameterised SQL over the warehouse or a study folder.

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

Only complete games count. Each query returns its counts per *block* (games are split into
:data:`dashboards.stats.BLOCKS` blocks by a hash of the game id) so that
:func:`dashboards.stats.jackknife` can put a 95% interval on every statistic; the frames are
small (groups x blocks), whatever the number of games.

A study folder written by ``playtest study`` (``DIR/<table>/**/*.parquet``, the warehouse's
column names) is read in place through DuckDB: :class:`Source` names either. Results from a
study are shown beside the warehouse's, never pooled with them.
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from dashboards import stats
from dashboards.queries import KIND_SQL, Filters
from dashboards.store import StoreError, query

#: tables a study folder may hold that the balance queries read
STUDY_TABLES = ("games", "seats", "outcomes", "selections", "turns", "ledger", "production",
                "claims")

#: the designers' lanes in their order (lab/balance/winning-path.js, classifier lane-margin-v1)
LANES = ("research", "infrastructure", "adoption", "legitimacy", "capital", "mobility")


@dataclass(frozen=True)
class Source:
    """Where the games come from: the warehouse at ``db`` or a study folder ``study``."""

    db: Path | None = None
    study: Path | None = None

    def __post_init__(self) -> None:
        if (self.db is None) == (self.study is None):
            raise ValueError("a Source is either a warehouse (db) or a study folder (study)")

    @property
    def label(self) -> str:
        return f"study {self.study}" if self.study is not None else "warehouse"


# --- running SQL on either source -----------------------------------------------------------

_STUDY_CACHE: OrderedDict[tuple[Any, ...], pl.DataFrame] = OrderedDict()


def study_tables(folder: Path) -> dict[str, list[Path]]:
    """The Parquet files of each known table in a study folder (tables without files left out)."""
    out: dict[str, list[Path]] = {}
    for table in STUDY_TABLES:
        d = folder / table
        if d.is_dir():
            files = sorted(p for p in d.rglob("*.parquet") if p.is_file())
            if files:
                out[table] = files
    return out


def _study_version(tables: dict[str, list[Path]]) -> tuple[Any, ...]:
    out: list[Any] = []
    for name in sorted(tables):
        for p in tables[name]:
            try:
                st = p.stat()
            except OSError:
                continue
            out.append((name, str(p), st.st_mtime_ns, st.st_size))
    return tuple(out)


def _study_query(folder: Path, sql: str, params: list[Any]) -> pl.DataFrame:
    tables = study_tables(folder)
    if "games" not in tables or "seats" not in tables:
        return pl.DataFrame()
    key = (str(folder.resolve()), _study_version(tables), sql, repr(params))
    hit = _STUDY_CACHE.get(key)
    if hit is not None:
        _STUDY_CACHE.move_to_end(key)
        return hit
    con = duckdb.connect(":memory:")
    try:
        for name, files in tables.items():
            # the file list travels as a value, never as SQL text
            con.read_parquet([str(p) for p in files], union_by_name=True).create_view(name)
        rel = con.sql(sql, params=params or None)
        frame = rel.pl() if rel is not None else pl.DataFrame()
    except duckdb.CatalogException:
        frame = pl.DataFrame()
    except duckdb.Error as err:
        raise StoreError(f"the study folder {folder} could not be read: {err}") from err
    finally:
        con.close()
    _STUDY_CACHE[key] = frame
    if len(_STUDY_CACHE) > 128:
        _STUDY_CACHE.popitem(last=False)
    return frame


def run(src: Source, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
    """One parameterised query on the source (an absent table gives an empty frame)."""
    if src.study is not None:
        return _study_query(src.study, sql, list(params or []))
    assert src.db is not None
    return query(src.db, sql, list(params or []))


def columns(src: Source, table: str) -> frozenset[str]:
    """The columns ``table`` has in the source (empty when the table is absent)."""
    if src.study is not None:
        df = _study_query(src.study, f"DESCRIBE {table}", []) if table in STUDY_TABLES else None
        if df is None or df.is_empty():
            return frozenset()
        return frozenset(df["column_name"].to_list())
    assert src.db is not None
    df = query(src.db, "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
               [table])
    return frozenset() if df.is_empty() else frozenset(df["column_name"].to_list())


def _games_cte(src: Source, f: Filters) -> tuple[str, list[Any]]:
    """``g``: the selected complete games with kind, player count and jackknife block."""
    blk = f"hash(g.game_id) % {stats.BLOCKS}"
    if src.study is not None:
        params: list[Any] = []
        where = "coalesce(g.complete, TRUE)"
        if f.player_counts:
            where += " AND list_contains(?::INTEGER[], g.player_count)"
            params.append([int(n) for n in f.player_counts])
        return (f"g AS (SELECT g.game_id, g.player_count, 'study' AS kind, {blk} AS blk "
                f"FROM games g WHERE {where})", params)
    where, params = f.where()
    return (f"g AS (SELECT g.game_id, g.player_count, {KIND_SQL} AS kind, {blk} AS blk "
            f"FROM games g WHERE {where} AND g.complete)", params)


def _profile_expr(cols: frozenset[str]) -> str:
    """The seat's strategy profile: ``seats.profile`` (studies), else the simulator's
    ``bot:<name>`` player label; NULL for people (no strategy profile is recorded for them)."""
    bot = "CASE WHEN s.player LIKE 'bot:%' THEN substr(s.player, 5) END" if "player" in cols \
        else "NULL"
    return f"coalesce(s.profile, {bot})" if "profile" in cols else bot


# --- the block-level counts -----------------------------------------------------------------


def seat_counts(src: Source, f: Filters) -> pl.DataFrame:
    """Per kind, player count, block, turn order, faction and profile: seat appearances and win
    credit (a joint win of k seats credits 1/k to each)."""
    cte, params = _games_cte(src, f)
    cols = columns(src, "seats")
    if not cols:
        return pl.DataFrame()
    order = "s.turn_order" if "turn_order" in cols else "CAST(NULL AS INTEGER)"
    return run(src, f"""
        WITH {cte},
        s AS (SELECT s.*, sum(CAST(coalesce(s.winner, FALSE) AS INTEGER))
                          OVER (PARTITION BY s.game_id) AS k
              FROM seats s SEMI JOIN g USING (game_id))
        SELECT g.kind, g.player_count, g.blk, {order} AS turn_order, s.faction,
               {_profile_expr(cols)} AS profile,
               count(*) AS appearances,
               sum(CASE WHEN coalesce(s.winner, FALSE) THEN 1.0 / s.k ELSE 0.0 END)::DOUBLE AS credit
        FROM s JOIN g USING (game_id)
        GROUP BY ALL
        """, params)


def leader_counts(src: Source, f: Filters) -> pl.DataFrame:
    """Era II leader conversion per kind, player count and block: games, the sum over games of
    (leaders who won / leaders), and games with a tied lead.

    The Mandate snapshot is the score ledger through Era II Production: every entry before Era
    II (setup included) and Era II's entries except its Era Mandate award (scored after the
    Audit) and checkpoint resyncs (recorded at the Era's end).
    """
    if not columns(src, "ledger"):
        return pl.DataFrame()
    cte, params = _games_cte(src, f)
    return run(src, f"""
        WITH {cte},
        snap AS (SELECT l.game_id, l.seat, CAST(sum(l.amount) AS BIGINT) AS m
                 FROM ledger l SEMI JOIN g USING (game_id)
                 WHERE coalesce(l.era, 0) < 2
                    OR (l.era = 2 AND l.source NOT IN ('era_mandate', 'checkpoint'))
                 GROUP BY ALL),
        ps AS (SELECT s.game_id, s.seat, coalesce(snap.m, 0) AS m,
                      coalesce(s.winner, FALSE) AS won
               FROM seats s SEMI JOIN g USING (game_id)
               LEFT JOIN snap USING (game_id, seat)),
        lead AS (SELECT game_id, count(*) AS leaders, sum(CAST(won AS INTEGER)) AS won
                 FROM (SELECT *, max(m) OVER (PARTITION BY game_id) AS top FROM ps)
                 WHERE m = top GROUP BY game_id)
        SELECT g.kind, g.player_count, g.blk, count(*) AS games,
               sum(lead.won / lead.leaders)::DOUBLE AS converted,
               CAST(sum(CAST(lead.leaders > 1 AS INTEGER)) AS BIGINT) AS tied
        FROM lead JOIN g USING (game_id)
        GROUP BY ALL
        """, params)


def action_counts(src: Source, f: Filters) -> pl.DataFrame:
    """Every resolved action (``turns``) per kind, player count, block and action id, with how
    many resolved blocked (forced no-ops)."""
    cols = columns(src, "turns")
    if not cols:
        return pl.DataFrame()
    cte, params = _games_cte(src, f)
    blocked = "CAST(sum(CAST(coalesce(t.blocked, FALSE) AS INTEGER)) AS BIGINT)" \
        if "blocked" in cols else "CAST(NULL AS BIGINT)"
    return run(src, f"""
        WITH {cte}
        SELECT g.kind, g.player_count, g.blk, t.action, count(*) AS n, {blocked} AS blocked
        FROM turns t JOIN g USING (game_id)
        GROUP BY ALL
        """, params)


def opening_counts(src: Source, f: Filters) -> pl.DataFrame:
    """Openings per kind, player count and block: a seat's Era I actions in cycle order joined
    by an arrow (``fund→build→research``), "none" for a seat with no Era I selection."""
    if not columns(src, "selections"):
        return pl.DataFrame()
    cte, params = _games_cte(src, f)
    return run(src, f"""
        WITH {cte},
        op AS (SELECT sl.game_id, sl.seat, string_agg(sl.pick, '→' ORDER BY sl.cycle) AS opening
               FROM selections sl SEMI JOIN g USING (game_id)
               WHERE sl.era = 1 GROUP BY sl.game_id, sl.seat)
        SELECT g.kind, g.player_count, g.blk, coalesce(op.opening, 'none') AS opening,
               count(*) AS n
        FROM seats s JOIN g USING (game_id)
        LEFT JOIN op ON op.game_id = s.game_id AND op.seat = s.seat
        GROUP BY ALL
        """, params)


def path_counts(src: Source, f: Filters) -> pl.DataFrame:
    """Winning paths per kind, player count and block, with 1/k credit for joint wins.

    The designers' classifier lane-margin-v1: a winner with an eligible AGI claim took the
    ``agi_declaration`` path; otherwise six lane scores (research = Research actions +
    Capability/3; infrastructure = Build actions + Facilities; adoption = Deploy actions +
    Customers; legitimacy = Influence actions + Trust/2; capital = Fund actions; mobility =
    Organize actions); the top lane when it leads the second by more than 1, else the two top
    lanes as a hybrid (``research_adoption_hybrid``; ties ranked in lane order).
    """
    scols = columns(src, "seats")
    if not scols or not columns(src, "turns"):
        return pl.DataFrame()
    cte, params = _games_cte(src, f)
    fac = ("LEFT JOIN (SELECT game_id, seat, arg_max(facilities_built, era) AS facilities "
           "FROM production SEMI JOIN g USING (game_id) GROUP BY ALL) pr "
           "ON pr.game_id = w.game_id AND pr.seat = w.seat") if columns(src, "production") else \
        "LEFT JOIN (SELECT NULL AS game_id, NULL AS seat, NULL AS facilities) pr ON FALSE"
    ccols = columns(src, "claims")
    decl = ("LEFT JOIN (SELECT DISTINCT game_id, seat, TRUE AS declared FROM claims "
            "SEMI JOIN g USING (game_id) WHERE eligible) cl "
            "ON cl.game_id = w.game_id AND cl.seat = w.seat") if "eligible" in ccols else \
        "LEFT JOIN (SELECT NULL AS game_id, NULL AS seat, NULL AS declared) cl ON FALSE"
    # the lane names are this module's constants (never user text)
    lanes = "[" + ", ".join(f"'{lane}'" for lane in LANES) + "]"
    # scores are kept in sixths so that Capability/3 and Trust/2 stay whole numbers
    return run(src, f"""
        WITH {cte},
        w AS (SELECT s.game_id, s.seat, s.final_capability, s.final_customers, s.final_trust,
                     1.0 / sum(CAST(coalesce(s.winner, FALSE) AS INTEGER))
                         OVER (PARTITION BY s.game_id) AS credit,
                     coalesce(s.winner, FALSE) AS winner
              FROM seats s SEMI JOIN g USING (game_id)),
        a AS (SELECT t.game_id, t.seat,
                     count(*) FILTER (WHERE t.action = 'research') AS research,
                     count(*) FILTER (WHERE t.action = 'build') AS build,
                     count(*) FILTER (WHERE t.action = 'deploy') AS deploy,
                     count(*) FILTER (WHERE t.action = 'influence') AS influence,
                     count(*) FILTER (WHERE t.action = 'fund') AS fund,
                     count(*) FILTER (WHERE t.action = 'organize') AS organize
              FROM turns t SEMI JOIN g USING (game_id) GROUP BY ALL),
        sc AS (SELECT w.game_id, w.seat, w.credit, coalesce(cl.declared, FALSE) AS declared,
                      [6 * coalesce(a.research, 0) + 2 * coalesce(w.final_capability, 0),
                       6 * coalesce(a.build, 0) + 6 * coalesce(pr.facilities, 0),
                       6 * coalesce(a.deploy, 0) + 6 * coalesce(w.final_customers, 0),
                       6 * coalesce(a.influence, 0) + 3 * coalesce(w.final_trust, 0),
                       6 * coalesce(a.fund, 0),
                       6 * coalesce(a.organize, 0)] AS lanes
               FROM w LEFT JOIN a ON a.game_id = w.game_id AND a.seat = w.seat
               {fac} {decl}
               WHERE w.winner),
        ranked AS (SELECT game_id, seat, credit, declared,
                          list_sort(list_transform(range(1, 7),
                              lambda i: [-lanes[i], i]))[1:2] AS top2
                   FROM sc),
        p AS (SELECT game_id, credit,
                     CASE WHEN declared THEN 'agi_declaration'
                          WHEN top2[2][1] - top2[1][1] > 6 THEN {lanes}[top2[1][2]]
                          ELSE {lanes}[least(top2[1][2], top2[2][2])] || '_'
                               || {lanes}[greatest(top2[1][2], top2[2][2])] || '_hybrid'
                     END AS path
              FROM ranked)
        SELECT g.kind, g.player_count, g.blk, p.path, sum(p.credit)::DOUBLE AS credit
        FROM p JOIN g USING (game_id)
        GROUP BY ALL
        """, params)


def matchup_counts(src: Source, f: Filters) -> pl.DataFrame:
    """Head-to-head placements per kind, player count, block, profile and opponent profile:
    every ordered pair of seats in a game with different profiles is a comparison, scoring 1
    when the seat's final Mandate is higher, 0.5 when equal."""
    cols = columns(src, "seats")
    if not cols:
        return pl.DataFrame()
    cte, params = _games_cte(src, f)
    return run(src, f"""
        WITH {cte},
        ps AS (SELECT s.game_id, s.seat, {_profile_expr(cols)} AS profile,
                      s.final_mandate AS score
               FROM seats s SEMI JOIN g USING (game_id))
        SELECT g.kind, g.player_count, g.blk, a.profile, b.profile AS opponent,
               count(*) AS comparisons,
               sum(CASE WHEN a.score > b.score THEN 1.0 WHEN a.score = b.score THEN 0.5
                        ELSE 0.0 END)::DOUBLE AS points
        FROM ps a JOIN ps b ON a.game_id = b.game_id AND a.seat <> b.seat
        JOIN g ON g.game_id = a.game_id
        WHERE a.profile IS NOT NULL AND b.profile IS NOT NULL AND a.profile <> b.profile
        GROUP BY ALL
        """, params)


def fallback_counts(src: Source, f: Filters) -> pl.DataFrame:
    """Policy fallbacks per kind, player count and block, where the seats record them (bots in
    a study: ``seats.policy_fallbacks``); empty otherwise."""
    cols = columns(src, "seats")
    if "policy_fallbacks" not in cols:
        return pl.DataFrame()
    cte, params = _games_cte(src, f)
    return run(src, f"""
        WITH {cte}
        SELECT g.kind, g.player_count, g.blk,
               CAST(sum(coalesce(s.policy_fallbacks, 0)) AS BIGINT) AS fallbacks,
               count(*) AS seats
        FROM seats s JOIN g USING (game_id)
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


def _blocks(df: pl.DataFrame, key: list[str], values: list[str]) -> dict[int, dict[Any, Any]]:
    out: dict[int, dict[Any, Any]] = {}
    if df.is_empty():
        return out
    for row in df.select(["blk", *key, *values]).iter_rows():
        blk = int(row[0])
        k = row[1:1 + len(key)]
        k = k[0] if len(key) == 1 else tuple(k)
        vals = tuple(float(x) if x is not None else 0.0 for x in row[1 + len(key):])
        v: Any = vals[0] if len(values) == 1 else vals
        bucket = out.setdefault(blk, {})
        bucket[k] = stats._add(bucket[k], v) if k in bucket else v
    return out


def _groups(df: pl.DataFrame) -> dict[tuple[str, int], pl.DataFrame]:
    if df.is_empty():
        return {}
    return {(str(k), int(n)): part
            for (k, n), part in df.group_by(["kind", "player_count"], maintain_order=True)}


def metrics(src: Source, f: Filters) -> pl.DataFrame:
    """Every metric of :data:`METRICS` per kind and player count: value, 95% jackknife
    interval, games, threshold, verdict (:func:`dashboards.stats.verdict`) and a note where
    the source does not record what the metric needs."""
    th = stats.thresholds()
    seats = seat_counts(src, f)
    if seats.is_empty():
        return pl.DataFrame()
    lead = _groups(leader_counts(src, f))
    acts = _groups(action_counts(src, f))
    opens = _groups(opening_counts(src, f))
    paths = _groups(path_counts(src, f))
    pairs = _groups(matchup_counts(src, f))
    falls = _groups(fallback_counts(src, f))
    rows: list[dict[str, Any]] = []
    for (kind, n), part in sorted(_groups(seats).items()):
        games = int(round(float(part["appearances"].sum()) / n))
        seat_blocks = {b: {"_": (float(v), 0.0)} for b, v in
                       part.group_by("blk").agg(pl.col("appearances").sum()).iter_rows()}
        results: dict[str, tuple[dict[str, float] | None, str]] = {}
        has_order = part["turn_order"].null_count() < part.height
        results["seat_win_share_range"] = (
            stats.jackknife(_blocks(part.filter(pl.col("turn_order").is_not_null()),
                                    ["turn_order"], ["appearances", "credit"]),
                            stats.share_range) if has_order else None,
            "" if has_order else NOT_RECORDED["turn_order"])
        results["faction_win_share_range"] = (
            stats.jackknife(_blocks(part, ["faction"], ["appearances", "credit"]),
                            stats.share_range), "")
        bots = part.filter(pl.col("profile").is_not_null())
        if bots.height:
            results["profile_win_share_range"] = (
                stats.jackknife(_blocks(bots, ["profile"], ["appearances", "credit"]),
                                stats.share_range), "")
            results["faction_strategy_interaction"] = (
                stats.jackknife(_blocks(bots, ["faction", "profile"], ["appearances", "credit"]),
                                lambda d: stats.share_range(d, 4)), "")
            pp = pairs.get((kind, n))
            results["pairwise_dominance"] = (
                stats.jackknife(_blocks(pp, ["profile", "opponent"], ["comparisons", "points"]),
                                stats.dominance) if pp is not None else None,
                "" if pp is not None else "only one strategy profile in these games")
        else:
            for m in ("profile_win_share_range", "faction_strategy_interaction",
                      "pairwise_dominance"):
                results[m] = (None, NOT_RECORDED["profile"])
        lp = lead.get((kind, n))
        results["round_two_leader_conversion"] = (
            stats.jackknife(_blocks(lp, ["kind"], ["converted", "games"]), stats.ratio)
            if lp is not None else None,
            "" if lp is not None else "no score ledger for these games")
        ap = acts.get((kind, n))
        if ap is not None:
            results["action_entropy"] = (
                stats.jackknife(_blocks(ap, ["action"], ["n"]), stats.entropy), "")
            if ap["blocked"].null_count() < ap.height:
                blocked = {b: {"_": (float(v), 0.0)} for b, v in
                           ap.group_by("blk").agg(pl.col("blocked").sum()).iter_rows()}
                # opportunities: 12 actions per seat (4 Eras x 3 cycles), as the designers count
                merged = {b: {"_": (blocked.get(b, {"_": (0.0, 0.0)})["_"][0],
                                    12.0 * seat_blocks[b]["_"][0])} for b in seat_blocks}
                results["forced_no_op_rate"] = (stats.jackknife(merged, stats.ratio), "")
            else:
                results["forced_no_op_rate"] = (None, "blocked actions are not recorded")
        else:
            for m in ("action_entropy", "forced_no_op_rate"):
                results[m] = (None, "no resolved actions recorded for these games")
        op = opens.get((kind, n))
        for m, fn in (("opening_entropy", stats.entropy), ("opening_top_share", stats.top_share)):
            results[m] = ((stats.jackknife(_blocks(op, ["opening"], ["n"]), fn), "")
                          if op is not None else (None, "no selections recorded"))
        pt = paths.get((kind, n))
        for m, fn in (("winning_path_entropy", stats.entropy),
                      ("winning_path_top_share", stats.top_share)):
            results[m] = ((stats.jackknife(_blocks(pt, ["path"], ["credit"]), fn), "")
                          if pt is not None else (None, "no winners with recorded actions"))
        fb = falls.get((kind, n))
        if fb is not None:
            total = float(fb["fallbacks"].sum())
            results["policy_fallbacks"] = ({"value": total, "low": total, "high": total}, "")
        else:
            results["policy_fallbacks"] = (None, NOT_RECORDED["fallbacks"])
        for mid, name, key, bound in METRICS:
            res, note = results.get(mid, (None, ""))
            limit = float(th[key]) if key in th else math.nan
            value = low = high = None
            verdict = stats.NOT_ENOUGH
            if res is not None and res["value"] is not None and not math.isnan(res["value"]):
                value = float(res["value"])
                low = None if math.isnan(res["low"]) else float(res["low"])
                high = None if math.isnan(res["high"]) else float(res["high"])
                if mid == "policy_fallbacks":  # a count, not an estimate: compared as it is
                    verdict = stats.WITHIN if value <= limit else stats.OUTSIDE
                else:
                    verdict = stats.verdict(low, high, limit, bound, games)
            elif not note:
                note = "not defined for these games (fewer than two groups to compare)"
            if value is None:
                verdict = "no value"
            rows.append({"kind": kind, "player_count": n, "metric": mid, "name": name,
                         "value": value, "low": low, "high": high, "games": games,
                         "bound": "at most" if bound == "max" else "at least",
                         "threshold": limit, "verdict": verdict, "note": note})
    return pl.DataFrame(rows, schema={
        "kind": pl.String, "player_count": pl.Int64, "metric": pl.String, "name": pl.String,
        "value": pl.Float64, "low": pl.Float64, "high": pl.Float64, "games": pl.Int64,
        "bound": pl.String, "threshold": pl.Float64, "verdict": pl.String, "note": pl.String})


def shares(src: Source, f: Filters, by: str) -> pl.DataFrame:
    """Win share (1/k credit) per kind, player count and ``by`` (``turn_order``, ``faction``
    or ``profile``) with the 95% jackknife interval of each share and the even share 1/n."""
    if by not in ("turn_order", "faction", "profile"):
        raise ValueError(f"unknown grouping {by!r}")
    seats = seat_counts(src, f)
    if seats.is_empty():
        return pl.DataFrame()
    seats = seats.filter(pl.col(by).is_not_null())
    rows = []
    for (kind, n), part in sorted(_groups(seats).items()):
        blocks = _blocks(part, [by], ["appearances", "credit"])
        keys = sorted({k for b in blocks.values() for k in b}, key=str)
        for key in keys:
            def share(d: dict[Any, Any], key: Any = key) -> float:
                a, c = d.get(key, (0.0, 0.0))
                return c / a if a > 0 else math.nan
            res = stats.jackknife(blocks, share)
            sub = part.filter(pl.col(by) == key)
            rows.append({"kind": kind, "player_count": n, by: key,
                         "appearances": int(sub["appearances"].sum()),
                         "wins": float(sub["credit"].sum()), "share": res["value"],
                         "low": None if math.isnan(res["low"]) else max(0.0, res["low"]),
                         "high": None if math.isnan(res["high"]) else min(1.0, res["high"]),
                         "expected": 1.0 / n})
    return pl.DataFrame(rows)


def study_path(text: str | None) -> Path | None:
    """A study folder named by the user (or ``PLAYTEST_STUDY``), if it holds games and seats."""
    text = (text or os.environ.get("PLAYTEST_STUDY") or "").strip()
    if not text:
        return None
    p = Path(text).expanduser()
    tables = study_tables(p) if p.is_dir() else {}
    return p if "games" in tables and "seats" in tables else None
