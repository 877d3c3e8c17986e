"""Every page in words (AppTest): with each value of the Game filter (all games, then each
registered game), no page's text or table shows a 16-hex game id, a snake_case id or a Python
repr. A game is shown by its title, players, date and source; its id stays in the CSV and in
the detail views' pickers. Text in backticks (a command, a path) and what people wrote (file
names, observation text, answers) are theirs and not scanned for ids.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import gameapps
from dashboards.navigation import all_pages
from tests import sample_warehouse

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"
HEX_ID = re.compile(r"(?<![0-9a-f.])[0-9a-f]{16}(?![0-9a-f])")
SNAKE_ID = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
REPR = re.compile(r"(^|[\s(:])None($|[\s),.])|\['|\{'|\[\]|^'F'$")
#: columns holding what people wrote or named (file names, notes, answers): not ids
THEIRS = {"source_name", "text", "value_text", "notes", "venue", "facilitator", "player"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ingest.pipeline import ingest_paths

    path = tmp_path_factory.mktemp("words") / "playtest.duckdb"
    sample_warehouse.build(path, simulated=2, human=1, vestige=2)
    pig = Path(__file__).resolve().parent.parent / "examples" / "pig" / "playtest_pig" / "samples"
    ingest_paths([pig], path, progress=False)
    return path


def _texts(at: AppTest) -> list[tuple[str, str]]:
    out = []
    for kind in ("markdown", "caption", "info", "warning", "success", "metric", "header",
                 "subheader"):
        for e in at.get(kind):
            out.append((kind, re.sub(r"`[^`]*`", "", str(getattr(e, "value", "")))))
    for d in at.dataframe:
        df = d.value
        for c in df.columns:
            if c in THEIRS:
                continue
            out.extend((f"column {c}", str(v)) for v in list(df[c].unique())[:200])
    return out


@pytest.mark.parametrize("games", [[], *[[g] for g in gameapps.game_ids()]],
                         ids=lambda g: g[0] if g else "all games")
def test_every_page_in_words(db: Path, monkeypatch: pytest.MonkeyPatch,
                             games: list[str]) -> None:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.session_state["playtest_filter_values"] = {"flt_games": games}
    found = []
    for page in all_pages():
        at.switch_page(page.path).run()
        assert not at.exception, (page.title, [e.value for e in at.exception])
        for where, text in _texts(at):
            for name, pat in (("game id", HEX_ID), ("id", SNAKE_ID), ("repr", REPR)):
                m = pat.search(text)
                if m:
                    found.append((page.title, where, name, m.group(0), text[:80]))
    assert not found, "\n".join(map(str, found))
