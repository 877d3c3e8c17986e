"""Nemesis Play (pp. 26-27): turns after the players each round, left to right; threat level is
the number of threat cards in the column (Nuisance resolves that level, Menace it and every
level below); triggered abilities; Bone is the worked example and the only nemesis whose
threat table the engine knows (others' turns are recorded and accepted)."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.vestige.state import GameState, NemesisState
from schemas.vestige import NemesisGain, NemesisTurn, ThreatRemoved


def _nemesis(st: GameState, name: str, sink: FindingSink) -> NemesisState | None:
    n = st.nemeses.get(name)
    if n is None:
        sink.report("vestige-nemesis/unknown", f"{name!r} is not a nemesis in this game",
                    expected=list(st.nemeses), recorded=name)
    return n


def bone_levels(level: int, menace: bool, every_level: bool = False) -> list[int]:
    """The threat levels a Bone turn resolves (p. 26): Nuisance the current one; Menace it and
    every level below, each printed row once (ruling menace-high-threat: ``table-rows``) or
    every level from 0 up, the 2+ row for each level of 2 or more (``every-level``)."""
    if not menace:
        return [level]
    top = level if every_level else min(level, 2)
    return list(range(0, top + 1))


def bone_turn(level: int, regions: int, menace: bool, every_level: bool = False) -> int:
    """Bone's turn leverage (p. 27): 0: 2; 1: 2 and a mercenary; 2+: 1 per region he controls."""
    return sum(2 if lv < 2 else regions for lv in bone_levels(level, menace, every_level))


def bone_mercenaries(level: int, menace: bool, every_level: bool = False) -> int:
    """Mercenaries a Bone turn gains: 1 for the level-1 row (p. 27)."""
    return sum(1 for lv in bone_levels(level, menace, every_level) if lv == 1)


def on_nemesis_turn(st: GameState, ev: NemesisTurn, sink: FindingSink) -> None:
    n = _nemesis(st, ev.nemesis, sink)
    if n is None:
        return
    from engine.vestige.turns import close_open_turn

    close_open_turn(st, sink, f"{n.name}'s turn")
    order = list(st.nemeses)
    humans_done = set(st.seats) <= st.took_turn or st.header.mode == "coop" and bool(st.took_turn)
    earlier = order[: order.index(n.name)]
    if not st.partial and (not humans_done or any(e not in st.nemesis_done for e in earlier)
                           or n.name in st.nemesis_done):
        sink.report("vestige-nemesis/out-of-order", f"{n.name}'s turn comes after every player "
                    "and the nemeses to its left, once a round", expected=earlier,
                    recorded=n.name)
    st.nemesis_done.add(n.name)
    if ev.threat != len(n.threats):
        sink.report("vestige-nemesis/threat-level", f"{n.name} has {len(n.threats)} threat "
                    "cards in the column", expected=len(n.threats), recorded=ev.threat)
    if n.name == "bone":
        from engine.vestige.cards import supply_left
        from engine.vestige.rulings import option

        menace = st.header.difficulty == "menace"
        every = menace and ev.threat >= 3 and option(
            st, "menace-high-threat") == "every-level"
        want = bone_turn(ev.threat, len(n.regions), menace, every)
        if ev.leverage != want:
            sink.report("vestige-nemesis/leverage", f"Bone at threat {ev.threat} "
                        f"({st.header.difficulty}) gains {want}", expected=want,
                        recorded=ev.leverage)
        mercs = bone_mercenaries(ev.threat, menace, every)
        left = supply_left(st, "mercenary")
        if left is not None:  # none left in the stack: none to gain (Game Components: 12)
            mercs = min(mercs, max(left, 0))
        if len(ev.cards) != mercs:
            sink.report("vestige-nemesis/cards", f"Bone at threat {ev.threat} "
                        f"({st.header.difficulty}) gains {mercs} mercenary cards",
                        expected=mercs, recorded=len(ev.cards))
    _apply(st, n, ev.leverage, list(ev.cards), list(ev.control))
    if ev.cards:
        from engine.vestige.cards import supply_check

        supply_check(st, "mercenary", sink, None)
    n.turns += 1
    st.row("nemesis", nemesis=n.name, threat=ev.threat, leverage=ev.leverage, what="turn")


def _apply(st: GameState, n: NemesisState, leverage: int, cards: list[str],
           control: list[str]) -> None:
    n.leverage += leverage
    n.cards += cards
    for pos in control:
        owner = st.controller.get(pos)
        if isinstance(owner, int):
            o = st.seats[owner]
            o.regions.discard(pos)
            o.blocks["influence"] = o.blocks.get("influence", 0) + 1
        elif isinstance(owner, str) and owner in st.nemeses:
            st.nemeses[owner].regions.discard(pos)
        st.controller[pos] = n.name
        n.regions.add(pos)
        st.row("control", seat=None, nemesis=n.name, position=pos, region=st.map.get(pos),
               change="gained", cost=0, leverage=0)


def on_nemesis_gain(st: GameState, ev: NemesisGain, sink: FindingSink) -> None:
    n = _nemesis(st, ev.nemesis, sink)
    if n is None:
        return
    _apply(st, n, ev.leverage, list(ev.cards), list(ev.control))
    st.row("nemesis", nemesis=n.name, threat=len(n.threats), leverage=ev.leverage,
           what=ev.reason or "gain")


def on_threat_removed(st: GameState, ev: ThreatRemoved, sink: FindingSink) -> None:
    n = _nemesis(st, ev.nemesis, sink)
    if n is None:
        return
    if ev.card not in n.threats:
        sink.report("vestige-nemesis/threat-level", f"{ev.card!r} is not in {n.name}'s column",
                    seat=ev.seat, expected=list(n.threats), recorded=ev.card)
        return
    n.threats.remove(ev.card)
