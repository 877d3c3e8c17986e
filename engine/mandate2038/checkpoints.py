"""Checkpoints (DESIGN.md §5) and the invariants of partial logs.

Full logs: each recorded value is compared once with the engine's (``checkpoint/mismatch`` via
``FindingSink.resync``) and replay continues from the table's value; a value above its cap is
``resource/over-cap`` instead (replay continues from the cap).

Partial logs (header ``detail: partial``): the engine does not know everything that happened
between checkpoints, so it adopts the table's values silently and checks what must hold between
two checkpoints: Mandate never falls before final scoring, Capability and Customers never fall,
values within caps, Customers within the Capability requirement, and a rise of Capability,
Trust or Customers across a threshold comes with at least that threshold's Mandate.
"""

from __future__ import annotations

import re
from operator import attrgetter, itemgetter
from typing import Any

from engine.core.findings import FindingSink
from engine.core.replay import LedgerEntry
from engine.mandate2038.resources import capability_award
from engine.mandate2038.state import GameState, SeatState
from engine.mandate2038.trace import explain
from schemas.mandate2038 import Checkpoint

NOT_BELOW_ZERO = ("core rules §11 Final scoring (Offline penalties cannot reduce a player below "
                  "zero Mandate)")
FIELDS = ("mandate", "runway", "compute", "capability", "customers", "trust", "scrutiny")
# the checkpoint's values in FIELDS order, from the SeatValues' field dict (the same values as
# its attributes; a pydantic attribute read costs several plain ones)
_recorded = itemgetter(*FIELDS)
_engine = attrgetter(*("bag" if f == "scrutiny" else f for f in FIELDS))  # the seat's values


def _cap(st: GameState, field: str) -> int | None:
    if field == "scrutiny":
        return st.cubes_per_seat
    if field == "mandate":
        return None
    return st.c.caps.get(field)


def on_checkpoint(st: GameState, ev: Checkpoint, sink: FindingSink) -> None:
    """Compare (full) or adopt (partial) the table's values; check partial-log invariants."""
    if st.production_started and not st.production_done:
        from engine.mandate2038.era_sequence import resolve_production

        resolve_production(st, sink)
    label = f" ({ev.label})" if ev.label else ""
    named = _labelled_era(ev.label)
    if named is not None and st.era >= 1 and not st.partial and (
            named < st.era or named > st.era + 1
            or (named == st.era + 1 and "end" in (ev.label or "").lower())):
        # a checkpoint copied from another place: its values are another Era's, so comparing
        # them field by field would report every difference (one slip, one finding)
        sink.report("checkpoint/wrong-era",
                    f"the checkpoint is labelled {ev.label!r} but Era {st.era} is being played; "
                    "its values were not compared or adopted", expected=st.era, recorded=named)
        return
    seen: set[int] = set()
    # (field, SeatState attribute, cap) once per checkpoint rather than per seat and field
    fields = [(f, "bag" if f == "scrutiny" else f, _cap(st, f)) for f in FIELDS]
    for sv in ev.seats:
        no = sv.seat  # (read once: a pydantic attribute costs several plain ones)
        if not 1 <= no <= st.n or no in seen:
            sink.report("log/seat-out-of-range",
                        f"checkpoint{label} lists seat {no} twice or out of range",
                        seat=no, recorded=no)
            continue
        seen.add(no)
        s = st.seats[no - 1]
        changed = False
        # every field names its own attribute, so reading all of them first is what reading
        # each one just before its check would give
        for (field, attr, cap), rec, mine in zip(fields, _recorded(sv.__dict__), _engine(s),
                                                 strict=True):
            if rec is None:
                continue
            if rec == mine and rec >= 0 and (cap is None or rec <= cap):
                if st.resynced:
                    st.resynced.pop((s.seat, field), None)
                continue  # the usual case: the table agrees
            changed = True
            if rec < 0 and field == "mandate":
                sink.report("resource/out-of-range",
                            f"seat {s.seat}'s Mandate{label} recorded {rec}: no player goes below "
                            "zero Mandate (offline penalties cannot reduce a player below zero; "
                            "every other loss is clamped at zero)", seat=s.seat, expected=0,
                            recorded=rec, rule=NOT_BELOW_ZERO)
                value = mine
            elif rec < 0 or (field == "trust" and rec > (cap or 6)):
                sink.report("resource/out-of-range",
                            f"seat {s.seat}'s {field}{label} recorded {rec}, outside its track",
                            seat=s.seat, recorded=rec)
                value = max(0, min(rec, cap if cap is not None else rec))
            elif cap is not None and rec > cap:
                sink.report("resource/over-cap",
                            f"seat {s.seat}'s {field}{label} recorded {rec}, above its cap of "
                            f"{cap}", seat=s.seat, expected=f"<= {cap}", recorded=rec)
                value = cap
            elif st.partial or rec == mine:
                value = rec
            else:
                value = _mismatch(st, s, field, label, mine, rec, sink)
            if field == "mandate" and value != s.mandate:
                s.mandate = value
                st.ledger.append(LedgerEntry(
                    seat=s.seat, amount=value - mine, total=value, source="checkpoint",
                    era=st.era or None, cycle=st.cycle or None, event=st.event_index,
                    detail=f"resync to the table's value{label}"))
            else:
                setattr(s, attr, value)
        s.steps.clear()  # steps are counted from this checkpoint on
        # the table's values of the fields it recorded: later findings that read them stand on
        # their own (what the checkpoint does not record stays in doubt)
        if sink.doubted:  # (else nothing is in doubt to resolve)
            sink.resolve(s.seat, [f for f, rec in zip(FIELDS, _recorded(sv.__dict__),
                                                      strict=True) if rec is not None])
        if s.owed:  # the table's values settle what was owed of the fields it recorded
            for (_field, attr, _limit), rec in zip(fields, _recorded(sv.__dict__), strict=True):
                if rec is not None:
                    s.owed.pop(attr, None)
        if st.partial:
            _invariants(st, s, sv, sink, label)
        if changed or st.partial:
            _mark_reached(st, s)
        if st.partial:  # the invariants compare one checkpoint with the previous one
            prev = st.last_checkpoint.setdefault(s.seat, {})
            for field in ("mandate", "capability", "trust", "customers"):
                prev[field] = getattr(s, field)
            st.cp_reached[s.seat] = (frozenset(s.capability_reached),
                                     frozenset(s.trust_reached), s.customers_scored)
    if ev.systemic_risk is not None:
        if ev.systemic_risk < 0:
            sink.report("resource/out-of-range", f"Systemic Risk{label} recorded below zero",
                        recorded=ev.systemic_risk)
        elif st.partial:
            st.black = ev.systemic_risk
        else:
            st.black = sink.resync(f"Systemic Risk{label}", st.black, ev.systemic_risk,
                                   reads=("table:risk",))
        sink.resolve(None, ("table:risk",))
        if st.era == 4 and st.audit_done:
            st.systemic_risk_final = st.black
    if len(seen) == st.n and all(sv.scrutiny is not None for sv in ev.seats):
        st.bag_synced = True
        sink.resolve(None, ("table:bag",))


def _mismatch(st: GameState, s: SeatState, field: str, label: str, mine: int, rec: int,
              sink: FindingSink) -> int:
    """``checkpoint/mismatch`` citing the rule behind the engine's number: the ledger step or
    effect (trace.py) most likely at issue, with every step since the seat's last checkpoint."""
    rule, steps = explain(s, field, mine, rec)
    follows: Any = None
    prev = st.resynced.get((s.seat, field))
    if prev is not None and rec - mine == -prev[0]:
        # the earlier checkpoint's value was the slip: the table went on from its own value,
        # so this one differs by the same amount the other way
        follows = prev[1]
        steps += (f"; the checkpoint before recorded {prev[0]:+d} against the rules, and the "
                  "table went on from its own value")
    f = sink.report(
        "checkpoint/mismatch",
        f"the table recorded seat {s.seat} {field}{label} = {rec!r}, the rules give {mine!r}"
        f"{steps}; continuing from the table's value",
        seat=s.seat, expected=mine, recorded=rec, rule=rule, follows=follows,
        because=f"seat {s.seat}'s {field}" if follows is not None else None,
        reads=_reads(s, field))
    st.resynced[(s.seat, field)] = (rec - mine, f)
    return rec


#: the fields a Production changes (its Facilities' printed production, Generators' Scrutiny)
_PRODUCED = frozenset({"runway", "compute", "trust", "scrutiny"})

def _reads(s: SeatState, field: str) -> tuple[str, ...]:
    """What a checkpoint comparison of ``field`` read: the field, and for what a Production
    changes, which Facilities the seat owns (a Build the table lost produces every Production
    after it) and which it powered (in doubt after a slip until an allocation the engine could
    follow records them). Only a slip that put one of those in doubt explains the
    difference."""
    if field not in _PRODUCED:
        return (field,)
    return (field, "power", "facilities")


def _mark_reached(st: GameState, s: SeatState) -> None:
    """Thresholds the table's values show as reached never score again."""
    for t, _m in st.c.cap_thresholds:
        if s.capability >= t:
            s.capability_reached.add(t)
    for t, _m in st.c.trust_thresholds:
        if s.trust >= t:
            s.trust_reached.add(t)
    if s.customers > s.customers_scored:
        s.customers_scored = s.customers


def _invariants(st: GameState, s: SeatState, sv: Any, sink: FindingSink, label: str) -> None:
    prev = st.last_checkpoint.get(s.seat, {})
    reached = st.cp_reached.get(s.seat)
    if (sv.mandate is not None and "mandate" in prev and not st.final_done
            and sv.mandate < prev["mandate"]):
        sink.report("mandate/decreased",
                    f"seat {s.seat}'s Mandate fell from {prev['mandate']} to {sv.mandate}"
                    f"{label}; Mandate only falls at final scoring", seat=s.seat,
                    expected=f">= {prev['mandate']}", recorded=sv.mandate)
    if sv.capability is not None and sv.capability < prev.get("capability", 0):
        sink.report("resource/capability-decreased",
                    f"seat {s.seat}'s Capability fell from {prev['capability']} to "
                    f"{sv.capability}{label}", seat=s.seat, expected=f">= {prev['capability']}",
                    recorded=sv.capability)
    if sv.customers is not None and sv.customers < prev.get("customers", 0):
        sink.report("resource/customers-decreased",
                    f"seat {s.seat}'s Customers fell from {prev['customers']} to "
                    f"{sv.customers}{label}", seat=s.seat, recorded=sv.customers)
    if sv.customers is not None:
        cap_now = s.capability
        allowed = sum(1 for req in st.c.scoring.customer_capability if req <= cap_now)
        f = st.c.factions.get(s.faction)
        start = f.starts.customers if f is not None else 0
        if sv.customers > max(allowed, start):
            sink.report("deploy/capability-too-low",
                        f"seat {s.seat} has {sv.customers} Customers{label} with Capability "
                        f"{cap_now}, which allows {max(allowed, start)}", seat=s.seat,
                        expected=f"<= {max(allowed, start)}", recorded=sv.customers)
    if sv.mandate is None or "mandate" not in prev or reached is None or st.final_done:
        return
    cap_r, trust_r, cust_scored = reached
    need = 0
    why = []
    if sv.capability is not None:
        for t, base in st.c.cap_thresholds:
            if prev.get("capability", 0) < t <= sv.capability and t not in cap_r:
                need += capability_award(st, s, t, base)
                why.append(f"Capability {t}")
    if sv.trust is not None:
        for t, m in st.c.trust_thresholds:
            if prev.get("trust", 0) < t <= sv.trust and t not in trust_r:
                need += m
                why.append(f"Trust {t}")
    if sv.customers is not None:
        for k in range(max(prev.get("customers", 0), cust_scored) + 1, sv.customers + 1):
            need += st.c.customer_mandate(k)
            why.append(f"Customer #{k}")
    gained = sv.mandate - prev["mandate"]
    if need and gained < need:
        sink.report("mandate/threshold-not-scored",
                    f"seat {s.seat} reached {', '.join(why)}{label}, worth {need} Mandate, but its "
                    f"Mandate rose only {gained} (from {prev['mandate']} to {sv.mandate})",
                    seat=s.seat, expected=f">= {prev['mandate'] + need}", recorded=sv.mandate)


_ERA_LABEL = re.compile(r"\bera\s+(IV|III|II|I|[1-4])\b", re.IGNORECASE)
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}


#: label -> the Era it names: the same few labels come in game after game (at most
#: :data:`_LABELS_KEPT` are kept)
_LABELLED: dict[str, int | None] = {}
_LABELS_KEPT = 256


def _labelled_era(label: str | None) -> int | None:
    """The Era a checkpoint's label names ("end of Era 2", "Era III cycle 1"), or None."""
    if not label:
        return None
    if label in _LABELLED:
        return _LABELLED[label]
    m = _ERA_LABEL.search(label)
    era: int | None = None
    if m is not None:
        v = m.group(1).upper()
        era = _ROMAN.get(v) or int(v)
    if len(_LABELLED) < _LABELS_KEPT:
        _LABELLED[label] = era
    return era
