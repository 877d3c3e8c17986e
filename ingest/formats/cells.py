"""Spreadsheet-safe CSV cells: formula injection is neutralised on output, reversibly.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage
return before one of them) as a formula: ``=HYPERLINK(...)`` or ``-2+3+cmd|' /C calc'!A0`` in a
player name or a note would act when a designer opens an exported CSV. Every CSV this toolkit
writes (``convert --to csv``, ``export --csv``, the app's CSV downloads) therefore puts an
apostrophe in front of such a cell, the OWASP advice, which spreadsheets show as text.

The rule is a bijection, so our own reader gets every value back exactly:

* written: a cell matching ``'*[=+\\-@\\t\\r]...`` (any apostrophes, then a formula character)
  gets one more leading apostrophe, unless the whole cell is a plain number (``-3``, ``+1.5``,
  ``-2e3``): spreadsheets read those as numbers, never as formulas, and they must stay numbers;
* read: one leading apostrophe is dropped from a cell matching ``'+[=+\\-@\\t\\r]...``.

A value that really starts with an apostrophe followed by a formula character (``'=x``) is
written with two (``''=x``) and reads back as ``'=x``; any other value is written as it is.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl

_FORMULA_START = "=+-@\t\r"
#: cells that a spreadsheet could run, ignoring apostrophes already in front
DANGER = re.compile(r"'*[=+\-@\t\r]")
#: cells our reader un-escapes: at least one apostrophe, then a formula character
ESCAPED = re.compile(r"'+[=+\-@\t\r]")
#: a plain number, which a spreadsheet reads as a number (written as it is)
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")

# The same two patterns as anchored regular expressions for polars and DuckDB (RE2 syntax).
DANGER_RE = r"^'*[=+\-@\t\r]"
NUMBER_RE = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"


def neutralise(cell: str) -> str:
    """The cell as written to a CSV: an apostrophe in front when a spreadsheet could run it.

    >>> neutralise("=1+1"), neutralise("-3"), neutralise("-x"), neutralise("'=x"), neutralise("ok")
    ("'=1+1", '-3', "'-x", "''=x", 'ok')
    """
    if cell and (cell[0] in _FORMULA_START or cell[0] == "'") and DANGER.match(cell) \
            and not NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def restore(cell: str) -> str:
    """The value of a cell written by :func:`neutralise` (the exact inverse).

    >>> [restore(neutralise(v)) for v in ("=1+1", "-3", "'=x", "'quoted'", "@home")]
    ['=1+1', '-3', "'=x", "'quoted'", '@home']
    """
    if cell[:1] == "'" and ESCAPED.match(cell):
        return cell[1:]
    return cell


def neutralise_frame(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with every text cell passed through :func:`neutralise` (other types unchanged)."""
    import polars as pl

    cols = [c for c, t in df.schema.items() if t == pl.Utf8]
    if not cols:
        return df
    return df.with_columns(
        pl.when(pl.col(c).str.contains(DANGER_RE) & ~pl.col(c).str.contains(NUMBER_RE))
        .then(pl.lit("'") + pl.col(c))
        .otherwise(pl.col(c))
        .alias(c)
        for c in cols
    )


def neutralise_sql(column: str) -> str:
    """A DuckDB expression for a VARCHAR column (a quoted identifier) written neutralised."""
    danger = DANGER_RE.replace("'", "''")
    return (f"CASE WHEN regexp_matches({column}, '{danger}') "
            f"AND NOT regexp_matches({column}, '{NUMBER_RE}') "
            f"THEN '''' || {column} ELSE {column} END")
