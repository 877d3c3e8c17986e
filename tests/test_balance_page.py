"""AppTests of the Balance page: empty database, the hand-built corpus, and with a study folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ingest.mandate2038 import balance as bq
from tests.test_app_pages import sample_db  # noqa: F401  (fixture)
from tests.test_balance_metrics import known_db, known_study  # noqa: F401  (fixtures)

pytestmark = pytest.mark.needs_game("mandate2038")

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"


def _page(db: Path, monkeypatch: pytest.MonkeyPatch, study: Path | None = None) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    if study is None:
        monkeypatch.delenv("PLAYTEST_STUDY", raising=False)
    else:
        monkeypatch.setenv("PLAYTEST_STUDY", str(study))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("views/balance.py").run()
    assert not [e.value for e in at.exception]
    return at


def _tables(at: AppTest) -> list:
    return [d.value for d in at.dataframe]


def _scorecard(at: AppTest) -> str:
    (card,) = [m.value for m in at.markdown if m.value.startswith("| check | threshold |")]
    return card


def test_scorecard_first_coloured_and_tables_narrow(sample_db: Path,  # noqa: F811
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The scorecard is the page's first table (a verdict per check and source, coloured);
    no table is wider than a laptop screen (at most 8 columns); factions and profiles by name."""
    at = _page(sample_db, monkeypatch)
    texts = [m.value for m in at.markdown]
    card = _scorecard(at)
    assert texts.index(card) < 2  # before the verdict rule's explanation
    lines = card.splitlines()
    assert len(lines) == 2 + len(bq.METRICS)
    for line in lines[2:]:
        assert any(f":{colour}[" in line for colour in ("green", "red", "orange", "gray"))
    for table in _tables(at):
        assert table.shape[1] <= 8, list(table.columns)
    # the Variants view (a rule's A/B on these checks) is linked from here
    links = at.get("page_link")
    assert any("Variants" in str(link.proto) for link in links)
    faction_table = next(t for t in _tables(at) if "faction" in t.columns)
    ids = {"dovetalis", "loopfold", "mirevanta", "kestralyn", "orisonix", "corthaven"}
    shown = set(faction_table["faction"])
    assert shown and not shown & ids
    assert shown <= {"Dovetalis Labs", "Loopfold AI", "Mirevanta Works", "Kestralyn",
                     "Orisonix", "Corthaven"}


def test_empty_database_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(tmp_path / "none" / "playtest.duckdb", monkeypatch)
    text = " ".join(i.value for i in at.info)
    assert "No complete games match" in text and "playtest study" in text


def test_checks_named_as_the_designers_name_them(known_db: Path,  # noqa: F811
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(known_db, monkeypatch)
    checks = _tables(at)[0]
    names = set(checks["metric (designers' name)"])
    assert names == {m[1] for m in bq.METRICS}  # every check, by name (no id on the page)
    assert not [c for c in checks.columns if "contract check" in c]
    assert {"Seat win-share range (turn order from first Initiative)",
            "Era II leader conversion", "Action entropy", "Opening top share",
            "Winning-path entropy", "Forced no-op rate"} <= names
    # four games decide nothing: no "within" or "outside" anywhere
    verdicts = {v.split(" (settled by")[0] for v in checks["verdict"]}
    assert verdicts <= {"not enough games", "no value"}
    # each undecided check says how many games would settle it (issue 28)
    assert any("settled by ~" in v for v in checks["verdict"])
    assert "within" not in verdicts
    # the warehouse's bots are labelled as simulated
    assert set(checks["games from"]) == {"Simulated (warehouse bots)"}
    # fallbacks are said not to exist in physical logs
    captions = " ".join(c.value for c in at.caption)
    assert "physical logs" in captions
    assert len(at.get("vega_lite_chart")) >= 2  # turn order and faction


def test_study_shown_beside_never_pooled(known_db: Path, known_study: Path,  # noqa: F811
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(known_db, monkeypatch, study=known_study)
    checks = _tables(at)[0]
    # the study's games are labelled by the policy mix that played them
    study_label = f"Study {known_study.name}: greedy line-ups"
    assert set(checks["games from"]) == {study_label, "Simulated (warehouse bots)"}
    # the same corpus in both: the same values side by side, each from its own four games
    mid = {name: m for m, name, _key, _bound in bq.METRICS}
    value = {(r["games from"], mid[r["metric (designers' name)"]]): r["value"]
             for r in checks.to_dict("records")}
    assert (value[(study_label, "faction_win_share_range")]
            == value[("Simulated (warehouse bots)", "faction_win_share_range")] == "0.500")
    assert value[(study_label, "policy_fallbacks")] == "2"
    assert value[("Simulated (warehouse bots)", "policy_fallbacks")] == "–"
    assert "Games: Simulated (warehouse bots): 4; " in " ".join(c.value for c in at.caption)
    # the scorecard comes first, one column per source
    card = _scorecard(at)
    assert f"| {study_label} |" in card.splitlines()[0]


def test_a_folder_that_is_not_a_study_is_named(known_db: Path, tmp_path: Path,  # noqa: F811
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(known_db, monkeypatch)
    at.sidebar.text_input(key="balance_study_folder").input(str(tmp_path)).run()
    assert not [e.value for e in at.exception]
    assert any("is not a study folder" in w.value for w in at.warning)


def test_share_charts_carry_the_shares_as_data(known_db: Path,  # noqa: F811
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The win-share charts get their rows as an Arrow table beside the spec (NaN as null),
    the same rows as the tables under them; the spec itself carries no data."""
    import json

    import pyarrow as pa

    at = _page(known_db, monkeypatch)
    charts = at.get("vega_lite_chart")
    by_order = charts[0].proto
    assert "data" not in json.loads(by_order.spec)
    rows = pa.ipc.open_stream(by_order.data.data).read_all().to_pylist()
    got = {r["turn_order"]: (r["appearances"], r["wins"], r["share"]) for r in rows}
    assert got == {"0": (4, 1.5, 0.375), "1": (4, 1.5, 0.375), "2": (4, 1.0, 0.25)}
    table = _tables(at)[1]  # the turn-order table under the chart
    assert list(table["share"]) == [r["share"] for r in rows]


def test_player_count_is_kept_across_pages(sample_db: Path,  # noqa: F811
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(sample_db, monkeypatch)  # simulated games at 3, 4 and 5 players
    radio = at.radio(key="balance_player_count")
    others = [int(label.split()[0]) for label in radio.options]  # labels read "3 players"
    others = [c for c in others if c != radio.value]
    assert others, "the corpus needs two player counts for this test"
    radio.set_value(others[0]).run()
    chosen = at.radio(key="balance_player_count").value
    at.switch_page("views/duration.py").run()
    at.switch_page("views/balance.py").run()
    assert not [e.value for e in at.exception]
    assert at.radio(key="balance_player_count").value == chosen
