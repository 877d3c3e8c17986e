"""Pure frame shaping for the pages: ``frames -> frame``. No I/O, no Streamlit.

The pages keep only layout; the numbers they show are computed here so that tests can check
them against hand-computed values (e.g. 132 Mandate over 37 seat-games is 3.57, never 4).
"""

from __future__ import annotations

from functools import cache

import polars as pl

from dashboards.mandate2038.charts import ERA_LABELS, PHASE_NAMES, PHASE_SEQUENCE, SOURCE_NAMES

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


def source_names(ledger: pl.DataFrame) -> pl.DataFrame:
    """``ledger`` with ``source_name``: the printed name of each ledger source."""
    return ledger.with_columns(
        pl.col("source").replace_strict(SOURCE_NAMES, default=pl.col("source"))
        .alias("source_name"))


def _mean_per_seat(ledger: pl.DataFrame, seats: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    # ``seats``: one row per seat-game, or seat-games already counted (``seat_games``)
    seat_games = seats.group_by(by).agg(
        pl.col("seat_games").sum() if "seat_games" in seats.columns
        else pl.len().alias("seat_games"))
    return (
        ledger.group_by([*by, "source_name"])
        .agg(pl.col("mandate").cast(pl.Int64).sum().alias("mandate"))
        .join(seat_games, on=by)
        .with_columns((pl.col("mandate").cast(pl.Float64) / pl.col("seat_games"))
                      .round(2).alias("per_seat"))
    )


def mandate_by_faction(ledger: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """Mean Mandate per seat-game by faction and source (``per_seat``, two decimals), with the
    sum and the number of seat-games it is divided by. ``seats``: one row per seat-game
    (:func:`dashboards.mandate2038.queries.seats_in_games`) or counts (:func:`~dashboards.mandate2038.queries.seat_counts`)."""
    out = _mean_per_seat(source_names(ledger), seats, ["faction"])
    return out.select("faction", "source_name", "per_seat", "mandate", "seat_games").sort(
        ["faction", "source_name"])


def mandate_winners(ledger: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """Mean Mandate per seat-game by source, winners against the other seats."""
    out = _mean_per_seat(source_names(ledger), seats, ["winner"]).with_columns(
        pl.when(pl.col("winner")).then(pl.lit("Winners")).otherwise(pl.lit("Others"))
        .alias("group"))
    return out.select("group", "source_name", "per_seat", "mandate", "seat_games").sort(
        ["group", "source_name"], descending=[True, False])


def era_label(era: pl.Expr, source: pl.Expr) -> pl.Expr:
    """"Era I".."Era IV"; an entry with no Era is "Start" (starting Mandate) or "Final scoring"."""
    return (
        pl.when(era.is_null() & (source == "starting")).then(pl.lit("Start"))
        .when(era.is_null()).then(pl.lit("Final scoring"))
        .otherwise(pl.lit("Era ") + era.cast(pl.Int64).replace_strict(
            ROMAN, default=era.cast(pl.Utf8), return_dtype=pl.Utf8))
    )


def mandate_by_era(ledger: pl.DataFrame) -> pl.DataFrame:
    """Total Mandate by source in each Era, Eras in play order."""
    named = source_names(ledger).with_columns(
        era_label(pl.col("era"), pl.col("source")).alias("era_label"))
    order = {label: i for i, label in enumerate(ERA_LABELS)}
    return (
        named.group_by(["era_label", "source_name"])
        .agg(pl.col("mandate").cast(pl.Int64).sum().alias("mandate"))
        .with_columns(pl.col("era_label").replace_strict(order, default=len(order),
                                                         return_dtype=pl.Int64).alias("_o"))
        .sort(["_o", "source_name"]).drop("_o")
    )


def in_phase_order(summary: pl.DataFrame) -> pl.DataFrame:
    """A per-phase summary with phase names, rows in play order (as the chart draws them)."""
    if summary.is_empty():
        return summary
    order = {name: i for i, name in enumerate(PHASE_SEQUENCE)}
    rest = [c for c in summary.columns if c != "phase"]
    return (
        summary.with_columns(pl.col("phase").replace_strict(PHASE_NAMES, default=pl.col("phase")))
        .with_columns(pl.col("phase").replace_strict(order, default=len(order),
                                                     return_dtype=pl.Int64).alias("_o"))
        .sort(["_o", *[c for c in ("player_count",) if c in rest]]).drop("_o")
    )


@cache
def content_names() -> dict[str, str]:
    """Mandate 2038's content id -> printed name (Headlines, Era Mandates, Training cards,
    tiles, factions): its declaration's ``content_names``."""
    try:
        from engine.mandate2038.ruleset import RULESET
        from schemas.packs import load_pack

        p = load_pack("mandate2038", RULESET.rules_versions[0])
    except Exception:
        return {}
    out: dict[str, str] = {}
    for group in ("headlines", "era_mandates", "training_deck", "tiles", "factions"):
        for item in getattr(p, group, []) or []:
            if getattr(item, "id", None) and getattr(item, "name", None):
                out.setdefault(item.id, item.name)
    return out
