"""Upload handling for the Import page: staging with size checks, then the ingest pipeline.

Uploaded files are written to a fresh temporary folder under their base names (a zip, the
designers' session folder, is checked against oversized content) and handed to
``ingest.pipeline.ingest_paths``, which reads every format including the zip. Its report is flattened into rows of file, status, line and
reason so that loaded, skipped and quarantined inputs read the same way.
"""

from __future__ import annotations

import dataclasses
import re
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

_LINE = re.compile(r"\bline (\d+)")
MAX_UNPACKED_BYTES = 200 * 1024 * 1024
MAX_ZIP_MEMBERS = 2000


class UploadProblem(Exception):
    """An upload that cannot be used; the message says why."""


def safe_name(name: str) -> str:
    """The base name of an uploaded file, stripped of any folder part."""
    base = PurePosixPath(name.replace("\\", "/")).name
    return base or "upload"


def check_zip(path: Path) -> None:
    """Refuse a zip that would unpack to too many files or too many bytes (a zip bomb).

    A zip that is not readable at all is passed on: the pipeline quarantines it with the reason.
    """
    try:
        with zipfile.ZipFile(path) as zf:
            members = zf.infolist()
    except zipfile.BadZipFile:
        return
    if len(members) > MAX_ZIP_MEMBERS:
        raise UploadProblem(f"{path.name}: {len(members)} files, more than {MAX_ZIP_MEMBERS}")
    total = sum(m.file_size for m in members)
    if total > MAX_UNPACKED_BYTES:
        raise UploadProblem(f"{path.name}: unpacks to {total // 2**20} MB, more than "
                            f"{MAX_UNPACKED_BYTES // 2**20} MB")


def stage(files: list[tuple[str, bytes]], workdir: Path) -> list[Path]:
    """Write uploads into ``workdir`` under their base names; return the paths.

    A ``.zip`` (a designers' session folder) is kept as it is, after the size checks: the
    pipeline reads it and archives the uploaded bytes.
    """
    out: list[Path] = []
    used: set[str] = set()
    for name, data in files:
        base = safe_name(name)
        while base in used:
            base = "_" + base
        used.add(base)
        dest = workdir / base
        dest.write_bytes(data)
        if base.lower().endswith(".zip"):
            check_zip(dest)
        out.append(dest)
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
