"""``playtest calibrate STUDY``: a study's balance figures beside the designers' published ones.

The figures are computed by the Balance page's own queries (``dashboards.balance_queries``, the
designers' definitions; docs/balance.md) on the study's Parquet tables, separately for each
policy the study played (``games.policy``: all-greedy or all-weighted line-ups) and each player
count. AGI emergence and Open are the share of complete games whose outcome says so.

The designers' figures are those of their exact-ecology precision confirmation (2026-08-15,
executable 0.14.7, 25,440 matrix matches over four backend regimes), quoted in issue 7:
``DESIGNERS`` below. They pooled greedy, weighted and alternating backends; we report each
homogeneous policy separately (the issue asks for all-greedy and all-weighted line-ups).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

#: the designers' exact-ecology precision confirmation, by player count (None: not published)
DESIGNERS: dict[str, dict[int, float | None]] = {
    "agi": {3: 0.1547, 4: 0.1802, 5: 0.2148},
    "open": {3: 0.995, 4: 0.995, 5: 0.995},  # "99-100%"
    "faction_win_share_range": {3: 0.0882, 4: 0.1094, 5: 0.1036},
    "seat_win_share_range": {3: 0.0091, 4: 0.0076, 5: 0.0238},
    "profile_win_share_range": {3: 0.1257, 4: 0.1233, 5: 0.1049},
    "action_entropy": {3: 0.904, 4: 0.904, 5: 0.904},  # 0.9033-0.9047
    "opening_entropy": {3: 0.718, 4: 0.718, 5: 0.718},  # 0.7171-0.7185
    "opening_top_share": {3: 0.056, 4: 0.056, 5: 0.056},  # "at most 5.6%"
    "winning_path_entropy": {3: 0.6712, 4: 0.6345, 5: 0.6058},
    "round_two_leader_conversion": {3: None, 4: None, 5: None},
}

ROWS: list[tuple[str, str, str]] = [
    ("agi", "AGI emergence", "%"),
    ("open", "Open ending", "%"),
    ("faction_win_share_range", "Faction spread (win-share range)", "pp"),
    ("seat_win_share_range", "Seat spread by turn order", "pp"),
    ("profile_win_share_range", "Profile spread", "pp"),
    ("action_entropy", "Action entropy", ""),
    ("opening_entropy", "Opening entropy", ""),
    ("opening_top_share", "Opening top share", "%"),
    ("winning_path_entropy", "Winning-path entropy", ""),
    ("winning_path_top_share", "Winning-path top share", "%"),
    ("round_two_leader_conversion", "Era II leader conversion", "%"),
    ("forced_no_op_rate", "Forced no-op rate", "%"),
]


def _fmt(v: float | None, unit: str) -> str:
    if v is None:
        return "—"
    if unit in ("%", "pp"):
        return f"{100 * v:.1f}{'%' if unit == '%' else ' pp'}"
    return f"{v:.3f}"


def _policy_view(study: Path, policy: str, tmp: Path) -> Path:
    """A folder of links to the study's files of one policy (batch files start with it)."""
    view = tmp / policy
    for table in study.iterdir():
        if not table.is_dir() or table.name.startswith("_"):
            continue
        files = sorted(table.glob(f"{policy}-*.parquet"))
        if files:
            (view / table.name).mkdir(parents=True, exist_ok=True)
            for f in files:
                os.symlink(f.resolve(), view / table.name / f.name)
    return view


def figures(study: Path) -> dict[str, dict[int, dict[str, Any]]]:
    """policy -> player count -> metric -> (value, low, high, games) for the study."""
    import duckdb

    from dashboards import balance_queries as bq
    from dashboards.filters import Filters

    con = duckdb.connect()
    try:
        rows = con.execute(
            "SELECT policy, player_count, count(*), avg(o.agi::INT), avg(o.open::INT) "
            "FROM read_parquet(?) g JOIN read_parquet(?) o USING (game_id) "
            "WHERE g.complete GROUP BY ALL ORDER BY ALL",
            [str(study / "games" / "*.parquet"), str(study / "outcomes" / "*.parquet")],
        ).fetchall()
    finally:
        con.close()
    out: dict[str, dict[int, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as td:
        for policy, n, games, agi, is_open in rows:
            view = _policy_view(study, policy, Path(td)) if not (Path(td) / policy).exists() else Path(td) / policy
            m = bq.metrics(bq.Source(study=view), Filters(player_counts=(int(n),)))
            cell: dict[str, Any] = {"games": int(games), "agi": (float(agi), None, None),
                                    "open": (float(is_open), None, None)}
            for r in m.iter_rows(named=True):
                cell[r["metric"]] = (r["value"], r["low"], r["high"])
            out.setdefault(policy, {})[int(n)] = cell
        if len(out) > 1:  # every policy together, as the designers pooled their backend regimes
            pooled: dict[int, dict[str, Any]] = {}
            for n in sorted({n for by_n in out.values() for n in by_n}):
                m = bq.metrics(bq.Source(study=study), Filters(player_counts=(n,)))
                cells = [by_n[n] for by_n in out.values() if n in by_n]
                games = sum(c["games"] for c in cells)
                cell = {"games": games}
                for key in ("agi", "open"):
                    cell[key] = (sum(c[key][0] * c["games"] for c in cells) / games, None, None)
                for r in m.iter_rows(named=True):
                    cell[r["metric"]] = (r["value"], r["low"], r["high"])
                pooled[n] = cell
            out["pooled (every policy)"] = pooled
    return out


def report(study: Path) -> str:
    """Markdown tables: per policy, each metric at 3/4/5 players, ours beside the designers'."""
    figs = figures(study)
    lines = [f"Study `{study}`; designers: exact-ecology precision confirmation (2026-08-15)."]
    for policy, by_n in sorted(figs.items()):
        counts = sorted(by_n)
        lines += ["", f"**{policy}** line-ups ("
                  + ", ".join(f"{by_n[n]['games']} games at {n}" for n in counts) + ")", ""]
        head = "| metric | " + " | ".join(f"{n}p ours | {n}p designers" for n in counts) + " |"
        lines += [head, "|---|" + "---:|---:|" * len(counts)]
        for key, name, unit in ROWS:
            cells = []
            for n in counts:
                v = by_n[n].get(key)
                ours = _fmt(v[0] if v else None, unit)
                if v and v[1] is not None and v[2] is not None and unit != "%":
                    ours += f" ({_fmt(v[1], unit)}–{_fmt(v[2], unit)})"
                cells += [ours, _fmt(DESIGNERS.get(key, {}).get(n), unit)]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
