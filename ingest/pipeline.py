"""Ingest, rebuild and export: from input files to the archive and the warehouse.

Per input (a file, or a session folder holding ``receipt.json``)::

    read (ingest.formats) ─► unreadable? ─► quarantine the bytes with the reason
                          └► replay (engine) ─► archive raw bytes + canonical log ─► load rows

* :func:`process_batch` is the pure batch function (items in, polars frames and per-item
  reports out). With ``archive`` it also writes the archive as it goes; without, it touches no
  file and is the seam for running batches on other machines (DESIGN.md §8).
* :func:`ingest_paths` walks the inputs, runs batches in a process pool (inline for a few
  files), and loads each batch's frames in one transaction in this process.
* :func:`ingest_log` archives and loads one log built in memory (live entry).
* :func:`rebuild` recreates the warehouse from the archive into a new file and swaps it in.
* :func:`export` writes one Parquet or CSV file per table.

Idempotence: a game already in ``games`` is "skipped as duplicate"; a game already archived
but missing from the warehouse (a crash between the two) is loaded and reported "recovered".
The archive is always written before the warehouse, so the warehouse never holds a game the
archive lacks.

Identity of rebuild and incremental loads: every warehouse row of a game is computed by
:func:`game_rows` from the canonical log and its archived meta (source lines and indices of the
events, the reader's findings, the source name, the archive time), never from anything that
exists only during the first ingest.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import polars as pl
import pyarrow as pa

from engine.core.parse import ParsedLog, parse_log
from engine.core.registry import get_ruleset
from engine.core.replay import replay
from ingest.archive import (
    GAME_ID_LENGTH,
    Archive,
    ArchiveError,
    SyncResult,
    canonical_text,
    game_id_of_text,
    now_utc,
    sha256_hex,
)
from ingest.db import StorageError, archive_root, connect, resolve_db
from ingest.evidence import duration_evidence, evidence
from ingest.timing import compute_timing, naive_utc
from ingest.warehouse.load import existing_game_ids, load_frames
from ingest.warehouse.migrations import migrate
from ingest.warehouse.schema import RECORD_TABLES, TABLES

Status = Literal["loaded", "skipped", "recovered", "unreadable", "failed"]
SESSION_MARKER = "receipt.json"
# The archive's own JSON files that are not game logs (skipped when a folder walk meets them).
_ARCHIVE_SIDECARS = (".meta.json", ".games.json", ".reason.json")
BATCH_MAX = 1000  # games per process batch (DESIGN.md §8)
INLINE_BELOW = 64  # fewer inputs than this are processed in this process (no pool start-up)

_ARROW_TYPES: dict[str, pa.DataType] = {
    "VARCHAR": pa.large_string(), "JSON": pa.large_string(), "INTEGER": pa.int32(),
    "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(), "TIMESTAMP": pa.timestamp("us"),
    "DATE": pa.date32(), "VARCHAR[]": pa.large_list(pa.large_string()),
    "INTEGER[]": pa.large_list(pa.int32()),
}
_ARROW_SCHEMAS: dict[str, pa.Schema] = {
    t: pa.schema([(c, _ARROW_TYPES[duck]) for c, _, duck in cols]) for t, cols in TABLES.items()
}


# --------------------------------------------------------------------------------------------
# Reports


@dataclass(slots=True)
class FileReport:
    """What happened to one game (or one unreadable input)."""

    file: str
    status: Status
    game_id: str | None = None
    reason: str = ""
    findings: int = 0
    notes: list[str] = field(default_factory=list)
    unreadable_lines: list[str] = field(default_factory=list)  # reader problems in a loaded game


@dataclass(slots=True)
class IngestSummary:
    """The outcome of an ingest or rebuild: one report per game or unreadable input."""

    db_path: Path
    archive: Path
    reports: list[FileReport] = field(default_factory=list)
    seconds: float = 0.0
    files: int = 0
    batch_cpu_seconds: float = 0.0  # CPU time spent in process_batch, summed over workers
    load_seconds: float = 0.0  # wall time spent loading frames into DuckDB

    def _with(self, status: Status) -> list[FileReport]:
        return [r for r in self.reports if r.status == status]

    @property
    def loaded(self) -> list[FileReport]:
        return self._with("loaded")

    @property
    def skipped(self) -> list[FileReport]:
        return self._with("skipped")

    @property
    def recovered(self) -> list[FileReport]:
        return self._with("recovered")

    @property
    def unreadable(self) -> list[FileReport]:
        return self._with("unreadable")

    @property
    def failed(self) -> list[FileReport]:
        return self._with("failed")

    @property
    def partly_unreadable(self) -> list[FileReport]:
        """Loaded games whose input had lines the reader could not read (kept as findings)."""
        return [r for r in self.reports if r.unreadable_lines and r.status in ("loaded", "recovered")]

    def counts(self) -> dict[str, int]:
        """Number of reports per status (every status present, zero when none)."""
        out = {s: 0 for s in ("loaded", "skipped", "recovered", "unreadable", "failed")}
        for r in self.reports:
            out[r.status] += 1
        return out

    def lines(self) -> list[str]:
        """A human summary: one count line, then one line per problem input."""
        c = self.counts()
        head = (
            f"{c['loaded']} loaded, {c['skipped']} skipped as duplicate, {c['recovered']} "
            f"recovered, {c['unreadable']} unreadable"
            + (f", {c['failed']} failed" if c["failed"] else "")
            + f" ({self.files} inputs, {self.seconds:.1f} s) into {self.db_path}"
        )
        out = [head]
        for r in self.reports:
            if r.status in ("unreadable", "failed"):
                out.append(f"  {r.status}: {r.file}: {r.reason}")
            elif r.status == "recovered":
                out.append(f"  recovered: {r.file} (game {r.game_id}, archived earlier)")
            if r.unreadable_lines and r.status in ("loaded", "recovered"):
                more = len(r.unreadable_lines) - 1
                out.append(f"  partly unreadable (loaded, kept as findings): {r.unreadable_lines[0]}"
                           + (f" (and {more} more)" if more > 0 else ""))
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (for ``--format json``)."""
        return {
            "db": str(self.db_path),
            "archive": str(self.archive),
            "counts": self.counts(),
            "seconds": round(self.seconds, 3),
            "reports": [
                {"file": r.file, "status": r.status, "game_id": r.game_id, "reason": r.reason,
                 "findings": r.findings, "notes": r.notes, "unreadable_lines": r.unreadable_lines}
                for r in self.reports
            ],
        }


# --------------------------------------------------------------------------------------------
# Reading inputs

_PLUGINS_LOADED = False


def load_plugins() -> None:
    """Import the modules named in ``$PLAYTEST_RULESET_MODULES`` (comma-separated), once.

    Those modules register extra rulesets; worker processes call this too, so a ruleset
    registered by a plugin is known in every process of a parallel ingest.
    """
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    import importlib

    for name in os.environ.get("PLAYTEST_RULESET_MODULES", "").split(","):
        if name.strip():
            importlib.import_module(name.strip())



@dataclass(slots=True)
class _FallbackLoaded:
    source: str
    format: str
    parsed: ParsedLog
    raw: bytes
    unreadable: str | None = None


def _formats() -> Any:
    """``ingest.formats`` when it provides ``read_path``, else None (JSON-only fallback)."""
    try:
        import ingest.formats as formats
    except ModuleNotFoundError as err:
        if err.name not in ("ingest.formats",):
            raise
        return None
    return formats if hasattr(formats, "read_path") else None


def suffixes() -> frozenset[str]:
    """File suffixes the readers accept (``ingest.formats.SUFFIXES``; ``.json`` without it)."""
    formats = _formats()
    if formats is not None and hasattr(formats, "SUFFIXES"):
        return frozenset(s.lower() for s in formats.SUFFIXES)
    return frozenset({".json"})


def _fallback_read(path: Path) -> list[Any]:
    """Minimal canonical-JSON reader used only until ``ingest.formats.read_path`` exists."""
    source = str(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        return [_FallbackLoaded(source, "json", ParsedLog(), b"", f"cannot read: {err.strerror}")]
    try:
        obj = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        return [_FallbackLoaded(source, "json", ParsedLog(), raw, f"not UTF-8 text: {err.reason}")]
    except json.JSONDecodeError as err:
        reason = f"line {err.lineno}: not valid JSON: {err.msg}"
        return [_FallbackLoaded(source, "json", ParsedLog(), raw, reason)]
    lines: list[int | None] | None = None
    if isinstance(obj, dict) and isinstance(obj.get("events"), list):
        # The canonical layout: 3 lines of preamble, then one event per line.
        lines = [4 + i for i in range(len(obj["events"]))]
    parsed = parse_log(obj, header_line=2, event_lines=lines)
    return [_FallbackLoaded(source, "json", parsed, raw, None)]


def read_input(path: Path) -> list[Any]:
    """Read one file or session folder into LoadedLog records (never raises on bad content)."""
    formats = _formats()
    if formats is not None:
        return list(formats.read_path(path))
    return _fallback_read(path)


def walk_inputs(paths: Iterable[str | Path]) -> tuple[list[Path], list[FileReport]]:
    """Expand files and folders into the inputs to read, in a stable order.

    Folders are walked recursively for files with an accepted suffix and for session folders
    (folders holding ``receipt.json``, read as one input). Hidden entries, the archive of a
    database and the archive's sidecar files (``*.meta.json``, ``*.games.json``,
    ``*.reason.json``) are skipped. A path that does not exist becomes an "unreadable" report.
    """
    accepted = suffixes()
    found: list[Path] = []
    missing: list[FileReport] = []
    seen: set[Path] = set()

    def add(p: Path) -> None:
        rp = p.resolve()
        if rp not in seen:
            seen.add(rp)
            found.append(p)

    for raw in paths:
        p = Path(raw)
        if not p.exists():
            missing.append(FileReport(str(p), "unreadable", reason="no such file or folder"))
            continue
        if p.is_file():
            add(p)
            continue
        if (p / SESSION_MARKER).is_file():
            add(p)
            continue
        for root, dirs, files in os.walk(p):
            rootp = Path(root)
            dirs[:] = sorted(
                d for d in dirs
                if not d.startswith(".") and not (d == "archive" and (rootp / d / "games").is_dir())
            )
            session_dirs = [d for d in dirs if (rootp / d / SESSION_MARKER).is_file()]
            for d in session_dirs:
                add(rootp / d)
            dirs[:] = [d for d in dirs if d not in session_dirs]
            for f in sorted(files):
                if f.startswith(".") or f.endswith(_ARCHIVE_SIDECARS):
                    continue
                fp = rootp / f
                if fp.suffix.lower() in accepted:
                    add(fp)
    return found, missing


# --------------------------------------------------------------------------------------------
# Rows of one game


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


def _event_payloads(text: str, n: int) -> list[str]:
    """The JSON text of each event, cut from the canonical text (one event per line)."""
    lines = text.split("\n")
    # Canonical layout (schemas/canonical.py): 3 preamble lines, n event lines, "]}", "".
    body = lines[3 : 3 + n]
    if len(body) != n:
        raise ValueError("the canonical text does not have one event per line")
    return [ln[:-1] if ln.endswith(",") else ln for ln in body]


_COLUMNS: dict[str, tuple[str, ...]] = {t: tuple(c for c, _, _ in cols) for t, cols in TABLES.items()}

# Columns of one game: table -> (number of rows, column -> values). ``game_id`` is left out.
GameColumns = dict[str, tuple[int, dict[str, list[Any]]]]


def _from_rows(table: str, rows: list[dict[str, Any]]) -> tuple[int, dict[str, list[Any]]]:
    return len(rows), {c: [r.get(c) for r in rows] for c in _COLUMNS[table][1:]}


DEFAULT_PROTOCOL = "mandate2038-observation"
# protocol reference -> (protocol, why it could not be loaded); per process, for the batch.
_PROTOCOLS: dict[str, tuple[Any, str | None]] = {}


def _protocol(reference: str) -> tuple[Any, str | None]:
    """The observation protocol named by ``reference`` (``<id>`` or ``<id>@<version>``), or
    (None, reason) when it cannot be loaded. Cached per reference in this process."""
    if reference not in _PROTOCOLS:
        from schemas.packs import load_protocol

        try:
            _PROTOCOLS[reference] = (load_protocol(reference), None)
        except Exception as err:  # unknown id or version, unreadable or invalid file
            _PROTOCOLS[reference] = (None, f"{type(err).__name__}: {err}")
    return _PROTOCOLS[reference]


def _capture_rows(header: Any, events: Sequence[Any], notes: list[str]) -> list[dict[str, Any]]:
    """One ``capture`` row per checklist item of the game's observation protocol (the header's
    ``protocol``, else the latest :data:`DEFAULT_PROTOCOL`), scored by
    :func:`schemas.protocol.capture_completeness`. A protocol that cannot be loaded gives no
    rows and a note (never a failed game). Simulated games without a protocol get no rows."""
    from schemas.protocol import capture_completeness

    if getattr(header, "session_type", None) == "simulation" and not getattr(header, "protocol", None):
        # a simulated game is observed by nobody: no protocol applies (and scoring one would
        # only fill the table with "not captured" rows)
        return []
    reference = getattr(header, "protocol", None) or DEFAULT_PROTOCOL
    protocol, problem = _protocol(reference)
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
    result = replay(header, events, lines=lines, indices=indices)
    out: GameColumns = {}
    notes: list[str] = []

    # Findings: the reader's (kept in meta) first, then the engine's.
    read_findings = [f for f in meta.get("read_findings", []) if isinstance(f, dict)]
    all_findings: list[dict[str, Any]] = list(read_findings)
    all_findings += [f.model_dump(mode="json") for f in result.findings]
    finding_rows = []
    for i, f in enumerate(all_findings):
        where = f.get("where") or {}
        finding_rows.append(
            {"n": i, "code": f.get("code"), "severity": f.get("severity"), "rule": f.get("rule"),
             "message": f.get("message"), "event": where.get("event"), "line": where.get("line"),
             "era": where.get("era"), "cycle": where.get("cycle"), "seat": where.get("seat"),
             "expected": _json(f.get("expected")), "recorded": _json(f.get("recorded"))}
        )
    out["findings"] = _from_rows("findings", finding_rows)
    n_errors = sum(1 for f in all_findings if f.get("severity") == "error")
    n_warnings = sum(1 for f in all_findings if f.get("severity") == "warning")

    # Events, observations, survey.
    payloads = _event_payloads(text, n)
    kinds: list[str] = []
    seats: list[int | None] = []
    eras: list[int | None] = []
    cycles: list[int | None] = []
    times: list[dt.datetime | None] = []
    obs_rows: list[dict[str, Any]] = []
    survey_rows: list[dict[str, Any]] = []
    era: int | None = None
    cycle: int | None = None
    for i, ev in enumerate(events):
        kind = ev.type
        if kind == "era_start":
            era, cycle = ev.era, None
        elif kind == "headline":
            cycle = ev.cycle
        seat = getattr(ev, "seat", None)
        raw_t = getattr(ev, "t", None)
        t = None if raw_t is None else naive_utc(raw_t)
        kinds.append(kind)
        seats.append(seat if isinstance(seat, int) else None)
        eras.append(era)
        cycles.append(cycle)
        times.append(t)
        if kind == "observation":
            obs_rows.append(
                {"idx": indices[i], "category": ev.category, "rule": ev.rule, "seat": ev.seat,
                 "era": era, "cycle": cycle, "text": ev.text, "minutes": ev.minutes, "t": t}
            )
        elif kind == "survey":
            value = ev.value
            num = float(value) if isinstance(value, int | float) else None
            text_value = json.dumps(value) if isinstance(value, bool) else str(value)
            survey_rows.append(
                {"idx": indices[i], "seat": ev.seat, "item": ev.item, "value_text": text_value,
                 "value_num": num}
            )
    out["events"] = (n, {"idx": list(indices), "type": kinds, "seat": seats, "era": eras,
                         "cycle": cycles, "t": times, "line": list(lines), "payload": payloads})
    out["observations"] = _from_rows("observations", obs_rows)
    out["survey"] = _from_rows("survey", survey_rows)
    out["capture"] = _from_rows("capture", _capture_rows(header, events, notes))

    # Timing.
    timing = compute_timing(events, indices)
    out["phases"] = _from_rows("phases", timing.phases)
    out["turn_times"] = _from_rows("turn_times", timing.turn_times)

    # Ledger.
    last_total: dict[int, int] = {}
    ledger = result.ledger
    out["ledger"] = (len(ledger), {
        "n": list(range(len(ledger))), "seat": [e.seat for e in ledger],
        "era": [e.era for e in ledger], "cycle": [e.cycle for e in ledger],
        "event": [e.event for e in ledger], "source": [e.source for e in ledger],
        "amount": [e.amount for e in ledger], "total": [e.total for e in ledger],
        "detail": [e.detail for e in ledger],
    })
    for e in ledger:
        last_total[e.seat] = e.total

    # Engine records.
    seat_records: dict[int, dict[str, Any]] = {}
    era_states: list[dict[str, Any]] = []
    for name, recs in sorted((result.records or {}).items()):
        if name == "seats":
            for r in recs:
                if isinstance(r.get("seat"), int):
                    seat_records[r["seat"]] = r
            continue
        if name not in RECORD_TABLES:
            notes.append(f"the engine's {name!r} rows have no warehouse table; not stored")
            continue
        cols = _COLUMNS[name]
        unknown = sorted({k for r in recs for k in r} - set(cols))
        if unknown:
            notes.append(f"the engine's {name!r} rows have columns {unknown} with no warehouse column")
        out[name] = (len(recs), {c: [r.get(c) for r in recs] for c in cols[1:]})
        if name == "era_states":
            era_states = [{c: r.get(c) for c in cols} for r in recs]

    # Outcome.
    outcome = result.outcome
    provisional = set(outcome.provisional_winners) if outcome else set()
    winners = set(outcome.winners) if outcome else set()
    outcome_rows = []
    if outcome is not None:
        d = outcome.details or {}
        outcome_rows.append(
            {"complete": outcome.complete, "provisional_winners": list(outcome.provisional_winners),
             "winners": list(outcome.winners), "agi": d.get("agi"), "claimant": d.get("claimant"),
             "ending": outcome.ending, "open": d.get("open"),
             "collective_trust": d.get("collective_trust"),
             "setup_collective_trust": d.get("setup_collective_trust"),
             "open_threshold": d.get("open_threshold"), "trust_margin": d.get("trust_margin"),
             "systemic_risk": d.get("systemic_risk"),
             "systemic_risk_limit": d.get("systemic_risk_limit"), "details": _json(d)}
        )
    out["outcomes"] = _from_rows("outcomes", outcome_rows)

    # Seats: the engine's "seats" rows when it gives them; else the last Era-end state of the
    # seat (era_states) for resources, and the score ledger's last total for Mandate.
    last_state: dict[int, dict[str, Any]] = {}
    for r in era_states:
        seat = r.get("seat")
        if isinstance(seat, int) and (r.get("era") or 0) >= (last_state.get(seat, {}).get("era") or 0):
            last_state[seat] = r
    seat_rows = []
    for s in header.seats:
        rec = seat_records.get(s.seat) or {
            f"final_{k}": v for k, v in last_state.get(s.seat, {}).items()
            if k in ("runway", "compute", "capability", "customers", "trust")
        }
        seat_rows.append(
            {"seat": s.seat, "faction": s.faction, "player": s.player,
             "final_mandate": rec.get("final_mandate", last_total.get(s.seat)),
             "final_runway": rec.get("final_runway"), "final_compute": rec.get("final_compute"),
             "final_capability": rec.get("final_capability"),
             "final_customers": rec.get("final_customers"),
             "final_trust": rec.get("final_trust"),
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
         "unchecked": list(result.unchecked)}
    ])
    for table in TABLES:
        if table not in out:
            out[table] = _from_rows(table, [])
    return out, notes


# --------------------------------------------------------------------------------------------
# Frames of a batch


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
        for table, acc in self.cols.items():
            start = self.sizes[table]
            n, cols = columns.get(table, (0, {}))
            if n:
                for c, values in acc.items():
                    if c == "game_id":
                        values.extend([game_id] * n)
                    else:
                        given = cols.get(c)
                        values.extend([None] * n if given is None else given)
            self.sizes[table] = start + n
            span[table] = (start, start + n)
        self.spans.append((game_id, span))

    @property
    def game_ids(self) -> list[str]:
        return [g for g, _ in self.spans]

    def _arrow(self, table: str, keep: slice | list[int] | None = None) -> pa.Table:
        """The table's rows (all, a slice, or the listed row numbers) as Arrow."""
        schema = _ARROW_SCHEMAS[table]
        cols = self.cols[table]
        arrays = []
        for f in schema:
            values = cols[f.name]
            if isinstance(keep, slice):
                values = values[keep]
            elif keep is not None:
                values = [values[i] for i in keep]
            arrays.append(pa.array(values, type=f.type))
        return pa.Table.from_arrays(arrays, schema=schema)

    def build(self) -> tuple[dict[str, pl.DataFrame], dict[str, str]]:
        """One polars frame per table, and the games left out because their rows do not fit
        (game id -> reason). Each table is converted once; per-game conversion only runs for a
        table that failed, to name the culprits."""
        arrows: dict[str, pa.Table] = {}
        bad: dict[str, str] = {}
        for table in TABLES:
            try:
                arrows[table] = self._arrow(table)
            except _CONVERSION_ERRORS:
                for gid, span in self.spans:
                    try:
                        self._arrow(table, slice(*span[table]))
                    except _CONVERSION_ERRORS as err:
                        bad.setdefault(gid, f"its {table!r} rows do not fit the table: {err}")
        if bad:
            for table in TABLES:
                keep = [i for gid, span in self.spans if gid not in bad
                        for i in range(*span[table])]
                arrows[table] = self._arrow(table, keep)
        out: dict[str, pl.DataFrame] = {}
        for table, arrow in arrows.items():
            frame = pl.from_arrow(arrow)
            assert isinstance(frame, pl.DataFrame)
            out[table] = frame
        return out, bad


_CONVERSION_ERRORS = (pa.ArrowException, TypeError, ValueError, OverflowError)


# --------------------------------------------------------------------------------------------
# The batch function


@dataclass(slots=True)
class Item:
    """One unit of work: an input path to read, or an archived game to re-derive."""

    path: str | None = None
    game_id: str | None = None  # rebuild: the archived game


@dataclass(slots=True)
class BatchResult:
    """What :func:`process_batch` returns: frames of the games to load plus one report each.

    ``pending`` holds, for a batch run without an archive, what the caller must archive before
    loading: ``(game_id, canonical text, meta, raw bytes, raw ext)``.
    """

    frames: dict[str, pl.DataFrame]
    reports: list[FileReport]
    pending: list[tuple[str, str, dict[str, Any], bytes, str]] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time of the process that ran the batch


def _raw_ext(source: str, fmt: str) -> str:
    suffix = Path(source.split("#", 1)[0]).suffix.lstrip(".").lower()
    if suffix and Path(source.split("#", 1)[0]).is_file():
        return suffix
    return {"session-folder": "zip"}.get(fmt, fmt or "bin")


def _finding_reasons(findings: Sequence[Any], limit: int = 20) -> list[dict[str, Any]]:
    out = []
    for f in list(findings)[:limit]:
        out.append({"code": f.code, "message": f.message, "line": f.where.line,
                    "event": f.where.event})
    return out


def _reason_text(loaded: Any) -> str:
    # The reader's findings name the source, line and column; the bare reason is the fallback.
    bits = [f.message for f in loaded.parsed.findings[:3]]
    if not bits and loaded.unreadable:
        bits.append(str(loaded.unreadable))
    if not bits:
        bits.append("the input holds no readable game log")
    text = "; ".join(bits)
    if loaded.source not in text:
        text = f"{loaded.source}: {text}"
    return text


def _meta_for(loaded: Any, raw_sha: str) -> dict[str, Any]:
    parsed = loaded.parsed
    return {
        "source_format": loaded.format,
        "source_name": loaded.source,
        "raw_sha256": raw_sha,
        "lines": list(parsed.lines),
        "indices": list(parsed.indices),
        "raw_event_count": parsed.raw_event_count,
        "read_findings": [f.model_dump(mode="json") for f in parsed.findings],
        "archived_at": now_utc(),
    }


def _analyse(
    game_id: str,
    text: str,
    header: Any,
    events: Sequence[Any],
    meta: dict[str, Any],
    builder: FrameBuilder,
    report: FileReport,
) -> None:
    columns, notes = game_columns(game_id, text, header, events, meta)
    report.findings = columns["findings"][0]
    report.notes.extend(notes)
    builder.add_columns(game_id, columns)


def process_batch(
    items: Sequence[Item],
    *,
    archive: str | Path | None = None,
    skip_ids: frozenset[str] = frozenset(),
    run_started: float | None = None,
) -> BatchResult:
    """Read, replay and turn a batch of inputs into frames (one per warehouse table).

    ``skip_ids``: games already in the warehouse; they are archived (a no-op when present) but
    not replayed, and reported "skipped". With ``archive`` (a root folder), raw bytes,
    canonical logs and quarantined inputs are written there before this returns; without it
    nothing is written and :attr:`BatchResult.pending` lists what to archive. Items with
    ``game_id`` re-derive an archived game (rebuild; needs ``archive``). Never raises for a bad
    input: every item ends as reports.

    Order: every input is read and canonicalised and its files staged in the archive; the
    archive is then synced once for the whole batch (:meth:`Archive.sync`: content durable,
    final names linked, names durable); only then are the games replayed into rows, with the
    meta that is actually archived (another process may have archived a game first).
    """
    started = time.perf_counter()
    cpu_started = time.process_time()
    load_plugins()
    arch = Archive(archive, staged=True) if archive is not None else None
    builder = FrameBuilder()
    reports: list[FileReport] = []
    pending: list[tuple[str, str, dict[str, Any], bytes, str]] = []
    report_of: dict[str, FileReport] = {}
    in_batch: set[str] = set()
    # Games to analyse once the archive is synced: (report, text, header, events, meta,
    # whether the archived meta must be read back).
    todo: list[tuple[FileReport, str, Any, Sequence[Any], dict[str, Any], bool]] = []
    for item in items:
        if item.game_id is not None:
            if arch is None:
                raise ValueError("re-deriving an archived game needs the archive")
            report = FileReport(f"archive:{item.game_id}", "loaded", item.game_id)
            try:
                text = arch.read_game_text(item.game_id)
                meta = arch.read_meta(item.game_id)
                parsed = parse_log(json.loads(text))
                if parsed.header is None or parsed.findings:
                    raise ArchiveError(
                        f"archived game {item.game_id} no longer reads cleanly: "
                        + "; ".join(f.message for f in parsed.findings[:3])
                    )
                todo.append((report, text, parsed.header, parsed.events, meta, False))
            except Exception as err:  # noqa: BLE001 - one bad game must not stop the rebuild
                report.status, report.reason = "failed", _describe(err)
            reports.append(report)
            continue
        assert item.path is not None
        if arch is not None and skip_ids and _known_raw(arch, Path(item.path), skip_ids, reports):
            continue
        try:
            loaded_logs = read_input(Path(item.path))
        except Exception as err:  # noqa: BLE001 - a reader bug must not stop the batch
            reports.append(FileReport(item.path, "failed", reason=f"reader error: {_describe(err)}"))
            continue
        if not loaded_logs:
            reports.append(FileReport(item.path, "unreadable", reason="no game log found in it"))
            continue
        for loaded in loaded_logs:
            source = loaded.source
            try:
                ext = _raw_ext(source, loaded.format)
                raw = loaded.raw or b""
                parsed = loaded.parsed
                if loaded.unreadable or parsed.header is None or get_ruleset(parsed.header.game) is None:
                    reason = _reason_text(loaded)
                    if arch is not None and raw:
                        why = _finding_reasons(parsed.findings)
                        if loaded.unreadable and not why:
                            why = [{"message": str(loaded.unreadable), "line": None}]
                        if parsed.header is not None and not why:
                            why = [{"message": f"no ruleset is registered for game "
                                               f"{parsed.header.game!r}", "line": None}]
                        arch.quarantine(raw, ext, file=source, reasons=why)
                    reports.append(FileReport(source, "unreadable", reason=reason))
                    continue
                rs = parsed.ruleset or get_ruleset(parsed.header.game)
                assert rs is not None  # checked above
                log = rs.log_model.model_construct(header=parsed.header, events=list(parsed.events))
                text = canonical_text(log)
                text_bytes = text.encode("utf-8")
                text_sha = sha256_hex(text_bytes)
                game_id = text_sha[:GAME_ID_LENGTH]  # = game_id_of_text(text)
                same_bytes = raw == text_bytes
                raw_sha = text_sha if (same_bytes or not raw) else sha256_hex(raw)
                meta = _meta_for(loaded, raw_sha)
                recovered = False
                read_back = False
                if arch is not None:
                    raw_path = arch.put_raw(raw, ext, sha=raw_sha, group=game_id).path if raw else None
                    existing = arch.game_path(game_id)
                    if existing.exists():
                        # Archived before (this run's other batches, or an earlier run): its
                        # archived meta is the record.
                        read_back = True
                        if run_started is None or existing.stat().st_mtime < run_started:
                            recovered = True
                    arch.put_game_text(text, meta, same_as=raw_path if same_bytes else None)
                    if raw:
                        arch.record_games_of_raw(raw_sha, [game_id])
                else:
                    pending.append((game_id, text, meta, raw, ext))
                if game_id in skip_ids or game_id in in_batch:
                    reports.append(FileReport(source, "skipped", game_id, "already loaded"))
                    continue
                in_batch.add(game_id)
                report = FileReport(source, "recovered" if recovered else "loaded", game_id)
                report.unreadable_lines = [
                    f.message for f in parsed.findings
                    if f.code in ("log/parse-error", "log/invalid-event", "log/unknown-event")
                ]
                todo.append((report, text, parsed.header, parsed.events, meta, read_back))
                reports.append(report)
            except Exception as err:  # noqa: BLE001 - one bad game must not stop the batch
                reports.append(FileReport(source, "failed", reason=_describe(err)))
    if arch is not None:
        # Every new name is durable before the caller loads these games.
        try:
            synced = arch.sync()
        except Exception as err:  # noqa: BLE001 - the archive is unusable: nothing may load
            synced = SyncResult(errors={r.game_id: f"the archive could not be synced: {err}"
                                        for r, *_ in todo if r.game_id})
    else:
        synced = SyncResult()
    for report, text, header, events, meta, read_back in todo:
        gid = report.game_id
        assert gid is not None
        try:
            if gid in synced.errors:
                raise ArchiveError(synced.errors[gid])
            if arch is not None and (read_back or gid in synced.existing):
                # The archived meta is the record (another worker may have won the race).
                meta = arch.read_meta(gid) or meta
            _analyse(gid, text, header, events, meta, builder, report)
            report_of[gid] = report
        except Exception as err:  # noqa: BLE001 - one bad game must not stop the batch
            report.status, report.reason = "failed", _describe(err)
    frames, bad = builder.build()
    for gid, reason in bad.items():
        rep = report_of.get(gid)
        if rep is not None:
            rep.status, rep.reason = "failed", f"game {gid}: {reason}"
    return BatchResult(
        frames, reports, pending, time.perf_counter() - started, time.process_time() - cpu_started
    )


def _known_raw(arch: Archive, path: Path, skip_ids: frozenset[str], reports: list[FileReport]) -> bool:
    """True (and "skipped" reports added) when these exact bytes were ingested before and all
    their games are loaded: then the file need not be read or replayed again."""
    if not path.is_file():
        return False
    try:
        sha = sha256_hex(path.read_bytes())
    except OSError:
        return False
    ids = arch.games_of_raw(sha)
    if not ids or not all(g in skip_ids and arch.has_game(g) for g in ids):
        return False
    reports.extend(FileReport(str(path), "skipped", g, "already loaded") for g in ids)
    return True


def _describe(err: BaseException) -> str:
    tb = traceback.extract_tb(err.__traceback__)
    where = f" (at {Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
    return f"{type(err).__name__}: {err}{where}"


# --------------------------------------------------------------------------------------------
# Running batches


def _chunks(items: Sequence[Item], workers: int) -> list[list[Item]]:
    n = len(items)
    if n == 0:
        return []
    # Enough batches to keep every worker busy and the progress bar moving; at most BATCH_MAX.
    size = max(1, min(BATCH_MAX, -(-n // (workers * 8))))
    return [list(items[i : i + size]) for i in range(0, n, size)]


def _workers() -> int:
    raw = os.environ.get("PLAYTEST_WORKERS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    return max(1, os.cpu_count() or 1)


def _run_batches(
    items: Sequence[Item],
    *,
    archive: Path,
    skip_ids: frozenset[str],
    run_started: float,
    progress: bool,
    label: str,
) -> Iterator[BatchResult]:
    """Yield each batch's result as it completes (pool for many items, inline for few)."""
    workers = _workers()
    if len(items) < INLINE_BELOW or workers == 1:
        batches = _chunks(items, 1) if len(items) >= INLINE_BELOW else ([list(items)] if items else [])
        with _progress(progress, label, len(items)) as advance:
            for batch in batches:
                res = process_batch(batch, archive=archive, skip_ids=skip_ids, run_started=run_started)
                advance(len(batch))
                yield res
        return
    batches = _chunks(items, workers)
    ctx = multiprocessing.get_context("spawn")
    with _progress(progress, label, len(items)) as advance, ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx
    ) as pool:
        futures: dict[Future[BatchResult], int] = {}
        queue = list(batches)
        # Keep a bounded number of batches in flight so finished frames do not pile up.
        while queue or futures:
            while queue and len(futures) < workers * 2:
                batch = queue.pop(0)
                fut = pool.submit(
                    process_batch, batch, archive=archive, skip_ids=skip_ids, run_started=run_started
                )
                futures[fut] = len(batch)
            done, _ = wait(list(futures), return_when=FIRST_COMPLETED)
            for fut in done:
                size = futures.pop(fut)
                advance(size)
                try:
                    result = fut.result()
                except BrokenProcessPool:
                    raise StorageError(
                        "a worker process died (killed, or out of memory?); the games loaded so "
                        "far are kept. Run the same command again to continue (set "
                        "PLAYTEST_WORKERS=1 to run in one process)."
                    ) from None
                yield result


@contextlib.contextmanager
def _progress(enabled: bool, label: str, total: int) -> Iterator[Any]:
    if not enabled or total == 0:
        yield lambda n: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        transient=False, console=_stderr_console(),
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(file=sys.stderr)


def _load(db_path: Path, res: BatchResult) -> None:
    """Load one batch's frames; games found already loaded become "skipped"."""
    if not res.frames["games"].height:
        return
    with connect(db_path) as con:
        out = load_frames(con, res.frames)
    skipped = set(out.skipped)
    for r in res.reports:
        if r.game_id in skipped and r.status in ("loaded", "recovered"):
            r.status, r.reason = "skipped", "already loaded"


class _Loader:
    """Loads finished batches into the database, merging those that arrive close together.

    Opening, loading and closing (which checkpoints) costs about 0.3 s whatever the size, so
    batch results are buffered and loaded together once ``FLUSH_GAMES`` games or
    ``FLUSH_SECONDS`` have accumulated (and at the end). Each load is one transaction.
    """

    FLUSH_GAMES = 1000
    FLUSH_SECONDS = 2.0

    def __init__(self, summary: IngestSummary, db_path: Path) -> None:
        raw = os.environ.get("PLAYTEST_FLUSH_GAMES", "").strip()
        if raw.isdigit() and int(raw) > 0:  # tuning knob (the crash test loads often)
            self.FLUSH_GAMES = int(raw)
        self.summary = summary
        self.db_path = db_path
        self.frames: list[dict[str, pl.DataFrame]] = []
        self.reports: list[FileReport] = []
        self.ids: set[str] = set()
        self.last = time.monotonic()

    def add(self, res: BatchResult) -> None:
        self.summary.batch_cpu_seconds += res.cpu_seconds
        self.summary.reports.extend(res.reports)
        frames = res.frames
        new_ids = frames["games"]["game_id"].to_list()
        dup = self.ids.intersection(new_ids)
        if dup:  # the same game from two inputs in different batches: keep the first
            keep = pl.Series(sorted(set(new_ids) - dup), dtype=pl.String).implode()
            frames = {t: f.filter(pl.col("game_id").is_in(keep)) for t, f in frames.items()}
            for r in res.reports:
                if r.game_id in dup and r.status in ("loaded", "recovered"):
                    r.status, r.reason = "skipped", "already loaded"
        self.ids.update(new_ids)
        if frames["games"].height:
            self.frames.append(frames)
            self.reports.extend(res.reports)
        if (sum(f["games"].height for f in self.frames) >= self.FLUSH_GAMES
                or time.monotonic() - self.last >= self.FLUSH_SECONDS):
            self.flush()

    def flush(self) -> None:
        self.last = time.monotonic()
        if not self.frames:
            return
        merged = (
            self.frames[0] if len(self.frames) == 1
            else {t: pl.concat([f[t] for f in self.frames]) for t in self.frames[0]}
        )
        t0 = time.perf_counter()
        _load(self.db_path, BatchResult(merged, self.reports))
        self.summary.load_seconds += time.perf_counter() - t0
        self.frames, self.reports = [], []


def _ensure_schema(db_path: Path) -> frozenset[str]:
    with connect(db_path) as con:
        migrate(con)
        return frozenset(existing_game_ids(con))


# --------------------------------------------------------------------------------------------
# Public entry points


def ingest_paths(
    paths: Iterable[str | Path], db_path: str | Path | None = None, *, progress: bool = True
) -> IngestSummary:
    """Archive and load every game under ``paths`` (files or folders) into ``db_path``.

    Returns a summary with one report per game or unreadable input; unreadable inputs are
    quarantined with their reason. Raises :class:`ingest.db.DatabaseBusy` when another process
    holds the database and :class:`ingest.db.StorageError` for storage problems; never for a
    bad input.
    """
    started = time.perf_counter()
    run_started = time.time()
    db = resolve_db(db_path)
    root = archive_root(db)
    files, missing = walk_inputs(paths)
    summary = IngestSummary(db, root, list(missing), files=len(files) + len(missing))
    known = _ensure_schema(db)
    items = [Item(path=str(f)) for f in files]
    loader = _Loader(summary, db)
    for res in _run_batches(items, archive=root, skip_ids=known, run_started=run_started,
                            progress=progress, label="ingest"):
        loader.add(res)
    loader.flush()
    _dedupe_across_batches(summary)
    summary.seconds = time.perf_counter() - started
    return summary


def _dedupe_across_batches(summary: IngestSummary) -> None:
    # Two inputs with the same game in different batches: the loader skipped the later one;
    # make sure only one report says loaded/recovered per game id.
    seen: set[str] = set()
    for r in summary.reports:
        if r.game_id is None or r.status not in ("loaded", "recovered"):
            continue
        if r.game_id in seen:
            r.status, r.reason = "skipped", "already loaded"
        seen.add(r.game_id)


def ingest_log(log: Any, db_path: str | Path | None = None, *, source: str = "live") -> IngestSummary:
    """Archive and load one log model built in memory (live entry); returns the summary.

    The canonical text is kept as the raw input too. A game already loaded is "skipped". Call it
    once, for the finished (or abandoned) game: every different text is a different game id, so
    saving a draft after each event would store every intermediate version as a game (drafts
    belong to the entry tool's own fsynced files).
    """
    started = time.perf_counter()
    db = resolve_db(db_path)
    root = archive_root(db)
    summary = IngestSummary(db, root, files=1)
    known = _ensure_schema(db)
    arch = Archive(root)
    text = canonical_text(log)
    raw = text.encode("utf-8")
    put_raw = arch.put_raw(raw, "json")
    game_id = game_id_of_text(text)
    existed = arch.has_game(game_id)
    meta = {
        "source_format": "live", "source_name": source, "raw_sha256": put_raw.key,
        "lines": [4 + i for i in range(len(log.events))], "indices": list(range(len(log.events))),
        "raw_event_count": len(log.events), "read_findings": [], "archived_at": now_utc(),
    }
    arch.put_game_text(text, meta)
    meta = arch.read_meta(game_id) or meta
    if game_id in known:
        summary.reports.append(FileReport(source, "skipped", game_id, "already loaded"))
    else:
        builder = FrameBuilder()
        report = FileReport(source, "recovered" if existed else "loaded", game_id)
        try:
            _analyse(game_id, text, log.header, list(log.events), meta, builder, report)
            frames, bad = builder.build()
            if bad:
                report.status, report.reason = "failed", bad[game_id]
            else:
                _load(db, BatchResult(frames, [report]))
        except StorageError:
            raise
        except Exception as err:  # noqa: BLE001
            report.status, report.reason = "failed", _describe(err)
        summary.reports.append(report)
    summary.seconds = time.perf_counter() - started
    return summary


def rebuild(
    db_path: str | Path | None = None, *, progress: bool = True, allow_drop: bool = False
) -> IngestSummary:
    """Recreate the warehouse from the archive into a new file and swap it in atomically.

    The old database is held (locked) while the new one is built, so no ingest can slip in
    between; then the new file replaces it with ``os.replace``. Raises DatabaseBusy when the
    database is in use, and StorageError when the warehouse holds games the archive lacks (a
    moved or missing archive; ``allow_drop=True`` rebuilds anyway and drops them). Games that
    fail to re-derive are reported ("failed") and left out.
    """
    started = time.perf_counter()
    db = resolve_db(db_path)
    root = archive_root(db)
    arch = Archive(root)
    summary = IngestSummary(db, root)
    new = db.with_name(f"{db.name}.rebuild-{os.getpid()}")
    for stale in (new, new.with_name(new.name + ".wal")):
        stale.unlink(missing_ok=True)
    db.parent.mkdir(parents=True, exist_ok=True)
    hold = connect(db) if db.exists() else contextlib.nullcontext()
    with hold as old_con:
        try:
            ids = arch.game_ids()
            summary.files = len(ids)
            if old_con is not None and not allow_drop:
                _refuse_to_drop(old_con, set(ids), root)
            with connect(new) as con:
                migrate(con)
            items = [Item(game_id=g) for g in ids]
            loader = _Loader(summary, new)
            for res in _run_batches(items, archive=root, skip_ids=frozenset(),
                                    run_started=time.time(), progress=progress, label="rebuild"):
                loader.add(res)
            loader.flush()
            with connect(new) as con:
                con.execute("CHECKPOINT")
        except BaseException:
            new.unlink(missing_ok=True)
            new.with_name(new.name + ".wal").unlink(missing_ok=True)
            raise
    # The old connection is closed (checkpointed); a leftover WAL must not meet the new file.
    old_wal = db.with_name(db.name + ".wal")
    if old_wal.exists():
        old_wal.rename(db.with_name(f"{db.name}.wal.stale-{int(time.time())}"))
    os.replace(new, db)
    with contextlib.suppress(OSError):
        fd = os.open(db.parent, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
    summary.seconds = time.perf_counter() - started
    return summary


def _refuse_to_drop(con: Any, archived: set[str], root: Path) -> None:
    try:
        migrate(con)
        loaded = existing_game_ids(con)
    except StorageError:
        raise
    except Exception as err:  # noqa: BLE001 - an unreadable old database is simply replaced
        print(f"the old database could not be read ({err}); rebuilding it", file=sys.stderr)
        return
    lost = loaded - archived
    if lost:
        raise StorageError(
            f"the warehouse holds {len(lost)} game(s) that are not in the archive {root} "
            f"(e.g. {sorted(lost)[0]}); rebuilding would drop them. Check that the archive "
            "beside the database is the right one (rebuild with allow_drop to drop them)."
        )


def export(db_path: str | Path | None, out_dir: str | Path, fmt: str = "parquet") -> list[Path]:
    """Write one file per warehouse table (``<table>.parquet`` or ``<table>.csv``) to ``out_dir``.

    Returns the written paths. Raises StorageError for an unknown format or a missing database.
    """
    if fmt not in ("parquet", "csv"):
        raise StorageError(f"unknown export format {fmt!r}; use parquet or csv")
    db = resolve_db(db_path)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with connect(db, read_only=True) as con:
        names = [*TABLES, "schema_migrations"]
        for name in names:
            path = out / f"{name}.{fmt}"
            rel = con.table(name)
            if fmt == "parquet":
                rel.write_parquet(str(path))
            else:
                rel.write_csv(str(path))
            written.append(path)
    return written
