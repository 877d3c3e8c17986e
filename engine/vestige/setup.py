"""5-Minute Setup (pp. 6-7), Nemesis Setup (p. 26) and the modes' setup (pp. 28-29): the table,
the map, each seat's colour, setup card, starting space, chop bot and blocks."""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.vestige.board import POSITIONS, adjacent_tiles
from engine.vestige.cards import add_card, record
from engine.vestige.content import CONTENT, Content
from engine.vestige.state import GameState, NemesisState, SeatState
from schemas.findings import Finding
from schemas.vestige import Reveal, SeatSetup, VestigeHeader

COLOURS = ("blue", "green", "purple", "orange")


def _mode_problem(h: VestigeHeader) -> str | None:
    n = len(h.seats)
    if h.mode == "solo" and (n != 1 or not h.nemeses):
        return "solo is one player against at least 1 nemesis"
    if h.mode == "coop" and not 1 <= len(h.nemeses) <= 3:
        return "co-op includes 1-3 nemeses"
    if h.mode == "team":
        teams = h.teams or []
        seats = sorted(s for t in teams for s in t)
        if seats != list(range(1, n + 1)):
            return "team mode needs every seat on exactly one team"
        sizes = sorted(len(t) for t in teams)
        if sizes not in ([2, 2], [2, 3], [3, 3], [2, 2, 2]):
            return "teams are 2 teams of 2-3 players or 3 teams of 2"
    if h.mode == "competitive" and n < 2:
        return "a competitive game has 2 or more players (solo is its own mode)"
    if h.nemeses and h.difficulty is None:
        return "a game with nemeses names its difficulty (nuisance or menace)"
    names = [x.name for x in h.nemeses]
    if len(set(names)) != len(names):
        return "each nemesis plays once"
    return None


def _map_problem(h: VestigeHeader) -> str | None:
    if h.map is None:
        return None
    if set(h.map) != set(POSITIONS):
        return "the map places a region on each of the 19 positions"
    supply = dict(CONTENT.base_regions)
    if "extra_regions" in h.modules:
        supply.update({r: 1 for r in CONTENT.extra_regions})
    used: dict[str, int] = {}
    for r in h.map.values():
        used[r] = used.get(r, 0) + 1
    over = sorted(r for r, k in used.items() if k > supply.get(r, 0))
    if over:
        return f"more tiles than the game has: {over}"
    missing = sorted(CONTENT.locked_regions - set(used))
    if missing:
        return f"the 13 lock regions must be in play; missing {missing} (declared locked set)"
    return None


def build_state(header: VestigeHeader, sink: FindingSink) -> GameState:
    nums = [s.seat for s in header.seats]
    colours = [s.faction for s in header.seats]
    if sorted(nums) != list(range(1, len(nums) + 1)) or len(set(colours)) != len(colours):
        sink.report("vestige-setup/seats", "seats must be numbered 1..N with one colour each",
                    expected=list(range(1, len(nums) + 1)), recorded=nums)
    prob = _mode_problem(header)
    if prob:
        sink.report("vestige-setup/mode", prob, expected=header.mode, recorded=len(nums))
    mprob = _map_problem(header)
    if mprob:
        sink.report("vestige-setup/map", mprob)
    first = header.first_player or 1
    ordered = sorted(nums)
    if first in ordered:
        i = ordered.index(first)
        ordered = ordered[i:] + ordered[:i]
    seats = {s.seat: SeatState(seat=s.seat, colour=s.faction or "") for s in header.seats}
    nem = {n.name: NemesisState(name=n.name, team=n.team) for n in header.nemeses}
    st = GameState(header=header, seats=seats, nemeses=nem, order=ordered,
                   partial=header.detail == "partial")
    from engine.vestige.rulings import RulingsError, resolve

    try:
        st.rulings = resolve(header.rules_version, header.rulings)
    except RulingsError as e:
        sink.report("vestige-setup/rulings", f"{e}; replayed with the default rulings",
                    expected="a ruling set or ID=OPTION pairs", recorded=header.rulings)
        st.rulings = resolve(header.rules_version, None)
    from engine.vestige.content import content_for

    st.content = content_for(st.rulings)  # the declared values in force in this replay
    if header.variant is not None and header.variant.changes:
        st.content = _variant_content(st.content, header, sink)
    if header.map is not None:
        st.map = dict(header.map)
        if header.map and mprob is None:
            st.rest_on("locked_regions")
    return st


def on_seat_setup(st: GameState, ev: SeatSetup, sink: FindingSink) -> None:
    s = st.seats.get(ev.seat)
    if s is None:  # not at the table: the replay reports log/seat-out-of-range and skips it
        return
    if s.set_up:
        sink.report("vestige-setup/duplicate", f"seat {ev.seat} was already set up",
                    seat=ev.seat)
        return
    s.set_up = True
    b = ev.blocks
    total = (b.potential + b.influence + b.conviction + sum(b.attributes.values())
             + sum(b.cards.values()))
    if (b.influence != CONTENT.stated["start_influence"]
            or b.potential != CONTENT.stated["start_potential"]
            or total != CONTENT.stated["blocks_per_seat"]):
        sink.report("vestige-setup/blocks", f"seat {ev.seat} starts with {b.influence} "
                    f"influence, {b.potential} potential, {total} blocks",
                    seat=ev.seat, expected={"influence": 8, "potential": 8, "total": 20},
                    recorded={"influence": b.influence, "potential": b.potential, "total": total})
    if ev.start in st.pawns(but=ev.seat):
        sink.report("vestige-setup/start-occupied", f"space {ev.start} already holds a pawn",
                    seat=ev.seat, recorded=ev.start)
    s.space = ev.start
    s.speed = ev.speed
    s.blocks = {"potential": b.potential, "influence": b.influence, "conviction": b.conviction}
    s.blocks.update({str(k): v for k, v in b.attributes.items()})
    others = sorted(n for n in b.cards if n != ev.chop_bot)
    held = next((x.seat for x in st.seats.values() if x.seat != ev.seat
                 and ev.chop_bot is not None and ev.chop_bot in x.cards), None)
    if ev.chop_bot is None or others or held is not None:
        sink.report("vestige-setup/chop-bot", f"seat {ev.seat} starts with " + (
            "no chop bot" if ev.chop_bot is None else f"{ev.chop_bot!r}, which seat {held} holds"
            if held is not None else f"a second chop bot: {others}"),
            seat=ev.seat, expected="a single chop bot", recorded=[ev.chop_bot, *others])
    if ev.chop_bot is not None:
        add_card(st, s, ev.chop_bot, "chop_bot")
        st.row("cards", seat=ev.seat, card=ev.chop_bot, kind="chop_bot", how="setup",
               leverage=0)
    for name, n in b.cards.items():
        if name in s.cards:
            s.cards[name].blocks += n
        else:
            add_card(st, s, name, "chop_bot").blocks = n


def check_reveal(st: GameState, position: str, region: str, sink: FindingSink,
                 follows: Finding | None = None, because: str | None = None) -> None:
    """A tile turned face up shows the region the map has there (``follows``: the finding
    that shows the line revealing it is garbled, which this one then follows from, having put
    ``because`` in doubt)."""
    known = st.map.get(position)
    if known is not None and known != region:
        sink.report("vestige-setup/tile-mismatch", f"{position} was revealed as {region}; the "
                    f"map has {known} there", expected=known, recorded=region, follows=follows,
                    because=because)
    else:
        st.map[position] = region
    st.face_up.add(position)


def on_reveal(st: GameState, ev: Reveal, sink: FindingSink) -> None:
    for t in ev.tiles:
        check_reveal(st, t.position, t.region, sink)


def finish_setup(st: GameState, sink: FindingSink) -> None:
    """At the first turn: tiles next to pawns (every tile with nemeses) are face up."""
    if st.phase != "setup":
        return
    st.phase = "play"
    if st.partial:
        return
    for s in st.seats.values():
        if s.set_up and not s.covert_held:
            sink.report("vestige-covert/draw-missing", f"seat {s.seat} drew no covert op at "
                        "setup", seat=s.seat, expected="1 covert op", recorded=0)
    reveals = st.header.mode == "competitive"  # solo, team and co-op reveal none (pp. 7, 28)
    if reveals and st.setup_reveals == 0:
        sink.report("vestige-setup/endgame-missing", "no endgame condition was revealed at "
                    "setup", expected=1, recorded=0)
    need: set[str] = set()
    if st.header.nemeses:
        need = set(POSITIONS)
    else:
        for s in st.seats.values():
            if s.space is not None:
                need |= adjacent_tiles(s.space)
    missing = sorted(need - st.face_up)
    if missing:
        sink.report("vestige-move/reveal-missing", f"tiles not flipped at setup: {missing}",
                    expected=missing, recorded=sorted(st.face_up))
        st.face_up |= need


def record_setup_card(st: GameState, name: str, sink: FindingSink) -> None:
    record(st, name, None, sink)


def _variant_content(content: Content, header: VestigeHeader, sink: FindingSink) -> Content:
    """The numbers under the header's rules variant (docs/variants.md); the printed ones, with
    a finding, when the variant does not fit them."""
    from engine.core.variants import stamp_hash_ok
    from engine.vestige.content import with_changes

    stamp = header.variant
    assert stamp is not None
    if not stamp_hash_ok(stamp, header.game, header.rules_version):
        sink.report("log/variant-hash", f"the variant {stamp.name!r} is stamped {stamp.hash}, "
                    "which is not the hash of the changes it stores; the stored changes were "
                    "played", recorded=stamp.hash)
    try:
        return with_changes(content, stamp.changes)
    except ValueError as err:
        sink.report("log/variant", f"the rules variant {stamp.name!r} cannot be played: {err}; "
                    "replayed under the rules as printed", recorded=stamp.name)
        return content
