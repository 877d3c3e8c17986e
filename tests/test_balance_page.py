"""AppTests of the Balance page: empty database, the hand-built corpus, and with a study folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import balance_queries as bq
from tests.test_app_pages import sample_db  # noqa: F401  (fixture)
from tests.test_balance_metrics import known_db, known_study  # noqa: F401  (fixtures)

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


def test_empty_database_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(tmp_path / "none" / "playtest.duckdb", monkeypatch)
    text = " ".join(i.value for i in at.info)
    assert "No complete games match" in text and "playtest study" in text


def test_checks_named_as_the_designers_name_them(known_db: Path,  # noqa: F811
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(known_db, monkeypatch)
    checks = _tables(at)[0]
    names = set(checks["metric (designers' name)"])
    ids = set(checks["contract check"])
    assert ids == {m[0] for m in bq.METRICS}
    assert {"Seat win-share range (turn order from first Initiative)",
            "Era II leader conversion", "Action entropy", "Opening top share",
            "Winning-path entropy", "Forced no-op rate"} <= names
    # four games decide nothing: no "within" or "outside" anywhere
    verdicts = {v for c in checks.columns if c.endswith("verdict") for v in checks[c]}
    assert verdicts <= {"not enough games", "no value"}
    assert "within" not in verdicts
    # the warehouse's bots are labelled as simulated
    assert any(c.startswith("Simulated (warehouse bots)") for c in checks.columns)
    # fallbacks are said not to exist in physical logs
    captions = " ".join(c.value for c in at.caption)
    assert "physical logs" in captions
    assert len(at.get("vega_lite_chart")) >= 2  # turn order and faction


def test_study_shown_beside_never_pooled(known_db: Path, known_study: Path,  # noqa: F811
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(known_db, monkeypatch, study=known_study)
    checks = _tables(at)[0]
    study_cols = [c for c in checks.columns if c.startswith("Study ")]
    wh_cols = [c for c in checks.columns if c.startswith("Simulated (warehouse bots)")]
    assert study_cols and wh_cols
    # the same corpus in both: the same values side by side, each from its own four games
    value = {c.split(":")[0]: list(checks[c]) for c in checks.columns if c.endswith(": value")}
    (study_label,) = [k for k in value if k.startswith("Study ")]
    rows = list(checks["contract check"])
    i = rows.index("faction_win_share_range")
    assert value[study_label][i] == value["Simulated (warehouse bots)"][i] == "0.500"
    j = rows.index("policy_fallbacks")
    assert value[study_label][j] == "2" and value["Simulated (warehouse bots)"][j] == "–"
    assert "Games: Simulated (warehouse bots): 4; " in " ".join(c.value for c in at.caption)


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
