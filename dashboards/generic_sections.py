"""The sections a game gets on the shared pages when the app has none of its own
(:data:`dashboards.gameapps.SECTIONS_MODULE`): they read only the shared tables (``games``,
``ledger``, ``outcomes``, ``phases``) and word them by the game's declared vocabulary (score
sources, end conditions, timed phases). ``f`` is always restricted to one game."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import gameapps, queries, stats, ui
from dashboards.queries import KIND_SQL, Filters
from dashboards.store import query


def _game(f: Filters) -> gameapps.GameApp:
    return gameapps.app(f.games[0])


def _one_kind(df: pl.DataFrame, sizes: dict[str, str]) -> tuple[str, pl.DataFrame]:
    """One kind of game (``sizes``: each kind present and how much of it there is, in words)."""
    kind = ui.pick_kind(sizes, "gen_kind")
    return kind, df.filter(pl.col("kind") == kind).drop("kind")


def seat_games(db: Path, f: Filters) -> pl.DataFrame:
    """Games and seat-games per kind of the matching games (every seat, scored or not)."""
    where, params = f.where()
    return query(db, f"SELECT {KIND_SQL} AS kind, count(*) AS games, "
                 "CAST(sum(g.player_count) AS BIGINT) AS seat_games FROM games g "
                 f"WHERE {where} GROUP BY ALL", params)


def scoring(db: Path, f: Filters) -> None:
    """Points per seat-game by the game's declared score sources, one kind of game at a time."""
    ga = _game(f)
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
        ui.empty_state(f"No score ledger for the matching {ga.title} games.")
        return
    sizes = {r["kind"]: int(r["seat_games"]) for r in seat_games(db, f).iter_rows(named=True)}
    kind, part = _one_kind(df, {k: ui.plural(n, "seat-game") for k, n in sizes.items()
                                if k in set(df["kind"])})
    # the mean is over every seat-game of the kind: a seat that never scored from a source
    # (or at all) counts as 0 there, not as missing
    part = part.with_columns(
        pl.col("source").map_elements(lambda s: ga.label("score_sources", s),
                                      return_dtype=pl.Utf8).alias("Score source"),
        (pl.col("points") / sizes[kind]).round(2).alias("Points per seat-game"),
        pl.col("points").alias("Points"),
        pl.col("seat_games").alias("Seat-games that scored from it"),
    ).select("Score source", "Points per seat-game", "Points", "Seat-games that scored from it")
    ui.show_table(part, "scoring-sources")


def endings(db: Path, f: Filters) -> None:
    """How complete games ended, by the game's declared end conditions."""
    ga = _game(f)
    where, params = f.where()
    df = query(
        db,
        f"SELECT {KIND_SQL} AS kind, o.ending, g.player_count, count(*) AS games "
        f"FROM outcomes o JOIN games g USING (game_id) WHERE {where} AND o.complete "
        "GROUP BY ALL ORDER BY ALL",
        params,
    )
    if df.is_empty():
        ui.empty_state(f"No complete {ga.title} game matches.")
        return
    sizes = df.group_by("kind").agg(pl.col("games").sum())
    _kind, part = _one_kind(df, {r["kind"]: ui.plural(int(r["games"]), "complete game")
                                 for r in sizes.iter_rows(named=True)})
    part = part.with_columns(pl.col("ending").map_elements(
        lambda e: ga.label("end_conditions", e), return_dtype=pl.Utf8).alias("end_condition"),
        (pl.col("games") / pl.col("games").sum().over("player_count")).round(3)
        .alias("share")).select("end_condition", "player_count", "games", "share")
    ui.show_table(part, "end-conditions")


def duration(db: Path, f: Filters, include: bool) -> None:
    """Total minutes by player count, and the game's declared timed phases."""
    ga = _game(f)
    # summarised in SQL (the same figures as stats.summarise on every game's minutes)
    games = queries.duration_moments(db, f, include)
    if games.is_empty():
        ui.empty_state(f"No timed {ga.title} game matches." + (
            "" if include else " Only human playtests count here; tick **Include other "
            "sessions** to see the others."))
        return
    ui.show_table(stats.summary_from_moments(games, ["player_count"]), "duration-summary")
    phases = tuple(ga.declaration.timed_phases) if ga.declaration is not None else ()
    if not phases:
        return
    st.subheader("Per phase")
    per = queries.phase_moments(db, f, include).filter(pl.col("phase").is_in(phases))
    if per.is_empty():
        ui.empty_state("No phase times recorded in the matching games.")
        return
    summary = stats.summary_from_moments(per, ["phase", "player_count"]).with_columns(
        pl.col("phase").map_elements(lambda p: ga.label("phases", p), return_dtype=pl.Utf8))
    ui.show_table(summary, "duration-phases")
