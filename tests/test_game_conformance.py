"""One conformance test over every registered game (issue 16; OpenSpiel's ``random_sim_test``,
STYLE.md principle 8): whatever package declares a game, its bots play legal games that replay
clean, its rows fit the tables it declares, each game round-trips through every format it
declares, duplicated events are caught, and arbitrary bytes never make a reader raise.

Small in CPU: one short game per registered game (its smallest player count)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core.game import Format
from engine.core.registry import ONLY_GAMES_ENV, rulesets
from engine.core.replay import replay
from tests.games import hidden

SHARED = {"seats", "outcomes"}
GAMES = [g for g, rs in rulesets().items() if rs.simulate_one is not None]
_LOGS: dict[str, Any] = {}


def test_more_than_one_game_is_registered() -> None:
    # the toolkit's own two at least; a test over one game would prove little (OpenSpiel)
    if hidden():
        pytest.skip(f"{ONLY_GAMES_ENV} hides the other installed games: this run checks the "
                    f"games it names ({', '.join(GAMES)}) one by one")
    assert {"mandate2038", "vestige"} <= set(GAMES)


def _game(game: str) -> tuple[Any, Any]:
    rs = rulesets()[game]
    if game not in _LOGS:
        if rs.prepare_simulation is not None:
            rs.prepare_simulation()
        _LOGS[game] = rs.simulate_one("conformance", 0, min(rs.player_counts), rs.bot_names[-1])
    return rs, _LOGS[game]


def _plain(events: Any) -> list[dict[str, Any]]:
    from schemas.canonical import dump_event

    return [dump_event(e) for e in events]


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_game_replays_clean_and_its_rows_fit_its_tables(game: str) -> None:
    rs, log = _game(game)
    assert log.header.game == game and log.header.session_type == "simulation"
    r = replay(log.header, log.events)
    assert r.findings == [], [f.message for f in r.findings[:5]]
    assert r.outcome is not None and r.outcome.complete
    assert len(r.locations) == len(log.events)
    for loc in r.locations:
        assert len(loc) == len(rs.location_parts)
    for table, rows in r.records.items():
        assert table in rs.tables, f"{game} returns rows for {table!r}, which it does not declare"
        declared = {c for c, _t in rs.tables[table]} | ({"seat"} if table == "seats" else set())
        for row in rows:
            extra = set(row) - declared
            assert not extra, f"{game}.{table}: columns {sorted(extra)} are not declared"
    for entry in r.ledger:
        assert isinstance(rs.vocabulary.label("score_sources", entry.source), str)


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_game_round_trips_through_every_declared_format(game: str) -> None:
    from ingest.formats import read_bytes, write_log

    rs, log = _game(game)
    for fmt in ("json", *(f.name for f in rs.formats if f.writer is not None)):
        text = write_log(log, fmt)
        suffix = ".json" if fmt == "json" else next(
            f.suffixes[0] for f in rs.formats if f.name == fmt)
        (loaded,) = read_bytes(text.encode("utf-8"), f"game{suffix}")
        assert loaded.unreadable is None, (fmt, loaded.unreadable)
        parsed = loaded.parsed
        assert parsed.header.game == game and parsed.findings == [], (fmt, parsed.findings[:3])
        assert _plain(parsed.events) == _plain(log.events), f"{game} {fmt}: events differ"


@pytest.mark.parametrize("game", GAMES)
def test_duplicated_events_are_caught(game: str) -> None:
    _rs, log = _game(game)
    events = list(log.events)
    start = len(events) // 3
    picked = [i for i in range(start, len(events))
              if events[i].type not in ("observation", "survey", "checkpoint")][:6]
    caught = 0
    for i in picked:
        r = replay(log.header, [*events[:i + 1], events[i], *events[i + 1:]])
        caught += bool(r.findings)
    assert caught >= max(1, len(picked) // 2), f"{game}: {caught} of {len(picked)} caught"


@pytest.mark.parametrize("game", GAMES)
def test_arbitrary_bytes_never_make_a_reader_raise(game: str) -> None:
    from ingest.formats import read_bytes, write_log

    rs, log = _game(game)
    rng = random.Random(16)
    formats: list[Format] = list(rs.formats)
    for f in formats:
        seed = write_log(log, f.name).encode("utf-8") if f.writer is not None else b""
        for _ in range(12):
            data = bytearray(seed[: rng.randrange(1, 400)] if seed else b"")
            for _ in range(rng.randrange(1, 8)):
                data.insert(rng.randrange(len(data) + 1), rng.randrange(256))
            for item in read_bytes(bytes(data), f"fuzz{f.suffixes[0]}"):
                assert item.parsed is not None or item.unreadable


def test_a_game_without_its_own_timing_gets_its_declared_phases() -> None:
    # ingest.timing.phase_timing: what a game declaring ``timed_phases`` and no ``timing`` gets
    import datetime as dt
    from types import SimpleNamespace as E

    from ingest.timing import phase_timing

    t0 = dt.datetime(2026, 12, 1, 18, 0)

    def at(minutes: float) -> dt.datetime:
        return t0 + dt.timedelta(minutes=minutes)

    events = [E(type="phase", name="setup", t=at(0)), E(type="roll", t=at(2)),
              E(type="phase", name="setup_end", t=at(5)), E(type="roll", t=at(6)),
              E(type="phase", name="break", t=at(10)), E(type="phase", name="resume", t=at(20)),
              E(type="phase", name="final_scoring", t=at(30)),
              E(type="phase", name="game_end", t=at(33))]
    timing = phase_timing(events, ("setup", "final_scoring"))
    assert [(p["phase"], p["minutes"]) for p in timing.phases] == [("setup", 5.0),
                                                                    ("final_scoring", 3.0)]
    assert timing.total_minutes == 23.0 and timing.setup_minutes == 5.0  # the break left out
    assert timing.turn_times == []
    assert phase_timing(events, ()).phases == []  # a phase not declared is not timed
