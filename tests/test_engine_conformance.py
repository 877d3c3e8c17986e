"""Bot games played through the engine's legal moves replay clean, and one mutated event is
caught (a bounded sample; the simulator's own suite covers more)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.needs_game("mandate2038")

simulate = pytest.importorskip("engine.simulate")

from engine.core.replay import replay  # noqa: E402


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulated_games_replay_clean(players: int) -> None:
    for index in range(2):
        log = simulate.simulate_one(2038, index, players)
        r = replay(log.header, log.events)
        assert r.findings == [], [f.message for f in r.findings[:5]]
        assert r.outcome is not None and r.outcome.complete
        assert r.outcome.ending in {"singularity", "closed_loop", "plural_future",
                                    "assured_continuity"}
        total = {s: sum(e.amount for e in r.ledger if e.seat == s)
                 for s in range(1, players + 1)}
        assert total == r.outcome.details["final_mandate"]


def test_one_mutated_event_is_caught() -> None:
    log = simulate.simulate_one(2038, 0, 4)
    events = list(log.events)
    i = next(k for k, e in enumerate(events) if e.type == "audit" and e.draws)
    events[i] = events[i].model_copy(update={"draws": events[i].draws[:-1]})
    r = replay(log.header, events)
    assert "audit/wrong-draw-count" in [f.code for f in r.findings]


def test_snapshot_at_every_position_is_json() -> None:
    import json

    from engine.core.replay import replay_to
    from engine.mandate2038 import RULESET

    log = simulate.simulate_one(2038, 1, 3)
    for pos in range(0, len(log.events), 11):
        r = replay_to(log.header, log.events, pos)
        snap = RULESET.snapshot(r.state)
        json.dumps(snap)
        assert snap["era"] >= 1 and len(snap["seats"]) == 3


def test_never_raises_on_mutated_logs() -> None:
    import contextlib
    import random

    from schemas.canonical import dump_event
    from schemas.mandate2038 import EVENT_ADAPTER

    rng = random.Random(7)
    log = simulate.simulate_one(2038, 2, 4)
    for _ in range(25):
        events = list(log.events)
        for _ in range(4):
            i = rng.randrange(len(events))
            op = rng.random()
            if op < 0.3:
                del events[i]
            elif op < 0.5:
                events.insert(i, events[rng.randrange(len(events))])
            else:
                d = dump_event(events[i])
                keys = [k for k in d if k != "type" and isinstance(d[k], int)
                        and not isinstance(d[k], bool)]
                if keys:
                    d[rng.choice(keys)] = rng.randint(0, 6)
                    with contextlib.suppress(ValueError):  # pydantic's error is a ValueError
                        events[i] = EVENT_ADAPTER.validate_python(d)
        header = log.header if rng.random() < 0.7 else log.header.model_copy(
            update={"detail": "partial"})
        r = replay(header, events)  # must not raise
        assert r.state is not None


def test_records_of_a_complete_game() -> None:
    log = simulate.simulate_one(2038, 3, 4)
    r = replay(log.header, log.events)
    rec = r.records
    n = 4
    assert len(rec["headlines"]) == 12
    assert len(rec["selections"]) == 12 * n and len(rec["turns"]) >= 12 * n
    for table in ("era_states", "era_mandates", "audits", "production"):
        assert len(rec[table]) == 4 * n, table
    assert [row["era"] for row in rec["audit_draws"]] == [1, 2, 3, 4]
    assert len(rec["dossiers"]) == 4 * n and len(rec["claims"]) == n
    assert {row["seat"] for row in rec["era_states"]} == set(range(1, n + 1))
    # Era IV's end state is before final scoring: only the offline penalty comes after it
    era_end = {row["seat"]: row["mandate"] for row in rec["era_states"] if row["era"] == 4}
    penalty = {s: sum(e.amount for e in r.ledger if e.seat == s and e.source == "offline_penalty")
               for s in era_end}
    assert {s: era_end[s] + penalty[s] for s in era_end} == r.outcome.details["final_mandate"]


FIELD_VALUES: dict[str, list] = {
    "swarm": [True], "blocked": [True], "frontier_bonus": [True], "breakthrough": [True],
    "orbital": [{"facility": 1, "to": "I2"}, {"facility": 3, "to": "F"}],
    "remote": ["F", "O2", "O4"], "piece": ["ceo", "team"],
    "path": [["F"], ["O1", "I1", "F"], ["O5", "O6"], ["I1", "O1", "O2", "O3"]],
    "mode": ["venture", "generator", "recruit", "relocate", "jv", "terminate", "give_scrutiny"],
    "facility": [1, 3], "partner": [1, 2, 6], "partner_facility": [1, 4], "contract": [1, 7],
    "hosts": [[1, 2], [2, 2]], "actions": [["fund", "deploy"], ["fund", "fund"]],
    "target": [1, 6], "to": ["F", "O9"], "recruits": [2], "return_teams": [["F"]],
    "facilities": [[1, 2, 3, 4]], "mega_clusters": [[1], [3]], "emergency": [2],
    "draws": [[1, 2, "black"], [], [6]], "card": ["curated_corpus", "human_evaluation", "poetry"],
    "domain": ["code", "poetry"], "outcome": ["bank", "crash", "protect", "method"],
    "scorers": [[1], [], [9]], "headline": ["open_weights_drop", "weights_on_internet", "zzz"],
    "program": ["fusion", "agent_swarm"], "rival": [1, 6], "era": [1, 4], "cycle": [1, 3],
}


def test_never_raises_on_field_mutations() -> None:
    import contextlib
    import random

    from schemas.canonical import dump_event
    from schemas.mandate2038 import EVENT_ADAPTER

    rng = random.Random(11)
    log = simulate.simulate_one(2038, 4, 5)
    for _ in range(30):
        events = list(log.events)
        for _ in range(6):
            i = rng.randrange(len(events))
            d = dump_event(events[i])
            fields = [f for f in type(events[i]).model_fields if f in FIELD_VALUES]
            if not fields:
                continue
            for _ in range(2):
                f = rng.choice(fields)
                d[f] = rng.choice(FIELD_VALUES[f])
            with contextlib.suppress(ValueError):
                events[i] = EVENT_ADAPTER.validate_python(d)
        header = log.header if rng.random() < 0.7 else log.header.model_copy(
            update={"detail": "partial"})
        r = replay(header, events)  # must not raise
        assert r.outcome is not None


# --- every registered ruleset (OpenSpiel's api_test habit) ------------------------------------
# Each ruleset that registers and can simulate is checked the same way: bots play legal games,
# each replays clean, round-trips through every format the game has, one mutated event is caught
# and fuzzed bytes never make a reader or the replay raise. A new game is picked up when it
# registers (its playtest.games entry point, engine/core/registry.py), with no change here.

from engine.core.registry import get_ruleset, rulesets  # noqa: E402

SUFFIX = {"json": ".json", "notation": ".txt", "csv": ".csv"}


def _suffix(game: str, fmt: str) -> str:
    """The first suffix ``game`` declares for its format ``fmt`` (else the usual one)."""
    for f in get_ruleset(game).formats:
        if f.name == fmt and f.suffixes:
            return f.suffixes[0]
    return SUFFIX[fmt]


def _simulating() -> list[str]:
    return sorted(g for g, rs in rulesets().items() if callable(getattr(rs, "simulate_one", None)))


GAMES = _simulating()
_LOGS: dict[tuple[str, int], object] = {}


def _games_of(game: str) -> list[object]:
    """One bot game per player count the game's simulator plays (cached for this module)."""
    rs = rulesets()[game]
    out = []
    for players in sorted(rs.player_counts):
        key = (game, players)
        if key not in _LOGS:
            _LOGS[key] = simulate.simulate_one(8, players, players, "mixed", game=game)
        out.append(_LOGS[key])
    return out


def test_mandate2038_is_always_among_the_rulesets_checked() -> None:
    assert "mandate2038" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_bot_games_are_legal_and_replay_clean(game: str) -> None:
    rs = rulesets()[game]
    assert rs.player_counts and rs.bot_names and rs.location_parts
    for log in _games_of(game):
        header = log.header  # type: ignore[attr-defined]
        assert header.game == game and header.session_type == "simulation"
        r = replay(header, log.events, ruleset=rs)  # type: ignore[attr-defined]
        assert r.findings == [], [f.message for f in r.findings[:5]]
        assert r.outcome is not None and r.outcome.complete
        assert len(r.locations) == len(log.events)  # type: ignore[attr-defined]
        assert all(len(loc) == len(rs.location_parts) for loc in r.locations)
        last: dict[int, int] = {}
        for e in r.ledger:  # every ledger entry carries the running total of its seat
            assert e.total == last.get(e.seat, 0) + e.amount or e.source in ("starting", "checkpoint")
            last[e.seat] = e.total


@pytest.mark.parametrize("game", GAMES)
def test_bot_games_round_trip_through_every_format(game: str) -> None:
    from ingest.formats import read_bytes, writers
    from schemas.canonical import dumps_log

    table = writers(game)
    assert "json" in table
    for log in _games_of(game):
        want = dumps_log(log)
        for fmt, write in table.items():
            text = write(log)
            # the file named as the game declares its format (a guest game's mark never takes
            # a suffix a toolkit game lists: docs/notes/game-declaration.md)
            (loaded,) = read_bytes(text.encode("utf-8"), f"game{_suffix(game, fmt)}")
            parsed = loaded.parsed
            assert parsed.readable and not parsed.findings, (fmt, parsed.findings[:3])
            back = parsed.ruleset.log_model(header=parsed.header, events=parsed.events)
            assert dumps_log(back) == want, f"{game} {fmt} round trip"


@pytest.mark.parametrize("game", GAMES)
def test_one_mutated_event_yields_a_finding(game: str) -> None:
    """Give a seat's action to the next seat: out of turn, so the rules must say so."""
    log = _games_of(game)[-1]
    header, events = log.header, list(log.events)  # type: ignore[attr-defined]
    n = len(header.seats)
    skip = {"observation", "survey", "checkpoint", "phase"}
    picks = [i for i, e in enumerate(events)
             if isinstance(getattr(e, "seat", None), int) and e.type not in skip]
    assert picks
    caught = 0
    tried = picks[len(picks) // 4 :: max(1, len(picks) // 8)][:8]
    for i in tried:
        ev = events[i]
        bad = list(events)
        bad[i] = ev.model_copy(update={"seat": ev.seat % n + 1})
        caught += bool(replay(header, bad).findings)
    # Most seat changes break a turn rule; a few event kinds may rightly name any seat (and
    # Vestige's turn_end is not checked yet: reported to its owner), so ask for most, not all.
    assert caught >= max(1, (len(tried) + 1) // 2), f"{caught} of {len(tried)} mutated events caught"


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_bytes_never_raise(game: str) -> None:
    import random

    from ingest.formats import read_bytes, writers

    rng = random.Random(f"fuzz:{game}")
    log = _games_of(game)[0]
    for fmt, write in writers(game).items():
        data = bytearray(write(log).encode("utf-8"))
        for _ in range(12):
            buf = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                j = rng.randrange(len(buf))
                op = rng.random()
                if op < 0.4:
                    buf[j] = rng.randrange(256)
                elif op < 0.7:
                    del buf[j : j + rng.randint(1, 40)]
                else:
                    buf[j:j] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
            for item in read_bytes(bytes(buf), f"fuzz{SUFFIX[fmt]}"):  # must not raise
                if item.parsed.readable:
                    replay(item.parsed.header, item.parsed.events, ruleset=item.parsed.ruleset)
