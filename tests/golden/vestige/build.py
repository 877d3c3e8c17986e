"""Authoring helper for Vestige golden games: write a legal game compactly, from the rulebook.

A :class:`Game` appends canonical events (``schemas/vestige/log.py``) and keeps only what an author
needs to keep a prefix legal: where each pawn stands and which tiles are face up (so a move
records its reveals; the map geometry is the declared one of ``engine/vestige/board.py``). It
computes no game consequences: leverage, blocks and scores are worked out by hand from the
rulebook in each case's docstring. :meth:`Game.expect` declares the finding the case must
produce at the event just written; :meth:`Game.outcome` the result of a complete game.

Standard table (``Game()``): seat 1 blue on space 19 (start letter A; tiles C, I2, I3), seat 2
green on space 25 (B; C, I1, I2), seat 1 first. Each starts with 8 influence, 8 potential and
4 conviction (the declared setup-card default) and one chop bot: Bartholomew (seat 1; jobs
artifact, augmentation, bounty) and Rusty (seat 2; bounty). Face-up jobs: artifact Obelisk Heart
Shard (pickup Black Market I1, complete Scrapyard I2, 2 intrigue, 3 leverage), augmentation
Reflex Weave (pickup Archives C, complete Black Market I1, 2 ingenuity, 2 leverage), bounty
Marked Courier (pickup Archives C, complete Scrapyard I2, 2 guile, 5 leverage at the end).
Chop bot market: Cog, Sprocket, Widget. Endgame condition revealed at setup: Network Sprawl.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine.vestige.board import adjacent_tiles
from engine.vestige.codes import CATALOGUE
from schemas.canonical import dumps_log
from schemas.vestige import VestigeLog

MAP: dict[str, str] = {
    "C": "archives", "I1": "black_market", "I2": "scrapyard", "I3": "chop_shop",
    "I4": "lawmaker_ridge", "I5": "garage", "I6": "observatory", "O1": "oasis",
    "O2": "generator", "O3": "mercenary_camp", "O4": "smugglers_lair", "O5": "underground",
    "O6": "obelisk", "O7": "trench", "O8": "jump_point", "O9": "black_dove",
    "O10": "observatory", "O11": "oasis", "O12": "garage",
}

CHOP = {"kind": "chop_bot", "colour": "chop_bot", "leverage": 1,
        "attributes": ["ambition", "cunning", "might"], "passive_at": 2}
CARDS: dict[str, dict[str, Any]] = {
    "Bartholomew": {**CHOP, "jobs": ["artifact", "augmentation", "bounty"]},
    "Rusty": {**CHOP, "jobs": ["bounty"]},
    "Cog": {**CHOP, "jobs": ["artifact"]},
    "Sprocket": {**CHOP, "jobs": ["augmentation"]},
    "Widget": {**CHOP, "jobs": ["bounty"]},
    "Obelisk Heart Shard": {"kind": "artifact", "colour": "intrigue", "leverage": 3,
                            "pickup": "black_market", "complete_at": "scrapyard",
                            "cost": {"intrigue": 2}},
    "Reflex Weave": {"kind": "augmentation", "colour": "ingenuity", "leverage": 2,
                     "pickup": "archives", "complete_at": "black_market",
                     "cost": {"ingenuity": 2}},
    "Marked Courier": {"kind": "bounty", "colour": "guile", "leverage": 5,
                       "pickup": "archives", "complete_at": "scrapyard", "cost": {"guile": 2}},
    "Dispatch": {"kind": "lawmaker", "colour": "ambition", "leverage": 1,
                 "attributes": ["ambition", "ambition"], "jobs": ["bounty", "artifact"]},
}

# the region each job stack's top card shows at setup (p. 14), unless a case says otherwise
TOPS: dict[str, str] = {"artifact": "black_market", "augmentation": "archives",
                        "bounty": "archives"}

CASES: dict[str, Callable[[], Game]] = {}


def case(fn: Callable[[], Game]) -> Callable[[], Game]:
    CASES[fn.__name__] = fn
    return fn


class Game:
    def __init__(self, *, seats: int = 2, mode: str = "competitive", partial: bool = False,
                 nemeses: list[str] | None = None, difficulty: str | None = None,
                 colours: tuple[str, ...] = ("blue", "green", "purple", "orange"),
                 map: dict[str, str] | None = MAP, teams: list[list[int]] | None = None) -> None:
        self.header: dict[str, Any] = {
            "game": "vestige", "session_type": "developer_walkthrough",
            "seats": [{"seat": i + 1, "faction": colours[i]} for i in range(seats)],
            "mode": mode, "first_player": 1,
            "provenance": {"illustrative": True, "description": "golden single-error game"},
        }
        if map is not None:
            self.header["map"] = dict(map)
        if partial:
            self.header["detail"] = "partial"
        if nemeses:
            self.header["nemeses"] = [{"name": n} for n in nemeses]
            self.header["difficulty"] = difficulty or "nuisance"
        if teams is not None:
            self.header["teams"] = teams
        self.events: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.space: dict[int, int] = {}
        self.face_up: set[str] = set()
        self.map = dict(map or MAP)

    # --- writing events ---------------------------------------------------------------------

    def e(self, type: str, **kw: Any) -> Game:
        self.events.append({"type": type, **kw})
        return self

    def expect(self, code: str, rule: str | None = None) -> Game:
        """The finding the event just written must produce (``rule``: the citation when the
        finding names a more specific rule than its code's)."""
        entry = CATALOGUE[code]
        self.expected.append({"code": code, "rule": rule or entry.rule,
                              "event": len(self.events) - 1, "severity": entry.severity})
        return self

    def expect_setup(self, code: str) -> Game:
        """A finding of the header or table itself (reported before any event)."""
        rule = CATALOGUE[code]
        self.expected.append({"code": code, "rule": rule.rule, "event": None,
                              "severity": rule.severity})
        return self

    def outcome(self, winners: list[str], leverage: dict[int, int], ending: str) -> Game:
        self.result = {"winners": winners, "final_leverage": leverage, "ending": ending}
        return self

    def card(self, name: str, **override: Any) -> Game:
        return self.e("card", name=name, printed={**CARDS[name], **override})

    def setup(self, *, blocks: dict[int, dict[str, Any]] | None = None,
              starts: tuple[int, ...] = (19, 25, 36, 30), bots: tuple[str, ...] = (
                  "Bartholomew", "Rusty", "Cog", "Sprocket"), endgame: bool = True,
              reveal_all: bool = False, tops: dict[str, str] | None = None) -> Game:
        """5-Minute Setup for every seat, the face-up jobs and market, one endgame condition.
        ``tops``: the region each job stack's top card shows after the face-up card is flipped
        (default: the same region as the face-up card's own back)."""
        n = len(self.header["seats"])
        self.e("phase", name="setup")
        for i in range(n):
            seat = i + 1
            self.card(bots[i])
            b = {"conviction": 4}
            b.update((blocks or {}).get(seat, {}))
            self.e("seat_setup", seat=seat, setup_card=f"Setup {'ABCDEF'[i]}", start=starts[i],
                   chop_bot=bots[i], blocks=b)
            self.space[seat] = starts[i]
            self.e("covert_op", seat=seat, action="draw")
        tiles: set[str] = set(self.map) if reveal_all else set()
        if not reveal_all:
            for sp in self.space.values():
                tiles |= adjacent_tiles(sp)
        self.reveal(sorted(tiles))
        for stack, name in (("artifact", "Obelisk Heart Shard"), ("augmentation", "Reflex Weave"),
                            ("bounty", "Marked Courier")):
            self.e("display", stack=stack, card=name, printed=CARDS[name])
        for stack, region in sorted({**TOPS, **(tops or {})}.items()):
            self.e("stack_top", stack=stack, region=region)
        for name in ("Cog", "Sprocket", "Widget"):
            if name not in bots[:n]:
                self.e("display", stack="chop_bot", card=name, printed=CARDS[name])
        if endgame:
            self.e("endgame_reveal", card="Network Sprawl")
        return self.e("phase", name="setup_end")

    def replace(self, stack: str, card: str, pickup: str, top: str, **printed: Any) -> Game:
        """A face-up job taken is replaced at once (p. 14): the stack's top card (its back shows
        ``pickup``) is flipped face up, and the next card on the stack shows ``top``."""
        base = {"kind": stack, "colour": {"artifact": "intrigue", "augmentation": "ingenuity",
                                          "bounty": "guile"}[stack], "leverage": 3,
                "pickup": pickup, "complete_at": "trench", "cost": {"guile": 1}}
        self.e("display", stack=stack, card=card, printed={**base, **printed})
        return self.e("stack_top", stack=stack, region=top)

    def reveal(self, positions: list[str]) -> Game:
        self.face_up |= set(positions)
        return self.e("reveal", tiles=[{"position": p, "region": self.map[p]} for p in positions])

    def move(self, seat: int, path: list[int], reveals: list[str] | None = None) -> Game:
        """A move; ``reveals`` default to every face-down tile next to the path (the rule)."""
        near: set[str] = set()
        for sp in path[1:]:
            near |= adjacent_tiles(sp)
        if reveals is None:
            reveals = sorted(p for p in near if p not in self.face_up)
        self.face_up |= set(reveals)
        self.space[seat] = path[-1]
        return self.e("move", seat=seat, path=path,
                      reveals=[{"position": p, "region": self.map[p]} for p in reveals])

    def turn(self, seat: int) -> Game:
        return self.e("turn_start", seat=seat)

    def end(self, seat: int) -> Game:
        return self.e("turn_end", seat=seat)

    def round(self, n: int) -> Game:
        return self.e("round_start", round=n)

    def opening(self, **setup: Any) -> Game:
        """Setup, round 1, seat 1's turn starts."""
        return self.setup(**setup).round(1).turn(1)

    def quiet_turn(self, seat: int, path: list[int]) -> Game:
        return self.turn(seat).move(seat, path).end(seat)

    # --- output -------------------------------------------------------------------------

    def log(self) -> VestigeLog:
        return VestigeLog.model_validate({"header": self.header, "events": self.events})

    def log_text(self) -> str:
        return dumps_log(self.log())

    def expectation(self, name: str, doc: str) -> dict[str, Any]:
        return {"case": name, "doc": doc, "findings": self.expected, "outcome": self.result}


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"
