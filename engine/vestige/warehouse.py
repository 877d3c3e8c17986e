"""Vestige's own warehouse tables (docs/vestige.md "Warehouse"): rows built from a replayed
game's state and the engine's records. Pure: no I/O.

``vestige_games`` (mode, rounds, final round, conditions met, nemeses, result),
``vestige_seats`` (final leverage, speed, regions, cards, covert ops, winner),
``vestige_regions`` (per map position: visits, control changes, final controller, leverage paid
to the controller by visitors), ``vestige_control`` (every change of control),
``vestige_endgame`` (every condition revealed: when, whether and when met, whether it was one of
those that made the next round the final one), ``vestige_mastery`` (per colour and contender:
cards held, who claimed the tile; a tie leaves it unclaimed), ``vestige_jobs`` (pickup to
completion, the die face, severed) and ``vestige_nemesis``.

The ruleset's ``records()`` returns these rows next to the engine's own (the ingest layer stores
every table it knows). ``TABLES`` declares the columns (without ``game_id``): the warehouse
creates the tables from it (ingest.warehouse.migrations.migrate_declared). The toolkit's
migration 4 created them with exactly these columns before games declared their tables, so a
database migrated then holds them already; add a column here, never retype or reorder one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from engine.vestige.state import GameState

TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "vestige_games": (
        ("mode", "VARCHAR"), ("rounds", "INTEGER"), ("final_round", "INTEGER"),
        ("conditions_needed", "INTEGER"), ("conditions_met", "INTEGER"), ("nemeses", "INTEGER"),
        ("difficulty", "VARCHAR"), ("result", "VARCHAR"), ("everyone_lost", "BOOLEAN"),
        ("nemesis_won", "BOOLEAN"), ("declared_values", "VARCHAR[]"),
    ),
    "vestige_seats": (
        ("seat", "INTEGER"), ("colour", "VARCHAR"), ("team", "VARCHAR"),
        ("final_leverage", "INTEGER"), ("speed", "INTEGER"), ("regions_controlled", "INTEGER"),
        ("cards", "INTEGER"), ("covert_ops_completed", "INTEGER"), ("winner", "BOOLEAN"),
    ),
    "vestige_regions": (
        ("region", "VARCHAR"), ("position", "VARCHAR"), ("revealed_round", "INTEGER"),
        ("visits", "INTEGER"), ("visits_by_others", "INTEGER"), ("control_changes", "INTEGER"),
        ("controller_seat", "INTEGER"), ("controller_nemesis", "VARCHAR"),
        ("visit_leverage", "INTEGER"),
    ),
    "vestige_control": (
        ("event", "INTEGER"), ("round", "INTEGER"), ("region", "VARCHAR"), ("seat", "INTEGER"),
        ("nemesis", "VARCHAR"), ("previous_seat", "INTEGER"), ("previous_nemesis", "VARCHAR"),
        ("conviction", "INTEGER"), ("takeover", "BOOLEAN"),
    ),
    "vestige_endgame": (
        ("condition", "VARCHAR"), ("revealed_round", "INTEGER"), ("revealed_event", "INTEGER"),
        ("met", "BOOLEAN"), ("met_round", "INTEGER"), ("met_event", "INTEGER"),
        ("triggered_final", "BOOLEAN"),
    ),
    "vestige_mastery": (
        ("colour", "VARCHAR"), ("seat", "INTEGER"), ("team", "VARCHAR"), ("nemesis", "VARCHAR"),
        ("cards", "INTEGER"), ("claimed", "BOOLEAN"), ("leverage", "INTEGER"),
    ),
    "vestige_jobs": (
        ("seat", "INTEGER"), ("card", "VARCHAR"), ("kind", "VARCHAR"), ("character", "VARCHAR"),
        ("picked_round", "INTEGER"), ("picked_event", "INTEGER"), ("completed_round", "INTEGER"),
        ("completed_event", "INTEGER"), ("die", "VARCHAR"), ("severed", "BOOLEAN"),
        ("leverage", "INTEGER"),
    ),
    "vestige_nemesis": (
        ("nemesis", "VARCHAR"), ("difficulty", "VARCHAR"), ("team", "BOOLEAN"),
        ("final_threat", "INTEGER"), ("final_leverage", "INTEGER"),
        ("regions_controlled", "INTEGER"), ("goal_met", "BOOLEAN"), ("won", "BOOLEAN"),
    ),
}
MASTERY_COLOURS = ("ambition", "cunning", "might", "guile", "intrigue", "ingenuity", "chop_bot")


def _team_of(st: GameState) -> dict[int, str]:
    teams = st.header.teams or []
    return {seat: str(i) for i, members in enumerate(teams, start=1) for seat in members}


def _details(st: GameState) -> dict[str, Any]:
    return dict(st.outcome.details or {}) if st.outcome is not None else {}


def warehouse_rows(st: GameState, recs: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """Rows of every ``vestige_*`` table for the game replayed into ``st`` (``recs``: the
    engine's own record rows of that replay)."""
    h = st.header
    details = _details(st)
    team_of = _team_of(st)
    winners = [str(w) for w in (st.outcome.winners if st.outcome else [])]
    labels = [str(w) for w in details.get("winners", winners) or []]
    nemesis_names = set(st.nemeses)
    nemesis_won = any(w in nemesis_names for w in labels) or bool(details.get("nemesis_goal"))
    human_won = any(w.isdigit() for w in labels) or any(isinstance(w, int) for w in winners)
    ended = st.outcome is not None and st.outcome.complete

    needed = 3 if h.mode == "solo" else 2
    endgame = _endgame_rows(recs.get("endgame", []), needed)
    out: dict[str, list[dict[str, Any]]] = {}
    out["vestige_games"] = [{
        "mode": h.mode,
        "rounds": details.get("rounds", st.round or None),
        "final_round": st.final_round,
        "conditions_needed": needed,
        "conditions_met": len(st.endgame_met),
        "nemeses": len(h.nemeses),
        "difficulty": h.difficulty,
        "result": (st.outcome.ending or details.get("ending")) if ended and st.outcome else None,
        "everyone_lost": (not human_won) if ended else None,
        "nemesis_won": nemesis_won if ended else None,
        "declared_values": sorted(st.declared_used),
    }]

    covert_done: Counter[int] = Counter()
    for r in recs.get("covert_ops", []):
        if isinstance(r.get("seat"), int):
            covert_done[r["seat"]] += 1
    out["vestige_seats"] = [
        {"seat": s.seat, "colour": s.colour, "team": team_of.get(s.seat),
         "final_leverage": s.leverage, "speed": s.speed, "regions_controlled": len(s.regions),
         "cards": len(s.cards), "covert_ops_completed": covert_done[s.seat],
         "winner": (str(s.seat) in labels or s.seat in (st.outcome.winners if st.outcome else []))
         if ended else None}
        for s in st.seats.values()
    ]

    out["vestige_regions"] = _region_rows(st, recs)
    out["vestige_control"] = _control_rows(recs.get("control", []))
    out["vestige_endgame"] = endgame
    out["vestige_mastery"] = _mastery_rows(st, recs.get("mastery", []), team_of)
    card_leverage: Counter[tuple[int, str]] = Counter()
    for e in st.ledger:
        if e.source == "card" and e.detail:
            card_leverage[(e.seat, e.detail)] += e.amount
    out["vestige_jobs"] = _job_rows(recs.get("jobs", []), card_leverage)
    goal = details.get("nemesis_goal")
    out["vestige_nemesis"] = [
        {"nemesis": n.name, "difficulty": h.difficulty, "team": n.team,
         "final_threat": len(n.threats), "final_leverage": n.leverage,
         "regions_controlled": len(n.regions), "goal_met": goal == n.name if ended else None,
         "won": (n.name in labels or goal == n.name or (n.team and nemesis_won)) if ended else None}
        for n in st.nemeses.values()
    ]
    return out


def _endgame_rows(rows: list[dict[str, Any]], needed: int) -> list[dict[str, Any]]:
    by_card: dict[str, dict[str, Any]] = {}
    met_order: list[str] = []
    for r in rows:
        card = r.get("card")
        if not isinstance(card, str):
            continue
        row = by_card.setdefault(card, {
            "condition": card, "revealed_round": None, "revealed_event": None, "met": False,
            "met_round": None, "met_event": None, "triggered_final": False})
        change = r.get("change")
        if change == "revealed":
            row["revealed_round"] = r.get("round")
            row["revealed_event"] = r.get("event")
        elif change == "met" and not row["met"]:
            row["met"], row["met_round"], row["met_event"] = True, r.get("round"), r.get("event")
            met_order.append(card)
    for card in met_order[:needed]:
        if len(met_order) >= needed:
            by_card[card]["triggered_final"] = True
    return list(by_card.values())


def _region_rows(st: GameState, recs: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    visits: Counter[str] = Counter()
    by_others: Counter[str] = Counter()
    for r in recs.get("visits", []):
        pos = r.get("position")
        if isinstance(pos, str):
            visits[pos] += 1
            if r.get("controller") is not None and r.get("controller") != r.get("seat"):
                by_others[pos] += 1
    changes: Counter[str] = Counter()
    for r in recs.get("control", []):
        if r.get("change") in ("gained", "takeover") and isinstance(r.get("position"), str):
            changes[r["position"]] += 1
    paid: Counter[str] = Counter()
    for e in st.ledger:
        if e.source == "region_visit" and e.detail:
            paid[e.detail.split(" ", 1)[0]] += e.amount
    rows = []
    for pos in sorted(set(st.map) | set(visits) | set(changes)):
        owner = st.controller.get(pos)
        rows.append({
            "region": st.map.get(pos), "position": pos, "revealed_round": None,
            "visits": visits[pos], "visits_by_others": by_others[pos],
            "control_changes": changes[pos],
            "controller_seat": owner if isinstance(owner, int) else None,
            "controller_nemesis": owner if isinstance(owner, str) else None,
            "visit_leverage": paid[pos],
        })
    return rows


def _control_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    holder: dict[str, tuple[int | None, str | None]] = {}
    out = []
    for r in rows:
        if r.get("change") not in ("gained", "takeover"):
            continue
        pos = r.get("position")
        if not isinstance(pos, str):
            continue
        prev = holder.get(pos, (None, None))
        seat = r.get("seat") if isinstance(r.get("seat"), int) else None
        nem = r.get("nemesis") if isinstance(r.get("nemesis"), str) else None
        out.append({"event": r.get("event"), "round": r.get("round"), "region": r.get("region"),
                    "seat": seat, "nemesis": nem, "previous_seat": prev[0],
                    "previous_nemesis": prev[1], "conviction": r.get("cost"),
                    "takeover": r.get("change") == "takeover"})
        holder[pos] = (seat, nem)
    return out


def _mastery_rows(st: GameState, rows: list[dict[str, Any]],
                  team_of: dict[int, str]) -> list[dict[str, Any]]:
    claim: dict[str, tuple[str | None, int | None]] = {}
    for r in rows:
        if isinstance(r.get("colour"), str):
            claim[r["colour"]] = (r.get("claimant"), r.get("leverage"))
    counts: dict[tuple[int | None, str | None], Counter[str]] = defaultdict(Counter)
    for s in st.seats.values():
        for name in s.cards:
            p = st.printed.get(name)
            if p is not None and p.colour is not None:
                counts[(s.seat, None)][p.colour] += 1
    for n in st.nemeses.values():
        for name in n.cards:
            p = st.printed.get(name)
            if p is not None and p.colour is not None:
                counts[(None, n.name)][p.colour] += 1
    contenders = [(s.seat, None) for s in st.seats.values()] + [(None, n) for n in st.nemeses]
    out = []
    for colour in MASTERY_COLOURS:
        if colour not in claim and not any(counts[c][colour] for c in contenders):
            continue
        claimant, leverage = claim.get(colour, (None, None))
        for seat, nem in contenders:
            label = str(seat) if seat is not None else nem
            mine = claimant is not None and (claimant == label
                                             or (seat is not None and claimant == f"team:{team_of.get(seat)}"))
            out.append({"colour": colour, "seat": seat,
                        "team": team_of.get(seat) if seat is not None else None, "nemesis": nem,
                        "cards": counts[(seat, nem)][colour], "claimed": mine,
                        "leverage": leverage if mine else 0})
    return out


def _job_rows(rows: list[dict[str, Any]],
              gained: Counter[tuple[int, str]]) -> list[dict[str, Any]]:
    jobs: dict[tuple[Any, Any], dict[str, Any]] = {}
    for r in rows:
        key = (r.get("seat"), r.get("card"))
        if r.get("step") == "pickup":
            jobs[key] = {"seat": r.get("seat"), "card": r.get("card"), "kind": r.get("job"),
                         "character": r.get("assignee"), "picked_round": r.get("round"),
                         "picked_event": r.get("event"), "completed_round": None,
                         "completed_event": None, "die": None, "severed": False,
                         "leverage": None}
            continue
        job = jobs.setdefault(key, {
            "seat": r.get("seat"), "card": r.get("card"), "kind": r.get("job"),
            "character": r.get("assignee"), "picked_round": None, "picked_event": None,
            "completed_round": None, "completed_event": None, "die": None, "severed": False,
            "leverage": None})
        face = r.get("face")
        if face is not None:
            job["die"] = face
        if face == "sever" or r.get("step") == "sever":
            job["severed"] = True
        if r.get("step") == "complete":
            job["completed_round"] = r.get("round")
            job["completed_event"] = r.get("event")
            job["leverage"] = gained[(key[0], key[1])] if isinstance(key[0], int) and isinstance(key[1], str) else None
    return list(jobs.values())
