"""Mandate 2038's view of its comparison on the Variants page (docs/variants.md): the
Balance-contract comparison's result (:func:`ingest.mandate2038.compare.compare`) per variant
and player count, with each arm's verdict against the contract and its sweeps. Its study parts
name it (``STUDY.view``); the page (``dashboards/views/variants.py``) calls :func:`show`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import ui
from dashboards import variant_charts as vc
from dashboards import variant_queries as vq
from ingest.mandate2038.compare import simulated_by_variant


def show(study: Path, result: dict[str, Any]) -> pl.DataFrame:
    """Draw the comparison ``result`` of the study at ``study``; its simulated games per arm
    (games, AGI emergences, Open endings) for the evidence beside the physical playtests."""
    st.caption(
        "Each metric of the designers' balance contract (and AGI emergence and an open world) "
        "under the rules as printed and under the variant, on the same seeds (same line-ups, "
        "factions, seats, map and chance stream), with each arm's verdict against the "
        "contract.")
    frame = vq.rows_frame(result)
    summary = pl.DataFrame(result["variants"])
    st.caption(f"Intervals: {result['interval']}; {result['replicates']} replicates.")
    names = summary["variant"].unique(maintain_order=True).to_list()
    name = st.selectbox("Variant", names, key="variants_pick")
    counts = summary.filter(pl.col("variant") == name)["player_count"].to_list()
    n = st.selectbox("Players", counts, key="variants_players") if len(counts) > 1 else counts[0]
    one = summary.filter((pl.col("variant") == name) & (pl.col("player_count") == n)).row(
        0, named=True)
    c = st.columns(3)
    c[0].metric("Common games", one["common_games"])
    c[1].metric("Played differently", one["games_differing"])
    c[2].metric("Metrics that differ", len(one["significant"]))
    rows = frame.filter((pl.col("variant") == name) & (pl.col("player_count") == n))
    ui.show_chart(vc.deltas_chart(rows, f"{name} - baseline, {n} players"),
                  f"variant-deltas-{name}")
    table = rows.select("metric", "baseline", "value", "difference", "low", "high",
                        "significant", *[c for c in ("baseline_verdict", "variant_verdict",
                                                     "verdict_changes") if c in rows.columns])
    ui.show_table(table, f"variant-rows-{name}")
    for i, (knob, chart) in enumerate(vc.sweep_charts(frame.filter(pl.col("player_count") == n))):
        if not i:
            st.subheader("Sweeps")
            st.caption(vc.SWEEP_CAPTION)
        ui.show_chart(chart, f"sweep-{knob}")
    return simulated_by_variant(study)
