"""Core rules §6 Era sequence: A. Begin the quarter, C. Power and Production (Generate,
Trade [skipped in Default], Allocate, Produce, Partner), D. File the Era Dossier (and the Era IV
reveal of §5), E. Public Audit, F. Score the Mandate. (B, the three action cycles, is
``cycles`` with ``headlines``, ``eligibility``, ``before_selection``, ``trade`` and ``turns``.)

Production resolves once per Era: when every seat has allocated, or when the next event that is
not part of Production arrives. A full log whose Era reaches the Dossier or Audit with no
Production recorded still gets its Production (Customers pay Runway), with a warning for each
seat with Facilities and no allocation; a partial log does not (the engine does not know).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.findings import FindingSink
from engine.mandate2038.codes import CRITERION_READS, ERA_VALUES
from engine.mandate2038.content import DOSSIER_CARDS
from engine.mandate2038.cycles import close_cycle
from engine.mandate2038.hex_board import (
    adjacent_hexes,
    allocation_problem,
    categories_by_seat,
    mega_grid_decides,
    near,
)
from engine.mandate2038.initiative import initiative_for
from engine.mandate2038.resources import (
    add_scrutiny,
    gain,
    lose_runway_else_trust,
    remove_scrutiny,
    score,
)
from engine.mandate2038.rulings import option, used
from engine.mandate2038.state import EraCounters, Facility, GameState, SeatState
from engine.mandate2038.trace import set_cause
from schemas.mandate2038 import (
    Allocate,
    Audit,
    DossierFile,
    DossierReveal,
    EraMandate,
    EraStart,
    WorkforceMove,
)

# --- A. Begin the quarter ------------------------------------------------------------------


def on_era_start(st: GameState, ev: EraStart, sink: FindingSink) -> None:
    """§6A: advance the Era, reveal its Mandate, ready all Core Actions, make the Era's Program
    markers available, refresh Research Protection, zero the this-Era values."""
    if st.era >= 1:
        ensure_production(st, sink)
        ensure_production_closed(st, sink)
        close_cycle(st, sink)
        end_era(st, sink)
    sink.resolve(None, ERA_VALUES)  # a new Era: what each seat did in the last one is played past
    expected = st.era + 1
    if ev.era != expected and not (st.partial and ev.era > st.era):
        sink.report("era/out-of-order", f"Era {ev.era} began after Era {st.era}",
                    expected=expected, recorded=ev.era)
    st.era = ev.era
    sink.era = st.era
    sink.cycle = None
    st.cycle = 0
    st.phase = "era_start"
    st.initiative = initiative_for(st, st.era, 1)
    st.revealed = False
    st.selections, st.to_resolve, st.resolved = {}, [], set()
    st.headline = None
    st.production_headline = None
    st.production_started = st.production_done = False
    st.audit_done = st.era_mandate_done = st.era_closed = False
    st.audit_missing_reported = False
    st.audit_missing_finding = None
    st.dossier_missing_findings = {}
    st.allocations = {}
    st.mandate_card = ev.mandate
    if ev.mandate is not None:
        card = st.c.mandates.get(ev.mandate)
        if card is None or card.era != st.era:
            sink.report("era/unknown-mandate",
                        f"the Era Mandate {ev.mandate!r} is "
                        + ("not a known card" if card is None else f"from Era {card.era}'s deck")
                        + f", revealed in Era {st.era}", recorded=ev.mandate)
            if card is None:
                st.mandate_card = None
    for s in st.seats:
        s.exhausted.clear()
        s.actions_this_era = 0
        s.markers = st.c.markers(st.era)
        s.era = EraCounters()
        f = st.c.factions.get(s.faction)
        s.protection = min(st.c.cap_protection, f.starts.research_protection if f else 1)


def end_era(st: GameState, sink: FindingSink) -> None:
    """Close the Era: score its Mandate if the full log did not, and record Era-end values."""
    if st.era_closed or st.era == 0:
        return
    if not st.partial:
        missing = []
        if st.cycle < 3:
            missing.append(f"{3 - st.cycle} cycle(s)")
        if not st.production_done:
            missing.append("Production")
        report_missing_audit(st, sink)
        if not st.era_mandate_done:
            missing.append("the Era Mandate")
        if missing:
            sink.report("era/incomplete",
                        f"Era {st.era} ended without {', '.join(missing)} recorded")
        if not st.era_mandate_done and st.mandate_card is not None:
            score_era_mandate(st, None, sink)
    st.era_closed = True
    for s in st.seats:
        st.rows["era_states"].append({
            "era": st.era, "seat": s.seat, "mandate": s.mandate, "runway": s.runway,
            "compute": s.compute, "capability": s.capability, "customers": s.customers,
            "trust": s.trust, "scrutiny": s.bag,
        })


def _withdraw(sink: FindingSink, finding: object) -> None:
    """Take back a warning given before the log showed what really happened."""
    if finding is None:
        return
    for i, f in enumerate(sink.findings):
        if f is finding:
            del sink.findings[i]
            return


def report_missing_audit(st: GameState, sink: FindingSink) -> None:
    """Full logs: the Era's Audit (E) must come before its Mandate scoring (F) and its end;
    reported once per Era."""
    if st.audit_done or st.partial or st.audit_missing_reported or st.era == 0:
        return
    st.audit_missing_reported = True
    st.audit_missing_finding = sink.report("audit/missing", f"Era {st.era} reached "
                + ("the Era Mandate scoring" if not st.era_closed else "its end")
                + " without its Audit")


# --- C. Power and Production -------------------------------------------------------------


def ensure_production(st: GameState, sink: FindingSink) -> None:
    """In a full log, run this Era's Production if it was never recorded."""
    if st.production_done or st.production_started or st.partial or st.era == 0:
        return
    start_production(st, sink, quiet=True)
    resolve_production(st, sink)


def ensure_production_closed(st: GameState, sink: FindingSink) -> None:
    """Resolve a Production whose allocations are in (a non-Production event arrived)."""
    if st.production_started and not st.production_done:
        resolve_production(st, sink)


def start_production(st: GameState, sink: FindingSink, *, quiet: bool = False) -> None:
    """Begin §6C: the three cycles are over (``quiet``: the engine runs a Production the log
    did not record; the missing cycles are reported once, as era/incomplete)."""
    if st.production_started:
        return
    close_cycle(st, sink)
    if st.cycle < 3 and not st.partial and not quiet:
        sink.report("turn/wrong-phase",
                    f"Production began after cycle {st.cycle} of Era {st.era}; it follows the "
                    "three action cycles", expected=3, recorded=st.cycle)
    st.production_started = True
    st.phase = "production"
    st.allocations = {}
    for s in st.seats:
        s.allocated = False
        s.emergency_power = 0


def on_allocate(st: GameState, ev: Allocate, sink: FindingSink) -> None:
    """§6C.3 Allocate: the seat's complete allocation, checked against its local sources."""
    # each field read once (a pydantic attribute costs several plain ones)
    seat, emergency, mega_clusters = ev.seat, ev.emergency, ev.mega_clusters
    reported = len(sink.findings)
    if st.production_done:
        if seat in st.allocations:
            sink.report("production/twice", f"seat {seat} allocated twice this Production",
                        seat=seat)
            return
        sink.report("turn/wrong-phase",
                    f"seat {seat}'s allocation came after this Era's Production resolved",
                    seat=seat)
        return
    start_production(st, sink)
    s = st.seats[seat - 1]
    if seat in st.allocations:
        sink.report("production/twice", f"seat {seat} allocated twice this Production",
                    seat=seat)
        return
    facs = list(dict.fromkeys(ev.facilities))
    if emergency and st.production_headline != "emergency_power_authority":
        sink.report("production/emergency-power",
                    f"seat {seat} assigned {emergency} emergency Power, but The "
                    "Counterfactual Casino Clears Priority Load is not in force this Era",
                    seat=seat, recorded=emergency)
    for num in mega_clusters:
        m = st.megas.get(num)
        if m is None or m.owner != s.seat:
            sink.report("production/mega-cluster-demand",
                        f"seat {seat} satisfied Mega-Cluster {num}, which it does not own",
                        seat=seat, recorded=num, reads=("facilities",) if m is None else ())
            continue
        fa, fb = s.facilities.get(m.hosts[0]), s.facilities.get(m.hosts[1])
        if m.hosts[0] not in facs or m.hosts[1] not in facs:
            sink.report("production/mega-cluster-demand",
                        f"seat {seat} satisfied Mega-Cluster {num}'s demand without powering "
                        f"both hosts (Facilities {m.hosts[0]} and {m.hosts[1]})", seat=seat)
        elif fa is None or fb is None or not adjacent_hexes(fa.hex, fb.hex):
            sink.report("production/mega-cluster-demand",
                        f"Mega-Cluster {num}'s hosts are no longer adjacent; it cannot operate",
                        seat=seat)
    megas = [n for n in mega_clusters if n in st.megas and st.megas[n].owner == s.seat]
    problem = allocation_problem(st, s, facs, megas, emergency)
    if problem is not None:
        tag = mega_grid_decides(st, s, facs, megas, emergency, problem)
        sink.report(problem[0], f"seat {seat}'s allocation: {problem[1]}", seat=seat,
                    recorded={"facilities": facs, "mega_clusters": megas,
                              "emergency": emergency}, rulings=(tag,) if tag else ())
    st.allocations[seat] = (facs, megas, emergency)
    s.allocated = True
    if len(sink.findings) == reported:  # the table's record of which Facilities it powers
        sink.resolve(seat, ("power",))
    elif sink.last_cause is not None and any(
            f.severity == "info" for f in sink.findings[reported:]):
        # an allocation the engine could not follow because of a slip (a Facility it never saw
        # built): what this Production gives the seat is in doubt because of that slip
        sink.doubt(seat, ("power",), sink.last_cause)
    if len(st.allocations) == st.n:
        resolve_production(st, sink)


def _produce(st: GameState, s: SeatState, f: Facility, counted: bool) -> None:
    tid = st.board.tile_at.get(f.hex) if f.hex else None
    prod = st.c.production.get(tid) if tid else None  # the tile's printed production
    if prod is None:
        return
    runway, compute, trust, removed, team_move = prod
    gain(st, s, "runway", runway)
    gain(st, s, "compute", compute)
    gain(st, s, "trust", trust)
    remove_scrutiny(st, s, removed)
    if counted:
        s.era.compute_produced += compute
    if team_move:
        # the printed production is "move one Team one hex", also when a Headline or Orbital
        # Compute resolves this Facility's production once (§9; the designers' executable)
        st.workforce_left[s.seat] = st.workforce_left.get(s.seat, 0) + team_move


def produce_one_facility(st: GameState, s: SeatState, f: Facility, sink: FindingSink) -> None:
    """Resolve one Facility's printed production outside Production (Headline, Orbital
    Compute): only that Facility, not counted as Production output."""
    _produce(st, s, f, counted=False)


def resolve_production(st: GameState, sink: FindingSink) -> None:
    """Run the five Production boxes for every seat (Trade is skipped in the Default Game)."""
    if st.production_done:
        return
    st.production_done = True
    if st.allocations or not st.partial:
        st.power_known_era = st.era
    order = st.initiative_order()
    st.workforce_left = {}
    # 1. Generate
    set_cause(st, "generate")
    for seat in order:
        s = st.seats[seat - 1]
        if s.generator_kind is not None:
            con = st.c.contracts.get(s.generator_kind)
            if con is not None and con.scrutiny_per_production:
                gh = s.generator
                operates = any(f.hex is not None and gh is not None and near(gh, f.hex)
                               for no, f in s.facilities.items() if no != 1) or (
                    1 in s.facilities and s.facilities[1].hex is not None and gh is not None
                    and near(gh, s.facilities[1].hex))
                if not operates:
                    # ruling emergency-power-scrutiny: every Production, or while it operates
                    used(st, "emergency-power-scrutiny", s.seat)
                    if option(st, "emergency-power-scrutiny") == "while-operating":
                        continue
                add_scrutiny(st, s, con.scrutiny_per_production)
    # 3. Allocate (remove the previous snapshot, place the new one)
    set_cause(st, "production")
    st.ruled_power.clear()
    for seat in order:
        s = st.seats[seat - 1]
        alloc = st.allocations.get(seat)
        for f in s.facilities.values():
            f.powered = False
        if alloc is None:
            if s.facilities and not st.partial:
                sink.report("production/missing-allocation",
                            f"seat {seat} has {len(s.facilities)} Facilities but recorded no "
                            "allocation; nothing of theirs is powered", seat=seat)
            facs, megas, emergency = list[int](), list[int](), 0
        else:
            facs, megas, emergency = alloc
        for no in facs:
            pf = s.facilities.get(no)
            if pf is not None:
                pf.powered = True
        for m in st.megas.values():
            if m.owner == seat:
                m.demand_met = m.number in megas and all(
                    s.facilities.get(h) is not None and s.facilities[h].powered for h in m.hosts)
        if emergency:
            s.emergency_power = emergency
            add_scrutiny(st, s, emergency)
            if emergency >= 2:
                st.black += 1
        powered = s.powered_count()
        s.era.powered_facilities = powered
        s.era.demand_satisfied = powered + 2 * sum(
            1 for m in st.megas.values() if m.owner == seat and m.demand_met)
    # 4. Produce: powered Facilities, Customers, active Mega-Clusters
    set_cause(st, "produce")
    rows = st.rows["production"]
    before = {s.seat: (s.runway, s.compute) for s in st.seats}
    for seat in order:
        s = st.seats[seat - 1]
        for no in sorted(s.facilities):
            f = s.facilities[no]
            if f.powered:
                _produce(st, s, f, counted=True)
        set_cause(st, "customers")  # one Runway per Customer: not from its Facilities
        gain(st, s, "runway", s.customers)
        set_cause(st, "produce")
        for m in st.megas.values():
            if m.owner == seat and m.demand_met:
                fa, fb = s.facilities.get(m.hosts[0]), s.facilities.get(m.hosts[1])
                if fa is not None and fb is not None and adjacent_hexes(fa.hex, fb.hex):
                    gain(st, s, "compute", 3)
                    s.era.compute_produced += 3
    # 5. Partner: active Joint Ventures in ascending contract order
    set_cause(st, "partner")
    for num in sorted(st.jvs):
        jv = st.jvs[num]
        a, b = st.seats[jv.a_seat - 1], st.seats[jv.b_seat - 1]
        fa, fb = a.facilities.get(jv.a_facility), b.facilities.get(jv.b_facility)
        jv.active = bool(fa and fb and fa.powered and fb.powered and (
            adjacent_hexes(fa.hex, fb.hex) if jv.reach == 1 else near(fa.hex, fb.hex, jv.reach)))
        if not jv.active:
            continue
        assert fa is not None and fb is not None
        for side, other in ((a, fb), (b, fa)):
            tid = st.board.tile_at.get(other.hex) if other.hex else None
            tile = st.c.tiles.get(tid) if tid else None
            if tile is not None and tile.contract_icon:
                gain(st, side, tile.contract_icon, 1)
                if tile.contract_icon == "compute":
                    side.era.compute_produced += 1
    set_cause(st, None)
    for seat in order:
        s = st.seats[seat - 1]
        r0, c0 = before[seat]
        rows.append({
            "era": st.era, "seat": seat, "facilities_built": len(s.facilities),
            "facilities_powered": s.powered_count(), "demand_satisfied": s.era.demand_satisfied,
            "compute_produced": s.era.compute_produced, "runway_produced": s.runway - r0,
        })


def on_workforce_move(st: GameState, ev: WorkforceMove, sink: FindingSink) -> None:
    """Workforce Transition District production: move one Team one hex."""
    ensure_production_closed(st, sink)
    s = st.seats[ev.seat - 1]
    f = s.facilities.get(ev.facility)
    tid = st.board.tile_at.get(f.hex) if f is not None and f.hex else None
    problem = None
    if f is None or not f.powered:
        problem = f"Facility {ev.facility} is not a powered Facility"
    elif st.board.known and tid != "talent":
        problem = f"Facility {ev.facility} is not on a Workforce Transition District"
    elif st.workforce_left.get(s.seat, 0) <= 0 and st.board.known:
        problem = "no Workforce Transition District move is left this Production"
    elif ev.path[0] not in s.teams:
        problem = f"seat {s.seat} has no Team on {ev.path[0]}"
    elif not adjacent_hexes(ev.path[0], ev.path[1]):
        problem = f"{ev.path[0]} and {ev.path[1]} are not adjacent"
    if problem is not None:
        sink.report("production/workforce-invalid", f"workforce move: {problem}", seat=s.seat)
    st.workforce_left[s.seat] = st.workforce_left.get(s.seat, 0) - 1
    if ev.path[0] in s.teams:
        s.teams[s.teams.index(ev.path[0])] = ev.path[1]


# --- D. Dossier -----------------------------------------------------------------------------


def on_dossier(st: GameState, ev: DossierFile, sink: FindingSink) -> None:
    """§6D: the seat files this Era's Dossier card (orientation may be sealed: None)."""
    ensure_production(st, sink)
    ensure_production_closed(st, sink)
    s = st.seats[ev.seat - 1]
    if st.audit_done and not st.partial:
        # §6 D before E: the Audit's ``dossier/missing`` warning for this seat is withdrawn;
        # the late filing is the one finding, and the card is still filed
        _withdraw(sink, st.dossier_missing_findings.pop(s.seat, None))
        sink.report("dossier/after-audit",
                    f"seat {s.seat} filed its Era {st.era} Dossier after the Audit; the Dossier "
                    "is filed before the Audit (§6 D, E)", seat=s.seat)
    else:
        st.phase = "dossier"
    if st.era in s.dossier:
        sink.report("dossier/filed-twice",
                    f"seat {s.seat} filed a second Dossier card in Era {st.era}", seat=s.seat)
        return
    s.dossier[st.era] = ev.orientation


def on_dossier_reveal(st: GameState, ev: DossierReveal, sink: FindingSink) -> None:
    """§5 Era IV: reveal every Dossier; pay 1 Compute and add 1 Scrutiny per Commit."""
    ensure_production(st, sink)
    ensure_production_closed(st, sink)
    st.phase = "dossier"
    if st.era != 4:
        sink.report("dossier/reveal-early",
                    f"Dossiers were revealed in Era {st.era}; they are revealed in Era IV")
    if st.dossier_revealed:
        sink.report("dossier/reveal-early", "Dossiers were revealed a second time")
        return
    seen: set[int] = set()
    for hand in ev.hands:
        if not 1 <= hand.seat <= st.n or hand.seat in seen:
            sink.report("log/seat-out-of-range" if hand.seat not in seen else "dossier/filed-twice",
                        f"the Dossier reveal lists seat {hand.seat} twice or out of range",
                        seat=hand.seat)
            continue
        seen.add(hand.seat)
        s = st.seats[hand.seat - 1]
        got = {"benchmark": hand.benchmark, "deployment": hand.deployment,
               "authority": hand.authority, "publication": hand.publication}
        for era, card in DOSSIER_CARDS.items():
            filed = s.dossier.get(era)
            if filed is not None and filed != got[card]:
                sink.report("dossier/reveal-mismatch",
                            f"seat {s.seat}'s {card} Dossier was filed {filed} in Era {era} but "
                            f"revealed {got[card]}", seat=s.seat, expected=filed,
                            recorded=got[card])
        _reveal_hand(st, s, got)
    if not st.partial:
        for s in st.seats:
            if s.seat not in seen:
                sink.report("dossier/missing",
                            f"seat {s.seat}'s Dossier was not revealed in Era IV", seat=s.seat)
    st.dossier_revealed = True


def _reveal_hand(st: GameState, s: SeatState, got: Mapping[str, str]) -> None:
    s.revealed_hand = dict(got)
    commits = sum(1 for v in got.values() if v == "commit")
    cost = commits * st.dossier_compute
    if s.temp_compute:  # temporary Compute pays first (§9 Allocation Window; resources.pay)
        s.temp_compute -= min(s.temp_compute, cost, s.compute)
    if s.compute >= cost:
        s.compute -= cost
        s.dossier_paid = True
    else:
        s.compute = 0
        s.dossier_paid = False
    add_scrutiny(st, s, commits * st.dossier_scrutiny)


# --- E. Public Audit --------------------------------------------------------------------------


def on_audit(st: GameState, ev: Audit, sink: FindingSink) -> None:
    """§6E: draw the Era's number of cubes (or until the bag is empty); each coloured cube
    costs its owner 1 Runway, else 1 Trust; a black cube gives that penalty to every player
    with >= 3 Customers. Drawn cubes leave the bag."""
    ensure_production(st, sink)
    ensure_production_closed(st, sink)
    if st.audit_done:
        sink.report("turn/wrong-phase", f"a second Audit was recorded in Era {st.era}")
        return
    if (st.era_mandate_done or st.audit_missing_reported) and not st.partial:
        # §6 E before F: the ``audit/missing`` warning given at the scoring is withdrawn; the
        # late Audit is the one finding, and its draws are still applied
        _withdraw(sink, st.audit_missing_finding)
        st.audit_missing_finding = None
        sink.report("audit/after-scoring",
                    f"the Era {st.era} Audit was recorded after the Era Mandate scoring; the "
                    "Audit comes before the Mandate is scored (§6 E, F)")
    st.phase = "audit"
    if not st.partial:
        for s in st.seats:
            if st.era not in s.dossier:
                st.dossier_missing_findings[s.seat] = sink.report("dossier/missing",
                            f"seat {s.seat} filed no Dossier card in Era {st.era}", seat=s.seat)
    if st.era == 4 and not st.dossier_revealed:
        if all(all(s.dossier.get(e) is not None for e in DOSSIER_CARDS) for s in st.seats):
            for s in st.seats:
                _reveal_hand(st, s, {DOSSIER_CARDS[e]: str(s.dossier[e]) for e in DOSSIER_CARDS})
            st.dossier_revealed = True
        if not st.partial:
            sink.report("era/incomplete",
                        "the Era IV Audit was recorded without the Dossier reveal before it")
    bag_before = sum(s.bag for s in st.seats) + st.black
    expected = min(st.c.audit_draws(st.era, st.n), bag_before)
    if len(ev.draws) != expected and not st.partial:
        # a bag that held fewer cubes than the Audit draws decides the count: a line that could
        # not be read (its Scrutiny lost) explains a count that differs then, and only then
        limited = bag_before < st.c.audit_draws(st.era, st.n)
        sink.report("audit/wrong-draw-count",
                    f"the Era {st.era} Audit drew {len(ev.draws)} cubes; with {st.n} players it "
                    f"draws {st.c.audit_draws(st.era, st.n)} (bag held {bag_before})",
                    expected=expected, recorded=len(ev.draws),
                    reads=("scrutiny", "table:bag") if limited else ())
    drawn = {s.seat: 0 for s in st.seats}
    lost = {s.seat: [0, 0] for s in st.seats}
    blacks = 0
    bag_known = not st.partial or st.bag_synced
    for d in ev.draws:
        if d == "black":
            if st.black <= 0 and bag_known:
                sink.report("audit/cube-not-in-bag",
                            "a black Systemic Risk cube was drawn, but none was in the bag",
                            recorded="black")
            st.black = max(0, st.black - 1)
            blacks += 1
            for s in st.seats:
                if s.customers >= st.systemic_risk_customers:
                    _penalty(st, s, lost)
            continue
        if not 1 <= d <= st.n:
            sink.report("log/seat-out-of-range", f"the Audit drew a cube of seat {d}",
                        recorded=d)
            continue
        s = st.seats[d - 1]
        if s.bag <= 0 and bag_known:
            sink.report("audit/cube-not-in-bag",
                        f"a cube of seat {d} was drawn, but none of its cubes was in the bag",
                        seat=d, recorded=d)
        s.bag = max(0, s.bag - 1)
        drawn[d] += 1
        _penalty(st, s, lost)
    for s in st.seats:
        st.rows["audits"].append({
            "era": st.era, "seat": s.seat, "cubes_drawn": drawn[s.seat],
            "runway_lost": lost[s.seat][0], "trust_lost": lost[s.seat][1],
        })
    st.rows["audit_draws"].append({
        "era": st.era, "expected": expected, "drawn": len(ev.draws), "black": blacks,
        "bag_before": bag_before,
    })
    st.audit_done = True
    if st.era == 4:
        st.systemic_risk_final = st.black


def _penalty(st: GameState, s: SeatState, lost: dict[int, list[int]]) -> None:
    what = lose_runway_else_trust(st, s)
    if what == "runway":
        lost[s.seat][0] += 1
    elif what == "trust":
        lost[s.seat][1] += 1


# --- F. Score the Mandate ------------------------------------------------------------------


def era_mandate_values(st: GameState, card: Any) -> dict[int, int | None]:
    """Each seat's value for the Era Mandate's printed criterion (None: not among those who
    may qualify)."""
    out: dict[int, int | None] = {}
    crit = card.criterion
    cats = categories_by_seat(st) if crit == "controlled_categories" else {}
    for s in st.seats:
        e = s.era
        v: int | None
        if crit == "capability_gained":
            v = e.capability_gained
        elif crit == "best_run_unique_domains":
            v = e.best_run_domains
        elif crit == "fund_runway_gained":
            v = e.fund_runway
        elif crit == "powered_facilities":
            v = s.powered_count()
        elif crit == "demand_satisfied":
            v = e.demand_satisfied
        elif crit == "compute_produced":
            v = e.compute_produced
        elif crit == "active_new_joint_ventures":
            live = {j.uid for j in st.jvs.values() if j.active}
            v = sum(1 for uid in e.jvs_created if uid in live)
        elif crit == "trust_among_deployers":
            v = s.trust if e.deployed else None
        elif crit == "controlled_categories":
            v = len(cats[s.seat])
        elif crit == "customers_gained":
            v = e.customers_gained
        elif crit == "fewest_scrutiny_added":
            added = e.scrutiny_added
            if e.scrutiny_overflow:
                # ruling scrutiny-added-overflow: does a cube that overflowed count as added
                used(st, "scrutiny-added-overflow", s.seat)
                if option(st, "scrutiny-added-overflow") == "bag-only":
                    added -= e.scrutiny_overflow
            v = added if added >= 1 else None
        elif crit == "capability_among_trust4":
            v = s.capability if s.trust >= 4 else None
        else:
            v = None
        out[s.seat] = v
    return out


def compute_era_mandate(st: GameState, card: Any) -> tuple[list[int], dict[int, int | None]]:
    """(scorers, values): the qualifying leaders (all tied leaders score)."""
    values = era_mandate_values(st, card)
    lowest = bool(getattr(card, "lowest_wins", False))
    # the minimum qualifies in both directions (fewest Scrutiny: among those who added >= 1)
    qual = {k: v for k, v in values.items() if v is not None and v >= card.minimum}
    if not qual:
        return [], values
    best = min(qual.values()) if lowest else max(qual.values())
    return sorted(k for k, v in qual.items() if v == best), values


def score_era_mandate(st: GameState, recorded: list[int] | None, sink: FindingSink) -> None:
    """Score the revealed Era Mandate; compare with the table's scorers when recorded."""
    st.era_mandate_done = True
    card = st.c.mandates.get(st.mandate_card) if st.mandate_card else None
    if card is None:
        if recorded:
            # the card is unknown: follow the table
            _award(st, sorted(set(recorded)), "unrecorded Era Mandate")
        return
    scorers, values = compute_era_mandate(st, card)
    final = scorers
    if recorded is not None:
        rec = sorted(set(x for x in recorded if 1 <= x <= st.n))
        if rec != scorers:
            # the seats the table and the rules disagree on, and what the criterion reads of
            # them: only a slip that put one of those in doubt explains the difference
            apart = tuple(sorted(set(rec) ^ set(scorers)))
            if card.criterion == "controlled_categories":  # who controls a hex: every seat's
                apart = tuple(x.seat for x in st.seats)     # pieces and Facilities there
            sink.report("mandate/era-mandate-scorers",
                        f"{card.name}: the table scored seats {rec or 'none'}; the criterion "
                        f"({card.criterion}, minimum {card.minimum}) gives "
                        f"{scorers or 'nobody'} (values {values})",
                        expected=scorers, recorded=rec, involves=apart,
                        reads=CRITERION_READS.get(card.criterion, ("era",)))
            final = rec
    _award(st, final, card.name)
    for s in st.seats:
        v = values.get(s.seat)
        st.rows["era_mandates"].append({
            "era": st.era, "mandate": card.id, "seat": s.seat, "value": v,
            "qualifies": v is not None and v >= card.minimum,
            "scored": (st.c.scoring.era_mandate_winner if len(final) == 1
                       else st.c.scoring.era_mandate_tied) if s.seat in final else 0,
        })


def _award(st: GameState, seats: list[int], name: str) -> None:
    pts = st.c.scoring.era_mandate_winner if len(seats) == 1 else st.c.scoring.era_mandate_tied
    for seat in seats:
        score(st, st.seats[seat - 1], pts, "era_mandate", name)


def on_era_mandate(st: GameState, ev: EraMandate, sink: FindingSink) -> None:
    """§6F: the table's scoring of the Era Mandate (None: the engine scores)."""
    ensure_production(st, sink)
    ensure_production_closed(st, sink)
    st.phase = "scoring"
    report_missing_audit(st, sink)
    if st.era_mandate_done:
        sink.report("turn/wrong-phase", f"the Era {st.era} Mandate was scored twice")
        return
    score_era_mandate(st, ev.scorers, sink)

