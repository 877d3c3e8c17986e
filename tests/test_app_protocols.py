"""Capture misfits read from the warehouse equal the ones found in the log itself, for every
kind of survey answer the log schema admits (the page rebuilds answers from the ``survey``
table instead of reading event payloads, and judges observations by category)."""

from __future__ import annotations

import duckdb
import pytest
from test_storage_support import as_child

from dashboards import protocols
from ingest.mandate2038.synthetic import synthetic_log
from ingest.pipeline import ingest_log


@pytest.fixture(autouse=True)
def _ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    as_child(monkeypatch, PLAYTEST_DB_WAIT="5")


#: answers of every type to a scale item, a yes/no item, a text item and unknown ones
ANSWERS: list[tuple[str, object, int | None]] = [
    ("fun", 4, 1), ("fun", 4.0, 2), ("fun", 4.5, 3), ("fun", True, 4),  # int, float, bool
    ("fun", "4", 1), ("fun", 9, 2), ("fun", -0.0, None), ("fun", 1e20, 3),
    ("fun", "true", 4), ("fun", False, 1),
    ("not_an_item", 3, 1), ("not_an_item", "x", None),
    ("fun", 3, 6),  # a seat that is not at the table (the log has fewer)
]


def test_misfits_from_the_warehouse_equal_the_logs(tmp_path) -> None:
    db = tmp_path / "w.duckdb"
    base = synthetic_log(11, events_target=80, session_type="facilitated_playtest")
    data = base.model_dump(mode="json")
    items = {s.get("item") for s in data["events"] if s.get("type") == "survey"}
    extra = [{"type": "observation", "category": "not_a_category", "text": "x"},
             {"type": "observation", "category": "not_a_category", "text": "y"}]
    for item, value, seat in ANSWERS:
        extra.append({"type": "survey", "item": item, "value": value, "seat": seat})
    for item in sorted(i for i in items if i):  # every protocol item answered in words too
        extra.append({"type": "survey", "item": item, "value": "yes", "seat": 2})
        extra.append({"type": "survey", "item": item, "value": "", "seat": 3})
    n = len(data["events"])
    data["events"][n - 1:n - 1] = extra
    log = type(base).model_validate(data)
    kinds = {type(e.value) for e in log.events if e.type == "survey"}
    assert {int, float, bool, str} <= kinds, kinds  # the schema kept every type
    gid = ingest_log(log, db).reports[0].game_id
    with duckdb.connect(str(db), read_only=True) as con:
        games = con.sql("SELECT game_id, protocol FROM games").pl()
    from_logs = protocols.completeness_from_logs(db, games)[2]
    from_warehouse = protocols.completeness_from_warehouse(db, games)[2]
    assert from_logs.height >= len(ANSWERS), from_logs  # many answers do not fit
    assert from_warehouse.equals(from_logs), (from_warehouse, from_logs)
    assert set(from_warehouse["game_id"]) == {gid}
    # the categories come from the load step's game_observations, the misfits' events from
    # the observations; a warehouse without that summary reads both from the observations
    old = tmp_path / "old.duckdb"
    old.write_bytes(db.read_bytes())
    with duckdb.connect(str(old)) as con:
        con.execute("DROP TABLE game_observations")
    assert protocols.completeness_from_warehouse(old, games)[2].equals(from_logs)


def _misfit_log(seed: int, bad: int):  # type: ignore[no-untyped-def]
    """A synthetic session with ``bad`` observations of an unknown category and two survey
    answers that do not fit, among its own events."""
    base = synthetic_log(seed, events_target=60, session_type="facilitated_playtest")
    data = base.model_dump(mode="json")
    extra: list[dict[str, object]] = [
        {"type": "observation", "category": f"not_a_category_{seed}", "text": str(k)}
        for k in range(bad)]
    extra += [{"type": "survey", "item": "not_an_item", "value": 3, "seat": 1},
              {"type": "observation", "category": "also_not_one", "text": "z"}]
    n = len(data["events"])
    data["events"][n // 2:n // 2] = extra
    return type(base).model_validate(data)


def test_first_misfits_equal_the_first_of_all(tmp_path) -> None:
    """The page reads the observations' events only for the games of the misfits it shows:
    those first rows and the number of misfits equal the first rows and the number of all of
    them, found in the logs, whichever the cut (inside a game, at a game's end, past all)."""
    db = tmp_path / "w.duckdb"
    for seed, bad in ((21, 3), (22, 0), (23, 5), (24, 1)):
        ingest_log(_misfit_log(seed, bad), db)
    with duckdb.connect(str(db), read_only=True) as con:
        games = con.sql("SELECT game_id, protocol FROM games ORDER BY game_id").pl()
    from_logs = protocols.completeness_from_logs(db, games)[2]
    assert games.height == 4 and from_logs["game_id"].n_unique() == 4, from_logs
    everything = protocols.completeness_shown(db, games, None)
    assert everything.misfits.equals(from_logs) and everything.n_misfits == from_logs.height
    for shown in (0, 1, 2, 5, 6, 7, 12, from_logs.height - 1, from_logs.height, 1000):
        got = protocols.completeness_shown(db, games, shown)
        assert got.n_misfits == from_logs.height, shown
        assert got.misfits.equals(from_logs.head(shown)) or (
            shown == 0 and got.misfits.is_empty()), (shown, got.misfits, from_logs)
        assert got.per_game.equals(everything.per_game)
        assert got.per_item.equals(everything.per_item)
    assert all(a.equals(b) for a, b in zip(protocols.completeness(db, games), everything[:3],
                                           strict=True))
    # the events are read where game_rows locates them; a game whose location is wrong (rows
    # moved) or missing, and a warehouse without game_rows, read them from the observations;
    # a warehouse without game_observations reads the categories with their events
    with duckdb.connect(str(db), read_only=True) as con:
        located = con.sql("SELECT count(*) FROM game_rows WHERE tbl = 'events'").fetchall()
    assert located[0][0] == 4
    changes = {"moved": "UPDATE game_rows SET lo = lo + n // 2 + 2 WHERE game_id = (SELECT min(game_id) "
                        "FROM game_rows WHERE tbl = 'events')",
               "unlocated": "DELETE FROM game_rows WHERE game_id = (SELECT max(game_id) "
                            "FROM game_rows WHERE tbl = 'events')",
               "no_game_rows": "DROP TABLE game_rows",
               "no_game_observations": "DROP TABLE game_observations"}
    for name, change in changes.items():
        old = tmp_path / f"{name}.duckdb"
        old.write_bytes(db.read_bytes())
        with duckdb.connect(str(old)) as con:
            con.execute(change)
        for shown in (1, 6, 1000, None):
            got = protocols.completeness_shown(old, games, shown)
            assert got.n_misfits == from_logs.height, name
            want = from_logs if shown is None else from_logs.head(shown)
            assert got.misfits.equals(want), (name, shown)


@pytest.mark.parametrize("value", [4, 4.0, 4.5, -0.0, 1e20, True, False, "true", "4", "", "x y"])
def test_survey_values_rebuild_exactly(value: object) -> None:
    """As ``ingest/rows.py`` writes them: text ``json.dumps`` for a bool, else ``str``; the
    number for int, float and bool."""
    import json

    text = json.dumps(value) if isinstance(value, bool) else str(value)
    num = float(value) if isinstance(value, int | float) else None
    got = protocols.survey_value(text, num)
    assert type(got) is type(value) and got == value
