"""The sections a game gets on the shared pages when it brings no part of its own
(:mod:`dashboards.gameapps`): they read only the shared tables (``games``, ``ledger``)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import stats, ui
from dashboards.queries import KIND_SQL, Filters
from dashboards.store import query


def scoring(db: Path, f: Filters) -> None:
    """Points per seat-game by ledger source, one kind of game at a time."""
    where, params = f.where()
    df = query(
        db,
        f"""
        SELECT {KIND_SQL} AS kind, l.source, CAST(sum(l.amount) AS BIGINT) AS points,
               count(DISTINCT (l.game_id, l.seat)) AS seat_games
        FROM ledger l JOIN games g USING (game_id)
        WHERE {where} AND l.seat IS NOT NULL
        GROUP BY ALL ORDER BY ALL
        """,
        params,
    )
    if df.is_empty():
        ui.empty_state("No score ledger for the matching games.")
        return
    sizes = df.group_by("kind").agg(pl.col("seat_games").max())
    kind = ui.pick_kind({r["kind"]: ui.plural(int(r["seat_games"]), "seat-game")
                         for r in sizes.iter_rows(named=True)}, "gen_score_kind")
    part = df.filter(pl.col("kind") == kind).with_columns(
        (pl.col("points") / pl.col("seat_games")).round(2).alias("per_seat")).drop("kind")
    ui.show_table(part, "scoring-sources")


def endings(db: Path, f: Filters) -> None:
    """Completed games and wins per seat count (the game declares no end conditions here)."""
    where, params = f.where()
    df = query(
        db,
        f"SELECT {KIND_SQL} AS kind, g.player_count, count(*) AS games, "
        "count(*) FILTER (WHERE g.complete) AS complete FROM games g "
        f"WHERE {where} GROUP BY ALL ORDER BY ALL",
        params,
    )
    if df.is_empty():
        ui.empty_state("No games match.")
        return
    st.caption("This game's app part shows no end conditions of its own: completed games "
               "per player count.")
    ui.show_table(df, "end-conditions")


def duration(db: Path, f: Filters, include: bool) -> None:
    """Total minutes by player count from the shared games table."""
    where, params = f.where("g", "duration_evidence")
    human = "TRUE" if include else "(g.is_human AND NOT coalesce(g.illustrative, FALSE))"
    games = query(
        db,
        f"SELECT g.game_id, g.player_count, g.total_minutes FROM games g "
        f"WHERE {where} AND {human} AND g.total_minutes IS NOT NULL",
        params,
    )
    if games.is_empty():
        ui.empty_state("No timed game matches." + ("" if include else " Only human playtests "
                                                   "count here; tick **Include other "
                                                   "sessions** to see the others."))
        return
    ui.show_table(stats.summarise(games, ["player_count"], "total_minutes"),
                  "duration-summary")
