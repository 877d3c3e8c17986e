"""The bundled ILLUSTRATIVE Vestige walkthroughs (``data/samples/vestige``), composed again from
the engine's legal moves after a rules change (``python -m tests.regen_samples vestige``, the
recipe ``walkthrough`` of data/samples/manifest.toml):

Each sample is a game played move by move through ``RULESET.legal_moves`` with the heuristic bot
(the simulator's strict loop: a move that produced a finding would raise), the first deal of its
seed short enough to read (at most ``MAX_EVENTS`` events), then labelled as the samples' README
says: ``session_type developer_walkthrough``, ``provenance.illustrative yes`` and a description
saying it is not a playtest. Card names are the simulator's ("Sim lawmaker 3"); every declared
value is the declared option of ``data/content/vestige/rulings/rulebook-1.declared.json``. The
files replay with zero findings (checked here before writing, and by
``tests/test_vestige_formats.py``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from engine.core.replay import replay
from engine.vestige.ruleset import RULESET
from engine.vestige.simulate import simulate_one
from schemas.vestige import VestigeLog

MAX_EVENTS = 260
NAMES = ("Ana", "Ben", "Chen", "Dara")


@dataclass(frozen=True)
class Spec:
    file: str
    players: int
    fmt: str  # notation or csv
    mode: str = "competitive"
    nemesis: str | None = None
    nemesis_wins: bool = False  # the README's Bone sample: Bone ends ahead of both players

    @property
    def name(self) -> str:
        return self.file.rsplit(".", 1)[0]


SPECS = (
    Spec("walkthrough-2p.vst", 2, "notation"),
    Spec("walkthrough-3p.csv", 3, "csv"),
    Spec("walkthrough-4p.vst", 4, "notation"),
    Spec("walkthrough-2p-bone.vst", 2, "notation", nemesis="bone", nemesis_wins=True),
)


def _winners(log: VestigeLog) -> list[str]:
    r = replay(log.header, log.events, ruleset=RULESET)
    return list(r.outcome.details["winners"]) if r.outcome is not None else []


def compose(spec: Spec, tries: int = 200) -> VestigeLog:
    """The first deal of ``spec``'s seed that ends within ``MAX_EVENTS`` events, labelled."""
    for k in range(tries):
        log = simulate_one(f"walkthrough:{spec.name}", k, spec.players, "heuristic", spec.mode,
                           spec.nemesis)
        if len(log.events) <= MAX_EVENTS and (
                spec.nemesis is None or log.header.difficulty == "nuisance") and (
                not spec.nemesis_wins or _winners(log) == [spec.nemesis]):
            break
    else:
        raise SystemExit(f"no deal of {spec.name} ended within {MAX_EVENTS} events")
    who = (f"against the nemesis {spec.nemesis.capitalize()} "
           f"({(log.header.difficulty or '').capitalize()})" if spec.nemesis else "competitive")
    header = log.header.model_copy(update={
        "session_type": "developer_walkthrough",
        "game_id": f"vestige-{spec.name}",
        "date": dt.date(2026, 12, 1),
        "venue": "Toolkit team table",
        "facilitator": "Robin",
        "seats": [s.model_copy(update={"player": NAMES[s.seat - 1]}) for s in log.header.seats],
        "provenance": log.header.provenance.model_copy(update={
            "source_format": spec.fmt, "illustrative": True, "generator": None,
            "description": f"ILLUSTRATIVE {spec.players}-player Vestige walkthrough ({who}) for "
                           "docs/vestige-app.md: composed move by move from the engine's legal "
                           "moves with the heuristic policy (python -m "
                           "tests.regen_samples vestige); not a real playtest."}),
        "notes": "Illustrative walkthrough, not a playtest.",
    })
    return VestigeLog(header=header, events=log.events)
