"""The Variants page's shared queries (docs/variants.md): the physical playtests of each rules
variant as the warehouse records them, beside a study's simulated games, for every game; the
rows of a comparison as a frame. A game's comparison is its study parts' (``playtest compare``:
``StudyParts.compare``; Mandate 2038's in its room, every game declaring ``play`` by
:func:`ingest.study.compare_study`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from ingest import stats

BASELINE = "baseline"


# --- physical playtests of each variant (the warehouse) -------------------------------------


def _columns(db: Path, table: str) -> set[str]:
    from dashboards import store

    if not store.table_exists(db, table):
        return set()
    return set(store.query(db, f"SELECT * FROM {table} LIMIT 0").columns)


def physical_by_variant(db: Path, f: Any = None) -> pl.DataFrame:
    """Physical playtests (facilitated and blind; never an illustrative sample) per game and
    rules variant, as the warehouse records it (``games.variant_name``, filled from the log's
    header by the load step; never re-read from the archive), among the games the sidebar's
    filters ``f`` select (``dashboards.queries.Filters``; None: every game): games, complete
    and partial ones (finished early, or recorded in part), and among the complete ones the
    AGI emergences and Open endings where the game has them (``agi_known``: complete games
    whose outcome says; 0 for a game without AGI)."""
    from dashboards import store
    from dashboards.queries import Filters

    have = _columns(db, "games")
    if not have:
        return pl.DataFrame()
    where, params = (f if f is not None else Filters()).where("g")
    out_cols = _columns(db, "outcomes")
    has_agi = {"agi", "open"} <= out_cols
    join, agi, opn = (("LEFT JOIN outcomes o USING (game_id)", "o.agi", "o.open") if has_agi
                      else ("", "CAST(NULL AS BOOLEAN)", "CAST(NULL AS BOOLEAN)"))
    # a warehouse not yet migrated to schema 9 records no variant: the rules as printed
    name, vhash = (("g.variant_name", "g.variant_content_hash")
                   if {"variant_name", "variant_content_hash"} <= have
                   else ("CAST(NULL AS VARCHAR)", "CAST(NULL AS VARCHAR)"))
    done = "coalesce(g.complete, FALSE)"
    if has_agi and store.table_exists(db, "variant_totals"):
        # the load step's counts per the games' filtered values, variant, status and outcome
        n = "CAST(coalesce(sum(g.games) FILTER (WHERE {}), 0) AS BIGINT)".format
        return store.query(db, f"""
            SELECT g.game, coalesce(g.variant_name, '{BASELINE}') AS variant,
                   g.variant_content_hash AS variant_hash,
                   CAST(sum(g.games) AS BIGINT) AS games,
                   {n(done)} AS complete,
                   {n(f"NOT {done}")} AS partial,
                   {n(f"{done} AND g.agi IS NOT NULL")} AS agi_known,
                   {n(f"{done} AND coalesce(g.agi, FALSE)")} AS agi,
                   {n(f"{done} AND coalesce(g.open, FALSE)")} AS open
            FROM variant_totals g
            WHERE {where}
            GROUP BY ALL
            ORDER BY g.game, variant, variant_hash NULLS FIRST
            """, params)
    # the SQL pieces above are this module's constants; the filter values travel as parameters
    return store.query(db, f"""
        SELECT g.game, coalesce({name}, '{BASELINE}') AS variant, {vhash} AS variant_hash,
               count(*) AS games,
               count(*) FILTER (WHERE {done}) AS complete,
               count(*) FILTER (WHERE NOT {done}) AS partial,
               count(*) FILTER (WHERE {done} AND {agi} IS NOT NULL) AS agi_known,
               count(*) FILTER (WHERE {done} AND coalesce({agi}, FALSE)) AS agi,
               count(*) FILTER (WHERE {done} AND coalesce({opn}, FALSE)) AS open
        FROM games g {join}
        WHERE g.is_human AND NOT coalesce(g.illustrative, FALSE) AND {where}
        GROUP BY ALL
        ORDER BY g.game, variant, variant_hash NULLS FIRST
        """, params)


def game_variant(db: Path, game_id: str) -> dict[str, Any] | None:
    """The rules variant one game was audited under, as the warehouse records it:
    ``{"name", "hash", "played"}`` (``played`` False when the game could not play it: a
    ``log/variant`` finding, the game replayed under the rules as printed), or None for the
    rules as printed (or a warehouse not yet at schema 9)."""
    from dashboards import store

    if not {"variant_name", "variant_content_hash"} <= _columns(db, "games"):
        return None
    got = store.query(db, "SELECT variant_name, variant_content_hash FROM games "
                          "WHERE game_id = ?", [game_id])
    if got.is_empty() or got["variant_name"][0] is None:
        return None  # the rules as printed: no look at the findings
    refused = store.query(db, "SELECT count(*) AS n FROM findings WHERE game_id = ? AND "
                              "code = 'log/variant'", [game_id])
    return {"name": str(got["variant_name"][0]), "hash": got["variant_content_hash"][0],
            "played": refused.is_empty() or not int(refused["n"][0])}


def variant_sentence(v: dict[str, Any] | None) -> str:
    """The Audit page's words for :func:`game_variant` (Markdown, the name escaped)."""
    from dashboards.ui import md_text

    if v is None:
        return "Audited under the rules as printed."
    name = f"**{md_text(v['name'])}** (content hash `{v['hash']}`)"
    if not v["played"]:
        return (f"Its log names the rules variant {name}, which this game could not play "
                "(finding `log/variant`): audited under the rules as printed.")
    return f"Audited under the rules variant {name} (docs/variants.md)."


def simulated_games(folder: Path, game: str) -> pl.DataFrame:
    """A study's games per arm (``game``: the study's game id), for a game whose study
    measures no AGI emergence: ``game``, ``variant``, ``games`` (simulated evidence)."""
    from ingest.balance import study_tables

    files = study_tables(folder).get("games", [])
    if not files:
        return pl.DataFrame()
    games = pl.read_parquet(files)
    if "variant" not in games.columns:
        games = games.with_columns(pl.lit(BASELINE).alias("variant"))
    return (games.group_by("variant").agg(pl.len().alias("games"))
            .with_columns(pl.lit(game).alias("game")).select("game", "variant", "games")
            .sort("variant"))


def _share(agi: int, games: int) -> str:
    if not games:
        return "no games"
    lo, hi = stats.wilson(agi, games)
    return f"{agi / games:.0%} ({lo:.0%}-{hi:.0%})"


def physical_status(complete: int, partial: int) -> str:
    """A variant's physical playtests by status, e.g. "1 complete, 1 partial"."""
    if not complete and not partial:
        return "none"
    return ", ".join(f"{n} {word}" for n, word in ((complete, "complete"), (partial, "partial"))
                     if n)


def evidence_beside(physical: pl.DataFrame, simulated: pl.DataFrame) -> pl.DataFrame:
    """Per game and variant, the physical playtests (by status: complete, partial) and the
    simulated games side by side, each with its own AGI share and 95% Wilson interval (from
    complete games; for a game whose outcomes have no AGI, "not measured"): two column groups,
    never one pooled figure. Every game's playtests are listed (a game the study does not play
    has no simulated games beside them). A ``simulated`` frame without ``agi`` (a study of a
    game without AGI, :func:`simulated_games`) gives the simulated games only."""
    from dashboards.filters import game_title

    keys: set[tuple[str, str]] = set()
    for df in (physical, simulated):
        if not df.is_empty():
            keys |= {(str(g or ""), str(v)) for g, v in df.select("game", "variant").rows()}
    rows = []
    for game, name in sorted(keys):
        row: dict[str, Any] = {"game": game_title(game) if game else "", "variant": name}
        part = (physical.filter((pl.col("game") == game) & (pl.col("variant") == name))
                if not physical.is_empty() else physical)
        complete = int(part["complete"].sum()) if not part.is_empty() else 0
        partial = int(part["partial"].sum()) if not part.is_empty() else 0
        known = int(part["agi_known"].sum()) if not part.is_empty() else 0
        hashes = ([h for h in part["variant_hash"].to_list() if h] if not part.is_empty()
                  else [])
        row["variant hash"] = ", ".join(sorted(set(hashes)))
        row["physical playtests"] = physical_status(complete, partial)
        row["physical complete"] = complete
        row["physical partial"] = partial
        row["physical AGI share"] = (_share(int(part["agi"].sum()), known) if known
                                     else "no complete games" if not complete
                                     else "not measured")
        sim = (simulated.filter((pl.col("game").fill_null("") == game)
                                & (pl.col("variant") == name))
               if not simulated.is_empty() else simulated)
        games = int(sim["games"].sum()) if not sim.is_empty() else 0
        row["simulated games"] = games
        if simulated.is_empty() or "agi" in simulated.columns:
            row["simulated AGI share"] = _share(int(sim["agi"].sum()) if games else 0, games)
        rows.append(row)
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def rows_frame(result: dict[str, Any]) -> pl.DataFrame:
    """The comparison's rows as a frame (interval split into ``low`` and ``high``)."""
    rows = [{**{k: v for k, v in r.items() if k != "interval"},
             "low": (r["interval"] or [None, None])[0],
             "high": (r["interval"] or [None, None])[1]} for r in result["rows"]]
    return pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()


def sweep_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of a sweep (variants named ``KNOB=VALUE`` with a numeric value, as
    ``--sweep`` names them) with ``knob`` and ``level`` columns, plus each knob's baseline
    value as a zero-difference point; empty when the study holds no sweep."""
    if frame.is_empty():
        return frame
    parts = frame["variant"].str.extract_groups(r"^(?P<knob>[^=]+)=(?P<level>-?\d+)$")
    out = frame.with_columns(parts.struct.field("knob"),
                             parts.struct.field("level").cast(pl.Int64, strict=False))
    return out.filter(pl.col("knob").is_not_null() & pl.col("level").is_not_null())
