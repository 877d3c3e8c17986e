"""Analytics rows (docs/warehouse.md, without ``game_id``) and the JSON snapshot of the state
for the replay viewer and ``playtest replay --at``."""

from __future__ import annotations

from typing import Any

from engine.mandate2038.content import DOSSIER_CARDS
from engine.mandate2038.state import GameState
from engine.mandate2038.warehouse import TABLES

# The columns and tables come from Mandate 2038's one table declaration (warehouse.TABLES).
TUPLE_COLUMNS = {name: tuple(col for col, _type in TABLES[name]) for name in ("selections", "turns")}
RECORD_TABLES = tuple(name for name in TABLES if name not in ("seats", "outcomes"))


# The hot tables are kept as tuples during replay (speed) and named by these converters, which
# spell TUPLE_COLUMNS out (about twice as fast as ``dict(zip(cols, row, strict=True))``; a row
# of the wrong length still raises, as the strict zip did).
def _selection_row(r: tuple[Any, ...]) -> dict[str, Any]:
    era, cycle, seat, pick, kind = r
    return {"era": era, "cycle": cycle, "seat": seat, "pick": pick, "kind": kind}


def _turn_row(r: tuple[Any, ...]) -> dict[str, Any]:
    era, cycle, seat, action, piece, from_hex, to_hex, distance, tile, blocked, event = r
    return {"era": era, "cycle": cycle, "seat": seat, "action": action, "piece": piece,
            "from_hex": from_hex, "to_hex": to_hex, "distance": distance, "tile": tile,
            "blocked": blocked, "event": event}


_ROW_OF = {"selections": _selection_row, "turns": _turn_row}
for _k, _cols in TUPLE_COLUMNS.items():  # the converters name exactly TUPLE_COLUMNS, in order
    if tuple(_ROW_OF[_k](tuple(range(len(_cols))))) != _cols:  # pragma: no cover
        raise AssertionError(f"records converter for {_k!r} does not match TUPLE_COLUMNS")


def records(st: GameState) -> dict[str, list[dict[str, Any]]]:
    """The warehouse rows this replay produced (copies; the state is not shared)."""
    out: dict[str, list[dict[str, Any]]] = {}
    rows_of = st.rows
    for k in RECORD_TABLES:
        rows = rows_of.get(k, [])
        conv = _ROW_OF.get(k)
        out[k] = list(map(conv, rows)) if conv is not None else [r.copy() for r in rows]
    dossiers = []
    for s in st.seats:
        for era in sorted(s.dossier):
            card = DOSSIER_CARDS.get(era, str(era))
            orient = s.dossier[era]
            if orient is None and s.revealed_hand is not None:
                orient = s.revealed_hand.get(card)
            dossiers.append({"seat": s.seat, "era": era, "card": card, "orientation": orient})
        if s.revealed_hand is not None:
            for era, card in DOSSIER_CARDS.items():
                if era not in s.dossier:
                    dossiers.append({"seat": s.seat, "era": era, "card": card,
                                     "orientation": s.revealed_hand.get(card)})
    out["dossiers"] = dossiers
    return out


def snapshot(st: GameState) -> dict[str, Any]:
    """A JSON-able picture of the table now."""
    card = st.c.mandates.get(st.mandate_card) if st.mandate_card else None
    seats = []
    for s in st.seats:
        seats.append({
            "seat": s.seat, "faction": s.faction, "mandate": s.mandate, "runway": s.runway,
            "compute": s.compute, "capability": s.capability, "customers": s.customers,
            "trust": s.trust, "research_protection": s.protection, "scrutiny": s.bag,
            "ceo": s.ceo, "teams": list(s.teams), "teams_in_supply": s.teams_supply,
            "facilities": [
                {"number": f.number, "hex": f.hex, "tile": st.board.tile_at.get(f.hex) if f.hex else None,
                 "powered": f.powered, "mega_cluster": f.mega, "joint_ventures": list(f.jvs)}
                for f in sorted(s.facilities.values(), key=lambda f: f.number)
            ],
            "generator": ({"hex": s.generator, "kind": s.generator_kind}
                          if s.generator is not None else None),
            "exhausted": sorted(s.exhausted), "program_markers": s.markers,
            "programs_used": sorted(s.programs_used),
            "capability_thresholds": sorted(s.capability_reached),
            "trust_thresholds": sorted(s.trust_reached),
            "dossier_filed": {str(e): ("sealed" if o is None else o)
                              for e, o in sorted(s.dossier.items())},
        })
    return {
        "era": st.era, "cycle": st.cycle, "phase": st.phase, "initiative": st.initiative,
        "headline": st.headline,
        "era_mandate": ({"id": card.id, "name": card.name, "criterion": card.criterion,
                         "minimum": card.minimum} if card is not None else st.mandate_card),
        "seats": seats,
        "generator_slots": {h: [{"seat": seat, "kind": k} for seat, k in v]
                            for h, v in st.gen_slots.items()},
        "fusion": {"owner": st.fusion_owner, "hex": st.fusion_hex},
        "joint_ventures": [
            {"number": j.number, "id": j.uid, "a": [j.a_seat, j.a_facility],
             "b": [j.b_seat, j.b_facility], "active": j.active} for j in sorted(st.jvs.values(), key=lambda j: j.number)
        ],
        "mega_clusters": [
            {"number": m.number, "owner": m.owner, "hosts": list(m.hosts),
             "demand_met": m.demand_met} for m in sorted(st.megas.values(), key=lambda m: m.number)
        ],
        "bag": {**{str(s.seat): s.bag for s in st.seats}, "black": st.black},
        "systemic_risk": st.black,
        "training_deck_left": st.deck_left,
        "setup_collective_trust": st.setup_trust,
        "ended": st.ended,
    }
