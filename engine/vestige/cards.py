"""Network & Tableau (p. 18), Chop Bots (pp. 18-19), Contacts (pp. 20-21), Artifacts (p. 22),
Bounties and Augmentations (p. 23): card records, draws, card effects, attaching, transfers.

Cards are recorded, not known: the first record of a card fixes its printed values; a later
record or event that contradicts them is ``vestige-card/contradicts``. A card's ability is logged
as its effect (block moves and leverage) and checked for what the rules say: the blocks exist,
a contact's ability only in the turn it was activated, a chop bot's passive only at 2+ blocks,
an artifact once per turn for one charge.
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.vestige.blocks import gain, have, move
from engine.vestige.board import adjacent_tiles, spaces_adjacent
from engine.vestige.content import CONTENT
from engine.vestige.rulings import option
from engine.vestige.state import CardState, GameState, SeatState
from schemas.vestige import (
    Attach,
    CardRecord,
    Display,
    Draw,
    Effect,
    Printed,
    StackTop,
    Transfer,
)

CHARACTERS = frozenset({"lawmaker", "mercenary", "smuggler", "chop_bot"})
CONTACTS = frozenset({"lawmaker", "mercenary", "smuggler"})


def record(st: GameState, name: str, printed: Printed | None, sink: FindingSink,
           seat: int | None = None) -> Printed | None:
    """Record a card's printed values at first appearance; compare later records."""
    known = st.printed.get(name)
    if printed is None:
        return known
    if known is None:
        st.printed[name] = printed
        return printed
    if known != printed:
        diff = {k: (getattr(known, k), getattr(printed, k)) for k in Printed.model_fields
                if getattr(known, k) != getattr(printed, k)}
        sink.report("vestige-card/contradicts",
                    f"{name!r} was recorded earlier with other printed values: "
                    + ", ".join(f"{k} {a!r} vs {b!r}" for k, (a, b) in diff.items()),
                    seat=seat, expected={k: a for k, (a, _) in diff.items()},
                    recorded={k: b for k, (_, b) in diff.items()})
    return known


def printed_or_warn(st: GameState, name: str, sink: FindingSink, seat: int | None) -> Printed | None:
    p = st.printed.get(name)
    if p is None and name not in st.unrecorded:
        st.unrecorded.add(name)  # said once per card: its later uses skip the same checks
        sink.report("vestige-card/unrecorded",
                    f"{name!r} has no recorded printed values; checks that need them were skipped",
                    seat=seat, recorded=name)
    return p


SEVER_RULE = ("Vestige rulebook pp. 14-15, Main Actions: Pickup or Complete a Job, Outcome Die "
              "Results: SEVER (contact or chop bot lost: shuffled back into the stacks)")


def not_owned_rule(st: GameState, name: str) -> str | None:
    """A card lost to a SEVER result and used later: the finding cites SEVER (p. 15)."""
    return SEVER_RULE if name in st.severed else None


def kind_of(st: GameState, name: str, default: str) -> str:
    p = st.printed.get(name)
    return p.kind if p is not None else default


def colour_of(st: GameState, name: str, kind: str) -> str | None:
    p = st.printed.get(name)
    if p is not None and p.colour is not None:
        return p.colour
    if kind == "chop_bot":
        st.rest_on("chop_bot_colour")
        return st.content.chop_bot_colour
    return CONTENT.card_colour.get(kind)


def capable(st: GameState, card: CardState, job: str) -> bool:
    """Whether a character specialises in a job type (printed icons; else its contact type)."""
    p = st.printed.get(card.name)
    if p is not None and p.jobs:
        return job in p.jobs
    return job in CONTENT.contact_jobs.get(card.kind, frozenset())


def cards_out(st: GameState, kind: str) -> int:
    """Cards of ``kind`` out of their stack: tableaus, tucked jobs, nemesis columns, the face-up
    jobs and the chop bot market (Bone's cards, unrecorded, are his mercenaries, p. 27)."""
    names: set[str] = set()
    for s in st.seats.values():
        names |= {c.name for c in s.cards.values() if c.kind == kind}
    for job in st.jobs:
        p = st.printed.get(job)
        if p is not None and p.kind == kind:
            names.add(job)
    for n in st.nemeses.values():
        for name in n.cards:
            p = st.printed.get(name)
            if (p.kind if p is not None else "mercenary") == kind:
                names.add(name)
    if kind == "chop_bot":
        names |= set(st.market)
    elif kind in st.display:
        names.add(st.display[kind])
    return len(names)


def supply_left(st: GameState, kind: str) -> int | None:
    """How many cards of ``kind`` are still in the stack (None: not known). Nemesis packs other
    than Bone's shuffle their own cards into the stacks (p. 26), by numbers not printed."""
    box = CONTENT.box.get(kind)
    if box is None or any(n != "bone" for n in st.nemeses):
        return None
    return box - cards_out(st, kind)


def supply_check(st: GameState, kind: str, sink: FindingSink, seat: int | None) -> None:
    """The box holds only so many cards of a kind (Game Components): report once per kind."""
    left = supply_left(st, kind)
    if left is None or left >= 0 or kind in st.supply_flagged:
        return
    st.supply_flagged.add(kind)
    box = CONTENT.box[kind]
    sink.report("vestige-card/supply", f"{box - left} {kind} cards are out of their stack; the "
                f"box has {box}", seat=seat, expected=f"<= {box}", recorded=box - left)


def on_card(st: GameState, ev: CardRecord, sink: FindingSink) -> None:
    record(st, ev.name, ev.printed, sink)


def on_display(st: GameState, ev: Display, sink: FindingSink) -> None:
    """A card flipped face up next to its stack (jobs) or into the chop bot market."""
    p = record(st, ev.card, ev.printed, sink)
    if ev.stack == "chop_bot":
        st.market.append(ev.card)
    else:
        # the card flipped face up is the stack's top card (p. 14): after a pickup of the
        # face-up card, the top the stack showed then; else the top it shows now
        flipped = st.flip_shows.pop(ev.stack, None)
        shows = st.stack_top.get(ev.stack) or flipped
        if shows is not None and p is not None and p.pickup is not None and p.pickup != shows:
            sink.report("vestige-job/stack-top-mismatch", f"the {ev.stack} stack's top card "
                        f"showed {shows}; {ev.card!r} flipped from it shows {p.pickup}",
                        expected=shows, recorded=p.pickup)
        st.display[ev.stack] = ev.card
        st.display_taken.discard(ev.stack)
        st.stack_top.pop(ev.stack, None)  # the next card is now on top
    supply_check(st, ev.stack, sink, None)


def on_stack_top(st: GameState, ev: StackTop, sink: FindingSink) -> None:
    """Chance: the region the top card of a job stack shows (p. 14)."""
    st.stack_top[ev.stack] = ev.region


def add_card(st: GameState, s: SeatState, name: str, kind: str) -> CardState:
    c = CardState(name=name, kind=kind)
    s.cards[name] = c
    return c


def on_draw(st: GameState, ev: Draw, sink: FindingSink) -> None:
    """Chance: the card(s) drawn for a seat (after surveil) and the one kept; it enters the
    tableau and its leverage is gained (contacts, chop bots; p. 19, p. 21). Covert ops are drawn
    through ``covert_op``."""
    s = st.seats[ev.seat]
    holder = st.owner(ev.card) if ev.stack not in ("artifact", "augmentation", "bounty",
                                                    "covert_op") else None
    if holder is not None and not st.partial:
        # each card is one component: a card in a tableau is not in a stack (a draw line
        # written twice, or another card's name): reported, and the tableau keeps it once
        sink.report("vestige-card/in-play", f"{ev.card!r} is drawn, but it is already in seat "
                    f"{holder}'s tableau", seat=ev.seat, expected="a card from the stack",
                    recorded=ev.card)
        return
    p = record(st, ev.card, ev.printed, sink, ev.seat)
    if p is not None and p.kind != ev.stack:
        sink.report("vestige-card/wrong-kind", f"{ev.card!r} is a {p.kind}, not from the "
                    f"{ev.stack} stack", seat=ev.seat, expected=ev.stack, recorded=p.kind)
    if ev.surveil:
        move(s, "conviction", "influence", ev.surveil * CONTENT.stated["surveil_cost"], sink,
             "surveil")
        if ev.drawn and len(ev.drawn) != 1 + CONTENT.stated["surveil_cards"] * ev.surveil:
            sink.report("vestige-card/surveil", f"{ev.surveil} surveil draws "
                        f"{1 + 2 * ev.surveil} cards", seat=ev.seat,
                        expected=1 + 2 * ev.surveil, recorded=len(ev.drawn))
    if ev.source == "market":
        if st.market and ev.card not in st.market:
            sink.report("vestige-job/face-up-mismatch",
                        f"{ev.card!r} is not in the chop bot market {st.market}",
                        seat=ev.seat, expected=list(st.market), recorded=ev.card)
        if ev.card in st.market:
            st.market.remove(ev.card)
    if st.pending_draw is not None and st.pending_draw[0] == ev.seat:
        want = st.pending_draw[1]
        if ev.stack != want and ev.stack != "covert_op":
            sink.report("vestige-card/draw-wrong-stack", f"the visit adds a {want}; the card "
                        f"was drawn from the {ev.stack} stack", seat=ev.seat, expected=want,
                        recorded=ev.stack)
        st.pending_draw = None
    elif (st.active == ev.seat or st.team_turn) and ev.source == "stack":
        st.early_draw = (ev.seat, ev.stack, sink.line)  # a visit may call for it next (swapped)
    if ev.stack in ("artifact", "augmentation", "bounty", "covert_op"):
        return  # jobs enter through pickup; covert ops through covert_op
    enter_tableau(st, s, ev.card, ev.stack, sink)


def enter_tableau(st: GameState, s: SeatState, name: str, kind: str, sink: FindingSink) -> None:
    """A contact or chop bot drawn into ``s``'s tableau: its printed leverage is gained (p. 19,
    p. 21). Also what a draw line that is missing evidently did (turns.end_turn)."""
    c = add_card(st, s, name, kind)
    supply_check(st, kind, sink, s.seat)
    p = st.printed.get(name)
    c.leverage = p.leverage if p is not None and p.leverage else 0
    gain(st, s.seat, c.leverage, "card", name)
    st.row("cards", seat=s.seat, card=name, kind=c.kind, how="draw", leverage=c.leverage)


def abandon(st: GameState, s: SeatState, name: str, sink: FindingSink, *, reassign: str | None,
            lose_leverage: bool) -> None:
    """A card leaves the tableau: its blocks return to influence; a contact's augmentations go
    with it; its job is reassigned to an eligible character or lost (p. 15, p. 16). With
    ``lose_leverage`` (recover) the leverage of the card and its augmentations is lost; a sever
    keeps it (p. 15)."""
    card = s.cards.pop(name, None)
    if card is None:
        return
    if not lose_leverage:  # severed (p. 15): a later use of it cites SEVER
        st.severed[name] = s.seat
    s.blocks["influence"] = s.blocks.get("influence", 0) + card.blocks
    lost = card.leverage
    for aug in card.augmentations:
        a = s.cards.pop(aug, None)
        if a is not None:
            s.blocks["influence"] = s.blocks.get("influence", 0) + a.blocks
            lost += a.leverage
    if card.attached_to and card.attached_to in s.cards:
        host = s.cards[card.attached_to]
        if name in host.augmentations:
            host.augmentations.remove(name)
    if lose_leverage:
        gain(st, s.seat, -lost, "abandon", name)
    job = card.job
    if job is not None:
        st.jobs.pop(job, None)
        if reassign is None and lose_leverage:
            free = sorted(c.name for c in s.cards.values() if c.kind in CHARACTERS
                          and c.job is None and capable(st, c, _job_type(st, job)))
            if free and option(st, "recovered-job-reassign") == "must":
                sink.report("vestige-recover/reassign", f"{job!r} must go to an eligible "
                            f"character with no job ({', '.join(free)}); it was dropped",
                            seat=s.seat, expected=free, recorded=None)
        if reassign is not None:
            to = s.cards.get(reassign)
            if to is None or to.kind not in CHARACTERS or to.job is not None or not capable(
                    st, to, _job_type(st, job)):
                sink.report("vestige-recover/reassign",
                            f"{job!r} cannot go to {reassign!r}: it must be a character in the "
                            "tableau, capable of the job, with no job", seat=s.seat,
                            recorded=reassign)
            else:
                to.job = job
                st.jobs[job] = (s.seat, reassign)
    st.row("cards", seat=s.seat, card=name, kind=card.kind, how="lost", leverage=0)


def _job_type(st: GameState, job: str) -> str:
    p = st.printed.get(job)
    return p.kind if p is not None else "artifact"


def on_effect(st: GameState, ev: Effect, sink: FindingSink) -> None:
    """A card ability's effect, as recorded: checked for the card's state and block conservation."""
    s = st.seats[ev.seat]
    owner = s
    if ev.owner is not None and ev.owner != ev.seat:
        if not _shared_ok(st, ev, sink):
            return
        owner = st.seats[ev.owner]
    card = owner.cards.get(ev.card)
    if ev.via in ("contact", "chop_bot", "artifact", "augmentation"):
        if card is None:
            sink.report("vestige-card/not-owned", f"{ev.card!r} is not in seat {ev.seat}'s "
                        "tableau" + (" (lost to SEVER)" if ev.card in st.severed else ""),
                        seat=ev.seat, recorded=ev.card, rule=not_owned_rule(st, ev.card))
            return
        if ev.via == "contact" and ev.card not in owner.activated:
            sink.report("vestige-effect/inactive-contact",
                        f"{ev.card!r} was not activated this turn", seat=ev.seat,
                        expected="activated this turn", recorded=ev.card)
        elif ev.via == "augmentation" and (card.attached_to is None
                                           or card.attached_to not in owner.activated):
            sink.report("vestige-effect/inactive-contact",
                        f"augmentation {ev.card!r} is not on a contact activated this turn",
                        seat=ev.seat, expected="on an activated contact", recorded=card.attached_to)
        elif ev.via == "augmentation" and card.attached_to is not None:
            host = card.attached_to
            first = owner.aug_used.setdefault(host, ev.card)
            if first != ev.card:
                sink.report("vestige-effect/second-augmentation", f"{host!r} already used "
                            f"{first!r} this turn; {ev.card!r} is a second", seat=ev.seat,
                            expected=first, recorded=ev.card)
        elif ev.via == "chop_bot":
            p = st.printed.get(ev.card)
            need = p.passive_at if p is not None and p.passive_at else CONTENT.stated["chop_bot_passive"]
            if card.blocks < need:
                sink.report("vestige-effect/passive-inactive",
                            f"{ev.card!r} has {card.blocks} blocks; its passive needs {need}",
                            seat=ev.seat, expected=f">= {need}", recorded=card.blocks)
        elif ev.via == "artifact":
            if ev.card in s.artifacts_used:
                option(st, "artifact-other-turns")
                sink.report("vestige-artifact/twice", f"{ev.card!r} was already used this turn",
                            seat=ev.seat, recorded=ev.card)
            elif card.blocks < 1:
                sink.report("vestige-artifact/no-charge", f"{ev.card!r} has no charge",
                            seat=ev.seat, expected=">= 1", recorded=0)
            else:
                move(s, f"card:{ev.card}", "influence", 1, sink, "artifact charge")
            s.artifacts_used.add(ev.card)
    for m in ev.moves:
        move(s, m.src, m.dst, m.n, sink, f"{ev.card} effect")
    if ev.gain_card is not None and ev.gain_card not in s.cards:
        add_card(st, s, ev.gain_card, kind_of(st, ev.gain_card, "chop_bot"))
    gain(st, ev.seat, ev.leverage, "card_effect", ev.card)


def _shared_ok(st: GameState, ev: Effect, sink: FindingSink) -> bool:
    """A teammate uses a card's ability that its owner gave them this turn (co-op, p. 29)."""
    assert ev.owner is not None
    why = None
    if st.header.mode != "coop":
        why = "card effects are shared only in co-op"
    elif ev.owner not in st.seats:
        why = f"seat {ev.owner} is not at the table"
    elif ev.via != "contact" or ev.seat not in st.shared.get((ev.owner, ev.card), set()):
        why = (f"seat {ev.owner} did not give {ev.card!r}'s ability to seat {ev.seat} when "
               "activating it this turn")
    if why:
        sink.report("vestige-share/invalid", why, seat=ev.seat, expected="a shared ability",
                    recorded=ev.card)
        return False
    return True


def on_attach(st: GameState, ev: Attach, sink: FindingSink) -> None:
    """Attach an augmentation to a contact (any time) or remove it next to the Chop Shop (p. 23)."""
    s = st.seats[ev.seat]
    aug = s.cards.get(ev.card)
    if aug is None or aug.kind != "augmentation":
        sink.report("vestige-attach/invalid", f"{ev.card!r} is not a completed augmentation in "
                    "the tableau", seat=ev.seat, recorded=ev.card)
        return
    if ev.to is None:
        near = {st.map.get(p) for p in adjacent_tiles(s.space or 0)}
        if "chop_shop" not in near:
            sink.report("vestige-attach/invalid", "augmentations are removed only next to the "
                        "Chop Shop", seat=ev.seat, expected="adjacent to the Chop Shop",
                        recorded=s.space)
            return
        _detach(s, aug)
        return
    host = s.cards.get(ev.to)
    if host is None or host.kind not in CONTACTS:
        sink.report("vestige-attach/invalid", f"{ev.to!r} is not a contact in the tableau",
                    seat=ev.seat, recorded=ev.to)
        return
    if aug.attached_to is not None and aug.attached_to != ev.to:
        near = {st.map.get(p) for p in adjacent_tiles(s.space or 0)}
        if "chop_shop" not in near:
            sink.report("vestige-attach/invalid", f"{ev.card!r} is on {aug.attached_to!r}: "
                        "moving it to another contact removes it, which happens only next to the "
                        "Chop Shop", seat=ev.seat, expected="adjacent to the Chop Shop",
                        recorded=s.space)
            return
    _detach(s, aug)
    aug.attached_to = ev.to
    host.augmentations.append(ev.card)


def _detach(s: SeatState, aug: CardState) -> None:
    if aug.attached_to and aug.attached_to in s.cards:
        h = s.cards[aug.attached_to]
        if aug.name in h.augmentations:
            h.augmentations.remove(aug.name)
    aug.attached_to = None


def on_transfer(st: GameState, ev: Transfer, sink: FindingSink) -> None:
    """Co-op card transfer (p. 29): no blocks on it, pawns adjacent; no leverage changes."""
    s, to = st.seats[ev.seat], st.seats[ev.to]
    card = s.cards.get(ev.card)
    why = None
    if st.header.mode != "coop":
        why = "cards are transferred only in co-op"
    elif card is None:
        why = f"{ev.card!r} is not in seat {ev.seat}'s tableau"
    elif card.blocks or any(s.cards[a].blocks for a in card.augmentations if a in s.cards):
        why = f"{ev.card!r} has blocks on it"
    elif s.space is None or to.space is None or not (
            s.space == to.space or spaces_adjacent(s.space, to.space)):
        why = "the two network pawns are not adjacent"
    if why or card is None:
        sink.report("vestige-transfer/invalid", why or "invalid transfer", seat=ev.seat,
                    recorded=ev.card)
        return
    moved = [card.name] + list(card.augmentations)
    for name in moved:
        c = s.cards.pop(name, None)
        if c is not None:
            to.cards[name] = c
    if card.job is not None:
        st.jobs[card.job] = (ev.to, card.name)


def has_blocks(s: SeatState, loc: str) -> int:
    return have(s, loc)
