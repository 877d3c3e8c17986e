"""The toolkit's statistics, one module for the pages and the command line: Wilson and
Jeffreys intervals, mean intervals, entropy, the balance contract's thresholds, the cluster
bootstrap and the simultaneous intervals behind every balance verdict, the verdict rule, and
how many games would settle a check that is not decided yet.

``dashboards.stats`` re-exports it (the pages), ``playtest compare`` and ``playtest calibrate``
call it directly. No I/O but reading the contract's thresholds; every other function takes
plain values, arrays or a polars frame and returns the same.

>>> round(wilson(5, 10)[0], 3), round(wilson(5, 10)[1], 3)
(0.237, 0.763)
>>> normalised_entropy({"fund": 1, "build": 1}, 2)
1.0
"""

from __future__ import annotations

import functools
import json
import math
import warnings
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from engine.core.registry import DEFAULT_GAME

Z95 = 1.959963984540054

# Student t quantiles t(0.975, df) for df = 1..30 (standard table values).
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)

#: below this many games a share or a rate is flagged as too few to judge
MIN_GAMES_WARNING = 30

#: the balance thresholds of a game (``data/content/<game>/balance-thresholds.json``: the
#: designers' balance contract's bounds, in the repository; the Balance page is the default
#: game's designers' contract)
THRESHOLDS_FILE = "balance-thresholds.json"


@cache
def thresholds(game: str = DEFAULT_GAME) -> dict[str, float]:
    """The balance thresholds of ``game`` (name -> bound; ``...Max`` the largest value that
    passes, ``...Min`` the smallest), read from the repository's data folder; empty when the
    game has none."""
    path = Path(__file__).resolve().parent.parent / "data" / "content" / game / THRESHOLDS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in data.get("thresholds", {}).items()}


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
    """Per group: n, mean, median and the 95% interval of the mean of ``value``.

    The same figures as :func:`mean_interval` on each group's values, computed by polars in one
    pass (a Python loop over a million turn times took seconds)."""
    if df.is_empty():
        return pl.DataFrame()
    x = pl.col(value).cast(pl.Float64)
    moments = (
        df.with_columns(x.fill_nan(None).alias(value))
        .group_by(by, maintain_order=True)
        .agg(x.count().alias("n"), x.mean().alias("mean"), x.median().alias("median"),
             x.std(ddof=1).alias("sd"), x.min().alias("minimum"))
    )
    return summary_from_moments(moments, by)


def summary_from_moments(moments: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """:func:`summarise`'s table from per-group moments (``n``, ``mean``, ``median``, ``sd``
    (sample, n-1) and ``minimum``), e.g. aggregated by DuckDB: the t-interval of the mean, clipped
    at zero for a non-negative quantity, None where undefined (no value, or a single one)."""
    if moments.is_empty():
        return pl.DataFrame()
    rows = []
    for r in moments.iter_rows(named=True):
        n = int(r["n"] or 0)
        out = {**{k: r[k] for k in by}, "n": n, "mean": None, "median": None, "low": None,
               "high": None}
        if n:
            mean = float(r["mean"])
            out.update(mean=mean, median=float(r["median"]))
            if n >= 2:
                half = t975(n - 1) * float(r["sd"] or 0.0) / math.sqrt(n)
                low = mean - half
                if float(r["minimum"]) >= 0:
                    low = max(low, 0.0)
                out.update(low=low, high=mean + half)
        rows.append(out)
    schema = {k: moments.schema[k] for k in by} | {
        "n": pl.Int64, "mean": pl.Float64, "median": pl.Float64, "low": pl.Float64,
        "high": pl.Float64}
    return pl.DataFrame(rows, schema=schema).sort(by)


def normalised_entropy(counts: Mapping[str, int], k: int) -> float:
    """Shannon entropy of ``counts`` divided by ``log(k)`` (1.0 = all ``k`` choices equally)."""
    total = sum(counts.values())
    if total <= 0 or k < 2:
        return math.nan
    h = -sum((c / total) * math.log(c / total) for c in counts.values() if c > 0)
    return h / math.log(k)


# --- verdicts: only where the sample decides ----------------------------------------------

#: the verdict printed when the sample cannot decide (an interval straddling the limit, or
#: fewer than :data:`MIN_VERDICT_GAMES` games)
NOT_ENOUGH = "not enough games"
WITHIN = "within"
OUTSIDE = "outside"

#: below this many games no verdict is given at all, whatever the interval says (a handful of
#: games can produce a zero-width interval by chance)
MIN_VERDICT_GAMES = 30


def verdict(low: float | None, high: float | None, limit: float, bound: str, n: int,
            min_games: int = MIN_VERDICT_GAMES) -> str:
    """Equivalence-interval verdict, as the designers' contract asks (FACTS.md §11.5:
    "equivalence intervals inside the tolerances; non-significance alone is insufficient").

    ``bound`` is ``"max"`` (the value must stay at or below ``limit``) or ``"min"`` (at or
    above). The 95% interval ``[low, high]`` wholly on the allowed side of the limit gives
    :data:`WITHIN`, wholly on the other side :data:`OUTSIDE`; an interval across the limit, an
    undefined interval, or fewer than ``min_games`` games gives :data:`NOT_ENOUGH`.

    >>> verdict(0.02, 0.08, 0.10, "max", 400)
    'within'
    >>> verdict(0.02, 0.12, 0.10, "max", 400)
    'not enough games'
    >>> verdict(0.0, 0.0, 0.10, "max", 3)
    'not enough games'
    """
    if bound not in ("max", "min"):
        raise ValueError(f"bound must be 'max' or 'min', not {bound!r}")
    if n < min_games or low is None or high is None or math.isnan(low) or math.isnan(high):
        return NOT_ENOUGH
    if bound == "max":
        if high <= limit:
            return WITHIN
        if low > limit:
            return OUTSIDE
    else:
        if low >= limit:
            return WITHIN
        if high < limit:
            return OUTSIDE
    return NOT_ENOUGH


def proportion_verdict(successes: float, n: int, limit: float, bound: str,
                       min_games: int = MIN_VERDICT_GAMES) -> str:
    """:func:`verdict` of a proportion with its Wilson 95% interval (for one-number rates)."""
    lo, hi = wilson(successes, n)  # type: ignore[arg-type]
    return verdict(lo, hi, limit, bound, n, min_games)


# --- the designers' balance statistics (lab/runner/monte-carlo-runner.js, rc.17 era) ---------
#
# Each statistic on plain dicts of counts (key -> number or tuple of numbers): the reference
# forms of the row-wise array statistics below, which the page uses (the tests compare them).

#: games are split into this many groups for the intervals: a hash of each game's common-seed
#: block (:mod:`ingest.mandate2038.balance` ``cluster``; a study's games of one block share
#: map, factions and chance stream, so they are not independent) picks its group; whole
#: groups are resampled by :func:`bootstrap_array`
BLOCKS = 200

#: bootstrap resamples per interval (seeded: the same data give the same interval)
RESAMPLES = 400

#: the number of distinct values each entropy is normalised by (a fixed number, from the
#: rules, not the number seen: a rare id appearing once must not move the scale).
#: Mandate 2038 rc.17: 6 Core Actions + 6 Programs (Open Weights is our Covenant Program;
#: the Dossier is filed each Era, not selected as an action, so it is not counted); an
#: opening is 3 different Core Actions in order (core rules §4, "one eligible unused Core
#: Action": 6 x 5 x 4); a winning path is ``agi_declaration``, one of 6 lanes or one of the
#: 15 hybrids of two lanes
ENTROPY_SCALE = {"action": 12, "opening": 120, "path": 22}


def top_share(counts: Mapping[Any, float]) -> float:
    """The share of the most common key (nan when there is nothing to count)."""
    values = [float(v) for v in counts.values()]
    total = sum(values)
    return max(values) / total if total > 0 else math.nan


def share_range(groups: Mapping[Any, tuple[float, float]], min_appearances: float = 1) -> float:
    """Max minus min win share over groups ``key -> (appearances, win credit)`` that appear at
    least ``min_appearances`` times (nan with fewer than two such groups)."""
    shares = [c / a for a, c in groups.values() if a >= max(min_appearances, 1e-12)]
    if len(shares) < 2:
        return math.nan
    return max(shares) - min(shares)


def ratio(parts: Mapping[Any, tuple[float, float]]) -> float:
    """Sum of numerators over sum of denominators of ``key -> (numerator, denominator)``."""
    num = sum(p[0] for p in parts.values())
    den = sum(p[1] for p in parts.values())
    return num / den if den > 0 else math.nan


def dominance(pairs: Mapping[Any, tuple[float, float]], min_comparisons: float = 4) -> float:
    """The designers' pairwise dominance: the highest relative placement rate (placement
    points / comparisons) of one profile over another, over pairs compared at least
    ``min_comparisons`` times (nan when no pair qualifies)."""
    rates = [p / c for c, p in pairs.values() if c >= min_comparisons and c > 0]
    return max(rates) if rates else math.nan


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, tuple):
        return tuple(x + y for x, y in zip(a, b, strict=True))
    return a + b


# --- the same statistics on arrays: every resample at once -----------------------------------
#
# The block counts are one array ``(groups, keys, values)`` (:func:`block_array`), and each
# ``*_rows`` statistic below computes, for every row of a ``(rows, keys, values)`` array, what
# its dict twin above computes on one dict (the tests compare the two): the interval functions
# evaluate all 400 bootstrap resamples in one call.


#: from this many rows on, :func:`block_array` numbers the keys with one polars window (about
#: 0.5 ms whatever the rows) rather than a Python dict (about 0.35 ms per thousand rows): the
#: openings' 16,800 rows at a million games took 6.3 ms, now 2.7; the same keys either way
KEY_WINDOW_ROWS = 2_000


def _key_index(df: pl.DataFrame, key: list[str]) -> tuple[list[Any], np.ndarray]:
    """The distinct values of ``key`` in ``df`` in order of first appearance (a tuple each
    when ``key`` has several columns; NULL a value like any other) and each row's position
    among them."""
    if df.height >= KEY_WINDOW_ROWS:
        # the first row holding each row's key (a window over the row numbers), ranked
        first = (df.select(key).with_row_index("_row")
                 .select(pl.col("_row").min().over(key)).to_series())
        starts, idx = np.unique(first.to_numpy(), return_inverse=True)
        at = pl.Series(starts)
        if len(key) == 1:
            return df[key[0]].gather(at).to_list(), idx.reshape(-1)
        return list(zip(*(df[k].gather(at).to_list() for k in key), strict=True)), idx.reshape(-1)
    # numpy and a dict, not polars: a polars operation costs ~0.3 ms on these small frames
    labels: list[Any] = (df[key[0]].to_list() if len(key) == 1
                         else list(zip(*(df[k].to_list() for k in key), strict=True)))
    index: dict[Any, int] = {}
    idx = np.fromiter((index.setdefault(k, len(index)) for k in labels), dtype=np.int64,
                      count=len(labels))
    return list(index), idx


def block_array(df: pl.DataFrame, key: list[str], values: list[str]
                ) -> tuple[list[Any], np.ndarray]:
    """The block counts of ``df`` (columns ``blk``, ``key`` and ``values``; rows of the same
    block and key summed, NULL counting 0) as ``(keys, array)``: ``keys`` in order of first
    appearance (a tuple per key when ``key`` has several columns), ``array[b, k, v]`` the
    ``v``-th value of the ``k``-th key in the ``b``-th block present in ``df`` (blocks in
    order; 0 where a block lacks a key)."""
    if df.is_empty():
        return [], np.zeros((0, 0, len(values)))
    blocks, blk = np.unique(df["blk"].to_numpy(), return_inverse=True)
    labels, idx = _key_index(df, key)
    # NULL (a study's missing count) counts 0
    vals = np.column_stack([(df[v].fill_null(0) if df[v].null_count() else df[v])
                            .to_numpy().astype(np.float64) for v in values])
    arr = np.zeros((len(blocks), len(labels), len(values)))
    np.add.at(arr, (blk.reshape(-1), idx.reshape(-1)), vals)
    return labels, arr


def share_range_rows(a: np.ndarray, min_appearances: float = 1) -> np.ndarray:
    """:func:`share_range` of each row of ``(rows, keys, 2)`` (appearances, win credit)."""
    app, credit = a[..., 0], a[..., 1]
    ok = app >= max(min_appearances, 1e-12)
    share = np.divide(credit, app, out=np.zeros_like(credit), where=ok)
    hi = np.where(ok, share, -np.inf).max(axis=1, initial=-np.inf)
    lo = np.where(ok, share, np.inf).min(axis=1, initial=np.inf)
    return np.where(ok.sum(axis=1) >= 2, hi - lo, np.nan)


def top_share_rows(a: np.ndarray) -> np.ndarray:
    """:func:`top_share` of each row of ``(rows, keys, 1)``."""
    v = a[..., 0]
    total = v.sum(axis=1)
    top = v.max(axis=1, initial=-np.inf)
    return np.where(total > 0, top / np.where(total > 0, total, 1.0), np.nan)


def ratio_rows(a: np.ndarray) -> np.ndarray:
    """:func:`ratio` of each row of ``(rows, keys, 2)`` (numerator, denominator)."""
    num, den = a[..., 0].sum(axis=1), a[..., 1].sum(axis=1)
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def dominance_rows(a: np.ndarray, min_comparisons: float = 4) -> np.ndarray:
    """:func:`dominance` of each row of ``(rows, keys, 2)`` (comparisons, points)."""
    c, p = a[..., 0], a[..., 1]
    ok = (c >= min_comparisons) & (c > 0)
    rate = np.divide(p, c, out=np.zeros_like(p), where=ok)
    best = np.where(ok, rate, -np.inf).max(axis=1, initial=-np.inf)
    return np.where(ok.any(axis=1), best, np.nan)


def share_rows(a: np.ndarray, key: int) -> np.ndarray:
    """The win share of the ``key``-th key in each row of ``(rows, keys, 2)`` (appearances,
    win credit; nan without appearances), as :func:`ingest.mandate2038.balance.shares`."""
    app, credit = a[:, key, 0], a[:, key, 1]
    return np.where(app > 0, credit / np.where(app > 0, app, 1.0), np.nan)


def entropy_fixed_rows(a: np.ndarray, k: int) -> np.ndarray:
    """Shannon entropy of each row of ``(rows, keys, 1)`` divided by ``log(k)`` for a fixed
    number ``k`` of possible values (:data:`ENTROPY_SCALE`), 0.0 for an empty row."""
    if k < 2:
        raise ValueError("an entropy scale needs at least two possible values")
    v = a[..., 0]
    pos = v > 0
    total = np.where(pos, v, 0.0).sum(axis=1)
    safe = np.where(total > 0, total, 1.0)[:, np.newaxis]
    p = np.where(pos, v, 1.0) / safe
    h = -np.where(pos, p * np.log(p), 0.0).sum(axis=1)
    return np.where(total > 0, h / math.log(k), 0.0)


@functools.lru_cache(maxsize=256)
def bootstrap_weights(m: int, resamples: int = RESAMPLES, seed: int = 0) -> np.ndarray:
    """``(resamples, m)`` multinomial counts: how often each of ``m`` groups is drawn in each
    resample (seeded, so the same data always give the same interval; kept per ``m``,
    read-only)."""
    rng = np.random.default_rng([seed, m])
    w = rng.multinomial(m, np.full(m, 1.0 / m), size=resamples).astype(np.float64)
    w.setflags(write=False)
    return w


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _normal_ppf(p: float) -> float:
    """The standard normal quantile (bisection on erf; p in (0, 1))."""
    lo, hi = -10.0, 10.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if _normal_cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _bca(blocks: np.ndarray, stat: Callable[[np.ndarray], np.ndarray], value: float,
         boot: np.ndarray, m: int) -> dict[str, float]:
    """The BCa interval (Efron 1987) of a skewed statistic: bootstrap percentiles moved by the
    bias ``z0`` and the acceleration ``a`` from the delete-one-group jackknife; the
    percentiles' distance from the value widened by ``t(0.975, m - 1) / z`` for few groups."""
    below = float((boot < value).mean() + 0.5 * (boot == value).mean())
    below = min(max(below, 1.0 / (len(boot) + 1)), 1.0 - 1.0 / (len(boot) + 1))
    z0 = _normal_ppf(below)
    total = blocks.sum(axis=0)
    jack = stat(total[np.newaxis] - blocks)
    jack = jack[~np.isnan(jack)]
    d = jack.mean() - jack if jack.size else np.zeros(1)
    den = 6.0 * float((d ** 2).sum()) ** 1.5
    a = float((d ** 3).sum()) / den if den > 0 else 0.0
    out = []
    for z in (-Z95, Z95):
        q = _normal_cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
        out.append(float(np.quantile(boot, min(max(q, 0.0), 1.0))))
    widen = t975(m - 1) / Z95
    return {"value": value, "low": value - widen * (value - out[0]),
            "high": value + widen * (out[1] - value)}


def bootstrap_array(blocks: np.ndarray, stat: Callable[[np.ndarray], np.ndarray],
                    resamples: int = RESAMPLES, seed: int = 0,
                    weights: np.ndarray | None = None, skewed: bool = False,
                    jackknife_bias: bool = False) -> dict[str, float]:
    """``stat`` on all the data and its bias-corrected 95% cluster-bootstrap interval.

    ``blocks`` is ``(groups, keys, values)``: the counts of each group of games
    (:data:`BLOCKS` groups, each holding whole common-seed blocks of games, so that games that
    share a map and chance stream are resampled together). Each resample draws the groups
    with replacement. The interval is centred on the bias-corrected value ``2 v - mean(v*)``
    (a plug-in entropy is biased downward, a ratio of rare counts is skewed) with half-width
    ``t(0.975, m - 1) * sd(v*) * sqrt(m / (m - 1))`` for ``m`` groups (the bootstrap's
    variance of a mean of ``m`` groups is ``(m - 1) / m`` of the unbiased one, and a t
    rather than a normal quantile for few groups). With ``jackknife_bias`` (the entropies) the
    centre is corrected by the delete-one-group jackknife's bias estimate instead, and the
    standard error is the larger of the bootstrap's and the jackknife's: a plug-in entropy of
    a few dozen winners over many paths is biased more than resamples of the same few dozen
    show (coverage 0.88 at 50 games without, 0.905 with). ``skewed`` gives the BCa interval
    (:func:`_bca`). ``playtest calibrate --null-check`` measures the coverage (docs/balance.md).
    Fewer than two groups give an undefined interval (nan).

    >>> a = np.array([[[1.0, 1.0]], [[3.0, 1.0]], [[2.0, 1.0]], [[2.0, 1.0]]])
    >>> r = bootstrap_array(a, ratio_rows)
    >>> r["value"], r["low"] < 2.0 < r["high"]
    (2.0, True)
    """
    total = blocks.sum(axis=0)
    value = float(stat(total[np.newaxis])[0])
    m = blocks.shape[0]
    if m < 2 or math.isnan(value):
        return {"value": value, "low": math.nan, "high": math.nan}
    w = weights if weights is not None else bootstrap_weights(m, resamples, seed)
    boot = stat(np.einsum("bm,mkv->bkv", w, blocks))
    boot = boot[~np.isnan(boot)]
    if boot.size < 0.9 * w.shape[0]:  # the statistic is undefined in too many resamples
        return {"value": value, "low": math.nan, "high": math.nan}
    if skewed:
        return _bca(blocks, stat, value, boot, m)
    sd = float(boot.std(ddof=1)) * math.sqrt(m / (m - 1))
    centre = 2 * value - float(boot.mean())
    if jackknife_bias:
        loo = stat(total[np.newaxis] - blocks)
        loo = loo[~np.isnan(loo)]
        if loo.size == m:
            centre = value - (m - 1) * (float(loo.mean()) - value)
            sd = max(sd, math.sqrt((m - 1) / m * float(((loo - loo.mean()) ** 2).sum())))
    half = t975(m - 1) * sd
    return {"value": value, "low": centre - half, "high": centre + half}


# --- maxima and ranges: simultaneous intervals ---------------------------------------------
#
# A max - min or a max over many small groups is biased upward (with every true share equal
# the plug-in range of 24 cells of a handful of seats each is far from 0), and the bootstrap
# does not measure that bias well (the statistic is not smooth where groups tie). So these get
# an interval from simultaneous intervals of their groups (bootstrap max-t, Romano and Wolf's
# stepdown idea without the steps): with probability 95% every group's true value is inside its
# interval, and then the true range lies in [max low - min high, max high - min low] and the
# true maximum in [max low, max high]. The interval always holds the plug-in value.


def simultaneous(est: np.ndarray, boot: np.ndarray, floor: np.ndarray, m: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Simultaneous 95% intervals ``(low, high)`` of the groups' values ``est`` (``(K,)``,
    nan = group left out) from their bootstrap values ``boot`` (``(B, K)``, nan where a
    resample lacks the group): bootstrap standard errors (at least ``floor``, the binomial
    error of the group's size: a group seen in one block has no bootstrap spread), the 95%
    quantile ``c`` of the largest studentised deviation over groups, widened by
    ``t(0.975, m - 1) / z`` for ``m`` blocks; ``est ± c se``."""
    keep = ~np.isnan(est)
    with warnings.catch_warnings():  # a group absent from every resample has no spread
        warnings.simplefilter("ignore", RuntimeWarning)
        se = np.nanstd(np.where(keep, boot, np.nan), axis=0)
    se = np.fmax(np.nan_to_num(se, nan=0.0), floor)
    se = np.where(se > 0, se, np.nan)
    dev = np.abs(boot - est) / se
    dev = np.where(keep & ~np.isnan(dev), dev, 0.0)
    c = float(np.quantile(dev.max(axis=1), 0.95)) * t975(m - 1) / Z95
    return est - c * se, est + c * se


def _nan_result(value: float) -> dict[str, float]:
    return {"value": value, "low": math.nan, "high": math.nan}


def _rates(blocks: np.ndarray, total: np.ndarray, keep: np.ndarray,
           weights: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The groups' rates from block counts ``(blocks, groups, 2)`` (second count over the
    first; nan for a group not kept) and their bootstrap rates ``(B, groups)`` (nan where a
    resample lacks the group)."""
    est = np.where(keep, total[:, 1] / np.where(keep, total[:, 0], 1.0), np.nan)
    w = weights if weights is not None else bootstrap_weights(blocks.shape[0])
    boot = np.einsum("bm,mkv->bkv", w, blocks)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(boot[..., 0] > 0, boot[..., 1] / boot[..., 0], np.nan)
    return est, rates


def range_interval(blocks: np.ndarray, min_appearances: float = 1,
                   weights: np.ndarray | None = None) -> dict[str, float]:
    """:func:`share_range` of block counts ``(blocks, groups, 2)`` (appearances, win credit)
    with its 95% interval from simultaneous intervals of the groups' shares."""
    total = blocks.sum(axis=0)
    value = float(share_range_rows(total[np.newaxis], min_appearances)[0])
    m = blocks.shape[0]
    if m < 2 or math.isnan(value):
        return _nan_result(value)
    app, credit = total[:, 0], total[:, 1]
    keep = app >= max(min_appearances, 1e-12)
    est, bshare = _rates(blocks, total, keep, weights)
    pooled = credit[keep].sum() / app[keep].sum()
    floor = np.sqrt(pooled * (1 - pooled) / np.where(keep, app, 1.0))
    lo, hi = simultaneous(est, bshare, floor, m)
    if np.isnan(lo).all():  # no spread anywhere (e.g. nobody ever won): no interval
        return _nan_result(value)
    # unclipped, the interval's reach on either side: what more games would shrink
    raw = {"low_raw": float(np.nanmax(lo) - np.nanmin(hi)),
           "high_raw": float(np.nanmax(hi) - np.nanmin(lo))}
    lo, hi = np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)
    low = max(0.0, float(np.nanmax(lo) - np.nanmin(hi)))
    high = float(np.nanmax(hi) - np.nanmin(lo))
    return {"value": value, "low": low, "high": high, **raw}


def max_rate_interval(blocks: np.ndarray, min_count: float = 4,
                      weights: np.ndarray | None = None) -> dict[str, float]:
    """:func:`dominance` of block counts ``(blocks, pairs, 2)`` (comparisons, points) with its
    95% interval from simultaneous intervals of the pairs' rates: [max low, max high]."""
    total = blocks.sum(axis=0)
    value = float(dominance_rows(total[np.newaxis], min_count)[0])
    m = blocks.shape[0]
    if m < 2 or math.isnan(value):
        return _nan_result(value)
    c = total[:, 0]
    keep = (c >= min_count) & (c > 0)
    est, brate = _rates(blocks, total, keep, weights)
    floor = np.sqrt(0.25 / np.where(keep, c, 1.0))
    lo, hi = simultaneous(est, brate, floor, m)
    if np.isnan(lo).all():
        return _nan_result(value)
    return {"value": value, "low": float(np.clip(np.nanmax(lo), 0, 1)),
            "high": float(np.clip(np.nanmax(hi), 0, 1)),
            "low_raw": float(np.nanmax(lo)), "high_raw": float(np.nanmax(hi))}


def top_share_interval(blocks: np.ndarray, weights: np.ndarray | None = None
                       ) -> dict[str, float]:
    """:func:`top_share` of block counts ``(blocks, keys, 1)`` with its 95% interval from
    simultaneous intervals of every key's share: [max low, max high]."""
    total = blocks.sum(axis=0)
    value = float(top_share_rows(total[np.newaxis])[0])
    m = blocks.shape[0]
    if m < 2 or math.isnan(value):
        return _nan_result(value)
    v = total[:, 0]
    n = v.sum()
    est = v / n
    w = weights if weights is not None else bootstrap_weights(m)
    boot = np.einsum("bm,mkv->bkv", w, blocks)[..., 0]
    bt = boot.sum(axis=1, keepdims=True)
    bshare = np.where(bt > 0, boot / np.where(bt > 0, bt, 1.0), np.nan)
    p = np.maximum(est, 1.0 / n)
    floor = np.sqrt(p * (1 - p) / n)
    lo, hi = simultaneous(est, bshare, floor, m)
    if np.isnan(lo).all():  # one key holds everything in every block: no spread, no interval
        return _nan_result(value)
    return {"value": value, "low": float(np.clip(np.nanmax(lo), 0, 1)),
            "high": float(np.clip(np.nanmax(hi), 0, 1)),
            "low_raw": float(np.nanmax(lo)), "high_raw": float(np.nanmax(hi))}


def bootstrap_shares(blocks: np.ndarray, weights: np.ndarray | None = None
                     ) -> list[dict[str, float]]:
    """:func:`bootstrap_array` of every key's win share (:func:`share_rows`) of block counts
    ``(blocks, keys, 2)``, with one bootstrap for all keys (the same figures as one call per
    key)."""
    total = blocks.sum(axis=0)
    m, k = blocks.shape[0], blocks.shape[1]
    app, credit = total[:, 0], total[:, 1]
    values = np.where(app > 0, credit / np.where(app > 0, app, 1.0), np.nan)
    if m < 2:
        return [{"value": float(v), "low": math.nan, "high": math.nan} for v in values]
    w = weights if weights is not None else bootstrap_weights(m)
    boot = np.einsum("bm,mkv->bkv", w, blocks)
    out = []
    for i in range(k):
        v = float(values[i])
        b = boot[:, i, :]
        b = np.where(b[:, 0] > 0, b[:, 1] / np.where(b[:, 0] > 0, b[:, 0], 1.0), np.nan)
        b = b[~np.isnan(b)]
        if math.isnan(v) or b.size < 0.9 * w.shape[0]:
            out.append({"value": v, "low": math.nan, "high": math.nan})
            continue
        centre = 2 * v - float(b.mean())
        half = t975(m - 1) * float(b.std(ddof=1)) * math.sqrt(m / (m - 1))
        out.append({"value": v, "low": centre - half, "high": centre + half})
    return out


# --- one interval per kind of balance statistic (the Balance page's, `compare`'s and
# `calibrate`'s) -------------------------------------------------------------------------------

#: the kinds of statistic that are maxima over groups and get simultaneous intervals
RANGE, RANGE4, MAX_RATE, TOP = "range", "range (groups seen 4 times)", "max rate", "top"

#: the forced no-op rate: a ratio of rare events, skewed (a few games hold most of them), so
#: it gets the BCa interval (the bias-corrected normal one covered 86-89% at 1,000 games),
#: widened to the Wilson interval where that is wider (a few events: 83% at 50 games without)
RARE_RATE = functools.partial(ratio_rows)


def entropy_rows(scale: str) -> Callable[[np.ndarray], np.ndarray]:
    """The row-wise entropy normalised by the fixed scale of ``scale`` (:data:`ENTROPY_SCALE`)."""
    return functools.partial(entropy_fixed_rows, k=ENTROPY_SCALE[scale])


def metric_interval(arr: np.ndarray, stat: Any, weights: np.ndarray | None = None
                    ) -> dict[str, float]:
    """A balance statistic of block counts ``(blocks, keys, values)`` with its 95% interval
    over common-seed blocks, as every verdict of the toolkit takes it: for a range, a maximum
    rate or a top share (``stat`` one of :data:`RANGE`, :data:`RANGE4`, :data:`MAX_RATE`,
    :data:`TOP`) the interval simultaneous intervals of its groups give; for the forced no-op
    rate (:data:`RARE_RATE`) the BCa interval widened to the Wilson interval of its events; for
    an entropy (:func:`entropy_rows`) the jackknife-centred bootstrap; for any other row-wise
    statistic the bias-corrected cluster bootstrap (:func:`bootstrap_array`). ``weights``: the
    bootstrap draws to use (``(resamples, blocks)``)."""
    if stat == RANGE:
        return range_interval(arr, 1, weights=weights)
    if stat == RANGE4:
        return range_interval(arr, 4, weights=weights)
    if stat == MAX_RATE:
        return max_rate_interval(arr, 4, weights=weights)
    if stat == TOP:
        return top_share_interval(arr, weights=weights)
    if stat is RARE_RATE:
        res = bootstrap_array(arr, stat, weights=weights, skewed=True)
        # a handful of events in a handful of blocks can give a zero-width bootstrap: the
        # interval is at least the Wilson interval of the events over the opportunities
        total = arr.sum(axis=(0, 1)) if arr.size else None
        if total is not None and total[1] > 0 and not math.isnan(res["value"]):
            lo, hi = wilson(int(round(total[0])), int(round(total[1])))
            res = {"value": res["value"], "low": min(lo, res["low"]) if not math.isnan(
                res["low"]) else lo, "high": max(hi, res["high"]) if not math.isnan(
                res["high"]) else hi}
        return res
    # an entropy: the jackknife's bias estimate and the larger standard error (plug-in entropy
    # of a few dozen winners over many paths is biased more than the bootstrap sees)
    return bootstrap_array(arr, stat, weights=weights, jackknife_bias=getattr(
        stat, "func", None) is entropy_fixed_rows)


def outcome_share_interval(arr: np.ndarray, weights: np.ndarray | None = None
                           ) -> dict[str, float]:
    """A share of games (AGI emergence, an Open ending) from block counts ``(blocks, 1, 2)``
    (games with the outcome, games) with its 95% interval: the bias-corrected cluster bootstrap
    widened to the Jeffreys interval of the games when that is wider. A share of 0 or 1 (every
    game Open) has no bootstrap spread at all, and a zero-width interval covers the truth only
    when the truth is exactly 0 or 1 (issue 28: 0.33 of 50-game studies); the Jeffreys interval
    has positive width there and covers about 95% of the time.

    >>> r = outcome_share_interval(np.array([[[10.0, 10.0]], [[10.0, 10.0]], [[30.0, 30.0]]]))
    >>> r["value"], r["high"], round(r["low"], 3)
    (1.0, 1.0, 0.951)
    """
    res = bootstrap_array(arr, ratio_rows, weights=weights)
    total = arr.sum(axis=(0, 1)) if arr.size else None
    if total is None or total[1] <= 0 or math.isnan(res["value"]):
        return res
    lo, hi = jeffreys(float(total[0]), float(total[1]))
    low = lo if math.isnan(res["low"]) else min(lo, max(0.0, res["low"]))
    high = hi if math.isnan(res["high"]) else max(hi, min(1.0, res["high"]))
    return {"value": res["value"], "low": low, "high": high}


def jeffreys(successes: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """The Jeffreys interval of a proportion: the ``(1 - level) / 2`` and ``(1 + level) / 2``
    quantiles of Beta(successes + 1/2, n - successes + 1/2), with the bound at 0 (no success)
    or 1 (all successes) set to that end (Brown, Cai and DasGupta 2001). Positive width
    whenever ``n`` > 0.

    >>> lo, hi = jeffreys(50, 50)
    >>> round(lo, 4), hi
    (0.9512, 1.0)
    >>> [round(x, 3) for x in jeffreys(3, 10)]
    [0.093, 0.606]
    """
    if n <= 0:
        return (math.nan, math.nan)
    a, b = successes + 0.5, n - successes + 0.5
    tail = (1 - level) / 2
    lo = 0.0 if successes <= 0 else _beta_ppf(tail, a, b)
    hi = 1.0 if successes >= n else _beta_ppf(1 - tail, a, b)
    return (lo, hi)


def _beta_cdf(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (continued fraction, Numerical
    Recipes' ``betacf``)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
          + b * math.log(1 - x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _beta_cdf(1 - x, b, a)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return math.exp(ln) * h / a


def _beta_ppf(p: float, a: float, b: float) -> float:
    """The ``p`` quantile of Beta(a, b) (bisection on :func:`_beta_cdf`)."""
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if _beta_cdf(mid, a, b) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# --- entropy on the designers' scale ------------------------------------------------------


def seen_scale(k: int, seen: int) -> float:
    """The factor that turns an entropy normalised by ``log k`` (the ids possible, our fixed
    scale) into the designers' (normalised by ``log seen``, the ids seen: lab
    ``monte-carlo-runner.js``): ``log k / log seen`` (nan with fewer than two ids seen)."""
    return math.log(k) / math.log(seen) if seen >= 2 and k >= 2 else math.nan


# --- how many games would settle a check ------------------------------------------------------

#: the chance of a verdict the "games needed" figure promises (the power of the study)
POWER = 0.80
_Z_POWER = 0.8416212335729143  # the standard normal's 0.80 quantile


def games_needed(value: float | None, low: float | None, high: float | None, limit: float,
                 games: int, min_games: int = MIN_VERDICT_GAMES, block: int = 1
                 ) -> int | None:
    """How many games would give a verdict (*within* or *outside*) with an 80% chance
    (:data:`POWER`), if the true value were the present estimate ``value``: the interval's
    distance from the value on the side that must clear the ``limit`` (its low end when the
    value is above the limit, its high end when below) shrinks as ``sqrt(games / N)`` (the
    same bootstrap, more blocks of the same kind), and a study of ``N`` games draws its
    estimate about that far around the truth; the verdict comes when the interval's end clears
    the limit, which the estimate does with 80% chance at ``(1 + z(0.80) / z(0.975))`` times
    the distance. Rounded up to whole blocks of ``block`` games (a study's line-up) and to at
    least ``min_games``. None when the value sits on the limit (no number of games decides at
    this effect size), when more than :data:`MOST_GAMES_NEEDED` games would be needed, or
    when there is no interval.

    >>> games_needed(0.14, 0.08, 0.20, 0.10, 200)    # 0.04 above, the low end 0.06 below
    920
    >>> games_needed(0.02, 0.0, 0.06, 0.10, 400)     # within already; 80% chance with fewer
    205
    """
    if value is None or low is None or high is None or games <= 0:
        return None
    if any(math.isnan(x) for x in (value, low, high, limit)):
        return None
    effect = value - limit
    if abs(effect) < 1e-9:  # on the limit (up to rounding)
        return None
    reach = (value - low) if effect > 0 else (high - value)
    if reach <= 0:  # no spread on that side: already decided by any sample of this kind
        return max(min_games, block)
    factor = reach / abs(effect) * (1 + _Z_POWER / Z95)
    need = max(float(min_games), games * factor * factor)
    if need > MOST_GAMES_NEEDED:  # no practical number of games settles it
        return None
    block = max(1, block)
    return int(math.ceil(need / block - 1e-9) * block)


#: beyond this many games "games needed" says nothing useful (and would overflow a column)
MOST_GAMES_NEEDED = 10_000_000


def paired_ratio_differences(metrics: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
                             replicates: int = 2000, seed: int = 0, level: float = 0.95
                             ) -> list[dict[str, Any]]:
    """Paired differences of ratio metrics between two arms played on common seeds.

    Each metric is ``(num_a, den_a, num_b, den_b)``: per common game (the same position in
    every array) the numerator and denominator of arm ``a`` (the baseline) and arm ``b``; an
    arm's value is ``sum(num) / sum(den)``. The games are drawn with replacement, the same
    draw for both arms (:func:`bootstrap_weights`), and each difference's percentile interval
    is simultaneous over the ``m`` metrics (Bonferroni: level ``1 - (1 - level) / m`` each),
    so that "no row significant" holds for the whole table at ``level``. A row:
    ``baseline``, ``value``, ``difference``, ``interval`` ``[low, high]`` and ``significant``
    (the interval excludes 0); a metric with no denominator in an arm has ``None`` values.
    The percentiles' distances from the difference are widened by ``sqrt(g / (g - 1))`` for
    ``g`` games (the plug-in bootstrap's variance is short by that factor)."""
    m = max(len(metrics), 1)
    alpha = (1.0 - level) / m
    out: list[dict[str, Any]] = []
    for na, da, nb, db in metrics:
        g = len(na)
        sa, sb = float(da.sum()), float(db.sum())
        if g == 0 or sa <= 0 or sb <= 0:
            out.append({"baseline": None if sa <= 0 else float(na.sum()) / sa,
                        "value": None if sb <= 0 else float(nb.sum()) / sb,
                        "difference": None, "interval": [None, None], "significant": False})
            continue
        base, value = float(na.sum()) / sa, float(nb.sum()) / sb
        w = bootstrap_weights(g, replicates, seed)
        with np.errstate(invalid="ignore", divide="ignore"):
            diff = (w @ nb) / (w @ db) - (w @ na) / (w @ da)
        diff = diff[np.isfinite(diff)]
        if diff.size == 0 or g < 2:
            lo = hi = None
        else:
            # the bootstrap's spread is the plug-in one, short by sqrt((g - 1) / g): widened
            q = np.quantile(diff, [alpha / 2, 1 - alpha / 2])
            lo, hi = (float(value - base + (x - (value - base)) * math.sqrt(g / (g - 1)))
                      for x in q)
        out.append({"baseline": base, "value": value, "difference": value - base,
                    "interval": [lo, hi],
                    "significant": lo is not None and hi is not None and (lo > 0 or hi < 0)})
    return out
