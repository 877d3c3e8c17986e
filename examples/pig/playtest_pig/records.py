"""Pig's own warehouse tables, their rows, and the state snapshot (the replay viewer's picture).

``pig_games`` (target, end rule, rounds, turns, rolls, winning margin), ``pig_seats`` (final
score, turns, holds, pig-outs, rolls, best turn, winner) and ``pig_turns`` (every turn: its rolls,
how it ended, what it banked). ``TABLES`` declares the columns (``game_id`` is added by the
warehouse). Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from playtest_pig.state import GameState

TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "pig_games": (
        ("target", "INTEGER"), ("end_rule", "VARCHAR"), ("rounds", "INTEGER"),
        ("turns", "INTEGER"), ("rolls", "INTEGER"), ("pig_outs", "INTEGER"),
        ("margin", "INTEGER"),
    ),
    "pig_seats": (
        ("seat", "INTEGER"), ("final_score", "INTEGER"), ("turns", "INTEGER"),
        ("holds", "INTEGER"), ("pig_outs", "INTEGER"), ("rolls", "INTEGER"),
        ("best_turn", "INTEGER"), ("winner", "BOOLEAN"),
    ),
    "pig_turns": (
        ("turn", "INTEGER"), ("round", "INTEGER"), ("seat", "INTEGER"), ("rolls", "INTEGER"),
        ("faces", "INTEGER[]"), ("ended", "VARCHAR"), ("banked", "INTEGER"),
        ("score_after", "INTEGER"), ("event", "INTEGER"),
    ),
}


def records(st: GameState) -> dict[str, list[dict[str, Any]]]:
    """Rows of every table in :data:`TABLES` for the game replayed into ``st``."""
    turns = [
        {"turn": t.number, "round": t.round, "seat": t.seat, "rolls": len(t.rolls),
         "faces": list(t.rolls), "ended": t.ended, "banked": t.banked,
         "score_after": t.score_after if t.ended else None, "event": t.first_event}
        for t in st.turns
    ]
    seats = []
    for seat in st.seats:
        mine = [t for t in st.turns if t.seat == seat]
        seats.append({
            "seat": seat, "final_score": st.scores.get(seat, 0), "turns": len(mine),
            "holds": sum(t.ended == "hold" for t in mine),
            "pig_outs": sum(t.ended == "pig_out" for t in mine),
            "rolls": sum(len(t.rolls) for t in mine),
            "best_turn": max((t.banked for t in mine), default=0),
            "winner": (seat in st.winners) if st.over else None,
        })
    ranked = sorted(st.scores.values(), reverse=True)
    margin = ranked[0] - ranked[1] if st.over and len(ranked) > 1 else None
    games = [{
        "target": st.target, "end_rule": st.end_rule,
        "rounds": max((t.round for t in st.turns), default=0), "turns": len(st.turns),
        "rolls": sum(len(t.rolls) for t in st.turns),
        "pig_outs": sum(t.ended == "pig_out" for t in st.turns), "margin": margin,
    }]
    return {"pig_games": games, "pig_seats": seats, "pig_turns": turns}


def snapshot(st: GameState) -> dict[str, Any]:
    """The position as plain JSON: scores, the seat on turn, its turn total and rolls."""
    current = st.turns[-1] if st.turns and st.turns[-1].number == st.turn_no else None
    return {
        "round": st.round, "turn": st.turn_no, "active": st.active,
        "turn_total": st.turn_total, "rolls_this_turn": list(current.rolls) if current else [],
        "target": st.target, "end_rule": st.end_rule,
        "scores": {str(k): v for k, v in sorted(st.scores.items())},
        "over": st.over, "winners": list(st.winners),
    }
