"""A game's name in words (``ui.game_names``, ``ui.named_games``) is made by DuckDB in one
query; it must read exactly as the Python that made it game by game (kept below verbatim):
title, players, date, and the source as a file name, "recorded live" or the format in words."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from dashboards import DB_ENV, gameapps, store, ui
from dashboards.filters import SOURCE_WORDS
from ingest.warehouse.migrations import migrate


def _old_names(rows: pl.DataFrame) -> dict[str, str]:
    """The names as ``ui._game_names`` made them before (one Python string per game)."""
    out = {}
    for r in rows.iter_rows(named=True):
        source = str(r["source_name"] or "")
        if source.startswith("live:") or r["source_format"] == "live":
            source = "recorded live"
        else:
            source = source.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or \
                SOURCE_WORDS.get(str(r["source_format"]), "source not recorded")
        out[r["game_id"]] = (f"{gameapps.title(str(r['game']))} · "
                             f"{ui.plural(int(r['player_count'] or 0), 'player')} · "
                             f"{r['date'] or 'undated'} · {source}")
    return out


ROWS: list[tuple[Any, ...]] = [  # game_id, game, player_count, date, source_format, source_name
    ("a1", "mandate2038", 4, dt.date(2026, 3, 1), "json", "C:\\logs\\table 3\\game.json"),
    ("a2", "mandate2038", 1, None, "live", "whatever"),
    ("a3", "vestige", 3, dt.date(2026, 1, 2), "csv", "live:draft-17"),
    ("a4", "pig", None, None, "notation", "sessions/2026/"),
    ("a5", "pig", 2, dt.date(2025, 12, 31), "session-folder", ""),
    ("a6", "mandate2038", 5, None, None, None),
    ("a7", "no_longer-installed", 1234, None, "odd-format", "///"),
    ("a8", "vestige", 2, None, "simulator", "sim/run 1/sim-0001.json"),
]


@pytest.fixture
def warehouse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "w.duckdb"
    con = duckdb.connect(str(db))
    try:
        migrate(con)
        con.executemany("INSERT INTO games (game_id, game, player_count, date, source_format, "
                        "source_name) VALUES (?, ?, ?, ?, ?, ?)", [list(r) for r in ROWS])
    finally:
        con.close()
    monkeypatch.setenv(DB_ENV, str(db))
    store._CACHE.clear()
    return db


def test_names_read_as_they_did(warehouse: Path) -> None:
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        rows = con.sql("SELECT game_id, game, player_count, date, source_format, source_name "
                       "FROM games").pl()
    finally:
        con.close()
    want = _old_names(rows)
    assert ui.game_names() == want
    assert ui.game_names(["a3", "a7", "nope"]) == {k: want[k] for k in ("a3", "a7")}
    assert ui.game_names([]) == {}
    assert want["a1"] == "Mandate 2038 · 4 players · 2026-03-01 · game.json"  # the file only


def test_named_games_names_only_the_shown_games_in_place(warehouse: Path) -> None:
    frame = pl.DataFrame({"game_id": ["a5", "zz", "a1", "a5"], "x": [1, 2, 3, 4]})
    named = ui.named_games(frame)
    names = ui.game_names()
    assert named.columns == frame.columns
    assert named["x"].to_list() == [1, 2, 3, 4]
    assert named["game_id"].to_list() == [names["a5"], "zz", names["a1"], names["a5"]]
