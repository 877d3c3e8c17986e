"""Legal moves of Vestige (``Ruleset.legal_moves``): who decides next and the complete events
they may record. Chance nodes draw cards, roll the outcome die, reveal triggers' stacks.

Cards are recorded, not known, so the simulator *makes up* the cards it deals: every simulated
card is named ``Sim <kind> <n>`` with printed values from a few fixed templates (labelled
simulated; they are not the real 151 cards). Endgame conditions and covert op objectives are not
printed either, so whether one is met is a chance node in simulated games.

An :class:`Intent` is an option that records nothing: choosing it tells the next call (through
``passed``) what the seat started (``complete:``: roll for a job; ``reroll``; ``pass:``: decline
a chance that a card is met).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.ruleset import Decision, Pass
from engine.vestige.board import NEIGHBOURS, adjacent_tiles, reachable
from engine.vestige.cards import CHARACTERS, CONTACTS, capable, supply_left
from engine.vestige.content import CONTENT
from engine.vestige.state import GameState, SeatState
from schemas.vestige import (
    Activate,
    Attach,
    CardBlocks,
    CardRecord,
    Complete,
    Control,
    Convert,
    CovertOp,
    Display,
    Draw,
    Effect,
    EndgameMet,
    EndgameReveal,
    FinalScoring,
    Move,
    NemesisTurn,
    Phase,
    Pickup,
    Printed,
    Recover,
    Reset,
    Rest,
    Roll,
    RoundStart,
    SeatSetup,
    SpeedBoost,
    StackTop,
    TileReveal,
    Transfer,
    Trigger,
    TurnEnd,
    TurnStart,
    VestigeEvent,
    Visit,
)

JOB_STACKS = ("artifact", "augmentation", "bounty")
FACES = ("upgrade", "efficient", "strain", "sever")
WHEEL = {"lawmaker": "ambition", "mercenary": "might", "smuggler": "cunning"}
JOB_COST = {"artifact": "intrigue", "augmentation": "ingenuity", "bounty": "guile"}
HQ_KIND = {"lawmaker_ridge": "lawmaker", "mercenary_camp": "mercenary",
           "smugglers_lair": "smuggler"}


# An option that records no event (see the module docstring): the core's Pass.
Intent = Pass


Option = VestigeEvent | Intent


def _count(st: GameState, kind: str) -> int:
    return sum(1 for p in st.printed.values() if p.kind == kind)


def sim_cards(st: GameState, kind: str) -> list[tuple[str, Printed]]:
    """The templates a simulated draw of ``kind`` chooses from (one name, several printings)."""
    name = f"Sim {kind} {_count(st, kind) + 1}"
    out: list[Printed] = []
    if kind in WHEEL:
        a = WHEEL[kind]
        others = [x for x in ("ambition", "cunning", "might") if x != a]
        jobs = sorted(CONTENT.contact_jobs[kind])
        for attrs, lev in (([a, a], 1), ([a, others[0]], 2), ([a, others[1]], 2)):
            out.append(Printed.model_validate(dict(kind=kind, colour=CONTENT.card_colour[kind], leverage=lev,
                               attributes=attrs, jobs=jobs)))
    elif kind == "chop_bot":
        for job in JOB_STACKS:
            out.append(Printed.model_validate(dict(kind="chop_bot", colour="chop_bot", leverage=1,
                               attributes=["ambition", "cunning", "might"], jobs=[job],
                               passive_at=2)))
    elif kind in JOB_STACKS:
        regions = sorted(set(st.map.values())) or ["archives"]
        sec = JOB_COST[kind]
        # (after a pickup of the face-up card, the top its stack showed then: flip_shows)
        top = st.stack_top.get(kind) or st.flip_shows.get(kind)
        for i, cost in enumerate(({sec: 2}, {sec: 1, "might": 1}, {sec: 1, "ambition": 1},
                                  {sec: 1, "cunning": 1})):
            # the card flipped face up was the stack's top card: its back shows that region
            pick = top or regions[(_count(st, kind) * 3 + i) % len(regions)]
            done = regions[(_count(st, kind) * 5 + 2 * i + 1) % len(regions)]
            out.append(Printed.model_validate(dict(kind=kind, colour=CONTENT.card_colour[kind],
                               leverage=3 + i % 2 + (2 if kind == "bounty" else 0),
                               pickup=pick, complete_at=done, cost=cost)))
    return [(name, p) for p in out]


def _chance(options: Sequence[Option], label: str, weights: Sequence[float] | None = None) -> Decision:
    return Decision(kind="chance", options=list(options), weights=weights, label=label)


def _player(seat: int, options: Sequence[Option], label: str) -> Decision:
    return Decision(kind="player", seat=seat, options=list(options), label=label)


def legal_moves(st: GameState, passed: frozenset[str] = frozenset()) -> Decision:
    if st.ended:
        return Decision(kind="end")
    if st.phase == "setup":
        return _setup(st)
    if st.phase == "final_scoring":
        return _final(st, passed)
    for s in st.seats.values():
        if s.pending_triggers:
            return _trigger(st, s)
        todo = sorted(p for p in s.triggers if p in st.content.magenta_triggers
                      and p not in s.covert_draws)
        if todo:
            return _chance([CovertOp(seat=s.seat, action="draw", trigger=todo[0])], "covert op")
    if st.pending_draw is not None:
        seat, stack = st.pending_draw
        return _chance([Draw.model_validate(dict(seat=seat, stack=stack, card=n, printed=p))
                        for n, p in sim_cards(st, stack)], "draw")
    refill = _refill(st)
    if refill is not None:
        return refill
    if st.team_turn:
        return _team_turn(st, passed)
    if st.active is None:
        if st.header.mode == "coop":
            if not st.took_turn:
                return _chance([TurnStart(seat=None)], "team turn")
        else:
            nxt = next((x for x in st.order if x not in st.took_turn), None)
            if nxt is not None:
                return _chance([TurnStart(seat=nxt)], "turn")
        for name in st.nemeses:
            if name not in st.nemesis_done:
                return _nemesis_turn(st, name)
        return _round_end(st, passed)
    return _turn(st, st.seats[st.active], passed)


def _nemesis_turn(st: GameState, name: str) -> Decision:
    """A nemesis's turn: Bone's threat table (p. 27); a nemesis without a printed table gains
    nothing in simulated games."""
    from engine.vestige.nemesis import bone_mercenaries, bone_turn

    n = st.nemeses[name]
    level = len(n.threats)
    lev, cards = 0, []
    if name == "bone":
        menace = st.header.difficulty == "menace"
        every = menace and level >= 3 and st.rulings.get("menace-high-threat") == "every-level"
        lev = bone_turn(level, len(n.regions), menace, every)
        want = bone_mercenaries(level, menace, every)
        left = supply_left(st, "mercenary")
        if left is not None:  # Bone gains only what is left of the box's 12
            want = min(want, max(left, 0))
        cards = [f"Sim mercenary {_count(st, 'mercenary') + len(n.cards) + 1 + i} (Bone)"
                 for i in range(want)]
    # a non-seat actor's decision (engine.core.ruleset.Decision.actor): the nemesis's turn
    return Decision(kind="player", seat=None, actor="nemesis",
                    options=[NemesisTurn(nemesis=name, threat=level, leverage=lev, cards=cards)],
                    label=f"{name}'s turn")


def _team_turn(st: GameState, passed: frozenset[str]) -> Decision:
    """Co-op shared turn (p. 29): seats act one at a time; here each seat acts until it has
    moved, then the next; the last seat to move may end the team turn."""
    waiting = [x for x in st.order if not st.seats[x].used.get("move")]
    seat = waiting[0] if waiting else st.order[-1]
    d = _turn(st, st.seats[seat], passed)
    if d.kind != "player":
        return d
    opts = [o for o in d.options if not isinstance(o, TurnEnd)]
    if not waiting:
        opts.append(TurnEnd(seat=None))
    s = st.seats[seat]
    for other in st.order:
        o = st.seats[other]
        if other == seat or s.space is None or o.space is None:
            continue
        if s.space in NEIGHBOURS.get(o.space, frozenset()):
            for c in s.cards.values():
                if not c.blocks and c.job is None and not c.augmentations and c.kind in CHARACTERS:
                    opts.append(Transfer(seat=seat, to=other, card=c.name))
    return _player(seat, opts, "team turn")


def _setup(st: GameState) -> Decision:
    for seat in st.order:
        s = st.seats[seat]
        if not s.set_up:
            owned = {c for x in st.seats.values() for c in x.cards}
            free = [n for n, p in st.printed.items() if p.kind == "chop_bot" and n not in owned
                    and n not in st.market]
            if not free:
                return _chance([CardRecord(name=n, printed=p) for n, p in sim_cards(st, "chop_bot")],
                               "setup chop bot")
            letter = "ABCDEF"[st.order.index(seat)]
            return _chance([SeatSetup.model_validate(dict(seat=seat, setup_card=f"Sim setup {letter}",
                                      start=st.content.start_letters[letter], chop_bot=free[0],
                                      blocks={"conviction": st.content.setup_other_blocks["conviction"]}))],
                           "seat setup")
        if not s.covert_held:
            return _chance([CovertOp(seat=seat, action="draw")], "setup covert op")
    need: set[str] = set()
    for s in st.seats.values():
        need |= adjacent_tiles(s.space or 0)
    if st.header.nemeses:
        need = set(st.map)
    down = sorted(need - st.face_up)
    if down:
        return _chance([_reveal(st, down)], "setup reveal")
    refill = _refill(st)
    if refill is not None:
        return refill
    if st.header.mode == "competitive" and st.setup_reveals == 0:
        return _chance([EndgameReveal(card="Sim endgame 0")], "setup endgame")
    return _chance([RoundStart(round=1)], "round")


def _reveal(st: GameState, positions: list[str]) -> VestigeEvent:
    from schemas.vestige import Reveal

    return Reveal(tiles=[TileReveal.model_validate(dict(position=p, region=st.map[p])) for p in positions])


def _left(st: GameState, kind: str) -> bool:
    """A card of ``kind`` is left in its stack (the box's supply, Game Components)."""
    left = supply_left(st, kind)
    return left is None or left > 0


def _refill(st: GameState) -> Decision | None:
    """Face-up jobs replaced at once and the stacks' top cards seen (p. 14); the market."""
    for stack in JOB_STACKS:
        if stack not in st.display and _left(st, stack):
            return _chance([Display.model_validate(dict(stack=stack, card=n, printed=p))
                            for n, p in sim_cards(st, stack)], "display")
        if stack not in st.stack_top and _left(st, stack):
            regions = sorted(set(st.map.values()) - CONTENT.no_visit_effect) or ["archives"]
            return _chance([StackTop.model_validate(dict(stack=stack, region=r))
                            for r in regions], "stack top")
    if len(st.market) < 3 and _left(st, "chop_bot"):
        return _chance([Display.model_validate(dict(stack="chop_bot", card=n, printed=p))
                        for n, p in sim_cards(st, "chop_bot")], "market")
    return None


def _trigger(st: GameState, s: SeatState) -> Decision:
    point = min(s.pending_triggers)
    endgame = None
    if point not in st.triggers_reached and st.final_round is None:
        endgame = f"Sim endgame {point}"
    threats = [f"Sim threat {point}"] if st.nemeses and point not in st.triggers_reached else []
    return _chance([Trigger(seat=s.seat, point=point, endgame=endgame, threats=threats)],
                   "trigger")


def _round_end(st: GameState, passed: frozenset[str]) -> Decision:
    for card in st.endgame_active:
        if card not in st.endgame_met and f"pass:{card}" not in passed:
            p = min(0.9, 0.08 * st.round)
            return _chance([EndgameMet(card=card), Intent(f"pass:{card}")],
                           "endgame condition", [p, 1 - p])
    if st.final_round is not None and st.round >= st.final_round:
        return _chance([Phase(name="final_scoring")], "final scoring")
    return _chance([RoundStart(round=st.round + 1)], "round")


def _final(st: GameState, passed: frozenset[str]) -> Decision:
    if st.final_done:
        return _chance([Phase(name="game_end")], "game end")
    for s in st.seats.values():
        if s.covert_flips < s.covert_held and f"pass:covert{s.seat}" not in passed:
            return _chance([CovertOp(seat=s.seat, action="flip", leverage=3),
                            Intent(f"pass:covert{s.seat}")], "covert op at game end", [0.4, 0.6])
    return _chance([FinalScoring()], "final scoring")


# --- a seat's turn --------------------------------------------------------------------------


def _inf(s: SeatState) -> int:
    return s.blocks.get("influence", 0)


def _b(s: SeatState, loc: str) -> int:
    return s.blocks.get(loc, 0)


def _turn(st: GameState, s: SeatState, passed: frozenset[str]) -> Decision:
    seat = s.seat
    if s.rolls:
        return _player(seat, _completions(st, s), "complete a job")
    if "reroll" in passed:
        return _chance([Roll.model_validate(dict(seat=seat, face=f, reroll=True)) for f in FACES], "reroll")
    if any(k.startswith("complete:") for k in passed):
        return _chance([Roll.model_validate(dict(seat=seat, face=f)) for f in FACES], "roll")
    opts: list[Option] = []
    used = s.used
    if not used.get("activate"):
        for c in s.cards.values():
            if c.kind not in CHARACTERS or (c.blocks >= 3 and _inf(s) < 6):
                continue  # (simulation policy: do not pile influence on a loaded card)
            p = st.printed.get(c.name)
            if c.kind == "chop_bot":
                choices = [[a] for a in (p.attributes if p else ["ambition", "cunning", "might"])]
            elif p is not None:
                choices = [list(p.attributes)]
            else:
                continue
            for g in choices:
                if _inf(s) >= 1 + len(g):
                    opts.append(Activate.model_validate(dict(seat=seat, card=c.name, gain=g)))
    if not used.get("move"):
        speed = s.speed + (CONTENT.stated["speed_boost"] if s.boosted else 0)
        for _dest, path in sorted(reachable(s.space or 0, speed, st.pawns(but=seat)).items()):
            near: set[str] = set()
            for sp in path[1:]:
                near |= adjacent_tiles(sp)
            down = sorted(p for p in near if p not in st.face_up)
            opts.append(Move(seat=seat, path=path, reveals=[
                TileReveal.model_validate(dict(position=p, region=st.map[p])) for p in down]))
        if not s.boosted:
            for frm in ("influence", "conviction"):
                if _b(s, frm):
                    opts.append(SpeedBoost.model_validate(dict(seat=seat, downgrade=frm)))
    if not used.get("visit"):
        for pos in sorted(adjacent_tiles(s.space or 0)):
            if pos in st.face_up:
                opts += _visits(st, s, pos)
        for frm in ("potential", "influence"):
            if _b(s, frm):
                opts.append(Rest.model_validate(dict(seat=seat, upgrade=frm)))
    for pos in sorted(s.visited_now - s.controlled_now - s.regions - st.team_controlled):
        if st.map.get(pos) == "jump_point":
            continue
        cost = 2 if pos in st.controller else 1
        if _b(s, "conviction") >= cost:
            opts.append(Control(seat=seat, position=pos))
    if not used.get("job"):
        opts += _pickups(st, s)
        for job, (owner, _who) in sorted(st.jobs.items()):
            if owner == seat and _can_complete(st, s, job):
                opts.append(Intent(f"complete:{job}"))
    prim = [a for a in ("ambition", "cunning", "might") if _b(s, a)]
    for i, a in enumerate(prim):
        for b in prim[i + 1:]:
            if _needs(st, s, CONTENT.secondary_of(a, b) or ""):
                opts.append(Convert.model_validate(dict(seat=seat, spend=(a, b),
                                                        into=CONTENT.secondary_of(a, b))))
    if _inf(s) < 2:  # recovering is a last resort (p. 16): offered when influence runs out
        for loc in ("conviction", "ambition", "cunning", "might", "guile", "intrigue",
                    "ingenuity"):
            if _b(s, loc):
                opts.append(Recover(seat=seat, source=loc))
    if _inf(s) < 3:  # ... and from a loaded character, abandoning it (p. 16)
        for c in s.cards.values():
            if c.kind in CHARACTERS and c.blocks >= 2:
                opts.append(_recover_card(st, s, c.name))
    if _b(s, "conviction"):
        for action, n in sorted(used.items()):
            if n and action not in s.resets:
                opts.append(Reset.model_validate(dict(seat=seat, action=action)))
    contacts = [c.name for c in s.cards.values() if c.kind in CONTACTS]
    near_shop = "chop_shop" in {st.map.get(p) for p in adjacent_tiles(s.space or 0)}
    for c in s.cards.values():
        if c.kind == "augmentation":
            # attach any time; moving it off a contact removes it: only next to the Chop Shop
            for host in contacts:
                if host != c.attached_to and (c.attached_to is None or near_shop):
                    opts.append(Attach(seat=seat, card=c.name, to=host))
            if c.attached_to is not None and near_shop:
                opts.append(Attach(seat=seat, card=c.name, to=None))
    for c in s.cards.values():
        if c.kind == "artifact" and c.blocks and c.name not in s.artifacts_used:
            opts.append(Effect(seat=seat, card=c.name, via="artifact"))
    if used.get("move"):
        opts.append(TurnEnd(seat=seat))
    return _player(seat, opts, "turn")


def _recover_card(st: GameState, s: SeatState, name: str) -> Recover:
    """Recover every block from a character, its job going to an eligible character with no job
    when there is one (p. 15; ruling recovered-job-reassign)."""
    card = s.cards[name]
    to = None
    if card.job is not None:
        kind = st.printed[card.job].kind if card.job in st.printed else "artifact"
        to = next((c.name for c in s.cards.values() if c.name != name and c.kind in CHARACTERS
                   and c.job is None and capable(st, c, kind)), None)
    return Recover.model_validate(dict(seat=s.seat, source=f"card:{name}", n=card.blocks,
                                       reassign=to))


def _needs(st: GameState, s: SeatState, attr: str) -> bool:
    for job, (owner, _w) in st.jobs.items():
        p = st.printed.get(job)
        if owner == s.seat and p is not None and p.cost and {str(k): v for k, v in p.cost.items()}.get(attr, 0) > _b(s, attr):
            return True
    return False


def _visits(st: GameState, s: SeatState, pos: str) -> list[Option]:
    """The resolutions of a visit to ``pos`` offered (choices enumerated: the Underground's
    contact type, the Chop Shop's market or stack, how often the Observatory repeats; the
    Obelisk offers one resolution; the Black Dove is not offered: its downgrade only serves a
    pickup the simulator never makes)."""
    region = st.map.get(pos)
    seat = s.seat
    out: list[Option] = []
    base = {"seat": seat, "position": pos, "region": region}
    if region == "underground" and _b(s, "conviction") >= 1:
        return [Visit.model_validate({**base, "contact": k}) for k in sorted(CONTACTS)
                if _left(st, k)]
    if region == "chop_shop" and _b(s, "conviction") >= 1 and _left(st, "chop_bot"):
        out = [Visit.model_validate({**base, "source": "stack"})]
        if st.market:
            out.append(Visit.model_validate({**base, "source": "market"}))
        return out
    if region == "observatory":
        for times in range(1, min(_b(s, "cunning"), 3) + 1):
            ups = ["potential"] * min(times, _b(s, "potential"))
            ups += ["influence"] * (times - len(ups))
            out.append(Visit.model_validate({**base, "times": times, "upgrades": ups}))
        return out
    v = _visit(st, s, pos)
    return [v] if v is not None else []


def _visit(st: GameState, s: SeatState, pos: str) -> Visit | None:
    region = st.map.get(pos)
    seat = s.seat
    inf, conv = _inf(s), _b(s, "conviction")
    gains = {"archives": "ambition", "black_market": "cunning", "scrapyard": "might"}
    hq = {"lawmaker_ridge": "ambition", "mercenary_camp": "might", "smugglers_lair": "cunning"}
    if region in gains and inf >= 2:
        return Visit.model_validate(dict(seat=seat, position=pos, region=region, gain=[gains[region]] * 2))
    if region in hq and _b(s, hq[region]) >= 2 and _left(st, HQ_KIND[region]):
        return Visit.model_validate(dict(seat=seat, position=pos, region=region))
    if region == "underground" and conv >= 1 and _left(st, "smuggler"):
        return Visit.model_validate(dict(seat=seat, position=pos, region=region, contact="smuggler"))
    if region == "chop_shop" and conv >= 1 and _left(st, "chop_bot"):
        return Visit.model_validate(dict(seat=seat, position=pos, region=region, source="stack"))
    if region == "garage" and _b(s, "might") >= 3 and s.speed < st.content.max_speed:
        return Visit.model_validate(dict(seat=seat, position=pos, region=region))
    if region == "generator":
        for c in s.cards.values():
            if c.kind == "artifact" and c.blocks < 3 and inf >= 1:
                return Visit.model_validate(dict(seat=seat, position=pos, region=region,
                             charges=[CardBlocks(card=c.name, n=1)]))
        return None
    if region == "oasis" and _b(s, "ambition") >= 1:
        full = [c for c in s.cards.values() if c.kind in CHARACTERS and c.blocks]
        if full:
            return Visit.model_validate(dict(seat=seat, position=pos, region=region,
                         returns=[CardBlocks(card=full[0].name, n=min(2, full[0].blocks))]))
        return None
    if region == "obelisk":
        have = sorted(((_b(s, a), a) for a in ("ambition", "cunning", "might")), reverse=True)
        if have[0][0] >= 2:
            a = have[0][1]
            other = [x for x in ("ambition", "cunning", "might") if x != a]
            return Visit.model_validate(dict(seat=seat, position=pos, region=region, spend=[a, a], gain=other))
        return None
    if region == "observatory" and _b(s, "cunning") >= 1 and _b(s, "potential") >= 1:
        return Visit.model_validate(dict(seat=seat, position=pos, region=region, upgrades=["potential"]))
    if region in ("trench", "jump_point"):
        return Visit.model_validate(dict(seat=seat, position=pos, region=region))
    return None


def _pickups(st: GameState, s: SeatState) -> list[Option]:
    out: list[Option] = []
    near = adjacent_tiles(s.space or 0)
    free = [c for c in s.cards.values() if c.kind in CHARACTERS and c.job is None]
    for stack in JOB_STACKS:
        card = st.display.get(stack)
        p = st.printed.get(card) if card else None
        shows = st.stack_top.get(stack)  # where the stack's top card says jobs are (p. 14)
        if card is None or p is None or shows is None:
            continue
        at = next((pos for pos in sorted(near) if st.map.get(pos) == shows), None)
        if at is None:
            continue
        for c in free:
            if capable(st, c, stack):
                out.append(Pickup.model_validate(dict(seat=s.seat, stack=stack, card=card, at=at,
                                  assignee=c.name, face_up=True)))
    return out


def _can_complete(st: GameState, s: SeatState, job: str) -> bool:
    p = st.printed.get(job)
    if p is None or p.cost is None:
        return False
    near = {st.map.get(pos) for pos in adjacent_tiles(s.space or 0)}
    if p.complete_at not in near:
        return False
    return all(_b(s, a) >= n for a, n in p.cost.items()) and _inf(s) >= 3


def _completions(st: GameState, s: SeatState) -> list[Option]:
    out: list[Option] = []
    seat = s.seat
    for job, (owner, _who) in sorted(st.jobs.items()):
        p = st.printed.get(job)
        if owner != seat or p is None or p.cost is None or not _can_complete(st, s, job):
            continue
        for face in sorted(set(s.rolls)):
            pay = {str(k): v for k, v in p.cost.items()}
            if face == "efficient":
                first = sorted(pay)[0]
                pay[first] -= 1
                pay = {k: v for k, v in pay.items() if v}
            extra: dict[str, object] = {}
            if face == "upgrade":
                extra["upgrade"] = "potential" if _b(s, "potential") else "influence"
            if p.kind == "artifact":
                extra["charges"] = 1
            if p.kind == "augmentation":
                host = next((c.name for c in s.cards.values() if c.kind in CONTACTS
                             and not (face == "sever" and c.name == _who)), None)
                if host is not None:
                    extra["attach_to"] = host
            out.append(Complete.model_validate({"seat": seat, "card": job, "face": face,
                                                "pay": pay, **extra}))
    if _b(s, "conviction") >= 1 and len(s.rolls) < 3:
        out.append(Intent("reroll"))
    return out
