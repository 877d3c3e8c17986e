"""Upload handling for the Import page: staging, then the ingest pipeline, archive first.

Uploaded files are written to a fresh temporary folder under their base names and handed to
``ingest.pipeline.ingest_paths``, which reads every format including the zip and archives every
input before it loads anything (OWASP's upload advice: archive first): a zip bomb is quarantined
with its reason like any unreadable input (the reader counts the bytes a zip really unpacks to),
and the other files of the same upload still load; with a busy database every file is archived
and the page says how many games wait to be loaded. The report is flattened into rows of file,
status, line and reason so that loaded, skipped and quarantined inputs read the same way.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

_LINE = re.compile(r"\bline (\d+)")
MAX_NAME = 200  # characters of an uploaded file's base name kept
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def safe_name(name: str) -> str:
    """The base name of an uploaded file, stripped of any folder part; control characters (a
    NUL byte cannot be part of a file name at all) become ``_`` and a very long name is cut,
    keeping its suffix."""
    base = PurePosixPath(_CONTROL.sub("_", name).replace("\\", "/")).name
    if len(base) > MAX_NAME:
        suffix = PurePosixPath(base).suffix[:16]
        base = base[: MAX_NAME - len(suffix)] + suffix
    return base if base.strip(". ") else "upload"


def stage(files: list[tuple[str, bytes]], workdir: Path, notes: list[str] | None = None) -> list[Path]:
    """Write uploads into ``workdir`` under their base names; return the paths.

    A ``.zip`` (a designers' session folder) is kept as it is: the pipeline reads it and
    archives the uploaded bytes, or quarantines a zip too large to unpack. A name that had to
    be changed (control characters, length) is said in ``notes``.
    """
    out: list[Path] = []
    used: set[str] = set()
    for name, data in files:
        base = safe_name(name)
        if notes is not None and base != PurePosixPath(name.replace("\\", "/")).name:
            notes.append(f"{name!r} was saved as {base!r} (a file name cannot hold control "
                         "characters such as a NUL byte, nor be that long)")
        while base in used:
            base = "_" + base
        used.add(base)
        dest = workdir / base
        dest.write_bytes(data)
        out.append(dest)
    return out


@dataclass
class ImportOutcome:
    """What an import did: the report rows, problems that stopped it (to show as errors) and
    notes (to show as warnings)."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def run_import(files: list[tuple[str, bytes]], db: Path, workdir: Path) -> ImportOutcome:
    """Stage the uploads in ``workdir`` and ingest them into ``db``. Never raises for a bad
    upload or a busy database: those become ``problems`` (the archive keeps whatever was
    archived, and the next import or ``playtest ingest`` loads it)."""
    from ingest.db import DatabaseBusy, StorageError
    from ingest.loading import BusyAfterArchiving

    out = ImportOutcome()
    try:
        paths = stage(files, workdir, out.notes)
        report = ingest(paths, db)
    except BusyAfterArchiving as err:
        # archived first: say what waits, and show every file's row
        out.problems.append(
            f"The database is busy, so {err.not_loaded} game(s) were archived but not loaded "
            f"yet. Nothing is lost: every uploaded file is in the archive (or its quarantine); "
            f"press Load again in a moment to load them. ({err})")
        out.rows = report_rows(err.summary, workdir)
        for row in out.rows:
            if "archived, not loaded" in row["reason"]:
                row["status"] = "archived, not loaded"
        return out
    except DatabaseBusy as err:
        out.problems.append(f"The database is busy, so nothing was loaded: {err}. "
                            "Press Load again in a moment.")
        return out
    except StorageError as err:
        out.problems.append(f"The warehouse could not be written: {err}")
        return out
    out.rows = report_rows(report, workdir)
    return out


def _as_dict(obj: Any) -> dict[str, Any]:
    if isinstance(obj, dict):
        return obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.asdict(obj)
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        return dict(dump())
    return {k: getattr(obj, k) for k in dir(obj) if not k.startswith("_")
            and not callable(getattr(obj, k, None))}


def report_rows(report: Any, workdir: Path | None = None) -> list[dict[str, Any]]:
    """Flatten an ingest report into rows: file, status, game_id, line, reason.

    Accepts a list of per-file results or an object whose ``files`` / ``results`` / ``items``
    hold them; each result may carry ``path``/``file``/``name``, ``status``, ``game_id``,
    ``line`` and ``reason``/``message``/``error``.
    """
    items: Any = report
    if not isinstance(report, list | tuple):
        d = _as_dict(report)
        for key in ("reports", "files", "results", "items", "entries"):
            if isinstance(d.get(key), list | tuple):
                items = d[key]
                break
        else:
            items = [d]
    rows = []
    for item in items:
        d = _as_dict(item)
        path = str(d.get("path") or d.get("file") or d.get("name") or d.get("source") or "")
        if workdir is not None and path.startswith(str(workdir)):
            path = path[len(str(workdir)):].lstrip("/\\")
        reason = d.get("reason") or d.get("message") or d.get("error") or ""
        if isinstance(reason, list | tuple):
            reason = "; ".join(str(r) for r in reason)
        notes = d.get("notes")
        if isinstance(notes, list | tuple) and notes:
            reason = "; ".join([str(reason)] * bool(reason) + [str(n) for n in notes])
        line = d.get("line")
        if line is None:
            m = _LINE.search(str(reason))
            line = int(m.group(1)) if m else None
        if workdir is not None:
            reason = str(reason).replace(str(workdir) + "/", "").replace(str(workdir), "")
        rows.append({
            "file": path,
            "status": str(d.get("status") or d.get("outcome") or ""),
            "game_id": d.get("game_id"),
            "line": line,
            "findings": d.get("findings") if isinstance(d.get("findings"), int) else None,
            "reason": str(reason),
        })
    return rows


def ingest(paths: list[Path], db: Path) -> Any:
    """Run the pipeline (``ingest.pipeline.ingest_paths``) on ``paths``, without a progress bar."""
    from ingest.pipeline import ingest_paths

    return ingest_paths(paths, db, progress=False)
