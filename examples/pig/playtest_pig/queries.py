"""Queries of the Pig page: parameterised SQL over the warehouse, returning polars frames.

Every query is scoped to Pig's games (``games.game = ?``) and carries each game's *kind*
(simulated, human playtest, illustrative walkthrough), so the page shows the kinds apart and
never pools them.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from dashboards import store
from playtest_pig.schema import GAME_ID

#: the kind of a game, as the page shows them apart (never pooled)
KIND = ("CASE WHEN g.illustrative THEN 'Illustrative walkthrough' "
        "WHEN g.session_type = 'simulation' THEN 'Simulated' "
        "WHEN g.is_human THEN 'Human playtest' ELSE 'Walkthrough' END")


def turns(db: Path) -> pl.DataFrame:
    """Every turn of every Pig game: its rolls, how it ended, what it banked, the game's kind."""
    return store.query(db, f"""
        SELECT t.game_id, {KIND} AS kind, t.turn, t.seat, t.rolls, t.ended, t.banked
        FROM pig_turns t JOIN games g USING (game_id)
        WHERE g.game = ? AND t.ended IN ('hold', 'pig_out')
        ORDER BY t.game_id, t.turn""", [GAME_ID])


def faces(db: Path) -> pl.DataFrame:
    """How often each face was rolled, per kind of game (the die is not checked by the rules:
    the numbers recorded are taken as rolled)."""
    return store.query(db, f"""
        WITH rolls AS (
            SELECT {KIND} AS kind, unnest(t.faces) AS face
            FROM pig_turns t JOIN games g USING (game_id) WHERE g.game = ?)
        SELECT kind, face, count(*)::INTEGER AS rolls FROM rolls
        GROUP BY kind, face ORDER BY kind, face""", [GAME_ID])


def seats(db: Path) -> pl.DataFrame:
    """Every seat of every complete Pig game: its place in the turn order (1 = first player),
    the player (a bot's name for simulated games), and whether it won."""
    return store.query(db, f"""
        WITH first AS (SELECT game_id, seat AS first_seat FROM pig_turns WHERE turn = 1)
        SELECT s.game_id, {KIND} AS kind, s.seat, g.player_count,
               ((s.seat - f.first_seat + g.player_count) % g.player_count) + 1 AS order_no,
               st.player, s.final_score, s.winner
        FROM pig_seats s JOIN games g USING (game_id) JOIN first f USING (game_id)
        LEFT JOIN seats st ON st.game_id = s.game_id AND st.seat = s.seat
        WHERE g.game = ? AND s.winner IS NOT NULL
        ORDER BY s.game_id, s.seat""", [GAME_ID])
