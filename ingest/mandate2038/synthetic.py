"""Synthetic Mandate 2038 logs for storage tests and throughput measurements.

These logs are *well-formed* (they validate against the canonical schema and have a plausible
structure: setup, four Eras of three cycles, Production, Dossier, Audit, Era Mandate, final
record, observations and a survey) but they are **not legal games**: moves are drawn at random
without the rules. They exercise the archive, the warehouse and the pipeline's size and shape;
rule-level truth comes from ``playtest simulate`` (bots through the engine).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from schemas.mandate2038 import HEX_POSITIONS, MandateLog

FACTIONS = ("mirevanta", "kestralyn", "corthaven", "loopfold", "dovetalis", "orisonix")
CORE = ("fund", "research", "build", "organize", "deploy", "influence")


def synthetic_log(
    seed: int,
    *,
    players: int = 4,
    events_target: int = 500,
    session_type: str = "simulation",
    timed: bool = True,
) -> MandateLog:
    """A deterministic synthetic log for ``seed`` with roughly ``events_target`` events."""
    rng = random.Random(seed)
    clock = dt.datetime(2026, 1, 1, 18, 0) + dt.timedelta(days=seed % 365, minutes=seed % 50)

    def t(seconds: float) -> dt.datetime | None:
        nonlocal clock
        clock = clock + dt.timedelta(seconds=seconds)
        return clock if timed else None

    events: list[dict[str, Any]] = []
    add = events.append
    # Per-turn padding (draws) so the log reaches about events_target events.
    fixed = 4 + 4 * (1 + 3 * 2 + players * 3 + 5) + 6
    per_turn_pad = max(0, (events_target - fixed) // (4 * 3 * players))
    add({"type": "phase", "name": "setup", "t": t(0)})
    add({"type": "phase", "name": "setup_end", "t": t(rng.randint(600, 1200))})
    for era in range(1, 5):
        add({"type": "era_start", "era": era, "t": t(30)})
        for cycle in range(1, 4):
            add({"type": "headline", "cycle": cycle, "t": t(20)})
            picks = [{"seat": s, "pick": rng.choice(CORE)} for s in range(1, players + 1)]
            add({"type": "reveal", "selections": picks, "t": t(rng.randint(30, 90))})
            for sel in picks:
                seat, kind = sel["seat"], sel["pick"]
                path = [rng.choice(HEX_POSITIONS) for _ in range(rng.randint(1, 3))]
                ev: dict[str, Any] = {"type": kind, "seat": seat, "path": path,
                                      "t": t(rng.randint(20, 120))}
                if kind == "organize":
                    ev["mode"] = "recruit"
                elif kind == "influence":
                    ev["mode"] = rng.choice(("trust", "scrutiny"))
                add(ev)
                if kind == "research":
                    for _ in range(per_turn_pad):
                        add({"type": "draw", "seat": seat, "card": f"card_{rng.randint(1, 40)}"})
                    add({"type": "run_end", "seat": seat, "outcome": rng.choice(("bank", "crash"))})
                else:
                    for _ in range(per_turn_pad):
                        add({"type": "observation", "category": "action_time", "seat": seat,
                             "text": f"resolved {kind} in era {era}"})
        add({"type": "phase", "name": "production", "t": t(30)})
        for s in range(1, players + 1):
            add({"type": "allocate", "seat": s, "facilities": [1], "t": t(15)})
        add({"type": "phase", "name": "dossier", "t": t(20)})
        for s in range(1, players + 1):
            add({"type": "dossier", "seat": s, "orientation": rng.choice(("commit", "hedge"))})
        add({"type": "audit", "draws": [rng.randint(1, players) for _ in range(3)], "t": t(60)})
        add({"type": "era_mandate", "t": t(60)})
        add({"type": "checkpoint", "label": f"end of era {era}",
             "seats": [{"seat": s, "mandate": rng.randint(0, 40)} for s in range(1, players + 1)]})
    add({"type": "phase", "name": "final_scoring", "t": t(30)})
    add({"type": "final_record", "winners": [rng.randint(1, players)], "t": t(300)})
    add({"type": "phase", "name": "game_end", "t": t(10)})
    for s in range(1, players + 1):
        add({"type": "survey", "item": "fun", "seat": s, "value": rng.randint(1, 5)})
    header = {
        "session_type": session_type,
        "date": (dt.date(2026, 1, 1) + dt.timedelta(days=seed % 365)).isoformat(),
        "seats": [{"seat": s, "faction": FACTIONS[s - 1]} for s in range(1, players + 1)],
        "provenance": {"generator": f"ingest.warehouse.synthetic seed={seed}"},
    }
    return MandateLog.model_validate({"header": header, "events": events})
