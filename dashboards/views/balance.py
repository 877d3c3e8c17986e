"""Balance: win shares by faction and seat, Era II leader conversion, action-choice entropy."""

from __future__ import annotations

import math

import polars as pl
import streamlit as st

from dashboards import charts, filters, queries, stats, store, ui

st.title("Balance")
st.caption(
    "Against the designers' provisional thresholds (balance contract "
    "strategic-unsolvability-v3, FACTS.md §11.5): seat win-share spread <= 0.10, faction "
    "spread <= 0.15, Era II leader conversion <= 0.72, action-choice entropy >= 0.72. "
    "Human and simulated games are shown side by side, never pooled. Intervals are 95% Wilson."
)


def _verdict(value: float, limit: float, upper: bool, n: int) -> str:
    if math.isnan(value):
        return "not enough data"
    ok = value <= limit if upper else value >= limit
    note = "" if n >= stats.MIN_GAMES_WARNING else f" (only {n} games: indicative)"
    return ("within threshold" if ok else "OUTSIDE threshold") + note


def _shares_by_kind(seats: pl.DataFrame, by: str) -> pl.DataFrame:
    parts = []
    for (kind,), part in seats.group_by(["kind"], maintain_order=True):
        ws = stats.win_shares(part, by)
        if not ws.is_empty():
            parts.append(ws.with_columns(pl.lit(kind).alias("kind")))
    return pl.concat(parts) if parts else pl.DataFrame()


def _spread_table(shares: pl.DataFrame, games: pl.DataFrame, limit: float) -> pl.DataFrame:
    rows = []
    for (kind,), part in shares.group_by(["kind"], maintain_order=True):
        n = int(games.filter(pl.col("kind") == kind)["game_id"].n_unique())
        sp = stats.spread(part)
        # the widest spread the 95% intervals allow: a cautious bound, not an equivalence test
        wide = (float(part["high"].max()) - float(part["low"].min())  # type: ignore[arg-type]
                if part.height >= 2 else math.nan)
        rows.append({"kind": kind, "games": n, "spread": None if math.isnan(sp) else round(sp, 3),
                     "spread_upper_bound": None if math.isnan(wide) else round(wide, 3),
                     "threshold": limit, "verdict": _verdict(sp, limit, True, n),
                     "within_even_at_interval_ends": (not math.isnan(wide)) and wide <= limit})
    return pl.DataFrame(rows)


def render() -> None:
    db = store.db_path()
    f = filters.sidebar(db)
    th = stats.thresholds()
    seats = queries.seats_in_games(db, f)
    if not seats.is_empty():
        seats = seats.filter(pl.col("complete").fill_null(False))
    if seats.is_empty():
        ui.empty_state("No complete games match. " + ui.NO_GAMES)
        filters.show_exclusions(db, f)
        return
    seats = ui.with_names(seats, "faction")
    counts = sorted(seats["player_count"].unique().to_list())
    if len(counts) > 1:
        st.info(f"The selection mixes player counts {counts}; even shares differ by count (the "
                "black tick marks each group's expected share). Four players is the balance "
                "authority: filter to one count for a clean comparison.", icon=":material/info:")

    st.caption("Verdicts compare point estimates with the thresholds. The designers' "
               "qualification needs equivalence intervals inside the tolerances (FACTS.md "
               "§11.5: non-significance alone is insufficient). `spread_upper_bound` is the "
               "widest spread the 95% intervals allow (highest upper end minus lowest lower "
               "end); only when it is within the threshold does the sample support balance.")
    st.subheader("Win share by faction")
    fac = _shares_by_kind(seats, "faction")
    ui.show_chart(charts.win_share_chart(fac, "faction", "Win share by faction (95% Wilson)"),
                  "win-share-faction")
    st.dataframe(_spread_table(fac, seats, th["factionWinShareRangeMax"]), hide_index=True)
    ui.show_table(fac, "win-share-faction")

    st.subheader("Win share by seat")
    seat_df = _shares_by_kind(seats.with_columns(pl.col("seat").cast(pl.Utf8)), "seat")
    ui.show_chart(charts.win_share_chart(seat_df, "seat", "Win share by seat (95% Wilson)"),
                  "win-share-seat")
    st.dataframe(_spread_table(seat_df, seats, th["seatWinShareRangeMax"]), hide_index=True)
    ui.show_table(seat_df, "win-share-seat")

    st.subheader("Era II leader conversion")
    # counted in DuckDB (queries.era_two_leader_summary equals stats.leader_conversion per kind)
    lead = queries.era_two_leader_summary(db, f)
    rows = []
    for kind, games, converted, ties in lead.iter_rows() if not lead.is_empty() else []:
        conv = stats.conversion(int(games), int(converted), int(ties))
        rows.append({"kind": kind, **conv, "threshold": th["roundTwoLeaderConversionMax"],
                     "verdict": _verdict(conv["rate"], th["roundTwoLeaderConversionMax"], True,
                                         conv["games"])})
    if rows:
        st.dataframe(pl.DataFrame(rows), hide_index=True)
        st.caption("Share of games whose sole Mandate leader at the end of Era II won; games "
                   "with a tied lead are counted under `ties` and left out.")
    else:
        ui.empty_state("No Era II end states recorded in the matching complete games.")

    st.subheader("Action-choice entropy")
    sel = queries.selections(db, f)
    if sel.is_empty():
        ui.empty_state("No selections recorded in the matching games.")
    else:
        erows = []
        for (kind,), part in sel.group_by(["kind"], maintain_order=True):
            core = part.filter(pl.col("pick_kind") == "core")
            c_counts = dict(core.group_by("pick").len().iter_rows())
            a_counts = dict(part.group_by("pick").len().iter_rows())
            h_core = stats.normalised_entropy(c_counts, 6)
            erows.append({
                "kind": kind, "selections": part.height,
                "core_entropy": round(h_core, 3),
                "all_picks_entropy": round(stats.normalised_entropy(a_counts, 12), 3),
                "threshold": th["actionEntropyMin"],
                "verdict": _verdict(h_core, th["actionEntropyMin"], False,
                                    part["game_id"].n_unique()),
            })
        st.dataframe(pl.DataFrame(erows), hide_index=True)
        st.caption("Normalised Shannon entropy: of Core Action selections over the six Core "
                   "Actions (compared with the threshold), and of all selections over the six "
                   "Core Actions and six Programs.")
        shares = (sel.group_by(["kind", "pick"]).len("n")
                  .with_columns((pl.col("n") / pl.col("n").sum().over("kind")).round(3)
                                .alias("share")))
        ui.show_chart(charts.selection_share_chart(shares), "selection-shares")
    filters.show_exclusions(db, f)


ui.guarded(render)
