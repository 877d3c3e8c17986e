"""Scoring sources on a corpus with known fractional averages.

37 three-seat games. Mirevanta gains 132 Mandate from Customers over its 37 seat-games
(21 games with 4, 16 with 3) and 18 from Fusion (one in each of 18 games): the page must show
132/37 = 3.57 and 18/37 = 0.49, not the 4 and 0 of an integer division.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.mandate2038 import queries as mandate_queries
from dashboards.mandate2038 import tables
from dashboards.queries import Filters

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"
FACTIONS = ("mirevanta", "kestralyn", "corthaven")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ingest.warehouse import game_totals, migrate, summaries

    db = tmp_path_factory.mktemp("scoring") / "playtest.duckdb"
    con = duckdb.connect(str(db))
    migrate(con)
    for g in range(37):
        gid = f"g{g:02d}"
        con.execute(
            "INSERT INTO games (game_id, game, rules_version, profile, session_type, is_human, "
            "illustrative, player_count, date, complete) VALUES (?, 'mandate2038', "
            "'0.8.0-rc.17-test', 'default', 'facilitated_playtest', TRUE, FALSE, 3, ?, TRUE)",
            [gid, dt.date(2026, 1, 1) + dt.timedelta(days=g)])
        for seat, faction in enumerate(FACTIONS, start=1):
            con.execute("INSERT INTO seats (game_id, seat, faction, winner) VALUES (?, ?, ?, ?)",
                        [gid, seat, faction, seat == 2])
        entries = [(1, "customer", 4 if g < 21 else 3, 2), (1, "starting", 10, None),
                   (2, "customer", 1, 3)]
        if g < 18:
            entries.append((1, "fusion", 1, 4))
        for n, (seat, source, amount, era) in enumerate(entries):
            con.execute("INSERT INTO ledger (game_id, n, seat, era, source, amount) "
                        "VALUES (?, ?, ?, ?, ?, ?)", [gid, n, seat, era, source, amount])
    summaries.refresh(con)  # the tables were written directly: derive what a load derives
    game_totals.refresh(con)
    con.close()
    return db


def test_means_per_seat_game_keep_their_fractions(corpus: Path) -> None:
    ledger = mandate_queries.ledger_by_source(corpus, Filters())
    seats = mandate_queries.seats_in_games(corpus, Filters())
    table = tables.mandate_by_faction(ledger, seats)
    mir = {r["source_name"]: r for r in table.filter(table["faction"] == "mirevanta")
           .iter_rows(named=True)}
    assert mir["Customers"]["mandate"] == 132 and mir["Customers"]["seat_games"] == 37
    assert mir["Customers"]["per_seat"] == pytest.approx(3.57)
    assert mir["Fusion"]["per_seat"] == pytest.approx(0.49)
    assert mir["Starting Mandate"]["per_seat"] == pytest.approx(10.0)
    kes = table.filter(table["faction"] == "kestralyn")
    assert kes["per_seat"].to_list() == [pytest.approx(1.0)]
    win = tables.mandate_winners(ledger, seats)
    others = {r["source_name"]: r["per_seat"] for r in win.filter(win["group"] == "Others")
              .iter_rows(named=True)}
    assert others["Customers"] == pytest.approx(132 / 74, abs=0.005)  # 74 seat-games of others
    assert others["Fusion"] == pytest.approx(18 / 74, abs=0.005)
    era = tables.mandate_by_era(ledger)
    assert era["era_label"].unique(maintain_order=True).to_list() == [
        "Start", "Era II", "Era III", "Era IV"]


def test_scoring_page_shows_the_fractions(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYTEST_DB", str(corpus))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.switch_page("views/scoring.py").run()
    assert not at.exception, [e.value for e in at.exception]
    df = at.dataframe[0].value
    rows = {(r["faction"], r["source_name"]): r["per_seat"] for r in df.to_dict("records")}
    assert rows[("Mirevanta Works", "Customers")] == pytest.approx(3.57)
    assert rows[("Mirevanta Works", "Fusion")] == pytest.approx(0.49)
    assert len(at.get("vega_lite_chart")) == 3


def test_the_stacked_bar_keeps_the_small_segment(corpus: Path) -> None:
    from dashboards.mandate2038 import charts

    table = tables.mandate_by_faction(mandate_queries.ledger_by_source(corpus, Filters()),
                                      mandate_queries.seats_in_games(corpus, Filters()))
    spec = charts.ledger_by_faction(table).to_dict()
    values = [v for d in spec["datasets"].values() for v in d]
    fusion = [v["per_seat"] for v in values if v.get("source_name") == "Fusion"]
    assert fusion == [pytest.approx(0.49)]


def test_seat_games_counted_in_sql_give_the_same_tables(corpus: Path) -> None:
    """The page divides by seat-games counted in SQL (``mandate_queries.seat_counts``); the tables are
    the ones one row per seat-game gives, and the kind sizes are the games and seats."""
    ledger = mandate_queries.ledger_by_source(corpus, Filters())
    rows, counts = mandate_queries.seats_in_games(corpus, Filters()), mandate_queries.seat_counts(corpus, Filters())
    assert int(counts["seat_games"].sum()) == rows.height == 111
    assert tables.mandate_by_faction(ledger, counts).equals(tables.mandate_by_faction(ledger, rows))
    assert tables.mandate_winners(ledger, counts).equals(tables.mandate_winners(ledger, rows))
    sizes = mandate_queries.kind_sizes(corpus, Filters()).row(0, named=True)
    assert (sizes["kind"], sizes["games"], sizes["seats"]) == ("human", 37, 111)
