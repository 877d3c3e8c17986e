"""The sample warehouse of the dashboard tests: both games, built by the real pipeline.

:func:`build` simulates Mandate 2038 and Vestige games with the engines' bots (labelled
simulations), adds ILLUSTRATIVE relabelled Mandate copies with made-up times (one with a slip
of the table's pen for the Audit page) and the bundled Vestige walkthroughs (illustrative), and
ingests them all through ``ingest.pipeline``. There is no fallback: when the simulator or the
pipeline cannot run, the tests fail and say why, instead of drawing made-up rows.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

OBSERVATION_SAMPLES = [
    ("rules_lookup", "Looked up whether Deploy on Human Access District costs Compute",
     "core rules §7 Deploy"),
    ("intervention", "Facilitator explained the Audit draw count", "core rules §6 E. Public Audit"),
    ("friction", "Long discussion before the secret selection", None),
]


def illustrative_human_log(log: object, index: int, minutes_per_event: float = 0.45) -> object:
    """A copy of a simulated log relabelled as an ILLUSTRATIVE facilitated session.

    The decisions are the bots'; the times, observations and survey answers are made up from a
    seeded generator so that the timing, protocol and survey pages have something to show.
    ``provenance.illustrative`` is set, so such a game never counts as evidence.
    """
    from schemas.mandate2038 import EVENT_ADAPTER, MandateLog

    rng = random.Random(f"illustrative:{index}")
    data = log.model_dump(mode="json", exclude_none=True)  # type: ignore[attr-defined]
    header = data["header"]
    header["session_type"] = "facilitated_playtest"
    header["provenance"] = {
        "source_format": "json", "source_name": f"illustrative sample {index}",
        "illustrative": True,
        "description": "ILLUSTRATIVE: a simulated game relabelled with made-up times, "
                       "observations and survey answers, for dashboard tests only",
    }
    header["facilitator"] = "illustrative facilitator"
    header["date"] = (dt.date(2026, 10, 1) + dt.timedelta(days=7 * index)).isoformat()
    header["protocol"] = "mandate2038-observation@1"
    start = dt.datetime(2026, 10, 1, 18, 0, tzinfo=dt.UTC) + dt.timedelta(days=7 * index)
    t = start
    events: list[dict[str, Any]] = [{"type": "phase", "name": "setup", "t": t.isoformat()}]
    t += dt.timedelta(minutes=rng.uniform(8, 15))
    events.append({"type": "phase", "name": "setup_end", "t": t.isoformat()})
    for k, ev in enumerate(data["events"]):
        t += dt.timedelta(minutes=rng.expovariate(1 / minutes_per_event))
        ev["t"] = t.isoformat()
        events.append(ev)
        if k % 40 == 7:
            cat, text, rule = OBSERVATION_SAMPLES[(k // 40) % len(OBSERVATION_SAMPLES)]
            obs = {"type": "observation", "category": cat, "text": text, "t": t.isoformat(),
                   "minutes": round(rng.uniform(0.5, 3), 1)}
            if rule:
                obs["rule"] = rule
            events.append(obs)
    seats = [s["seat"] for s in header["seats"]]
    for item in ("fairness", "excitement", "regret", "betrayal", "fun"):
        for s in seats:
            events.append({"type": "survey", "item": item, "value": rng.randint(1, 5), "seat": s})
    for s in seats:
        events.append({"type": "survey", "item": "signature_moment", "seat": s,
                       "value": f"illustrative signature moment of seat {s}"})
    kept = []
    for ev in events:  # keep only what the schema accepts (protocol items may differ)
        try:
            EVENT_ADAPTER.validate_python(ev)
            kept.append(ev)
        except Exception:
            continue
    data["events"] = kept
    return MandateLog.model_validate(data)


ROOT = Path(__file__).resolve().parent.parent
VESTIGE_SAMPLES = ROOT / "data" / "samples" / "vestige"


def build(path: Path, simulated: int = 4, human: int = 3, seed: str = "dash",
          vestige: int = 3) -> Path:
    """A sample warehouse made by the real pipeline: ``simulated`` Mandate 2038 bot games,
    ``human`` ILLUSTRATIVE relabelled Mandate copies with made-up times, ``vestige`` simulated
    Vestige games and the bundled Vestige walkthroughs."""
    from engine.simulate import simulate
    from ingest.pipeline import ingest_log, ingest_paths
    from schemas.canonical import dumps_log
    from tests.games import require_game

    require_game("mandate2038", "vestige")  # a fixture building it skips when one is hidden
    if path.exists():
        raise FileExistsError(f"{path} exists; the sample warehouse is only for new files")
    path.parent.mkdir(parents=True, exist_ok=True)
    folder = path.parent / "sample-logs"
    folder.mkdir(exist_ok=True)
    logs = list(simulate(simulated + human, [4, 3, 5, 4], seed=seed))
    for i, log in enumerate(logs[:simulated]):
        (folder / f"simulated-{i}.json").write_text(dumps_log(log), encoding="utf-8")
    from engine.vestige.simulate import simulate_one

    for i in range(vestige):
        vlog = simulate_one(5, i, (2, 3, 4)[i % 3])
        (folder / f"vestige-simulated-{i}.json").write_text(dumps_log(vlog), encoding="utf-8")
    inputs = [folder, *([VESTIGE_SAMPLES] if VESTIGE_SAMPLES.is_dir() else [])]
    ingest_paths(inputs, path, progress=False)
    for i, log in enumerate(logs[simulated:]):
        human_log = illustrative_human_log(log, i)
        if i == 0:
            human_log = with_wrong_checkpoint(human_log)
        ingest_log(human_log, path, source=f"illustrative sample {i}")
    return path


def with_wrong_checkpoint(log: object) -> object:
    """A copy whose first checkpoint records seat 1's Mandate 3 too high (an ILLUSTRATIVE
    slip of the table's pen), so the Audit pages have a located finding to show."""
    from schemas.mandate2038 import MandateLog

    data = log.model_dump(mode="json", exclude_none=True)  # type: ignore[attr-defined]
    for ev in data["events"]:
        if ev["type"] == "checkpoint":
            for sv in ev["seats"]:
                if sv["seat"] == 1 and sv.get("mandate") is not None:
                    sv["mandate"] += 3
                    ev["comment"] = "ILLUSTRATIVE: Mandate deliberately written 3 too high"
                    return MandateLog.model_validate(data)
    return log
