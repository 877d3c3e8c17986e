"""The canonical reader's parsed-line cache (ingest.formats.jsonlog.LineCache): a byte-identical
event line gives the same (immutable) event object; reading with the cache cold, warm or off
gives equal events and equal findings; a finding on a cached line names its own file and line;
the cache never holds more than its capacity; a validator building any model not frozen is
never cached; the replay leaves the shared events as read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import TypeAdapter

from cli.common import read_data, validate_one
from ingest.formats.jsonlog import LINE_CACHE, LINE_CACHE_LINES, LineCache
from schemas.log import Strict
from schemas.mandate2038.log import EVENT_ADAPTER

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "mandate2038"
SIMULATED = sorted((ROOT / "data" / "samples" / "simulated").glob("*.json"))
FILES = sorted(
    p for p in [*(ROOT / "data" / "samples").rglob("*.json"), *(ROOT / "tests" / "golden").rglob("*.json")]
    if not p.name.endswith(".expected.json")
)


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    LINE_CACHE.clear()
    yield
    LINE_CACHE.clear()


def _read(data: bytes, name: str) -> Any:
    (loaded,) = read_data(data, name)
    return loaded


def _event_rows(data: bytes) -> list[bytes]:
    """The event lines of a canonical log (line 4 on, without the trailing comma)."""
    body = data.split(b"\n")[3:]
    while body and body[-1] in (b"", b"]}"):
        body.pop()
    return [r.removesuffix(b",") for r in body]


def test_identical_lines_give_the_same_object() -> None:
    assert len(SIMULATED) >= 2
    a_bytes, b_bytes = SIMULATED[0].read_bytes(), SIMULATED[1].read_bytes()
    a = _read(a_bytes, "a.json")
    assert a.format == "json" and a.readable
    n = len(a.parsed.events)
    assert LINE_CACHE.hits + LINE_CACHE.misses == n
    again = _read(a_bytes, "again.json")
    assert LINE_CACHE.hits >= n  # the second read found every line
    assert all(x is y for x, y in zip(a.parsed.events, again.parsed.events, strict=True))
    assert again.parsed.lines == a.parsed.lines and again.source == "again.json"
    # another game: a line byte-identical to one of the first game's is that very event
    b = _read(b_bytes, "b.json")
    first = {row: ev for row, ev in zip(_event_rows(a_bytes), a.parsed.events, strict=True)}
    shared = [(ev, first[row]) for row, ev in zip(_event_rows(b_bytes), b.parsed.events, strict=True)
              if row in first]
    assert shared and all(x is y for x, y in shared)
    # within one game, equal lines are one object too
    seen: dict[bytes, Any] = {}
    for row, ev in zip(_event_rows(b_bytes), b.parsed.events, strict=True):
        assert seen.setdefault(row, ev) is ev


def _summary(path: Path) -> list[Any]:
    """What ``playtest validate`` says of a file, and its events as data before and after the
    replay (the replay must leave a shared event as it was read)."""
    out: list[Any] = []
    (loaded,) = read_data(path.read_bytes(), str(path.relative_to(ROOT)))
    before = [e.model_dump() for e in loaded.parsed.events] if loaded.readable else None
    entry = validate_one(loaded)
    after = [e.model_dump() for e in loaded.parsed.events] if loaded.readable else None
    assert before == after, f"{path}: the replay changed an event"
    lines = list(loaded.parsed.lines) if loaded.readable else None
    out.append((loaded.format, loaded.reason, lines, before, entry))
    return out


def test_cold_warm_and_uncached_reads_are_equal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sample and golden JSON file: the same events, lines and findings (paths and line
    numbers included) with the cache off, cold and warm."""
    assert len(FILES) > 100
    monkeypatch.setattr(LINE_CACHE, "capacity", 0)
    off = [_summary(p) for p in FILES]
    assert LINE_CACHE.hits == 0 and LINE_CACHE.held == 0
    monkeypatch.setattr(LINE_CACHE, "capacity", LINE_CACHE_LINES)
    cold = [_summary(p) for p in FILES]
    assert LINE_CACHE.hits > 0
    hits = LINE_CACHE.hits
    warm = [_summary(p) for p in FILES]
    assert LINE_CACHE.hits > hits
    assert cold == off
    assert warm == off


def _finding_entry(entry: dict[str, Any], code: str) -> dict[str, Any]:
    (f,) = [f for f in entry["findings"] if f["code"] == code]
    return f


def test_a_cached_lines_finding_names_its_own_file_and_line() -> None:
    case = (GOLDEN / "ability_emergency_pause_twice.json").read_bytes()
    first = _read(case, "first.json")
    f1 = _finding_entry(validate_one(first), "ability/used-up")
    ix, line = f1["where"]["event"], f1["where"]["line"]
    assert f1["where"]["line"] == first.parsed.lines[ix] and ix is not None
    # the same game with three observations ahead: every line moved down by three
    head, _, rest = case.partition(b'"events": [\n')
    note = b'{"type": "observation", "category": "moment", "text": "moved"},\n'
    moved_bytes = head + b'"events": [\n' + note * 3 + rest
    moved = _read(moved_bytes, "moved.json")
    assert moved.parsed.events[ix + 3] is first.parsed.events[ix]  # the cached event
    entry = validate_one(moved)
    f2 = _finding_entry(entry, "ability/used-up")
    assert entry["path"] == "moved.json"
    assert f2["where"]["event"] == ix + 3 and f2["where"]["line"] == line + 3
    # and with an invalid line as well: the general reader (never the cache) names the bad
    # line of this file, and the cached line's finding keeps its own line
    bad = b'{"type": "fund", "seat": 1, "mode": "nope"},\n'
    broken_bytes = head + b'"events": [\n' + note * 3 + bad + rest
    broken = _read(broken_bytes, "broken.json")
    entry = validate_one(broken)
    assert entry["path"] == "broken.json"
    bad_line = 4 + 3  # the event lines start on line 4
    assert any(f["where"]["line"] == bad_line for f in entry["findings"]
               if f["code"] != "ability/used-up"), entry["findings"]
    f3 = _finding_entry(entry, "ability/used-up")
    assert f3["where"]["line"] == line + 4


def test_the_cap_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    assert LINE_CACHE_LINES == 8192 and LINE_CACHE.capacity == LINE_CACHE_LINES
    cache = LineCache(capacity=5)
    rows = [b'{"type": "draw", "seat": 1, "card": "c%d"}' % i for i in range(20)]
    events = cache.events(EVENT_ADAPTER, rows)
    assert [e.card for e in events] == [f"c{i}" for i in range(20)]
    assert cache.held == 5 and len(cache.table(EVENT_ADAPTER) or {}) == 5
    assert (cache.hits, cache.misses) == (0, 20)
    again = cache.events(EVENT_ADAPTER, rows)
    assert (cache.hits, cache.misses) == (5, 35)
    assert all(x is y for x, y in zip(events[:5], again[:5], strict=True))
    assert not any(x is y for x, y in zip(events[5:], again[5:], strict=True))
    # the process's cache while reading games of two games
    monkeypatch.setattr(LINE_CACHE, "capacity", 100)
    for p in [*SIMULATED[:5], *sorted((ROOT / "data" / "samples" / "simulated-vestige").glob("*.json"))[:5]]:
        assert _read(p.read_bytes(), p.name).readable
    held = sum(len(t or {}) for t in LINE_CACHE._tables.values())
    assert LINE_CACHE.held == held == 100
    assert len(LINE_CACHE._tables) == 2  # one table per game's event validator
    LINE_CACHE.clear()
    assert LINE_CACHE.held == 0 and not LINE_CACHE._tables


class _Mutable(Strict):
    type: Literal["note"] = "note"
    text: str


def test_an_event_model_not_frozen_is_never_cached() -> None:
    adapter = TypeAdapter(_Mutable)
    cache = LineCache()
    row = b'{"type": "note", "text": "x"}'
    a, b = cache.events(adapter, [row, row])
    assert a == b and a is not b
    assert cache.held == 0 and cache.table(adapter) is None and cache.misses == 2
