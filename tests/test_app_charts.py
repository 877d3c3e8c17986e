"""What a person sees in the charts and tables: whole-number count axes, one colour per source
whatever the filter, one axis title, phases in the same order in chart and table, tables
without float noise or raw ids, and downloaded PNGs at a readable width."""

from __future__ import annotations

import struct

import polars as pl

from dashboards import charts, stats, ui
from dashboards.mandate2038 import charts as mandate_charts
from dashboards.mandate2038 import tables


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_source_colours_do_not_move_with_the_filter() -> None:
    full = pl.DataFrame({"faction": ["A"] * 3, "source_name": ["Customers", "Fusion", "Headlines"],
                         "per_seat": [1.0, 0.5, 0.2], "mandate": [3, 1, 1], "seat_games": [3] * 3})
    part = full.filter(pl.col("source_name") != "Customers")
    scales = [mandate_charts.ledger_by_faction(df).to_dict()["encoding"]["color"]["scale"]
              for df in (full, part)]
    assert scales[0] == scales[1]
    fusion = scales[0]["domain"].index("Fusion")
    assert scales[0]["range"][fusion] == mandate_charts.SOURCE_COLOURS["Fusion"]


def test_count_axes_have_whole_ticks() -> None:
    ends = pl.DataFrame({"ending_name": ["The Singularity (AGI, Open)"], "player_count": ["4"],
                         "games": [1], "share": [1.0]})
    axis = mandate_charts.endings_chart(ends, "player_count").to_dict()["encoding"]["x"]["axis"]
    assert axis["tickMinStep"] == 1 and axis["format"] == "d"


def test_phases_in_play_order_in_chart_and_table_with_one_axis_title() -> None:
    per_game = pl.DataFrame({
        "game_id": ["g1"] * 4 + ["g2"] * 4, "player_count": [4] * 8,
        "phase": ["setup", "era1", "era2", "final_scoring"] * 2,
        "minutes": [20.0, 21.0, 26.0, 9.0, 22.0, 23.0, 24.0, 11.0]})
    psum = tables.in_phase_order(stats.summarise(per_game, ["phase", "player_count"], "minutes"))
    assert psum["phase"].to_list() == ["Setup", "Era I", "Era II", "Final scoring"]
    spec = mandate_charts.phase_chart(psum).to_dict()
    order = spec["layer"][0]["encoding"]["x"]["sort"]
    shown = [p for p in order if p in psum["phase"].to_list()]
    assert shown == psum["phase"].to_list()
    titles = {layer["encoding"]["y"].get("title") for layer in spec["layer"]}
    assert len(titles) == 1, titles  # no "Mean minutes, low" from two titles merged


def test_tables_have_no_float_noise_or_raw_ids() -> None:
    df = pl.DataFrame({"session_type": ["facilitated_playtest"], "phase": ["final_scoring"],
                       "mean": [0.1 + 0.2], "n": [3], "share": [0.3333333]})
    shown = ui.readable(df)
    assert shown.row(0) == ("Facilitated playtest", "Final scoring", 0.1 + 0.2, 3, 0.3333333)
    cfg = ui.column_config(shown)
    assert cfg["mean"]["type_config"]["format"] == "%.2f"
    assert cfg["n"]["type_config"]["format"] == "%d"
    assert cfg["share"]["type_config"]["format"] == "percent"
    assert cfg["session_type"] == "Session type"
    assert ui.plural(1, "error") == "1 error" and ui.plural(2, "game") == "2 games"
    assert ui.plural(0, "game") == "0 games"


def test_png_export_is_wide_and_keeps_the_band_inside() -> None:
    games = pl.DataFrame({"game_id": ["a", "b", "c"], "player_count": [3, 4, 4],
                          "session_type": ["blind_playtest"] * 3, "kind": ["human"] * 3,
                          "total_minutes": [70.0, 88.0, 95.0]})
    summary = stats.summarise(games, ["player_count"], "total_minutes")
    chart = charts.duration_chart(games, summary, (75.0, 100.0))
    width, height = _png_size(ui.chart_png(chart))
    assert width >= 2 * ui.EXPORT_WIDTH and height > 200, (width, height)
    band = chart.to_dict()["layer"][0]
    mark = band["mark"]["type"] if isinstance(band["mark"], dict) else band["mark"]
    assert mark == "rect", "a rect fills its player count's band at any width"
    assert band["encoding"]["x"]["scale"]["domain"] == [3, 4]


def test_readable_words_each_games_ids_by_its_declaration() -> None:
    """Endings, phases and ledger sources are worded by the declared vocabularies (issue 27), not
    by Mandate 2038's words applied to every game's frames; an id no game declares stays."""
    from dashboards import gameapps

    df = pl.DataFrame({"ending": ["nemesis_goal", "no_such_ending"], "phase": ["game_start", "era2"]})
    out = ui.readable(df)
    assert out["ending"].to_list() == ["A nemesis met its goal", "no_such_ending"]
    assert out["phase"].to_list() == ["Whole game (start to end, breaks left out)", "Era II"]
    with gameapps._keyed("pig"):  # the section's game is asked first
        assert ui._game_words("phases")["game_start"].startswith("Whole game")
