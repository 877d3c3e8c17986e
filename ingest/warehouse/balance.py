"""``seat_balance``: one row per seat holding what the designers' balance metrics read.

Derived in SQL from the loaded tables (``seats``, ``turns``, ``selections``, ``ledger``,
``production``, ``claims``) so that the Balance page aggregates one narrow table instead of
joining the large ones on every view (100,000 games: 400,000 rows instead of ~5 million turns
and selections). It is filled in the load transaction of every batch (:func:`refresh`, called
by :func:`ingest.warehouse.load.load_frames`), hence at ingest and on rebuild, and migration 6
fills it for games loaded before. The same SELECT builds it for a study folder read in place.

Definitions (docs/balance.md, "Definitions"; the designers' lab, rc.17 era):

* ``credit``: 1/k for each of the k winners of a game (a joint win), else 0;
* ``era2_mandate``: the seat's Mandate at the end of Era II Production: the score ledger's
  entries before Era II (setup included) and Era II's entries except its Era Mandate award
  (scored after the Audit) and checkpoint resyncs (recorded at the Era's end);
  ``era2_leaders``: how many seats share the top ``era2_mandate`` of the game;
  ``lead_won_share``: 1/leaders for a leader who won, else 0 (a game's conversion is its sum);
* ``opening``: the seat's Era I selections in cycle order joined by an arrow, ``none`` if none;
* ``a_<id>``: resolved actions (``turns`` rows, blocked ones included) by action id;
  ``a_other`` any other id; ``blocked``: actions resolved blocked (forced no-ops);
* ``path``: the designers' winning-path class (lane-margin-v1) of the seat: ``agi_declaration``
  with an eligible AGI claim, else the top lane of research (Research actions + Capability/3),
  infrastructure (Build actions + Era IV Facilities), adoption (Deploy actions + Customers),
  legitimacy (Influence actions + Trust/2), capital (Fund actions), mobility (Organize actions)
  when it leads the second by more than 1, else ``<first>_<second>_hybrid`` in lane order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb

#: action ids counted in their own column (Mandate 2038 rc.17: Core Actions, then Programs)
ACTION_IDS: tuple[str, ...] = (
    "fund", "research", "build", "organize", "deploy", "influence",
    "mega_cluster", "reorganization", "covenant", "narrative_capture", "agent_swarm", "fusion",
)
#: the designers' lanes in their order (lab/balance/winning-path.js)
LANES: tuple[str, ...] = ("research", "infrastructure", "adoption", "legitimacy", "capital",
                          "mobility")

COLUMNS: tuple[tuple[str, str], ...] = (
    ("game_id", "VARCHAR"), ("seat", "INTEGER"), ("turn_order", "INTEGER"),
    ("faction", "VARCHAR"), ("profile", "VARCHAR"), ("winner", "BOOLEAN"), ("credit", "DOUBLE"),
    ("final_mandate", "INTEGER"), ("era2_mandate", "BIGINT"), ("era2_leaders", "INTEGER"),
    ("lead_won_share", "DOUBLE"), ("opening", "VARCHAR"), ("path", "VARCHAR"),
    *((f"a_{a}", "INTEGER") for a in ACTION_IDS), ("a_other", "INTEGER"), ("blocked", "INTEGER"),
    ("policy_fallbacks", "INTEGER"),
)

CREATE_SQL = ("CREATE TABLE seat_balance ("
              + ", ".join(f"{c} {t}" for c, t in COLUMNS) + ")")


def select_sql(games_where: str, *, profile: bool = False, player: bool = True,
               fallbacks: bool = False, production: bool = True, claims: bool = True,
               turn_order: bool = True) -> str:
    """The SELECT giving ``seat_balance`` rows for the games that satisfy ``games_where`` (a
    condition on ``games g``; values as ``?`` parameters). The flags say which optional
    columns and tables the source has (a study folder may lack some)."""
    # a simulated seat's player is ``bot:<profile>`` or, in a study's line-ups,
    # ``bot:<profile>:<policy>``: the profile is the same whatever policy played it
    bot = ("CASE WHEN s.player LIKE 'bot:%' THEN "
           "regexp_replace(substr(s.player, 5), ':(greedy|weighted|default)$', '') END") \
        if player else "CAST(NULL AS VARCHAR)"
    prof = f"coalesce(s.profile, {bot})" if profile else bot
    acts = ",\n".join(f"count(*) FILTER (WHERE t.action = '{a}') AS a_{a}" for a in ACTION_IDS)
    known = ", ".join(f"'{a}'" for a in ACTION_IDS)
    lanes = "[" + ", ".join(f"'{lane}'" for lane in LANES) + "]"
    fac = ("LEFT JOIN (SELECT game_id, seat, arg_max(facilities_built, era) AS facilities "
           "FROM production SEMI JOIN sel USING (game_id) GROUP BY ALL) pr "
           "ON pr.game_id = s.game_id AND pr.seat = s.seat") if production else \
        "LEFT JOIN (SELECT NULL AS game_id, NULL AS seat, NULL AS facilities) pr ON FALSE"
    decl = ("LEFT JOIN (SELECT DISTINCT game_id, seat, TRUE AS declared FROM claims "
            "SEMI JOIN sel USING (game_id) WHERE eligible) cl "
            "ON cl.game_id = s.game_id AND cl.seat = s.seat") if claims else \
        "LEFT JOIN (SELECT NULL AS game_id, NULL AS seat, NULL AS declared) cl ON FALSE"
    order = "s.turn_order" if turn_order else "CAST(NULL AS INTEGER)"
    falls = "CAST(s.policy_fallbacks AS INTEGER)" if fallbacks else "CAST(NULL AS INTEGER)"
    # identifiers and literals above are this module's constants, never user text
    return f"""
    WITH sel AS (SELECT g.game_id FROM games g WHERE {games_where}),
    s AS (SELECT s.*, coalesce(s.winner, FALSE) AS won,
                 sum(CAST(coalesce(s.winner, FALSE) AS INTEGER))
                     OVER (PARTITION BY s.game_id) AS k
          FROM seats s SEMI JOIN sel USING (game_id)),
    a AS (SELECT t.game_id, t.seat, {acts},
                 count(*) FILTER (WHERE t.action NOT IN ({known})) AS a_other,
                 count(*) FILTER (WHERE coalesce(t.blocked, FALSE)) AS blocked
          FROM turns t SEMI JOIN sel USING (game_id) GROUP BY ALL),
    op AS (SELECT sl.game_id, sl.seat, string_agg(sl.pick, '→' ORDER BY sl.cycle) AS opening
           FROM selections sl SEMI JOIN sel USING (game_id)
           WHERE sl.era = 1 GROUP BY sl.game_id, sl.seat),
    snap AS (SELECT l.game_id, l.seat, CAST(sum(l.amount) AS BIGINT) AS m
             FROM ledger l SEMI JOIN sel USING (game_id)
             WHERE coalesce(l.era, 0) < 2
                OR (l.era = 2 AND l.source NOT IN ('era_mandate', 'checkpoint'))
             GROUP BY ALL),
    base AS (
        SELECT s.game_id, s.seat, {order} AS turn_order, s.faction, {prof} AS profile,
               s.won AS winner,
               CASE WHEN s.won THEN 1.0 / s.k ELSE 0.0 END AS credit,
               s.final_mandate, coalesce(snap.m, 0) AS era2_mandate,
               coalesce(op.opening, 'none') AS opening,
               coalesce(cl.declared, FALSE) AS declared,
               [6 * coalesce(a.a_research, 0) + 2 * coalesce(s.final_capability, 0),
                6 * coalesce(a.a_build, 0) + 6 * coalesce(pr.facilities, 0),
                6 * coalesce(a.a_deploy, 0) + 6 * coalesce(s.final_customers, 0),
                6 * coalesce(a.a_influence, 0) + 3 * coalesce(s.final_trust, 0),
                6 * coalesce(a.a_fund, 0),
                6 * coalesce(a.a_organize, 0)] AS lanes,
               {", ".join(f"coalesce(a.a_{x}, 0) AS a_{x}" for x in ACTION_IDS)},
               coalesce(a.a_other, 0) AS a_other, coalesce(a.blocked, 0) AS blocked,
               {falls} AS policy_fallbacks
        FROM s
        LEFT JOIN a ON a.game_id = s.game_id AND a.seat = s.seat
        LEFT JOIN op ON op.game_id = s.game_id AND op.seat = s.seat
        LEFT JOIN snap ON snap.game_id = s.game_id AND snap.seat = s.seat
        {fac} {decl}
    ),
    lead AS (SELECT *, max(era2_mandate) OVER (PARTITION BY game_id) AS top,
                    list_sort(list_transform(range(1, 7),
                                             lambda i: [-lanes[i], i]))[1:2] AS top2
             FROM base),
    lead2 AS (SELECT *, sum(CAST(era2_mandate = top AS INTEGER))
                        OVER (PARTITION BY game_id) AS leaders
              FROM lead)
    SELECT game_id, seat, turn_order, faction, profile, winner, credit, final_mandate,
           era2_mandate, CAST(leaders AS INTEGER) AS era2_leaders,
           CASE WHEN era2_mandate = top AND winner THEN 1.0 / leaders ELSE 0.0 END
               AS lead_won_share,
           opening,
           CASE WHEN declared THEN 'agi_declaration'
                WHEN top2[2][1] - top2[1][1] > 6 THEN {lanes}[top2[1][2]]
                ELSE {lanes}[least(top2[1][2], top2[2][2])] || '_'
                     || {lanes}[greatest(top2[1][2], top2[2][2])] || '_hybrid'
           END AS path,
           {", ".join(f"CAST(a_{x} AS INTEGER) AS a_{x}" for x in ACTION_IDS)},
           CAST(a_other AS INTEGER) AS a_other, CAST(blocked AS INTEGER) AS blocked,
           policy_fallbacks
    FROM lead2
    """


#: the name :func:`refresh` registers a load's new ``seat_balance`` rows under (``batch``)
BATCH_VIEW = "_load_seat_balance"


def refresh(con: duckdb.DuckDBPyConnection, game_ids: Sequence[str] | None = None, *,
            present: bool | None = None, batch: bool = False) -> Any:
    """(Re)compute the ``seat_balance`` rows of ``game_ids`` (all games when None), in the
    caller's transaction. A database without the table (before migration 6) is left alone
    (``present``: whether it has the table, when the caller knows).

    ``batch`` (the load step's, for the new games it just loaded): the rows are computed once
    into the temporary table :data:`BATCH_VIEW` with the stored table's columns and types
    (the caller drops it), inserted from it, and its name returned, so that the load can
    make them readable under the table's name too and the totals of :func:`add_totals` read the
    batch's rows instead of scanning the stored table (the same rows: the stored rows of
    these games are exactly these). Returns None otherwise."""
    if present is None:
        have = con.execute("SELECT count(*) FROM information_schema.tables "
                           "WHERE table_name = 'seat_balance'").fetchone()
        present = bool(have and have[0])
    if not present:
        return None
    if game_ids is None:
        con.execute("DELETE FROM seat_balance")
        con.execute(f"INSERT INTO seat_balance BY NAME {select_sql('TRUE')}")
        refresh_totals(con)  # and the totals read from it (the load step adds a batch's own)
        return None
    ids = sorted(set(game_ids))
    if not ids:
        return None
    if not batch:
        con.execute("DELETE FROM seat_balance WHERE list_contains(?::VARCHAR[], game_id)", [ids])
        con.execute(f"INSERT INTO seat_balance BY NAME "
                    f"{select_sql('list_contains(?::VARCHAR[], g.game_id)')}", [ids])
        return None
    # a semi join on the ids (list_contains compared every stored row with every id)
    con.execute("DELETE FROM seat_balance WHERE game_id IN (SELECT unnest(?::VARCHAR[]))", [ids])
    typed = ", ".join(f"CAST({c} AS {t}) AS {c}" for c, t in COLUMNS)
    # a temporary table (this connection's, in DuckDB's memory: a batch's seats), so that no
    # Arrow (pyarrow) is needed in the loading process; the identifier is this module's constant
    # (``games`` and the other names stand for the batch's rows only: no filter)
    con.execute(f"CREATE OR REPLACE TEMP TABLE {BATCH_VIEW} AS SELECT {typed} FROM "
                f"({select_sql('TRUE')})")
    con.execute(f"INSERT INTO seat_balance BY NAME SELECT * FROM {BATCH_VIEW}")
    return BATCH_VIEW


# --- totals per filtered games' values (migration 12) ----------------------------------------
#
# The Balance page grouped every ``seat_balance`` row of the selected games per kind, player
# count, common-seed block, turn order, faction, profile, opening and path (and paired every
# two seats of a game for the head-to-head counts) on every cold draw: 4 million seats at a
# million games. ``balance_totals`` and ``matchup_totals`` keep those sums per distinct value of
# every column the sidebar filters on (``ingest.warehouse.summaries.GAME_KEYS``), the games'
# variant (their study arm) and the block, so the page sums a few rows instead. Only complete
# games are counted (the page's only games); a complete game without a ``seat_balance`` row
# keeps one row with ``appearances`` 0 so that the arms of a kind are the games' own.

#: the number of common-seed groups (``ingest.stats.BLOCKS``; not imported: ingest.stats loads
#: numpy, which the load step does not need)
BLOCKS = 200

#: a game's deal and common-seed block as Mandate 2038's balance queries define them
#: (``ingest.mandate2038.balance.deal_cte`` and ``CLUSTER_SQL``, which a test checks equal to
#: these: that module cannot be imported here)
CLUSTER_SQL = ("CASE WHEN coalesce(g.session_type, '') = 'simulation' AND dk.deal IS NOT NULL "
               "THEN g.player_count || ':' || dk.deal ELSE g.game_id END")


def deal_cte(turn_order: bool = True, where: str = "TRUE") -> str:
    """``dk``: each game's deal (factions by seat, and the seat holding first Initiative),
    of the seats satisfying ``where``."""
    first = ("|| '/' || coalesce(CAST(arg_min(seat, turn_order) AS VARCHAR), '')"
             if turn_order else "")
    return (f"dk AS (SELECT game_id, string_agg(faction, ',' ORDER BY seat) {first} AS deal "
            f"FROM seats{'' if where == 'TRUE' else ' WHERE ' + where} GROUP BY game_id)")


_GAME_KEYS = ("game", "rules_version", "player_count", "session_type", "profile", "date",
              "evidence", "duration_evidence", "illustrative", "is_human")
#: the games' columns of both totals: the sidebar's, then the variant (the study arm)
TOTALS_GAME_COLUMNS: tuple[str, ...] = (*_GAME_KEYS, "variant_name", "variant_content_hash")
_GAME_DDL = (
    "game VARCHAR, rules_version VARCHAR, player_count INTEGER, session_type VARCHAR, "
    "profile VARCHAR, date DATE, evidence BOOLEAN, duration_evidence BOOLEAN, "
    "illustrative BOOLEAN, is_human BOOLEAN, variant_name VARCHAR, variant_content_hash VARCHAR, "
    "blk UBIGINT"
)
_GAME_KEYS_DDL = _GAME_DDL.rsplit(", variant_name", 1)[0]
_A = [*(f"a_{a}" for a in ACTION_IDS), "a_other"]
#: the summed columns of ``balance_totals`` and ``matchup_totals``
BALANCE_SUMS: tuple[str, ...] = ("appearances", "credit", *_A, "blocked", "fallbacks",
                                 "fallback_seats", "games", "converted", "tied")
MATCHUP_SUMS: tuple[str, ...] = ("comparisons", "points")
#: table -> (CREATE, summed columns)
TOTALS: dict[str, tuple[str, tuple[str, ...]]] = {
    "balance_totals": (
        f"CREATE TABLE balance_totals ({_GAME_DDL}, turn_order INTEGER, faction VARCHAR, "
        "profile_seat VARCHAR, opening VARCHAR, path VARCHAR, appearances BIGINT, "
        "credit DOUBLE, " + ", ".join(f"{a} BIGINT" for a in _A) + ", blocked BIGINT, "
        "fallbacks BIGINT, fallback_seats BIGINT, games BIGINT, converted DOUBLE, tied BIGINT)",
        BALANCE_SUMS),
    "matchup_totals": (
        f"CREATE TABLE matchup_totals ({_GAME_DDL}, profile_seat VARCHAR, opponent VARCHAR, "
        "comparisons BIGINT, points DOUBLE)",
        MATCHUP_SUMS),
    # the End conditions page's: complete games per ending, AGI, Open and the Open test's two
    # margins; Dossier claims per strength and eligibility (every game's)
    "outcome_totals": (
        f"CREATE TABLE outcome_totals ({_GAME_KEYS_DDL}, ending VARCHAR, agi BOOLEAN, "
        "open BOOLEAN, trust_margin INTEGER, risk_margin INTEGER, games BIGINT)",
        ("games",)),
    "claim_totals": (
        f"CREATE TABLE claim_totals ({_GAME_KEYS_DDL}, strength INTEGER, eligible BOOLEAN, "
        "claims BIGINT)",
        ("claims",)),
    # the Variants page's: physical playtests (human, never illustrative) per variant, status
    # and outcome (AGI, Open) as ``dashboards.variant_queries.physical_by_variant`` counts them
    "variant_totals": (
        f"CREATE TABLE variant_totals ({_GAME_DDL.rsplit(', blk', 1)[0]}, complete BOOLEAN, "
        "agi BOOLEAN, open BOOLEAN, games BIGINT)",
        ("games",)),
}


def _games_cte(where: str) -> str:
    """``dk`` and ``g``: the complete games satisfying ``where`` (on ``g``; on the seats'
    ``game_id`` for ``dk``) with their block."""
    keys = ", ".join(f"g.{c}" for c in TOTALS_GAME_COLUMNS)
    return (f"{deal_cte(True, where.replace('g.game_id', 'game_id'))}, "
            f"g AS (SELECT g.game_id, {keys}, hash({CLUSTER_SQL}) % {BLOCKS} AS blk "
            f"FROM games g LEFT JOIN dk USING (game_id) WHERE {where} AND g.complete)")


def totals_sql(where: str) -> dict[str, str]:
    """The SELECT of each totals table over the games satisfying ``where`` (a condition on
    ``g.game_id``; values as ``?`` parameters, the same in both)."""
    keys = ", ".join(f"g.{c}" for c in (*TOTALS_GAME_COLUMNS, "blk"))
    sums = ", ".join(f"CAST(sum(sb.{a}) AS BIGINT) AS {a}" for a in _A)
    balance = f"""
    WITH {_games_cte(where)}
    SELECT {keys}, sb.turn_order, sb.faction, sb.profile AS profile_seat, sb.opening, sb.path,
           count(sb.game_id) AS appearances, sum(sb.credit)::DOUBLE AS credit, {sums},
           CAST(sum(sb.blocked) AS BIGINT) AS blocked,
           CAST(sum(sb.policy_fallbacks) AS BIGINT) AS fallbacks,
           count(sb.policy_fallbacks) AS fallback_seats,
           count(*) FILTER (WHERE sb.seat = 1) AS games,
           sum(sb.lead_won_share)::DOUBLE AS converted,
           count(*) FILTER (WHERE sb.seat = 1 AND sb.era2_leaders > 1) AS tied
    FROM g LEFT JOIN seat_balance sb USING (game_id)
    GROUP BY ALL
    """
    pkeys = ", ".join(f"a.{c}" for c in (*TOTALS_GAME_COLUMNS, "blk"))
    matchup = f"""
    WITH {_games_cte(where)},
    gn AS (SELECT *, row_number() OVER () AS gnum FROM g),
    ps AS MATERIALIZED (SELECT gn.*, sb.seat, sb.profile AS profile_seat,
                               sb.final_mandate AS score
                        FROM seat_balance sb JOIN gn USING (game_id)
                        WHERE sb.profile IS NOT NULL)
    SELECT {pkeys}, a.profile_seat, b.profile_seat AS opponent, count(*) AS comparisons,
           sum(CASE WHEN a.score > b.score THEN 1.0 WHEN a.score = b.score THEN 0.5
                    ELSE 0.0 END)::DOUBLE AS points
    FROM ps a JOIN ps b ON a.gnum = b.gnum AND a.seat <> b.seat
                       AND a.profile_seat <> b.profile_seat
    GROUP BY ALL
    """
    gkeys = ", ".join(f"g.{c}" for c in _GAME_KEYS)
    outcome = f"""
    SELECT {gkeys}, o.ending, o.agi, o.open, o.trust_margin,
           o.systemic_risk_limit - o.systemic_risk AS risk_margin, count(*) AS games
    FROM outcomes o JOIN games g USING (game_id)
    WHERE {where} AND o.complete AND {where.replace('g.game_id', 'o.game_id')}
    GROUP BY ALL
    """
    claim = f"""
    SELECT {gkeys}, c.strength, c.eligible, count(*) AS claims
    FROM claims c JOIN games g USING (game_id)
    WHERE {where} AND {where.replace('g.game_id', 'c.game_id')}
    GROUP BY ALL
    """
    vkeys = ", ".join(f"g.{c}" for c in TOTALS_GAME_COLUMNS)
    variant = f"""
    SELECT {vkeys}, g.complete, o.agi, o.open, count(*) AS games
    FROM games g LEFT JOIN outcomes o
         ON o.game_id = g.game_id AND {where.replace('g.game_id', 'o.game_id')}
    WHERE {where} AND g.is_human AND NOT coalesce(g.illustrative, FALSE)
    GROUP BY ALL
    """
    return {"balance_totals": balance, "matchup_totals": matchup, "outcome_totals": outcome,
            "claim_totals": claim, "variant_totals": variant}


def migration_12_sql() -> str:
    """Create both totals and fill them from the tables (part of migration 12; a table already
    there is filled again: the same sums)."""
    selects = totals_sql("TRUE")
    return "\n".join(
        f"{create.replace('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS', 1)};\n"
        f"DELETE FROM {name};\nINSERT INTO {name} BY NAME {selects[name]};"
        for name, (create, _sums) in TOTALS.items())


def add_totals(con: duckdb.DuckDBPyConnection, game_ids: Sequence[str],
               have: frozenset[str], *, batch: bool = False) -> None:
    """Add the totals of the newly loaded games ``game_ids`` (their ``seat_balance`` rows
    written) to those of :data:`TOTALS` the warehouse has (``have``), in the caller's
    transaction. ``batch``: the tables' names stand for exactly these games' rows (the load
    step's views), so nothing is filtered."""
    ids = sorted(set(game_ids))
    if not ids:
        return
    selects = totals_sql("TRUE" if batch else "list_contains(?::VARCHAR[], g.game_id)")
    for name in TOTALS:
        if name in have:
            # the deal's seats and the games: the same list twice
            con.execute(f"INSERT INTO {name} BY NAME {selects[name]}", None if batch else [ids, ids])


def refresh_totals(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute the tables of :data:`TOTALS` the warehouse has from its tables (in the
    caller's transaction)."""
    have = {str(r[0]) for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE list_contains(?::VARCHAR[], "
        "table_name)", [list(TOTALS)]).fetchall()}
    selects = totals_sql("TRUE")
    for name in TOTALS:
        if name in have:
            con.execute(f"DELETE FROM {name}")
            con.execute(f"INSERT INTO {name} BY NAME {selects[name]}")
