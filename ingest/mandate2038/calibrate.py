"""Mandate 2038's ``playtest calibrate STUDY`` (its declaration's ``designer_loop.calibrate``;
cli/commands/calibrate.py reads the arguments): a study's balance figures beside the designers' published ones;
``playtest calibrate --null-check N [STUDY]``: how often each verdict is wrong under random
winners and how often its interval covers.

The figures are the Balance page's own (``ingest.mandate2038.balance``, the designers'
definitions; docs/balance.md) on the study's Parquet tables, per policy mix the study played
(``games.policy``; each labelled, and every policy pooled, labelled with the mix, when the
study played several) and per player count, each with its 95% interval over the study's
common-seed blocks. AGI emergence and Open are the share of complete games whose outcome says
so, with the same kind of interval.

Each designers' figure names the study it comes from (:data:`SOURCES`): most from their
exact-ecology precision confirmation; Open and the opening top share were not published there
and come from their earlier nineteen-hex diagnostic (other profiles and rules candidate), so
they are weaker references.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from schemas.variants import printable

#: the designers' studies quoted (clocksmith/gamma, games/2038/evidence/studies/simulation/)
SOURCES: dict[str, str] = {
    "precision": "designers' exact-ecology package precision confirmation v1 (2026-08-15; "
                 "executable 0.14.7, rules 0.8.0-rc.8-test; 25,440 matches, four backend "
                 "regimes pooled)",
    "diagnostic": "designers' nineteen-hex v1 diagnostic (2026-08-15; executable 0.14.1, "
                  "rules 0.8.0-rc.2-test, older profiles; 240-1,000 matches per count)",
}

#: metric -> (source, relation, figure by player count): "equal" compares with the figure,
#: "at most" with a published upper bound
DESIGNERS: dict[str, tuple[str, str, dict[int, float]]] = {
    "agi": ("precision", "equal", {3: 0.1547, 4: 0.1802, 5: 0.2148}),
    # not in the precision confirmation: "Open Continuity occurred in 99.17%, 99.90%, 100%"
    "open": ("diagnostic", "equal", {3: 0.9917, 4: 0.9990, 5: 1.0}),
    "faction_win_share_range": ("precision", "equal", {3: 0.0882, 4: 0.1094, 5: 0.1036}),
    "seat_win_share_range": ("precision", "equal", {3: 0.0091, 4: 0.0076, 5: 0.0238}),
    "profile_win_share_range": ("precision", "equal", {3: 0.1257, 4: 0.1233, 5: 0.1049}),
    # "between 0.9033 and 0.9047", "between 0.7171 and 0.7185" over the three counts
    "action_entropy": ("precision", "equal", {3: 0.904, 4: 0.904, 5: 0.904}),
    "action_entropy_dossier": ("precision", "equal", {3: 0.904, 4: 0.904, 5: 0.904}),
    "opening_entropy": ("precision", "equal", {3: 0.718, 4: 0.718, 5: 0.718}),
    # "the most common opening held no more than 5.6% of observations"
    "opening_top_share": ("diagnostic", "at most", {3: 0.056, 4: 0.056, 5: 0.056}),
    "winning_path_entropy": ("precision", "equal", {3: 0.6712, 4: 0.6345, 5: 0.6058}),
}

#: the checks the precision confirmation reports as passed at 3, 4 and 5 players without a
#: figure ("Failed balance checks 0"; "All action, opening, winning-path, fallback, and
#: forced-no-op checks passed at three, four, and five players"; "Policy fallbacks 0"): metric
#: -> the contract threshold it passed (strategic-unsolvability-v3, data/balance-contract.json)
#: and the report's words. The comparison: ours agrees when our interval reaches the passing
#: side of that threshold.
PASSED: dict[str, tuple[str, str]] = {
    "faction_strategy_interaction": ("factionStrategyInteractionRangeMax",
                                     "Failed balance checks: 0"),
    "pairwise_dominance": ("pairwiseDominanceMax",
                           "Failed balance checks: 0; pairwise dominance cells: 0"),
    "round_two_leader_conversion": ("roundTwoLeaderConversionMax",
                                    "Failed balance checks: 0"),
    "winning_path_top_share": ("winningPathTopShareMax",
                               "all winning-path checks passed at 3, 4 and 5 players"),
    "forced_no_op_rate": ("forcedNoOpRateMax",
                          "all forced-no-op checks passed at 3, 4 and 5 players"),
    "opening_top_share_passed": ("openingTopShareMax",
                                 "all opening checks passed at 3, 4 and 5 players"),
}

#: checks whose designers' figure is a count they published: metric -> (figure, words)
PUBLISHED_COUNTS: dict[str, tuple[float, str]] = {
    "policy_fallbacks": (0.0, "Policy fallbacks: 0 (bound 0)"),
}

#: rows that show another row's figure against a second reference: row -> metric
SAME_FIGURE = {"opening_top_share_passed": "opening_top_share"}

PASSED_RELATION = "passed"


def designers_figure(key: str, n: int) -> tuple[str | None, str, float | None, str | None]:
    """(source, relation, figure, the designers' words) of a row at ``n`` players: a published
    figure (:data:`DESIGNERS`), a count (:data:`PUBLISHED_COUNTS`), or a check reported as
    passed with the contract's threshold it passed (:data:`PASSED`, relation ``passed``)."""
    from ingest import stats

    if key in DESIGNERS:
        source, relation, figure = DESIGNERS[key]
        return source, relation, figure.get(n), None
    if key in PUBLISHED_COUNTS:
        value, words = PUBLISHED_COUNTS[key]
        return "precision", "equal", value, words
    if key in PASSED:
        threshold, words = PASSED[key]
        return "precision", PASSED_RELATION, stats.thresholds()[threshold], words
    return None, "equal", None, None


ROWS: list[tuple[str, str, str]] = [
    ("agi", "AGI emergence", "%"),
    ("open", "Open ending", "%"),
    ("faction_win_share_range", "Faction spread (win-share range)", "pp"),
    ("seat_win_share_range", "Seat spread by turn order", "pp"),
    ("profile_win_share_range", "Profile spread", "pp"),
    ("faction_strategy_interaction", "Faction × strategy spread", "pp"),
    ("pairwise_dominance", "Pairwise dominance", ""),
    ("action_entropy", "Action entropy", ""),
    ("action_entropy_dossier", "Action entropy, Dossier Commits counted as actions", ""),
    ("opening_entropy", "Opening entropy", ""),
    ("opening_top_share", "Opening top share", "%"),
    ("opening_top_share_passed", "Opening top share (the precision study's check)", "%"),
    ("winning_path_entropy", "Winning-path entropy", ""),
    ("winning_path_top_share", "Winning-path top share", "%"),
    ("round_two_leader_conversion", "Era II leader conversion", "%"),
    ("forced_no_op_rate", "Forced no-op rate", "%"),
    ("policy_fallbacks", "Policy fallbacks", "count"),
]

AGREES, DIFFERS, NO_FIGURE = "agrees", "differs", "no designers' figure"


def _fmt(v: float | None, unit: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    if unit in ("%", "pp"):
        return f"{100 * v:.1f}{'%' if unit == '%' else ' pp'}"
    if unit == "count":
        return f"{v:g}"
    return f"{v:.3f}"


def compare(ours: float | None, low: float | None, high: float | None, games: int,
            need: int, designers: float | None, relation: str) -> str:
    """The row's verdict: whether the designers' figure is consistent with ours.

    >>> compare(0.2, 0.15, 0.25, 400, 30, 0.18, "equal")
    'agrees'
    >>> compare(0.3, 0.25, 0.35, 400, 30, 0.18, "equal")
    'differs (ours higher)'
    >>> compare(0.3, 0.0, 1.0, 6, 30, 0.18, "equal")
    'not enough games (6 < 30)'
    """
    if games < need:
        return f"not enough games ({games} < {need})"
    if ours is None:
        return "no value"
    if designers is None:
        return NO_FIGURE
    if low is None or high is None:
        return "no interval"
    if relation == "at most":
        return AGREES if low <= designers else f"{DIFFERS} (ours above their bound)"
    if relation == PASSED_RELATION:  # they passed this bound: so may we, if we reach it
        return AGREES if low <= designers else f"{DIFFERS} (ours beyond the bound they passed)"
    if low <= designers <= high:
        return AGREES
    return f"{DIFFERS} (ours {'higher' if low > designers else 'lower'})"


def _outcome_rows(src: Any, n: int) -> dict[str, dict[str, dict[str, Any]]]:
    """kind -> "agi"/"open" -> value, interval and games, from the games' outcomes."""
    from ingest import stats
    from ingest.balance import AllGames as Filters
    from ingest.mandate2038 import balance as bq

    df = bq.outcome_counts(src, Filters(player_counts=(n,)))
    out: dict[str, dict[str, dict[str, Any]]] = {}
    if df.is_empty():
        return out
    for (kind,), part in df.group_by(["kind"], maintain_order=True):
        games = int(part["games"].sum())
        for key in ("agi", "open"):
            arr = stats.block_array(part, ["kind"], [key, "games"])[1]
            res = stats.outcome_share_interval(arr)  # positive width at 0 and 1
            low = None if math.isnan(res["low"]) else max(0.0, res["low"])
            high = None if math.isnan(res["high"]) else min(1.0, res["high"])
            out.setdefault(str(kind), {})[key] = {"value": res["value"], "low": low,
                                                  "high": high, "games": games}
    return out


#: the entropies and what they count (``ENTROPY_SCALE`` keys)
ENTROPY_IDS = {"action_entropy": "action", "opening_entropy": "opening",
               "winning_path_entropy": "path", "action_entropy_dossier": "action_dossier"}

#: the designers count their AGI Dossier as an action id: 12 action ids and the Dossier Commit
DOSSIER_SCALE = 13


def _dossier_entropy(src: Any, n: int) -> dict[str, dict[str, Any]]:
    """kind -> action entropy with Dossier Commits counted as actions (the designers' count:
    their executable's AGI Dossier is a Program action), normalised by log 13, with its
    interval; and the ids seen."""
    import functools

    import polars as pl

    from ingest import stats
    from ingest.balance import AllGames as Filters
    from ingest.mandate2038 import balance as bq

    f = Filters(player_counts=(n,))
    acts, dos = bq.action_counts(src, f), bq.dossier_counts(src, f)
    if acts.is_empty():
        return {}
    both = pl.concat([acts.select("kind", "player_count", "blk", "action", "n"),
                      dos.select("kind", "player_count", "blk", "action",
                                 pl.col("n").cast(acts.schema["n"]))]
                     if not dos.is_empty() else [acts], how="vertical_relaxed")
    out: dict[str, dict[str, Any]] = {}
    for (kind,), part in both.group_by(["kind"], maintain_order=True):
        keys, arr = stats.block_array(part, ["action"], ["n"])
        res = stats.bootstrap_array(arr, functools.partial(stats.entropy_fixed_rows,
                                                           k=DOSSIER_SCALE))
        games = bq.games_by_count(src, f).get((str(kind), n), 0)
        seen = int((arr.sum(axis=0)[:, 0] > 0).sum())
        out[str(kind)] = {"value": res["value"], "low": max(0.0, res["low"]),
                          "high": min(1.0, res["high"]), "games": games, "seen": seen}
    return out


def _ids_seen(src: Any, n: int) -> dict[str, dict[str, int]]:
    """kind -> how many distinct action ids, openings and winning paths the games show."""
    import polars as pl

    from ingest.balance import AllGames as Filters
    from ingest.mandate2038 import balance as bq

    f = Filters(player_counts=(n,))
    out: dict[str, dict[str, int]] = {}
    for name, df, col, val in (("action", bq.action_counts(src, f), "action", "n"),
                               ("opening", bq.opening_counts(src, f), "opening", "n"),
                               ("path", bq.path_counts(src, f), "path", "credit")):
        if df.is_empty():
            continue
        for (kind,), part in df.group_by(["kind"], maintain_order=True):
            tot = part.group_by(col).agg(pl.col(val).sum())
            out.setdefault(str(kind), {})[name] = int((tot[val] > 0).sum())
    return out


def rows(study: Path) -> list[dict[str, Any]]:
    """Every figure of the study per policy mix (and every policy pooled, labelled) and
    player count, beside the designers' (module docstring)."""
    from ingest import stats
    from ingest.balance import AllGames as Filters
    from ingest.mandate2038 import balance as bq

    sources = [bq.Source(study=study)]
    split = bq.games_by_count(sources[0], Filters())
    if len({k for k, _n in split}) > 1:
        sources.append(bq.Source(study=study, pool_policies=True))
    out: list[dict[str, Any]] = []
    for src in sources:
        counts = sorted({n for _k, n in bq.games_by_count(src, Filters())})
        for n in counts:
            metrics = bq.metrics(src, Filters(player_counts=(n,)), n)
            outcomes = _outcome_rows(src, n)
            seen = _ids_seen(src, n)
            with_dossier = _dossier_entropy(src, n)
            for kind, r in with_dossier.items():
                seen.setdefault(kind, {})["action_dossier"] = r["seen"]
            for kind in sorted(set(metrics["kind"]) if not metrics.is_empty() else []):
                part = {r["metric"]: r for r in metrics.filter(
                    metrics["kind"] == kind).iter_rows(named=True)}
                for key, name, unit in ROWS:
                    if key == "action_entropy_dossier":
                        d = with_dossier.get(kind)
                        if d is None:
                            continue
                        value, low, high, games = d["value"], d["low"], d["high"], d["games"]
                        check, need = None, stats.MIN_VERDICT_GAMES
                    elif key in ("agi", "open"):
                        o = outcomes.get(kind, {}).get(key)
                        if o is None:
                            continue
                        value, low, high, games = o["value"], o["low"], o["high"], o["games"]
                        check, need = None, stats.MIN_VERDICT_GAMES
                    else:
                        m = part.get(SAME_FIGURE.get(key, key))
                        if m is None:
                            continue
                        value, low, high, games = m["value"], m["low"], m["high"], m["games"]
                        check = m["verdict"]
                        need = bq.MIN_GAMES.get(key, stats.MIN_VERDICT_GAMES)
                    source, relation, designers, words = designers_figure(key, n)
                    extra: dict[str, Any] = _needed(part.get(SAME_FIGURE.get(key, key)))
                    if words:
                        extra["designers_words"] = words
                    cmp_value, cmp_low, cmp_high = value, low, high
                    if key in ENTROPY_IDS and value is not None:
                        # the designers normalise by the ids seen: compare on their scale
                        k = (DOSSIER_SCALE if key == "action_entropy_dossier"
                             else stats.ENTROPY_SCALE[ENTROPY_IDS[key]])
                        n_seen = seen.get(kind, {}).get(ENTROPY_IDS[key], 0)
                        factor = math.log(k) / math.log(n_seen) if n_seen >= 2 else math.nan
                        cmp_value = value * factor
                        if low is not None and high is not None:
                            cmp_low, cmp_high = low * factor, high * factor
                        extra |= {"ids_seen": n_seen, "ids_possible": k,
                                 "ours_seen_scale": cmp_value,
                                 "interval_seen_scale": [cmp_low, cmp_high]
                                 if low is not None and high is not None else None}
                    out.append({
                        "metric": key, "name": name, "unit": unit, "players": n,
                        "policy": kind.removeprefix("study: "), "games": games,
                        "source": SOURCES[source] if source else None,
                        "ours": value,
                        "interval": [low, high] if low is not None and high is not None
                        else None,
                        "designers": designers,
                        "designers_relation": relation if designers is not None else None,
                        "verdict": compare(cmp_value, cmp_low, cmp_high, games, need, designers,
                                           relation),
                        "check": check, **extra,
                    })
    return out


def _needed(metric: dict[str, Any] | None) -> dict[str, Any]:
    """The games that would settle a contract check the study leaves undecided ("not enough
    games"), as the Balance page computes them (:func:`ingest.stats.games_needed`): for bots
    and for physical tables."""
    if not metric or metric.get("verdict") != "not enough games":
        return {}
    return {"games_needed": metric.get("games_needed"),
            "tables_needed": metric.get("tables_needed")}


def report(study: Path) -> str:
    """Markdown tables: per policy mix, each metric at every player count, ours (95% interval)
    beside the designers' and the comparison's verdict (an entropy also on the designers'
    scale, normalised by the ids seen, which is what the verdict compares)."""
    found = rows(study)
    lines = [f"Study `{study}`. Designers' figures: " + "; ".join(
        f"**{k}** = {v}" for k, v in SOURCES.items()) + "."]
    policies = list(dict.fromkeys(r["policy"] for r in found))
    for policy in policies:
        mine = [r for r in found if r["policy"] == policy]
        counts = sorted({r["players"] for r in mine})
        games = {r["players"]: r["games"] for r in mine if r["metric"] == "agi"}
        lines += ["", f"**{policy}** line-ups ("
                  + ", ".join(f"{games.get(n, '?')} games at {n}" for n in counts) + ")", "",
                  "| metric | players | ours (95% interval) | designers | source | verdict "
                  "| games to settle the contract check (bots; tables) |",
                  "|---|---:|---:|---:|---|---|---|"]
        for key, name, unit in ROWS:
            for n in counts:
                r = next((x for x in mine if x["metric"] == key and x["players"] == n), None)
                if r is None:
                    continue
                ours = _fmt(r["ours"], unit)
                if r["interval"] is not None:
                    ours += f" ({_fmt(r['interval'][0], unit)}–{_fmt(r['interval'][1], unit)})"
                if r.get("ours_seen_scale") is not None:
                    ours += (f"; {_fmt(r['ours_seen_scale'], unit)} over the "
                             f"{r['ids_seen']} seen")
                d = _fmt(r["designers"], unit)
                if r["designers_relation"] == "at most":
                    d = f"≤ {d}"
                elif r["designers_relation"] == PASSED_RELATION:
                    d = f"passed ≤ {d}"
                src = {SOURCES["precision"]: "precision", SOURCES["diagnostic"]: "diagnostic"
                       }.get(r["source"], "—") if r["source"] else "—"
                lines.append(f"| {name} | {n} | {ours} | {d} | {src} | {r['verdict']} |"
                             f" {_needed_cell(r)} |")
    return "\n".join(lines)


def _needed_cell(row: dict[str, Any]) -> str:
    """The Markdown cell of a row's games needed: "—" where the check is decided or none."""
    bots = row.get("games_needed")
    if bots is None:
        return "—"
    tables = row.get("tables_needed")
    return f"{bots}; {tables if tables is not None else 'bots only'}"


def null_report(study: Path, replicates: int, players: tuple[int, ...] = ()) -> dict[str, Any]:
    """``--null-check``'s result: every check's false-verdict rate and coverage."""
    from ingest.mandate2038.balance_null import SIZES, null_check

    checks = null_check(study, replicates, SIZES, players)
    worst: dict[tuple[str, int], dict[str, Any]] = {}
    for c in checks:
        key = (c["metric"], c["games"])
        w = worst.setdefault(key, {"metric": c["metric"], "games": c["games"],
                                   "false_verdict_rate": 0.0, "coverage": 1.0})
        if c["false_verdict_rate"] is not None:
            w["false_verdict_rate"] = max(w["false_verdict_rate"], c["false_verdict_rate"])
        if c["coverage"] is not None:
            w["coverage"] = min(w["coverage"], c["coverage"])
    return {"study": str(study), "replicates": replicates, "checks": checks,
            "worst": list(worst.values()),
            "pass": all(w["false_verdict_rate"] <= 0.05 and w["coverage"] >= 0.90
                        for w in worst.values())}


def null_text(result: dict[str, Any]) -> str:
    """The null check as a Markdown table: the worst pool for every check and size."""
    lines = [f"Null check on `{result['study']}`: {result['replicates']} replicate studies per "
             "player count, policy and size; random winners. Worst over player counts and "
             "policies:", "", "| check | games | false-verdict rate | coverage of 95% interval |",
             "|---|---:|---:|---:|"]
    for w in result["worst"]:
        lines.append(f"| {w['metric']} | {w['games']} | {w['false_verdict_rate']:.3f} | "
                     f"{w['coverage']:.3f} |")
    lines.append("")
    lines.append("every check within bounds (false verdicts at most 5%, coverage at least 90%)"
                 if result["pass"] else "SOME CHECK OUT OF BOUNDS")
    return "\n".join(lines)


def as_json(obj: Any) -> str:
    """JSON with NaN written as null."""
    def clean(x: Any) -> Any:
        if isinstance(x, float) and math.isnan(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [clean(v) for v in x]
        return x
    return json.dumps(clean(obj), indent=1, ensure_ascii=False)


#: the pool ``--null-check`` draws from when no study folder is named: the documented one
#: (docs/balance.md, "How sure a verdict is"), played once and kept under the current folder
POOL_GAMES = 200
MAX_NULL_CHECK = 10_000  # replicate studies of --null-check
POOL_POLICIES = ("greedy", "weighted")
POOL_BACKEND = "auto"  # Ray when installed, else local processes (as `playtest study`)
POOL_WORKERS: int | None = None  # all CPUs


def default_pool(players: str = "") -> Path:
    """The null check's default pool: 200 games per player count and policy (greedy, weighted)
    of seed ``pool1``, played by ``playtest study`` into ``simulated/null-pool`` the first time
    (resumable, like any study) and reused after."""
    import sys

    from engine.core.registry import DEFAULT_GAME
    from ingest.study import study_parts

    counts = tuple(int(x) for x in str(players).split(",") if x.strip()) or (3, 4, 5)
    out = Path("simulated") / "null-pool"
    parts = study_parts(DEFAULT_GAME)  # the designers' figures are the default game's
    spec = parts.spec({"games": POOL_GAMES, "players": counts,
                       "policy": ",".join(POOL_POLICIES), "seed": "pool1"}, ())
    parts.run(spec, out, backend=POOL_BACKEND, workers=POOL_WORKERS,
              say=lambda m: print(m, file=sys.stderr))
    return out


def command(args: Any) -> str:
    """Run ``calibrate`` and return what it prints (ValueError: bad input, said in words)."""
    if args.study is None and args.null_check is None:
        raise ValueError("name a study folder (playtest study --out DIR ...)")
    study = Path(args.study) if args.study is not None else default_pool(args.players)
    if not (study / "games").is_dir() or not (study / "seats").is_dir():
        raise ValueError(f"{study}: not a study folder (no games/ and seats/ tables); make one "
                         "with playtest study")
    if args.null_check is not None:
        if not 1 <= args.null_check <= MAX_NULL_CHECK:
            raise ValueError("--null-check needs a number of replicate studies, at least 1 "
                             f"and at most {MAX_NULL_CHECK:,}")
        try:
            players = tuple(int(x) for x in str(args.players).split(",") if x.strip())
        except ValueError:
            players = ()
        if any(not 2 <= n <= 6 for n in players) or (args.players.strip() and not players):
            raise ValueError("--players must be player counts such as 3 or 3,4,5, not "
                             f"{printable(args.players)!r}")
        result = null_report(study, args.null_check, players)
        return as_json(result) if args.format == "json" else null_text(result)
    found = rows(study)
    if not found:
        raise ValueError(f"{study}: no complete games")
    if args.format == "json":
        return as_json({"study": str(study), "sources": SOURCES, "rows": found})
    return report(study)
