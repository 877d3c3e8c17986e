"""Core rules §1 Setup: seats and factions, the map check, printed starts, the already-earned
Mandate, Setup Collective Trust and first Initiative.

The printed starting Mandate equals the thresholds the printed starts already meet (Orisonix:
Trust 5 -> Trust 2 and 4 reached; Loopfold: Customer #1 gained). Those thresholds are marked
reached so that they never score again, and the printed Mandate enters the ledger once, as
source ``starting``.
"""

from __future__ import annotations

from typing import Any

from engine.core.findings import FindingSink
from engine.mandate2038.board import POSITIONS, Board, ring
from engine.mandate2038.content import Content
from engine.mandate2038.resources import score
from engine.mandate2038.rulings import RulingsError, load_rulings
from engine.mandate2038.state import GameState, SeatState


def build_state(header: Any, pack: Any, c: Content, sink: FindingSink) -> GameState:
    """The table after setup, with findings for anything setup forbids."""
    seats_info = sorted(header.seats, key=lambda x: x.seat)
    n = len(seats_info)
    numbers = [x.seat for x in seats_info]
    if numbers != list(range(1, n + 1)):
        sink.report("setup/seats", f"seats are numbered {numbers}; they must be 1..{n}",
                    expected=list(range(1, n + 1)), recorded=numbers)
    if not 3 <= n <= 5:
        sink.report("setup/player-count",
                    f"{n} players; the suggested player count is 3-5", recorded=n)
    if header.profile == "advanced":
        sink.report("setup/advanced-unchecked",
                    "Advanced Play: the supplement is not in the rulebook; its rules are not "
                    "checked (see the unchecked list)")
    elif header.secret_objectives or header.tactics:
        sink.report("setup/baseline-modules",
                    "Tactics or secret objectives were used; the baseline game deals neither")
    board = Board(header.map)
    _check_map(header.map, c, sink)
    seats: list[SeatState] = []
    seen: dict[str, int] = {}
    for i, info in enumerate(seats_info):
        no = i + 1
        fid = info.faction
        f = c.factions.get(fid)
        if f is None:
            sink.report("setup/unknown-faction",
                        f"seat {info.seat} plays {fid!r}, which is not a faction of the content "
                        f"pack ({', '.join(sorted(c.factions))})", seat=info.seat, recorded=fid)
        elif fid in seen:
            sink.report("setup/duplicate-faction",
                        f"seats {seen[fid]} and {info.seat} both play {f.name}", seat=info.seat,
                        recorded=fid)
        seen.setdefault(fid, info.seat)
        s = SeatState(seat=no, faction=fid)
        supply = getattr(pack, "player_supply", None)
        teams_total = getattr(supply, "teams", 3) if supply is not None else 3
        teams_start = getattr(supply, "teams_at_start", 1) if supply is not None else 1
        s.teams = ["F"] * teams_start
        s.teams_supply = teams_total - teams_start
        s.ceo = "F"
        if f is not None:
            st0 = f.starts
            s.runway, s.compute, s.capability = st0.runway, st0.compute, st0.capability
            s.customers, s.trust, s.protection = st0.customers, st0.trust, st0.research_protection
            s.bag = st0.scrutiny
        seats.append(s)
    st = GameState(header=header, pack=pack, c=c, board=board, seats=seats, n=n)
    book = load_rulings(getattr(header, "rules_version", "") or "0.8.0-rc.17-test")
    spec = getattr(header, "rulings", None)
    try:
        st.rulings = book.resolve(spec)
    except RulingsError as exc:
        sink.report("setup/rulings", f"the header's ruling set {spec!r} cannot be used: {exc}; "
                    "replayed under the default rulings", recorded=spec)
        st.rulings = book.defaults()
    st.profile = header.profile
    st.partial = header.detail == "partial"
    st.cubes_per_seat = c.audit.cubes_per_player
    st.systemic_risk_customers = getattr(c.audit, "systemic_risk_customers", 3)
    dossier = getattr(pack, "dossier", None)
    if dossier is not None:
        st.dossier_compute = dossier.compute_per_commit
        st.dossier_scrutiny = dossier.scrutiny_per_commit
    first = header.first_initiative or 1
    if first > n:
        sink.report("setup/first-initiative",
                    f"first Initiative is seat {first}, but only seats 1..{n} are at the table",
                    recorded=first)
        first = 1
    st.first_initiative = st.initiative = first
    st.initiative_known = header.first_initiative is not None
    st.deck = {card.id: card.copies for card in pack.training_deck}
    st.deck_left = sum(st.deck.values())
    for key in ("selections", "turns", "training_runs", "audits", "audit_draws", "dossiers",
                "production", "era_states", "era_mandates", "headlines", "claims"):
        st.rows[key] = []
    for s in seats:
        f = c.factions.get(s.faction)
        for t, _m in c.cap_thresholds:
            if s.capability >= t:
                s.capability_reached.add(t)
        for t, _m in c.trust_thresholds:
            if s.trust >= t:
                s.trust_reached.add(t)
        if f is not None:
            for t in getattr(f.starts, "scored_trust_thresholds", []) or []:
                s.trust_reached.add(t)
        s.customers_scored = s.customers
        if f is not None and f.starts.mandate:
            score(st, s, f.starts.mandate, "starting", f"{f.name} printed starting Mandate")
        st.last_checkpoint[s.seat] = {
            "mandate": s.mandate, "capability": s.capability, "trust": s.trust,
            "customers": s.customers,
        }
        st.cp_reached[s.seat] = (frozenset(s.capability_reached), frozenset(s.trust_reached),
                                 s.customers_scored)
    st.setup_trust = sum(s.trust for s in seats)
    return st


def _check_map(layout: dict[str, str] | None, c: Content, sink: FindingSink) -> None:
    """Frontier at the centre, the six operational tiles on the inner ring, the twelve public
    tiles on the outer ring, in the pool counts of the Map reference."""
    if not layout:
        return
    key = tuple(layout.items())
    if key in c.sound_maps:  # checked before with this content, without a finding
        return
    before = len(sink.findings)
    _map_problems(layout, c, sink)
    if len(sink.findings) == before:
        if len(c.sound_maps) >= MAPS_REMEMBERED:
            c.sound_maps.clear()
        c.sound_maps.add(key)


MAPS_REMEMBERED = 4096  # sound map layouts a Content remembers (a corpus of 1,000 games: 1,000)


def _map_problems(layout: dict[str, str], c: Content, sink: FindingSink) -> None:
    missing = [p for p in POSITIONS if p not in layout]
    if missing:
        sink.report("setup/invalid-map",
                    f"the map does not name a tile for {', '.join(missing)}", recorded=missing)
    used: dict[str, dict[str, int]] = {"center": {}, "inner": {}, "outer": {}}
    for pos, tid in layout.items():
        t = c.tiles.get(tid)
        if t is None:
            sink.report("setup/unknown-tile", f"the map puts {tid!r} on {pos}; no such tile",
                        recorded=tid)
            continue
        r = ring(pos)
        used[r][tid] = used[r].get(tid, 0) + 1
    for r in ("center", "inner", "outer"):
        for tid, k in sorted(used[r].items()):
            t = c.tiles[tid]
            allowed = getattr(t.pool, r)
            if k > allowed:
                sink.report("setup/invalid-map",
                            f"the {r} ring holds {k} {t.name} tile(s); its pool has {allowed}",
                            expected=allowed, recorded=k)
