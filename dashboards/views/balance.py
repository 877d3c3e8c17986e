"""Balance: every game's balance metrics as it declares them (its declaration's ``balance``;
docs/balance.md), per player count, kind of game and study arm, never pooled: a verdict where
the game publishes a threshold, else the value and its 95% interval. A game that declares a
section of its own draws it (Mandate 2038: the designers' contract checks); a game that
declares no metric is said to have none.

Statistics: :mod:`ingest.balance` (every game), a game's own module where it declares one.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import filters, gameapps, queries, store, ui
from dashboards.balance_queries import CachedSource
from dashboards.charts import KIND_LABELS
from dashboards.queries import Filters
from engine.core.game import BalanceMetric, Vocabulary, resolve
from engine.core.registry import rulesets
from ingest import balance

#: a verdict's colour (Streamlit's coloured text)
VERDICT_COLOURS = {"within": "green", "outside": "red", "not enough games": "orange"}


def _kind(kind: str) -> str:
    base, arm = balance.split_kind(kind)
    return KIND_LABELS.get(base, base) + (f"{balance.ARM_MARK}{arm}" if arm else "")


def _num(v: float | None) -> str:
    return "–" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.3f}"


def _threshold(m: BalanceMetric) -> str:
    if m.threshold is None:
        return "no published threshold: the value and its 95% interval only"
    bound = "≤" if m.bound == "max" else "≥"
    return f"threshold {bound} {m.threshold:g}" + (f" ({m.source})" if m.source else "")


def _verdict(r: dict[str, Any]) -> str:
    v = str(r["verdict"])
    need = r.get("games_needed")
    return v + (f" (settled by ~{need:,} games)" if need is not None else "")


def key_words(game: str, key: str | None) -> str:
    """A metric's group key in words: each part (``competitive · seat 1``) by the game's
    vocabulary (endings, score sources, phases), its printed content names, else its id with
    spaces for underscores."""
    if key is None:
        return "all games"
    from dashboards.replay_view import content_names
    from engine.core.registry import get_ruleset

    rs = get_ruleset(game)
    names = content_names()
    words = []
    for part in str(key).split(" · "):
        label = None
        if rs is not None:
            for kind in ("end_conditions", "score_sources", "phases"):
                table = getattr(rs.vocabulary, kind)
                if part in table:
                    label = table[part]
                    break
        if label is None:
            label = names.get(part) or Vocabulary().label("score_sources", part)
        words.append(label)
    return " · ".join(words)


def metric_table(df: pl.DataFrame, game: str = "") -> pl.DataFrame:
    """One declared metric's rows as the page shows them (at most 8 columns)."""
    rows = [{"games from": _kind(str(r["kind"])), "players": r["player_count"],
             "group": key_words(game, r["key"]), "games": r["games"], "value": _num(r["value"]),
             "95% interval": ("–" if r["low"] is None or r["high"] is None
                              else f"{r['low']:.3f} to {r['high']:.3f}"),
             "verdict": _verdict(r)}
            for r in df.sort(["player_count", "kind", "key"], nulls_last=True)
            .iter_rows(named=True)]
    return pl.DataFrame(rows)


def _chart(df: pl.DataFrame, title: str, game: str = "") -> None:
    """Value and interval per group, one colour per kind of game and player count."""
    data = df.select(
        pl.col("key").map_elements(lambda k: key_words(game, k), return_dtype=pl.String,
                                   skip_nulls=False).alias("group"),
        (pl.col("kind").map_elements(_kind, return_dtype=pl.String) + " · "
         + pl.col("player_count").cast(pl.String) + "p").alias("games from"),
        "value", "low", "high").with_columns(pl.col(pl.Float64).fill_nan(None))
    y = {"field": "group", "type": "nominal", "title": None}
    colour = {"field": "games from", "type": "nominal", "title": "Games"}
    spec = {"title": title, "layer": [
        {"mark": {"type": "rule", "strokeWidth": 2},
         "encoding": {"x": {"field": "low", "type": "quantitative"}, "x2": {"field": "high"},
                      "y": y, "yOffset": {"field": "games from"}, "color": colour}},
        {"mark": {"type": "point", "filled": True, "size": 70},
         "encoding": {"x": {"field": "value", "type": "quantitative", "title": title},
                      "y": y, "yOffset": {"field": "games from"}, "color": colour,
                      "tooltip": [{"field": c, "title": t} for c, t in (
                          ("games from", "Games"), ("group", "Group"), ("value", "Value"),
                          ("low", "Interval low"), ("high", "Interval high"))]}}]}
    st.vega_lite_chart(data.to_arrow(), spec=spec, width="stretch")


def declared_section(game: str, db: Path, f: Filters) -> None:
    """A game's declared metrics on the selected games: per metric its definition, threshold,
    a table and (for a metric by group) a chart of the values and their intervals."""
    decl = balance.declaration(game)
    df = balance.metrics(game, CachedSource(db=db), f)
    title = gameapps.title(game)
    if df.is_empty():
        ui.empty_state(f"No complete {title} games match. " + ui.NO_GAMES)
        return
    counts = sorted({int(n) for n in df["player_count"].to_list()})
    st.caption(f"{title}: {len(decl.metrics)} metrics over the complete games of "
               + ", ".join(f"{n} players" for n in counts) + ", each player count and kind "
               "of game apart.")
    for m in decl.metrics:
        part = df.filter(pl.col("metric") == m.id)
        st.subheader(m.label)
        st.caption(f"{m.definition} ({_threshold(m)}.)")
        if part.is_empty():
            st.caption("No value in these games.")
            continue
        ui.show_table(metric_table(part, game), f"balance-{game}-{m.id}")
        if part["key"].n_unique() > 1:
            _chart(part, m.label, game)


def shown(db: Path, f: Filters) -> list[str]:
    """The installed games whose sections the page draws: those the Game filter chose (else
    every one) that are in the warehouse (the sidebar's choices, read already), and a game
    with a section of its own even when not (Mandate 2038's reads a study folder too). A
    game absent from the warehouse would only say it has no complete games, after a query
    per declared metric."""
    present = set(queries.filter_options(db)["games"])
    return [g for g in rulesets() if (not f.games or g in f.games)
            and (g in present or balance.declaration(g).section is not None)]


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    st.title("Balance")
    games = shown(db, f)
    if not games:  # none of the chosen games is in the warehouse: nothing to judge yet
        ui.empty_state(ui.NO_GAMES)
    if len(games) > 1:
        st.caption("Each game's balance metrics as it declares them (docs/balance.md), per "
                   "player count, kind of game and study arm, never pooled: a verdict where the "
                   "game publishes a threshold, else the value and its 95% interval.")
    for game in games:
        decl = balance.declaration(game)
        title = gameapps.title(game)
        if len(games) > 1:
            st.header(title, divider="gray")
        if decl.section is not None:
            resolve(decl.section)(db, f)
        elif decl.metrics:
            declared_section(game, db, f)
        else:
            ui.empty_state(f"{title} declares no balance metrics (a game declares them in its "
                           "declaration's `balance`: docs/balance.md).")
    filters.show_exclusions(db, f)


ui.guarded(render, reads_only=True)
