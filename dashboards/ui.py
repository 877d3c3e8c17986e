"""Shared page furniture: chart and table display with downloads, empty states, write login.

Charts download as PNG and SVG (rendered by vl-convert only when the button is pressed) and
tables as CSV, so every figure on a page can leave the dashboard.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from dashboards.charts import ChartLike

WRITE_PASSWORD_ENV = "PLAYTEST_WRITE_PASSWORD"
MAX_UPLOAD_MB = 20


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "chart"


def _key(kind: str, slug: str) -> str:
    """A download button's key, unique to the game section being drawn (two games' sections
    on one page show charts of the same name)."""
    from dashboards import gameapps

    return gameapps.key(f"{kind}-{slug}")


#: the width of a downloaded chart in CSS pixels (on screen a chart fills its column; a file
#: has no column, and Vega-Lite's default would give a strip a few categories wide)
EXPORT_WIDTH = 760


def for_export(chart: ChartLike) -> ChartLike:
    """The chart at a fixed, readable width for a file (facets keep their own layout)."""
    if isinstance(chart, alt.FacetChart):
        return chart
    return chart.properties(width=EXPORT_WIDTH)


def chart_png(chart: ChartLike) -> bytes:
    """The chart as a PNG (vl-convert, twice the screen scale, ``EXPORT_WIDTH`` wide)."""
    import vl_convert as vlc

    return bytes(vlc.vegalite_to_png(for_export(chart).to_json(), scale=2))


def chart_svg(chart: ChartLike) -> str:
    """The chart as an SVG document (vl-convert, ``EXPORT_WIDTH`` wide)."""
    import vl_convert as vlc

    return str(vlc.vegalite_to_svg(for_export(chart).to_json()))


def _unvalidated(chart: ChartLike) -> ChartLike:
    """A copy of ``chart`` whose ``to_dict`` skips Altair's JSON-schema validation (15-45 ms a
    chart, paid on every draw). The builders' specs are validated by the tests
    (``tests/test_app_charts.py`` and the pages' tests call ``to_dict()``), not on every page
    run. Set past Altair's ``__setattr__``, which would store it as a chart property."""
    import functools

    out = chart.copy(deep=False)
    object.__setattr__(out, "to_dict", functools.partial(out.to_dict, validate=False))
    return out


def show_chart(chart: ChartLike, name: str) -> None:
    """Draw ``chart`` full width with PNG and SVG download buttons under it."""
    st.altair_chart(_unvalidated(chart), width="stretch")
    slug = _slug(name)
    c1, c2, _ = st.columns([1, 1, 4])
    c1.download_button(
        "PNG", data=lambda: chart_png(chart), file_name=f"{slug}.png", mime="image/png",
        key=_key("png", slug), on_click="ignore", icon=":material/download:",
    )
    c2.download_button(
        "SVG", data=lambda: chart_svg(chart), file_name=f"{slug}.svg", mime="image/svg+xml",
        key=_key("svg", slug), on_click="ignore", icon=":material/download:",
    )


#: column headers in words (any other column: its name with spaces, capitalised)
HEADERS = {
    "game_id": "Game (title, players, date, source)", "game": "Game", "player_count": "Players", "session_type": "Session type",
    "kind": "Kind of game", "n": "Games", "mean": "Mean", "median": "Median",
    "low": "95% interval: from", "high": "95% interval: to", "source_name": "Source",
    "ending_name": "World Ending", "ending": "World Ending", "n_events": "Events",
    "n_errors": "Errors", "n_warnings": "Warnings", "agi": "AGI", "seat_games": "Seat-games",
    "per_seat": "Mean per seat-game", "source_format": "Source format",
    "rules_version": "Rules version",
}
#: columns whose values are ids with a printed name
_VALUE_NAMES = ("session_type", "ending", "phase", "source", "kind")
#: columns whose lowercase ids are shown in words (``default`` -> "Default")
_WORDED = ("profile", "status", "severity", "mode", "difficulty", "colour", "outcome",
           "category", "job_kind", "condition", "region", "nemesis")


def _game_words(kind: str) -> dict[str, str]:
    """Id -> label of one of the declarations' vocabularies (``end_conditions``, ``phases``,
    ``score_sources``): the game whose section is being drawn first, then every registered game
    in the registry's order (an id two games share reads as the first one's)."""
    from dashboards import gameapps
    from engine.core.registry import rulesets

    games = dict(rulesets())
    order = [gameapps.current_game(), *games]
    out: dict[str, str] = {}
    for game in order:
        rs = games.get(game)
        if rs is not None:
            for value, label in getattr(rs.vocabulary, kind).items():
                out.setdefault(value, label)
    return out


def readable(df: pl.DataFrame, keep_ids: bool = False,
             names: pl.DataFrame | None = None) -> pl.DataFrame:
    """Ids in cells replaced by words: session types, kinds of game, and the games' declared
    words for endings, phases and ledger sources, game ids (their titles) and lowercase ids
    such as profiles and statuses
    (the raw ids stay in the warehouse and the exports of ``playtest export``).

    ``names``: the shown games' rows of ``games`` (:data:`NAME_COLUMNS`, read with the table:
    :func:`split_names`), their names made from them instead of a lookup of their ids."""
    from dashboards import charts
    from dashboards.filters import SESSION_TYPE_LABELS

    maps = {"session_type": SESSION_TYPE_LABELS, "ending": _game_words("end_conditions"),
            "phase": _game_words("phases"), "source": _game_words("score_sources"),
            "kind": charts.KIND_LABELS}
    fixes = [pl.col(c).replace_strict(maps[c], default=pl.col(c))
             for c in _VALUE_NAMES if c in df.columns and df.schema[c] == pl.Utf8]
    fixes += [pl.col(c).map_elements(words, return_dtype=pl.Utf8)
              for c in _WORDED if c in df.columns and df.schema[c] == pl.Utf8]
    fixes += [pl.col(c).fill_null("–") for c, t in df.schema.items()
              if t == pl.Utf8 and c not in _VALUE_NAMES and c not in _WORDED and c != "game"]
    fixes += [pl.col(c).cast(pl.Utf8).fill_null("not recorded") for c, t in df.schema.items()
              if t == pl.Date]
    fixes += [pl.col(c).cast(pl.Utf8).fill_null("–") for c, t in df.schema.items()
              if t == pl.Null]
    # a number that is not there reads "–", not "None": such a column is shown as text
    fixes += [_number_text(c, t) for c, t in df.schema.items()
              if t.is_numeric() and df[c].null_count() > 0 and c not in maps]
    if "game" in df.columns and df.schema["game"] == pl.Utf8:
        from dashboards import gameapps

        fixes.append(pl.col("game").map_elements(gameapps.title, return_dtype=pl.Utf8))
    out = df.with_columns(fixes) if fixes else df
    return out if keep_ids else named_games(out, df if names is None else names)


def named_games(df: pl.DataFrame, raw: pl.DataFrame | None = None) -> pl.DataFrame:
    """``game_id`` as a game's title, players, date and source (a table's cell, a chart's
    tooltip): only the games shown are named; the id stays in the CSV and in the detail views
    (Audit, Replay viewer), which name it in words beside the picker.

    ``raw``: ``df`` before its cells were put in words; when it holds the columns a name is
    made of (:data:`NAME_COLUMNS`, e.g. a page of the Games table), the names are made from it
    and ``games`` is not read (a lookup that scanned the games' ids grew with the warehouse)."""
    if "game_id" not in df.columns or df.schema["game_id"] != pl.Utf8 or df.is_empty():
        return df
    if raw is not None and all(raw.schema.get(c) == t for c, t in NAME_COLUMNS.items()):
        names = game_name_frame(frame=raw.select(list(NAME_COLUMNS)).unique("game_id"))
    else:
        names = game_name_frame(df["game_id"].unique().to_list())
    return df.with_columns(pl.col("game_id").replace_strict(
        names["game_id"], names["name"], default=pl.col("game_id"),
        return_dtype=pl.Utf8).alias("game_id"))


#: the prefix of the columns of ``games`` a query reads beside a table's rows to name their
#: games (:func:`name_columns_sql`, :func:`split_names`)
NAME_PREFIX = "name__"


def name_columns_sql(alias: str = "g") -> str:
    """The columns a game's name is made of (:data:`NAME_COLUMNS` but ``game_id``), from
    ``games`` aliased ``alias``, each as ``name__<column>``: selected with a table's rows (a
    join to ``games`` it makes anyway), they name its games without a lookup of their ids in
    ``games``, which reads the id of every game (0.08-0.15 CPU s a table at a million)."""
    return ", ".join(f"{alias}.{c} AS {NAME_PREFIX}{c}" for c in NAME_COLUMNS if c != "game_id")


def split_names(frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """``frame`` without its ``name__`` columns (:func:`name_columns_sql`), and those columns
    with ``game_id`` as rows of ``games`` to name them by (:func:`readable`'s ``names``; None
    when ``frame`` has none of them)."""
    named = [c for c in frame.columns if c.startswith(NAME_PREFIX)]
    if not named:
        return frame, None
    rows = frame.select("game_id", *(pl.col(c).alias(c[len(NAME_PREFIX):]) for c in named))
    return frame.drop(named), rows.unique("game_id", maintain_order=True)


def game_names(ids: list[str] | None = None) -> dict[str, str]:
    """Game id -> "Vestige · 2 players · 2026-12-02 · recorded live", for the games ``ids``
    (a table's shown games: naming every game of a million-game warehouse cost seconds), or
    every game (None)."""
    names = game_name_frame(ids)
    return dict(zip(names["game_id"].to_list(), names["name"].to_list(), strict=True))


#: a game's source in words (:func:`game_name_frame`), on ``games`` aliased ``g``: "recorded
#: live", else the file of its source name (not its folders), else its format in words
_SOURCE_SQL = (
    "CASE WHEN starts_with(coalesce(g.source_name, ''), 'live:') OR g.source_format = 'live' "
    "THEN 'recorded live' ELSE coalesce(nullif(regexp_extract(rtrim(replace("
    "coalesce(g.source_name, ''), '\\', '/'), '/'), '[^/]*$'), ''), "
    "(?::VARCHAR[])[list_position(?::VARCHAR[], g.source_format)], 'source not recorded') END"
)


#: the columns of ``games`` a game's name is made of (:func:`game_name_frame`), and their types
NAME_COLUMNS: dict[str, pl.DataType] = {
    "game_id": pl.Utf8(), "game": pl.Utf8(), "player_count": pl.Int32(), "date": pl.Date(),
    "source_name": pl.Utf8(), "source_format": pl.Utf8()}


def game_name_frame(ids: list[str] | None = None,
                    frame: pl.DataFrame | None = None) -> pl.DataFrame:
    """:func:`game_names` as a frame (game_id, name), the names made by DuckDB: one query,
    no Python loop over the games (the Duration chart names every human game it draws:
    200,000 at a million games). Only the games' titles are looked up here, once per game.

    ``frame``: rows of ``games`` already read (:data:`NAME_COLUMNS`), named by
    :func:`_names_of_rows` (polars, the same words) instead of a lookup in the warehouse
    (``ids`` is then ignored)."""
    from dashboards import gameapps, store
    from dashboards.filters import SOURCE_WORDS

    empty = pl.DataFrame(schema={"game_id": pl.Utf8, "name": pl.Utf8})
    words = [list(SOURCE_WORDS.values()), list(SOURCE_WORDS)]
    sql = ("SELECT g.game_id, g.game, ' · ' || format('{:,}', coalesce(g.player_count, 0)) || "
           "' player' || CASE WHEN coalesce(g.player_count, 0) = 1 THEN '' ELSE 's' END || "
           "' · ' || coalesce(CAST(g.date AS VARCHAR), 'undated') || ' · ' || "
           f"{_SOURCE_SQL} AS rest FROM @SOURCE@ g WHERE @WANTED@")
    if frame is not None:
        return _names_of_rows(frame) if not frame.is_empty() else empty
    db = store.db_path()
    if ids is not None and not ids or not store.table_exists(db, "games"):
        return empty
    wanted, params = "TRUE", []
    if ids is not None:
        wanted, params = ("g.game_id IN (SELECT unnest(?::VARCHAR[]))",
                          [[str(i) for i in ids]])
    frame = store.query(db, sql.replace("@SOURCE@", "games").replace("@WANTED@", wanted),
                        [*words, *params])
    if frame.is_empty():
        return empty
    games = frame["game"].unique().to_list()  # a few: each game's title looked up once
    titles = pl.Series([gameapps.title(str(g)) for g in games], dtype=pl.Utf8)
    frame = frame.select("game_id", (pl.col("game").replace_strict(
        pl.Series(games, dtype=pl.Utf8), titles, return_dtype=pl.Utf8) + pl.col("rest"))
        .alias("name"))
    return frame if not frame.is_empty() else empty


def _names_of_rows(rows: pl.DataFrame) -> pl.DataFrame:
    """:func:`game_name_frame` of rows of ``games`` already read (:data:`NAME_COLUMNS`), made
    in polars as the SQL makes them (``tests/test_warehouse_summaries.py`` compares the two):
    a page's rows are named without reading the warehouse again or opening DuckDB."""
    from dashboards import gameapps
    from dashboards.filters import SOURCE_WORDS

    n = pl.col("player_count").fill_null(0)
    counts = rows["player_count"].fill_null(0).unique().to_list()
    name = pl.col("source_name").fill_null("")
    file = (name.str.replace_all("\\", "/", literal=True).str.strip_chars_end("/")
            .str.extract(r"([^/]*)$", 1))
    source = (pl.when(name.str.starts_with("live:") | (pl.col("source_format") == "live")
                      .fill_null(False))
              .then(pl.lit("recorded live"))
              .otherwise(pl.coalesce(pl.when(file != "").then(file),
                                     pl.col("source_format").replace_strict(
                                         SOURCE_WORDS, default=None, return_dtype=pl.Utf8),
                                     pl.lit("source not recorded"))))
    games = rows["game"].unique().to_list()  # a few: each game's title looked up once
    title = pl.col("game").replace_strict(
        pl.Series(games, dtype=pl.Utf8),
        pl.Series([gameapps.title(str(g)) for g in games], dtype=pl.Utf8), return_dtype=pl.Utf8)
    return rows.select("game_id", pl.concat_str(
        title, pl.lit(" · "),
        n.replace_strict(counts, [f"{c:,}" for c in counts], return_dtype=pl.Utf8),
        pl.lit(" player"), pl.when(n == 1).then(pl.lit("")).otherwise(pl.lit("s")),
        pl.lit(" · "), pl.col("date").cast(pl.Utf8).fill_null("undated"), pl.lit(" · "),
        source).alias("name"))


def _number_text(column: str, dtype: pl.DataType) -> pl.Expr:
    expr = pl.col(column)
    if dtype.is_float():
        expr = expr.round(2)
    return expr.cast(pl.Utf8).fill_null("–").alias(column)


def table(df: pl.DataFrame, **kwargs: Any) -> None:
    """A small table in words (:func:`readable`, :func:`column_config`), without download."""
    df = readable(df)
    kwargs["column_config"] = column_config(df, kwargs.get("column_config"))
    kwargs.setdefault("hide_index", True)
    kwargs.setdefault("width", "stretch")
    st.dataframe(df, **kwargs)


def column_config(df: pl.DataFrame, given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Headers in words and numbers without float noise: decimals to two places, counts whole,
    shares as percentages; ``given`` overrides any column."""
    out: dict[str, Any] = {}
    for c, t in df.schema.items():
        label = HEADERS.get(c, c.replace("_", " ").capitalize())
        if c == "share" or c.endswith("_share"):
            out[c] = st.column_config.NumberColumn(label, format="percent")
        elif t.is_float():
            out[c] = st.column_config.NumberColumn(label, format="%.2f")
        elif t.is_integer():
            out[c] = st.column_config.NumberColumn(label, format="%d")
        else:
            out[c] = label
    out.update(given or {})
    return out


#: the most rows a page puts in one table: a browser cannot page through a million rows, and
#: sending them cost seconds; the CSV download holds every row
TABLE_ROWS = 1000


def show_table(df: pl.DataFrame, name: str, total: int | None = None,
               full: Callable[[], pl.DataFrame] | None = None,
               names: pl.DataFrame | None = None, **kwargs: Any) -> None:
    """Show a frame in words (see :func:`readable`, :func:`column_config`) and offer it as CSV
    (list columns are joined with "; " for the CSV; floats rounded to 4 places).

    ``df`` may be the first rows of a longer table: ``total`` says how many rows there are and
    ``full`` reads them all, only when the CSV is downloaded. ``names``: the shown games'
    rows of ``games`` to name them by (:func:`split_names`)."""
    raw, df = df, readable(df, names=names)
    kwargs["column_config"] = column_config(df, kwargs.get("column_config"))
    st.dataframe(df, width="stretch", hide_index=True, **kwargs)
    if total is not None and total > df.height:
        st.caption(f"The first {df.height:,} of {total:,} rows; the CSV holds all of them.")
    slug = _slug(name)

    def csv() -> bytes:
        whole = readable(full() if full is not None and total is not None
                         and total > df.height else raw, keep_ids=True)  # the CSV keeps ids
        return table_csv(whole.with_columns(pl.col(c).round(4) for c, t in whole.schema.items()
                                            if t.is_float()))

    st.download_button(
        "CSV", data=csv, file_name=f"{slug}.csv", mime="text/csv", key=_key("csv", slug),
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
    from ingest.formats.cells import neutralise_frame  # no cell may run as a formula

    return neutralise_frame(df.with_columns(fixes) if fixes else df).write_csv().encode("utf-8")


def words(value: object) -> str:
    """An internal id in words for a page: ``black_dove`` -> "Black Dove", ``None`` -> "–"."""
    if value is None:
        return "–"
    text = str(value)
    return text.replace("_", " ").strip().capitalize() if text.islower() or "_" in text \
        else text


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word in agreement: "1 game", "2 games", "1 error", "0 errors"."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def pick_kind(sizes: dict[str, str], key: str) -> str:
    """One kind of game at a time (human playtests first): simulated, human, walkthrough and
    illustrative games are never pooled into one figure. ``sizes`` maps each kind present to
    how much of it there is ("3 games"). Draws the picker when there is a choice and a caption
    naming what is shown; returns the kind."""
    from dashboards import gameapps
    from dashboards.charts import KIND_LABELS, KIND_ORDER

    key = gameapps.key(key)  # one picker per game section
    present = set(sizes)
    kinds = [k for k in KIND_ORDER if k in present] + sorted(present - set(KIND_ORDER))
    if st.session_state.get(key) not in kinds:
        st.session_state.pop(key, None)
    kind = kinds[0]
    if len(kinds) > 1:
        kind = st.segmented_control(
            "Games", kinds, default=kinds[0], key=key,
            format_func=lambda k: KIND_LABELS.get(k, k),
            help="Figures never pool different kinds of game: pick one.") or kinds[0]
    st.caption(f"Showing {KIND_LABELS.get(kind, kind).lower()}: {sizes[kind]}.")
    return kind


def game_labels(games: pl.DataFrame, factions: dict[str, list[str]]) -> dict[str, str]:
    """Picker lines a person can tell apart: source, date, seats, kind, errors (the id last)."""
    from dashboards.filters import SESSION_TYPE_LABELS
    from dashboards.replay_view import content_names

    names = content_names()
    titles: dict[str, str] = {}  # each game's title looked up once, not once a line
    out = {}

    def column(name: str) -> list[Any]:  # a picker's thousand rows read column by column
        return games[name].to_list() if name in games.columns else [None] * games.height

    for gid, g, session_type, illustrative, source_name, n_errors, date in zip(
            column("game_id"), column("game"), column("session_type"), column("illustrative"),
            column("source_name"), column("n_errors"), column("date"), strict=True):
        seats = factions.get(gid, [])
        who = ", ".join(names.get(f, f) for f in seats) if seats else "seats not recorded"
        kind = SESSION_TYPE_LABELS.get(session_type or "", session_type or "")
        if illustrative:
            kind += " (illustrative)"
        source = str(source_name or "no source name").replace("\\", "/")
        source = source.rstrip("/").rsplit("/", 1)[-1] or source  # the file, not its folders
        if len(source) > 40:
            source = source[:39] + "…"
        errors = plural(int(n_errors or 0), "error")
        game = ""
        if g:
            if g not in titles:
                from dashboards import gameapps

                titles[g] = gameapps.title(str(g))
            game = f"{titles[g]} · "
        out[gid] = (f"{game}{source} · {date or 'undated'} · "
                    f"{plural(len(seats), 'seat')}: {who} · {kind} · {errors} · "
                    f"{str(gid)[:8]}")
    return out


def empty_state(message: str) -> None:
    """A friendly note that there is nothing to show yet, and what to do about it."""
    st.info(message, icon=":material/inbox:")


NO_GAMES = (
    "No games match. Load games on the **Import** page (or run `playtest ingest PATH` / "
    "`playtest demo`), or widen the filters in the sidebar."
)


def guarded(render: Callable[[], None], reads_only: bool = False) -> None:
    """Run a page body; a data problem becomes a readable message instead of a traceback.

    ``reads_only``: the page never writes, so its queries share one short-lived connection
    (:func:`dashboards.store.page`)."""
    import contextlib

    from dashboards import store
    from dashboards.drafts import DraftError
    from dashboards.store import StoreError

    try:
        with store.page(store.db_path()) if reads_only else contextlib.nullcontext():
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
            from dashboards.write_lock import attempt  # wrong attempts are rate-limited

            ok, problem = attempt(given, secret)
            if ok:
                st.session_state["write_ok"] = True
                st.rerun()
            else:
                st.error(problem or "That password is not right.")
    return False


def confirm(message: str, yes: str, key: str, on_cancel: Callable[[], None], *,
            primary: bool = True) -> bool:
    """A question asked before a destructive action (undo, put a draft aside, finish): True in
    the run where the facilitator says yes; "Cancel" calls ``on_cancel``. Buttons are keyed
    ``KEY_yes`` and ``KEY_no`` (every recorder, every game, asks the same way)."""
    with st.container(border=True):
        st.warning(message, icon=":material/help:")
        y, n = st.columns(2)
        said = y.button(yes, key=f"{key}_yes", type="primary" if primary else "secondary")
        n.button("Cancel", key=f"{key}_no", on_click=on_cancel)
    return said


#: the questions every recorder asks before putting a draft aside and finishing a game
ASIDE_QUESTION = ("Put this draft aside? Its file is kept and it can be reopened from the "
                  "Record page's list.")


def finish_question(n_events: int) -> str:
    return (f"Finish this game? Its {plural(n_events, 'event')} are archived and loaded, and "
            "nothing more can be recorded in this draft.")


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:=^&])")


def md_text(text: object) -> str:
    """User text (a player's name, a card name from a log, a file name) for a Markdown element:
    every Markdown character escaped and line breaks made spaces, so that it shows as written
    (a planted ``![x](https://...)`` is text, no image the browser fetches)."""
    return _MARKDOWN.sub(r"\\\1", " ".join(str(text).splitlines()))
