"""Mandate 2038's parts of the app: replay panel, recorder, and its sections of the shared
Scoring sources, End conditions and Duration pages (:mod:`dashboards.gameapps`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import (
    charts,
    queries,
    replay_view,
    stats,
    ui,
)
from dashboards.filters import SESSION_TYPE_LABELS
from dashboards.mandate2038 import charts as mandate_charts
from dashboards.mandate2038 import hexmap, tables
from dashboards.mandate2038 import queries as mandate_queries
from dashboards.queries import Filters

#: the observation protocol its sessions are scored against
PROTOCOL = "mandate2038-observation"
#: minutes at four players: a hypothesis (FACTS.md §10, §11.4)
HYPOTHESIS = (75.0, 100.0)
SCORING_CAPTION = ("Every Mandate change from the engine's score ledger: starting Mandate, Customers, "
    "Capability and Trust thresholds, Era Mandates, Headlines, Fusion, faction abilities and "
    "the offline penalty. Values are means per seat-game (a seat in one game).")
ENDINGS_CAPTION = ("AGI emerges only when a fully paid Publication claim with two supported modules wins. "
    "The ending is Open only if final Collective Trust reaches Setup Collective Trust plus the "
    "player count and unresolved Systemic Risk stays below the player count (core rules §11).")
DURATION_CAPTION = ("Human playtests only unless asked otherwise: bot and LLM sessions cannot estimate human "
    "play time, and illustrative examples have made-up times. The green band is the designers' hypothesis of 75-100 minutes at four players; "
    "three- and five-player durations need their own blind tests. Intervals are 95% "
    "t-intervals of the mean.")
MEAN_COLUMNS = {
    "faction": "Faction", "source_name": "Source", "group": "Seats",
    "per_seat": st.column_config.NumberColumn("Mean Mandate per seat-game", format="%.2f"),
    "mandate": st.column_config.NumberColumn("Mandate (sum)", format="%d"),
    "seat_games": st.column_config.NumberColumn("Seat-games", format="%d"),
}


def minutes_columns(unit: str) -> dict[str, object]:
    """Headers of a summary table: the mean and its interval, in ``unit``."""
    num = st.column_config.NumberColumn
    return {"mean": num(f"Mean ({unit})", format="%.1f"),
            "median": num(f"Median ({unit})", format="%.1f"),
            "low": num(f"95% interval of the mean: from ({unit})", format="%.1f",
                       help="None with a single game: one game gives no interval"),
            "high": num(f"to ({unit})", format="%.1f")}


def event_label(ev: Any) -> str:
    """One Mandate 2038 event in words."""
    return replay_view.event_label(ev)


def replay_panel(gid: str, log: Any, pos: int, result: Any, rs: Any) -> None:
    """The map, seats, score ledger and findings after event ``pos``."""
    state = result.state
    left, right = st.columns([3, 2])
    with left:
        names = {}
        pack = getattr(state, "pack", None)
        for t in getattr(pack, "tiles", []) or []:
            names[t.id] = t.name
        svg = hexmap.render_svg(hexmap.board_view(state), names, replay_view.content_names())
        st.image(svg, caption=f"Map after event {pos}" if pos >= 0 else "Map after setup",
                 width="stretch")
        st.download_button("Map as SVG", svg, file_name=f"map-{gid}-{pos}.svg",
                           mime="image/svg+xml", key="rv_svg", on_click="ignore")
    with right:
        era, cycle = getattr(state, "era", None), getattr(state, "cycle", None)
        st.markdown(f"**Era** {replay_view.ROMAN.get(era or 0, str(era or '-'))} · **cycle** {cycle or '-'}"
                    f" · **phase** {ui.words(getattr(state, 'phase', None))} · **Initiative** seat "
                    f"{getattr(state, 'initiative', '?')}")
        seats = replay_view.seat_table(state)
        ui.table(seats)
        ledger = replay_view.ledger_table(result)
        st.markdown("**Score ledger so far**")
        if ledger.is_empty():
            st.caption("No Mandate changes yet.")
        else:
            totals = ledger.group_by("seat").agg(pl.col("amount").sum().alias("mandate")).sort("seat")
            ui.table(totals, width="content")
            with st.expander(f"{ledger.height} ledger entries"):
                ui.table(ledger)
        found = [f for f in result.findings]
        st.markdown(f"**Findings so far**: {len(found)}")
        if found:
            table = replay_view.findings_table(found)
            ui.table(table, column_config={"message": st.column_config.TextColumn(
                "Message", width="large")})
    snap = rs.snapshot if rs is not None else None
    if callable(snap):
        with st.expander("Engine snapshot (JSON)"):
            try:
                st.json(json.loads(json.dumps(snap(state), default=str)))
            except Exception as err:
                st.caption(f"snapshot unavailable: {err}")




def scoring(db: Path, f: Filters) -> None:
    """Mandate 2038's Scoring sources section: the score ledger by source, faction, Era."""
    st.caption(SCORING_CAPTION)
    ledger = mandate_queries.ledger_by_source(db, f)
    seats = mandate_queries.seat_counts(db, f)  # seat-games per kind, faction and winner flag
    if ledger.is_empty() or seats.is_empty():
        ui.empty_state("No score ledger for the matching games. " + ui.NO_GAMES)
        return
    # one kind of game at a time: bot, human and illustrative games are never pooled
    counts = mandate_queries.kind_sizes(db, f)
    kind = ui.pick_kind({r["kind"]: f"{ui.plural(r['games'], 'game')}, "
                         f"{ui.plural(r['seats'], 'seat-game')}" for r in counts.iter_rows(named=True)},
                        "score_kind")
    ledger = ledger.filter(pl.col("kind") == kind)
    seats = seats.filter(pl.col("kind") == kind)
    ledger = ui.with_names(ledger, "faction")
    seats = ui.with_names(seats, "faction")
    by_faction = tables.mandate_by_faction(ledger, seats)
    ui.show_chart(mandate_charts.ledger_by_faction(by_faction), "mandate-by-faction")
    ui.show_table(by_faction, "mandate-by-faction", column_config=MEAN_COLUMNS)

    by_era = tables.mandate_by_era(ledger)
    ui.show_chart(mandate_charts.ledger_by_era(by_era), "mandate-by-era")

    win = tables.mandate_winners(ledger, seats)
    ui.show_chart(mandate_charts.ledger_winners(win), "mandate-winners-vs-others")
    ui.show_table(win, "mandate-winners-vs-others", column_config=MEAN_COLUMNS)



def endings(db: Path, f: Filters) -> None:
    """Mandate 2038's End conditions section: World Endings, AGI, claims and the Open test."""
    st.caption(ENDINGS_CAPTION)
    # every figure and chart below from the complete games counted in SQL (one row per kind,
    # ending, facet values and Open test margins), the outcomes table from its first rows
    counted = mandate_queries.ending_counts(db, f)
    if counted.is_empty():
        ui.empty_state("No complete games match. " + ui.NO_GAMES)
        return
    per_kind = counted.group_by("kind").agg(pl.col("games").sum())
    kind = ui.pick_kind({r["kind"]: ui.plural(int(r["games"]), "complete game")
                         for r in per_kind.iter_rows(named=True)}, "end_kind")
    ends = counted.filter(pl.col("kind") == kind)
    n = int(ends["games"].sum())
    agi = int(ends.filter(pl.col("agi").fill_null(False))["games"].sum())
    opened = int(ends.filter(pl.col("open").fill_null(False))["games"].sum())
    lo, hi = stats.wilson(agi, n)
    olo, ohi = stats.wilson(opened, n)
    c = st.columns(3)
    c[0].metric("Complete games", n)
    c[1].metric("AGI emergence rate", f"{agi / n:.0%}", help=f"95% Wilson interval {lo:.0%}-{hi:.0%}")
    c[2].metric("Open endings", f"{opened / n:.0%}", help=f"95% Wilson interval {olo:.0%}-{ohi:.0%}")
    st.caption(f"AGI {agi}/{n} (95% interval {lo:.0%}-{hi:.0%}); Open {opened}/{n} "
               f"(95% interval {olo:.0%}-{ohi:.0%}).")
    if n < stats.MIN_GAMES_WARNING:
        st.warning(f"Only {ui.plural(n, 'complete game')}: these frequencies are indicative, "
                   "not a finding.", icon=":material/warning:")
    facet = st.selectbox("Split by", ["player_count", "profile", "session_type"],
                         key="end_facet", format_func=lambda v: v.replace("_", " "))
    counts = ending_shares(ends, facet)
    ui.show_chart(mandate_charts.endings_chart(counts, facet), f"endings-by-{facet}")
    ui.show_table(counts, f"endings-by-{facet}")

    st.subheader("The Open test's margins")
    ui.show_chart(mandate_charts.open_margins_chart(ui.readable(margin_points(ends))),
                  "open-test-margins")
    # the kind's share of every game stored sizes the first rows read (the sidebar's count)
    share = n / max(1, queries.filter_options(db)["n_games"])
    first, names = ui.split_names(mandate_queries.endings(db, f, kind, ui.TABLE_ROWS, names=True,
                                                          share=share))
    ui.show_table(first.drop("kind"), "outcomes", total=n, names=names,
                  full=lambda: mandate_queries.endings(db, f, kind).drop("kind"))

    st.subheader("Claim strengths")
    strengths = mandate_queries.claim_strengths(db, f)  # counted in SQL
    strengths = (strengths.filter(pl.col("kind") == kind).drop("kind")
                 if not strengths.is_empty() else strengths)
    if strengths.is_empty():
        ui.empty_state("No Dossier claims recorded in the matching games.")
    else:
        ui.show_chart(mandate_charts.claim_strength_chart(strengths), "claim-strengths")
        first, names = ui.split_names(mandate_queries.claims(db, f, kind, ui.TABLE_ROWS,
                                                             names=True, share=share))
        ui.show_table(ui.with_names(first.drop("kind"), "faction"), "claims", names=names,
                      total=int(strengths["claims"].sum()),
                      full=lambda: ui.with_names(mandate_queries.claims(db, f, kind).drop("kind"),
                                                 "faction"))



def ending_shares(ends: pl.DataFrame, facet: str) -> pl.DataFrame:
    """Complete games per ending (in words) and value of ``facet``, with each ending's share of
    the facet value's games (``ends``: :func:`~dashboards.mandate2038.queries.ending_counts`)."""
    return (
        ends.with_columns(
            pl.col("ending").replace_strict(mandate_charts.ENDING_NAMES, default=pl.col("ending"))
            .fill_null("(not recorded)").alias("ending_name"),
            pl.col(facet).cast(pl.Utf8).replace_strict(SESSION_TYPE_LABELS, default=pl.col(facet).cast(pl.Utf8)),
        )
        .group_by(["ending_name", facet]).agg(pl.col("games").sum().cast(pl.Int64))
        .with_columns((pl.col("games") / pl.col("games").sum().over(facet)).round(3).alias("share"))
        .sort(["ending_name", facet])
    )


def margin_points(ends: pl.DataFrame) -> pl.DataFrame:
    """The Open test's chart: complete games counted per kind, Open result and the two margins
    (``ends``: :func:`~dashboards.mandate2038.queries.ending_counts`)."""
    return (ends.group_by(["kind", "open", "trust_margin", "risk_margin"])
            .agg(pl.col("games").sum().cast(pl.Int64))
            .sort(["kind", "open", "trust_margin", "risk_margin"], nulls_last=True))


def duration(db: Path, f: Filters, include: bool) -> None:
    """Mandate 2038's Duration section: total, per-phase and per-turn minutes."""
    st.caption(DURATION_CAPTION)
    # summarised in SQL: the statistics from each player count's moments (the same figures as
    # stats.summarise on every game's minutes) and the chart's games counted per player count,
    # kind and whole minute; only one-game circles name their game
    moments = queries.duration_moments(db, f, include)
    if moments.is_empty():
        ui.empty_state(
            "No timed game matches." + ("" if include else
                                        " Only human playtests count here; tick **Include "
                                        "other sessions** to see simulated, walkthrough and "
                                        "illustrative games.") + " " + ui.NO_GAMES.replace(
                "No games match. ", ""))
        return
    summary = stats.summary_from_moments(moments, ["player_count"])
    points = duration_points(db, f, include)
    ui.show_chart(mandate_charts.duration_chart(points, summary, HYPOTHESIS), "duration-total")
    small = summary.filter(pl.col("n") < stats.MIN_GAMES_WARNING)
    if not small.is_empty():
        st.warning(
            "Small samples: "
            + ", ".join(f"{r['player_count']} players n={r['n']}" for r in small.iter_rows(named=True))
            + f" (fewer than {stats.MIN_GAMES_WARNING} games: intervals are wide; treat as "
            "indicative).",
            icon=":material/warning:",
        )
    st.subheader("Total minutes by player count")
    ui.show_table(summary, "duration-summary", column_config=minutes_columns("minutes"))

    st.subheader("Per phase")
    st.caption("Setup, each Era, and the Production, Audit and scoring steps (summed over the "
               "game's four Eras), per game.")
    phases = queries.phase_moments(db, f, include)  # summed per game, summarised in SQL
    if phases.is_empty():
        ui.empty_state("No phase times recorded in the matching games.")
    else:
        psum = tables.in_phase_order(stats.summary_from_moments(phases, ["phase", "player_count"]))
        ui.show_chart(mandate_charts.phase_chart(psum), "duration-phases")
        ui.show_table(psum, "duration-phases", column_config=minutes_columns("minutes"))

    st.subheader("Per turn")
    turns = queries.turn_time_stats(db, f, include)
    if turns["boxes"].is_empty():
        ui.empty_state("No per-turn times recorded in the matching games.")
    else:
        ui.show_chart(charts.turn_time_chart(_actions(turns["boxes"])), "duration-turns")
        ui.show_table(stats.summary_from_moments(_actions(turns["moments"]), ["action"]),
                      "turn-times", column_config=minutes_columns("seconds"))


def duration_points(db: Path, f: Filters, include: bool) -> pl.DataFrame:
    """The Duration chart's circles (:func:`~dashboards.mandate2038.queries.duration_points`),
    a one-game circle's ``game_id`` as the game's name (only those games are looked up)."""
    points = mandate_queries.duration_points(db, f, include)
    ids = points["game_id"].drop_nulls().unique().to_list()
    if not ids:
        return points
    names = ui.game_name_frame(ids)
    return points.with_columns(pl.col("game_id").replace_strict(
        names["game_id"], names["name"], default=pl.col("game_id"), return_dtype=pl.Utf8))


def _actions(df: pl.DataFrame) -> pl.DataFrame:
    """The ``action`` column by its printed name (a program's, a card's), else in words."""
    return ui.with_names(df, "action").with_columns(
        pl.col("action").map_elements(ui.words, return_dtype=pl.Utf8))

