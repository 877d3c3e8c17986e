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
from engine.vestige.state import CardState, GameState, SeatState
from schemas.vestige import Attach, CardRecord, Display, Draw, Effect, Printed, Transfer

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
    if p is None:
        sink.report("vestige-card/unrecorded",
                    f"{name!r} has no recorded printed values; checks that need them were skipped",
                    seat=seat, recorded=name)
    return p


def kind_of(st: GameState, name: str, default: str) -> str:
    p = st.printed.get(name)
    return p.kind if p is not None else default


def colour_of(st: GameState, name: str, kind: str) -> str | None:
    p = st.printed.get(name)
    if p is not None and p.colour is not None:
        return p.colour
    if kind == "chop_bot":
        st.rest_on("chop_bot_colour")
        return CONTENT.chop_bot_colour
    return CONTENT.card_colour.get(kind)


def capable(st: GameState, card: CardState, job: str) -> bool:
    """Whether a character specialises in a job type (printed icons; else its contact type)."""
    p = st.printed.get(card.name)
    if p is not None and p.jobs:
        return job in p.jobs
    return job in CONTENT.contact_jobs.get(card.kind, frozenset())


def on_card(st: GameState, ev: CardRecord, sink: FindingSink) -> None:
    record(st, ev.name, ev.printed, sink)


def on_display(st: GameState, ev: Display, sink: FindingSink) -> None:
    """A card flipped face up next to its stack (jobs) or into the chop bot market."""
    record(st, ev.card, ev.printed, sink)
    if ev.stack == "chop_bot":
        st.market.append(ev.card)
    else:
        st.display[ev.stack] = ev.card


def add_card(st: GameState, s: SeatState, name: str, kind: str) -> CardState:
    c = CardState(name=name, kind=kind)
    s.cards[name] = c
    return c


def on_draw(st: GameState, ev: Draw, sink: FindingSink) -> None:
    """Chance: the card(s) drawn for a seat (after surveil) and the one kept; it enters the
    tableau and its leverage is gained (contacts, chop bots; p. 19, p. 21). Covert ops are drawn
    through ``covert_op``."""
    s = st.seats[ev.seat]
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
        st.pending_draw = None
    if ev.stack in ("artifact", "augmentation", "bounty", "covert_op"):
        return  # jobs enter through pickup; covert ops through covert_op
    c = add_card(st, s, ev.card, ev.stack)
    lev = p.leverage if p is not None and p.leverage else 0
    c.leverage = lev
    gain(st, ev.seat, lev, "card", ev.card)
    st.row("cards", seat=ev.seat, card=ev.card, kind=c.kind, how="draw", leverage=lev)


def abandon(st: GameState, s: SeatState, name: str, sink: FindingSink, *, reassign: str | None,
            lose_leverage: bool) -> None:
    """A card leaves the tableau: its blocks return to influence; a contact's augmentations go
    with it; its job is reassigned to an eligible character or lost (p. 15, p. 16). With
    ``lose_leverage`` (recover) the leverage of the card and its augmentations is lost; a sever
    keeps it (p. 15)."""
    card = s.cards.pop(name, None)
    if card is None:
        return
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
    card = s.cards.get(ev.card)
    if ev.via in ("contact", "chop_bot", "artifact", "augmentation"):
        if card is None:
            sink.report("vestige-card/not-owned", f"{ev.card!r} is not in seat {ev.seat}'s "
                        "tableau", seat=ev.seat, recorded=ev.card)
            return
        if ev.via == "contact" and ev.card not in s.activated:
            sink.report("vestige-effect/inactive-contact",
                        f"{ev.card!r} was not activated this turn", seat=ev.seat,
                        expected="activated this turn", recorded=ev.card)
        elif ev.via == "augmentation" and (card.attached_to is None
                                           or card.attached_to not in s.activated):
            sink.report("vestige-effect/inactive-contact",
                        f"augmentation {ev.card!r} is not on a contact activated this turn",
                        seat=ev.seat, expected="on an activated contact", recorded=card.attached_to)
        elif ev.via == "chop_bot":
            p = st.printed.get(ev.card)
            need = p.passive_at if p is not None and p.passive_at else CONTENT.stated["chop_bot_passive"]
            if card.blocks < need:
                sink.report("vestige-effect/passive-inactive",
                            f"{ev.card!r} has {card.blocks} blocks; its passive needs {need}",
                            seat=ev.seat, expected=f">= {need}", recorded=card.blocks)
        elif ev.via == "artifact":
            if ev.card in s.artifacts_used:
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
