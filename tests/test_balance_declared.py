"""A game's declared balance metrics (issue 28): the declaration member ``balance``
(engine.core.game.Balance), their computation for every game (ingest/balance.py) and the Balance
page drawing each registered game's, on warehouses loaded through the real pipeline."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from engine.core.game import Balance, BalanceMetric, Game, GameDeclarationError, check_declaration
from engine.core.registry import get_ruleset
from ingest import balance, stats
from ingest.pipeline import ingest_paths
from schemas.canonical import dumps_log
from tests.games import require_game

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"


def _ruleset(game: str) -> Any:
    require_game(game)
    return get_ruleset(game)


@pytest.fixture(scope="module")
def games_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Simulated Vestige (2-4 players) and Pig (2-3 players) games in one warehouse."""
    folder = tmp_path_factory.mktemp("balance-games")
    for game, counts in (("vestige", (2, 3, 4)), ("pig", (2, 3))):
        rs = _ruleset(game)
        for i in range(12):
            log = rs.simulate_one("declared", i, counts[i % len(counts)])
            (folder / f"{game}-{i}.json").write_text(dumps_log(log), encoding="utf-8")
    db = tmp_path_factory.mktemp("balance-db") / "playtest.duckdb"
    summary = ingest_paths([folder], db, progress=False)
    assert len(summary.loaded) == 24
    return db


# --- the declaration ------------------------------------------------------------------------


def test_mandate_declares_its_contract_checks_as_its_room_computes_them() -> None:
    """Mandate's declared metrics are its room's checks, with the thresholds of its contract
    file (the verdicts' own), in the same order, computed by one function of its room."""
    decl = _ruleset("mandate2038").balance
    from ingest.mandate2038 import balance as room

    assert [(m.id, m.label) for m in decl.metrics] == [(m[0], m[1]) for m in room.METRICS]
    th = stats.thresholds("mandate2038")
    for m, (_mid, _name, key, bound) in zip(decl.metrics, room.METRICS, strict=True):
        assert m.bound == bound and m.threshold == pytest.approx(th[key]), m.id
    assert {m.compute for m in decl.metrics} == {"ingest.mandate2038.balance:declared"}
    assert decl.section == "dashboards.mandate2038.balance:section"


@pytest.mark.parametrize("game", ["vestige", "pig"])
def test_vestige_and_pig_declare_sql_metrics_without_thresholds(game: str) -> None:
    decl = _ruleset(game).balance
    assert decl.metrics and decl.section is None
    assert all(m.threshold is None and m.compute.lstrip().upper().startswith("SELECT")
               for m in decl.metrics)


def _declaration(**members: Any) -> Any:
    base = _ruleset("pig")

    class Probe(type(base)):  # type: ignore[misc]
        pass

    obj = Probe()
    for name, value in members.items():
        setattr(obj, name, value)
    return obj


@pytest.mark.parametrize("bad, words", [
    (Balance(metrics=(BalanceMetric("a", "A", "d", "SELECT 1"),
                      BalanceMetric("a", "B", "d", "SELECT 2"))), "unique ids"),
    (Balance(metrics=(BalanceMetric("a", "A", "d", "SELECT 1", 0.1, "below"),)), "bound"),
    (Balance(metrics=(BalanceMetric("Bad id", "A", "d", "SELECT 1"),)), "lower-case id"),
    (Balance(metrics=(BalanceMetric("a", "A", "d", "ingest.balance:no_such_function"),)),
     "does not resolve"),
    (Balance(section="no_such_module_here:draw"), "balance.section"),
    ((BalanceMetric("a", "A", "d", "SELECT 1"),), "must be an engine.core.game.Balance"),
    (Balance(metrics=(BalanceMetric("a", "A", "d", None),)), "needs a lower-case id"),  # type: ignore[arg-type]
])
def test_a_malformed_balance_member_is_refused_naming_it(bad: Any, words: str) -> None:
    with pytest.raises(GameDeclarationError, match=words):
        check_declaration(_declaration(balance=bad))


def test_a_game_without_the_member_has_no_metrics() -> None:
    assert Game.balance == Balance() and not Game.balance.metrics


# --- the computation ------------------------------------------------------------------------


def test_pig_metrics_have_the_values_of_their_definitions(games_db: Path) -> None:
    """First-player advantage is the first player's win rate less 1/n; game length the mean
    rounds; each per player count, with intervals and no verdict (no threshold)."""
    df = balance.metrics("pig", balance.Source(db=games_db), balance.AllGames())
    con = duckdb.connect(str(games_db), read_only=True)
    try:
        truth = dict(con.sql("""
            SELECT g.player_count, avg(CAST(s.winner AS DOUBLE) - 1.0 / g.player_count)
            FROM pig_seats s JOIN games g USING (game_id)
            JOIN (SELECT game_id, arg_min(seat, event) AS first FROM pig_turns
                  GROUP BY game_id) f USING (game_id)
            WHERE s.seat = f.first GROUP BY ALL""").fetchall())
        rounds = dict(con.sql("SELECT g.player_count, avg(p.rounds) FROM pig_games p "
                              "JOIN games g USING (game_id) GROUP BY ALL").fetchall())
    finally:
        con.close()
    adv = {r["player_count"]: r for r in df.filter(df["metric"] == "first_player_advantage")
           .iter_rows(named=True)}
    assert set(adv) == {2, 3} == set(truth)
    for n, r in adv.items():
        assert r["value"] == pytest.approx(truth[n]) and r["games"] == 6
        assert r["low"] < r["value"] < r["high"] or r["low"] == r["high"]
        assert r["verdict"] == "no threshold" and r["kind"] == "simulated"
    for r in df.filter(df["metric"] == "game_length").iter_rows(named=True):
        assert r["value"] == pytest.approx(rounds[r["player_count"]])


def test_a_share_metric_counts_games_and_a_threshold_gives_a_verdict(games_db: Path) -> None:
    """A SELECT without ``value`` is the share of games per key (how Vestige games end: the
    shares of a player count sum to 1); a declared threshold gives the verdict rule's
    verdict, with games to settle an undecided one."""
    rs = _ruleset("vestige")
    src = balance.Source(db=games_db)
    df = balance.metrics("vestige", src, balance.AllGames())
    ends = df.filter(df["metric"] == "endings")
    for (n,), part in ends.group_by(["player_count"]):
        assert part["value"].sum() == pytest.approx(1.0), n
        assert (part["games"] == part["games"][0]).all()
    judged = dataclasses.replace(rs.balance.metrics[-1], threshold=1.0, bound="min")
    decl = Balance(metrics=(judged,))
    got = balance._metrics("vestige", decl, src, balance.AllGames(), None)
    assert set(got["verdict"]) <= {stats.WITHIN, stats.OUTSIDE, stats.NOT_ENOUGH}
    assert (got["games"] < stats.MIN_VERDICT_GAMES).all()
    assert set(got["verdict"]) == {stats.NOT_ENOUGH}  # a dozen games decide nothing


def _pig_copy(games_db: Path, db: Path, change: str) -> Path:
    """A copy of the sample warehouse's Pig tables at ``db`` with ``change`` (an UPDATE) made."""
    con = duckdb.connect(str(db))
    try:
        con.execute(f"ATTACH '{games_db}' AS w (READ_ONLY)")
        for table in ("games", "pig_seats", "pig_turns", "pig_games"):
            con.execute(f"CREATE TABLE {table} AS SELECT * FROM w.{table}")
        con.execute(change)
    finally:
        con.close()
    return db


def test_study_arms_are_never_pooled(games_db: Path, tmp_path: Path) -> None:
    """Games of two rules versions (today's study arm in the warehouse) are two kinds, each
    with its own figures; one arm keeps the kind's plain name."""
    db = _pig_copy(games_db, tmp_path / "arms.duckdb",
                   "UPDATE games SET rules_version = 'other' WHERE game = 'pig' AND "
                   "game_id IN (SELECT game_id FROM games WHERE game = 'pig' "
                   "ORDER BY game_id LIMIT 5)")
    split = balance.metrics("pig", balance.Source(db=db), balance.AllGames())
    kinds = {balance.split_kind(k) for k in split["kind"]}
    assert {arm for _base, arm in kinds} >= {"other"} and len(kinds) >= 2
    one = balance.metrics("pig", balance.Source(db=games_db), balance.AllGames())
    assert set(one["kind"]) == {"simulated"}
    games = split.filter(split["metric"] == "game_length")
    total = {n: int(part["games"].sum()) for (n,), part in games.group_by(["player_count"])}
    assert total == {2: 6, 3: 6}  # every game counted once, in its own arm



def test_games_of_a_rules_variant_are_their_own_arm(games_db: Path, tmp_path: Path) -> None:
    """Games the warehouse records under a rules variant (migration 9's columns) are never
    pooled with the printed rules' games of the same kind and player count."""
    db = _pig_copy(games_db, tmp_path / "variant-arms.duckdb",
                   "UPDATE games SET variant_name = 'target-50', variant_content_hash = "
                   "'abcdef0123456789' WHERE game = 'pig' AND game_id IN (SELECT game_id "
                   "FROM games WHERE game = 'pig' ORDER BY game_id LIMIT 4)")
    con = duckdb.connect(str(db), read_only=True)
    try:
        cols = {r[0] for r in con.execute("DESCRIBE games").fetchall()}
    finally:
        con.close()
    assert {"variant_name", "variant_content_hash"} <= cols
    split = balance.metrics("pig", balance.Source(db=db), balance.AllGames())
    arms = {arm for _base, arm in map(balance.split_kind, split["kind"])}
    assert any(arm and "variant target-50 (abcdef01)" in arm for arm in arms), arms
    assert any(arm is not None and "variant" not in arm for arm in arms), arms
    games = split.filter(split["metric"] == "game_length")
    total = {n: int(part["games"].sum()) for (n,), part in games.group_by(["player_count"])}
    assert total == {2: 6, 3: 6}  # every game counted once, in its own arm

def test_a_game_declaring_nothing_has_no_rows(games_db: Path) -> None:
    got = balance._metrics("pig", Balance(), balance.Source(db=games_db), balance.AllGames(),
                           None)
    assert got.is_empty() and list(got.columns) == list(balance.COLUMNS)


CALLS: list[tuple[Any, ...]] = []


def fake_metrics(src: Any, f: Any, only: int | None) -> Any:
    """A declared function: two metrics in one frame, leaving out names and thresholds."""
    import polars as pl

    CALLS.append((src, f, only))
    return pl.DataFrame({"kind": ["simulated"] * 2, "player_count": [2, 2],
                         "metric": ["m", "k"], "value": [0.5, 0.2], "low": [0.4, 0.1],
                         "high": [0.6, 0.3], "games": [40, 40]})


def test_a_declared_function_is_called_once_and_completed(games_db: Path) -> None:
    """Metrics naming one ``module:function`` are computed by one call; what it leaves out
    (names, thresholds, bounds) comes from the declaration."""
    ref = f"{__name__}:fake_metrics"
    decl = Balance(metrics=(BalanceMetric("m", "The m", "d", ref, 0.7, "max"),
                            BalanceMetric("k", "The k", "d", ref)))
    CALLS.clear()
    got = balance._metrics("pig", decl, balance.Source(db=games_db), balance.AllGames(), 2)
    assert len(CALLS) == 1 and CALLS[0][2] == 2
    assert list(got.columns) == list(balance.COLUMNS)
    rows = {r["metric"]: r for r in got.iter_rows(named=True)}
    assert (rows["m"]["name"], rows["m"]["threshold"], rows["m"]["bound"]) == (
        "The m", 0.7, "at most")
    assert rows["k"]["threshold"] is None and math.isclose(rows["k"]["value"], 0.2)


# --- the page -------------------------------------------------------------------------------


def _page(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    monkeypatch.delenv("PLAYTEST_STUDY", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("views/balance.py").run()
    assert not [e.value for e in at.exception]
    return at


def test_page_draws_every_games_declared_metrics(games_db: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(games_db, monkeypatch)
    headers = [h.value for h in at.header]
    assert {"Vestige", "Pig"} <= set(headers)
    subheaders = {s.value for s in at.subheader}
    for game in ("vestige", "pig"):
        assert {m.label for m in _ruleset(game).balance.metrics} <= subheaders
    tables = [d.value for d in at.dataframe]
    assert tables and all(t.shape[1] <= 8 for t in tables)
    verdicts = {v for t in tables if "verdict" in t.columns for v in t["verdict"]}
    assert "no threshold" in verdicts  # intervals only: neither publishes thresholds
    assert any("95% interval" in t.columns for t in tables)
    assert len(at.get("vega_lite_chart")) >= 2  # the metrics by group (seat, source)
    info = " ".join(i.value for i in at.info)
    assert "No complete Mandate 2038 games" not in info  # Mandate's own words stay its own


def test_page_says_when_a_game_declares_no_metrics(games_db: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    rs = _ruleset("pig")
    monkeypatch.setattr(rs, "balance", Balance())
    at = _page(games_db, monkeypatch)
    assert any("Pig declares no balance metrics" in i.value for i in at.info)
    assert "Vestige" in [h.value for h in at.header]


def test_page_draws_no_section_for_a_game_absent_from_the_warehouse(
        games_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game with declared metrics and no game in the warehouse gets no section and no query
    (it would only say it has no complete games); a game with a section of its own (Mandate
    2038's reads a study folder too) is drawn still."""
    db = tmp_path / "playtest.duckdb"
    db.write_bytes(games_db.read_bytes())
    con = duckdb.connect(str(db))
    try:
        for table in ("games", "game_totals"):
            con.execute(f"DELETE FROM {table} WHERE game = 'pig'")
    finally:
        con.close()
    asked: list[str] = []
    metrics = balance.metrics

    def recording(game: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(game)
        return metrics(game, *args, **kwargs)

    monkeypatch.setattr(balance, "metrics", recording)
    at = _page(db, monkeypatch)
    headers = [h.value for h in at.header]
    assert "Vestige" in headers and "Pig" not in headers
    assert "Mandate 2038" in headers  # its own section: the study folder's field
    assert asked == ["vestige"]
    info = " ".join(i.value for i in at.info)
    assert "No complete Pig games" not in info
