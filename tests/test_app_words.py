"""Every page in words (AppTest): with each value of the Game filter (all games, then each
registered game), no page's text, table or chart shows a 16-hex game id, a snake_case id or a
Python repr. Each chart is read back from its Vega-Lite spec and data (:mod:`tests.chart_words`):
axis, legend and tooltip titles in words, no id or ``true``/``false`` among the values an axis
or legend shows, count axes in whole steps. A game is shown by its title, players, date and source; its id stays in the CSV and in
the detail views' pickers. Text in backticks (a command, a path) and what people wrote (file
names, observation text, answers) are theirs and not scanned for ids.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import gameapps
from dashboards.navigation import all_pages
from tests import sample_warehouse
from tests.chart_words import ELSEWHERE, chart_faults, charts_of, frames_of

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
    in_charts: list[tuple[str, ...]] = []
    drawn = 0
    views = [(page.title, page.path, False) for page in all_pages()]
    views.append(("Duration", "views/duration.py", True))  # every kind of game, timed
    for title, path, include in views:
        at.switch_page(path).run()
        if include:
            at.checkbox(key="dur_nonhuman").check().run()
        assert not at.exception, (title, [e.value for e in at.exception])
        for where, text in _texts(at):
            for name, pat in (("game id", HEX_ID), ("id", SNAKE_ID), ("repr", REPR)):
                m = pat.search(text)
                if m:
                    found.append((title, where, name, m.group(0), text[:80]))
        for el in charts_of(at):
            drawn += 1
            faults = chart_faults(json.loads(el.proto.spec), frames_of(el))
            in_charts.extend((title, *f) for f in faults)
    assert not found, "\n".join(map(str, found))
    assert drawn, "no chart was drawn: the chart scan read nothing"
    mine = sorted({f for f in in_charts if f[0] not in ELSEWHERE})
    assert not mine, "\n".join(map(str, mine))
    others = sorted({f for f in in_charts if f[0] in ELSEWHERE})
    if others:  # views/balance.py and views/variants.py: another engineer's files
        warnings.warn("charts not in words on pages owned elsewhere:\n"
                      + "\n".join(map(str, others)), stacklevel=1)
