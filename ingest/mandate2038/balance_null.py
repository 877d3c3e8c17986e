"""How often a balance verdict is wrong, and how often its interval covers: the null check.

``playtest calibrate --null-check N [STUDY_DIR]`` measures, for every check of the Balance page
(:data:`ingest.mandate2038.balance.METRICS`), over ``N`` replicate studies of 50, 200 and 1,000
games per player count and policy:

* ``false_verdict_rate``: the share of replicates whose verdict contradicts the truth
  (*outside* when the truth is within the threshold, *within* when it is beyond);
* ``coverage``: the share of replicates whose 95% interval holds the truth.

**The null world.** A replicate study is drawn from a pool of real study games (a study folder
written by ``playtest study``): whole common-seed blocks of one policy are drawn with
replacement (the games of a block share map, factions and chance stream, so they are drawn
together, as a study plays them) until the replicate has its number of games, each drawn copy
of a block falling into a random interval group, as the page hashes blocks into groups. In
every game the seats' outcomes (winner flag and 1/k credit together with final Mandate) are then
permuted at random among the seats: *random winners*. Everything a seat did (faction, profile,
turn order, opening, actions, path, Era II Mandate) stays with it. So in this world the truth is
known exactly, as an expectation over the permutation, from the pool:

* every win share is the same (each seat's expected credit is the game's credit / n): the
  seat, faction, profile and faction x strategy ranges are 0 (when every pooled game has a
  winner; the code computes the expectation, whatever the pool);
* pairwise dominance is 0.5 (a comparison of two seats scores 1, 0 or 0.5 symmetrically);
* Era II leader conversion is the mean over games of (winners / n);
* winning-path entropy and top share are those of every seat's path weighted by credit / n;
* action entropy, opening entropy and top share and the forced no-op rate do not depend on the
  winners: their truth is the pool's value (the replicate studies are draws from the pool).

The verdicts are the page's own (:func:`ingest.mandate2038.balance.metrics_from_parts` on the
replicate's block counts, grouped as the page's SQL groups them). Drawing from a pool of real
games instead of playing new ones is the bootstrap's "plug-in" world: it is valid for the
procedure's error rates as long as the pool resembles the games' distribution, and it costs a
fraction of a second per replicate instead of minutes of play.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from ingest import stats
from ingest.mandate2038 import balance as bq
from ingest.warehouse import balance as wb

SIZES = (50, 200, 1000)

#: the suffix of an entropy's truth on the designers' scale (normalised by the ids the pool
#: holds), against which its verdict is judged
SEEN = "@seen"

_ACTIONS = [*wb.ACTION_IDS, "other"]

#: the checks the null check measures (policy fallbacks is a count, not an estimate)
CHECKS = tuple(m for m in bq.METRICS if m[0] != "policy_fallbacks")


@dataclass
class _Pool:
    """The seat rows of one policy and player count, as ``(games, n)`` arrays."""

    n: int
    policy: str
    cluster: np.ndarray  # (games,) block number of each game
    cols: dict[str, np.ndarray]  # column -> (games, n)


def load_pool(study: Path) -> list[_Pool]:
    """The pool: every complete game of the study folder, by policy and player count."""
    src = bq.Source(study=study)
    df = bq.run(src, f"""
        WITH {bq.deal_cte()}
        SELECT g.player_count, g.policy, {bq.CLUSTER_SQL} AS cluster, sb.*
        FROM seat_balance sb JOIN games_p g USING (game_id) LEFT JOIN dk USING (game_id)
        WHERE coalesce(g.complete, TRUE)
        ORDER BY g.player_count, g.policy, sb.game_id, sb.seat
        """)
    if df.is_empty():
        raise ValueError(f"{study}: no complete games to draw replicate studies from")
    out = []
    for (n, policy), part in df.partition_by(["player_count", "policy"], as_dict=True).items():
        n = int(n)
        counts = part.group_by("game_id").len()
        whole = counts.filter(pl.col("len") == n)["game_id"]
        part = part.filter(pl.col("game_id").is_in(whole.to_list())).sort(["game_id", "seat"])
        g = part.height // n
        if g == 0:
            continue
        cols = {}
        for c in ("turn_order", "faction", "profile", "opening", "path", "credit", "winner",
                  "final_mandate", "era2_mandate", "era2_leaders", "blocked",
                  "policy_fallbacks", "seat", *(f"a_{a}" for a in _ACTIONS)):
            cols[c] = np.array(part[c].to_list(), dtype=object).reshape(g, n)
        _, cluster = np.unique(np.array(part["cluster"].to_list()[::n]), return_inverse=True)
        out.append(_Pool(n=n, policy=str(policy), cluster=cluster, cols=cols))
    return sorted(out, key=lambda p: (p.n, p.policy))


def _f(a: np.ndarray) -> np.ndarray:
    return np.array([[0.0 if v is None else float(v) for v in row] for row in a])


def truths(pool: _Pool) -> dict[str, float]:
    """Each check's true value in the null world drawn from ``pool`` (module docstring)."""
    n = pool.n
    credit = _f(pool.cols["credit"])
    winners = _f(pool.cols["winner"].astype(bool).astype(float))
    expected = np.repeat(credit.sum(axis=1, keepdims=True) / n, n, axis=1)  # each seat's credit

    def rng(keys: list[str], least: float = 1) -> float:
        labels = [tuple(row) for row in zip(*(pool.cols[k].ravel() for k in keys), strict=True)]
        app: dict[Any, float] = {}
        cred: dict[Any, float] = {}
        for lab, e in zip(labels, expected.ravel(), strict=True):
            if any(v is None for v in lab):
                continue
            app[lab] = app.get(lab, 0.0) + 1
            cred[lab] = cred.get(lab, 0.0) + e
        return stats.share_range({k: (app[k], cred[k]) for k in app}, least)

    def counts(key: str, weight: np.ndarray) -> np.ndarray:
        tot: dict[Any, float] = {}
        for lab, w in zip(pool.cols[key].ravel(), weight.ravel(), strict=True):
            tot[lab] = tot.get(lab, 0.0) + float(w)
        return np.array([[[v] for v in tot.values() if v > 0]])

    ones = np.ones_like(credit)
    acts = np.array([[[float(_f(pool.cols[f"a_{a}"]).sum())] for a in _ACTIONS]])
    acts = acts[:, acts[0, :, 0] > 0]
    paths = counts("path", expected)
    opens = counts("opening", ones)
    k = stats.ENTROPY_SCALE
    fixed = {"action_entropy": float(stats.entropy_fixed_rows(acts, k["action"])[0]),
             "opening_entropy": float(stats.entropy_fixed_rows(opens, k["opening"])[0]),
             "winning_path_entropy": float(stats.entropy_fixed_rows(paths, k["path"])[0])}
    # on the designers' scale (the verdict's): normalised by the ids the pool holds
    for mid, arr in (("action_entropy", acts), ("opening_entropy", opens),
                     ("winning_path_entropy", paths)):
        factor = stats.seen_scale(k[bq.ENTROPY_METRICS[mid]], int(arr.shape[1]))
        fixed[f"{mid}{SEEN}"] = fixed[mid] * factor
    return {**fixed,
        "seat_win_share_range": rng(["turn_order"]),
        "faction_win_share_range": rng(["faction"]),
        "profile_win_share_range": rng(["profile"]),
        "faction_strategy_interaction": rng(["faction", "profile"], 4),
        "round_two_leader_conversion": float(winners.sum(axis=1).mean() / n),
        "opening_top_share": float(stats.top_share_rows(opens)[0]),
        "winning_path_top_share": float(stats.top_share_rows(paths)[0]),
        "pairwise_dominance": 0.5,
        "forced_no_op_rate": float(_f(pool.cols["blocked"]).sum() / (12 * credit.size)),
    }


def _replicate(pool: _Pool, games: int, rng: np.random.Generator,
               random_winners: bool = True) -> tuple[pl.DataFrame, pl.DataFrame]:
    """One replicate study of ``games`` games drawn from ``pool`` with random winners (with
    ``random_winners`` off: the winners the games had, a draw of the pool's own world): the
    page's grouped frame (as ``_grouped``'s SQL gives it) and its matchup counts."""
    n = pool.n
    blocks = np.unique(pool.cluster)
    members = {b: np.flatnonzero(pool.cluster == b) for b in blocks}
    picked: list[int] = []
    groups: list[int] = []
    while len(picked) < games:
        b = blocks[rng.integers(len(blocks))]
        grp = int(rng.integers(stats.BLOCKS))
        for game in members[b]:
            if len(picked) < games:
                picked.append(int(game))
                groups.append(grp)
    idx = np.array(picked)
    g = len(idx)
    perm = np.argsort(rng.random((g, n)), axis=1)  # outcomes handed to random seats
    if not random_winners:
        perm = np.tile(np.arange(n), (g, 1))

    def col(c: str) -> np.ndarray:
        picked: np.ndarray = pool.cols[c][idx]
        return picked

    def moved(c: str) -> np.ndarray:
        return np.take_along_axis(col(c), perm, axis=1)

    credit = _f(moved("credit"))
    winner = moved("winner").astype(bool)
    score = _f(moved("final_mandate"))
    era2 = _f(col("era2_mandate"))
    leaders = (era2 == era2.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
    lead_won = np.where((era2 == era2.max(axis=1, keepdims=True)) & winner, 1.0 / leaders, 0.0)
    blk = np.repeat(np.array(groups)[:, None], n, axis=1)
    seat = col("seat")
    frame = pl.DataFrame({
        "kind": f"study: {pool.policy}", "player_count": n, "blk": blk.ravel(),
        "turn_order": col("turn_order").ravel().tolist(),
        "faction": col("faction").ravel().tolist(), "profile": col("profile").ravel().tolist(),
        "opening": col("opening").ravel().tolist(), "path": col("path").ravel().tolist(),
        "credit": credit.ravel(),
        **{f"a_{a}": _f(col(f"a_{a}")).ravel() for a in _ACTIONS},
        "blocked": _f(col("blocked")).ravel(),
        "policy_fallbacks": col("policy_fallbacks").ravel().tolist(),
        "first": (seat == 1).ravel(), "converted": lead_won.ravel(),
        "tied": ((seat == 1) & (leaders > 1)).ravel(),
    }, strict=False)
    keys = ["kind", "player_count", "blk", "turn_order", "faction", "profile", "opening", "path"]
    grouped = frame.group_by(keys).agg(
        pl.len().alias("appearances"), pl.col("credit").sum(),
        *(pl.col(f"a_{a}").sum().cast(pl.Int64) for a in _ACTIONS),
        pl.col("blocked").sum().cast(pl.Int64),
        pl.col("policy_fallbacks").sum().cast(pl.Int64).alias("fallbacks"),
        pl.col("policy_fallbacks").count().alias("fallback_seats"),
        pl.col("first").sum().cast(pl.Int64).alias("games"),
        pl.col("converted").sum(), pl.col("tied").sum().cast(pl.Int64))
    # head to head: every ordered pair of seats with different profiles
    prof = col("profile")
    rows_p, rows_o, rows_b, pts = [], [], [], []
    for i, j in permutations(range(n), 2):
        differ = prof[:, i] != prof[:, j]
        rows_p.append(prof[differ, i])
        rows_o.append(prof[differ, j])
        rows_b.append(blk[differ, 0])
        pts.append(np.where(score[differ, i] > score[differ, j], 1.0,
                            np.where(score[differ, i] == score[differ, j], 0.5, 0.0)))
    pairs = pl.DataFrame({
        "kind": f"study: {pool.policy}", "player_count": n,
        "blk": np.concatenate(rows_b), "profile": np.concatenate(rows_p).tolist(),
        "opponent": np.concatenate(rows_o).tolist(), "points": np.concatenate(pts)},
        strict=False)
    matchups = pairs.group_by(["kind", "player_count", "blk", "profile", "opponent"]).agg(
        pl.len().alias("comparisons"), pl.col("points").sum())
    return grouped, matchups


def _wrong(verdict: str, truth: float, limit: float, bound: str) -> bool:
    """Whether ``verdict`` contradicts the truth (a "not enough games" never does)."""
    ok = truth <= limit if bound == "max" else truth >= limit
    return (verdict == stats.OUTSIDE and ok) or (verdict == stats.WITHIN and not ok)


def null_check(study: Path, replicates: int, sizes: Sequence[int] = SIZES,
               players: Sequence[int] = (), seed: int = 2038) -> list[dict[str, Any]]:
    """For every check, pool (player count and policy) and size: the false-verdict rate and
    the coverage of the 95% interval over ``replicates`` replicate studies."""
    if replicates < 1:
        raise ValueError("the null check needs at least one replicate study")
    th = stats.thresholds()
    cache: dict[int, np.ndarray] = {}

    def weights(m: int) -> np.ndarray:
        if m not in cache:
            cache[m] = stats.bootstrap_weights(m)
        return cache[m]

    out: list[dict[str, Any]] = []
    for pool in load_pool(study):
        if players and pool.n not in players:
            continue
        truth = truths(pool)
        for size in sizes:
            rng = np.random.default_rng([seed, pool.n, size, len(pool.policy)])
            tally: dict[str, list[int]] = {m[0]: [0, 0, 0, 0] for m in CHECKS}
            for _ in range(replicates):
                grouped, matchups = _replicate(pool, size, rng)
                m = bq.metrics_from_parts(bq.split_grouped(grouped), matchups, weights=weights)
                for r in m.iter_rows(named=True):
                    t = tally.get(r["metric"])
                    if t is None:
                        continue
                    tru = truth[r["metric"]]
                    if math.isnan(tru):  # undefined in the pool (no group seen enough)
                        continue
                    t[0] += 1
                    # an entropy's verdict is on the designers' scale: so is its truth
                    t[1] += _wrong(r["verdict"], truth.get(r["metric"] + SEEN, tru),
                                   r["threshold"], "max" if r["bound"] == "at most" else "min")
                    if r["low"] is not None and r["high"] is not None:
                        t[2] += 1
                        t[3] += r["low"] - 1e-9 <= tru <= r["high"] + 1e-9
            for mid, name, key, bound in CHECKS:
                done, wrong, with_interval, covered = tally[mid]
                out.append({
                    "metric": mid, "name": name, "players": pool.n, "policy": pool.policy,
                    "games": size, "replicates": done, "truth": round(truth[mid], 6),
                    "threshold": th.get(key, math.nan),
                    "bound": "at most" if bound == "max" else "at least",
                    "false_verdict_rate": wrong / done if done else None,
                    "coverage": covered / with_interval if with_interval else None,
                    "min_games_for_verdict": bq.MIN_GAMES.get(mid, stats.MIN_VERDICT_GAMES),
                })
    return out
