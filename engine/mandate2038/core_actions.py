"""Core rules §7 Core Actions: Fund, Research (the Training Run), Build, Organize, Deploy,
Influence, with their destination (visit) bonuses and the Headlines and Faction abilities that
modify them (§9).

Each ``do_*`` function resolves one action from the turn's destination. The caller
(``turns``) has already checked selection and order and moved the acting piece. Costs
follow §3: replacements and waivers first, then surcharges, then discounts; never below zero.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.findings import FindingSink
from engine.mandate2038 import factions
from engine.mandate2038.board import FRONTIER
from engine.mandate2038.content import DEPLOY_DISTRICTS, ENERGY_TILES
from engine.mandate2038.hex_board import (
    adjacent_hexes,
    check_path,
    controller,
    has_free_space,
    locally_eligible,
    move_piece,
    near,
)
from engine.mandate2038.resources import (
    add_scrutiny,
    gain,
    gain_capability,
    gain_customer,
    pay,
    remove_scrutiny,
    score,
)
from engine.mandate2038.rulings import option, used
from engine.mandate2038.state import (
    Facility,
    GameState,
    JointVenture,
    SeatState,
    TrainingRun,
    Turn,
)
from schemas.mandate2038 import (
    Build,
    Deploy,
    Draw,
    Fund,
    Influence,
    Organize,
    Research,
    RunEnd,
)

CURATED = "curated_corpus"
LEAK = "benchmark_leak"
HUMAN_EVAL = "human_evaluation"


def compute_free(st: GameState) -> bool:
    """§9 Headline The Token Price Reaches Zero (``ten_dollar_intelligence``): Research and
    Deploy cost no Compute this cycle (each adds one Scrutiny). The one place the engine and the
    move generator ask it."""
    return st.headline == "ten_dollar_intelligence"


def deploy_requirement(st: GameState, s: SeatState, district: bool) -> int | None:
    """The Capability the seat's next Customer needs (None: every Customer is gained), on a
    Human Access District or Consensus Network when ``district``: §9 Headline The Home Robot
    Requests Expert Assistance (``synthetic_celebrity``) lowers it by one there (minimum 1) for
    each player's Deploy this cycle. The one place the engine and the move generator ask it."""
    if s.customers >= st.c.cap_customers:
        return None
    req = st.c.customer_requirement(s.customers + 1)
    if req is not None and district and st.headline == "synthetic_celebrity":
        req = max(1, req - 1)
    return req


def bonus_tile(st: GameState, t: Turn, action: str) -> str | None:
    """The destination tile whose visit bonus applies to ``action`` this turn, or None.
    In Agent Swarm the bonus applies to only one of the two actions (§5 Era IV)."""
    if t.dest is None:
        return None
    if t.pick == "agent_swarm":
        if t.swarm_bonus is not None and t.swarm_bonus != action:
            return None
        if t.swarm_bonus is None and t.bonus_used:
            return None
    return st.board.tile_at.get(t.dest)


def _use_bonus(t: Turn, action: str) -> None:
    t.bonus_used = True
    if t.pick == "agent_swarm" and t.swarm_bonus is None:
        t.swarm_bonus = action


def compute_cost(st: GameState, t: Turn, action: str, base: int, waived: bool) -> int:
    """The Compute this action pays: waived -> 0, then Compute Estate's discount of the first
    Compute cost (visit bonus)."""
    cost = 0 if waived else base
    if cost > 0 and not t.discount_used and bonus_tile(st, t, action) == "cloud":
        if action != "research":
            # ruling compute-estate-discount: Research only, or any action's first cost
            used(st, "compute-estate-discount", t.seat)
            if option(st, "compute-estate-discount") == "research-only":
                return cost
        cost -= 1
        t.discount_used = True
        _use_bonus(t, action)
        s = st.seats[t.seat - 1]  # a zero step naming the discount (trace.py)
        s.steps.append(("compute", 0, (st.cause[0], "compute_estate_discount")))
    return max(0, cost)


def shovels(st: GameState, spender: SeatState, compute_paid: int) -> None:
    """Corthaven, The Shovels: when another player spends >= 2 Compute in one Core Action or
    Program subaction, Corthaven gains 1 Runway, at most twice per Era."""
    if compute_paid < 2:
        return
    for s in st.seats:
        if s is spender or factions.ability(st, s, "the_shovels") is None:
            continue
        if st.era >= 1 and s.era.shovels < 2:
            s.era.shovels += 1
            gain(st, s, "runway", 1)


# --- Fund -------------------------------------------------------------------------------------


def do_fund(st: GameState, s: SeatState, ev: Fund, t: Turn, sink: FindingSink) -> None:
    """Conservative: +2 Runway. Venture: +4 Runway and 2 Scrutiny. Allocation Exchange: +1."""
    amount = 4 if ev.mode == "venture" else 2
    if bonus_tile(st, t, "fund") == "capital":
        amount += 1
        _use_bonus(t, "fund")
    s.era.fund_runway += gain(st, s, "runway", amount)
    if ev.mode == "venture":
        add_scrutiny(st, s, 2)


# --- Research and the Training Run --------------------------------------------------------


def do_research(st: GameState, s: SeatState, ev: Research, t: Turn, sink: FindingSink) -> None:
    """Spend 1 Compute and open a Training Run (closed by ``run_end``)."""
    token_price = compute_free(st)
    cost = compute_cost(st, t, "research", 1, token_price)
    pay(st, s, "compute", cost, sink, "research/no-compute", "Research")
    run = TrainingRun(seat=s.seat, event=st.event_index, swarm=bool(ev.swarm))
    if bonus_tile(st, t, "research") == "research":
        run.protection_bonus = 1
        _use_bonus(t, "research")
    if ev.breakthrough:
        factions.check_use(st, s, "scaling_law_breakthrough", sink,
                           "research/breakthrough-unavailable")
        run.breakthrough = True
        add_scrutiny(st, s, 2)
    if token_price:
        add_scrutiny(st, s, 1)
    st.run = run


def _take_card(st: GameState, card: str, sink: FindingSink, seat: int) -> None:
    """Remove one copy of ``card`` from the Training deck (reshuffle the discard when empty)."""
    if st.deck_left <= 0:
        for k, v in st.discard.items():
            st.deck[k] = st.deck.get(k, 0) + v
        st.deck_left = sum(st.deck.values())
        st.discard = {}
    left = st.deck.get(card, 0)
    if left <= 0:
        if st.partial:  # unrecorded draws and reshuffles: the deck counts are not known
            return
        sink.report("research/card-unavailable",
                    f"seat {seat} drew {card!r} but no copy of it was left in the Training deck "
                    "(four copies of each face; revealed cards go to the discard)",
                    seat=seat, recorded=card)
        return
    st.deck[card] = left - 1
    st.deck_left -= 1


def do_draw(st: GameState, ev: Draw, sink: FindingSink) -> None:
    """One Training card, fully resolved (§7 Research and its special cards)."""
    seat = ev.seat  # (read once: a pydantic attribute costs several plain ones)
    run = st.run
    card = ev.card
    if card not in st.c.training:
        sink.report("research/unknown-card",
                    f"seat {seat} drew {card!r}, which is not a Training card", seat=seat,
                    expected=sorted(st.c.training), recorded=card)
        return
    if run is None or run.seat != seat:
        sink.report("research/draw-outside-run",
                    f"seat {seat} drew {card!r} outside a Training Run", seat=seat)
        _take_card(st, card, sink, seat)
        st.discard[card] = st.discard.get(card, 0) + 1
        return
    s = st.seats[seat - 1]
    if run.duplicate is not None:
        sink.report("research/draw-after-duplicate",
                    f"seat {seat} drew again after the duplicate {run.duplicate!r}; a duplicate "
                    "ends the run (crash, or protection banks at once)", seat=seat)
        run.duplicate = None
    if run.ended_by_card:
        sink.report("research/draw-after-human-evaluation",
                    f"seat {seat} drew after Human Evaluation, which banks and ends the run",
                    seat=seat)
        run.ended_by_card = False
    _take_card(st, card, sink, seat)
    run.cards.append(card)
    per_domain = 2 if st.headline == "recursive_self_improvement" else 1
    if card in st.c.domains:
        if card in run.domains:
            run.duplicate = card
        else:
            run.domains.add(card)
            run.provisional += per_domain
    elif card == CURATED:
        free = st.c.domains - run.domains
        if not free:
            run.duplicate = card
            if ev.domain is not None:
                sink.report("research/curated-domain",
                            f"Curated Corpus named {ev.domain!r} but every ordinary domain was "
                            "already revealed, so it is a duplicate", seat=seat)
            return
        dom = ev.domain
        if dom not in free:
            sink.report("research/curated-domain",
                        f"Curated Corpus must name an ordinary domain not yet revealed this run "
                        f"({', '.join(sorted(free))}); the log names {dom!r}",
                        seat=seat, expected=sorted(free), recorded=dom)
            dom = sorted(free)[0]
        assert dom is not None  # a name in ``free``
        run.domains.add(dom)
        run.provisional += per_domain
    elif card == LEAK:
        run.provisional += 2
        add_scrutiny(st, s, 1)
    elif card == HUMAN_EVAL:
        gain(st, s, "trust", 1)
        run.ended_by_card = True


def do_run_end(st: GameState, ev: RunEnd, sink: FindingSink) -> bool:
    """Close the Training Run (bank, crash, protect, method). Returns True when a run closed."""
    seat = ev.seat  # (read once: a pydantic attribute costs several plain ones)
    run = st.run
    if run is None or run.seat != seat:
        sink.report("research/draw-outside-run",
                    f"seat {seat} ended a Training Run that was not in progress", seat=seat)
        return False
    s = st.seats[seat - 1]
    outcome = ev.outcome
    crashed = False
    if outcome == "bank":
        if run.duplicate is not None:
            sink.report("research/bank-after-duplicate",
                        f"seat {s.seat} banked after drawing the duplicate {run.duplicate!r}; "
                        "an unprotected duplicate crashes the run", seat=s.seat)
    elif outcome == "crash":
        crashed = True
        if run.duplicate is None:
            sink.report("research/crash-without-duplicate",
                        f"seat {s.seat}'s run was recorded as a crash, but no duplicate was drawn",
                        seat=s.seat)
    else:
        if run.duplicate is None:
            sink.report("research/protect-without-duplicate",
                        f"seat {s.seat} used {'Research Protection' if outcome == 'protect' else 'Scientific Method'}"
                        " without a duplicate to discard", seat=s.seat)
        if outcome == "protect":
            if run.protection_bonus > 0:
                run.protection_bonus -= 1
            elif s.protection > 0:
                s.protection -= 1
            elif not st.partial:
                sink.report("research/no-protection",
                            f"seat {s.seat} spent Research Protection with none left this Era",
                            seat=s.seat, expected=">= 1", recorded=0)
        else:
            factions.check_use(st, s, "scientific_method", sink, "research/method-unavailable")
            pay(st, s, "runway", 1, sink, "research/method-unavailable", "Scientific Method")
    if crashed:
        if st.headline == "recursive_self_improvement":
            add_scrutiny(st, s, 3)
            st.black += 1
        else:
            add_scrutiny(st, s, 1)
        banked = 0
        if ev.banked:
            sink.report("research/crash-kept-capability",
                        f"seat {s.seat}'s crashed run kept {ev.banked} Capability; a crash loses "
                        "all provisional Capability", seat=s.seat, expected=0, recorded=ev.banked)
            banked = ev.banked
    else:
        banked = run.provisional
        if run.breakthrough:
            banked += min(3, len(run.domains))
        recorded = ev.banked
        if recorded is not None and recorded != banked:
            sink.report("research/banked-mismatch",
                        f"seat {s.seat} banked {recorded} Capability; the cards drawn "
                        f"({', '.join(run.cards) or 'none'}) give {banked}",
                        seat=s.seat, expected=banked, recorded=recorded)
            banked = recorded
    gain_capability(st, s, banked)
    unique = 0 if crashed else len(run.domains & st.c.domains)
    if not crashed:
        if unique > s.era.best_run_domains:
            s.era.best_run_domains = unique
        if st.headline == "professional_exam_sweep" and banked >= 3:
            gain(st, s, "trust", 1)
            if banked >= 5:
                remove_scrutiny(st, s, 1)
        if st.headline == "benchmark_is_economy" and banked >= 3:
            score(st, s, 1, "headline", "The Billionth Instance Enters the Record")
    for card in run.cards:
        st.discard[card] = st.discard.get(card, 0) + 1
    st.rows["training_runs"].append({
        "era": st.era, "cycle": st.cycle, "seat": s.seat, "event": run.event,
        "cards": list(run.cards), "outcome": outcome, "banked": banked,
        "unique_domains": unique,
    })
    st.run = None
    return True


# --- Build ----------------------------------------------------------------------------------


def do_build(st: GameState, s: SeatState, ev: Build, t: Turn, sink: FindingSink) -> None:
    """Construct a Facility (2 Runway, lowest-numbered, non-Frontier, two spaces per hex) or
    the ordinary Generator (Era II+, on an Energy hex, three shared slots)."""
    dest = t.dest
    tile = st.board.tile_at.get(dest) if dest else None
    if ev.mode == "facility":
        if len(s.facilities) >= 4:
            sink.report("build/no-facility-left",
                        f"seat {s.seat} built a fifth Facility; each player has four",
                        seat=s.seat, expected="<= 4 Facilities", recorded=5)
            return
        no = min(k for k in range(1, 5) if k not in s.facilities)
        if ev.facility is not None and ev.facility != no:
            sink.report("build/out-of-order",
                        f"seat {s.seat} built Facility {ev.facility}; its lowest-numbered unbuilt "
                        f"Facility is {no} (Facilities are constructed in printed number order)",
                        seat=s.seat, expected=no, recorded=ev.facility)
            if ev.facility not in s.facilities:
                no = ev.facility  # the table placed that piece: the state follows it
        if dest == FRONTIER:
            sink.report("build/facility-on-frontier",
                        f"seat {s.seat} built Facility {no} on Frontier (F); Frontier has no "
                        "Facility spaces", seat=s.seat, recorded=dest)
        elif dest is not None and not has_free_space(st, dest):
            sink.report("build/no-facility-space",
                        f"seat {s.seat} built Facility {no} on {dest}, whose two Facility spaces "
                        "were already taken", seat=s.seat, recorded=dest)
        cost = 2
        if bonus_tile(st, t, "build") == "foundry":
            cost -= 1
            _use_bonus(t, "build")
        before_iv = max(0, cost)
        if s.era.facility_builds == 0 and factions.has_active(st, s, "industrial_velocity"):
            factions.use(st, s, "industrial_velocity")
            cost -= 1
        cost = max(0, cost)
        pay(st, s, "runway", cost, sink, "build/cannot-pay", f"Facility {no}")
        if cost < before_iv:
            score(st, s, 1, "faction_ability", "Industrial Velocity")

        s.facilities[no] = Facility(number=no, hex=dest)
        s.era.facility_builds += 1
        return
    # Generator
    if st.era < 2:
        sink.report("build/generator-locked",
                    f"seat {s.seat} built a Generator in Era {st.era}; Generators unlock in Era II",
                    seat=s.seat)
    con = st.c.generator_at.get(tile) if tile else None
    if tile is not None and tile not in ENERGY_TILES:
        sink.report("build/generator-not-energy",
                    f"seat {s.seat} built a Generator on {dest} ({tile}), which is not an Energy "
                    "hex (Power Corridor or Thermal and Water Basin)", seat=s.seat, recorded=tile)
        return
    if s.generator is not None:
        sink.report("build/generator-limit",
                    f"seat {s.seat} built a second ordinary Generator (the first is on "
                    f"{s.generator}); each player has one", seat=s.seat)
        return
    slots = st.gen_slots.setdefault(dest, []) if dest else []
    t_obj = st.c.tiles.get(tile) if tile else None
    if t_obj is not None and len(slots) >= t_obj.generator_slots:
        sink.report("build/generator-slots-full",
                    f"seat {s.seat} built a Generator on {dest}, whose {t_obj.generator_slots} "
                    "Generator slots were all occupied", seat=s.seat)
    cost = con.runway if con is not None else 0
    heat = con is not None and con.id == "civic_heat_battery"
    beam = heat and st.headline == "reactor_restart_one_model" and not st.beam_used
    if beam:
        cost = max(0, cost - 1)
        st.beam_used = True
    pay(st, s, "runway", cost, sink, "build/cannot-pay", "a Generator")
    s.generator = dest
    s.generator_kind = con.id if con is not None else None
    if dest:
        slots.append((s.seat, s.generator_kind or "generator"))
    if con is not None:
        gain(st, s, "trust", con.trust_on_build)
        add_scrutiny(st, s, con.scrutiny_on_build)
        if con.mandate_on_build:
            score(st, s, con.mandate_on_build, "faction_ability", con.name)
    if beam:
        score(st, s, 1, "headline", "Orbital Power Receives a Beam Corridor")


# --- Organize -------------------------------------------------------------------------------


def do_organize(st: GameState, s: SeatState, ev: Organize, t: Turn, sink: FindingSink) -> None:
    """Recruit (2 Runway, then one piece up to two more steps), redistribute (5 combined
    steps), or relocate a Facility at the destination to an adjacent legal space (1 Runway)."""
    dest = t.dest
    if ev.mode == "recruit":
        n = ev.recruits
        gate = st.headline == "humanoid_factory_gate"
        if n > 1 and not gate:
            sink.report("organize/headline-not-active",
                        f"seat {s.seat} recruited {n} Teams in one Organize; only The Last Hazard "
                        "Shift Is Retired allows two", seat=s.seat, expected=1, recorded=n)
        if s.teams_supply < n:
            sink.report("organize/no-team-in-supply",
                        f"seat {s.seat} recruited {n} Team(s) with {s.teams_supply} in supply",
                        seat=s.seat, expected=f"<= {s.teams_supply}", recorded=n)
            n = s.teams_supply
        cost = 1 if gate else 2
        if bonus_tile(st, t, "organize") == "talent":
            cost -= 1
            _use_bonus(t, "organize")
        pay(st, s, "runway", max(0, cost), sink, "resource/insufficient", "recruiting")
        where = dest or s.ceo
        for _ in range(n):
            s.teams.append(where)
            s.teams_supply -= 1
        if gate:
            add_scrutiny(st, s, n)
        if ev.then is not None:
            check_path(st, sink, s.seat, ev.then.path, 2, "organize/extra-move-too-far")
            move_piece(st, sink, s, ev.then.piece, ev.then.path)
    elif ev.mode == "redistribute":
        steps = sum(len(m.path) - 1 for m in ev.moves)
        if steps > 5:
            sink.report("organize/too-many-steps",
                        f"seat {s.seat} moved its CEO and Teams {steps} steps in total; Organize "
                        "allows five combined", seat=s.seat, expected="<= 5", recorded=steps)
        for m in ev.moves:
            check_path(st, sink, s.seat, m.path, None)
            move_piece(st, sink, s, m.piece, m.path)
    else:  # relocate
        f = s.facilities.get(ev.facility) if ev.facility is not None else None
        to = ev.to
        problem = None
        if f is None:
            problem = f"Facility {ev.facility} is not built"
        elif dest is not None and f.hex != dest:
            problem = f"Facility {f.number} is on {f.hex}, not at the destination {dest}"
        elif to is None or to == FRONTIER:
            problem = f"the target {to} is not a legal Facility space"
        elif not adjacent_hexes(f.hex, to):
            problem = f"{to} is not adjacent to {f.hex}"
        elif not has_free_space(st, to):
            problem = f"{to} has no free Facility space"
        if problem is not None:
            sink.report("organize/relocate-invalid",
                        f"seat {s.seat} relocated a Facility illegally: {problem}", seat=s.seat)
        pay(st, s, "runway", 1, sink, "resource/insufficient", "relocating a Facility")
        if f is not None and to is not None:
            f.hex = to
            moved_facility_power(st, s, f)
    if ev.return_teams:
        if st.headline != "employee_free_unicorn":
            sink.report("organize/headline-not-active",
                        f"seat {s.seat} returned Teams for Runway; only The Company Brain "
                        "Survives Bankruptcy allows that", seat=s.seat)
        returned = 0
        for h in ev.return_teams:
            if h in s.teams:
                s.teams.remove(h)
                s.teams_supply += 1
                returned += 1
            else:
                sink.report("move/piece-not-there",
                            f"seat {s.seat} returned a Team from {h}, but has no Team there",
                            seat=s.seat, recorded=h)
        gain(st, s, "runway", 2 * returned)
        if returned:
            add_scrutiny(st, s, 2)


# --- Deploy ---------------------------------------------------------------------------------


def do_deploy(st: GameState, s: SeatState, ev: Deploy, t: Turn, sink: FindingSink) -> None:
    """Spend 1 Compute and gain the next Customer if Capability allows; add 1 Scrutiny."""
    if ev.remote is not None:
        why = factions.unavailable(st, s, "social_graph")
        rtile = st.board.tile_at.get(ev.remote)
        if why is None and rtile is not None and rtile not in DEPLOY_DISTRICTS:
            why = ("deploy/social-graph-invalid",
                   f"{ev.remote} is not a Human Access District or Consensus Network")
        if why is None and st.board.known and controller(st, ev.remote) != s.seat:
            why = ("deploy/social-graph-invalid", f"seat {s.seat} does not control {ev.remote}")
        if why is not None:
            sink.report("deploy/social-graph-invalid", f"The Social Graph: {why[1]}", seat=s.seat)
        factions.use(st, s, "social_graph")
        t.dest = ev.remote
    tile = bonus_tile(st, t, "deploy")
    dest_tile = st.board.tile_at.get(t.dest) if t.dest else None
    if s.customers >= st.c.cap_customers:
        sink.report("deploy/customer-cap",
                    f"seat {s.seat} deployed with {s.customers} Customers; the track ends at "
                    f"{st.c.cap_customers}", seat=s.seat)
        return
    district = dest_tile in DEPLOY_DISTRICTS
    req = deploy_requirement(st, s, district) or 0
    extra_scrutiny = 0
    # The Home Robot Requests Expert Assistance: each player's next Deploy (its only one this
    # cycle) on a Human Access District or Consensus Network also adds 2 Scrutiny
    if st.headline == "synthetic_celebrity" and district:
        extra_scrutiny += 2
    # (a partial log checks this at checkpoints: the Capability here may be stale)
    if s.capability < req and not st.partial:
        sink.report("deploy/capability-too-low",
                    f"seat {s.seat} gained Customer #{s.customers + 1} with Capability "
                    f"{s.capability}; it requires {req}", seat=s.seat,
                    expected=f"Capability >= {req}", recorded=s.capability)
    waived = compute_free(st)
    if tile == "consumer":
        waived = True
        _use_bonus(t, "deploy")
    if (not waived and dest_tile in DEPLOY_DISTRICTS
            and factions.has_active(st, s, "installed_base")):
        factions.use(st, s, "installed_base")
        waived = True
    cost = compute_cost(st, t, "deploy", 1, waived)
    if waived:  # a zero step: a table that paid anyway is explained by this rule (trace.py)
        s.steps.append(("compute", 0, (st.cause[0], "deploy_waived")))
    pay(st, s, "compute", cost, sink, "deploy/no-compute", "Deploy")
    gain_customer(st, s)
    scrut = 1
    if s.era.deploys == 0 and factions.ability(st, s, "audited_deployment") is not None:
        scrut = 0
    if compute_free(st):
        extra_scrutiny += 1
    add_scrutiny(st, s, scrut + extra_scrutiny)
    s.era.deployed = True
    s.era.deploys += 1


# --- Influence ------------------------------------------------------------------------------


def do_influence(st: GameState, s: SeatState, ev: Influence, t: Turn, sink: FindingSink) -> None:
    """Political effect on a political hex, or create / terminate a Joint Venture."""
    dest = t.dest
    tile = st.board.tile_at.get(dest) if dest else None
    if ev.mode in ("trust", "scrutiny"):
        if tile is not None and tile not in st.c.political:
            sink.report("influence/not-political",
                        f"seat {s.seat} Influenced for {ev.mode} on {dest} ({tile}); only Consensus "
                        "Network, Civic Permission Authority and Allocation Exchange allow it",
                        seat=s.seat, recorded=tile)
        bt = bonus_tile(st, t, "influence")
        if ev.mode == "trust":
            extra = 1 if bt == "government" else 0
            if extra:
                _use_bonus(t, "influence")
            gain(st, s, "trust", 1 + extra)
        else:
            extra = 1 if bt == "media" else 0
            if extra:
                _use_bonus(t, "influence")
            remove_scrutiny(st, s, 1 + extra)
        return
    if ev.mode == "terminate":
        jv = st.jvs.get(ev.contract) if ev.contract is not None else None
        if jv is None or s.seat not in (jv.a_seat, jv.b_seat):
            sink.report("influence/terminate-invalid",
                        f"seat {s.seat} terminated Joint Venture {ev.contract}, which it does not "
                        "share", seat=s.seat, recorded=ev.contract)
            return
        if dest is not None and not any(f.hex == dest for f in s.facilities.values()):
            sink.report("influence/terminate-not-at-facility",
                        f"seat {s.seat} terminated Joint Venture {ev.contract} from {dest}, where "
                        "it has no Facility; Influence terminates a shared Joint Venture at one of "
                        "your Facilities", seat=s.seat, recorded=dest)
        _remove_jv(st, jv)
        return
    # Joint Venture proposal
    if st.era < 3:
        sink.report("influence/jv-locked",
                    f"seat {s.seat} proposed a Joint Venture in Era {st.era}; they enter play in "
                    "Era III", seat=s.seat)
    f = s.facilities.get(ev.facility) if ev.facility is not None else None
    partner = st.seats[ev.partner - 1] if ev.partner is not None and 1 <= ev.partner <= st.n else None
    pf = partner.facilities.get(ev.partner_facility) if (
        partner is not None and ev.partner_facility is not None) else None
    problem = None
    sp_self = factions.has_active(st, s, "strategic_partnership")
    sp_partner = partner is not None and partner is not s and factions.has_active(
        st, partner, "strategic_partnership")
    partnership = sp_self
    if sp_partner and not sp_self:
        # ruling partnership-range: whose Strategic Partnership widens the range
        used(st, "partnership-range", s.seat)
        partnership = option(st, "partnership-range") == "either-partner"
    reach = 2 if partnership else 1
    if f is None:
        problem = f"its Facility {ev.facility} is not built"
    elif partner is None or partner is s:
        problem = "the partner must be another player"
    elif pf is None:
        problem = f"seat {ev.partner}'s Facility {ev.partner_facility} is not built"
    elif dest is not None and f.hex != dest:
        problem = f"the acting piece is on {dest}, not at Facility {f.number} ({f.hex})"
    elif reach == 1 and not adjacent_hexes(f.hex, pf.hex):
        problem = f"Facilities on {f.hex} and {pf.hex} are not on adjacent hexes"
    elif reach == 2 and not near(f.hex, pf.hex, 2):
        problem = f"Facilities on {f.hex} and {pf.hex} are more than two hexes apart"
    elif reach == 2 and f.hex == pf.hex:
        used(st, "partnership-same-hex", s.seat)
        if option(st, "partnership-same-hex") == "not-allowed":
            problem = (f"both Facilities are on {f.hex}; Strategic Partnership joins Facilities "
                       "one or two hexes apart (ruling partnership-same-hex)")
    if problem is not None:
        sink.report("influence/jv-invalid", f"seat {s.seat}'s Joint Venture proposal: {problem}",
                    seat=s.seat)
        if f is None or pf is None or partner is None or partner is s:
            return
    if not ev.accepted:
        return
    free = [k for k in range(1, st.c.jv_pairs + 1) if k not in st.jvs]
    if not free:
        sink.report("influence/jv-no-pair",
                    f"seat {s.seat} created a Joint Venture with all {st.c.jv_pairs} pairs in use",
                    seat=s.seat)
        return
    assert partner is not None and f is not None and pf is not None
    num = free[0]
    st.jv_serial += 1
    jv = JointVenture(number=num, a_seat=s.seat, a_facility=f.number, b_seat=partner.seat,
                      b_facility=pf.number, era=st.era, reach=reach, uid=st.jv_serial)
    st.jvs[num] = jv
    f.jvs.append(num)
    pf.jvs.append(num)
    s.era.jvs_created.append(jv.uid)
    partner.era.jvs_created.append(jv.uid)
    if sp_self:
        gain(st, s, "runway", 1)
    if sp_partner:
        # ruling partnership-runway: does Dovetalis gain when it accepts a rival's proposal
        used(st, "partnership-runway", partner.seat)
        if option(st, "partnership-runway") == "either-side":
            gain(st, partner, "runway", 1)


def moved_facility_power(st: GameState, s: SeatState, f: Any) -> None:
    """Ruling moved-facility-power: a moved Facility keeps its Power cube only while it is
    still locally eligible where it now stands (``recheck``), or until the next Allocate
    (``keep-until-allocate``)."""

    if not f.powered or locally_eligible(st, s, f.number):
        return
    used(st, "moved-facility-power", s.seat)
    st.ruled_power.add((s.seat, f.number))
    if option(st, "moved-facility-power") == "recheck":
        f.powered = False


def _remove_jv(st: GameState, jv: JointVenture) -> None:
    for seat, fno in ((jv.a_seat, jv.a_facility), (jv.b_seat, jv.b_facility)):
        f = st.seats[seat - 1].facilities.get(fno)
        if f is not None and jv.number in f.jvs:
            f.jvs.remove(jv.number)
    st.jvs.pop(jv.number, None)


ACTIONS: dict[str, Callable[..., None]] = {
    "fund": do_fund,
    "research": do_research,
    "build": do_build,
    "organize": do_organize,
    "deploy": do_deploy,
    "influence": do_influence,
}
