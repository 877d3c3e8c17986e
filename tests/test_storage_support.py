"""Helpers for the storage tests: synthetic game folders, the child-process environment.

The storage tests replay through the real Mandate 2038 ruleset (the synthetic logs are
well-formed but illegal games, so they carry many findings, which the warehouse must store).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.core.registry import get_ruleset
from ingest.mandate2038.synthetic import synthetic_log
from schemas.canonical import dumps_log

TESTS_DIR = Path(__file__).resolve().parent


def ensure_ruleset() -> str:
    """The storage tests run on the real Mandate 2038 ruleset; fail loudly if it is missing."""
    rs = get_ruleset("mandate2038")
    assert rs is not None, "the Mandate 2038 ruleset is not registered"
    return "engine"


def as_child(monkeypatch: Any, **extra: str) -> None:
    """Give this process the environment its child processes get (:func:`child_env`'s
    ``PLAYTEST_`` variables and ``PYTHONPATH``, then ``extra``) and check the ruleset is
    registered: the body of the storage tests' autouse fixtures."""
    for k, v in child_env(**extra).items():
        if k.startswith("PLAYTEST_") or k == "PYTHONPATH":
            monkeypatch.setenv(k, v)
    ensure_ruleset()


def table_columns(con: Any) -> dict[str, list[str]]:
    """Every table of the warehouse's ``main`` schema (by name) and its columns in order, from
    one read of the catalog."""
    out: dict[str, list[str]] = {}
    for table, column in con.execute(
            "SELECT c.table_name, c.column_name FROM information_schema.columns c "
            "JOIN information_schema.tables t USING (table_catalog, table_schema, table_name) "
            "WHERE c.table_schema = 'main' AND t.table_type = 'BASE TABLE' "
            "ORDER BY c.table_name, c.ordinal_position").fetchall():
        out.setdefault(table, []).append(column)
    return out


def warehouse_tables(db: Path, *, without: frozenset[str] = frozenset(),
                     folder_as: str | None = None) -> dict[str, list[str]]:
    """Every table of the warehouse at ``db`` (the derived ones too, not
    ``schema_migrations``): its rows as text, sorted. ``game_rows`` and ``protocol_rows`` without
    their row ids (``lo``: where a load put the rows); the columns named in ``without`` left out;
    with ``folder_as``, the database's folder written so in the text (archive paths)."""
    from ingest.db import connect

    out = {}
    with connect(db, read_only=True) as con:
        for name, cols in table_columns(con).items():
            if name == "schema_migrations":
                continue
            keep = ", ".join(f'"{c}"' for c in cols if c not in without
                             and not (name.endswith("_rows") and c == "lo"))
            rows = [repr(r) for r in con.execute(f'SELECT {keep} FROM "{name}"').fetchall()]
            if folder_as is not None:
                rows = [r.replace(str(db.parent), folder_as) for r in rows]
            out[name] = sorted(rows)
    return out


def child_env(**extra: str) -> dict[str, str]:
    """Environment for worker/child processes: they register the same ruleset as this one."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS_DIR), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


def write_games(folder: Path, n: int, *, start: int = 0, events: int = 120, **kw: Any) -> list[Path]:
    """Write ``n`` synthetic canonical JSON logs into ``folder``; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(start, start + n):
        path = folder / f"game_{i:05d}.json"
        path.write_text(dumps_log(synthetic_log(i, events_target=events, **kw)), encoding="utf-8")
        out.append(path)
    return out
