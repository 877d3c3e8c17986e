"""Small, pure statistics for the dashboards: Wilson intervals, mean intervals, entropy.

No I/O; every function takes plain values or a polars frame and returns the same.

>>> round(wilson(5, 10)[0], 3), round(wilson(5, 10)[1], 3)
(0.237, 0.763)
>>> normalised_entropy({"fund": 1, "build": 1}, 2)
1.0
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl

Z95 = 1.959963984540054

# Student t quantiles t(0.975, df) for df = 1..30 (standard table values).
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)

#: below this many games a share or a rate is flagged as too few to judge
MIN_GAMES_WARNING = 30

BALANCE_CONTRACT = (
    Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "mandate2038"
    / "data" / "balance-contract.json"
)

#: thresholds of the designers' balance contract strategic-unsolvability-v3 (FACTS.md §11.5),
#: used when the contract file is not reachable from this checkout
CONTRACT_DEFAULTS: dict[str, float] = {
    "seatWinShareRangeMax": 0.10,
    "factionWinShareRangeMax": 0.15,
    "roundTwoLeaderConversionMax": 0.72,
    "actionEntropyMin": 0.72,
}


@cache
def thresholds() -> dict[str, float]:
    """The balance thresholds: the contract file's when present, else the documented values."""
    for path in (BALANCE_CONTRACT, Path(__file__).resolve().parent.parent / "data"
                 / "balance-contract.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            found = {k: float(v) for k, v in data["thresholds"].items()}
            return {**CONTRACT_DEFAULTS, **found}
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return dict(CONTRACT_DEFAULTS)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``(nan, nan)`` when ``n`` is 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def t975(df: int) -> float:
    """Two-sided 95% Student t quantile (normal beyond 30 degrees of freedom)."""
    if df < 1:
        return math.nan
    return _T975[df - 1] if df <= len(_T975) else Z95


def mean_interval(values: list[float]) -> dict[str, Any]:
    """n, mean, median and the 95% t-interval of the mean (None where undefined)."""
    xs = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    n = len(xs)
    if n == 0:
        return {"n": 0, "mean": None, "median": None, "low": None, "high": None}
    mean = sum(xs) / n
    srt = sorted(xs)
    median = srt[n // 2] if n % 2 else (srt[n // 2 - 1] + srt[n // 2]) / 2
    if n < 2:
        return {"n": n, "mean": mean, "median": median, "low": None, "high": None}
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    low = mean - half
    if srt[0] >= 0:  # a non-negative quantity (minutes, counts): clip the interval at zero
        low = max(low, 0.0)
    return {"n": n, "mean": mean, "median": median, "low": low, "high": mean + half}


def summarise(df: pl.DataFrame, by: list[str], value: str) -> pl.DataFrame:
    """Per group: n, mean, median and the 95% interval of the mean of ``value``."""
    if df.is_empty():
        return pl.DataFrame()
    rows = []
    for key, part in df.group_by(by, maintain_order=True):
        stats = mean_interval(part[value].to_list())
        rows.append({**dict(zip(by, key, strict=True)), **stats})
    return pl.DataFrame(rows).sort(by)


def normalised_entropy(counts: Mapping[str, int], k: int) -> float:
    """Shannon entropy of ``counts`` divided by ``log(k)`` (1.0 = all ``k`` choices equally)."""
    total = sum(counts.values())
    if total <= 0 or k < 2:
        return math.nan
    h = -sum((c / total) * math.log(c / total) for c in counts.values() if c > 0)
    return h / math.log(k)


def win_shares(seats: pl.DataFrame, by: str) -> pl.DataFrame:
    """Win share per value of ``by`` (faction or seat) with Wilson 95% intervals.

    A joint victory counts as a win for each joint winner (the rules' "joint victory").
    ``expected`` is the mean of 1/player count over the games the group played.
    """
    if seats.is_empty():
        return pl.DataFrame()
    grouped = (
        seats.group_by(by)
        .agg(
            pl.len().alias("games"),
            pl.col("winner").cast(pl.Int64).sum().alias("wins"),
            (1.0 / pl.col("player_count")).mean().alias("expected"),
        )
        .sort(by)
    )
    lows, highs = [], []
    for wins, n in zip(grouped["wins"].to_list(), grouped["games"].to_list(), strict=True):
        lo, hi = wilson(int(wins), int(n))
        lows.append(lo)
        highs.append(hi)
    return grouped.with_columns(
        (pl.col("wins") / pl.col("games")).alias("share"),
        pl.Series("low", lows),
        pl.Series("high", highs),
    )


def spread(shares: pl.DataFrame) -> float:
    """Max minus min win share across the groups (nan with fewer than two groups)."""
    if shares.is_empty() or shares.height < 2:
        return math.nan
    return float(shares["share"].max()) - float(shares["share"].min())  # type: ignore[arg-type]


def leader_conversion(era_two: pl.DataFrame) -> dict[str, Any]:
    """How often the sole Mandate leader after Era II goes on to win.

    Games with a tie for the lead are left out and counted separately.
    """
    if era_two.is_empty():
        return {"games": 0, "converted": 0, "ties": 0, "rate": math.nan, "low": math.nan,
                "high": math.nan}
    games = converted = ties = 0
    for _, part in era_two.group_by("game_id"):
        top = part["mandate"].max()
        leaders = part.filter(pl.col("mandate") == top)
        if leaders.height != 1:
            ties += 1
            continue
        games += 1
        converted += int(bool(leaders["winner"][0]))
    return conversion(games, converted, ties)


def conversion(games: int, converted: int, ties: int) -> dict[str, Any]:
    """Leader-conversion rate with its 95% Wilson interval from counts."""
    if games == 0:
        return {"games": 0, "converted": 0, "ties": ties, "rate": math.nan, "low": math.nan,
                "high": math.nan}
    lo, hi = wilson(converted, games)
    return {"games": games, "converted": converted, "ties": ties,
            "rate": converted / games, "low": lo, "high": hi}
