"""Bot games played through the engine's legal moves replay clean, their ledger adds up to the
final scores, the winner reached the target, and one mutated event produces a finding (the
toolkit's conformance idea, on Pig alone)."""

from __future__ import annotations

import contextlib
import random

import pytest
from conftest import codes, run
from playtest_pig.schema import EVENT_ADAPTER, Roll
from playtest_pig.simulate import simulate_one

from schemas.canonical import dump_event


@pytest.mark.parametrize("bots", ["hold20", "pace", "random", "mixed"])
def test_bot_games_replay_clean(bots: str) -> None:
    for index in range(8):
        players = 2 + index % 5
        log = simulate_one(7, index, players, bots)
        r = run(log.header, list(log.events))
        assert r.findings == [], [f.message for f in r.findings[:3]]
        assert r.outcome is not None and r.outcome.complete
        scores = r.outcome.details["final_scores"]
        assert {s: sum(e.amount for e in r.ledger if e.seat == s) for s in scores} == scores
        (winner,) = r.outcome.winners
        assert scores[winner] >= 100 and all(v < 100 for s, v in scores.items() if s != winner)
        assert log.events[-1].type == "final" and log.events[-1].winners == [winner]


def test_simulation_is_reproducible_from_seed_and_index() -> None:
    assert simulate_one(3, 5, 4) == simulate_one(3, 5, 4)
    assert simulate_one(3, 5, 4) != simulate_one(3, 6, 4)


def test_hold20_beats_random_over_many_games() -> None:
    """A sanity check of the bots: hold-at-20 wins most two-player games against random."""
    from playtest_pig.bots import Hold20, RandomBot
    from playtest_pig.ruleset import RULESET
    from playtest_pig.simulate import game_header

    from engine.simulate import simulate_game

    wins = 0
    for i in range(60):
        rng = random.Random(f"duel:{i}")
        header = game_header(2, rng, ["hold20", "random"], seed="duel", index=i)
        log = simulate_game(RULESET, header, {1: Hold20(), 2: RandomBot(random.Random(i))}, rng)
        wins += log.events[-1].winners == [1]
    assert wins >= 40, wins


def test_one_mutated_roll_is_caught() -> None:
    """A roll of the winner changed from 6 to 5: its written score and the final record no
    longer match the rules."""
    log = simulate_one(11, 0, 2, "hold20")
    events = list(log.events)
    i = next(k for k, e in enumerate(events) if isinstance(e, Roll) and e.face == 6)
    events[i] = events[i].model_copy(update={"face": 5})
    found = codes(run(log.header, events))
    assert "checkpoint/mismatch" in found


def test_a_roll_given_to_the_wrong_seat_is_caught() -> None:
    log = simulate_one(11, 1, 3, "pace")
    events = list(log.events)
    i = next(k for k, e in enumerate(events) if isinstance(e, Roll) and k > 5)
    seat = events[i].seat % 3 + 1
    events[i] = events[i].model_copy(update={"seat": seat})
    assert "pig-turn/not-your-turn" in codes(run(log.header, events))


def test_never_raises_on_mutated_logs() -> None:
    rng = random.Random(5)
    log = simulate_one(5, 2, 4)
    for _ in range(40):
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
                keys = [k for k in d if isinstance(d[k], int) and not isinstance(d[k], bool)]
                if keys:
                    d[rng.choice(keys)] = rng.randint(0, 7)
                    with contextlib.suppress(ValueError):
                        events[i] = EVENT_ADAPTER.validate_python(d)
        r = run(log.header, events)  # must not raise
        assert r.state is not None and r.outcome is not None


def test_every_duplicated_event_of_a_bot_game_is_caught() -> None:
    """The running totals the table writes (§5.2) make any repeated roll or hold visible,
    even in a turn that ends on a 1 (where the repeated roll changes no score)."""
    log = simulate_one(13, 0, 3)
    events = list(log.events)[:-1]  # without the final record
    for i, ev in enumerate(events):
        found = codes(run(log.header, [*events[:i + 1], ev, *events[i + 1:]]))
        assert [c for c in found if c != "log/partial"], (i, ev)


def test_a_wrong_running_total_is_one_finding() -> None:
    """§3.3: the table adds 4 + 6 as 11; the rules continue from the table's 11."""
    from conftest import event, header

    r = run(header(2), [event(type="roll", seat=1, face=4, total=4),
                        event(type="roll", seat=1, face=6, total=11),
                        event(type="hold", seat=1, score=11)])
    assert codes(r) == ["checkpoint/mismatch", "log/partial"]
    f = r.findings[0]
    assert (f.expected, f.recorded) == (10, 11) and "§3.3" in f.rule
    assert r.state.scores[1] == 11
