"""The Replay viewer's picker seats (branch bal3): ``queries.picker_seats`` reads the picker's
games' seats once; their factions are the picker lines' (``factions_of`` equal to
``seat_factions``, and to main's dict a row), and a game rebuilt from the warehouse takes its
header's seats from them: the same game as read by ``game_seats`` (on the sample warehouse
and on a copy with every location wrong), in two statements fewer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import gamelog, queries, store
from tests.bench_warehouse import direct
from tests.test_audit_replay_reads import moved, sample  # noqa: F401  (fixtures)


def _main_factions(rows: pl.DataFrame) -> dict[str, list[str]]:
    """``seat_factions``' dict as main (``bedcb2e``) made it from the located rows."""
    if rows.is_empty():
        return {}
    return {r["game_id"]: [f for f in r["faction"] if f]
            for r in rows.group_by("game_id", maintain_order=True)
            .agg(pl.col("faction")).iter_rows(named=True)}


def _ids(db: Path) -> list[str]:
    return direct(db, "SELECT game_id FROM games ORDER BY game_id", [])["game_id"].to_list()


@pytest.mark.parametrize("which", ["sample", "moved"])
def test_picker_seats_and_factions(which: str, request: pytest.FixtureRequest) -> None:
    db: Path = request.getfixturevalue(which)
    store._CACHE.clear()
    ids = _ids(db)
    assert ids
    seats = queries.picker_seats(db, ids)
    located = queries.located_rows(db, "seats", "x.game_id, x.seat, x.faction", ids,
                                   ("game_id", "seat"))
    assert queries.factions_of(seats) == queries.seat_factions(db, ids)
    assert queries.seat_factions(db, ids) == _main_factions(located)
    # an empty or NULL faction is left out, as main's dict left it
    odd = pl.DataFrame({"game_id": ["a", "a", "a", "b"], "seat": [1, 2, 3, 1],
                        "faction": ["x", None, "", None]})
    assert queries.factions_of(odd) == _main_factions(odd) == {"a": ["x"], "b": []}
    for gid in ids:
        mine = seats.filter(pl.col("game_id") == gid).drop("game_id")
        want = queries.game_seats(db, gid).select("seat", "faction", "player")
        assert_frame_equal(mine, want, check_dtypes=False)


@pytest.mark.parametrize("which", ["sample", "moved"])
def test_a_game_rebuilt_from_the_warehouse_with_the_pickers_seats(
        which: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    db: Path = request.getfixturevalue(which)
    store._CACHE.clear()
    ids = _ids(db)
    seats = queries.picker_seats(db, ids)
    # no archive file and no receipt: the header is made of the game's row and its seats
    real_row = queries.game_row

    def no_archive(d: Path, g: str) -> dict[str, Any] | None:
        row = real_row(d, g)
        return None if row is None else {**row, "archive_path": None, "receipt": None}

    monkeypatch.setattr(queries, "game_row", no_archive)
    read: list[str] = []
    real_seats = queries.game_seats

    def counted(d: Path, g: str) -> pl.DataFrame:
        read.append(g)
        return real_seats(d, g)

    monkeypatch.setattr(queries, "game_seats", counted)
    compared = 0
    for gid in ids:
        want = gamelog.load(db, gid)
        got = gamelog.load(db, gid, seats.filter(pl.col("game_id") == gid))
        assert got.header == want.header
        assert got.events == want.events and got.lines == want.lines
        assert got.problems == want.problems
        compared += want.header is not None
    assert compared and read == ids  # only the loads without the picker's seats read them
