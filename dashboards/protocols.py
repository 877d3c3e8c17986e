"""Capture completeness of sessions against their observation protocol (schemas.protocol).

The protocol is versioned data (``data/protocols/<id>/v<N>.json``); a game's header names the
one used at the table (``protocol``, e.g. ``mandate2038-observation@1``). Each game's archived
log is scored item by item with :func:`schemas.protocol.capture_completeness`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from dashboards import gamelog

DEFAULT_PROTOCOL = "mandate2038-observation"


def load(reference: str | None) -> tuple[Any, str | None]:
    """(protocol, problem): the protocol named by ``reference`` (default: the latest)."""
    try:
        from schemas.packs import load_protocol
    except ImportError as err:
        return None, f"the protocol loader is not available yet ({err})"
    try:
        return load_protocol(reference or DEFAULT_PROTOCOL), None
    except Exception as err:  # unknown id/version, unreadable file: say so on the page
        return None, f"protocol {reference or DEFAULT_PROTOCOL!r} could not be loaded: {err}"


def completeness(db: Path, games: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """(per game, per item, misfits) capture results for ``games`` (game_id and protocol).

    Per game: game_id, protocol, completeness (share of items captured), missing (item ids),
    problem. Per item: game_id, item, group, captured, reason. Misfits: observation and survey
    events that do not fit the protocol (game_id, event, reason).
    """
    try:
        from schemas.protocol import capture_completeness, completeness_share
    except ImportError as err:
        return (pl.DataFrame({"problem": [f"schemas.protocol is not available ({err})"]}),
                pl.DataFrame(), pl.DataFrame())
    protocol_problems: Any
    try:
        from schemas.protocol import protocol_problems
    except ImportError:
        protocol_problems = None
    per_game: list[dict[str, Any]] = []
    per_item: list[dict[str, Any]] = []
    misfits: list[dict[str, Any]] = []
    cache: dict[str | None, tuple[Any, str | None]] = {}
    for row in games.iter_rows(named=True):
        ref = row.get("protocol")
        if ref not in cache:
            cache[ref] = load(ref)
        protocol, problem = cache[ref]
        base = {"game_id": row["game_id"], "protocol": ref or f"(none; scored against {DEFAULT_PROTOCOL})"}
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
        if protocol_problems is not None:
            misfits.extend({"game_id": row["game_id"], "event": p.event, "reason": p.reason}
                           for p in protocol_problems(protocol, log))
    return pl.DataFrame(per_game), pl.DataFrame(per_item), pl.DataFrame(misfits)
