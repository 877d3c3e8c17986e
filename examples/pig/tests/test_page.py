"""The game's own app page (AppTest): on a warehouse holding simulated Pig games and the
illustrative walkthrough, loaded through the toolkit's real pipeline, and on an empty one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playtest_pig.simulate import simulate_one
from streamlit.testing.v1 import AppTest

from ingest.pipeline import ingest_paths
from schemas.canonical import dumps_log

PAGE = Path(__file__).resolve().parents[1] / "playtest_pig" / "page.py"
SAMPLES = Path(__file__).resolve().parents[1] / "playtest_pig" / "samples"


@pytest.fixture(scope="module")
def pig_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pig-games")
    for i in range(12):
        (folder / f"g{i}.json").write_text(dumps_log(simulate_one("page", i, 2 + i % 3)),
                                           encoding="utf-8")
    shutil.copy(SAMPLES / "walkthrough.pig", folder / "walkthrough.pig")
    db = tmp_path_factory.mktemp("pig-db") / "playtest.duckdb"
    summary = ingest_paths([folder], db, progress=False)
    assert len(summary.loaded) == 13, [(r.file, r.status, r.reason) for r in summary.reports][:3]
    return db


def _page(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    at = AppTest.from_file(str(PAGE), default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def test_page_shows_each_kind_apart(pig_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(pig_db, monkeypatch)
    assert [t.value for t in at.title] == ["Pig: turn risk"]
    kinds = [h.value for h in at.subheader]
    assert kinds == ["Illustrative walkthrough", "Simulated"]
    assert len(at.get("vega_lite_chart")) >= 5
    captions = " ".join(c.value for c in at.caption)
    assert "12 games" in captions and "1 game," in captions


def test_page_on_an_empty_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _page(tmp_path / "none" / "playtest.duckdb", monkeypatch)
    assert at.info and "playtest simulate --game pig" in at.info[0].value
