"""An ILLUSTRATIVE warehouse for the dashboard's tests and benchmark, built from docs/warehouse.md.

The real warehouse is built by the ingest pipeline from archived game logs. Until that pipeline
is available in a checkout, the dashboard tests need tables to read: this module creates them
(from the documented column list) and fills them with made-up rows from a seeded generator.
Every game it writes is marked ``illustrative = TRUE`` and its ``source_name`` says
"illustrative sample"; simulated ones carry ``session_type = 'simulation'``. Never load this
into a real database: :func:`build` refuses a path that already exists.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

import duckdb

DDL = """
CREATE TABLE games (game_id VARCHAR, game VARCHAR, rules_version VARCHAR, profile VARCHAR,
  session_type VARCHAR, is_human BOOLEAN, illustrative BOOLEAN, player_count INTEGER, date DATE,
  venue VARCHAR, facilitator VARCHAR, protocol VARCHAR, status VARCHAR, n_events INTEGER,
  n_errors INTEGER, n_warnings INTEGER, complete BOOLEAN, evidence BOOLEAN,
  evidence_reasons VARCHAR[], duration_evidence BOOLEAN, total_minutes DOUBLE,
  setup_minutes DOUBLE, source_format VARCHAR, source_name VARCHAR, archive_path VARCHAR,
  ingested_at TIMESTAMP, receipt JSON, rules_deviations VARCHAR[], interventions VARCHAR[],
  unchecked VARCHAR[]);
CREATE TABLE seats (game_id VARCHAR, seat INTEGER, faction VARCHAR, player VARCHAR,
  final_mandate INTEGER, final_runway INTEGER, final_compute INTEGER, final_capability INTEGER,
  final_customers INTEGER, final_trust INTEGER, provisional_winner BOOLEAN, winner BOOLEAN);
CREATE TABLE events (game_id VARCHAR, idx INTEGER, type VARCHAR, seat INTEGER, era INTEGER,
  cycle INTEGER, t TIMESTAMP, line INTEGER, payload JSON);
CREATE TABLE findings (game_id VARCHAR, n INTEGER, code VARCHAR, severity VARCHAR, rule VARCHAR,
  message VARCHAR, event INTEGER, line INTEGER, era INTEGER, cycle INTEGER, seat INTEGER,
  expected JSON, recorded JSON);
CREATE TABLE ledger (game_id VARCHAR, n INTEGER, seat INTEGER, era INTEGER, cycle INTEGER,
  event INTEGER, source VARCHAR, amount INTEGER, total INTEGER, detail VARCHAR);
CREATE TABLE phases (game_id VARCHAR, phase VARCHAR, era INTEGER, start_t TIMESTAMP,
  end_t TIMESTAMP, minutes DOUBLE);
CREATE TABLE turn_times (game_id VARCHAR, era INTEGER, cycle INTEGER, seat INTEGER,
  action VARCHAR, seconds DOUBLE);
CREATE TABLE selections (game_id VARCHAR, era INTEGER, cycle INTEGER, seat INTEGER,
  pick VARCHAR, kind VARCHAR);
CREATE TABLE era_states (game_id VARCHAR, era INTEGER, seat INTEGER, mandate INTEGER,
  runway INTEGER, compute INTEGER, capability INTEGER, customers INTEGER, trust INTEGER,
  scrutiny INTEGER);
CREATE TABLE outcomes (game_id VARCHAR, complete BOOLEAN, provisional_winners INTEGER[],
  winners INTEGER[], agi BOOLEAN, claimant INTEGER, ending VARCHAR, open BOOLEAN,
  collective_trust INTEGER, setup_collective_trust INTEGER, open_threshold INTEGER,
  trust_margin INTEGER, systemic_risk INTEGER, systemic_risk_limit INTEGER);
CREATE TABLE claims (game_id VARCHAR, seat INTEGER, publication BOOLEAN, paid BOOLEAN,
  modules_supported INTEGER, eligible BOOLEAN, strength INTEGER);
CREATE TABLE observations (game_id VARCHAR, idx INTEGER, category VARCHAR, rule VARCHAR,
  seat INTEGER, era INTEGER, cycle INTEGER, text VARCHAR, minutes DOUBLE, t TIMESTAMP);
CREATE TABLE survey (game_id VARCHAR, seat INTEGER, item VARCHAR, value_text VARCHAR,
  value_num DOUBLE);
"""

FACTIONS = ["dovetalis", "loopfold", "mirevanta", "kestralyn",
            "orisonix", "corthaven"]
STARTING = {"dovetalis": 2, "loopfold": 4, "mirevanta": 2,
            "kestralyn": 2, "orisonix": 4, "corthaven": 2}
START_TRUST = {"dovetalis": 3, "loopfold": 2, "mirevanta": 3,
               "kestralyn": 2, "orisonix": 5, "corthaven": 3}
CORE = ["fund", "research", "build", "organize", "deploy", "influence"]
PROGRAMS = ["mega_cluster", "reorganization", "covenant", "narrative_capture", "agent_swarm",
            "fusion"]
SOURCES = ["customer", "capability_threshold", "trust_threshold", "era_mandate", "headline",
           "fusion", "faction_ability"]
ENDINGS = {(True, True): "singularity", (True, False): "closed_loop",
           (False, True): "plural_future", (False, False): "assured_continuity"}
CATEGORIES = ["rules_lookup", "intervention", "deviation", "friction", "surprise", "timing"]
RULES = ["core rules §7 Core Actions", "core rules §6 Era sequence",
         "core rules §4 Modular hex board", "core rules §11 Final scoring"]


def build(path: Path, games: int = 24, seed: int = 2038) -> Path:
    """Create an illustrative warehouse at ``path`` (which must not exist yet)."""
    if path.exists():
        raise FileExistsError(f"{path} exists; the illustrative warehouse is only for new files")
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    con = duckdb.connect(str(path))
    try:
        con.execute(DDL)
        for i in range(games):
            _game(con, rng, i)
    finally:
        con.close()
    return path


def _game(con: duckdb.DuckDBPyConnection, rng: random.Random, i: int) -> None:
    gid = f"{i:016x}"
    simulated = i % 3 == 2
    session = "simulation" if simulated else ("blind_playtest" if i % 4 == 1
                                                else "facilitated_playtest")
    human = not simulated
    n = [3, 4, 4, 5][i % 4]
    factions = rng.sample(FACTIONS, n)
    complete = i % 7 != 6
    date = dt.date(2026, 9, 1) + dt.timedelta(days=3 * i)
    total = round(rng.gauss(70 + 8 * n, 9), 1) if human else None
    setup = round(rng.uniform(8, 16), 1) if human else None
    secret = i % 11 == 5
    reasons: list[str] = []
    if not human:
        reasons.append("simulation: not a human playtest")
    if not complete:
        reasons.append("incomplete: the log does not reach final scoring")
    if secret:
        reasons.append("secret objectives used (kept out of baseline evidence)")
    evidence = not reasons
    duration_ev = human and complete and not secret
    n_err = 0 if i % 5 else 2
    con.execute(
        "INSERT INTO games VALUES (?, 'mandate2038', '0.8.0-rc.17-test', ?, ?, ?, TRUE, ?, ?, "
        "'illustrative venue', 'illustrative facilitator', 'mandate2038-observation@v1', ?, 40, "
        "?, 0, ?, ?, ?, ?, ?, ?, 'json', ?, NULL, now(), NULL, ?, ?, [])",
        [gid, "advanced" if i % 9 == 8 else "default", session, human, n, date,
         "findings" if n_err else "clean", n_err, complete, evidence, reasons, duration_ev,
         total, setup, f"illustrative sample {i}", ["house rule on trades"] if i % 6 == 0 else [],
         ["explained Deploy cost"] if i % 4 == 0 else []],
    )
    mandates = {s: STARTING[f] for s, f in enumerate(factions, start=1)}
    ledger_n = 0
    for s, _fac in enumerate(factions, start=1):
        con.execute("INSERT INTO ledger VALUES (?, ?, ?, NULL, NULL, NULL, 'starting', ?, ?, '')",
                    [gid, ledger_n, s, mandates[s], mandates[s]])
        ledger_n += 1
    for era in range(1, 5):
        for cycle in range(1, 4):
            for s in range(1, n + 1):
                pick = rng.choice(CORE if era == 1 or rng.random() < 0.8 else PROGRAMS)
                con.execute("INSERT INTO selections VALUES (?, ?, ?, ?, ?, ?)",
                            [gid, era, cycle, s, pick, "core" if pick in CORE else "program"])
                if human:
                    con.execute("INSERT INTO turn_times VALUES (?, ?, ?, ?, ?, ?)",
                                [gid, era, cycle, s, pick, round(rng.uniform(30, 200), 1)])
                if rng.random() < 0.5:
                    src = rng.choice(SOURCES)
                    amt = 2 if src != "faction_ability" else 1
                    mandates[s] += amt
                    con.execute(
                        "INSERT INTO ledger VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, '')",
                        [gid, ledger_n, s, era, cycle, src, amt, mandates[s]])
                    ledger_n += 1
        for s, _fac in enumerate(factions, start=1):
            con.execute("INSERT INTO era_states VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [gid, era, s, mandates[s], rng.randint(0, 12), rng.randint(0, 10),
                         rng.randint(0, 12), rng.randint(0, 5), rng.randint(0, 6),
                         rng.randint(0, 10)])
        if human:
            base = dt.datetime(2026, 9, 1, 18, 0) + dt.timedelta(days=3 * i)
            mins = round(rng.uniform(12, 22), 1)
            con.execute("INSERT INTO phases VALUES (?, ?, ?, ?, ?, ?)",
                        [gid, f"era{era}", era, base, base, mins])
            con.execute("INSERT INTO phases VALUES (?, 'production', ?, ?, ?, ?)",
                        [gid, era, base, base, round(rng.uniform(2, 5), 1)])
            con.execute("INSERT INTO phases VALUES (?, 'audit', ?, ?, ?, ?)",
                        [gid, era, base, base, round(rng.uniform(1, 3), 1)])
    if human:
        con.execute("INSERT INTO phases VALUES (?, 'setup', NULL, NULL, NULL, ?)", [gid, setup])
    offline = rng.randint(0, 1)
    if offline:
        loser = rng.randint(1, n)
        mandates[loser] -= 1
        con.execute("INSERT INTO ledger VALUES (?, ?, ?, NULL, NULL, NULL, 'offline_penalty', "
                    "-1, ?, '')", [gid, ledger_n, loser, mandates[loser]])
    top = max(mandates.values())
    winners = [s for s, m in mandates.items() if m == top] if complete else []
    for s, fac in enumerate(factions, start=1):
        con.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, 3, 2, 6, 3, 3, ?, ?)",
                    [gid, s, fac, f"player {s}", mandates[s], s in winners, s in winners])
    if complete:
        agi = rng.random() < 0.25
        setup_trust = sum(START_TRUST[f] for f in factions)
        collective = setup_trust + rng.randint(-2, 6)
        risk = rng.randint(0, n + 1)
        is_open = collective >= setup_trust + n and risk < n
        con.execute(
            "INSERT INTO outcomes VALUES (?, TRUE, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [gid, winners, winners, agi, winners[0] if agi else None, ENDINGS[(agi, is_open)],
             is_open, collective, setup_trust, setup_trust + n, collective - setup_trust - n,
             risk, n])
        for s in range(1, n + 1):
            pub = rng.random() < 0.4
            mods = rng.randint(0, 3)
            con.execute("INSERT INTO claims VALUES (?, ?, ?, TRUE, ?, ?, ?)",
                        [gid, s, pub, mods, pub and mods >= 2, 1 + mods + rng.randint(0, 3)])
    for k in range(rng.randint(2, 6)):
        con.execute("INSERT INTO observations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                    [gid, k, rng.choice(CATEGORIES), rng.choice(RULES), rng.randint(1, n),
                     rng.randint(1, 4), rng.randint(1, 3), f"illustrative observation {k}",
                     round(rng.uniform(0.5, 4), 1)])
    if human:
        for s in range(1, n + 1):
            for item in ["fairness", "excitement", "regret", "betrayal", "fun"]:
                con.execute("INSERT INTO survey VALUES (?, ?, ?, NULL, ?)",
                            [gid, s, item, float(rng.randint(1, 5))])
            con.execute("INSERT INTO survey VALUES (?, ?, 'signature_moment', ?, NULL)",
                        [gid, s, f"illustrative moment of seat {s}"])
        con.execute("INSERT INTO survey VALUES (?, NULL, 'explain_winner', 'yes', 1)", [gid])
    for k in range(n_err):
        con.execute(
            "INSERT INTO findings VALUES (?, ?, ?, 'error', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [gid, k, ["build/facility-on-frontier", "select/action-exhausted"][k % 2],
             ["core rules §7 Core Actions, Build", "core rules §2 Central loop"][k % 2],
             "illustrative finding", 5 + k, 7 + k, 1, 1, 1, json.dumps(2), json.dumps(3)])
    for k in range(6):
        con.execute("INSERT INTO events VALUES (?, ?, ?, ?, 1, 1, NULL, ?, ?)",
                    [gid, k, "fund", 1, k + 3, json.dumps({"type": "fund", "seat": 1})])


# --- through the real pipeline ------------------------------------------------------------------

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


def build_with_pipeline(path: Path, simulated: int = 4, human: int = 3, seed: str = "dash") -> Path:
    """A sample warehouse made by the real pipeline: ``simulated`` bot games (labelled
    simulation) and ``human`` ILLUSTRATIVE relabelled copies with made-up times.

    Raises ImportError when the simulator or the pipeline is not available.
    """
    from engine.simulate import simulate
    from ingest.pipeline import ingest_log, ingest_paths
    from schemas.canonical import dumps_log

    if path.exists():
        raise FileExistsError(f"{path} exists; the sample warehouse is only for new files")
    path.parent.mkdir(parents=True, exist_ok=True)
    folder = path.parent / "sample-logs"
    folder.mkdir(exist_ok=True)
    logs = list(simulate(simulated + human, [4, 3, 5, 4], seed=seed))
    for i, log in enumerate(logs[:simulated]):
        (folder / f"simulated-{i}.json").write_text(dumps_log(log), encoding="utf-8")
    ingest_paths([folder], path, progress=False)
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
