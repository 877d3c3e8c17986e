"""Endgame Conditions, Ending the Game (p. 25) with the modes' endgame (pp. 28-29): revealing and
meeting conditions (2 met, 3 solo: the next round is the final one; never unmet), endgame
scoring (covert ops, bounties still held, regions), mastery (most cards of a colour; ties
unclaimed; jobs do not count; teams combine), and the winner (most leverage; a tie: everyone
loses; a nemesis's met unique goal wins outright)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.core.findings import FindingSink
from engine.core.replay import Outcome
from engine.vestige.blocks import gain, region_value
from engine.vestige.cards import colour_of
from engine.vestige.content import CONTENT
from engine.vestige.rulings import option
from engine.vestige.state import GameState
from schemas.vestige import EndgameMet, EndgameReveal, FinalScoring


def needed(st: GameState) -> int:
    return st.content.stated["endgame_needed_solo" if st.header.mode == "solo" else "endgame_needed"]


def reveal_endgame(st: GameState, card: str, trigger: int | None, sink: FindingSink) -> None:
    if trigger is None:
        forbidden = st.header.mode in ("solo", "team") or (
            st.header.mode == "coop" and bool(st.nemeses))
        if forbidden or st.setup_reveals >= 1 or st.phase != "setup":
            sink.report("vestige-setup/endgame-reveal", "no endgame condition is revealed at "
                        f"setup in {st.header.mode} mode" if forbidden else
                        "one endgame condition is revealed at setup", expected="none"
                        if forbidden else 1, recorded=card)
        st.setup_reveals += 1
    else:
        if st.final_round is not None:
            sink.report("vestige-endgame/reveal-after-final", f"{card!r} was revealed after the "
                        f"final round ({st.final_round}) was triggered", recorded=card)
            return
        if trigger not in st.triggers_reached and not st.partial:
            sink.report("vestige-endgame/reveal-not-triggered", f"no disc has reached trigger "
                        f"{trigger}", expected="a reached trigger", recorded=trigger)
        elif trigger in st.trigger_endgame:
            sink.report("vestige-endgame/reveal-twice", f"trigger {trigger}'s stack held one "
                        "endgame condition, already revealed", expected="none", recorded=card)
            return
        st.trigger_endgame.add(trigger)
        st.endgame_due.discard(trigger)
    st.endgame_active.append(card)
    st.row("endgame", card=card, trigger=trigger, change="revealed")


def on_endgame_reveal(st: GameState, ev: EndgameReveal, sink: FindingSink) -> None:
    if ev.trigger is not None:
        st.rest_on("trigger_points")
    reveal_endgame(st, ev.card, ev.trigger, sink)


def on_endgame_met(st: GameState, ev: EndgameMet, sink: FindingSink) -> None:
    if ev.card in st.endgame_met:
        sink.report("vestige-endgame/already-met", f"{ev.card!r} was already met",
                    recorded=ev.card)
        return
    if ev.card not in st.endgame_active:
        sink.report("vestige-endgame/not-revealed", f"{ev.card!r} is not an active endgame "
                    "condition", expected=list(st.endgame_active), recorded=ev.card)
        return
    st.endgame_met.append(ev.card)
    st.row("endgame", card=ev.card, trigger=None, change="met")
    if st.final_round is None and len(st.endgame_met) >= needed(st):
        st.final_round = max(st.round, 1) + 1
        st.row("endgame", card=None, trigger=None, change=f"final round {st.final_round}")


# --- final scoring --------------------------------------------------------------------------


@dataclass(slots=True)
class Entity:
    """Who competes for mastery and victory: a seat, a team, a nemesis or the nemesis team."""

    label: str
    seats: list[int] = field(default_factory=list)
    nemeses: list[str] = field(default_factory=list)
    nemesis_side: bool = False


def entities(st: GameState) -> list[Entity]:
    h = st.header
    out: list[Entity] = []
    if h.mode == "team" and h.teams:
        for i, t in enumerate(h.teams, start=1):
            out.append(Entity(f"team:{i}", seats=list(t)))
    elif h.mode == "coop":
        out.append(Entity("players", seats=sorted(st.seats)))
    else:
        out += [Entity(str(s), seats=[s]) for s in sorted(st.seats)]
    nem_team = h.mode in ("team", "coop") or any(n.team for n in st.nemeses.values())
    if st.nemeses:
        if nem_team:
            out.append(Entity("nemeses", nemeses=list(st.nemeses), nemesis_side=True))
        else:
            out += [Entity(n, nemeses=[n], nemesis_side=True) for n in st.nemeses]
    return out


def _colours(st: GameState, e: Entity) -> dict[str, int]:
    out: dict[str, int] = {}
    for seat in e.seats:
        for c in st.seats[seat].cards.values():
            col = colour_of(st, c.name, c.kind)
            if col is not None:
                out[col] = out.get(col, 0) + 1
    for n in e.nemeses:
        for name in st.nemeses[n].cards:
            p = st.printed.get(name)
            col = colour_of(st, name, p.kind if p is not None else "mercenary")
            if col is not None:
                out[col] = out.get(col, 0) + 1
    return out


def mastery(st: GameState, ents: list[Entity]) -> dict[str, str | None]:
    """Colour -> the label of the entity that claims it (None: unclaimed)."""
    counts = {e.label: _colours(st, e) for e in ents}
    nem_team = next((e for e in ents if e.nemesis_side and len(ents) > 1 and e.label == "nemeses"),
                    None)
    out: dict[str, str | None] = {}
    for colour in st.content.mastery_leverage:
        best = max((counts[e.label].get(colour, 0) for e in ents), default=0)
        top = [e for e in ents if counts[e.label].get(colour, 0) == best]
        claim: Entity | None = top[0] if best > 0 and len(top) == 1 else None
        if claim is not None and nem_team is not None and not claim.nemesis_side and best < 2:
            claim = None
        out[colour] = claim.label if claim is not None else None
    return out


def mastery_value(st: GameState, colour: str) -> int:
    if colour == "ingenuity":
        return st.content.stated["ingenuity_mastery"]
    st.rest_on("mastery_leverage")
    return st.content.mastery_leverage[colour]


def close_game(st: GameState, sink: FindingSink) -> None:
    """Check the game reached its end: the final round played in full."""
    from engine.vestige.turns import close_round

    if st.partial or st.closed:
        return
    st.closed = True
    close_round(st, sink)
    if st.final_round is None or st.round < st.final_round:
        sink.report("vestige-endgame/early-end", "the game ended before its final round" + (
            f" ({st.final_round})" if st.final_round else ": fewer than "
            f"{needed(st)} endgame conditions were met"),
            expected=st.final_round or f"{needed(st)} conditions met", recorded=st.round)


def compute_final(st: GameState, sink: FindingSink) -> None:
    """Step 1 (covert ops flipped, bounties still held, regions), Step 2 (mastery), the winner."""
    if st.final_done:
        return
    st.final_done = True
    close_game(st, sink)
    st.phase = "final_scoring"
    per_seat: dict[int, dict[str, object]] = {}
    for seat, s in sorted(st.seats.items()):
        bounties = sum((st.printed[c].leverage or 0) for c in s.cards
                       if c in st.printed and st.printed[c].kind == "bounty")
        regions = sum(region_value(st, st.map.get(p)) for p in sorted(s.regions))
        gain(st, seat, bounties, "bounty", "endgame")
        gain(st, seat, regions, "region_end", "endgame")
        # The Rise (p. 31): its controller gains 2 per completed (flipped) covert op
        rise = sum(CONTENT.stated["rise_per_covert_op"] * s.covert_flips
                   for p in sorted(s.regions) if st.map.get(p) == "rise")
        gain(st, seat, rise, "rise", "endgame")
        per_seat[seat] = {"covert_ops": s.end_covert, "bounties": bounties, "regions": regions,
                          "rise": rise}
    for n in st.nemeses.values():
        values = sum(region_value(st, st.map.get(p)) for p in n.regions)
        if n.name == "bone":
            threat = len(n.regions) * len(n.threats)
            if option(st, "bone-endgame") == "threat-only":
                values = 0
            n.leverage += threat
        n.leverage += values
    ents = entities(st)
    claims = mastery(st, ents)
    by_label = {e.label: e for e in ents}
    mastery_lev: dict[str, int] = {e.label: 0 for e in ents}
    for colour, label in claims.items():
        if label is None:
            continue
        v = mastery_value(st, colour)
        mastery_lev[label] += v
        e = by_label[label]
        if e.seats:
            gain(st, e.seats[0], v, "mastery", colour)
        else:
            st.nemeses[e.nemeses[0]].leverage += v
        st.row("mastery", colour=colour, claimant=label, leverage=v)
    for colour, label in claims.items():
        if label is None:
            st.row("mastery", colour=colour, claimant=None, leverage=0)
    totals = {e.label: sum(st.seats[x].leverage for x in e.seats)
              + sum(st.nemeses[n].leverage for n in e.nemeses) for e in ents}
    decide(st, ents, totals, claims, per_seat, mastery_lev)


def decide(st: GameState, ents: list[Entity], totals: dict[str, int],
           claims: dict[str, str | None], per_seat: dict[int, dict[str, object]],
           mastery_lev: dict[str, int]) -> None:
    goal = None
    bone = st.nemeses.get("bone")
    if bone is not None and len(bone.regions) >= st.content.stated["bone_goal_regions"]:
        goal = "bone"
    elif st.recorded_goal is not None and st.recorded_goal in st.nemeses and (
            st.recorded_goal != "bone"):
        # other nemeses' goals are not printed: the table's record is taken (p. 26)
        goal = st.recorded_goal
    winner: Entity | None = None
    if goal is not None:
        winner = next(e for e in ents if goal in e.nemeses)
        labels = sorted(winner.nemeses)
        ending = "nemesis_goal"
        win_seats: list[int] = []
    else:
        best = max(totals.values(), default=0)
        top = [e for e in ents if totals[e.label] == best]
        if len(top) == 1:
            winner = top[0]
            labels = sorted([str(x) for x in top[0].seats] + top[0].nemeses)
            win_seats = sorted(top[0].seats)
            ending = "most_leverage"
        else:
            labels, win_seats, ending = [], [], "tie"
    mode = st.header.mode
    result: Literal["won", "lost"] | None = None
    if mode in ("coop", "solo"):
        result = "won" if win_seats else "lost"
        win_seats = sorted(st.seats) if win_seats else []
    team = winner.label if winner is not None and mode in ("team", "coop") else None
    st.outcome = Outcome(
        complete=True, provisional_winners=win_seats, winners=win_seats, ending=ending,
        mode=mode, winning_team=team, result=result,
        details={
            "final_leverage": {s.seat: s.leverage for s in st.seats.values()},
            "nemesis_leverage": {n.name: n.leverage for n in st.nemeses.values()},
            "totals": totals, "winners": labels, "mastery": claims,
            "mastery_leverage": mastery_lev, "endgame": per_seat, "nemesis_goal": goal,
            "rounds": st.round, "declared": dict(sorted(st.declared_used.items())),
        })


def note_goal(st: GameState, ev: FinalScoring, sink: FindingSink) -> None:
    """The table's record of a nemesis's met unique goal (p. 26), read before scoring."""
    g = ev.nemesis_goal
    if g is None:
        return
    if g not in st.nemeses:
        sink.report("vestige-nemesis/goal", f"{g!r} is not a nemesis in this game",
                    expected=sorted(st.nemeses), recorded=g)
        return
    if g == "bone":
        bone = st.nemeses["bone"]
        need = st.content.stated["bone_goal_regions"]
        if len(bone.regions) < need:
            sink.report("vestige-nemesis/goal", f"Bone controls {len(bone.regions)} regions; "
                        f"his goal is {need} or more", expected=f">= {need} regions",
                        recorded=len(bone.regions))
        return
    st.recorded_goal = g


def compare_final(st: GameState, ev: FinalScoring, sink: FindingSink) -> None:
    """The table's final scoring against the rules' (partial logs: the recorded totals decide)."""
    out = st.outcome
    if out is None:
        return
    d = out.details
    if st.partial:
        totals: dict[str, int] = {}
        for row in ev.scores:
            if row.total is None:
                continue
            if row.total < 0:
                sink.report("vestige-partial/negative-leverage", "a final total is negative",
                            seat=row.seat, recorded=row.total)
            totals[str(row.seat) if row.seat is not None else str(row.nemesis)] = row.total
        if totals and ev.winners is not None and st.header.mode == "competitive":
            best = max(totals.values())
            top = sorted(k for k, v in totals.items() if v == best)
            want_w = top if len(top) == 1 else []
            if sorted(ev.winners) != want_w:
                sink.report("vestige-final/winners", "the recorded totals give other winners",
                            expected=want_w, recorded=sorted(ev.winners))
        return
    endgame = d["endgame"]
    claims: dict[str, str | None] = d["mastery"]
    for row in ev.scores:
        if row.seat is not None and row.seat in st.seats:
            mine = endgame[row.seat]
            label = next(e.label for e in entities(st) if row.seat in e.seats)
            want: dict[str, object] = {
                "covert_ops": mine["covert_ops"], "bounties": mine["bounties"],
                "regions": mine["regions"],
                "mastery": sorted(c for c, lb in claims.items() if lb == label),
                "mastery_leverage": d["mastery_leverage"][label],
                "total": st.seats[row.seat].leverage,
            }
            got = {k: (sorted(v) if isinstance(v, list) else v)
                   for k, v in row.model_dump().items() if k in want and v is not None}
            diff = {k: (want[k], v) for k, v in got.items() if want[k] != v}
            if diff:
                sink.report("vestige-final/mismatch", f"seat {row.seat}'s endgame scoring: "
                            + ", ".join(f"{k} {b!r}, the rules give {a!r}"
                                        for k, (a, b) in diff.items()),
                            seat=row.seat, expected={k: a for k, (a, _) in diff.items()},
                            recorded={k: b for k, (_, b) in diff.items()})
        elif row.nemesis is not None and row.nemesis in st.nemeses and row.total is not None:
            want_total = st.nemeses[row.nemesis].leverage
            if row.total != want_total:
                sink.report("vestige-final/mismatch", f"{row.nemesis}'s total",
                            expected=want_total, recorded=row.total)
    if ev.winners is not None and sorted(ev.winners) != d["winners"]:
        sink.report("vestige-final/winners", "the recorded winners differ from the rules "
                    "(most leverage; a tie means everyone loses)", expected=d["winners"],
                    recorded=sorted(ev.winners))
