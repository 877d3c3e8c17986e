"""Vestige's parts of the app: replay panel, recorder, its sections of the shared Scoring
sources, End conditions and Duration pages, and its own page (modes and nemeses).

Every section shows one kind of game at a time (human playtests, walkthroughs, illustrative
examples, simulations: :func:`dashboards.ui.pick_kind`), never pooled: the bundled Vestige
samples are illustrative walkthroughs, and a rate from them is labelled so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import replay_view, stats, ui
from dashboards.queries import Filters
from dashboards.vestige import charts as vc
from dashboards.vestige import map as vm
from dashboards.vestige import queries as vq
from dashboards.vestige.labels import words

#: the observation protocol its sessions are scored against
PROTOCOL = "vestige-observation"


def event_label(ev: Any) -> str:
    """One Vestige event in words (:mod:`dashboards.vestige.labels`)."""
    from dashboards.vestige.labels import event_label as label

    return label(ev)


def replay_panel(gid: str, log: Any, pos: int, result: Any, rs: Any) -> None:
    """The map (declared geometry), the seats, nemeses and findings after event ``pos``."""
    snap = rs.snapshot(result.state)
    caption = f"Round {snap.get('round') or '(setup)'}, " + (
        f"after event {pos}" if pos >= 0 else "after setup")
    svg = vm.render_svg(snap, caption)
    left, right = st.columns([3, 2])
    with left:
        st.image(svg, caption=caption, width="stretch")
        st.caption("Tiles: grey while face down; a thick border in the controller's colour; "
                   "numbered dots are the pawn spaces; pawns carry their seat number. The map "
                   "mat is not printed in the rulebook: its geometry is declared "
                   "(docs/vestige.md).")
        st.download_button("Map as SVG", svg, file_name=f"vestige-map-{gid}-{pos}.svg",
                           mime="image/svg+xml", key="rv_svg", on_click="ignore")
    with right:
        st.dataframe(pl.DataFrame([
            {"Seat": s["seat"], "Colour": words(s["colour"]), "Leverage": s["leverage"],
             "Speed": s["speed"], "Space": "not placed" if s["space"] is None else str(s["space"]),
             "Regions": len(s["regions"]),
             "Cards": len(s["cards"])} for s in snap.get("seats", [])]), hide_index=True)
        if snap.get("nemeses"):
            st.dataframe(pl.DataFrame([
                {"Nemesis": words(n.get("name")), "Leverage": n.get("leverage"),
                 "Threat": n.get("threat"), "Regions": len(n.get("regions") or [])}
                for n in snap["nemeses"]]), hide_index=True)
        met = [words(c) for c in snap.get("endgame_met") or []]
        st.write("Endgame conditions met: " + (", ".join(met) or "none yet"))
        found = list(result.findings)
        st.markdown(f"**Findings so far**: {len(found)}")
        if found:
            ui.table(replay_view.findings_table(found))


def pick_kind(db: Path, f: Filters, key: str) -> str | None:
    """One kind of Vestige game at a time (None when no game matches)."""
    games = vq.games(db, f)
    if games.is_empty():
        return None
    sizes = games.group_by("kind").len()
    return ui.pick_kind({r["kind"]: ui.plural(int(r["len"]), "game")
                         for r in sizes.iter_rows(named=True)}, key)


def _one_kind(df: pl.DataFrame, kind: str) -> pl.DataFrame:
    return df.filter(pl.col("kind") == kind) if not df.is_empty() else df


def _per_seat(ledger: pl.DataFrame, seats: pl.DataFrame, by: str) -> pl.DataFrame:
    """Leverage per seat-game by source and ``by``: the mean is over every seat-game in
    ``seats`` (a seat that gained nothing from a source counts as 0 there, not as missing)."""
    seat_games = seats.select("game_id", "seat", by).unique().group_by(by).agg(
        pl.len().alias("seat_games"))
    return (
        ledger.group_by([by, "source"]).agg(pl.col("leverage").sum())
        .join(seat_games, on=by)
        .with_columns((pl.col("leverage") / pl.col("seat_games")).round(2).alias("per_seat"),
                      pl.col("source").replace_strict(vq.SOURCE_NAMES, default=pl.col("source"))
                      .alias("source_name"),
                      pl.col(by).cast(pl.Utf8))
        .sort([by, "source"])
    )


def scoring(db: Path, f: Filters) -> None:
    """Where leverage comes from (the engine's ledger grouped by source)."""
    st.caption("Every leverage gain the engine replayed: regions (endgame value of regions "
               "controlled), control (taking a region; the controller's leverage when others "
               "visit it), cards, the speed track, bounties, covert ops and mastery (rulebook "
               "pp. 10-25). Values are means per seat-game (one seat in one game).")
    kind = pick_kind(db, f, "vlev_kind")
    ledger = _one_kind(vq.leverage_by_source(db, f), kind or "")
    if kind is None or ledger.is_empty():
        ui.empty_state("No Vestige leverage ledger for the matching games.")
        return
    seats = _one_kind(vq.seats(db, f), kind).select("game_id", "seat", "player_count",
                                                     pl.col("winner").fill_null(False))
    by_players = _per_seat(ledger, seats, "player_count")
    ui.show_chart(vc.leverage_sources(by_players, "player_count",
                                      "Leverage per seat-game by source and player count"),
                  "vestige-leverage-by-players")
    ui.show_table(by_players.drop("source"), "vestige-leverage-by-players")
    def grouped(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.with_columns(pl.when(pl.col("winner")).then(pl.lit("Winners"))
                                  .otherwise(pl.lit("Others")).alias("group"))

    win = _per_seat(grouped(ledger), grouped(seats), "group")
    ui.show_chart(vc.leverage_sources(win, "group", "Winners vs others: leverage by source"),
                  "vestige-leverage-winners")
    ui.show_table(win.drop("source"), "vestige-leverage-winners")

    st.subheader("Regions")
    regions = _one_kind(vq.regions(db, f), kind)
    if regions.is_empty():
        ui.empty_state("No region rows for the matching games.")
        return
    per_region = (regions.filter(pl.col("region").is_not_null())
                  .group_by("region").agg(pl.col("visits").sum(),
                                          pl.col("control_changes").sum(),
                                          pl.col("visit_leverage").sum(),
                                          pl.len().alias("games"))
                  .sort("visits", descending=True))
    ui.show_chart(vc.region_chart(per_region), "vestige-regions")
    ui.show_table(per_region.with_columns(pl.col("region").map_elements(
        words, return_dtype=pl.Utf8)), "vestige-regions")


def endings(db: Path, f: Filters) -> None:
    """Which endgame conditions end games and when; mastery (rulebook p. 25)."""
    st.caption("As soon as 2 endgame conditions are met (3 solo) the next round is the final "
               "one; a met condition cannot be unmet. 'Triggered' counts the conditions that "
               "made that count. Mastery: the most cards of a colour claims its tile; a tie "
               "leaves it unclaimed; incomplete jobs do not count (p. 25).")
    kind = pick_kind(db, f, "vend_kind")
    cond = _one_kind(vq.endgame_conditions(db, f), kind or "")
    if kind is None or cond.is_empty():
        ui.empty_state("No Vestige endgame conditions recorded in the matching games.")
        return
    enders = (cond.group_by("condition")
              .agg(pl.col("met").fill_null(False).sum().alias("met"),
                   pl.col("triggered_final").fill_null(False).sum().alias("triggered"),
                   pl.len().alias("revealed"))
              .sort("triggered", descending=True))
    ui.show_chart(vc.endgame_enders(enders), "vestige-endgame-enders")
    ui.show_table(enders, "vestige-endgame-enders")
    games = (cond.select("game_id", "final_round", "player_count").unique()
             .filter(pl.col("final_round").is_not_null()))
    if not games.is_empty():
        hist = (games.group_by(["final_round", "player_count"]).agg(pl.len().alias("games"))
                .sort(["final_round", "player_count"]))
        st.caption("The round in which the final round was triggered is the one before it.")
        ui.show_chart(vc.final_round_histogram(hist), "vestige-final-round")
    met = cond.filter(pl.col("met").fill_null(False) & pl.col("met_round").is_not_null())
    if not met.is_empty():
        ui.show_chart(vc.met_round_chart(ui.named_games(met)), "vestige-met-round")

    st.subheader("Mastery")
    m = _one_kind(vq.mastery(db, f), kind)
    if m.is_empty():
        ui.empty_state("No mastery rows in the matching games.")
        return
    per = (m.group_by(["game_id", "colour"])
           .agg(pl.col("claimed").any().alias("claimed"), pl.col("cards").max().alias("top"))
           .with_columns(pl.when(pl.col("claimed")).then(pl.lit("claimed"))
                         .when(pl.col("top") > 0).then(pl.lit("tied: unclaimed"))
                         .otherwise(pl.lit("no cards")).alias("outcome")))
    dist = (per.group_by(["colour", "outcome"]).agg(pl.len().alias("games"))
            .with_columns((pl.col("games") / pl.col("games").sum().over("colour"))
                          .round(3).alias("share"),
                          pl.col("colour").map_elements(words, return_dtype=pl.Utf8))
            .sort(["colour", "outcome"]))
    ui.show_chart(vc.mastery_chart(dist), "vestige-mastery")
    ui.show_table(dist, "vestige-mastery")
    wins = (m.filter(pl.col("claimed")).group_by(["colour", "cards"])
            .agg(pl.len().alias("games")).sort(["colour", "cards"]))
    if not wins.is_empty():
        ui.show_chart(vc.mastery_cards_chart(wins), "vestige-mastery-cards")


def duration(db: Path, f: Filters, include: bool) -> None:
    """Rounds by player count (every game of the kind shown) and minutes (human sessions
    unless asked otherwise)."""
    st.caption("Vestige ends when 2 endgame conditions are met (3 solo): the next round is the "
               "final one (rulebook p. 25).")
    games = vq.durations(db, f, include_non_human=include)
    if games.is_empty():
        ui.empty_state("No Vestige games with rounds recorded match." + (
            "" if include else " Only human playtests count here; tick **Include other "
            "sessions** to see simulated, walkthrough and illustrative games."))
        return
    sizes = games.group_by("kind").len()
    kind = ui.pick_kind({r["kind"]: ui.plural(int(r["len"]), "game")
                         for r in sizes.iter_rows(named=True)}, "vdur_kind")
    games = ui.named_games(games.filter(pl.col("kind") == kind))  # the tooltips' games
    st.subheader("Rounds by player count")
    ui.show_chart(vc.rounds_by_players(games), "vestige-rounds-by-players")
    summary = stats.summarise(games, ["player_count"], "rounds")
    ui.show_table(summary, "vestige-rounds-by-players")
    small = summary.filter(pl.col("n") < stats.MIN_GAMES_WARNING)
    if not small.is_empty():
        st.warning("Small samples: " + ", ".join(
            f"{r['player_count']} players n={r['n']}" for r in small.iter_rows(named=True))
            + f" (fewer than {stats.MIN_GAMES_WARNING} games: indicative only).",
            icon=":material/warning:")
    timed = games.filter(pl.col("total_minutes").is_not_null())
    st.subheader("Minutes")
    if timed.is_empty():
        ui.empty_state("No timed Vestige games match (record setup and game end times).")
    else:
        ui.show_chart(vc.minutes_by_rounds(timed), "vestige-minutes-by-rounds")
        ui.show_table(stats.summarise(timed, ["player_count"], "total_minutes"),
                      "vestige-minutes-by-players")
