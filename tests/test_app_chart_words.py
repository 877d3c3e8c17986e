"""The chart scan of ``tests/test_app_words.py`` itself (:mod:`tests.chart_words`): a chart
titled by its columns and showing ids is caught, one in words is not."""

from __future__ import annotations

import pyarrow as pa

from tests.chart_words import chart_faults


def test_the_scan_sees_a_raw_chart() -> None:
    """The scan itself: a chart titled by its columns and showing ids is caught (a plain
    Altair chart: the toolkit's builders title their legends and tooltips themselves)."""
    import altair as alt
    import polars as pl

    df = pl.DataFrame({"game_id": ["0123456789abcdef"], "region": ["black_dove"],
                       "won": [True], "games": [1]})
    chart = alt.Chart(df).mark_bar().encode(x="games:Q", y="game_id:N", color="won:N",
                                            shape="region:N", tooltip=["games:Q"])
    spec = chart.to_dict()
    frames = [pa.Table.from_pylist(v) for v in spec.get("datasets", {}).values()]
    kinds = {f[1] for f in chart_faults(spec, frames)}
    assert {"x title", "y title", "color title", "tooltip title", "y value (game id)",
            "color value (repr)", "shape value (snake_case id)"} <= kinds, kinds
    counted = alt.Chart(df).mark_bar().encode(x=alt.X("games:Q", title="Games"))
    assert [f[1:] for f in chart_faults(counted.to_dict(), [])] == [
        ("x count axis without whole steps", "Games")]
    whole = alt.Chart(df).mark_bar().encode(
        x=alt.X("games:Q", axis=alt.Axis(title="Games", tickMinStep=1, format="d")))
    assert chart_faults(whole.to_dict(), []) == []
