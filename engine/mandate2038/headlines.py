"""Core rules §2 step 1 and §6B step 1, "Reveal a Headline", with §9 Printed card authorities
(a Headline resolves its printed effect and duration; unless it names this Era's Production,
its rules expire at the end of the current cycle): the revealed card's checks (its Era's deck,
the Default Game, never twice), the immediate Headlines, the Headlines that act on the revealed
selections (§2 step 3) and pay once the seat's action has resolved, and the Headline that bans
trading Compute (§6B Immediate resource trade).
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.mandate2038.hex_board import controller
from engine.mandate2038.initiative import government_controllers, most
from engine.mandate2038.resources import add_scrutiny, gain, gain_capability
from engine.mandate2038.rulings import used
from engine.mandate2038.state import CORE_SET, GameState
from schemas.mandate2038 import HeadlineReveal, Reveal


def compute_trade_banned(st: GameState) -> bool:
    """Compute Borders Harden: "Compute cannot be traded" this cycle (§9; §6B: the active
    Headline may prohibit a named resource from being traded). Read by the immediate trade, the
    Allocation Window's sales and the move generator."""
    return st.headline == "export_controls"


def resolve_headline(st: GameState, ev: HeadlineReveal, sink: FindingSink) -> None:
    """The cycle's Headline: the card is checked (its Era's deck, the Default Game, never
    revealed twice) and recorded, and an immediate Headline resolves now."""
    hid = ev.headline
    st.headline = hid
    if hid is None:
        return
    card = st.c.headlines.get(hid)
    if card is None:
        sink.report("cycle/unknown-headline", f"the Headline {hid!r} is not a known card",
                    recorded=hid)
        st.headline = None
        return
    st.rows["headlines"].append({"era": st.era, "cycle": st.cycle, "headline": hid})
    if card.era != st.era:
        sink.report("cycle/headline-wrong-era",
                    f"{card.name} ({hid}) belongs to Era {card.era}'s deck, revealed in Era {st.era}",
                    expected=card.era, recorded=st.era)
    if not card.default and st.profile == "default":
        sink.report("cycle/headline-advanced",
                    f"{card.name} ({hid}) carries the Advanced Play badge and is not used in the "
                    "Default Game")
    if hid in [h for _e, _c, h in st.headlines_seen]:
        sink.report("cycle/headline-repeated", f"{card.name} ({hid}) was already revealed")
    st.headlines_seen.append((st.era, st.cycle, hid))
    if card.duration == "this_production":
        st.production_headline = hid
    if not card.default:
        return  # Advanced Headlines are not checked (see unchecked())
    _immediate_effect(st, ev, hid, card.name, sink)


def _immediate_effect(st: GameState, ev: HeadlineReveal, hid: str, name: str,
                      sink: FindingSink) -> None:
    """The Default Headlines that resolve when revealed (or check a choice recorded with the
    reveal)."""
    if hid == "open_weights_drop":
        for s in st.seats:
            gain_capability(st, s, 1)
        low = _tie_target(st, ev, {s.seat: s.customers for s in st.seats}, name,
                          "lowest Customers", sink)
        if low is not None:
            gain(st, st.seats[low - 1], "trust", 1)
    elif hid == "weights_on_internet":
        _passive_citizen_dividend(st, ev, name, sink)
    elif hid == "export_controls":
        # each controller of a Fabrication Corridor gains 1 Runway, and "the Civic Permission
        # Authority controller" as The Court Adopts Supported Meaning reads it (ruling
        # cpa-controller: one ruling for both Headlines)
        ctrl = {controller(st, pos) for pos in st.board.positions_of("foundry")}
        for c in sorted(x for x in ctrl if x is not None):
            gain(st, st.seats[c - 1], "runway", 1)
        for c in government_controllers(st):
            gain(st, st.seats[c - 1], "runway", 1)
    elif hid == "ai_written_law" and ev.action is None and not st.partial:
        sink.report("headline/choice-invalid",
                    "The Court Adopts Supported Meaning: the named Core Action was not recorded")


def _passive_citizen_dividend(st: GameState, ev: HeadlineReveal, name: str,
                              sink: FindingSink) -> None:
    """The Passive Citizen Dividend Activates (``weights_on_internet``): the lowest Capability
    seat's named Facility, powered in the latest snapshot, produces once (§9: that Facility
    only); the highest Capability seat gains 1 Trust."""
    from engine.mandate2038.era_sequence import produce_one_facility

    low = _tie_target(st, ev, {s.seat: s.capability for s in st.seats}, name,
                      "lowest Capability", sink)
    high = most(st, {s.seat: s.capability for s in st.seats})
    if low is not None:
        s = st.seats[low - 1]
        powered = [f.number for f in s.facilities.values() if f.powered]
        if (low, ev.facility) in st.ruled_power:
            used(st, "moved-facility-power", low)  # whether it still has its cube
        if ev.facility is None:
            if powered and not st.partial:
                sink.report(
                    "headline/choice-invalid",
                    f"The Passive Citizen Dividend Activates: seat {low} (lowest Capability) "
                    "must name a Facility powered in the latest snapshot; none recorded",
                    seat=low, expected=powered)
        elif ev.facility not in powered:
            sink.report("headline/choice-invalid",
                        f"The Passive Citizen Dividend Activates: seat {low}'s Facility "
                        f"{ev.facility} was not powered in the latest Production snapshot",
                        seat=low, expected=powered, recorded=ev.facility)
        else:
            produce_one_facility(st, s, s.facilities[ev.facility], sink)
    if high is not None:
        gain(st, st.seats[high - 1], "trust", 1)


def _tie_target(st: GameState, ev: HeadlineReveal, values: dict[int, int], name: str,
                what: str, sink: FindingSink) -> int | None:
    """The seat a Headline's "lowest ..." effect targets: the universal tie rule's (§2: the tied
    player nearest Initiative clockwise), checked against the target the log records
    (``headline.target``); the state follows the table's target (no cascade)."""
    rule_seat = most(st, values, lowest=True)
    rec = ev.target
    if rec is None or rec == rule_seat:
        return rule_seat
    low = min(values.values()) if values else None
    if not 1 <= rec <= st.n or values.get(rec) != low:
        why = f"seat {rec} does not have the {what} ({low})"
    else:
        tied = sorted(k for k, v in values.items() if v == low)
        why = (f"seats {', '.join(map(str, tied))} tie for the {what}; the tie goes to the one "
               f"nearest Initiative (seat {st.initiative}) clockwise")
    sink.report("headline/tie-target",
                f"{name}: the effect went to seat {rec}, but {why}: seat {rule_seat}",
                seat=rec, expected=rule_seat, recorded=rec)
    return rec if 1 <= rec <= st.n else rule_seat


def headlines_on_selections(st: GameState, picks: dict[int, str], ev: Reveal,
                            sink: FindingSink) -> None:
    """Headlines that act on the revealed selections. The Runway and Scrutiny they give are due
    once each seat's action has resolved (:func:`settle_after_resolve`)."""
    if st.headline == "ai_written_law" and st.headline_action is not None:
        named = st.headline_action
        pickers = [seat for seat, p in picks.items() if p == named]
        for seat in pickers:
            st.after_resolve[seat] = (2, 1)
        for ctrl in government_controllers(st):
            rivals = [seat for seat in pickers if seat != ctrl]
            if 2 * len(rivals) >= st.n - 1:
                gain(st, st.seats[ctrl - 1], "trust", 1)
    elif st.headline == "autonomous_corporation":
        counts: dict[str, int] = {}
        for p in picks.values():
            if p in CORE_SET:
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            if ev.tie_choice is not None:
                sink.report("headline/choice-invalid",
                            "The Metropolitan Mind Trust Incorporates: no Core Action was "
                            f"selected, yet the log records Initiative's choice {ev.tie_choice}",
                            recorded=ev.tie_choice)
            return
        best = max(counts.values())
        tied = sorted(a for a, k in counts.items() if k == best)
        chosen = tied[0]
        if len(tied) > 1:
            # "Initiative chooses among ties": the Initiative holder's recorded choice
            if ev.tie_choice in tied:
                chosen = ev.tie_choice
            else:
                if ev.tie_choice is not None or not st.partial:
                    sink.report(
                        "headline/choice-invalid",
                        "The Metropolitan Mind Trust Incorporates: "
                        + ", ".join(tied) + f" tie with {best} selections each; Initiative "
                        f"(seat {st.initiative}) chooses among them, "
                        + ("and the log records no choice (reveal.tie_choice)"
                           if ev.tie_choice is None else f"not {ev.tie_choice}"),
                        seat=st.initiative, expected=tied, recorded=ev.tie_choice)
                if ev.tie_choice is not None and ev.tie_choice in counts:
                    chosen = ev.tie_choice  # the table paid those who chose it
                else:
                    # nothing usable recorded: the tied action selected nearest Initiative
                    for seat in st.initiative_order():
                        if picks.get(seat) in tied:
                            chosen = picks[seat]
                            break
        elif ev.tie_choice is not None and ev.tie_choice != chosen:
            sink.report("headline/choice-invalid",
                        f"The Metropolitan Mind Trust Incorporates: {chosen} was selected most "
                        f"often ({best}); there was no tie for Initiative to settle, yet the log "
                        f"records {ev.tie_choice}", expected=chosen, recorded=ev.tie_choice)
        for seat, p in picks.items():
            if p == chosen:
                st.after_resolve[seat] = (2, 2)


def settle_after_resolve(st: GameState, seat: int) -> None:
    """The Court Adopts Supported Meaning / The Metropolitan Mind Trust Incorporates: a seat
    that selected the rewarded Core Action "takes 2 Runway once it has resolved" (and its
    Scrutiny): paid when that seat's turn closes, so the action cannot spend the reward and the
    cap applies after the action's own costs and gains."""
    due = st.after_resolve.pop(seat, None)
    if due is None:
        return
    s = st.seats[seat - 1]
    gain(st, s, "runway", due[0])
    add_scrutiny(st, s, due[1])


