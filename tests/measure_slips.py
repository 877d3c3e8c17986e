"""Measure one slip, one finding beyond the golden set (docs/engine.md "One slip, one
finding"): every slip kind of ``tests/test_slips.py``, in the notation and the sheet, made in
``N`` more simulated four-player games, each read and replayed as ``playtest validate`` does.
Not collected by pytest; run by hand:

    PYTHONPATH=. python tests/measure_slips.py 8
    PYTHONPATH=. python tests/measure_slips.py 20 vestige 4   # Vestige, 4 players

A slip counts as good when it gives exactly one error or warning, at its line (a missing line:
where its absence shows). Prints the count per kind and, for each one that is not good, the
codes and lines of what it gave. Vestige: a slip that leaves a log the rules allow (a missing
activate whose attributes were never needed, a move line from another game that fits) can give
no finding at all; those are counted apart, as undetectable.
"""

from __future__ import annotations

import sys
from collections import Counter

from engine.simulate import simulate_one
from ingest.formats import write_log
from tests.test_slips import (
    _V_AT,
    MANDATE_FORMATS,
    SLIPS,
    VESTIGE_FORMATS,
    VESTIGE_SLIPS,
    _read,
    vestige_game,
)


def _miss(game: int, fmt: str, kind: str, at: int, found: list) -> str:
    """What a slip gave when it was not one finding at its line."""
    return (f"game {game} {fmt} {kind} at line {at}: "
            + ", ".join(f"{f.code}@{f.where.line}" for f in found[:6])
            + (" ..." if len(found) > 6 else ""))


def main(games: int) -> int:
    good: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    misses: list[str] = []
    for g in range(games):
        log = simulate_one("slips-more", g, 4, "heuristic")
        other = simulate_one("slips-more", g + 1000, 4, "heuristic")
        for fmt, name in MANDATE_FORMATS:
            text = write_log(log, fmt)
            errs, loaded = _read(text, name)
            if errs:
                misses.append(f"game {g} {fmt}: the clean game has findings")
                continue
            p = loaded.parsed
            kinds = {ln: (e.type, getattr(e, "seat", None))
                     for e, ln in zip(p.events, p.lines, strict=True) if ln is not None}
            other_lines = write_log(other, fmt).split("\n")
            for kind, make in SLIPS.items():
                lines = text.split("\n")
                try:
                    at = make(lines, kinds, other_lines, fmt)
                except (AssertionError, StopIteration, IndexError, ValueError):
                    continue  # this game has no target for the slip
                tried[kind] += 1
                found, _loaded = _read("\n".join(lines), name)
                if len(found) == 1 and found[0].where.line == at:
                    good[kind] += 1
                else:
                    misses.append(_miss(g, fmt, kind, at, found))
    for kind in SLIPS:
        print(f"{kind:18s} {good[kind]:3d} of {tried[kind]:3d} give one finding at their line")
    print(f"{'all':18s} {sum(good.values()):3d} of {sum(tried.values()):3d}")
    for m in misses:
        print("  not one:", m)
    return 0


def main_vestige(games: int, players: int) -> int:
    good: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    silent: Counter[str] = Counter()
    misses: list[str] = []
    for g in range(games):
        try:
            game = vestige_game(g, players, "slips-more")
        except AssertionError as exc:
            misses.append(f"game {g}: the clean game has findings {exc}")
            continue
        for fmt, name in VESTIGE_FORMATS:
            clean, kinds, other, _n = game[fmt]
            for kind, make in VESTIGE_SLIPS.items():
                lines = list(clean)
                try:
                    at = make(lines, kinds, other, fmt)
                except (IndexError, ValueError, StopIteration):
                    continue  # this game has no target for the slip
                tried[kind] += 1
                found, _loaded = _read("\n".join(lines), name)
                ok = _V_AT.get(kind, lambda a, ln: ln == a)
                if len(found) == 1 and ok(at, found[0].where.line):
                    good[kind] += 1
                elif not found:
                    silent[kind] += 1
                else:
                    misses.append(_miss(g, fmt, kind, at, found))
    for kind in VESTIGE_SLIPS:
        print(f"{kind:20s} {good[kind]:3d} of {tried[kind]:3d} give one finding at their line"
              + (f" ({silent[kind]} undetectable: the log is still legal)" if silent[kind] else ""))
    print(f"{'all':20s} {sum(good.values()):3d} of {sum(tried.values()):3d}"
          f" ({sum(silent.values())} undetectable)")
    for m in misses:
        print("  not one:", m)
    return 0


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    if len(sys.argv) > 2 and sys.argv[2] == "vestige":
        raise SystemExit(main_vestige(n, int(sys.argv[3]) if len(sys.argv) > 3 else 3))
    raise SystemExit(main(n))
