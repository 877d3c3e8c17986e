"""Shared page furniture: chart and table display with downloads, empty states, write login.

Charts download as PNG and SVG (rendered by vl-convert only when the button is pressed) and
tables as CSV, so every figure on a page can leave the dashboard.
"""

from __future__ import annotations

import hmac
import os
import re
from collections.abc import Callable
from typing import Any

import polars as pl
import streamlit as st

from dashboards.charts import ChartLike

WRITE_PASSWORD_ENV = "PLAYTEST_WRITE_PASSWORD"
MAX_UPLOAD_MB = 20


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "chart"


def chart_png(chart: ChartLike) -> bytes:
    """The chart as a PNG (vl-convert, twice the screen scale)."""
    import vl_convert as vlc

    return bytes(vlc.vegalite_to_png(chart.to_json(), scale=2))


def chart_svg(chart: ChartLike) -> str:
    """The chart as an SVG document (vl-convert)."""
    import vl_convert as vlc

    return str(vlc.vegalite_to_svg(chart.to_json()))


def show_chart(chart: ChartLike, name: str) -> None:
    """Draw ``chart`` full width with PNG and SVG download buttons under it."""
    st.altair_chart(chart, width="stretch")
    slug = _slug(name)
    c1, c2, _ = st.columns([1, 1, 4])
    c1.download_button(
        "PNG", data=lambda: chart_png(chart), file_name=f"{slug}.png", mime="image/png",
        key=f"png-{slug}", on_click="ignore", icon=":material/download:",
    )
    c2.download_button(
        "SVG", data=lambda: chart_svg(chart), file_name=f"{slug}.svg", mime="image/svg+xml",
        key=f"svg-{slug}", on_click="ignore", icon=":material/download:",
    )


def show_table(df: pl.DataFrame, name: str, **kwargs: Any) -> None:
    """Show a frame and offer it as CSV (list columns are joined with "; " for the CSV)."""
    st.dataframe(df, width="stretch", hide_index=True, **kwargs)
    slug = _slug(name)

    def csv() -> bytes:
        return table_csv(df)

    st.download_button(
        "CSV", data=csv, file_name=f"{slug}.csv", mime="text/csv", key=f"csv-{slug}",
        on_click="ignore", icon=":material/download:",
    )


def with_names(df: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """Replace content ids (factions, Headlines, ...) in ``columns`` by their printed names."""
    from dashboards.replay_view import content_names

    names = content_names()
    if df.is_empty() or not names:
        return df
    return df.with_columns(
        pl.col(c).cast(pl.Utf8).replace_strict(names, default=pl.col(c).cast(pl.Utf8))
        for c in columns if c in df.columns
    )


def table_csv(df: pl.DataFrame) -> bytes:
    """The frame as UTF-8 CSV; lists are joined with "; ", other nested values written as text."""
    fixes = []
    for c, t in df.schema.items():
        if isinstance(t, pl.List | pl.Array):
            fixes.append(pl.col(c).map_elements(
                lambda v: "; ".join(str(x) for x in v) if v is not None else None,
                return_dtype=pl.Utf8))
        elif isinstance(t, pl.Struct) or t == pl.Object:
            fixes.append(pl.col(c).map_elements(str, return_dtype=pl.Utf8))
    return (df.with_columns(fixes) if fixes else df).write_csv().encode("utf-8")


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word in agreement: "1 game", "2 games", "1 error", "0 errors"."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def empty_state(message: str) -> None:
    """A friendly note that there is nothing to show yet, and what to do about it."""
    st.info(message, icon=":material/inbox:")


NO_GAMES = (
    "No games match. Load games on the **Import** page (or run `playtest ingest PATH` / "
    "`playtest demo`), or widen the filters in the sidebar."
)


def guarded(render: Callable[[], None]) -> None:
    """Run a page body; a data problem becomes a readable message instead of a traceback."""
    from dashboards.drafts import DraftError
    from dashboards.store import StoreError

    try:
        render()
    except StoreError as err:
        st.error(f"The warehouse could not be read: {err}", icon=":material/error:")
    except DraftError as err:
        st.error(f"The draft could not be used: {err}", icon=":material/error:")
    except OSError as err:
        st.error(f"A file could not be read or written: {err}", icon=":material/error:")


def write_access() -> bool:
    """True when writing is allowed: no password configured, or the right one entered.

    The operator sets ``PLAYTEST_WRITE_PASSWORD`` to protect the write pages (Record a game,
    Import); when it is unset they are open.
    """
    secret = os.environ.get(WRITE_PASSWORD_ENV)
    if not secret:
        return True
    if st.session_state.get("write_ok"):
        return True
    with st.form("write-login"):
        st.write("This page writes to the archive. Enter the write password set by the operator.")
        given = st.text_input("Write password", type="password")
        if st.form_submit_button("Unlock"):
            if hmac.compare_digest(given.encode(), secret.encode()):
                st.session_state["write_ok"] = True
                st.rerun()
            else:
                st.error("That password is not right.")
    return False
