"""``ingest.stats.block_array`` (its keys numbered by a polars window on large frames, bal3) gives the
same keys, in the same order, and the same array, bit for bit, as the Python dict it replaced
(kept here verbatim as it stood on main ``bedcb2e``): one key column and several, NULL keys,
NULL values, rows of one block and key summed, blocks out of order, the Balance page's frames
on the bench's warehouse."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import polars as pl
import pytest

from ingest import stats
from tests.test_balance_metrics import known_db  # noqa: F401  (fixture)
from tests.test_balance_restructure import replicated_db  # noqa: F401  (fixture)


def block_array_main(df: pl.DataFrame, key: list[str], values: list[str]
                     ) -> tuple[list[Any], np.ndarray]:
    """``block_array`` as it stood on main (``bedcb2e``)."""
    if df.is_empty():
        return [], np.zeros((0, 0, len(values)))
    blocks, blk = np.unique(df["blk"].to_numpy(), return_inverse=True)
    labels: list[Any] = (df[key[0]].to_list() if len(key) == 1
                         else list(zip(*(df[k].to_list() for k in key), strict=True)))
    index: dict[Any, int] = {}
    idx = np.fromiter((index.setdefault(k, len(index)) for k in labels), dtype=np.int64,
                      count=len(labels))
    vals = np.column_stack([(df[v].fill_null(0) if df[v].null_count() else df[v])
                            .to_numpy().astype(np.float64) for v in values])
    arr = np.zeros((len(blocks), len(index), len(values)))
    np.add.at(arr, (blk.reshape(-1), idx), vals)
    return list(index), arr


def _same(df: pl.DataFrame, key: list[str], values: list[str]) -> None:
    keys, arr = stats.block_array(df, key, values)
    keys0, arr0 = block_array_main(df, key, values)
    assert keys == keys0
    assert arr.shape == arr0.shape
    assert arr.tobytes() == arr0.tobytes()  # bit for bit


def _frame(rng: random.Random, rows: int, nulls: bool) -> pl.DataFrame:
    words = ["fund→build", "research", "none", "build→fund→research", "deploy", "influence"]
    return pl.DataFrame({
        "blk": [rng.randrange(0, 200) for _ in range(rows)],
        "opening": [None if nulls and rng.random() < 0.1 else rng.choice(words)
                    for _ in range(rows)],
        "turn_order": [rng.randrange(0, 5) for _ in range(rows)],
        "profile": [None if nulls and rng.random() < 0.2 else rng.choice("abc")
                    for _ in range(rows)],
        "appearances": [rng.randrange(0, 40) for _ in range(rows)],
        "credit": [None if nulls and rng.random() < 0.1 else rng.random() * 3
                   for _ in range(rows)],
    }, schema={"blk": pl.UInt64, "opening": pl.String, "turn_order": pl.Int32,
               "profile": pl.String, "appearances": pl.Int64, "credit": pl.Float64})


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("nulls", [False, True])
@pytest.mark.parametrize("window", [0, 10**9])  # the polars window on every frame, or none
def test_block_array_as_main(seed: int, nulls: bool, window: int,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats, "KEY_WINDOW_ROWS", window)
    rng = random.Random(seed)
    for rows in (1, 2, 7, 300, 5000):
        df = _frame(rng, rows, nulls)
        _same(df, ["opening"], ["appearances"])
        _same(df, ["turn_order"], ["appearances", "credit"])
        _same(df, ["opening", "profile"], ["appearances", "credit"])
        _same(df, ["profile", "turn_order", "opening"], ["credit"])


@pytest.mark.parametrize("window", [0, 10**9])
def test_block_array_empty_and_one_key(window: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats, "KEY_WINDOW_ROWS", window)
    empty = pl.DataFrame(schema={"blk": pl.Int64, "k": pl.String, "n": pl.Int64})
    keys, arr = stats.block_array(empty, ["k"], ["n"])
    assert keys == [] and arr.shape == (0, 0, 1)
    df = pl.DataFrame({"blk": [3, 1, 3, 1], "k": ["x", "x", "x", None], "n": [1, 2, 3, 4]})
    keys, arr = stats.block_array(df, ["k"], ["n"])
    assert keys == ["x", None]
    assert arr[:, :, 0].tolist() == [[2.0, 4.0], [4.0, 0.0]]  # block 1, then block 3
    _same(df, ["k"], ["n"])


@pytest.mark.parametrize("which", ["known_db", "replicated_db"])
def test_block_array_page_frames(which: str, request: pytest.FixtureRequest) -> None:
    """Every frame the Balance page's metrics and win shares pass to ``block_array`` on the
    balance tests' warehouses (the hand-built corpus, and it replicated into blocks), under
    the bench's filter sets: as main's function gives them."""
    from pathlib import Path

    from ingest.mandate2038 import balance as bq
    from tests.bench_warehouse import FILTERS

    db: Path = request.getfixturevalue(which)
    seen: list[tuple[pl.DataFrame, list[str], list[str]]] = []
    real = stats.block_array

    def spy(df: pl.DataFrame, key: list[str], values: list[str]) -> Any:
        seen.append((df, list(key), list(values)))
        return real(df, key, values)

    mp = pytest.MonkeyPatch()
    mp.setattr(stats, "block_array", spy)
    try:
        bq.clear_caches()
        for f in FILTERS:
            src = bq.Source(db=db)
            for n in sorted({n for _k, n in bq.games_by_count(src, f)}):
                fn = bq.for_count(f, n)
                bq.metrics(src, fn, n)
                for by in ("turn_order", "faction", "profile"):
                    bq.shares(src, fn, by, n)
    finally:
        mp.undo()
        bq.clear_caches()
    assert len(seen) > 20
    for df, key, values in seen:
        _same(df, key, values)
