"""Warehouse rows and snapshots of a replayed Vestige game (``Ruleset.records`` / ``snapshot``).

:func:`records` returns exactly the tables Vestige declares (``engine/vestige/warehouse.py``
``TABLES``, the one declaration the DDL, the polars schema and docs/warehouse.md also come from),
built from the engine's working rows (:func:`rows`): ``visits``, ``control`` (changes of region
control), ``endgame`` (conditions revealed, met, final round), ``mastery``, ``jobs``, ``cards``,
``activations``, ``moves``, ``triggers``, ``covert_ops``, ``nemesis``, ``seats`` (final state per
seat) and ``declared`` (the declared component values the checks of this game rested on, with
how often).
"""

from __future__ import annotations

from engine.vestige.content import CONTENT
from engine.vestige.state import GameState
from engine.vestige.warehouse import warehouse_rows

ROW_TABLES = ("visits", "control", "endgame", "mastery", "jobs", "cards", "activations", "moves",
          "triggers", "covert_ops", "nemesis", "seats", "declared")


def rows(st: GameState) -> dict[str, list[dict[str, object]]]:
    """The engine's working rows of a replayed game (the input of the warehouse tables)."""
    out: dict[str, list[dict[str, object]]] = {t: list(st.rows.get(t, [])) for t in ROW_TABLES}
    out["seats"] = [
        {"seat": s.seat, "colour": s.colour, "leverage": s.leverage, "speed": s.speed,
         "regions": len(s.regions), "cards": len(s.cards), "turns": s.turns}
        for s in st.seats.values()
    ]
    out["declared"] = [{"value": k, "checks": v, "note": CONTENT.declared_notes.get(k, "")}
                       for k, v in sorted(st.declared_used.items())]
    return out


def records(st: GameState) -> dict[str, list[dict[str, object]]]:
    """The rows of Vestige's declared warehouse tables (the ``vestige_*`` tables)."""
    return warehouse_rows(st, rows(st))


def snapshot(st: GameState) -> dict[str, object]:
    return {
        "round": st.round, "final_round": st.final_round, "phase": st.phase,
        "active": st.active,
        "map": dict(st.map), "face_up": sorted(st.face_up),
        "controller": {k: v for k, v in st.controller.items()},
        "endgame_active": list(st.endgame_active), "endgame_met": list(st.endgame_met),
        "seats": [
            {"seat": s.seat, "colour": s.colour, "space": s.space, "speed": s.speed,
             "leverage": s.leverage, "blocks": dict(s.blocks),
             "cards": {c.name: {"kind": c.kind, "blocks": c.blocks, "job": c.job}
                       for c in s.cards.values()},
             "regions": sorted(s.regions)}
            for s in st.seats.values()
        ],
        "nemeses": [{"name": n.name, "leverage": n.leverage, "threat": len(n.threats),
                     "regions": sorted(n.regions)} for n in st.nemeses.values()],
    }
