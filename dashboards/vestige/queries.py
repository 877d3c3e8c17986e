"""Parameterised SQL for the Vestige pages (docs/vestige.md, warehouse migration 3).

Every query restricts ``games`` to ``game = 'vestige'`` on top of the shared sidebar's
:class:`~dashboards.queries.Filters`, so a Vestige page never mixes in Mandate 2038 games. Values
travel as parameters; an absent database or table gives an empty frame (``store.query``).
Every frame that lists games carries ``kind`` (simulated games are always labelled so).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from dashboards.queries import KIND_SQL, Filters
from dashboards.store import query

GAME = "vestige"

#: leverage sources in the order the pages show them (the ledger's ``source`` values)
SOURCES: tuple[str, ...] = (
    "regions", "control", "cards", "speed", "bounties", "covert_ops", "mastery", "nemesis",
    "other",
)
SOURCE_NAMES: dict[str, str] = {
    "regions": "Regions (endgame value of regions controlled)",
    "control": "Control (gaining control; controller's leverage from others' visits)",
    "cards": "Cards (entering the tableau, card effects)",
    "speed": "Speed track",
    "bounties": "Bounties",
    "covert_ops": "Covert ops",
    "mastery": "Mastery",
    "nemesis": "Nemesis turns and abilities",
    "other": "Other (abandoned cards, table checkpoints)",
}
MODE_NAMES: dict[str, str] = {
    "competitive": "Competitive",
    "team": "Team vs team",
    "solo": "Solo",
    "coop": "Co-operative",
}


def _where(f: Filters, evidence: str = "evidence") -> tuple[str, list[Any]]:
    """The sidebar's condition on ``games g`` plus ``g.game = 'vestige'`` (as a parameter)."""
    where, params = f.where("g", evidence)
    return f"g.game = ? AND {where}", [GAME, *params]


def games(db: Path, f: Filters) -> pl.DataFrame:
    """Vestige games that pass the filters, with mode, rounds and result."""
    where, params = _where(f)
    return query(
        db,
        f"""
        SELECT g.game_id, g.date, g.session_type, {KIND_SQL} AS kind, g.player_count,
               g.status, g.n_errors, g.n_warnings, g.complete, g.total_minutes,
               v.mode, v.rounds, v.final_round, v.conditions_met, v.nemeses, v.difficulty,
               v.result, v.everyone_lost, v.nemesis_won
        FROM games g LEFT JOIN vestige_games v USING (game_id)
        WHERE {where}
        ORDER BY g.date NULLS LAST, g.game_id
        """,
        params,
    )


def durations(db: Path, f: Filters, include_non_human: bool = False) -> pl.DataFrame:
    """Rounds and minutes per game with the player count (human sessions unless asked)."""
    where, params = _where(f, "duration_evidence")
    human = "TRUE" if include_non_human else "g.is_human"
    return query(
        db,
        f"""
        SELECT g.game_id, g.player_count, {KIND_SQL} AS kind, v.mode, v.rounds,
               g.total_minutes, g.setup_minutes
        FROM games g JOIN vestige_games v USING (game_id)
        WHERE {where} AND {human} AND v.rounds IS NOT NULL
        ORDER BY g.player_count, g.game_id
        """,
        params,
    )


#: the engine's ledger sources (engine/vestige) grouped as the designers ask about them
SOURCE_OF: dict[str, str] = {
    "region_end": "regions",  # endgame: the leverage value of each region controlled
    "region_control": "control",  # gaining control of a region
    "region_visit": "control",  # the controller's leverage when another visits
    "card": "cards",
    "card_effect": "cards",
    "speed": "speed",
    "bounty": "bounties",
    "covert_op": "covert_ops",
    "mastery": "mastery",
    "nemesis": "nemesis",
}


def leverage_by_source(db: Path, f: Filters) -> pl.DataFrame:
    """Leverage per seat-game and source: game_id, seat, player_count, kind, mode, winner,
    source (grouped by :data:`SOURCE_OF`; anything else, e.g. abandoned cards or table
    checkpoints, is 'other'), leverage (the sum of the ledger's amounts)."""
    where, params = _where(f)
    df = query(
        db,
        f"""
        SELECT l.game_id, l.seat, g.player_count, {KIND_SQL} AS kind, v.mode,
               coalesce(s.winner, FALSE) AS winner, l.source AS ledger_source,
               CAST(sum(l.amount) AS BIGINT) AS leverage
        FROM ledger l JOIN games g USING (game_id)
             LEFT JOIN vestige_games v USING (game_id)
             LEFT JOIN vestige_seats s ON s.game_id = l.game_id AND s.seat = l.seat
        WHERE {where} AND l.seat IS NOT NULL
        GROUP BY ALL
        ORDER BY l.game_id, l.seat, ledger_source
        """,
        params,
    )
    if df.is_empty():
        return df
    return (
        df.with_columns(pl.col("ledger_source").replace_strict(SOURCE_OF, default="other")
                        .alias("source"))
        .group_by(["game_id", "seat", "player_count", "kind", "mode", "winner", "source"])
        .agg(pl.col("leverage").sum())
        .sort(["game_id", "seat", "source"])
    )


def seats(db: Path, f: Filters) -> pl.DataFrame:
    """Final state of every seat: colour, team, leverage, speed, regions, winner."""
    where, params = _where(f)
    return query(
        db,
        f"""
        SELECT s.game_id, s.seat, s.colour, s.team, s.final_leverage, s.speed,
               s.regions_controlled, s.cards, s.covert_ops_completed, s.winner,
               g.player_count, {KIND_SQL} AS kind, v.mode
        FROM vestige_seats s JOIN games g USING (game_id)
             LEFT JOIN vestige_games v USING (game_id)
        WHERE {where}
        ORDER BY s.game_id, s.seat
        """,
        params,
    )


def endgame_conditions(db: Path, f: Filters) -> pl.DataFrame:
    """Every endgame condition revealed, whether and in which round it was met, and whether it
    counted towards triggering the final round; with the game's final round."""
    where, params = _where(f)
    return query(
        db,
        f"""
        SELECT e.game_id, e.condition, e.revealed_round, e.met, e.met_round,
               e.triggered_final, v.final_round, v.rounds, v.mode, g.player_count,
               {KIND_SQL} AS kind
        FROM vestige_endgame e JOIN games g USING (game_id)
             LEFT JOIN vestige_games v USING (game_id)
        WHERE {where}
        ORDER BY e.game_id, e.revealed_round NULLS FIRST, e.condition
        """,
        params,
    )


def mastery(db: Path, f: Filters) -> pl.DataFrame:
    """Card counts per colour and contender, with who claimed the tile (ties go unclaimed)."""
    where, params = _where(f)
    return query(
        db,
        f"""
        SELECT m.game_id, m.colour, m.seat, m.team, m.nemesis, m.cards, m.claimed, m.leverage,
               g.player_count, {KIND_SQL} AS kind, v.mode
        FROM vestige_mastery m JOIN games g USING (game_id)
             LEFT JOIN vestige_games v USING (game_id)
        WHERE {where}
        ORDER BY m.game_id, m.colour, m.seat NULLS LAST
        """,
        params,
    )


def nemeses(db: Path, f: Filters) -> pl.DataFrame:
    """Every nemesis in every game: difficulty, threat, leverage, goal met, won."""
    where, params = _where(f)
    return query(
        db,
        f"""
        SELECT n.game_id, n.nemesis, coalesce(n.difficulty, v.difficulty) AS difficulty,
               n.team, n.final_threat, n.final_leverage, n.regions_controlled, n.goal_met,
               n.won, v.mode, g.player_count, {KIND_SQL} AS kind
        FROM vestige_nemesis n JOIN games g USING (game_id)
             LEFT JOIN vestige_games v USING (game_id)
        WHERE {where}
        ORDER BY n.game_id, n.nemesis
        """,
        params,
    )


def regions(db: Path, f: Filters) -> pl.DataFrame:
    """Per region and game: visits, control changes, final controller and leverage paid."""
    where, params = _where(f)
    return query(
        db,
        f"""
        SELECT r.game_id, r.region, r.position, r.revealed_round, r.visits,
               r.visits_by_others, r.control_changes, r.controller_seat, r.controller_nemesis,
               r.visit_leverage, g.player_count, {KIND_SQL} AS kind
        FROM vestige_regions r JOIN games g USING (game_id)
        WHERE {where}
        ORDER BY r.game_id, r.region
        """,
        params,
    )


def jobs(db: Path, f: Filters) -> pl.DataFrame:
    """Jobs picked up, completed or severed, with the die face and leverage."""
    where, params = _where(f)
    return query(
        db,
        f"""
        SELECT j.game_id, j.seat, j.card, j.kind AS job_kind, j.character, j.picked_round,
               j.completed_round, j.die, j.severed, j.leverage, g.player_count,
               {KIND_SQL} AS kind
        FROM vestige_jobs j JOIN games g USING (game_id)
        WHERE {where}
        ORDER BY j.game_id, j.picked_event NULLS LAST
        """,
        params,
    )


def modes(db: Path, f: Filters) -> pl.DataFrame:
    """One row per game for the mode comparison: rounds, minutes, the winner's leverage and
    its margin over the runner-up, whether everyone lost or a nemesis won."""
    where, params = _where(f)
    return query(
        db,
        f"""
        WITH ranked AS (
            SELECT game_id, final_leverage,
                   row_number() OVER (PARTITION BY game_id ORDER BY final_leverage DESC NULLS LAST)
                       AS rk
            FROM vestige_seats
        ),
        top AS (
            SELECT game_id,
                   max(final_leverage) FILTER (WHERE rk = 1) AS top_leverage,
                   max(final_leverage) FILTER (WHERE rk = 2) AS second_leverage
            FROM ranked GROUP BY game_id
        )
        SELECT g.game_id, g.player_count, {KIND_SQL} AS kind, v.mode, v.difficulty,
               v.rounds, g.total_minutes, v.result, v.everyone_lost, v.nemesis_won,
               t.top_leverage, t.top_leverage - t.second_leverage AS margin
        FROM games g JOIN vestige_games v USING (game_id)
             LEFT JOIN top t USING (game_id)
        WHERE {where}
        ORDER BY v.mode, g.player_count, g.game_id
        """,
        params,
    )


def map_of(db: Path, game_id: str) -> pl.DataFrame:
    """The regions of one game with their positions and final controllers (for the map)."""
    return query(
        db,
        """
        SELECT r.region, r.position, r.controller_seat, r.controller_nemesis, r.visits,
               r.revealed_round
        FROM vestige_regions r JOIN games g USING (game_id)
        WHERE g.game = ? AND r.game_id = ?
        ORDER BY r.position
        """,
        [GAME, game_id],
    )
