"""Frames of a batch: the rows of many games gathered column by column and turned into one polars
frame per warehouse table (via Arrow, strictly typed)."""

from __future__ import annotations

import functools
import importlib.abc
import sys
from typing import TYPE_CHECKING, Any, NamedTuple

import polars as pl

from ingest.rows import _COLUMNS, GameColumns, _from_rows
from ingest.warehouse.schema import TABLES

if TYPE_CHECKING:
    import pyarrow as pa


class _Arrow(NamedTuple):
    """pyarrow and what this module makes of it, imported on first use: the process that only
    loads spooled batches (``ingest.loading``) imports this module but never builds frames, and
    pyarrow (with numpy) is ~36 MB of its memory (docs/storage.md "Spooled loads")."""

    pa: Any
    schemas: dict[str, pa.Schema]
    #: Arrow buffers of a batch live only until polars has copied them into its frames:
    #: allocated with the system allocator, which gives large blocks back when they are freed
    #: (pyarrow's default mimalloc pool kept them: one 47 MB log peaked ~60 MB higher,
    #: docs/storage.md).
    pool: Any
    errors: tuple[type[BaseException], ...]


@functools.cache
def _arrow_bits() -> _Arrow:
    import pyarrow as pa

    types: dict[str, pa.DataType] = {
        "VARCHAR": pa.large_string(), "JSON": pa.large_string(), "INTEGER": pa.int32(),
        "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(), "TIMESTAMP": pa.timestamp("us"),
        "DATE": pa.date32(), "VARCHAR[]": pa.large_list(pa.large_string()),
        "INTEGER[]": pa.large_list(pa.int32()),
    }
    schemas = {t: pa.schema([(c, types[duck]) for c, _, duck in cols])
               for t, cols in TABLES.items()}
    return _Arrow(pa, schemas, pa.system_memory_pool(),
                  (pa.ArrowException, TypeError, ValueError, OverflowError))


_NO_ROWS: tuple[int, dict[str, list[Any]]] = (0, {})


def without_pandas() -> bool:
    """Settle pyarrow's lazy pandas check in this process as "no pandas", without importing it.

    ``pa.array`` asks pandas whether a list is one of its arrays, and so imports pandas on the
    first conversion of a process (~0.5 CPU-s and +42 MB in an ingest worker, docs/storage.md)
    although frames are built from plain lists only. pyarrow tries that import once per process;
    here it is tried with pandas hidden, so it fails and pyarrow remembers that pandas is
    absent: its pandas conversions (``to_pandas``, ``from_pandas``) then no longer work in this
    process. For processes that only build frames (ingest pool workers,
    ``ingest.batching._init_worker``), never for the app. The conversion itself is pyarrow's
    either way (the same values accepted, the same refused). Returns False when pandas was
    already imported or pyarrow had already looked (nothing changed)."""
    if "pandas" in sys.modules:
        return False
    pa = _arrow_bits().pa
    hide = _HidePandas()
    sys.meta_path.insert(0, hide)  # "import pandas" raises ImportError meanwhile
    try:
        pa.array([], type=pa.int32())  # pyarrow's one look for pandas happens here
    finally:
        sys.meta_path.remove(hide)
    return hide.asked


class _HidePandas(importlib.abc.MetaPathFinder):
    """An import finder refusing pandas (and noting that it was asked)."""

    def __init__(self) -> None:
        self.asked = False

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname == "pandas" or fullname.startswith("pandas."):
            self.asked = True
            raise ModuleNotFoundError(f"{fullname} is hidden from pyarrow", name=fullname)
        return None


class FrameBuilder:
    """Collects the rows of many games by table, column by column, and turns them into polars
    frames via Arrow.

    Conversion is strict (a value of the wrong type is an error, not a null). When a batch does
    not convert, the offending games are found one by one and reported, and the rest convert.
    """

    def __init__(self) -> None:
        self.cols: dict[str, dict[str, list[Any]]] = {
            t: {c: [] for c in cols} for t, cols in _COLUMNS.items()
        }
        self.sizes: dict[str, int] = dict.fromkeys(TABLES, 0)
        self.spans: list[tuple[str, dict[str, tuple[int, int]]]] = []

    def add_game(self, game_id: str, rows: dict[str, list[dict[str, Any]]]) -> None:
        """Add one game's rows (row dicts, as :func:`game_rows` gives them)."""
        self.add_columns(game_id, {t: _from_rows(t, list(rows.get(t, ()))) for t in TABLES})

    def add_columns(self, game_id: str, columns: GameColumns) -> None:
        """Add one game's columns (as :func:`game_columns` gives them)."""
        for table, (n, cols) in columns.items():
            if table not in self.cols:
                raise ValueError(f"no warehouse table named {table!r}")
            for c, got in cols.items():
                if len(got) != n:  # checked before anything is added
                    raise ValueError(f"table {table!r}: column {c!r} has {len(got)} values "
                                     f"for {n} rows")
        span: dict[str, tuple[int, int]] = {}
        sizes = self.sizes
        for table, acc in self.cols.items():
            start = sizes[table]
            n, cols = columns.get(table, _NO_ROWS)
            if n:
                get = cols.get
                nones = [None] * n
                for c, values in acc.items():
                    if c == "game_id":
                        values.extend([game_id] * n)
                    else:
                        given = get(c)
                        values.extend(nones if given is None else given)
            sizes[table] = start + n
            span[table] = (start, start + n)
        self.spans.append((game_id, span))

    @property
    def game_ids(self) -> list[str]:
        return [g for g, _ in self.spans]

    def _arrow(self, table: str, keep: slice | list[int] | None = None) -> pa.Table:
        """The table's rows (all, a slice, or the listed row numbers) as Arrow."""
        bits = _arrow_bits()
        pa, schema, pool = bits.pa, bits.schemas[table], bits.pool
        cols = self.cols[table]
        arrays = []
        for f in schema:
            values = cols[f.name]
            if isinstance(keep, slice):
                values = values[keep]
            elif keep is not None:
                values = [values[i] for i in keep]
            arrays.append(pa.array(values, type=f.type, memory_pool=pool))
        return pa.Table.from_arrays(arrays, schema=schema)

    def build(self) -> tuple[dict[str, pl.DataFrame], dict[str, str]]:
        """One polars frame per table, and the games left out because their rows do not fit
        (game id -> reason). Each table is converted once; per-game conversion only runs for a
        table that failed, to name the culprits.

        Consumes the builder: each table's Python values are dropped as soon as its frame is
        made, so that the values, the Arrow arrays and the frames of all tables are never
        alive at once (only one table's)."""
        out: dict[str, pl.DataFrame] = {}
        bad: dict[str, str] = {}
        failed: list[str] = []
        errors = _arrow_bits().errors
        for table in TABLES:
            try:
                arrow = self._arrow(table)
            except errors:
                failed.append(table)
                for gid, span in self.spans:
                    try:
                        self._arrow(table, slice(*span[table]))
                    except errors as err:
                        bad.setdefault(gid, f"its {table!r} rows do not fit the table: {err}")
                continue
            out[table] = _frame(arrow)
            del arrow
            self.cols[table] = {c: [] for c in self.cols[table]}
        if bad:
            for table in failed:
                keep = [i for gid, span in self.spans if gid not in bad
                        for i in range(*span[table])]
                out[table] = _frame(self._arrow(table, keep))
            gone = pl.Series(sorted(bad), dtype=pl.String).implode()
            for table in TABLES:
                if table not in failed:
                    out[table] = out[table].filter(~pl.col("game_id").is_in(gone))
        self.cols = {t: {c: [] for c in cols} for t, cols in self.cols.items()}
        self.spans = []
        self.sizes = dict.fromkeys(TABLES, 0)
        return {t: out[t] for t in TABLES}, bad


def _frame(arrow: pa.Table) -> pl.DataFrame:
    frame = pl.from_arrow(arrow)
    assert isinstance(frame, pl.DataFrame)
    return frame

