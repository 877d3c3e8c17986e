"""Mandate 2038's rules variants compared with the baseline on common seeds (``playtest
compare`` and the Variants view; docs/variants.md "Comparison"): its study parts' comparison
(:data:`ingest.mandate2038.study.STUDY` ``compare``/``text``; the page's view of it:
``dashboards/mandate2038/variants.py``).

A study played with ``--variant`` holds, for every game index, one game under the rules as
printed (``variant = 'baseline'``) and one under each variant, with the same line-up, factions,
seats, map and chance stream. For every balance-contract metric (the Balance page's definitions,
:data:`ingest.mandate2038.balance.METRICS`, computed from the same ``seat_balance`` rows) and two
outcome measures (AGI emergence, an open world), :func:`compare` gives the baseline value, the
variant's value, the paired difference and its interval from a **paired block bootstrap over
common seeds**: the study's line-up blocks (the games of a block share the deal) are drawn with
replacement, the same blocks for both arms, and the metric recomputed on each arm's counts.

The interval is simultaneous over the metrics of one comparison (Bonferroni: each row's
interval has level 1 - 0.05/m for m rows), so that "no row significant" is a statement about
the whole table at 95%, not a one-in-twenty false alarm per row; ``significant`` says the
interval excludes 0. Each arm's own verdict against the contract threshold (the Balance page's
rule, from that arm's 95% bootstrap interval) is given too, and whether it changes.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl

from ingest import stats
from ingest.balance import run
from ingest.mandate2038.balance import (
    BOTS_ONLY,
    CLUSTER_SQL,
    ENTROPY_METRICS,
    METRICS,
    Source,
    deal_cte,
)
from ingest.warehouse import balance as wb

BASELINE = "baseline"
#: measures shown beside the contract's metrics (not contract checks: no threshold)
OUTCOME_METRICS: tuple[tuple[str, str], ...] = (
    ("agi_rate", "AGI emergence (share of games where a claim forms AGI)"),
    ("open_rate", "Open world (share of games ending Open)"),
)


class CompareError(ValueError):
    """A folder that cannot be compared (the message says why)."""


@dataclass(frozen=True)
class MetricSpec:
    """How one metric is computed from per-game counts: the key columns, the count columns
    and the row-wise statistic over ``(rows, keys, values)`` arrays (dashboards.stats)."""

    id: str
    keys: tuple[str, ...]
    values: tuple[str, ...]
    stat: Callable[[np.ndarray], np.ndarray]
    frame: str = "seats"  # which per-seat frame: seats, actions, pairs


def _entropy(scale: str) -> Callable[[np.ndarray], np.ndarray]:
    # the Balance page's entropy: normalised by the fixed number of possible values
    return functools.partial(stats.entropy_fixed_rows, k=stats.ENTROPY_SCALE[scale])


def _fallback_sum(a: np.ndarray) -> np.ndarray:
    return np.asarray(a[..., 0].sum(axis=1), dtype=float)


SPECS: tuple[MetricSpec, ...] = (
    MetricSpec("seat_win_share_range", ("turn_order",), ("one", "credit"),
               stats.share_range_rows),
    MetricSpec("faction_win_share_range", ("faction",), ("one", "credit"),
               stats.share_range_rows),
    MetricSpec("profile_win_share_range", ("profile",), ("one", "credit"),
               stats.share_range_rows),
    MetricSpec("faction_strategy_interaction", ("faction", "profile"), ("one", "credit"),
               lambda a: stats.share_range_rows(a, 4)),
    MetricSpec("round_two_leader_conversion", (), ("lead_won_share", "first_seat"),
               stats.ratio_rows),
    MetricSpec("action_entropy", ("action",), ("n",), _entropy("action"), "actions"),
    MetricSpec("opening_entropy", ("opening",), ("one",), _entropy("opening")),
    MetricSpec("opening_top_share", ("opening",), ("one",), stats.top_share_rows),
    MetricSpec("winning_path_entropy", ("path",), ("credit",), _entropy("path")),
    MetricSpec("winning_path_top_share", ("path",), ("credit",), stats.top_share_rows),
    MetricSpec("pairwise_dominance", ("profile", "opponent"), ("comparisons", "points"),
               stats.dominance_rows, "pairs"),
    MetricSpec("forced_no_op_rate", (), ("blocked", "opportunities"), stats.ratio_rows),
    MetricSpec("policy_fallbacks", (), ("policy_fallbacks",), _fallback_sum),
    MetricSpec("agi_rate", (), ("agi", "first_seat"), stats.ratio_rows),
    MetricSpec("open_rate", (), ("open", "first_seat"), stats.ratio_rows),
)


# --- reading a study folder -----------------------------------------------------------------


def seat_rows(folder: Path) -> pl.DataFrame:
    """One row per seat of every complete game of a study folder: the arm (``variant``), the
    pairing key (``policy``, ``player_count``, ``game_index``), the ``seat_balance`` columns
    and the game's AGI and Open results."""
    if not (folder / "games").is_dir():
        raise CompareError(f"{folder}: not a study folder (no games/ table); make one with "
                           "playtest study")
    src = Source(study=folder)
    cols = set(run(src, "SELECT * FROM games LIMIT 0").columns)
    arm = "g.variant" if "variant" in cols else f"'{BASELINE}'"
    idx = ("g.game_index" if "game_index" in cols
           else "CAST(split_part(g.game_id, '-', -1) AS BIGINT)")
    policy = "g.policy" if "policy" in cols else "'default'"
    has_out = bool(run(src, "SELECT * FROM outcomes LIMIT 0").columns)
    agi = "coalesce(o.agi, FALSE)" if has_out else "FALSE"
    opn = "coalesce(o.open, FALSE)" if has_out else "FALSE"
    join = "LEFT JOIN outcomes o USING (game_id)" if has_out else ""
    # the column expressions above are this module's constants, never user text
    df = run(src, f"""
        WITH {deal_cte()}
        SELECT {arm} AS variant, {policy} AS policy, g.player_count, {idx} AS game_index,
               g.n_events, sb.*, CAST({agi} AS INTEGER) AS agi, CAST({opn} AS INTEGER) AS open,
               hash({CLUSTER_SQL}) % {stats.BLOCKS} AS page_group
        FROM seat_balance sb JOIN games g USING (game_id) {join} LEFT JOIN dk USING (game_id)
        WHERE coalesce(g.complete, TRUE)
        """)
    if df.is_empty():
        raise CompareError(f"{folder}: no complete games to compare")
    return df.with_columns(
        pl.lit(1.0).alias("one"),
        (pl.col("seat") == 1).cast(pl.Float64).alias("first_seat"),
        pl.lit(12.0).alias("opportunities"),  # 4 Eras x 3 cycles, as the Balance page counts
        pl.col("agi").cast(pl.Float64) * (pl.col("seat") == 1).cast(pl.Float64),
        pl.col("open").cast(pl.Float64) * (pl.col("seat") == 1).cast(pl.Float64),
    )


def study_info(folder: Path) -> dict[str, Any]:
    try:
        out: dict[str, Any] = json.loads((folder / "study.json").read_text("utf-8"))
        return out
    except (OSError, json.JSONDecodeError):
        return {}


# --- per-game count arrays ------------------------------------------------------------------

PAIR = ["policy", "player_count", "game_index"]


def _long(df: pl.DataFrame, spec: MetricSpec) -> pl.DataFrame:
    """The rows a metric counts, with its key and value columns."""
    if spec.frame == "actions":
        acts = [f"a_{a}" for a in (*wb.ACTION_IDS, "other")]
        return (df.select([*PAIR, *acts])
                .unpivot(index=PAIR, variable_name="action", value_name="n")
                .with_columns(pl.col("action").str.slice(2), pl.col("n").cast(pl.Float64)))
    if spec.frame == "pairs":
        p = df.filter(pl.col("profile").is_not_null()).select(
            [*PAIR, "seat", "profile", "final_mandate"])
        j = p.join(p, on=PAIR, suffix="_o").filter(
            (pl.col("seat") != pl.col("seat_o")) & (pl.col("profile") != pl.col("profile_o")))
        return j.select(
            *PAIR, pl.col("profile"), pl.col("profile_o").alias("opponent"),
            pl.lit(1.0).alias("comparisons"),
            pl.when(pl.col("final_mandate") > pl.col("final_mandate_o")).then(1.0)
            .when(pl.col("final_mandate") == pl.col("final_mandate_o")).then(0.5)
            .otherwise(0.0).alias("points"))
    out = df
    for k in spec.keys:
        out = out.filter(pl.col(k).is_not_null())
    if spec.id.startswith("winning_path"):
        out = out.filter(pl.col("credit") > 0)
    return out.select([*PAIR, *spec.keys, *spec.values])


def _arrays(frames: list[pl.DataFrame], spec: MetricSpec, games: pl.DataFrame
            ) -> list[np.ndarray]:
    """``(games, keys, values)`` count arrays of each frame over the same games (the rows of
    ``games``, in order) and the same keys (their union)."""
    longs = [_long(f, spec) for f in frames]
    keyset: dict[Any, int] = {}
    for lg in longs:
        for k in (lg.select(list(spec.keys)).unique(maintain_order=True).rows()
                  if spec.keys else [()]):
            keyset.setdefault(k, len(keyset))
    gidx = games.with_row_index("gi")
    out = []
    for lg in longs:
        arr = np.zeros((games.height, max(len(keyset), 1), len(spec.values)))
        if not lg.is_empty():
            j = lg.join(gidx, on=PAIR, how="inner")
            if spec.keys:
                labels = j.select(list(spec.keys)).rows()
                ki = np.fromiter((keyset[k] for k in labels), dtype=np.int64, count=len(labels))
            else:
                ki = np.zeros(j.height, dtype=np.int64)
            vals = np.column_stack([j[v].fill_null(0).cast(pl.Float64).to_numpy()
                                    for v in spec.values])
            np.add.at(arr, (j["gi"].to_numpy(), ki), vals)
        out.append(arr)
    return out


# --- the paired block bootstrap -------------------------------------------------------------


def _blocks(games: pl.DataFrame) -> np.ndarray:
    """The block of each common game: its line-up block (games of a block share the deal:
    engine/mandate2038/lineups.py), per policy and player count."""
    key = games.select(pl.col("policy"), pl.col("player_count"),
                       (pl.col("game_index") // pl.col("player_count")).alias("b"))
    _, inv = np.unique(np.array([f"{a}|{b}|{c}" for a, b, c in key.rows()]),
                       return_inverse=True)
    out: np.ndarray = np.asarray(inv).reshape(-1)
    return out


#: each contract metric's kind of statistic for its verdict (the Balance page's:
#: :func:`ingest.stats.metric_interval`)
VERDICT_STATS: dict[str, Any] = {
    "seat_win_share_range": stats.RANGE, "faction_win_share_range": stats.RANGE,
    "profile_win_share_range": stats.RANGE, "faction_strategy_interaction": stats.RANGE4,
    "round_two_leader_conversion": stats.ratio_rows,
    "action_entropy": stats.entropy_rows("action"),
    "opening_entropy": stats.entropy_rows("opening"), "opening_top_share": stats.TOP,
    "winning_path_entropy": stats.entropy_rows("path"), "winning_path_top_share": stats.TOP,
    "pairwise_dominance": stats.MAX_RATE, "forced_no_op_rate": stats.RARE_RATE,
}


def _page_groups(base: pl.DataFrame, common: pl.DataFrame) -> np.ndarray:
    """The interval group of each common game, as the Balance page groups it (a hash of its
    common-seed block into :data:`ingest.stats.BLOCKS` groups): the arms of a game share its
    deal, so the baseline's games give it."""
    if "page_group" not in base.columns:
        return _blocks(common)
    g = base.filter(pl.col("seat") == 1).select([*PAIR, "page_group"]).unique(PAIR)
    j = common.join(g, on=PAIR, how="left")
    _, inv = np.unique(j["page_group"].fill_null(-1).to_numpy(), return_inverse=True)
    return np.asarray(inv).reshape(-1)


def arm_verdict(spec: MetricSpec, per_game: np.ndarray, groups: np.ndarray, limit: float,
                bound: str, players: int) -> dict[str, Any]:
    """One arm's verdict on a contract metric by the Balance page's method: the metric's
    interval over the page's common-seed groups (:func:`ingest.stats.metric_interval`: for a
    range, maximum or top share the simultaneous intervals of its groups, not percentiles of
    the plug-in value, whose upward bias said "outside" for every arm of random winners), an
    entropy judged on the designers' scale (the ids seen), and for an undecided check the
    games that would settle it (:func:`ingest.stats.games_needed`)."""
    arr = np.zeros((int(groups.max()) + 1, *per_game.shape[1:]))
    np.add.at(arr, groups, per_game)
    arr = arr[arr.reshape(arr.shape[0], -1).any(axis=1)] if arr.size else arr
    res = stats.metric_interval(arr, VERDICT_STATS[spec.id])
    value = res["value"]
    games = per_game.shape[0]
    out: dict[str, Any] = {"verdict": "no value", "interval": None, "games_needed": None,
                           "tables_needed": None}
    if value is None or math.isnan(value):
        return out
    low = None if math.isnan(res["low"]) else max(0.0, res["low"])
    high = None if math.isnan(res["high"]) else min(1.0, res["high"])
    factor = 1.0
    if spec.id in ENTROPY_METRICS:
        seen = int((arr.sum(axis=0)[:, 0] > 0).sum())
        factor = stats.seen_scale(stats.ENTROPY_SCALE[ENTROPY_METRICS[spec.id]], seen)
        if math.isnan(factor):
            return out
        low = None if low is None else min(1.0, low * factor)
        high = None if high is None else min(1.0, high * factor)
    scaled = min(1.0, value * factor)
    out["interval"] = [low, high] if low is not None and high is not None else None
    out["verdict"] = stats.verdict(low, high, limit, bound, games)
    if out["verdict"] == stats.NOT_ENOUGH:
        # the interval's reach before clipping (as the Balance page takes it)
        reach = (res.get("low_raw", res["low"]) * factor,
                 res.get("high_raw", res["high"]) * factor)
        out["games_needed"] = stats.games_needed(scaled, *reach, limit, games, block=players)
        if spec.id not in BOTS_ONLY:
            out["tables_needed"] = stats.games_needed(scaled, *reach, limit, games)
    return out


def _finite(x: np.ndarray) -> np.ndarray:
    kept: np.ndarray = x[np.isfinite(x)]
    return kept


def compare_arms(base: pl.DataFrame, var: pl.DataFrame, *, replicates: int = 2000,
                 seed: int = 0, ids: tuple[str, ...] | None = None
                 ) -> list[dict[str, Any]]:
    """One row per metric: baseline, variant, difference and its simultaneous interval over
    the games both arms played (paired by policy, player count and game index)."""
    th = stats.thresholds()
    meta = {m[0]: m for m in METRICS}
    names = dict(OUTCOME_METRICS)
    common = (base.select(PAIR).unique().join(var.select(PAIR).unique(), on=PAIR)
              .sort(PAIR))
    if common.is_empty():
        return []
    blk = _blocks(common)
    nb = int(blk.max()) + 1
    groups = _page_groups(base, common)
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(nb, np.full(nb, 1.0 / nb), size=replicates).astype(float)
    specs = [s for s in SPECS if ids is None or s.id in ids]
    m = len(specs)
    alpha = 0.05 / m
    rows: list[dict[str, Any]] = []
    for spec in specs:
        a_base, a_var = _arrays([base, var], spec, common)
        b_base = np.zeros((nb, *a_base.shape[1:]))
        b_var = np.zeros((nb, *a_var.shape[1:]))
        np.add.at(b_base, blk, a_base)
        np.add.at(b_var, blk, a_var)
        v0 = float(spec.stat(b_base.sum(axis=0)[np.newaxis])[0])
        v1 = float(spec.stat(b_var.sum(axis=0)[np.newaxis])[0])
        r0 = spec.stat(np.einsum("rb,bkv->rkv", weights, b_base))
        r1 = spec.stat(np.einsum("rb,bkv->rkv", weights, b_var))
        diff = _finite(r1 - r0)
        ok = diff.size >= 0.95 * replicates and math.isfinite(v0) and math.isfinite(v1)
        low = high = None
        if ok:
            low, high = (float(x) for x in np.quantile(diff, [alpha / 2, 1 - alpha / 2]))
        row: dict[str, Any] = {
            "metric": spec.id, "name": meta[spec.id][1] if spec.id in meta else names[spec.id],
            "contract": spec.id in meta, "games": common.height,
            "baseline": v0 if math.isfinite(v0) else None,
            "value": v1 if math.isfinite(v1) else None,
            "difference": (v1 - v0) if ok else None,
            "interval": [low, high] if ok else None,
            "significant": bool(ok and (low > 0 or high < 0)),  # type: ignore[operator]
        }
        if spec.id in meta:
            _mid, _name, key, bound = meta[spec.id]
            limit = float(th[key]) if key in th else math.nan
            row["threshold"] = limit
            row["bound"] = "at most" if bound == "max" else "at least"
            verdicts = []
            for arm, (v, a) in zip(("baseline", "variant"), ((v0, a_base), (v1, a_var)),
                                   strict=True):
                if spec.id == "policy_fallbacks":
                    verdicts.append(stats.WITHIN if v <= limit else stats.OUTSIDE)
                    continue
                got = arm_verdict(spec, a, groups, limit, bound, common["player_count"][0])
                verdicts.append(got["verdict"])
                row[f"{arm}_interval"] = got["interval"]
                row[f"{arm}_games_needed"] = got["games_needed"]
                row[f"{arm}_tables_needed"] = got["tables_needed"]
            row["baseline_verdict"], row["variant_verdict"] = verdicts
            row["verdict_changes"] = verdicts[0] != verdicts[1]
        rows.append(row)
    return rows


def differing_games(base: pl.DataFrame, var: pl.DataFrame) -> tuple[int, int]:
    """(common games whose play or result differs between the arms, common games): a game
    differs when its number of events, AGI, Open result, any seat's final Mandate, win credit
    or resolved actions differ."""
    acts = [f"a_{a}" for a in (*wb.ACTION_IDS, "other")]

    def sig(df: pl.DataFrame) -> pl.DataFrame:
        return df.sort([*PAIR, "seat"]).group_by(PAIR).agg(
            pl.concat_str([pl.col("n_events").first().cast(pl.String),
                           pl.col("agi").sum().cast(pl.String),
                           pl.col("open").sum().cast(pl.String)], separator="|").alias("g"),
            pl.concat_str([pl.col(c).cast(pl.String)
                           for c in ("final_mandate", "credit", *acts)],
                          separator=",").alias("s"))
    j = sig(base).join(sig(var), on=PAIR, suffix="_v")
    if j.is_empty():
        return 0, 0
    differ = j.filter((pl.col("g") != pl.col("g_v")) | (pl.col("s") != pl.col("s_v")))
    return differ.height, j.height


def _arm_order(name: str) -> tuple[str, int, str]:
    # a sweep's arms (KNOB=VALUE) in the order of their values, others by name
    knob, sep, level = name.partition("=")
    if sep and level.lstrip("-").isdigit():
        return (knob, int(level), name)
    return (name, 0, name)


def compare(folder: Path, *, against: Path | None = None, players: int | None = None,
            replicates: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Every variant of the study at ``folder`` against its baseline (or, with ``against``,
    the baseline of ``folder`` against the baseline of another study, game index by game
    index), per player count: ``{"study", "rows": [...], "variants": [...]}``."""
    if replicates < 200:
        raise CompareError("--replicates must be at least 200")
    try:
        df = seat_rows(folder)
        other = seat_rows(against) if against is not None else None
    except duckdb.Error as exc:
        raise CompareError(f"the study could not be read: {exc}") from None
    if players is not None:
        df = df.filter(pl.col("player_count") == players)
        if other is not None:
            other = other.filter(pl.col("player_count") == players)
    base = df.filter(pl.col("variant") == BASELINE)
    if base.is_empty():
        raise CompareError(f"{folder}: no baseline games (variant 'baseline') to compare with")
    arms: list[tuple[str, pl.DataFrame, pl.DataFrame | None]] = []
    if other is not None and against is not None:
        seed2 = study_info(against).get("seed", against.name)
        arms.append((f"baseline (seed {seed2})", other.filter(pl.col("variant") == BASELINE),
                     None))
    else:
        names = sorted((v for v in df["variant"].unique().to_list() if v != BASELINE),
                       key=_arm_order)
        if not names:
            raise CompareError(f"{folder}: the study holds no variant (play one with "
                               "playtest study --variant FILE, or compare two baselines with "
                               "--against DIR2)")
        arms.extend((n, df.filter(pl.col("variant") == n), None) for n in names)
    rows: list[dict[str, Any]] = []
    summary: list[dict[str, Any]] = []
    for name, var, _ in arms:
        for n in sorted(set(base["player_count"].to_list()) & set(var["player_count"].to_list())):
            b = base.filter(pl.col("player_count") == n)
            v = var.filter(pl.col("player_count") == n)
            got = compare_arms(b, v, replicates=replicates, seed=seed)
            for r in got:
                rows.append({"variant": name, "player_count": n, **r})
            d, c = differing_games(b, v)
            summary.append({"variant": name, "player_count": n, "common_games": c,
                            "games_differing": d,
                            "significant": [r["metric"] for r in got if r["significant"]]})
    info = study_info(folder)
    return {"study": str(folder), "against": str(against) if against else None,
            "seed": info.get("seed"), "replicates": replicates,
            "interval": f"simultaneous 95% over the {len(SPECS)} metrics of each comparison "
                        "(Bonferroni), paired block bootstrap over common seeds (line-up "
                        "blocks)",
            "variants": summary, "rows": rows}


def _num(x: Any) -> str:
    return "-" if x is None else f"{x:.3f}" if isinstance(x, float) else str(x)


def _needed_text(row: dict[str, Any]) -> str:
    """" (games needed: ...)" for the arms whose check is not decided: the games (bots, in
    whole line-ups) and physical tables that would give a verdict at the current effect size
    with an 80% chance."""
    parts = []
    for arm in ("baseline", "variant"):
        if row.get(f"{arm}_verdict") != stats.NOT_ENOUGH:
            continue
        bots, tables = row.get(f"{arm}_games_needed"), row.get(f"{arm}_tables_needed")
        if bots is None:
            continue
        label = f"{arm} " if row.get("verdict_changes") else ""
        parts.append(f"{label}~{bots} games" + (f", {tables} at tables" if tables else ""))
        if not row.get("verdict_changes"):
            break  # the same verdict: the baseline's figure speaks for the row
    return f" (needs {'; '.join(parts)})" if parts else ""


def format_text(result: dict[str, Any]) -> str:
    """The comparison as a readable table per variant and player count."""
    lines = [f"study {result['study']}"
             + (f" against {result['against']}" if result.get("against") else ""),
             f"intervals: {result['interval']}; {result['replicates']} replicates"]
    for s in result["variants"]:
        lines.append("")
        lines.append(f"{s['variant']} vs baseline, {s['player_count']} players: "
                     f"{s['common_games']} common games, {s['games_differing']} played "
                     "differently")
        lines.append(f"  {'metric':32} {'baseline':>9} {'variant':>9} {'diff':>8}  "
                     f"{'interval':>19}  verdict")
        for r in result["rows"]:
            if r["variant"] != s["variant"] or r["player_count"] != s["player_count"]:
                continue
            iv = r["interval"]
            ivs = f"[{_num(iv[0])}, {_num(iv[1])}]" if iv else "-"
            mark = " *" if r["significant"] else ""
            ver = ""
            if r.get("contract"):
                ver = r["baseline_verdict"]
                if r["verdict_changes"]:
                    ver = f"{r['baseline_verdict']} -> {r['variant_verdict']}"
                ver += _needed_text(r)
            lines.append(f"  {r['metric']:32} {_num(r['baseline']):>9} {_num(r['value']):>9} "
                         f"{_num(r['difference']):>8}  {ivs:>19}{mark:2} {ver}")
        lines.append("  (* the interval excludes 0: a real difference)")
    return "\n".join(lines)


# --- the study's simulated games per arm (beside the physical playtests: the Variants page)


def simulated_by_variant(folder: Path) -> pl.DataFrame:
    """A study's complete games per game and arm: games, AGI emergences and Open endings
    (simulated evidence)."""
    df = seat_rows(folder).filter(pl.col("seat") == 1)
    src = Source(study=folder)
    ids = run(src, "SELECT DISTINCT game_id, game FROM games")
    df = df.join(ids, on="game_id", how="left") if "game_id" in df.columns else df.with_columns(
        pl.lit(None, pl.String).alias("game"))
    return (df.group_by(["game", "variant"])
            .agg(pl.len().alias("games"),
                 pl.col("agi").sum().cast(pl.Int64).alias("agi"),
                 pl.col("open").sum().cast(pl.Int64).alias("open"))
            .sort(["game", "variant"]))
