"""The current shape of every warehouse table, as polars dtypes.

The shared tables (every game) are listed here; each ruleset declares its own tables and its
columns of the shared ``seats`` and ``outcomes`` tables (``Ruleset.tables``), added in registry
order. This is the Python side of the tables that :mod:`ingest.warehouse.migrations` creates; a test
checks that the migrated database has exactly these columns and types, so the two cannot drift.
Frames for loading are built with these dtypes (strict: a value of the wrong type is an error,
never a silent null). ``game_id`` is the first column of every game table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import polars as pl

from engine.core.registry import rulesets

S: pl.DataType = pl.String()
I: pl.DataType = pl.Int32()  # noqa: E741 - short names keep the table list readable
D: pl.DataType = pl.Float64()
B: pl.DataType = pl.Boolean()
TS: pl.DataType = pl.Datetime("us")
DATE: pl.DataType = pl.Date()
J: pl.DataType = pl.String()  # JSON text; DuckDB stores it as JSON
SL: pl.DataType = pl.List(pl.String())
IL: pl.DataType = pl.List(pl.Int32())

# table -> ordered (column, polars dtype, DuckDB type)
TABLES: dict[str, list[tuple[str, pl.DataType, str]]] = {}


def _t(name: str, *cols: tuple[str, pl.DataType, str]) -> None:
    TABLES[name] = [("game_id", S, "VARCHAR"), *cols]


def _c(name: str, dtype: pl.DataType) -> tuple[str, pl.DataType, str]:
    duck = {
        S: "VARCHAR", I: "INTEGER", D: "DOUBLE", B: "BOOLEAN", TS: "TIMESTAMP",
        SL: "VARCHAR[]", IL: "INTEGER[]", DATE: "DATE",
    }[dtype]
    return (name, dtype, duck)


def _json(name: str) -> tuple[str, pl.DataType, str]:
    return (name, J, "JSON")


_t(
    "games",
    _c("game", S), _c("rules_version", S), _c("profile", S), _c("session_type", S),
    _c("is_human", B), _c("illustrative", B), _c("player_count", I), _c("date", DATE),
    _c("venue", S), _c("facilitator", S), _c("protocol", S), _c("detail", S), _c("status", S),
    _c("n_events", I), _c("n_errors", I), _c("n_warnings", I), _c("complete", B),
    _c("evidence", B), _c("evidence_reasons", SL), _c("duration_evidence", B),
    _c("duration_reasons", SL), _c("total_minutes", D), _c("setup_minutes", D),
    _c("source_format", S), _c("source_name", S), _c("raw_sha256", S), _c("archive_path", S),
    _c("ingested_at", TS), _json("receipt"), _c("rules_deviations", SL),
    _c("interventions", SL), _c("unchecked", SL),
    # the rules variant played (the header's stamp; NULL: the rules as printed)
    _c("variant_name", S), _c("variant_content_hash", S), _json("variant_changes"),
)
# A game's location parts: era and cycle (Mandate 2038), round (Vestige); unknown parts NULL.
_t("seats", _c("seat", I), _c("faction", S), _c("player", S), _c("provisional_winner", B),
   _c("winner", B))
_t(
    "events",
    _c("idx", I), _c("type", S), _c("seat", I), _c("era", I), _c("cycle", I), _c("t", TS),
    _c("line", I), _json("payload"), _c("round", I),
)
_t(
    "findings",
    _c("n", I), _c("code", S), _c("severity", S), _c("rule", S), _c("message", S),
    _c("event", I), _c("line", I), _c("era", I), _c("cycle", I), _c("seat", I),
    _json("expected"), _json("recorded"), _c("rulings", S), _c("round", I),
)
_t(
    "ledger",
    _c("n", I), _c("seat", I), _c("era", I), _c("cycle", I), _c("event", I), _c("source", S),
    _c("amount", I), _c("total", I), _c("detail", S), _c("round", I),
)
_t(
    "phases",
    _c("phase", S), _c("era", I), _c("cycle", I), _c("start_t", TS), _c("end_t", TS),
    _c("minutes", D),
)
_t(
    "turn_times",
    _c("era", I), _c("cycle", I), _c("seat", I), _c("action", S), _c("event", I),
    _c("seconds", D),
)
# mode: competitive, team, coop or solo; result: won/lost against the game (coop and solo).
_t(
    "outcomes",
    _c("complete", B), _c("provisional_winners", IL), _c("winners", IL), _c("ending", S),
    _json("details"), _c("mode", S), _c("winning_team", S), _c("result", S),
)
_t(
    "observations",
    _c("idx", I), _c("category", S), _c("rule", S), _c("seat", I), _c("era", I),
    _c("cycle", I), _c("text", S), _c("minutes", D), _c("t", TS), _c("round", I),
)
_t(
    "survey",
    _c("idx", I), _c("seat", I), _c("item", S), _c("value_text", S), _c("value_num", D),
)
_t(
    "capture",
    _c("item_id", S), _c("grp", S), _c("captured", B), _c("reason", S),
)

# The tables every game fills (the rows of :mod:`ingest.rows`).
SHARED_TABLES: tuple[str, ...] = tuple(TABLES)
# Shared tables a ruleset may add columns to (after the shared ones, in registry order).
EXTENSIBLE: frozenset[str] = frozenset({"seats", "outcomes"})

_DTYPES: dict[str, pl.DataType] = {
    "VARCHAR": S, "INTEGER": I, "DOUBLE": D, "BOOLEAN": B, "TIMESTAMP": TS, "DATE": DATE,
    "JSON": J, "VARCHAR[]": SL, "INTEGER[]": IL,
}


def _declared(game: str, tables: Mapping[str, Sequence[tuple[str, str]]]) -> set[str]:
    """Add one ruleset's declared tables (and its columns of the shared ones); its own tables."""
    own: set[str] = set()
    for name, cols in tables.items():
        typed = [(c, _DTYPES[duck], duck) for c, duck in cols]
        if name in TABLES:
            if name not in EXTENSIBLE:
                raise ValueError(f"the {game} ruleset declares columns of the shared table "
                                 f"{name!r}, which only takes columns of its own")
            have = {c for c, _, _ in TABLES[name]}
            TABLES[name].extend(col for col in typed if col[0] not in have)
        else:
            TABLES[name] = [("game_id", S, "VARCHAR"), *typed]
            own.add(name)
    return own


# Every registered ruleset declares its own tables (``Ruleset.tables``), in registry order.
_RECORD: set[str] = set()
for _game, _rs in rulesets().items():
    _RECORD |= _declared(_game, _rs.tables)

# Tables filled from ReplayResult.records (the engine's rows), by name.
RECORD_TABLES: frozenset[str] = frozenset(_RECORD)
GAME_TABLES: tuple[str, ...] = tuple(TABLES)


def polars_schema(table: str) -> dict[str, pl.DataType]:
    """The polars schema of ``table``."""
    return {name: dtype for name, dtype, _ in TABLES[table]}


def empty_frame(table: str) -> pl.DataFrame:
    """An empty frame with the columns and dtypes of ``table``."""
    return pl.DataFrame(schema=polars_schema(table))


DOC_START = "<!-- game tables: generated from the declarations by `python -m ingest.warehouse.docs`; do not edit -->"
DOC_END = "<!-- end of game tables -->"


def tables_markdown() -> str:
    """The toolkit's own games' declared tables (and their columns of the shared ``seats`` and
    ``outcomes`` tables) as the markdown block docs/warehouse.md carries (a game installed as
    its own package documents its tables itself)."""
    from engine.core.registry import own_games

    lines = [DOC_START, ""]
    own = set(own_games())
    for game, rs in rulesets().items():
        if game not in own:
            continue
        lines += [f"**{rs.title}** (`{game}`, `{type(rs).__module__}`):", "",
                  "| table | columns (DuckDB type) |", "|---|---|"]
        for name, cols in rs.tables.items():
            where = f"`{name}` (its columns of the shared table)" if name in EXTENSIBLE \
                else f"`{name}`"
            body = ", ".join(f"{c} ({ty})" for c, ty in cols)
            lines.append(f"| {where} | {'game_id, ' if name not in EXTENSIBLE else ''}{body} |")
        lines.append("")
    lines.append(DOC_END)
    return "\n".join(lines)


def update_doc(path: Path) -> bool:
    """Write :func:`tables_markdown` between the markers of ``path`` (append it when absent);
    True when the file changed."""
    text = path.read_text(encoding="utf-8")
    block = tables_markdown()
    if DOC_START in text and DOC_END in text:
        head, rest = text.split(DOC_START, 1)
        new = head + block + rest.split(DOC_END, 1)[1]
    else:
        new = text.rstrip("\n") + "\n\n" + block + "\n"
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


DOC = Path(__file__).resolve().parents[2] / "docs" / "warehouse.md"
