"""Building rows: every warehouse row of one game, computed from its canonical log and archived
meta (:func:`game_columns`, :func:`game_rows`).

The shared tables (games, seats, events, findings, ledger, phases, turn_times, observations,
survey, capture, outcomes) are filled here for any game. What is particular to a game comes from
its ruleset: the rows of its own tables (``Ruleset.records``; ``"seats"`` and ``"outcomes"`` rows
add the ruleset's columns to those shared tables) and where each event sits in the game
(``Ruleset.location``, named by ``Ruleset.location_parts``). Deterministic: the same inputs always
give the same rows, which rebuild relies on.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any

from engine.core.game import resolve
from engine.core.registry import get_ruleset
from engine.core.replay import replay
from ingest.evidence import duration_evidence, evidence
from ingest.timing import naive_utc, phase_timing
from ingest.warehouse.schema import RECORD_TABLES, TABLES

# The generic columns of the shared tables that a ruleset's rows may not override.

_OWN_COLUMNS = {
    "seats": frozenset({"game_id", "seat", "faction", "player", "provisional_winner", "winner"}),
    "outcomes": frozenset({"game_id", "complete", "provisional_winners", "winners", "ending",
                           "details", "mode", "winning_team", "result"}),
}


def _location_parts(rs: Any) -> tuple[str, ...]:
    """The names of the parts of the ruleset's locations (its declared ``location_parts``)."""
    return tuple(rs.location_parts)


def _named(loc: Any, parts: tuple[str, ...]) -> dict[str, Any]:
    """A location (a tuple of parts, or a mapping) as part name -> value."""
    if isinstance(loc, dict):
        return loc
    if isinstance(loc, tuple | list):
        return dict(zip(parts, loc, strict=False))
    return {}


def _extra(table: str, row: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """A ruleset's columns for a shared table: the known ones (a note for the others)."""
    cols = set(_COLUMNS[table]) - _OWN_COLUMNS[table]
    unknown = sorted(set(row) - cols - _OWN_COLUMNS[table])
    if unknown:
        notes.append(f"the engine's {table!r} rows have columns {unknown} with no warehouse column")
    return {k: v for k, v in row.items() if k in cols}


def _ts(value: Any) -> dt.datetime | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return naive_utc(value)
    return naive_utc(dt.datetime.fromisoformat(str(value)))


_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str)


def _json(value: Any) -> str | None:
    """JSON text of a value for a JSON column (None stays NULL)."""
    if value is None:
        return None
    return _ENCODER.encode(value)


#: a canonical text up to this long is cut into payloads with one ``split`` (a copy of its event
#: lines is alive meanwhile); a longer one line by line, so that a large log is never held twice
SPLIT_BELOW = 1 << 20


def _event_payloads(text: str, n: int) -> list[str]:
    """The JSON text of each event, cut from the canonical text (one event per line)."""
    # Canonical layout (schemas/canonical.py): 3 preamble lines, n event lines, "]}", "".
    # Each payload is cut once from the text (no list of every line beside the payloads).
    out: list[str] = []
    find = text.find
    pos = 0
    for _ in range(3):
        pos = find("\n", pos) + 1
        if pos == 0:
            raise ValueError("the canonical text does not have one event per line")
    # Every event line but the last ends with a comma and no event's JSON holds a newline (the
    # encoder escapes it), so the lines are the pieces between ",\n" when the text holds n + 1
    # newlines after the preamble (n event lines and "]}"); anything else is cut line by line
    # below (the same pieces).
    if (n and len(text) < SPLIT_BELOW and text.endswith("\n]}\n")
            and text.count("\n", pos) == n + 1):
        out = text[pos:-4].split(",\n")
        if len(out) == n and not out[-1].endswith(","):
            return out
        out = []
    for _ in range(n):
        end = find("\n", pos)
        if end < 0:
            raise ValueError("the canonical text does not have one event per line")
        out.append(text[pos:end - 1] if text[end - 1] == "," else text[pos:end])
        pos = end + 1
    return out


def _missing_field(cls: type, name: str) -> bool:
    """True when no event of ``cls`` can have the attribute ``name`` (``getattr(ev, name,
    None)`` is None): a pydantic model without such a field, class attribute or extra fields."""
    fields = getattr(cls, "model_fields", None)
    config = getattr(cls, "model_config", None)
    return (isinstance(fields, dict) and isinstance(config, dict) and name not in fields
            and config.get("extra") != "allow" and not hasattr(cls, name))


def _field_reader(cls: type) -> Any:
    """``ev -> (ev.type, getattr(ev, "seat", None), getattr(ev, "t", None))`` for events of
    ``cls``; one ``attrgetter`` (C) when both are fields, so an event without a seat does not
    go through pydantic's ``__getattr__`` (an exception per event)."""
    fields = getattr(cls, "model_fields", None)
    if isinstance(fields, dict) and "seat" in fields and "t" in fields:
        return attrgetter("type", "seat", "t")
    no_seat, no_t = _missing_field(cls, "seat"), _missing_field(cls, "t")
    if no_seat and isinstance(fields, dict) and "t" in fields:
        return lambda ev: (ev.type, None, ev.t)
    return lambda ev: (ev.type, None if no_seat else getattr(ev, "seat", None),
                       None if no_t else getattr(ev, "t", None))


class _Readers(dict[type, Any]):
    def __missing__(self, cls: type) -> Any:
        reader = self[cls] = _field_reader(cls)
        return reader


_READERS = _Readers()


def _event_fields(events: Sequence[Any]) -> tuple[list[str], list[int | None], list[Any]]:
    """Each event's type, seat (an int, else None) and time (naive UTC, :func:`naive_utc`)."""
    if not events:
        return [], [], []
    readers = _READERS
    kinds, raw_seats, raw_times = (list(c) for c in zip(*[readers[type(e)](e) for e in events],
                                                         strict=True))
    if set(map(type, raw_seats)) <= _SEAT_TYPES:
        seats = raw_seats
    else:
        seats = [s if isinstance(s, int) else None for s in raw_seats]
    if raw_times.count(None) == len(raw_times):
        times = raw_times
    else:
        times = [None if t is None else naive_utc(t) for t in raw_times]
    return kinds, seats, times


_SEAT_TYPES = frozenset({int, type(None)})


def _locations(locs: Sequence[Any], n: int, parts: tuple[str, ...],
               ) -> tuple[list[Any], list[Any], list[Any]]:
    """The era, cycle and round of each of ``n`` events from the replay's locations (tuples of
    the ruleset's ``location_parts``, or mappings); None where a location lacks the part."""
    if len(locs) != n:  # replay saw every event; keep the columns aligned whatever happens
        locs = (list(locs) + [()] * n)[:n]
    where = {name: k for k, name in enumerate(parts)}
    ks = (where.get("era"), where.get("cycle"), where.get("round"))
    if n and set(map(type, locs)) == {tuple}:
        shortest = min(map(len, locs))
        if all(k is None or k < shortest for k in ks):
            return tuple(  # type: ignore[return-value]
                [None] * n if k is None else list(map(itemgetter(k), locs)) for k in ks)
    out: tuple[list[Any], list[Any], list[Any]] = ([], [], [])
    for here in locs:
        if isinstance(here, tuple | list):
            size = len(here)
            for col, k in zip(out, ks, strict=True):
                col.append(here[k] if k is not None and k < size else None)
        else:
            named = _named(here, parts)
            for col, name in zip(out, ("era", "cycle", "round"), strict=True):
                col.append(named.get(name))
    return out


_COLUMNS: dict[str, tuple[str, ...]] = {t: tuple(c for c, _, _ in cols) for t, cols in TABLES.items()}

# Columns of one game: table -> (number of rows, column -> values). ``game_id`` is left out.
GameColumns = dict[str, tuple[int, dict[str, list[Any]]]]


# Per table: its columns without ``game_id``, and one getter of all of them from a row dict.
_GETTERS: dict[str, tuple[tuple[str, ...], Any]] = {
    t: (cols[1:], itemgetter(*cols[1:])) for t, cols in _COLUMNS.items() if len(cols) > 2
}


def _columns_of(rows: Sequence[dict[str, Any]], cols: tuple[str, ...],
                getter: Any = None) -> dict[str, list[Any]]:
    """``rows`` (dicts) turned into one list per column of ``cols`` (None where a row lacks the
    column). Rows holding every column are transposed in C (one ``itemgetter`` per row and a
    ``zip``); otherwise each column is gathered with ``dict.get``."""
    if not rows:
        return {c: [] for c in cols}
    if len(cols) > 1:
        try:
            values = zip(*map(getter or itemgetter(*cols), rows), strict=True)
            return {c: list(v) for c, v in zip(cols, values, strict=True)}
        except KeyError:  # a row lacks a column: it is None there
            pass
    return {c: [r.get(c) for r in rows] for c in cols}


def _from_rows(table: str, rows: list[dict[str, Any]]) -> tuple[int, dict[str, list[Any]]]:
    if table in _GETTERS:
        cols, getter = _GETTERS[table]
        return len(rows), _columns_of(rows, cols, getter)
    return len(rows), _columns_of(rows, _COLUMNS[table][1:])


def variant_columns(header: Any) -> dict[str, Any]:
    """The ``games`` columns of the rules variant a header names (its stamp: name, content
    hash, and the changes, paused abilities and options as JSON); NULL for the rules as
    printed."""
    stamp = getattr(header, "variant", None)
    if stamp is None:
        return {"variant_name": None, "variant_content_hash": None, "variant_changes": None}
    return {"variant_name": stamp.name, "variant_content_hash": stamp.hash,
            "variant_changes": _json({"changes": stamp.changes, "paused": stamp.paused,
                                      "options": stamp.options})}


def default_protocol(game: str) -> str:
    """The observation protocol a game of ``game`` is scored against when its header names none
    (``<game>-observation``, its latest version)."""
    return f"{game}-observation"


# protocol reference -> (protocol, why it could not be loaded); per process, for the batch.
_PROTOCOLS: dict[str, tuple[Any, str | None]] = {}


def _protocol(reference: str, game: str | None = None) -> tuple[Any, str | None]:
    """The observation protocol named by ``reference`` (``<id>`` or ``<id>@<version>``), from
    the game's declared ``protocols_dir`` when it has one, else ``data/protocols``; or
    (None, reason) when it cannot be loaded. Cached per reference in this process."""
    key = f"{game}:{reference}"
    if key not in _PROTOCOLS:
        from schemas.packs import load_protocol

        rs = get_ruleset(game) if game else None
        root = rs.protocols_dir if rs is not None else None
        try:
            _PROTOCOLS[key] = (load_protocol(reference, root=root), None)
        except FileNotFoundError:
            try:  # a game's own folder may not hold a shared protocol
                _PROTOCOLS[key] = (load_protocol(reference), None)
            except Exception as err:  # unknown id or version, unreadable or invalid file
                _PROTOCOLS[key] = (None, f"{type(err).__name__}: {err}")
        except Exception as err:  # unreadable or invalid file
            _PROTOCOLS[key] = (None, f"{type(err).__name__}: {err}")
    return _PROTOCOLS[key]


def _capture_rows(header: Any, events: Sequence[Any], notes: list[str]) -> list[dict[str, Any]]:
    """One ``capture`` row per checklist item of the game's observation protocol (the header's
    ``protocol``, else the latest :func:`default_protocol` of its game), scored by
    :func:`schemas.protocol.capture_completeness`. A protocol that cannot be loaded gives no
    rows and a note (never a failed game). Simulated games without a protocol get no rows."""
    from schemas.protocol import capture_completeness

    if getattr(header, "session_type", None) == "simulation" and not getattr(header, "protocol", None):
        # a simulated game is observed by nobody: no protocol applies (and scoring one would
        # only fill the table with "not captured" rows)
        return []
    reference = getattr(header, "protocol", None) or default_protocol(header.game)
    protocol, problem = _protocol(reference, header.game)
    if protocol is None:
        notes.append(f"observation protocol {reference!r} could not be loaded ({problem}); "
                     "no capture rows")
        return []
    groups = {item.id: item.group for item in protocol.checklist}
    log = _ScoredLog(header, list(events))
    return [
        {"item_id": r.item_id, "grp": groups.get(r.item_id), "captured": bool(r.captured),
         "reason": r.reason}
        for r in capture_completeness(protocol, log)
    ]


@dataclass(slots=True, frozen=True)
class _ScoredLog:
    """A validated header and events, as :func:`schemas.protocol.capture_completeness` reads a
    log (``header`` and typed ``events``)."""

    header: Any
    events: list[Any]


def game_rows(
    game_id: str,
    text: str,
    header: Any,
    events: Sequence[Any],
    meta: dict[str, Any],
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Every warehouse row of one game, by table, plus notes (engine rows we could not place).

    ``text`` is the canonical log, ``events`` its validated events, ``meta`` the archived meta
    (source lines and indices, reader findings, source, archive time). Deterministic: the same
    inputs always give the same rows (rebuild relies on it). The rows of
    :func:`game_columns` (which ingest uses), one dict per row with every column.
    """
    columns, notes = game_columns(game_id, text, header, events, meta)
    rows: dict[str, list[dict[str, Any]]] = {}
    for table, (n, cols) in columns.items():
        names = list(cols)
        values = list(cols.values())
        rows[table] = [
            {"game_id": game_id, **{c: v[i] for c, v in zip(names, values, strict=True)}}
            for i in range(n)
        ]
    return rows, notes


def game_columns(
    game_id: str,
    text: str,
    header: Any,
    events: Sequence[Any],
    meta: dict[str, Any],
) -> tuple[GameColumns, list[str]]:
    """Every warehouse row of one game as columns: table -> (rows, column -> values), without
    the ``game_id`` column; plus notes (engine rows we could not place). Same contract as
    :func:`game_rows` (which is this, row by row)."""
    n = len(events)
    lines = meta.get("lines")
    if not isinstance(lines, list) or len(lines) != n:
        lines = [None] * n
    indices = meta.get("indices")
    if not isinstance(indices, list) or len(indices) != n:
        indices = list(range(n))
    rs = get_ruleset(header.game)
    if rs is None:
        raise ValueError(f"no ruleset is registered for game {header.game!r}")
    # Findings: the reader's (kept in meta) first, then the engine's. The lines the reader could
    # not read are told to the engine, as `playtest validate` does (issue 21: what follows from
    # them links to them), so the warehouse holds the same findings as validate.
    read_findings = [f for f in meta.get("read_findings", []) if isinstance(f, dict)]
    unreadable = [(int(w["line"]), w.get("seat")) for f in read_findings
                  if f.get("code") in ("log/parse-error", "log/invalid-event")
                  and isinstance(w := f.get("where") or {}, dict) and w.get("line") is not None]
    result = replay(header, events, lines=lines, indices=indices, ruleset=rs,
                    unreadable=unreadable)
    out: GameColumns = {}
    notes: list[str] = []

    all_findings: list[dict[str, Any]] = list(read_findings)
    all_findings += [f.model_dump(mode="json") for f in result.findings]
    finding_rows = []
    for i, f in enumerate(all_findings):
        where = f.get("where") or {}
        finding_rows.append(
            {"n": i, "code": f.get("code"), "severity": f.get("severity"), "rule": f.get("rule"),
             "message": f.get("message"), "event": where.get("event"), "line": where.get("line"),
             "era": where.get("era"), "cycle": where.get("cycle"), "round": where.get("round"),
             "seat": where.get("seat"),
             "expected": _json(f.get("expected")), "recorded": _json(f.get("recorded")),
             "rulings": ", ".join(f.get("rulings") or ()) or None}
        )
    out["findings"] = _from_rows("findings", finding_rows)
    n_errors = sum(1 for f in all_findings if f.get("severity") == "error")
    n_warnings = sum(1 for f in all_findings if f.get("severity") == "warning")

    # Events, observations, survey: column by column (one pass of C-level calls per column).
    payloads = _event_payloads(text, n)
    kinds, seats, times = _event_fields(events)
    eras, cycles, rounds = _locations(result.locations, n, _location_parts(rs))
    survey_rows: list[dict[str, Any]] = []
    obs: dict[str, list[Any]] = {c: [] for c in _COLUMNS["observations"][1:]}
    if "observation" in kinds or "survey" in kinds:
        for i, kind in enumerate(kinds):
            if kind == "observation":
                ev = events[i]
                for c, v in (("idx", indices[i]), ("category", ev.category), ("rule", ev.rule),
                             ("seat", ev.seat), ("era", eras[i]), ("cycle", cycles[i]),
                             ("round", rounds[i]), ("text", ev.text), ("minutes", ev.minutes),
                             ("t", times[i])):
                    obs[c].append(v)
            elif kind == "survey":
                ev = events[i]
                value = ev.value
                num = float(value) if isinstance(value, int | float) else None
                text_value = json.dumps(value) if isinstance(value, bool) else str(value)
                survey_rows.append(
                    {"idx": indices[i], "seat": ev.seat, "item": ev.item, "value_text": text_value,
                     "value_num": num}
                )
    out["events"] = (n, {"idx": list(indices), "type": kinds, "seat": seats, "era": eras,
                         "cycle": cycles, "t": times, "line": list(lines), "payload": payloads,
                         "round": rounds})
    n_obs = len(obs["idx"])
    out["observations"] = (n_obs, {c: v if len(v) == n_obs else [None] * n_obs
                                   for c, v in obs.items()})
    out["survey"] = _from_rows("survey", survey_rows)
    out["capture"] = _from_rows("capture", _capture_rows(header, events, notes))

    # Timing.
    if rs.timing is not None:  # the game's own timing (Mandate 2038: ingest.mandate2038.timing.compute_timing)
        timing = resolve(rs.timing)(events, indices)
    else:  # its declared timed phases, from its ``phase`` events
        timing = phase_timing(events, rs.timed_phases, indices)
    out["phases"] = _from_rows("phases", timing.phases)
    out["turn_times"] = _from_rows("turn_times", timing.turn_times)

    # Ledger.
    ledger = result.ledger
    out["ledger"] = (len(ledger), {
        "n": list(range(len(ledger))), "seat": [e.seat for e in ledger],
        "era": [e.era for e in ledger], "cycle": [e.cycle for e in ledger],
        "event": [e.event for e in ledger], "source": [e.source for e in ledger],
        "amount": [e.amount for e in ledger], "total": [e.total for e in ledger],
        "detail": [e.detail for e in ledger], "round": [getattr(e, "round", None) for e in ledger],
    })

    # The ruleset's own tables; its "seats" and "outcomes" rows add its columns to those
    # shared tables (e.g. Mandate 2038's final resources and AGI claim).
    seat_extra: dict[int, dict[str, Any]] = {}
    outcome_extra: dict[str, Any] = {}
    for name, recs in sorted((result.records or {}).items()):
        if name == "seats":
            for r in recs:
                if isinstance(r.get("seat"), int):
                    seat_extra[r["seat"]] = r
            continue
        if name == "outcomes":
            outcome_extra = dict(recs[0]) if recs else {}
            continue
        if name not in RECORD_TABLES:
            notes.append(f"the engine's {name!r} rows have no warehouse table; not stored")
            continue
        cols = _COLUMNS[name]
        unknown = sorted(set().union(*recs) - set(cols))
        if unknown:
            notes.append(f"the engine's {name!r} rows have columns {unknown} with no warehouse column")
        out[name] = (len(recs), _columns_of(recs, cols[1:], _GETTERS.get(name, (None, None))[1]))

    # Outcome: the generic columns, then the ruleset's.
    outcome = result.outcome
    provisional = set(outcome.provisional_winners) if outcome else set()
    winners = set(outcome.winners) if outcome else set()
    outcome_rows = []
    if outcome is not None:
        outcome_rows.append(
            {**_extra("outcomes", outcome_extra, notes),
             "complete": outcome.complete, "provisional_winners": list(outcome.provisional_winners),
             "winners": list(outcome.winners), "ending": outcome.ending,
             "details": _json(outcome.details or {}), "mode": outcome.mode,
             "winning_team": outcome.winning_team, "result": outcome.result}
        )
    out["outcomes"] = _from_rows("outcomes", outcome_rows)

    # Seats: who sat where and who won; the ruleset's columns (final scores, resources).
    seat_rows = []
    for s in header.seats:
        seat_rows.append(
            {**_extra("seats", seat_extra.get(s.seat, {}), notes),
             "seat": s.seat, "faction": s.faction, "player": s.player,
             "provisional_winner": s.seat in provisional, "winner": s.seat in winners}
        )
    out["seats"] = _from_rows("seats", seat_rows)

    # The game.
    counts, reasons = evidence(header, result)
    if read_findings and any(f.get("severity") == "error" for f in read_findings):
        if "has rule errors" not in reasons:
            reasons.append("has rule errors")
        counts = False
    dur_counts, dur_reasons = duration_evidence(header, timing.total_minutes)
    receipt = header.receipt
    provenance = header.provenance
    out["games"] = _from_rows("games", [
        {"game": header.game, "rules_version": header.rules_version, "profile": header.profile,
         "session_type": header.session_type,
         "is_human": header.session_type in ("facilitated_playtest", "blind_playtest"),
         "illustrative": bool(provenance.illustrative), "player_count": len(header.seats),
         "date": header.date, "venue": header.venue, "facilitator": header.facilitator,
         "protocol": header.protocol, "detail": getattr(header, "detail", None),
         "status": "findings" if all_findings else "clean", "n_events": n,
         "n_errors": n_errors, "n_warnings": n_warnings,
         "complete": bool(outcome.complete) if outcome else False,
         "evidence": counts, "evidence_reasons": reasons, "duration_evidence": dur_counts,
         "duration_reasons": dur_reasons, "total_minutes": timing.total_minutes,
         "setup_minutes": timing.setup_minutes,
         "source_format": meta.get("source_format", provenance.source_format),
         "source_name": meta.get("source_name", provenance.source_name),
         "raw_sha256": meta.get("raw_sha256"),
         "archive_path": f"games/{game_id[:2]}/{game_id}.json",
         "ingested_at": _ts(meta.get("archived_at")),
         "receipt": _json(receipt.model_dump(mode="json", exclude_defaults=True)) if receipt else None,
         "rules_deviations": list(receipt.rules_deviations) if receipt else [],
         "interventions": list(receipt.facilitator_interventions) if receipt else [],
         "unchecked": list(result.unchecked), **variant_columns(header)}
    ])
    for table in TABLES:
        if table not in out:
            out[table] = _from_rows(table, [])
    return out, notes
