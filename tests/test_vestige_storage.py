"""Vestige games in the warehouse: simulated games ingest into the generic tables (game =
'vestige', labelled simulation) and Vestige's own tables, and those rows agree with the ledger
and the rules (mastery ties unclaimed, the final round triggered by the right number of
conditions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

import engine.vestige  # noqa: F401 - registers the ruleset (until the registry loads it itself)
from dashboards.queries import Filters
from dashboards.vestige import queries as vq
from engine.vestige.simulate import simulate_one
from engine.vestige.warehouse import TABLES as VESTIGE_TABLES
from ingest.pipeline import ingest_paths
from ingest.warehouse.schema import TABLES
from schemas.canonical import dumps_log

N = 9


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vestige")
    logs = root / "logs"
    logs.mkdir()
    for i in range(N):
        log = simulate_one(11, i, (2, 3, 4)[i % 3])
        (logs / f"{log.header.game_id}.json").write_text(dumps_log(log), encoding="utf-8")
    path = root / "w" / "playtest.duckdb"
    summary = ingest_paths([logs], path, progress=False)
    assert [r.status for r in summary.reports] == ["loaded"] * N
    return path


def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_declared_tables_match_the_warehouse_schema() -> None:
    for name, cols in VESTIGE_TABLES.items():
        assert [(c, d) for c, _, d in TABLES[name]][1:] == list(cols), name


def test_games_are_vestige_simulations(db: Path) -> None:
    assert _rows(db, "SELECT game, session_type, is_human, count(*) FROM games GROUP BY ALL") == [
        ("vestige", "simulation", False, N)]
    assert _rows(db, "SELECT count(*) FROM vestige_games")[0][0] == N
    kinds = vq.games(db, Filters())["kind"].unique().to_list()
    assert kinds == ["simulated"]


def test_final_leverage_is_the_ledger_total(db: Path) -> None:
    bad = _rows(db, """
        SELECT s.game_id, s.seat, s.final_leverage, l.total
        FROM vestige_seats s LEFT JOIN (
            SELECT game_id, seat, CAST(sum(amount) AS INTEGER) AS total FROM ledger GROUP BY ALL
        ) l USING (game_id, seat)
        WHERE s.final_leverage IS DISTINCT FROM coalesce(l.total, 0)""")
    assert not bad, bad


def test_mastery_is_claimed_by_a_sole_leader_only(db: Path) -> None:
    rows = _rows(db, """
        SELECT game_id, colour, count(*) FILTER (WHERE claimed) AS claims,
               max(cards) AS top, count(*) FILTER (WHERE cards = (SELECT max(cards)
                   FROM vestige_mastery m2 WHERE m2.game_id = m.game_id AND m2.colour = m.colour))
                   AS at_top
        FROM vestige_mastery m GROUP BY ALL""")
    assert rows
    for game, colour, claims, top, at_top in rows:
        assert claims <= 1, (game, colour)
        if claims == 1:
            assert at_top == 1 and top > 0, (game, colour, top, at_top)


def test_final_round_follows_the_conditions_met(db: Path) -> None:
    rows = _rows(db, """
        SELECT v.game_id, v.final_round, v.conditions_needed,
               count(*) FILTER (WHERE e.triggered_final) AS triggering,
               max(e.met_round) FILTER (WHERE e.triggered_final) AS triggered_in
        FROM vestige_games v LEFT JOIN vestige_endgame e USING (game_id) GROUP BY ALL""")
    for game, final_round, needed, triggering, triggered_in in rows:
        if triggering:
            assert triggering == needed, game
            assert final_round == triggered_in + 1, (game, final_round, triggered_in)


def test_every_query_reads_the_sample(db: Path) -> None:
    f = Filters()
    assert set(vq.leverage_by_source(db, f)["source"].to_list()) <= set(vq.SOURCES)
    assert vq.durations(db, f, True).height == N
    assert vq.durations(db, f).is_empty()  # simulations never estimate human play time
    assert vq.modes(db, f).height == N
    assert not vq.regions(db, f).is_empty()
    assert vq.seats(db, Filters(player_counts=(3,)))["player_count"].unique().to_list() == [3]


def test_observation_protocol_names_only_vestige_events() -> None:
    from schemas.packs import load_protocol
    from schemas.protocol import _leaves, capture_completeness
    from schemas.vestige import EVENT_TYPES

    protocol = load_protocol("vestige-observation")
    assert protocol.game == "vestige" and protocol.reference == "vestige-observation@1"
    for item in protocol.checklist:
        for leaf in _leaves(item.check):
            for attr in ("type", "with_"):
                named = getattr(leaf, attr, None)
                for t in [named] if isinstance(named, str) else (named or []):
                    assert t in EVENT_TYPES, (item.id, t)
    log = simulate_one(3, 0, 2)
    got = {c.item_id: c.captured for c in capture_completeness(protocol, log)}
    assert got["map"] and got["moves"] and got["final_scoring"] and got["seat_setup"]
    assert not got["survey_fun"] and not got["setup_duration"]  # bots answer no survey, no clock
