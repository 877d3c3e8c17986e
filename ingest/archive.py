"""The archive: the write-once, content-addressed system of record (DESIGN.md §2).

Layout, under :func:`ingest.db.archive_root` (``<db dir>/archive``)::

    games/<id[:2]>/<id>.json        the canonical log text (schemas.canonical.dumps_log)
    games/<id[:2]>/<id>.meta.json   where it came from: source format and name, raw sha256,
                                    source line and index of each event, reader findings
    raw/<sha256>.<ext>              the exact input bytes (kept even when lines were unreadable)
    quarantine/<sha256>.<ext>       input that could not be read as a game ...
    quarantine/<sha256>.reason.json ... and why: file name, reasons with line numbers, time

``game_id`` is the first 16 hex digits of the sha256 of the canonical JSON text, so the same game
read from any format gets the same id. Files are written atomically (temporary file in the same
directory, write, flush, ``os.fsync``, ``os.link`` to the final name, fsync of the directory) and
never overwritten or deleted: a second put of the same content is a no-op reported as "already
archived". The canonical game file is the commit point of a game: its meta file is written just
before it, and a meta file without its game (a crash between the two) may be replaced.

Batch mode (``Archive(root, staged=True)``, used by ingest workers): puts write their temporary
files without an fsync each and :meth:`Archive.sync` then makes them all durable with one
``syncfs`` of the file system, links them to their final names in put order (raw, meta, game),
and makes the names durable with a second ``syncfs``. The order of guarantees is the same as for
single puts (content durable before any final name exists; a final name is never replaced), for
two ``syncfs`` per batch instead of two ``fsync`` per game. Where ``syncfs`` is missing (not
Linux), each temporary file is fsynced instead.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import itertools
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ingest.db import StorageError
from schemas.canonical import LineMemo, dumps_log

GAME_ID_LENGTH = 16
_GAME_ID_RE = re.compile(r"^[0-9a-f]{16}$")
_EXT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,15}$")


class ArchiveError(StorageError):
    """The archive cannot do what was asked (collision, unreadable entry, bad name)."""


def sha256_hex(data: bytes) -> str:
    """The lowercase hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


#: the event lines ingest has written (:class:`schemas.canonical.LineMemo`): the logs an ingest
#: reads share most of their events (the reader's parsed-line cache), so a shared event's line is
#: written once per process
INGEST_LINES = LineMemo()


def canonical_text(log: BaseModel, memo: LineMemo | None = None) -> str:
    """The canonical JSON text of a log model (the bytes the game id is computed from);
    ``memo``: see :func:`schemas.canonical.dumps_log` (the same text)."""
    return dumps_log(log, memo)


def game_id_of_text(text: str) -> str:
    """The game id of a canonical JSON text: the first 16 hex digits of its sha256."""
    return sha256_hex(text.encode("utf-8"))[:GAME_ID_LENGTH]


def game_id_of(log: BaseModel) -> str:
    """The game id of a log model."""
    return game_id_of_text(canonical_text(log))


def now_utc() -> str:
    """The current UTC time as ISO 8601 text (second precision)."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


def _fsync_dir(path: Path, later: set[Path] | None = None) -> None:
    """Make a new name in ``path`` durable now, or note the directory in ``later``."""
    if later is not None:
        later.add(path)
        return
    # Not every platform allows a directory fsync.
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _load_syncfs() -> Any:
    """libc ``syncfs(fd)`` (Linux), or None where it is unavailable."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        fn = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int]
    fn.restype = ctypes.c_int
    return fn


_SYNCFS = _load_syncfs()


def sync_filesystem(path: Path) -> bool:
    """Flush every written file and name of the file system holding ``path`` to disk (one
    ``syncfs``). Returns False when that is not possible here (then nothing was done)."""
    if _SYNCFS is None:
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        if _SYNCFS(fd) != 0:
            import ctypes

            err = ctypes.get_errno()
            raise OSError(err, f"syncfs failed on {path}: {os.strerror(err)}")
    finally:
        os.close(fd)
    return True


# Temporary names: ``.tmp-<pid>-<n>.part``, created with O_EXCL (a name left by a killed process
# of the same pid is skipped). Cheaper than ``tempfile.mkstemp`` (no random names) and the folder
# is only created when the open finds it missing (not one ``mkdir`` per file).
_TMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
_TMP_SEQ = itertools.count()


def _write_temp(directory: Path, data: bytes, *, durable: bool = True) -> Path:
    pid = os.getpid()
    while True:
        tmp = os.path.join(directory, f".tmp-{pid}-{next(_TMP_SEQ)}.part")
        try:
            fd = os.open(tmp, _TMP_FLAGS, 0o600)
            break
        except FileExistsError:
            continue
        except FileNotFoundError:
            directory.mkdir(parents=True, exist_ok=True)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if durable:
                os.fsync(fd)
            # Archive files are read-only: an accidental edit fails instead of altering a record.
            os.fchmod(fd, 0o444)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def write_once(
    path: Path, data: bytes, *, later: set[Path] | None = None, durable: bool = True
) -> bool:
    """Atomically create ``path`` with ``data``; never overwrite.

    Returns True when the file was created, False when it already existed with the same bytes.
    Raises :class:`ArchiveError` when it exists with different bytes. ``later``: collect the
    directory to fsync instead of doing it now (see :meth:`Archive.sync`); ``durable=False``
    skips the file fsync (for hints that may be lost).
    """
    if path.exists():
        _check_same(path, data)
        return False
    tmp = _write_temp(path.parent, data, durable=durable)
    try:
        os.link(tmp, path)
        created = True
    except FileExistsError:
        created = False
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    if created:
        if durable:
            _fsync_dir(path.parent, later)
    else:
        _check_same(path, data)
    return created


def link_once(source: Path, path: Path, *, later: set[Path] | None = None) -> bool:
    """Create ``path`` as a hard link to the (durable, read-only) archive file ``source``;
    never overwrite. Returns False when ``path`` already existed (with the same bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, path)
    except FileExistsError:
        _check_same(path, source.read_bytes())
        return False
    _fsync_dir(path.parent, later)
    return True


def write_replace(path: Path, data: bytes, *, later: set[Path] | None = None) -> None:
    """Atomically write ``path`` (temp file, fsync, ``os.replace``); for uncommitted files only."""
    tmp = _write_temp(path.parent, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent, later)


def _check_same(path: Path, data: bytes) -> None:
    existing = path.read_bytes()
    if existing != data:
        raise ArchiveError(
            f"{path} already exists with different content (sha256 {sha256_hex(existing)[:16]} "
            f"vs {sha256_hex(data)[:16]}); the archive never overwrites a file"
        )


def _file_sha256(path: Path) -> str:
    """sha256 of a file's bytes, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _check_same_sha(path: Path, sha: str) -> None:
    """Like :func:`_check_same` for content known by its sha256 (read in chunks)."""
    existing = _file_sha256(path)
    if existing != sha:
        raise ArchiveError(
            f"{path} already exists with different content (sha256 {existing[:16]} "
            f"vs {sha[:16]}); the archive never overwrites a file"
        )


@dataclass(frozen=True, slots=True)
class PutResult:
    """What a put did: ``created`` False means "already archived" (nothing was written)."""

    key: str
    path: Path
    created: bool

    @property
    def message(self) -> str:
        return f"archived {self.path.name}" if self.created else f"already archived ({self.path.name})"


@dataclass(slots=True)
class _Staged:
    """A put waiting for :meth:`Archive.sync` (batch mode)."""

    kind: str  # "raw" | "meta" | "game" | "hint"
    final: Path
    sha: str  # sha256 of the content (the bytes themselves are in ``tmp``, not kept in memory)
    group: str | None  # the game this put belongs to (errors and lost races are per game)
    tmp: Path | None = None  # the temporary file holding the content (None for hints)
    source: _Staged | None = None  # "game": link from this staged raw's file instead
    data: bytes = b""  # a hint's content (written in sync); empty for the others


@dataclass(slots=True)
class SyncResult:
    """What :meth:`Archive.sync` found while linking staged puts.

    ``existing``: games whose canonical file was already there (another process archived them
    first; their archived meta is the record). ``errors``: game -> why its files could not be
    archived.
    """

    existing: set[str] = field(default_factory=set)
    errors: dict[str, str] = field(default_factory=dict)


def _clean_ext(ext: str) -> str:
    ext = ext.lstrip(".").lower() or "bin"
    if not _EXT_RE.match(ext):
        raise ArchiveError(f"unusable file extension {ext!r} for the archive")
    return ext


class Archive:
    """The archive rooted at ``root`` (see the module docstring for the layout)."""

    def __init__(
        self, root: str | Path, *, defer_dir_sync: bool = False, staged: bool = False
    ) -> None:
        """``defer_dir_sync``: collect the directories of new names and fsync them together in
        :meth:`sync` (call it before anything depends on the files, e.g. loading their rows).

        ``staged`` (batch mode, see the module docstring): :meth:`put_raw`,
        :meth:`put_game_text` and :meth:`record_games_of_raw` only write temporary files; the
        final names appear in :meth:`sync`, which must be called before anything depends on
        them. Until then :meth:`has_game` and the ``created`` flag of a put do not know about
        staged puts. Quarantine writes are never staged."""
        self.root = Path(root)
        self.games_dir = self.root / "games"
        self.raw_dir = self.root / "raw"
        self.quarantine_dir = self.root / "quarantine"
        self._later: set[Path] | None = set() if (defer_dir_sync or staged) else None
        self._staged: list[_Staged] | None = [] if staged else None
        self._staged_raw: dict[Path, _Staged] = {}
        # With syncfs, staged temporary files skip their own fsync (one syncfs covers them).
        self._fs_sync = staged and _SYNCFS is not None

    def sync(self) -> SyncResult:
        """Make every put since the last sync durable under its final name.

        Batch mode: one ``syncfs`` (content), the links in put order, a second ``syncfs``
        (names); a failure is reported per game in the result, never raised. Otherwise: fsync
        every directory that received a new name since the last sync.
        """
        result = SyncResult()
        if self._staged:
            self._link_staged(result)
        if self._later:
            if not (self._fs_sync and self.root.exists() and sync_filesystem(self.root)):
                for d in sorted(self._later):
                    _fsync_dir(d)
            self._later.clear()
        return result

    def _link_staged(self, result: SyncResult) -> None:
        staged, self._staged, self._staged_raw = self._staged or [], [], {}
        try:
            if self._fs_sync:
                try:
                    sync_filesystem(self.root)  # every temporary file's content is on disk
                except OSError as err:
                    for st in staged:
                        result.errors[st.group or ""] = f"the archive could not be synced: {err}"
                    return
            for st in staged:
                group = st.group or ""
                if group in result.errors:
                    continue
                try:
                    if st.kind == "raw":
                        assert st.tmp is not None
                        self._link_new(st.tmp, st.final, st.sha)
                    elif st.kind == "meta":
                        # The meta belongs to the record only if this process commits the game.
                        if self.game_path(group).exists():
                            result.existing.add(group)
                        else:
                            assert st.tmp is not None
                            os.replace(st.tmp, st.final)
                            st.tmp = None
                            self._note_dir(st.final.parent)
                    elif st.kind == "game":
                        src = st.source.tmp if st.source is not None else st.tmp
                        if src is None or not src.exists():  # the raw name was there before
                            src = st.source.final if st.source is not None else None
                        assert src is not None
                        if not self._link_new(src, st.final, st.sha):
                            result.existing.add(group)
                    elif st.kind == "hint" and not st.final.exists():
                        with contextlib.suppress(ArchiveError, OSError):
                            write_once(st.final, st.data, durable=False)
                except (OSError, ArchiveError) as err:
                    result.errors[group] = f"archiving {st.final.name} failed: {err}"
        finally:
            for st in staged:
                if st.tmp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(st.tmp)

    def _link_new(self, src: Path, final: Path, sha: str) -> bool:
        """Link ``src`` to ``final`` unless it exists (then it must hold the content ``sha``)."""
        try:
            os.link(src, final)
        except FileExistsError:
            _check_same_sha(final, sha)
            return False
        self._note_dir(final.parent)
        return True

    def _note_dir(self, path: Path) -> None:
        if self._later is not None:
            self._later.add(path)
        else:
            _fsync_dir(path)

    def _stage(self, kind: str, final: Path, data: bytes, group: str | None,
               source: _Staged | None = None, sha: str | None = None) -> _Staged:
        """Stage a put: its content goes to a temporary file now (a hint's is kept until sync);
        only its sha256 stays in memory, so a batch holds no archived bytes."""
        assert self._staged is not None
        tmp = None
        if source is None and kind != "hint":
            tmp = _write_temp(final.parent, data, durable=not self._fs_sync)
        st = _Staged(kind, final, sha or sha256_hex(data), group, tmp, source,
                     data if kind == "hint" else b"")
        self._staged.append(st)
        return st

    # -- games -----------------------------------------------------------------------------

    def game_path(self, game_id: str) -> Path:
        """Where the canonical log of ``game_id`` lives (whether or not it exists)."""
        if not _GAME_ID_RE.match(game_id):
            raise ArchiveError(f"{game_id!r} is not a game id (16 lowercase hex digits)")
        return self.games_dir / game_id[:2] / f"{game_id}.json"

    def meta_path(self, game_id: str) -> Path:
        return self.game_path(game_id).with_suffix(".meta.json")

    def has_game(self, game_id: str) -> bool:
        """True when the canonical log of ``game_id`` is archived."""
        return self.game_path(game_id).exists()

    def put_game_text(
        self, text: str, meta: dict[str, Any] | None = None, *, same_as: Path | None = None,
        data: bytes | None = None, sha: str | None = None,
    ) -> PutResult:
        """Archive a canonical log text (and its meta, first time only); returns its id.

        ``same_as``: an archived raw file holding exactly these bytes; the game file is then a
        hard link to it instead of a second copy. ``data``: the text's UTF-8 bytes when the
        caller has them already (a large log is then not encoded again); ``sha``: their sha256,
        when the caller has computed it (only with ``data``).
        """
        if data is None:
            data = text.encode("utf-8")
            sha = None
        if sha is None:
            sha = sha256_hex(data)
        game_id = sha[:GAME_ID_LENGTH]  # = game_id_of_text(text)
        path = self.game_path(game_id)
        if path.exists():
            _check_same_sha(path, sha)
            return PutResult(game_id, path, False)
        if self._staged is not None:
            if meta is not None:
                self._stage("meta", self.meta_path(game_id), _json_bytes(meta), game_id)
            raw = self._staged_raw.get(same_as) if same_as is not None else None
            if raw is not None and raw.sha == sha:
                self._stage("game", path, data, game_id, source=raw, sha=sha)
            elif (same_as is not None and same_as.exists()
                    and same_as.stat().st_size == len(data) and _file_sha256(same_as) == sha):
                self._stage("game", path, data, game_id,
                            source=_Staged("raw", same_as, sha, game_id), sha=sha)
            else:
                self._stage("game", path, data, game_id, sha=sha)
            return PutResult(game_id, path, True)
        if meta is not None:
            # The meta becomes part of the record only once the game file exists (commit point).
            write_replace(self.meta_path(game_id), _json_bytes(meta), later=self._later)
        if (same_as is not None and same_as.exists() and same_as.stat().st_size == len(data)
                and same_as.read_bytes() == data):
            created = link_once(same_as, path, later=self._later)
        else:
            created = write_once(path, data, later=self._later)
        return PutResult(game_id, path, created)

    def put_game(self, log: BaseModel, meta: dict[str, Any] | None = None) -> PutResult:
        """Archive a log model in canonical form; returns its id and whether it was new."""
        return self.put_game_text(canonical_text(log), meta)

    def read_game_text(self, game_id: str) -> str:
        """The canonical log text of an archived game."""
        path = self.game_path(game_id)
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ArchiveError(f"game {game_id} is not in the archive {self.root}") from None

    def read_meta(self, game_id: str) -> dict[str, Any]:
        """The meta of an archived game ({} when none was written)."""
        path = self.meta_path(game_id)
        if not path.exists():
            return {}
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ArchiveError(f"the archive meta file {path} is unreadable: {err}") from None
        if not isinstance(meta, dict):
            raise ArchiveError(f"the archive meta file {path} is not a JSON object")
        return meta

    def game_ids(self) -> list[str]:
        """Every archived game id, sorted."""
        out: list[str] = []
        if not self.games_dir.exists():
            return out
        for sub in self.games_dir.iterdir():
            if not sub.is_dir():
                continue
            for f in sub.iterdir():
                name = f.name
                if name.endswith(".json") and not name.endswith(".meta.json"):
                    gid = name[: -len(".json")]
                    if _GAME_ID_RE.match(gid):
                        out.append(gid)
        return sorted(out)

    def iter_games(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """(game_id, canonical text, meta) of every archived game, in id order."""
        for gid in self.game_ids():
            yield gid, self.read_game_text(gid), self.read_meta(gid)

    # -- raw input and quarantine ----------------------------------------------------------

    def raw_path(self, sha: str, ext: str) -> Path:
        return self.raw_dir / f"{sha}.{_clean_ext(ext)}"

    def put_raw(self, data: bytes, ext: str, *, sha: str | None = None,
                group: str | None = None) -> PutResult:
        """Keep the exact input bytes under their sha256 (``sha``: already computed).

        ``group``: in batch mode, the game these bytes are archived for (a failure to archive
        them is reported for that game by :meth:`sync`)."""
        sha = sha or sha256_hex(data)
        path = self.raw_path(sha, ext)
        if self._staged is not None:
            if path.exists():
                _check_same(path, data)
                return PutResult(sha, path, False)
            if path not in self._staged_raw:
                self._staged_raw[path] = self._stage("raw", path, data, group, sha=sha)
            return PutResult(sha, path, True)
        return PutResult(sha, path, write_once(path, data, later=self._later))

    def games_of_raw(self, sha: str, ext: str | None = None) -> list[str] | None:
        """The game ids read from the raw input ``sha`` (None when not known).

        Known from its hint ``raw/<sha>.games.json`` (:meth:`record_games_of_raw`), or, for
        input bytes that were the canonical text of their game (no hint is written for them),
        because the game's file is the raw file itself (``raw/<sha>.<ext>`` and
        ``games/<id>.json`` one file, hard-linked: :meth:`put_game_text` ``same_as``)."""
        path = self.raw_dir / f"{sha}.games.json"
        try:
            ids = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            ids = None
        if isinstance(ids, list) and all(isinstance(g, str) and _GAME_ID_RE.match(g) for g in ids):
            return ids
        if ext is not None:
            gid = sha[:GAME_ID_LENGTH]
            with contextlib.suppress(OSError, ArchiveError):
                if os.path.samefile(self.raw_path(sha, ext), self.game_path(gid)):
                    return [gid]
        return None

    def record_games_of_raw(self, sha: str, game_ids: list[str]) -> None:
        """Note which games the raw input ``sha`` holds (written once, after they are archived),
        so that a later ingest of the same bytes can skip reading them."""
        path = self.raw_dir / f"{sha}.games.json"
        if self._staged is not None:
            # Written in sync(), after the games (and only if they were archived).
            group = game_ids[0] if len(game_ids) == 1 else None
            self._stage("hint", path, _json_bytes(sorted(set(game_ids))), group)
            return
        if not path.exists():
            # A hint only (losing it costs a re-read), so no fsync.
            with contextlib.suppress(ArchiveError):
                write_once(path, _json_bytes(sorted(set(game_ids))), durable=False)

    def quarantine(
        self, data: bytes, ext: str, *, file: str, reasons: list[dict[str, Any]]
    ) -> PutResult:
        """Keep unreadable input with a ``<sha>.reason.json`` saying why.

        ``reasons`` are ``{"message": ..., "line": int | None, ...}``. A second quarantine of the
        same bytes is a no-op (the first reason file stays).
        """
        sha = sha256_hex(data)
        ext = _clean_ext(ext)
        path = self.quarantine_dir / f"{sha}.{ext}"
        reason_path = self.quarantine_dir / f"{sha}.reason.json"
        reason = {"file": file, "sha256": sha, "reasons": reasons, "time": now_utc()}
        if not reason_path.exists():
            # Reason first: content without a reason would be a mystery in the quarantine.
            with contextlib.suppress(ArchiveError):
                write_once(reason_path, _json_bytes(reason))
        created = write_once(path, data)
        return PutResult(sha, path, created)

    def quarantine_file(self, source: Path, ext: str, *, file: str,
                        reasons: list[dict[str, Any]]) -> PutResult:
        """Keep a file too large to read into memory: copied in chunks (hashed on the way) to
        ``quarantine/<sha>.<ext>``, with its ``reason.json`` written first. Write-once like
        :meth:`quarantine`."""
        self.quarantine_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=".tmp-", suffix=".part", dir=self.quarantine_dir)
        tmp = Path(tmp_name)
        digest = hashlib.sha256()
        try:
            with os.fdopen(fd, "wb") as out, open(source, "rb") as inp:
                while chunk := inp.read(1024 * 1024):
                    digest.update(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
                os.fchmod(out.fileno(), 0o444)
            sha = digest.hexdigest()
            path = self.quarantine_dir / f"{sha}.{_clean_ext(ext)}"
            reason_path = self.quarantine_dir / f"{sha}.reason.json"
            if not reason_path.exists():
                with contextlib.suppress(ArchiveError):
                    write_once(reason_path, _json_bytes(
                        {"file": file, "sha256": sha, "reasons": reasons, "time": now_utc()}))
            try:
                os.link(tmp, path)
                created = True
            except FileExistsError:
                created = False
            if created:
                _fsync_dir(path.parent, None)
            return PutResult(sha, path, created)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()

    def quarantined(self) -> list[dict[str, Any]]:
        """Every quarantine reason record, sorted by file name."""
        out: list[dict[str, Any]] = []
        if not self.quarantine_dir.exists():
            return out
        for f in sorted(self.quarantine_dir.glob("*.reason.json")):
            with contextlib.suppress(OSError, ValueError):
                out.append(json.loads(f.read_text(encoding="utf-8")))
        return sorted(out, key=lambda r: str(r.get("file", "")))


def _json_bytes(obj: Any) -> bytes:
    # Compact (the C encoder): meta files hold one entry per event. A lone surrogate (a file
    # name that is not UTF-8 arrives as one, via surrogateescape) is written as its \\u escape
    # inside the JSON string: valid UTF-8 that reads back to the same text.
    return (json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8", "backslashreplace")
