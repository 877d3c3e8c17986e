"""The Variants page for a study of any game (docs/variants.md): a game declaring ``play`` (Pig,
Vestige) is compared by ``ingest.study.compare_study`` and shown by the page's generic view (the
variant, its differences with intervals, the rows in words, the simulated games per variant
beside the physical playtests); Mandate 2038's comparison names its own view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "examples" / "variants"


def _study(out: Path, game: str, variant: str, games: int,
           capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["study", "--game", game, "--variant", str(VARIANTS / variant), "--games",
                 str(games), "--seed", "3", "--out", str(out), "--backend", "local",
                 "--workers", "1"]) == 0
    capsys.readouterr()
    return out


@pytest.fixture(scope="module")
def pig_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pig") / "study"
    assert main(["study", "--game", "pig", "--variant", str(VARIANTS / "pig-target-50.toml"),
                 "--games", "20", "--seed", "3", "--out", str(out), "--backend", "local",
                 "--workers", "1"]) == 0
    return out


def _page(study: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("PLAYTEST_DB", str(tmp_path / "none" / "playtest.duckdb"))
    monkeypatch.setenv("PLAYTEST_STUDY", str(study))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("views/variants.py").run()
    assert not [e.value for e in at.exception]
    assert at.title[0].value == "Variants"
    return at


def _labels(game: str) -> dict[str, str]:
    from engine.core.registry import get_ruleset

    loop = getattr(get_ruleset(game), "designer_loop", None)
    assert loop is not None
    return dict(loop.metrics)


def _check_generic(at: Any, game: str, variant: str) -> None:
    assert at.selectbox(key="variants_pick").options == [variant]
    assert len(at.get("vega_lite_chart")) >= 1  # the deltas with their intervals
    tables = [d.value for d in at.dataframe]
    rows = [t for t in tables if "difference" in t.columns]
    assert rows, tables
    shown = rows[0]
    assert len(shown) > 0
    labels = _labels(game)
    # the metrics in words: their declared labels, never their ids
    assert set(shown["metric"]) <= set(labels.values()), shown["metric"]
    assert not set(shown["metric"]) & (set(labels) - set(labels.values()))
    beside = [t for t in tables if "simulated games" in t.columns]
    assert beside, tables
    # Mandate's AGI columns belong to its own view: games per variant only
    assert "simulated AGI share" not in beside[0].columns
    games = dict(zip(beside[0]["variant"], beside[0]["simulated games"], strict=True))
    assert games.keys() == {"baseline", variant} and all(n > 0 for n in games.values())


def test_the_variants_page_shows_a_pig_study(pig_study: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(pig_study, tmp_path, monkeypatch)
    _check_generic(at, "pig", "target-50")


@pytest.mark.needs_game("vestige")
def test_the_variants_page_shows_a_vestige_study(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    study = _study(tmp_path / "vestige", "vestige", "vestige-three-conditions.toml", 4, capsys)
    at = _page(study, tmp_path, monkeypatch)
    _check_generic(at, "vestige", "three-conditions")


def test_the_variants_page_shows_a_pig_sweep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sweep"
    assert main(["study", "--game", "pig", "--sweep", "target=60..62", "--games", "10",
                 "--out", str(out), "--backend", "local", "--workers", "1"]) == 0
    capsys.readouterr()
    at = _page(out, tmp_path, monkeypatch)
    assert at.selectbox(key="variants_pick").options == ["target=60", "target=61", "target=62"]
    assert "Sweeps" in [s.value for s in at.subheader]
    assert len(at.get("vega_lite_chart")) >= 2  # the deltas and the knob's sweep


@pytest.mark.needs_game("mandate2038")
def test_compare_uses_each_games_study_parts() -> None:
    """``playtest compare`` reads every game's comparison from its study parts: Mandate's (on
    its Balance contract) names its own page view, a game declaring ``play`` is compared
    generically and shown by the page's generic view."""
    from ingest.mandate2038.compare import format_text
    from ingest.study import compare_study, compare_text, study_parts

    pig = study_parts("pig")
    assert pig.compare is compare_study and pig.text is compare_text
    assert pig.view is None
    mandate = study_parts("mandate2038")
    assert mandate.compare is not None and mandate.text is not None
    assert mandate.view == "dashboards.mandate2038.variants:show"
    assert mandate.text({"study": "s", "interval": "i", "replicates": 200, "rows": [],
                         "variants": []}) == format_text(
        {"study": "s", "interval": "i", "replicates": 200, "rows": [], "variants": []})
