"""Main Actions: Pickup or Complete a Job (pp. 14-15) with the Outcome Die and its reroll (p. 16),
and how artifacts, augmentations and bounties enter the tableau (pp. 22-23)."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.vestige.blocks import counts, gain, move, spend_attributes, take, upgrade
from engine.vestige.board import adjacent_tiles
from engine.vestige.cards import (
    CONTACTS,
    abandon,
    add_card,
    capable,
    not_owned_rule,
    printed_or_warn,
    record,
    supply_check,
)
from engine.vestige.content import CONTENT
from engine.vestige.rulings import option
from engine.vestige.slips import card_sign, move_sign, words
from engine.vestige.state import GameState, SeatState
from engine.vestige.turns import actor, take_main
from schemas.vestige import Complete, Pickup, Roll


def _dove_pickup(st: GameState, s: SeatState, sink: FindingSink) -> None:
    """A job taken through The Black Dove (p. 30; ruling black-dove-repeat)."""
    if option(st, "black-dove-repeat") == "job-per-resolution":
        # the Dove's effect takes the job: one per resolution, no pickup main action
        actor(st, s.seat, sink, "a Black Dove pickup")
        if s.dove_jobs < 1:
            sink.report("vestige-job/pickup-not-adjacent", "a job was taken through The Black "
                        "Dove without a resolution of its effect left this turn (one downgrade "
                        "each)", seat=s.seat, expected="a Black Dove resolution", recorded="none")
        s.dove_jobs = max(0, s.dove_jobs - 1)
        return
    take_main(st, s, "job", sink)
    if not s.dove:
        sink.report("vestige-job/pickup-not-adjacent", "a job was taken through The Black Dove "
                    "without visiting it this turn", seat=s.seat, expected="a Black Dove visit",
                    recorded="none")


def on_pickup(st: GameState, ev: Pickup, sink: FindingSink) -> None:
    """Pickup a job (p. 14): next to the tile the stack's top card indicates, the face-up card
    (replaced at once) or the top card, onto a capable character with no job."""
    s = st.seats[ev.seat]
    if ev.dove:
        _dove_pickup(st, s, sink)
    else:
        take_main(st, s, "job", sink)
    p = printed_or_warn(st, ev.card, sink, ev.seat)
    if p is not None and p.kind != ev.stack:
        sink.report("vestige-job/wrong-stack", f"{ev.card!r} is a {p.kind} card",
                    seat=ev.seat, expected=ev.stack, recorded=p.kind)
    near = adjacent_tiles(s.space or 0)
    # where jobs of this type are found: the stack's top card (p. 14); drawing the top card
    # itself, its back shows it
    shows = st.stack_top.get(ev.stack)
    if shows is None and not ev.face_up and p is not None:
        shows = p.pickup
    if not ev.dove:
        if ev.at is not None and ev.at not in near:
            move_sign(s, sink.report(
                "vestige-job/pickup-not-adjacent", f"{ev.at} is not adjacent to space "
                f"{s.space}", seat=ev.seat, expected=sorted(near), recorded=ev.at,
                follows=s.turn_doubt, because=words(ev.seat, "space")))
        elif shows is not None:
            region = st.map.get(ev.at) if ev.at is not None else None
            if ev.at is not None and region is not None and region != shows:
                sink.report("vestige-job/pickup-wrong-region", f"the {ev.stack} stack's top "
                            f"card shows {shows}; {ev.at} is {region}", seat=ev.seat,
                            expected=shows, recorded=region)
            elif ev.at is None and not any(st.map.get(pos) == shows for pos in near):
                move_sign(s, sink.report(
                    "vestige-job/pickup-not-adjacent", f"the {ev.stack} stack's top card shows "
                    f"{shows}; space {s.space} is not next to one", seat=ev.seat,
                    expected=shows, recorded=s.space, follows=s.turn_doubt,
                    because=words(ev.seat, "space")))
    if ev.face_up:
        shown = st.display.get(ev.stack)
        if ev.stack in st.display_taken:
            sink.report("vestige-job/face-up-not-replaced", f"the face-up {ev.stack} was taken "
                        "and never replaced; there is no face-up card to take", seat=ev.seat,
                        expected="a replacement flipped face up", recorded=ev.card)
            st.display_taken.discard(ev.stack)
        elif shown is not None and shown != ev.card:
            sink.report("vestige-job/face-up-mismatch", f"the face-up {ev.stack} is {shown!r}",
                        seat=ev.seat, expected=shown, recorded=ev.card)
        if shown is not None:  # a display the log tracks: it must be replaced
            st.display_taken.add(ev.stack)
        st.display.pop(ev.stack, None)
        top = st.stack_top.get(ev.stack)
        if top is not None:  # the top card is flipped into the empty place (p. 14)
            st.flip_shows[ev.stack] = top
    # the top card was flipped face up or drawn: the stack now shows another region
    st.stack_top.pop(ev.stack, None)
    supply_check(st, ev.stack, sink, ev.seat)
    who = s.cards.get(ev.assignee)
    if who is None or who.kind not in ("lawmaker", "mercenary", "smuggler", "chop_bot"):
        f = sink.report("vestige-card/not-owned", f"{ev.assignee!r} is not a contact or chop "
                        f"bot in seat {ev.seat}'s tableau", seat=ev.seat, recorded=ev.assignee,
                        rule=not_owned_rule(st, ev.assignee))
        if who is None:
            card_sign(s, f, ev.assignee)
        return
    if not capable(st, who, ev.stack):
        sink.report("vestige-job/incapable", f"{ev.assignee!r} does not do {ev.stack} jobs",
                    seat=ev.seat, expected=ev.stack, recorded=ev.assignee)
    if who.job is not None:
        sink.report("vestige-job/assignee-busy", f"{ev.assignee!r} is already on {who.job!r}",
                    seat=ev.seat, expected="no job", recorded=who.job)
        return
    who.job = ev.card
    st.jobs[ev.card] = (ev.seat, ev.assignee)
    st.row("jobs", seat=ev.seat, card=ev.card, job=ev.stack, assignee=ev.assignee,
           step="pickup", face=None)


def on_roll(st: GameState, ev: Roll, sink: FindingSink) -> None:
    """The outcome die (chance); a reroll costs 1 conviction and keeps every result to choose."""
    s = st.seats[ev.seat]
    if ev.reroll:
        if not s.rolls:
            sink.report("vestige-job/reroll-without-roll", "a reroll before any roll",
                        seat=ev.seat, expected="a roll first", recorded="reroll")
        cost = CONTENT.stated["reroll_cost"]
        if ev.conviction is not None and ev.conviction != cost:
            sink.report("vestige-job/reroll-unpaid", f"a reroll uses {cost} conviction; the "
                        f"table paid {ev.conviction}", seat=ev.seat, expected=cost,
                        recorded=ev.conviction)
            cost = ev.conviction  # followed: the blocks the table moved
        move(s, "conviction", "influence", cost, sink, "reroll")
        s.rolls.append(ev.face)
    else:
        s.rolls = [ev.face]


def on_complete(st: GameState, ev: Complete, sink: FindingSink) -> None:
    s = st.seats[ev.seat]
    if not ev.free and not ev.floating:
        take_main(st, s, "job", sink)
    held = st.jobs.get(ev.card)
    if held is None or held[0] != ev.seat:
        sink.report("vestige-job/not-assigned", f"{ev.card!r} is not a job in seat {ev.seat}'s "
                    "network", seat=ev.seat, recorded=ev.card)
        s.rolls.clear()
        return
    assignee = held[1]
    p = printed_or_warn(st, ev.card, sink, ev.seat)
    kind = p.kind if p is not None else "artifact"
    if ev.floating:
        _floating(st, s, sink)
    elif p is not None and p.complete_at is not None and not ev.free:
        near = {st.map.get(pos) for pos in adjacent_tiles(s.space or 0)}
        if p.complete_at not in near:
            move_sign(s, sink.report(
                "vestige-job/complete-not-adjacent", f"{ev.card!r} is completed next to "
                f"{p.complete_at}", seat=ev.seat, expected=p.complete_at, recorded=s.space,
                follows=s.turn_doubt, because=words(ev.seat, "space")))
    face = ev.face
    if not ev.free:
        if not s.rolls:
            sink.report("vestige-job/no-roll", "the die is rolled before paying", seat=ev.seat,
                        expected="a roll", recorded="none")
        elif face not in s.rolls:
            sink.report("vestige-job/face-not-rolled", f"{face} was not rolled ({s.rolls})",
                        seat=ev.seat, expected=list(s.rolls), recorded=face)
        # the die first
        if face == "upgrade":
            if ev.upgrade is None:
                sink.report("vestige-job/die-result", "UPGRADE: upgrade 1 block", seat=ev.seat,
                            expected="an upgrade", recorded="none")
            else:
                upgrade(s, ev.upgrade, sink, "UPGRADE")
        elif face == "strain":
            move(s, "influence", f"card:{assignee}", CONTENT.stated["strain_influence"], sink,
                 "STRAIN")
        # then the cost
        if p is not None and p.cost is not None:
            cost = {k: v for k, v in p.cost.items() if v}
            paid = {k: v for k, v in ev.pay.items() if v}
            ok = paid == cost
            if face == "efficient":
                ok = any(paid == {**cost, a: cost[a] - 1} or (
                    cost[a] == 1 and paid == {k: v for k, v in cost.items() if k != a})
                    for a in cost) or (not cost and not paid)
            if not ok:
                sink.report("vestige-job/wrong-cost", f"{ev.card!r} costs {cost}"
                            + (" less 1 of one attribute (EFFICIENT)" if face == "efficient"
                               else ""), seat=ev.seat, expected=cost, recorded=paid)
        spend_attributes(s, {str(k): v for k, v in ev.pay.items()}, sink, f"completing {ev.card}")
    s.rolls.clear()
    # untuck
    st.jobs.pop(ev.card, None)
    host = s.cards.get(assignee)
    if host is not None:
        host.job = None
    if face == "sever" and not ev.free:
        abandon(st, s, assignee, sink, reassign=None, lose_leverage=False)
    card = add_card(st, s, ev.card, kind)
    lev = p.leverage if p is not None and p.leverage else 0
    if kind == "artifact":
        if not 1 <= ev.charges <= CONTENT.stated["artifact_charges_max"]:
            sink.report("vestige-job/charges", f"{ev.card!r} gets 1-3 charges", seat=ev.seat,
                        expected="1-3", recorded=ev.charges)
        if ev.charges:
            avail = min(ev.charges, s.blocks.get("influence", 0))
            take(s, "influence", ev.charges, sink, "artifact charges")
            card.blocks += avail
    elif kind == "augmentation" and ev.attach_to is not None:
        to = s.cards.get(ev.attach_to)
        if to is None or to.kind not in CONTACTS:
            sink.report("vestige-job/attach-not-contact", f"{ev.attach_to!r} is not a contact",
                        seat=ev.seat, recorded=ev.attach_to)
        else:
            to.augmentations.append(ev.card)
            card.attached_to = ev.attach_to
    if kind != "bounty":
        card.leverage = lev
        gain(st, ev.seat, lev, "card", ev.card)
    st.row("jobs", seat=ev.seat, card=ev.card, job=kind, assignee=assignee, step="complete",
           face=face)


def _floating(st: GameState, s: SeatState, sink: FindingSink) -> None:
    """Floating Stones (p. 31): its controller may complete a job by visiting it, 1 per visit."""
    spots = sorted(pos for pos, r in st.map.items() if r == "floating_stones")
    controls = any(pos in s.regions for pos in spots)
    why = None
    if not controls:
        why = f"seat {s.seat} does not control Floating Stones"
    elif s.floating_credit < 1:
        why = (f"seat {s.seat} did not visit Floating Stones this turn" if not any(
            pos in s.visited_now for pos in spots) else "one job per visit to Floating Stones")
    if why:
        sink.report("vestige-job/floating-stones", why, seat=s.seat,
                    expected="its controller, once per visit", recorded=spots)
    s.floating_credit = max(0, s.floating_credit - 1)


def counts_of(pay: dict[str, int]) -> dict[str, int]:
    return counts([k for k, v in pay.items() for _ in range(v)])


__all__ = ["on_complete", "on_pickup", "on_roll", "record"]
