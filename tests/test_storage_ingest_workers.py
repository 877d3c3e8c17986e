"""The ingest workers' cheaper paths (issue 30, branch ingw) give what the plain ones gave: the
canonical lines of shared events written once, the rows' event columns read column-wise, the
payloads cut by one split, event times read once, pyarrow's pandas check settled without
pandas, and no games.json hint for canonical input bytes."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from ingest import rows as rows_module
from ingest.formats import read_path
from ingest.loading import ingest_paths
from ingest.mandate2038.synthetic import synthetic_log
from ingest.rows import _event_fields, _event_payloads, _locations
from ingest.timing import event_times, naive_utc
from schemas.canonical import LineMemo, dumps_log
from tests.test_storage_support import write_games


def _read_logs(paths: list[Path]) -> list[Any]:
    out = []
    for p in paths:
        (loaded,) = read_path(p)
        parsed = loaded.parsed
        assert parsed.ruleset is not None
        out.append(parsed.ruleset.log_model.model_construct(header=parsed.header,
                                                            events=parsed.events))
    return out


def test_line_memo_gives_the_text_without_it(tmp_path: Path) -> None:
    # the same files read twice: the reader's parsed-line cache hands out shared events
    paths = write_games(tmp_path, 6, events=80, timed=False)
    logs = _read_logs(paths) + _read_logs(paths)
    for capacity in (8192, 3, 0):
        memo = LineMemo(capacity)
        for log, path in zip(logs, paths + paths, strict=True):
            text = dumps_log(log, memo)
            assert text == dumps_log(log)
            assert text == path.read_text(encoding="utf-8")
        assert len(memo) <= capacity
    assert len(LineMemo()) == 0
    memo = LineMemo()
    dumps_log(logs[0], memo)
    assert 0 < len(memo) <= len(logs[0].events)
    memo.clear()
    assert len(memo) == 0


class _Loose(BaseModel):
    """An event model that is not frozen: its line may change, so it is never kept."""

    model_config = ConfigDict(extra="forbid")
    type: str = "loose"
    value: int = 0


def test_line_memo_never_keeps_an_event_that_may_change() -> None:
    header = synthetic_log(1, events_target=20).header
    ev = _Loose(value=1)
    log = SimpleNamespace(header=header, events=[ev])
    memo = LineMemo()
    first = dumps_log(log, memo)  # type: ignore[arg-type]
    assert len(memo) == 0 and '"value": 1' in first
    ev.value = 2
    assert '"value": 2' in dumps_log(log, memo)  # type: ignore[arg-type]


def _payloads_line_by_line(text: str, n: int, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as m:
        m.setattr(rows_module, "SPLIT_BELOW", 0)
        try:
            return _event_payloads(text, n)
        except ValueError as err:
            return ("ValueError", str(err))


def _payloads(text: str, n: int) -> Any:
    try:
        return _event_payloads(text, n)
    except ValueError as err:
        return ("ValueError", str(err))


def test_payloads_by_split_equal_the_line_by_line_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    for target in (1, 2, 40, 160):
        log = synthetic_log(target, events_target=target)
        for events in (log.events, log.events[:1], log.events[:2], []):
            text = dumps_log(type(log).model_construct(header=log.header, events=list(events)))
            n = len(events)
            got = _payloads(text, n)
            assert got == _payloads_line_by_line(text, n, monkeypatch)
            if n:
                assert [json.loads(p) for p in got] == [json.loads(line.rstrip(","))
                                                        for line in text.splitlines()[3:3 + n]]
    head = '{"format": "playtest-log", "format_version": 1,\n"header": {},\n"events": [\n'
    odd = [
        (head + '{"a": 1},\n{"b": 2},\n]}\n', 2),  # the last event line ends with a comma
        (head + '{"a": 1}\n{"b": 2}\n]}\n', 2),  # a line without its comma
        (head + '{"a": 1},,\n{"b": 2}\n]}\n', 2),  # a line with two
        (head + '{"a": 1},\n{"b": 2}\n]}\n', 3),  # fewer lines than events
        (head + '{"a": 1},\n{"b": 2}\n]}\n', 1),  # more
        (head + '{"a": 1},\n{"b": 2}\n]}', 2),  # no final newline
        ('{"format": 1}\n', 1),  # no preamble
    ]
    for text, n in odd:
        assert _payloads(text, n) == _payloads_line_by_line(text, n, monkeypatch), text


class _Plain:
    """An event that is no pydantic model."""

    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


class _Extra(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)
    type: str = "extra"


def _fields_one_by_one(events: list[Any]) -> tuple[list[Any], list[Any], list[Any]]:
    kinds, seats, times = [], [], []
    for ev in events:
        seat = getattr(ev, "seat", None)
        raw_t = getattr(ev, "t", None)
        kinds.append(ev.type)
        seats.append(seat if isinstance(seat, int) else None)
        times.append(None if raw_t is None else naive_utc(raw_t))
    return kinds, seats, times


def test_event_fields_equal_reading_each_event() -> None:
    timed = synthetic_log(3, events_target=200, timed=True).events
    untimed = synthetic_log(4, events_target=200, timed=False).events
    zone = dt.timezone(dt.timedelta(hours=2))
    odd = [_Plain(type="p", seat=2, t=dt.datetime(2026, 1, 1, 12, tzinfo=zone)),
           _Plain(type="q"), _Plain(type="r", seat="2", t=None),
           _Extra(seat=3, t=dt.datetime(2026, 1, 1)), _Extra(), _Plain(type="s", seat=True)]
    for events in (timed, untimed, list(timed) + odd, odd, list(untimed[:5]) + odd[1:2], []):
        assert _event_fields(list(events)) == _fields_one_by_one(list(events))
        assert event_times(list(events)) == _fields_one_by_one(list(events))[2]
    assert any(t is not None for t in event_times(list(timed)))


def _locations_one_by_one(locs: list[Any], n: int, parts: tuple[str, ...]) -> tuple[list[Any], ...]:
    if len(locs) != n:
        locs = (list(locs) + [()] * n)[:n]
    where = {name: k for k, name in enumerate(parts)}
    k_era, k_cycle, k_round = where.get("era"), where.get("cycle"), where.get("round")
    eras, cycles, rounds = [], [], []
    for here in locs:
        if isinstance(here, tuple | list):
            size = len(here)
            eras.append(here[k_era] if k_era is not None and k_era < size else None)
            cycles.append(here[k_cycle] if k_cycle is not None and k_cycle < size else None)
            rounds.append(here[k_round] if k_round is not None and k_round < size else None)
        else:
            named = rows_module._named(here, parts)
            eras.append(named.get("era"))
            cycles.append(named.get("cycle"))
            rounds.append(named.get("round"))
    return eras, cycles, rounds


def test_locations_equal_reading_each_location() -> None:
    cases: list[tuple[list[Any], int, tuple[str, ...]]] = [
        ([(1, 2, 3), (1, 2, 4)], 2, ("era", "cycle", "round")),
        ([(1, 2), (1, 3)], 2, ("era", "cycle")),
        ([(1, 2), (1,)], 2, ("era", "cycle")),  # a short tuple
        ([(1, 2), [1, 5], {"era": 7, "round": 2}, None], 4, ("era", "cycle")),
        ([(1, 2)], 3, ("era", "cycle")),  # fewer locations than events
        ([(1, 2), (3, 4), (5, 6)], 2, ("era", "cycle")),  # more
        ([("a", 1, 2)], 1, ("phase", "era", "round")),
        ([(1,)], 1, ()),
        ([], 0, ("era",)),
        ([{0: 9}], 1, ("era",)),  # a mapping with an int key is no tuple
    ]
    for locs, n, parts in cases:
        assert _locations(locs, n, parts) == _locations_one_by_one(locs, n, parts), (locs, parts)


def test_without_pandas_keeps_pyarrows_conversion_in_a_fresh_process() -> None:
    code = textwrap.dedent("""
        import sys
        from ingest.frames import FrameBuilder, without_pandas
        from ingest.rows import _COLUMNS
        assert "pandas" not in sys.modules
        assert without_pandas() is True
        assert without_pandas() is False  # pyarrow looked once already
        b = FrameBuilder()
        cols = _COLUMNS["events"][1:]
        good = {c: [None] for c in cols}
        good.update(idx=[0], type=["x"], payload=["{}"], seat=[1])
        bad = dict(good, seat=["the second seat"])  # not an INTEGER: refused by pyarrow
        b.add_columns("a" * 16, {"events": (1, good)})
        b.add_columns("b" * 16, {"events": (1, bad)})
        frames, failed = b.build()
        assert list(failed) == ["b" * 16] and "'events' rows do not fit" in failed["b" * 16]
        assert frames["events"]["game_id"].to_list() == ["a" * 16]
        assert "pandas" not in sys.modules
        import pandas  # still importable by anyone else
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_canonical_bytes_get_no_hint_and_are_still_skipped_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ingest.batching as batching

    canonical = write_games(tmp_path / "in", 2, events=40)
    pretty = tmp_path / "in" / "pretty.json"
    pretty.write_text(json.dumps(json.loads(write_games(tmp_path / "p", 1, start=7,
                                                        events=40)[0].read_text()), indent=1))
    db = tmp_path / "w.duckdb"
    first = ingest_paths([tmp_path / "in"], db, progress=False)
    assert first.counts()["loaded"] == 3
    hints = sorted(p.name for p in (tmp_path / "archive" / "raw").glob("*.games.json"))
    assert len(hints) == 1  # the pretty-printed input only: its bytes are not its game's text

    def no_reading(path: Path) -> list[Any]:
        raise AssertionError(f"{path} was read again")

    monkeypatch.setattr(batching, "read_input", no_reading)
    again = ingest_paths([tmp_path / "in"], db, progress=False)
    assert again.counts() == {"loaded": 0, "skipped": 3, "recovered": 0, "unreadable": 0,
                              "failed": 0}
    for p in canonical:  # known from the link: the game file is the raw file
        from ingest.archive import Archive, sha256_hex

        sha = sha256_hex(p.read_bytes())
        assert Archive(tmp_path / "archive").games_of_raw(sha, "json") == [sha[:16]]
        assert Archive(tmp_path / "archive").games_of_raw(sha) is None  # no hint, no ext
