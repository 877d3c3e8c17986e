"""Capture completeness of sessions against their observation protocol (schemas.protocol).

The protocol is versioned data (``data/protocols/<id>/v<N>.json``); a game's header names the
one used at the table (``protocol``, e.g. ``pig-observation@1``). Ingest scores each
game item by item with :func:`schemas.protocol.capture_completeness` into the warehouse table
``capture``; :func:`completeness` reads that table. Only a warehouse without the table (made
before migration 2) falls back to re-reading and scoring the archived logs.
"""

from __future__ import annotations

from operator import itemgetter
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple

import polars as pl

from dashboards import gamelog, queries, store
from engine.core.registry import DEFAULT_GAME
from schemas.packs import load_protocol
from schemas.protocol import capture_completeness, completeness_share, protocol_problems

#: the protocol a header without one is scored against: the default game's (a game's default
#: protocol is ``<game>-observation``, docs/notes/game-declaration.md)
DEFAULT_PROTOCOL = f"{DEFAULT_GAME}-observation"


def load(reference: str | None, game: str | None = None) -> tuple[Any, str | None]:
    """(protocol, problem): the protocol named by ``reference`` (default: the latest), looked up
    where ``game`` keeps its protocols (its declared ``protocols_dir``, else data/protocols)."""
    from engine.core.registry import get_ruleset

    rs = get_ruleset(game) if game else None
    try:
        return load_protocol(reference or DEFAULT_PROTOCOL,
                             root=rs.protocols_dir if rs is not None else None), None
    except Exception as err:  # unknown id/version, unreadable file: say so on the page
        return None, f"protocol {reference or DEFAULT_PROTOCOL!r} could not be loaded: {err}"


class _Protocols:
    """The protocols named by games' headers, each loaded once per call."""

    def __init__(self) -> None:
        self._cache: dict[str | None, tuple[Any, str | None]] = {}

    def __call__(self, reference: str | None) -> tuple[Any, str | None]:
        if reference not in self._cache:
            self._cache[reference] = load(reference)
        return self._cache[reference]


class Completeness(NamedTuple):
    """What :func:`completeness_shown` finds (per game, per item, misfits as
    :func:`completeness`; the misfits may be the first of ``n_misfits``)."""

    per_game: pl.DataFrame
    per_item: pl.DataFrame
    #: the misfits (all of them, or the first ``shown`` when asked for fewer)
    misfits: pl.DataFrame
    #: how many misfits there are in all
    n_misfits: int


def completeness(db: Path, games: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """(per game, per item, misfits) capture results for ``games`` (game_id and protocol).

    Per game: game_id, protocol, completeness (share of items captured), missing (item ids),
    problem. Per item: game_id, item, group, captured, reason. Misfits: observation and survey
    events that do not fit the protocol (game_id, event, reason), in the games' order and each
    game's log order.

    Read from the warehouse table ``capture`` (scored at ingest) when it exists; else each
    archived log is re-read and scored (:func:`completeness_from_logs`).
    """
    found = completeness_shown(db, games, None)
    return found.per_game, found.per_item, found.misfits


def completeness_shown(db: Path, games: pl.DataFrame, shown: int | None) -> Completeness:
    """:func:`completeness` with only the first ``shown`` misfits (all when None) and the
    number of them all: a page shows the first rows and says how many there are."""
    if store.table_exists(db, "capture"):
        return completeness_from_warehouse(db, games, shown)
    found = completeness_from_logs(db, games)
    misfits = found[2] if shown is None else found[2].head(shown)
    return Completeness(found[0], found[1], misfits, found[2].height)


def _base(row: dict[str, Any]) -> dict[str, Any]:
    ref = row.get("protocol")
    return {"game_id": row["game_id"],
            "protocol": ref or f"(none; scored against {DEFAULT_PROTOCOL})"}


def survey_value(text: str | None, num: float | None) -> str | int | float | bool | None:
    """The answer of a survey event (``str | int | float | bool``) from its ``survey`` row.

    Ingest (``ingest/rows.py``) writes ``value_text`` = ``json.dumps(value)`` for a bool, else
    ``str(value)``, and ``value_num`` = ``float(value)`` for an int, float or bool, else NULL.
    So: no number means a string (the text itself); ``true``/``false`` with a number is a bool;
    a text that reads as a whole number is an int (``str`` of a float always has a point, an
    exponent, ``inf`` or ``nan``); anything else is a float. Exact for every answer the log
    schema admits."""
    if num is None:
        return text
    if text in ("true", "false"):
        return text == "true"
    if text is None:
        return num
    try:
        return int(text)
    except ValueError:
        return float(text)


def completeness_from_warehouse(db: Path, games: pl.DataFrame,
                                shown: int | None = None) -> Completeness:
    """:func:`completeness` from the warehouse alone (tables ``capture``, ``observations``,
    ``survey`` and ``seats``); no archived log and no event payload is read. A game with no
    ``capture`` rows gets a problem: its protocol could not be loaded, or it was loaded before
    the table existed (rebuild).

    The misfits are counted without reading their events (a category that does not fit
    counts its observations, ``n`` of the categories read); the observations' event numbers
    are read only for the games of the first ``shown`` misfits (all when None): at a million
    games reading them for every misfit of 100 sessions scanned 46 million observations."""
    ids = [str(g) for g in games["game_id"].to_list()] if "game_id" in games.columns else []
    read = queries.protocol_check_rows(db, ids)  # one connection for the four reads
    return _scored(db, games, read, shown)


def completeness_of_sessions(db: Path, sessions: pl.DataFrame,
                             shown: int | None = None) -> Completeness:
    """:func:`completeness_from_warehouse` of the sessions read by
    :func:`dashboards.queries.protocol_sessions` (game_id, protocol and the lists their check
    reads: ``capture``, ``categories``, ``survey``, ``seats``), scored the same way from those
    lists instead of four reads of the tables."""

    def rows(column: str) -> pl.DataFrame:
        out = sessions.select("game_id", column).explode(column).drop_nulls(column)
        return out.unnest(column) if isinstance(out.schema[column], pl.Struct) else out

    categories = rows("categories").with_columns(
        pl.lit(None, dtype=pl.List(pl.Int32)).alias("idxs"))
    read = {"categories": categories, "survey": rows("survey"),
            "seats": rows("seats").rename({"seats": "seat"})}
    # each game's capture rows as they are kept: already by game, in stored order
    captured = {str(g): list(c) for g, c in zip(sessions["game_id"].to_list(),
                                                 sessions["capture"].to_list(), strict=True)
                if c}
    return _scored(db, sessions.select("game_id", "protocol"), read, shown, captured)


def _scored(db: Path, games: pl.DataFrame, read: dict[str, pl.DataFrame],
            shown: int | None,
            by_game: dict[str, list[dict[str, Any]]] | None = None) -> Completeness:
    """The capture check of ``games`` (game_id, protocol) from their rows ``read`` (as
    :func:`dashboards.queries.protocol_check_rows` gives them; the capture rows may be given
    by game instead, ``by_game``: game id -> its rows, item, group, captured, reason)."""
    if by_game is None:
        by_game = {}
        for r in read["capture"].iter_rows(named=True):
            by_game.setdefault(r["game_id"], []).append(r)
    # the events that may not fit: one stand-in per observation category of a game (whether an
    # observation fits depends on its category alone; its events, when not read with it, are
    # read below for a category that does not fit), then the survey events one by one
    events: dict[str, list[tuple[list[int] | None, dict[str, Any]]]] = {}
    sizes: dict[tuple[str, str | None], int] = {}  # (game, category) -> its observations
    for r in read["categories"].iter_rows(named=True):
        sizes[(r["game_id"], r["category"])] = int(r["n"])
        events.setdefault(r["game_id"], []).append(
            (None if r["idxs"] is None else list(r["idxs"]),
             {"type": "observation", "category": r["category"]}))
    for r in read["survey"].iter_rows(named=True):
        events.setdefault(r["game_id"], []).append(
            ([r["idx"]], {"type": "survey", "item": r["item"], "seat": r["seat"],
                          "value": survey_value(r["value_text"], r["value_num"])}))
    seats: dict[str, set[int]] = {}
    for r in read["seats"].iter_rows(named=True):
        seats.setdefault(r["game_id"], set()).add(r["seat"])
    per_game: list[dict[str, Any]] = []
    # per item, by column (a frame of thousands of rows made from dicts cost 0.01 CPU s)
    per_item: dict[str, list[Any]] = {"game_id": [], "item": [], "group": [], "captured": [],
                                      "reason": []}
    # per game with misfits: (its stand-in, the reason), the events resolved below
    found: list[tuple[str, list[tuple[tuple[list[int] | None, dict[str, Any]], str]]]] = []
    protocols = _Protocols()
    for row in games.iter_rows(named=True):
        protocol, problem = protocols(row.get("protocol"))
        gid = row["game_id"]
        rows = by_game.get(gid, [])
        if protocol is not None:  # checklist order
            order = {item.id: n for n, item in enumerate(protocol.checklist)}
            rows.sort(key=lambda r: order.get(r["item"], len(order)))
        if not rows:
            why = problem or ("no capture rows in the warehouse (loaded before the capture "
                              "table existed: run `playtest rebuild`)")
            per_game.append({**_base(row), "completeness": None, "missing": "", "problem": why})
            continue
        done = sum(1 for r in rows if r["captured"])
        per_game.append({**_base(row), "completeness": round(done / len(rows), 3),
                         "missing": ", ".join(r["item"] for r in rows if not r["captured"]),
                         "problem": None})
        per_item["game_id"].extend([gid] * len(rows))
        for column in ("item", "group", "captured", "reason"):
            per_item[column].extend(map(itemgetter(column), rows))
        if protocol is not None and gid in events:
            stand_ins = events[gid]
            log = SimpleNamespace(
                header=SimpleNamespace(seats=[SimpleNamespace(seat=s) for s in seats.get(gid, ())]),
                events=[SimpleNamespace(**{"category": None, "item": None, "value": None,
                                           "seat": None, **p}) for _, p in stand_ins],
            )
            problems = [(stand_ins[p.event], p.reason) for p in protocol_problems(protocol, log)]
            if problems:
                found.append((gid, problems))
    # how many misfits each game has: an observation category's count without its events
    counts = [sum(len(at) if at is not None else sizes.get((gid, p["category"]), 0)
                  for (at, p), _ in problems) for gid, problems in found]
    if shown is not None:  # only the games of the first ``shown`` misfits are read
        upto, seen = 0, 0
        while upto < len(found) and seen < shown:
            seen += counts[upto]
            upto += 1
        resolve = found[:upto]
    else:
        resolve = found
    unread = [(gid, s[1]["category"]) for gid, problems in resolve for s, _ in problems
              if s[0] is None]
    idxs = queries.observation_events(db, unread)  # only the categories that do not fit
    misfit_games: list[str] = []
    misfit_events: list[int] = []
    misfit_reasons: list[str] = []
    for gid, problems in resolve:
        located = sorted(((i, reason) for (at, p), reason in problems
                          for i in (at if at is not None
                                    else idxs.get((gid, p["category"]), []))),
                         key=lambda m: m[0])  # log order
        misfit_games.extend([gid] * len(located))
        misfit_events.extend(i for i, _ in located)
        misfit_reasons.extend(r for _, r in located)
    misfits = (pl.DataFrame({"game_id": misfit_games, "event": misfit_events,
                             "reason": misfit_reasons},
                            schema={"game_id": pl.Utf8, "event": pl.Int64, "reason": pl.Utf8})
               if misfit_games else pl.DataFrame())  # built by columns: may be 10,000s of rows
    if shown is not None:
        misfits = misfits.head(shown)
    items = pl.DataFrame(per_item) if per_item["game_id"] else pl.DataFrame()
    return Completeness(pl.DataFrame(per_game), items, misfits, sum(counts))


def completeness_from_logs(
    db: Path, games: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """:func:`completeness` by re-reading and scoring each archived log (the fallback for a
    warehouse without the ``capture`` table)."""
    per_game: list[dict[str, Any]] = []
    per_item: list[dict[str, Any]] = []
    misfits: list[dict[str, Any]] = []
    protocols = _Protocols()
    for row in games.iter_rows(named=True):
        protocol, problem = protocols(row.get("protocol"))
        base = _base(row)
        if protocol is None:
            per_game.append({**base, "completeness": None, "missing": "", "problem": problem})
            continue
        log = gamelog.load(db, row["game_id"]).as_log()
        if log is None:
            per_game.append({**base, "completeness": None, "missing": "",
                             "problem": "the archived log could not be read"})
            continue
        results = capture_completeness(protocol, log)
        groups = {i.id: i.group for i in protocol.checklist}
        per_game.append({**base, "completeness": round(completeness_share(results), 3),
                         "missing": ", ".join(r.item_id for r in results if not r.captured),
                         "problem": None})
        per_item.extend({"game_id": row["game_id"], "item": r.item_id,
                         "group": groups.get(r.item_id), "captured": r.captured,
                         "reason": r.reason} for r in results)
        misfits.extend({"game_id": row["game_id"], "event": p.event, "reason": p.reason}
                       for p in protocol_problems(protocol, log))
    return pl.DataFrame(per_game), pl.DataFrame(per_item), pl.DataFrame(misfits)
