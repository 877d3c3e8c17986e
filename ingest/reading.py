"""Reading inputs: which files and session folders a path holds, and reading one of them through
the readers of :mod:`ingest.formats` (every format: canonical JSON, notation, sheet, session
folders, zips). Never raises on bad content: a bad input becomes an unreadable record."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ingest import formats
from ingest.formats import LoadedLog
from ingest.reports import FileReport

SESSION_MARKER = "receipt.json"
# The archive's own JSON files that are not game logs (skipped when a folder walk meets them).
_ARCHIVE_SIDECARS = (".meta.json", ".games.json", ".reason.json")


def suffixes() -> frozenset[str]:
    """File suffixes the readers accept (``ingest.formats.SUFFIXES``)."""
    return frozenset(s.lower() for s in formats.SUFFIXES)


def read_input(path: Path) -> list[LoadedLog]:
    """Read one file or session folder into LoadedLog records (never raises on bad content)."""
    return list(formats.read_path(path))


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
