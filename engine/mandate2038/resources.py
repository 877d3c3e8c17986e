"""Core rules §3 Resources: gains with caps, costs, Scrutiny cubes, Mandate and thresholds.

Every change of a seat's resources goes through these helpers so that the caps apply after
every gain ("Apply resource caps immediately after any gain"; "Return excess"), resources never
go negative (a cost the seat could not pay is reported and clamped at zero: no cascade), and
every Mandate change lands in the score ledger with its source.
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.core.replay import LedgerEntry
from engine.mandate2038.rulings import option, used
from engine.mandate2038.state import GameState, SeatState
from engine.mandate2038.trace import step


def gain(st: GameState, s: SeatState, res: str, amount: int) -> int:
    """Add ``amount`` of ``res`` (runway/compute/trust/protection/customers) up to its cap;
    return what was actually gained. Capability goes through :func:`gain_capability`."""
    if amount <= 0:
        return 0
    if s.owed and res in s.owed:  # a shortfall reported earlier is paid from this gain
        amount = _repay(s, res, amount)
        if amount <= 0:
            return 0
    cap = st.c.caps[res]
    before = getattr(s, res)
    after = min(cap, before + amount)
    setattr(s, res, after)
    if after != before:  # trace.step, inlined on this hot path
        s.steps.append((res, after - before, st.cause))
    if res == "trust" and after > before:
        check_trust(st, s)
    return int(after - before)


def gain_capability(st: GameState, s: SeatState, amount: int) -> int:
    """Permanent Capability (cap 12); counts for this Era and scores thresholds."""
    if amount <= 0:
        return 0
    before = s.capability
    s.capability = min(st.c.cap_capability, before + amount)
    got = s.capability - before
    if got:  # trace.step, inlined on this hot path (as below)
        s.steps.append(("capability", got, st.cause))
    s.era.capability_gained += got
    if got:
        check_capability(st, s)
    return got


def pay(
    st: GameState,
    s: SeatState,
    res: str,
    amount: int,
    sink: FindingSink,
    code: str,
    what: str,
) -> int:
    """Pay ``amount`` of ``res``. When the seat has less, report ``code`` (except in a partial
    log, where the engine's resources are not known exactly) and pay what there is.

    Compute is paid with Allocation Window temporary tokens first (§9 Corthaven: the tokens are
    distinct components and "all temporary Compute remaining anywhere at cycle end disappears")."""
    if amount <= 0:
        return 0
    have = getattr(s, res)
    if res == "compute" and s.temp_compute:
        s.temp_compute -= min(s.temp_compute, amount, have)
    if have < amount:
        if not st.partial:
            sink.report(
                code,
                f"seat {s.seat} paid {amount} {res} for {what} but had only {have}",
                seat=s.seat, expected=f">= {amount} {res}", recorded=have,
            )
            # the table paid in full somehow: the shortfall comes out of the next gains,
            # so a later gain is not credited in full (no state the table never had)
            s.owed[res] = s.owed.get(res, 0) + amount - have
        setattr(s, res, 0)
        step(st, s, res, -have)
        return int(have)
    setattr(s, res, have - amount)
    s.steps.append((res, -amount, st.cause))  # trace.step, inlined
    return amount


def _repay(s: SeatState, res: str, amount: int) -> int:
    """Take what the seat owes of ``res`` out of a gain of ``amount``; return what is left."""
    owed = s.owed[res]
    paid = min(owed, amount)
    if owed > paid:
        s.owed[res] = owed - paid
    else:
        del s.owed[res]
    return amount - paid


def lose_runway_else_trust(st: GameState, s: SeatState) -> str | None:
    """The automatic penalty (§6E and overflow): lose one Runway; if none, one Trust; if
    neither, nothing. Returns which was lost."""
    if s.runway > 0:
        s.runway -= 1
        step(st, s, "runway", -1)
        return "runway"
    if s.trust > 0:
        s.trust -= 1
        step(st, s, "trust", -1)
        return "trust"
    return None


def add_scrutiny(st: GameState, s: SeatState, k: int) -> None:
    """Add ``k`` of the seat's Scrutiny cubes to the Audit bag. A cube required when all ten
    are already in the bag costs one Runway, else one Trust (§6E overflow)."""
    if k <= 0:
        return
    s.era.scrutiny_added += k
    cubes = st.cubes_per_seat
    for _ in range(k):
        if s.bag < cubes:
            s.bag += 1
            s.steps.append(("scrutiny", 1, st.cause))
        else:
            s.era.scrutiny_overflow += 1
            lost = lose_runway_else_trust(st, s)
            if lost is not None:  # the step above recorded the event's cause; name overflow
                f, d, cause = s.steps[-1]
                s.steps[-1] = (f, d, (cause[0], "overflow"))


def remove_scrutiny(st: GameState, s: SeatState, k: int) -> int:
    """Return up to ``k`` of the seat's own cubes from the bag; returns how many."""
    n = min(k, s.bag)
    if n:
        s.bag -= n
        s.steps.append(("scrutiny", -n, st.cause))
    return n


def score(
    st: GameState, s: SeatState, amount: int, source: str, detail: str = ""
) -> None:
    """Move the seat's public Mandate marker and write the ledger entry."""
    if amount == 0:
        return
    s.mandate += amount
    s.steps.append(("mandate", amount, (st.cause[0], source or st.cause[1])))
    st.ledger.append(
        LedgerEntry(
            seat=s.seat, amount=amount, total=s.mandate, source=source,
            era=st.era or None, cycle=st.cycle or None, event=st.event_index, detail=detail,
        )
    )


def capability_award(st: GameState, s: SeatState, threshold: int, base: int) -> int:
    """Mandate for reaching Capability ``threshold``, after a faction's printed scoring rule
    (Mirevanta's Peer Validation: 9 and 12 score 1; 12 scores 2 at five or more players)."""
    f = st.c.factions.get(s.faction)
    rule = f.scoring_rule if f is not None else None
    if rule is None:
        return base
    full = rule.full_at_players.get(threshold)
    if full is not None and st.n >= full[0]:
        if st.n > full[0]:
            # ruling peer-validation-six: the full award above five players too, or not
            used(st, "peer-validation-six", s.seat)
            if option(st, "peer-validation-six") == "five-only":
                return int(rule.capability_mandate.get(threshold, base))
        return int(full[1])
    return int(rule.capability_mandate.get(threshold, base))


def check_capability(st: GameState, s: SeatState) -> None:
    """Score every Capability threshold reached for the first time (permanent awards)."""
    for t, base in st.c.cap_thresholds:
        if s.capability >= t and t not in s.capability_reached:
            s.capability_reached.add(t)
            score(st, s, capability_award(st, s, t, base), "capability_threshold",
                  f"Capability {t}")


def check_trust(st: GameState, s: SeatState) -> None:
    """Score every Trust threshold reached for the first time (permanent awards)."""
    for t, m in st.c.trust_thresholds:
        if s.trust >= t and t not in s.trust_reached:
            s.trust_reached.add(t)
            score(st, s, m, "trust_threshold", f"Trust {t}")


def gain_customer(st: GameState, s: SeatState) -> None:
    """One new Customer (cap 5); Customers #1-3 score two Mandate, #4-5 one each."""
    if s.customers >= st.c.cap_customers:
        return
    s.customers += 1
    step(st, s, "customers", 1)
    s.era.customers_gained += 1
    if s.customers > s.customers_scored:
        s.customers_scored = s.customers
        score(st, s, st.c.customer_mandate(s.customers), "customer", f"Customer #{s.customers}")
