"""Balance metrics, for every game: where the games come from, running a game's declared metric
queries on them, and each metric's value, 95% interval, verdict and games to settle it.

A game declares its metrics in its declaration's ``balance`` member
(:class:`engine.core.game.Balance`, docs/balance.md "A game's metrics"). Each metric is
computed either

* by a SELECT over the warehouse tables (the game's own and the shared ones), returning
  ``game_id``, optionally ``key`` (the group: a seat, a mode, an ending) and optionally
  ``value``: with ``value``, the metric is the mean of ``value`` per key over its rows (a seat's
  win, a game's length); without it, the share of the selected games that have a row of that
  key (how games end). The interval is Jeffreys' when every value lies in [0, 1] (a rate; joint
  wins may credit 1/k), else the t interval of the mean; or
* by a ``"module:function"`` ``(source, selection, player_count) -> polars frame`` returning
  the rows :data:`COLUMNS` names (a game whose metrics share one scan, Mandate 2038's), called
  once however many metrics name it.

Every figure is per **player count** and per **kind of game** (human, simulated, walkthrough,
illustrative; a study folder's games by the policy mix that played them) and per **study arm**
(:data:`ARM_SQL`): never pooled. Verdicts (:func:`ingest.stats.verdict`) only where the game
publishes a threshold; else the value and its interval. No game is named here: the page and the
command line reach a game's metrics through its declaration.

A study folder written by ``playtest study`` (``DIR/<table>/**/*.parquet``, the warehouse's
column names) is read in place through DuckDB: :class:`Source` names either it or a warehouse.
"""

from __future__ import annotations

import contextvars
import dataclasses
import math
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import duckdb
import polars as pl

from engine.core.game import Balance, BalanceMetric, is_sql, resolve
from ingest import stats

#: the kind of a warehouse game (the app's words for it are the page's)
KIND_SQL = ("CASE WHEN g.session_type = 'simulation' THEN 'simulated' "
            "WHEN g.illustrative THEN 'illustrative' "
            "WHEN g.is_human THEN 'human' ELSE 'walkthrough' END")

#: what tells the study arms of the selected games apart, which are never pooled: the rules
#: version in the warehouse (its games table records no variant yet; with ``variant_name`` and
#: ``variant_hash`` columns, ``|| coalesce(' ' || g.variant_name, '')`` joins it here, and a
#: page choosing one arm adds ``AND g.variant_hash IS NOT DISTINCT FROM ?`` to
#: :func:`games_cte`'s WHERE), the variant in a study folder played with ``--variant``
ARM_SQL = "coalesce(g.rules_version, '')"
#: ... and the rules variant the warehouse records for the game (migration 9), when it has one:
#: games of two variants, or of a variant and the printed rules, are never pooled
VARIANT_ARM_SQL = (ARM_SQL + " || coalesce(' · variant ' || g.variant_name || ' ('"
                   " || left(g.variant_content_hash, 8) || ')', '')")
STUDY_ARM_SQL = "coalesce(CAST(g.variant AS VARCHAR), 'baseline')"
#: between a kind and its arm in a label, when the selected games of a kind hold several arms
ARM_MARK = " · "

#: the columns of :func:`metrics` (and of a declared function's result, which may leave out
#: the ones after ``games``)
COLUMNS: dict[str, Any] = {
    "kind": pl.String, "player_count": pl.Int64, "metric": pl.String, "name": pl.String,
    "key": pl.String, "value": pl.Float64, "low": pl.Float64, "high": pl.Float64,
    "games": pl.Int64, "bound": pl.String, "threshold": pl.Float64, "verdict": pl.String,
    "note": pl.String, "games_needed": pl.Int64,
}

_TABLE = re.compile(r"^[a-z][a-z0-9_]*$")


class Selection(Protocol):
    """The games chosen (the app's sidebar filters, ``dashboards.queries.Filters``)."""

    @property
    def player_counts(self) -> tuple[int, ...]: ...

    def where(self, alias: str = "g", evidence: str = "evidence") -> tuple[str, list[Any]]: ...


@dataclass(frozen=True)
class AllGames:
    """Every game, or those of the given player counts (a :class:`Selection`)."""

    player_counts: tuple[int, ...] = ()

    def where(self, alias: str = "g", evidence: str = "evidence") -> tuple[str, list[Any]]:
        if not self.player_counts:
            return "TRUE", []
        return (f"list_contains(?::INTEGER[], {alias}.player_count)",
                [[int(n) for n in self.player_counts]])


class SourceError(OSError):
    """A warehouse or a study folder that could not be read."""


@dataclass(frozen=True)
class Source:
    """Where the games come from: the warehouse at ``db`` or a study folder ``study``.

    A study's games are split by the policy mix that played them (``games.policy``: kind
    ``study: greedy``, ``study: weighted``, ...), unless ``pool_policies`` is set: then they
    are one kind named by every policy pooled (``study: greedy+weighted``), never unlabelled.
    A subclass may give a study folder views of its own (:meth:`study_views`) or run the
    warehouse's statements through a cache (:meth:`warehouse`).
    """

    db: Path | None = None
    study: Path | None = None
    pool_policies: bool = False

    def __post_init__(self) -> None:
        if (self.db is None) == (self.study is None):
            raise ValueError("a Source is either a warehouse (db) or a study folder (study)")

    @property
    def label(self) -> str:
        return f"study {self.study}" if self.study is not None else "warehouse"

    def study_views(self, con: duckdb.DuckDBPyConnection, tables: dict[str, list[Path]],
                    key: tuple[Any, ...]) -> None:
        """Add views to a study folder's connection (one per table and ``games_p`` are
        there already); ``key`` names the study's version (for a cache)."""

    def warehouse(self, statements: list[tuple[str, list[Any]]]) -> list[pl.DataFrame]:
        """The statements' results on the warehouse, on one read-only connection (an absent
        table or database gives an empty frame)."""
        assert self.db is not None
        if not self.db.exists():
            return [pl.DataFrame() for _ in statements]
        from ingest.db import connect

        out: list[pl.DataFrame] = []
        try:
            with connect(self.db, read_only=True) as con:
                for sql, params in statements:
                    try:
                        rel = con.sql(sql, params=params or None)
                        out.append(rel.pl() if rel is not None else pl.DataFrame())
                    except duckdb.CatalogException:
                        out.append(pl.DataFrame())
        except (duckdb.Error, OSError) as err:
            raise SourceError(f"the warehouse {self.db} could not be read: {err}") from err
        return out


# --- running SQL on either source -----------------------------------------------------------

_STUDY_CACHE: OrderedDict[tuple[Any, ...], pl.DataFrame] = OrderedDict()


def study_tables(folder: Path) -> dict[str, list[Path]]:
    """The Parquet files of each table of a study folder (a folder per table; tables without
    files left out)."""
    out: dict[str, list[Path]] = {}
    for d in sorted(folder.iterdir()) if folder.is_dir() else []:
        if d.is_dir() and _TABLE.match(d.name):
            files = sorted(p for p in d.rglob("*.parquet") if p.is_file())
            if files:
                out[d.name] = files
    return out


def study_version(tables: dict[str, list[Path]]) -> tuple[Any, ...]:
    """What changes when a study folder's files change."""
    return tuple((name, str(p), *_stat(p)) for name in sorted(tables) for p in tables[name]
                 if _stat(p))


def _stat(p: Path) -> tuple[int, int] | tuple[()]:
    """A file's modification time and size (empty when it cannot be read)."""
    try:
        st = p.stat()
    except OSError:
        return ()
    return st.st_mtime_ns, st.st_size


def _study_many(src: Source, statements: list[tuple[str, list[Any]]]) -> list[pl.DataFrame]:
    """Run statements on a study folder: the uncached ones on one in-memory connection with a
    view per table (the Parquet files read in place), ``games_p`` (games with their policy)
    and the source's own views (:meth:`Source.study_views`)."""
    assert src.study is not None
    folder = src.study
    tables = study_tables(folder)
    if "games" not in tables or "seats" not in tables:
        return [pl.DataFrame() for _ in statements]
    version = (str(folder.resolve()), study_version(tables))
    keys = [(*version, sql, repr(params)) for sql, params in statements]
    out: list[pl.DataFrame | None] = [_STUDY_CACHE.get(k) for k in keys]
    missing = [i for i, frame in enumerate(out) if frame is None]
    if missing:
        con = duckdb.connect(":memory:")
        try:
            for name, files in tables.items():
                # the file list travels as a value, never as SQL text
                con.read_parquet([str(p) for p in files], union_by_name=True).create_view(name)
            if "policy" not in {r[0] for r in con.execute("DESCRIBE games").fetchall()}:
                # a study written before policies were recorded: one unnamed policy
                con.execute("CREATE OR REPLACE VIEW games_p AS SELECT *, "
                            "CAST('unrecorded' AS VARCHAR) AS policy FROM games")
            else:
                con.execute("CREATE OR REPLACE VIEW games_p AS SELECT * FROM games")
            src.study_views(con, tables, version)
            for i in missing:
                sql, params = statements[i]
                try:
                    rel = con.sql(sql, params=params or None)
                    out[i] = rel.pl() if rel is not None else pl.DataFrame()
                except duckdb.CatalogException:
                    out[i] = pl.DataFrame()
                _STUDY_CACHE[keys[i]] = out[i]  # type: ignore[assignment]
        except duckdb.Error as err:
            raise SourceError(f"the study folder {folder} could not be read: {err}") from err
        finally:
            con.close()
        while len(_STUDY_CACHE) > 256:
            _STUDY_CACHE.popitem(last=False)
    return [frame if frame is not None else pl.DataFrame() for frame in out]


def run_many(src: Source, statements: list[tuple[str, list[Any]]]) -> list[pl.DataFrame]:
    """Parameterised queries on the source, together (one connection for the uncached ones);
    an absent table gives an empty frame."""
    if src.study is not None:
        return _study_many(src, statements)
    return src.warehouse([(sql, list(params)) for sql, params in statements])


#: while set, :func:`run` only records its statements (see :func:`batch`)
_COLLECT: contextvars.ContextVar[list[tuple[str, list[Any]]] | None] = contextvars.ContextVar(
    "balance_collect", default=None)


def run(src: Source, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
    """One parameterised query on the source (an absent table gives an empty frame)."""
    collecting = _COLLECT.get()
    if collecting is not None:
        collecting.append((sql, list(params or [])))
        return pl.DataFrame()
    return run_many(src, [(sql, list(params or []))])[0]


#: while set, :func:`columns` answers with these (a current warehouse's usual columns) instead
#: of asking (see :func:`batch`)
_ASSUME: contextvars.ContextVar[Mapping[str, frozenset[str]] | None] = contextvars.ContextVar(
    "balance_assume", default=None)

#: each source's tables' columns, once asked (by data version)
_KNOWN: OrderedDict[tuple[Any, ...], frozenset[str]] = OrderedDict()


def _probe_sql(table: str) -> str:
    """A statement whose result has ``table``'s columns and no row (an absent table gives an
    empty frame): binding it costs 1-3 ms on a warehouse, where a look at every catalog
    (``information_schema``, ``duckdb_columns()`` unrestricted) costs 10-20 ms on a new
    connection; :func:`batch` asks the warehouse's own catalog once for several tables
    (:func:`_catalog_sql`), a study folder's in-memory views are probed."""
    if not _TABLE.match(table):
        raise ValueError(f"not a table name: {table!r}")
    return f"SELECT * FROM {table} LIMIT 0"  # a lower-case name, never user text


def _catalog_sql(tables: Sequence[str]) -> tuple[str, list[Any]]:
    """ONE statement naming the columns of each of ``tables`` in a warehouse (a row per table
    and column; none for an absent table): the warehouse's own catalog, 4 ms at a million
    games where a :func:`_probe_sql` per table cost 2 ms each."""
    return ("SELECT table_name, column_name FROM duckdb_columns() "
            "WHERE database_name = current_database() "
            "AND list_contains(?::VARCHAR[], table_name)", [list(tables)])


def _know(src: Source, table: str, frame: pl.DataFrame | frozenset[str]) -> frozenset[str]:
    cols = frame if isinstance(frame, frozenset) else frozenset(frame.columns)
    _KNOWN[(data_version(src), table)] = cols
    while len(_KNOWN) > 256:
        _KNOWN.popitem(last=False)
    return cols


def columns(src: Source, table: str) -> frozenset[str]:
    """The columns ``table`` has in the source, empty when the table is absent (kept until the
    data changes)."""
    assumed = _ASSUME.get()
    if assumed is not None:
        return assumed.get(table, frozenset())
    known = _KNOWN.get((data_version(src), table))
    if known is not None:
        return known
    # never only recorded by batch
    return _know(src, table, run_many(src, [(_probe_sql(table), [])])[0])


def batch(src: Source, build: Callable[[], object], probes: Sequence[str],
          usual: Mapping[str, frozenset[str]]) -> None:
    """Run together the statements ``build`` would run (a connection costs about as much as
    the queries on 10,000 games). When the columns of the ``probes`` tables are not known yet,
    the statements are built for a current warehouse (``usual``: its tables' columns that
    the statements depend on) and the columns are fetched with them; if they turn out
    different, the functions build their own statements later (and run them then)."""
    statements: list[tuple[str, list[Any]]] = []
    version = data_version(src)
    unknown = [t for t in probes if (version, t) not in _KNOWN]
    catalog = bool(unknown) and src.study is None  # a warehouse: its catalog, one statement
    if catalog:
        statements.append(_catalog_sql(unknown))
    else:  # a study folder's views: a probe each (an in-memory connection's, a few µs)
        statements.extend((_probe_sql(t), []) for t in unknown)
    token = _COLLECT.set(statements)
    assume = _ASSUME.set(usual if unknown else None)
    try:
        build()
    finally:
        _COLLECT.reset(token)
        _ASSUME.reset(assume)
    frames = run_many(src, statements)
    if catalog:
        named: dict[str, set[str]] = {t: set() for t in unknown}
        if frames[0].height:
            for table, column in frames[0].select("table_name", "column_name").iter_rows():
                named.setdefault(str(table), set()).add(str(column))
        for table in unknown:
            _know(src, table, frozenset(named[table]))
        return
    for table, frame in zip(unknown, frames, strict=False):
        _know(src, table, frame)


def data_version(src: Source) -> tuple[Any, ...]:
    """What changes when the source's data changes (file sizes and modification times)."""
    if src.study is not None:
        return (str(src.study), src.pool_policies, study_version(study_tables(src.study)))
    assert src.db is not None
    wal = src.db.with_name(src.db.name + ".wal")  # the database and its write-ahead log
    return (str(src.db), _stat(src.db), _stat(wal))


_RESULTS: OrderedDict[tuple[Any, ...], pl.DataFrame] = OrderedDict()


def memo(key: tuple[Any, ...], make: Callable[[], pl.DataFrame]) -> pl.DataFrame:
    """``make()`` kept under ``key`` (which holds the source's :func:`data_version`)."""
    hit = _RESULTS.get(key)
    if hit is None:
        hit = _RESULTS[key] = make()
        while len(_RESULTS) > 64:
            _RESULTS.popitem(last=False)
    return hit


#: caches of a game's balance module, emptied with the shared ones (:func:`on_clear`)
_CLEARS: list[Callable[[], None]] = []


def on_clear(clear: Callable[[], None]) -> None:
    """Have :func:`clear_caches` call ``clear`` too (a game's own caches of balance results)."""
    if clear not in _CLEARS:
        _CLEARS.append(clear)


def clear_caches() -> None:
    """Forget every cached result (the benchmark's "cold" runs), every game's included."""
    _RESULTS.clear()
    _STUDY_CACHE.clear()
    _KNOWN.clear()
    for clear in _CLEARS:
        clear()


def for_count(f: Any, n: int) -> Any:
    """``f`` (a dataclass :class:`Selection`) narrowed to games of ``n`` players: every figure
    of a player count is the same under it (each is computed per player count, never pooled),
    and the queries read only those games."""
    if f.player_counts and n not in f.player_counts:
        return f  # the filters leave no game of n players: nothing to narrow
    return dataclasses.replace(f, player_counts=(n,))


def study_path(text: str | None) -> Path | None:
    """A study folder named by the user (or ``PLAYTEST_STUDY``), if it holds games and seats."""
    text = (text or os.environ.get("PLAYTEST_STUDY") or "").strip()
    if not text:
        return None
    p = Path(text).expanduser()
    tables = study_tables(p) if p.is_dir() else {}
    return p if "games" in tables and "seats" in tables else None


# --- the selected games ---------------------------------------------------------------------


def games_cte(src: Source, f: Selection, game: str, extra: str = "", join: str = ""
              ) -> tuple[str, list[Any]]:
    """``g``: the selected complete games of ``game`` with ``game_id``, ``player_count`` and
    ``kind`` (the kind of game and, when the selected games of a kind and player count hold
    several study arms, the arm: :data:`ARM_SQL`), plus ``extra`` columns (``, expr AS
    name``) over ``join`` (joined to the games aliased ``g``)."""
    if src.study is not None:
        params: list[Any] = []
        where = "coalesce(g.complete, TRUE)"
        if f.player_counts:
            where += " AND list_contains(?::INTEGER[], g.player_count)"
            params.append([int(n) for n in f.player_counts])
        kind = ("'study: ' || (SELECT string_agg(DISTINCT policy, '+' ORDER BY policy) "
                "FROM games_p)") if src.pool_policies else "'study: ' || g.policy"
        arm = STUDY_ARM_SQL if "variant" in columns(src, "games") else "'baseline'"
        base = (f"SELECT g.game_id, g.player_count, {kind} AS kind0, {arm} AS arm{extra} "
                f"FROM games_p g {join} WHERE {where}")
    else:
        cond, params = f.where()
        arm = VARIANT_ARM_SQL if "variant_content_hash" in columns(src, "games") else ARM_SQL
        base = (f"SELECT g.game_id, g.player_count, {KIND_SQL} AS kind0, {arm} AS arm"
                f"{extra} FROM games g {join} WHERE {cond} AND g.complete "
                "AND coalesce(g.game, ?) = ?")
        params = [*params, _default_game(), game]
    # a kind is split by arm only where it holds several (one arm: its label as it always was)
    return (f"g0 AS ({base}), g AS (SELECT g0.* EXCLUDE (kind0), CASE WHEN min(arm) OVER w "
            f"= max(arm) OVER w THEN kind0 ELSE kind0 || '{ARM_MARK}' || arm END AS kind "
            "FROM g0 WINDOW w AS (PARTITION BY kind0, player_count))"), params


def _default_game() -> str:
    from engine.core.registry import DEFAULT_GAME

    return DEFAULT_GAME


def split_kind(kind: str) -> tuple[str, str | None]:
    """A kind's base and its study arm (None when the kind holds one arm)."""
    base, mark, arm = kind.partition(ARM_MARK)
    return base, (arm if mark else None)


# --- a game's declared metrics --------------------------------------------------------------


def declaration(game: str) -> Balance:
    """The balance metrics ``game`` declares (none for an unknown game)."""
    from engine.core.registry import get_ruleset

    ruleset = get_ruleset(game)
    return ruleset.balance if ruleset is not None else Balance()


def game_counts(src: Source, f: Selection, game: str) -> dict[tuple[str, int], int]:
    """Complete games of ``game`` per (kind, player count) in the source."""
    ctes, params = games_cte(src, f, game)
    df = run(src, f"WITH {ctes} SELECT kind, player_count, count(*) AS games FROM g "
                  "GROUP BY ALL", params)
    if df.is_empty():
        return {}
    return {(str(k), int(n)): int(c) for k, n, c in df.iter_rows()}


def metrics(game: str, src: Source, f: Selection, player_count: int | None = None
            ) -> pl.DataFrame:
    """Every metric ``game`` declares, per kind, player count (only ``player_count`` when
    given) and key: value, 95% interval, games, threshold, verdict (where the game publishes
    a threshold), games to settle an undecided one and a note where there is no value
    (:data:`COLUMNS`). Kept until the data changes."""
    decl = declaration(game)
    return memo(("declared", game, data_version(src), f, player_count),
                lambda: _metrics(game, decl, src, f, player_count))


def _metrics(game: str, decl: Balance, src: Source, f: Selection, only: int | None
             ) -> pl.DataFrame:
    parts: list[pl.DataFrame] = []
    called: set[str] = set()
    counts = game_counts(src, f, game)
    for m in decl.metrics:
        if is_sql(m.compute):
            # a declared SELECT gives its rows per (kind, player count) of ``counts``: none
            # without complete games (not run then: each reads the games table)
            if counts:
                parts.append(_sql_metric(game, m, src, f, counts, only))
        elif m.compute not in called:
            called.add(m.compute)
            fn: Callable[..., pl.DataFrame] = resolve(m.compute)
            parts.append(_complete(fn(src, f, only), decl.metrics))
    frames = [p for p in parts if not p.is_empty()]
    if not frames:
        return pl.DataFrame(schema=COLUMNS)
    return pl.concat(frames, how="diagonal_relaxed").select(list(COLUMNS))


def _complete(df: pl.DataFrame, declared: Sequence[BalanceMetric]) -> pl.DataFrame:
    """A declared function's frame with every column of :data:`COLUMNS` (the declaration's
    names, thresholds and bounds where it left them out)."""
    if df.is_empty():
        return df
    by_id = {m.id: m for m in declared}

    def fill(col: str, make: Callable[[BalanceMetric], Any]) -> pl.Expr:
        values = {k: make(m) for k, m in by_id.items()}
        return pl.col("metric").replace_strict(values, default=None, return_dtype=COLUMNS[col])

    add = []
    for col, make in (("name", lambda m: m.label),
                      ("threshold", lambda m: m.threshold),
                      ("bound", lambda m: _bound_words(m.bound))):
        if col not in df.columns:
            add.append(fill(col, make).alias(col))
    for col in ("key", "verdict", "note", "games_needed"):
        if col not in df.columns:
            add.append(pl.lit(None, dtype=COLUMNS[col]).alias(col))
    return df.with_columns(add).with_columns(
        [pl.col(c).cast(t) for c, t in COLUMNS.items()])


def _bound_words(bound: str) -> str:
    return "at most" if bound == "max" else "at least"


def _sql_metric(game: str, m: BalanceMetric, src: Source, f: Selection,
                counts: dict[tuple[str, int], int], only: int | None) -> pl.DataFrame:
    """A metric declared as a SELECT (module docstring): per kind, player count and key."""
    ctes, params = games_cte(src, f, game)
    df = run(src, f"WITH {ctes}, m AS ({m.compute}) "
                  "SELECT g.kind, g.player_count, m.* FROM m JOIN g USING (game_id)", params)
    rows: list[dict[str, Any]] = []
    for (kind, n), games in sorted(counts.items()):
        if only is not None and n != only:
            continue
        part = (df.filter((pl.col("kind") == kind) & (pl.col("player_count") == n))
                if not df.is_empty() else df)
        if part.is_empty():
            rows.append(_row(m, kind, n, None, None, games, "nothing recorded for it in "
                                                            "these games"))
            continue
        if "key" not in part.columns:
            part = part.with_columns(pl.lit("").alias("key"))
        part = part.with_columns(pl.col("key").cast(pl.String).fill_null("–"))
        for key in sorted(set(part["key"].to_list())):
            rows_k = part.filter(pl.col("key") == key)
            if "value" in part.columns:
                xs = [float(v) for v in rows_k["value"].to_list() if v is not None]
                rows.append(_row(m, kind, n, key, _mean(xs), games))
            else:
                hit = rows_k["game_id"].n_unique()
                lo, hi = stats.jeffreys(hit, games)
                rows.append(_row(m, kind, n, key, (hit / games, lo, hi), games))
    return pl.DataFrame(rows, schema=COLUMNS)


def _mean(xs: list[float]) -> tuple[float, float | None, float | None] | None:
    """The mean of ``xs`` and its 95% interval: Jeffreys' for values in [0, 1], else t."""
    xs = [x for x in xs if not math.isnan(x)]
    if not xs:
        return None
    if all(0.0 <= x <= 1.0 for x in xs):
        lo, hi = stats.jeffreys(sum(xs), len(xs))
        return sum(xs) / len(xs), lo, hi
    res = stats.mean_interval(xs)
    return float(res["mean"]), res["low"], res["high"]


def _row(m: BalanceMetric, kind: str, n: int, key: str | None,
         est: tuple[float, float | None, float | None] | None, games: int, note: str = ""
         ) -> dict[str, Any]:
    """One row of :data:`COLUMNS`: the verdict against the game's threshold, if it has one."""
    value, low, high = est if est is not None else (None, None, None)
    verdict, need = "no value", None
    if value is not None:
        verdict = "no threshold"
        if m.threshold is not None:
            verdict = stats.verdict(low, high, m.threshold, m.bound, games)
            if verdict == stats.NOT_ENOUGH:
                need = stats.games_needed(value, low, high, m.threshold, games)
    return {"kind": kind, "player_count": n, "metric": m.id, "name": m.label, "key": key,
            "value": value, "low": low, "high": high, "games": games,
            "bound": _bound_words(m.bound), "threshold": m.threshold, "verdict": verdict,
            "note": note if value is None else "", "games_needed": need}
