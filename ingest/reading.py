"""Reading inputs: which files and session folders a path holds, and reading one of them through
the readers of :mod:`ingest.formats` (every format: canonical JSON, notation, sheet, session
folders, zips). Never raises on bad content: a bad input becomes an unreadable record."""

from __future__ import annotations

import os
from collections.abc import Iterable
from glob import escape as glob_escape
from pathlib import Path

from ingest import formats
from ingest.formats import LoadedLog
from ingest.reports import FileReport


def is_session_folder(path: Path) -> bool:
    """Whether ``path`` is a folder holding a session folder's marker file (any installed game's
    ``session_folder``, e.g. Mandate 2038's ``receipt.json``)."""
    try:
        return path.is_dir() and any((path / m).is_file() for m in formats.folder_markers())
    except OSError:
        return False

# The archive's own JSON files that are not game logs (skipped when a folder walk meets them).
_ARCHIVE_SIDECARS = (".meta.json", ".games.json", ".reason.json")


def archive_sidecar(path: Path) -> bool:
    """Whether ``path`` is the archive's record of a file beside it: ``X.meta.json``,
    ``X.games.json`` or ``X.reason.json`` next to its own ``X.*`` (a file so named without one
    is an input like any other)."""
    name = path.name
    if not name.endswith(_ARCHIVE_SIDECARS):
        return False
    stem = name.rsplit(".", 2)[0]
    try:
        return any(o.name != name and not o.name.endswith(_ARCHIVE_SIDECARS)
                   for o in path.parent.glob(glob_escape(stem) + ".*"))
    except OSError:
        return False


def suffixes() -> frozenset[str]:
    """File suffixes the readers accept (``ingest.formats.SUFFIXES``)."""
    return frozenset(s.lower() for s in formats.SUFFIXES)


def read_input(path: Path) -> list[LoadedLog]:
    """Read one file or session folder into LoadedLog records (never raises on bad content)."""
    return list(formats.read_path(path))


def walk_inputs(paths: Iterable[str | Path]) -> tuple[list[Path], list[FileReport]]:
    """Expand files and folders into the inputs to read, in a stable order.

    Folders are walked recursively for files with an accepted suffix and for session folders
    (folders holding a game's declared marker file, read as one input). Hidden entries and the archive of a
    database are skipped, and so are the archive's sidecar files (``X.meta.json``,
    ``X.games.json``, ``X.reason.json``) that sit beside their own file ``X.*``; a file so named
    without one is read like any other. A link is followed only when it stays inside the folder
    walked: a link out of it is not followed and becomes an "unreadable" report saying so. A
    special file with a log suffix (a FIFO, a device) is listed: reading it reports what it is
    (``ingest.formats.read_file`` never opens it for reading). A path that does not exist
    becomes an "unreadable" report.
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
            what = "a link to nothing" if p.is_symlink() else "no such file or folder"
            missing.append(FileReport(formats.source_name(p), "unreadable", reason=what))
            continue
        if not p.is_dir() or is_session_folder(p):
            add(p)  # as given: a file (read_path says when it is a FIFO or device) or a session
            continue
        top = p.resolve()
        for root, dirs, files in os.walk(p):
            rootp = Path(root)
            dirs[:] = sorted(
                d for d in dirs
                if not d.startswith(".") and not (d == "archive" and (rootp / d / "games").is_dir())
            )
            session_dirs = []
            for d in dirs:
                why = _link_out(rootp / d, p, top)
                if why is not None:  # a linked folder out of the walk: said, never entered
                    missing.append(FileReport(formats.source_name(rootp / d), "unreadable",
                                              reason=why))
                    session_dirs.append(d)
                elif is_session_folder(rootp / d):
                    add(rootp / d)
                    session_dirs.append(d)
            dirs[:] = [d for d in dirs if d not in session_dirs]
            for f in sorted(files):
                if f.startswith("."):
                    continue
                if f.endswith(_ARCHIVE_SIDECARS) and archive_sidecar(rootp / f):
                    continue  # the archive's own record of the file beside it
                fp = rootp / f
                if fp.suffix.lower() not in accepted:
                    continue
                why = _link_out(fp, p, top)
                if why is not None:
                    missing.append(FileReport(formats.source_name(fp), "unreadable", reason=why))
                    continue
                add(fp)
    return found, missing


def _link_out(entry: Path, folder: Path, top: Path) -> str | None:
    """Why ``entry`` (a link) is not followed, or None when it is no link or stays inside
    ``folder`` (whose resolved path is ``top``)."""
    if not entry.is_symlink():
        return None
    target = entry.resolve()
    if target == top or top in target.parents:
        return None
    return (f"a link out of the folder {formats.source_name(folder)} "
            f"(to {formats.source_name(target)}); not followed")
