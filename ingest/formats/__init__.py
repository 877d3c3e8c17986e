"""Every input and output format of a game log (docs/formats.md).

Readers never raise on bad content: an unreadable input is a :class:`LoadedLog` with
``unreadable`` set and a ``log/unreadable`` finding; a bad line is a ``log/parse-error`` finding
with its line and column, and the rest of the input is still read.

* :func:`read_path` - a file (``.json``, or a suffix a game declares), a game's session
  folder (a directory holding the marker file a game declares, ``session_folder``) or a
  ``.zip`` of one.
* :func:`read_bytes` - the same for uploaded bytes with a file name.
* :func:`write_log` - ``json`` (canonical), ``notation`` or ``csv`` text of a valid log, with
  the writers of its game (:func:`writers`, dispatched on the header's ``game``).

Every format besides canonical JSON is declared by its game (``formats``, engine/core/game.py):
its suffixes, its mark, its reader and its writer; so is a game's session folder
(``session_folder``: its marker file and its reader). This module knows no game by name.
"""

from __future__ import annotations

import io
import os
import re
import stat
import zipfile
from collections.abc import Callable, Collection
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from ingest.formats._common import (
    LoadedLog,
    Problems,
    decode_text,
    make_finding,
    read_text_log,
    unreadable,
    validate,
)
from ingest.formats.jsonlog import read_json
from ingest.formats.tokens import _SURROGATE
from schemas.canonical import dumps_log

if TYPE_CHECKING:
    from engine.core.game import Folder, Format

# The reader toolkit a game's own formats use (public: a game package imports it from here):
# Problems, decode_text, make_finding, read_text_log, unreadable, validate, LoadedLog.
__all__ = ["Problems", "decode_text", "make_finding", "read_text_log", "unreadable", "validate",
           "FORMATS", "MAX_SESSION_BYTES", "MAX_ZIP_BYTES", "MAX_ZIP_MEMBERS", "SUFFIXES",
           "LoadedLog", "NotReadable", "ZipTooLarge", "read_bytes", "read_file", "read_folder_files",
           "read_path", "source_name", "special_kind", "unpack_zip", "write_log", "writers",
           "folder_markers", "session_zip_bytes"]

#: the toolkit's own suffixes; each game's formats add theirs (:func:`suffixes`)
_OWN_SUFFIXES: dict[str, str] = {".json": "json", ".zip": "session-folder"}


def _game_formats() -> list[tuple[str, Format]]:
    """(game, format) of every registered game's declared formats, in registry order."""
    from engine.core.registry import rulesets

    return [(game, f) for game, rs in rulesets().items() for f in rs.formats]


def _game_folders() -> list[tuple[str, Folder]]:
    """(game, session folder) of every registered game that declares one, in registry order."""
    from engine.core.registry import rulesets

    # registration filled session_folder in (not in the Ruleset protocol yet)
    declared = [(game, rs.session_folder) for game, rs in rulesets().items()]
    return [(game, f) for game, f in declared if f is not None]


def folder_markers() -> tuple[str, ...]:
    """The marker files that make a folder a session folder (each declared by a game's
    ``session_folder``), in registry order."""
    return tuple(dict.fromkeys(f.marker for _game, f in _game_folders()))


def _folder_for(names: Collection[str]) -> tuple[str, Folder] | None:
    """The game (and its folder format) whose marker is among ``names`` (a folder's files), the
    first in registry order; None when no game's marker is."""
    for game, f in _game_folders():
        if f.marker in names:
            return game, f
    return None


def _markers_text() -> str:
    return " or ".join(folder_markers()) or "session folder marker (no installed game has one)"


def session_zip_bytes(files: dict[str, bytes]) -> bytes:
    """A deterministic zip of a session folder's files (sorted names, fixed timestamps): the
    ``raw`` bytes archived for a folder read from disk."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zf.writestr(info, files[name], compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def _read_folder(chosen: tuple[str, Folder], files: dict[str, bytes], source: str,
                 raw: bytes) -> LoadedLog:
    """A session folder's ``files`` read by the chosen game's folder reader: a reader that
    raises or returns something other than a log makes the folder unreadable with the reason."""
    game, f = chosen
    try:
        out = f.read(files, source, raw)
    except Exception as err:  # noqa: BLE001 - a game's reader must not stop the other inputs
        return unreadable(source, "session-folder", raw, f"the {game} game's session folder "
                          f"reader failed ({type(err).__name__}: {err}); kept as it is")
    if not isinstance(out, LoadedLog) or not hasattr(out.parsed, "findings"):
        return unreadable(source, "session-folder", raw, f"the {game} game's session folder "
                          f"reader returned {type(out).__name__}, not a read log; kept as it is")
    return out


def suffixes() -> dict[str, str]:
    """Suffix -> format of the files read_path understands (plus directories holding a game's
    session folder marker): ``.json`` and ``.zip``, and every suffix a registered game
    declares."""
    out = dict(_OWN_SUFFIXES)
    for _game, f in _game_formats():
        for s in f.suffixes:
            out.setdefault(s.lower(), f.name)
    return out


def format_names() -> tuple[str, ...]:
    """Every format an input can be read as: json, the games' formats, session-folder."""
    names = ["json"]
    for _game, f in _game_formats():
        if f.name not in names:
            names.append(f.name)
    return (*names, "session-folder")


def __getattr__(name: str) -> Any:
    # SUFFIXES and FORMATS are computed from the registered games when asked for
    if name == "SUFFIXES":
        return suffixes()
    if name == "FORMATS":
        return format_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
MAX_BYTES = 64 * 1024 * 1024  # one file read (a zip, a session folder's photo); larger: unreadable
#: one game log (a file or a zip member read as a log): a whole game is tens of kilobytes, a
#: designers' session with every observation well under a megabyte; past this the log is
#: unreadable (kept, quarantined) so that reading and replaying it stays within the memory
#: bound docs/storage.md states
MAX_LOG_BYTES = 8 * 1024 * 1024
#: a zip (a session folder, or logs zipped together) may hold at most this many files and
#: unpack to at most this many bytes, counted on the bytes actually decompressed (the sizes a
#: zip declares can lie); beyond either it is reported unreadable, before it can fill memory
MAX_ZIP_MEMBERS = 2000
MAX_ZIP_BYTES = 128 * 1024 * 1024
#: a session folder read from disk may hold at most this many bytes of files in all (its log
#: files first, then the rest by name); files beyond it are left out, each named in a finding
MAX_SESSION_BYTES = 64 * 1024 * 1024
_CHUNK = 1024 * 1024


class ZipTooLarge(Exception):
    """A zip beyond :data:`MAX_ZIP_MEMBERS` files or :data:`MAX_ZIP_BYTES` unpacked."""


def unpack_zip(zf: zipfile.ZipFile, *, keep: bool = True, max_member: int = MAX_BYTES,
               max_total: int = MAX_ZIP_BYTES, max_members: int = MAX_ZIP_MEMBERS,
               ) -> tuple[dict[str, bytes], list[str]]:
    """The files of a zip (``{name: bytes}``, empty when ``keep`` is false) and the problems of
    the members that could not be read (``"name: why"``).

    A zip may hold two members of one name (nothing in the format forbids it): the second is
    kept as ``dir/name~2.ext`` (the third ``~3`` ...), with a problem saying so, so that no
    member is silently lost.

    Sizes are counted on the bytes actually decompressed, never on the sizes the zip declares;
    a member over ``max_member`` bytes is left out (a problem). Raises :class:`ZipTooLarge` when
    the zip holds more than ``max_members`` files or unpacks to more than ``max_total`` bytes.
    Memory stays within what is kept plus one chunk."""
    infos = [i for i in zf.infolist() if not i.is_dir()]
    if len(infos) > max_members:
        raise ZipTooLarge(f"it holds {len(infos):,} files, more than {max_members:,}")
    members: dict[str, bytes] = {}
    problems: list[str] = []
    seen: dict[str, int] = {}  # member name -> how many members of that name so far
    total = 0
    for info in infos:
        parts: list[bytes] = []
        size = 0
        try:
            with zf.open(info) as f:
                while chunk := f.read(_CHUNK):
                    size += len(chunk)
                    total += len(chunk)
                    if total > max_total:
                        raise ZipTooLarge(f"it unpacks to more than {max_total // 2**20} MB")
                    if size > max_member:
                        break
                    if keep:
                        parts.append(chunk)
        except ZipTooLarge:
            raise
        except Exception as err:  # noqa: BLE001 - zipfile raises many kinds on bad members
            problems.append(f"{info.filename}: {type(err).__name__}: {err}")
            continue
        if size > max_member:
            problems.append(f"{info.filename}: larger than {max_member} bytes")
            continue
        name = info.filename
        if name in seen:
            seen[name] += 1
            path, k = PurePosixPath(name), seen[name]
            renamed = str(path.with_name(f"{path.stem}~{k}{path.suffix}"))
            while renamed in seen:  # a member really named so: another name, nothing lost
                k += 1
                renamed = str(path.with_name(f"{path.stem}~{k}{path.suffix}"))
            problems.append(f"{name}: the zip holds {seen[name]} members of this name; "
                            f"member {seen[name]} is read as {renamed}")
            name = renamed
        seen.setdefault(name, 1)
        if keep:
            members[name] = b"".join(parts)
    return members, problems



def writers(game: str) -> dict[str, Callable[[Any], str]]:
    """The formats a log of ``game`` can be written in: format -> writer (``json`` first, then
    the game's declared formats that have a writer)."""
    from engine.core.registry import get_ruleset

    out: dict[str, Callable[[Any], str]] = {"json": _write_json}
    rs = get_ruleset(game)
    for f in rs.formats if rs is not None else ():
        if f.writer is not None:
            out[f.name] = f.write
    return out


def _write_json(log: Any) -> str:
    # a lone surrogate (possible from a "\ud800" escape in JSON input) cannot be encoded
    # as UTF-8; inside the canonical text it can only sit in a string, so escape it there
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumps_log(log))


def write_log(log: Any, fmt: str) -> str:
    """The text of ``log`` in ``fmt`` (``json``, canonical, for every game; ``notation`` or
    ``csv`` with the writers of the log's game, named by its header's ``game``)."""
    from engine.core.registry import DEFAULT_GAME

    header = getattr(log, "header", None)
    game = header.game if header is not None else DEFAULT_GAME
    table = writers(game)
    if fmt not in table:
        known = ", ".join(table)
        raise ValueError(f"unknown format {fmt!r} for a {game} log; expected {known}")
    return table[fmt](log)


_TAG_START = re.compile(rb"\[\s*[A-Za-z]")
_SHEET_ROW = re.compile(rb"(?im)^\s*\"?time\"?\s*[,;\t]")


def _sniff(data: bytes) -> str:
    """The format of a nameless upload: zip, JSON, sheet or (the default) notation."""
    body = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if data[:4] == b"PK\x03\x04":
        return "zip"
    if body[:1] == b"{" or (body[:1] == b"[" and not _TAG_START.match(body)):
        return "json"
    if _SHEET_ROW.search(data[:20000]) or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "csv"
    return "notation"


def _suffix(name: str) -> str:
    """``PurePosixPath(name).suffix.lower()``, without building a path for the usual
    ``*.json`` name (``playtest validate`` asks once per file)."""
    if name.endswith(".json") and not name.endswith("/.json") and name != ".json":
        return ".json"
    return PurePosixPath(name).suffix.lower()


def read_bytes(data: bytes, name: str) -> list[LoadedLog]:
    """Read uploaded bytes; the format comes from the name's suffix, else from the content.
    Never raises on bad content."""
    if len(data) > MAX_BYTES:
        return [unreadable(name, "json", b"", f"larger than {MAX_BYTES} bytes")]
    suffix = _suffix(name)
    # the toolkit's own suffixes first: a game's formats never take them (:func:`suffixes`)
    fmt = _OWN_SUFFIXES.get(suffix) or suffixes().get(suffix) or _sniff(data)
    if fmt == "zip" or suffix == ".zip":
        return _read_zip(data, name)
    if len(data) > MAX_LOG_BYTES:
        return [unreadable(name, fmt, data, f"larger than {MAX_LOG_BYTES // 2**20} MB "
                           f"({len(data):,} bytes), the most one game log may hold "
                           "(docs/storage.md, limits); kept as it is")]
    if fmt == "json":
        return [read_json(data, name)]
    chosen = _choose(data, suffix, fmt)
    if chosen is None:
        return [unreadable(name, fmt, data, f"no installed game reads {fmt} logs")]
    return [_read_as(chosen[0], chosen[1], data, name)]


def _read_as(game: str, f: Format, data: bytes, name: str) -> LoadedLog:
    """``data`` read by ``game``'s format ``f``: a reader that raises or returns something
    other than a log makes this input unreadable with the reason (that game's failure only)."""
    try:
        out = f.read(data, name)
    except Exception as err:  # noqa: BLE001 - a game's reader must not stop the other inputs
        return unreadable(name, f.name, data, f"the {game} game's {f.name} reader failed "
                          f"({type(err).__name__}: {err}); the file is kept as it is")
    if not isinstance(out, LoadedLog) or not hasattr(out.parsed, "findings"):
        return unreadable(name, f.name, data, f"the {game} game's {f.name} reader returned "
                          f"{type(out).__name__}, not a read log; the file is kept as it is")
    return out


def game_format(data: bytes, suffix: str, kind: str) -> Format | None:
    """The declared format that reads ``data`` (a file with ``suffix``, of ``kind``: a format
    name, from the suffix or sniffed); see :func:`_choose`."""
    chosen = _choose(data, suffix, kind)
    return chosen[1] if chosen is not None else None


def _choose(data: bytes, suffix: str, kind: str) -> tuple[str, Format] | None:
    """(game, format) that reads ``data``: the most specific match, the toolkit's own games
    first (docs/formats.md). In order: a toolkit game's format that lists the suffix and finds
    its mark in the first 20,000 bytes; one of the kind that finds its mark; another game's
    format that lists the suffix and finds its mark; the toolkit game's format listing the
    suffix (an installed game never takes over a suffix a toolkit game owns by its mark
    alone); another game's format of the kind that finds its mark; any format listing the
    suffix; the default game's format of the kind; any format of the kind."""
    from engine.core.registry import DEFAULT_GAME, own_games

    declared = _game_formats()
    toolkit = set(own_games())
    own = [(g, f) for g, f in declared if g in toolkit]
    guests = [(g, f) for g, f in declared if g not in toolkit]
    head = data[:20000]
    steps = (
        (own, lambda f: suffix in f.suffixes and f.marks(head)),
        (own, lambda f: f.name == kind and f.marks(head)),
        (guests, lambda f: suffix in f.suffixes and f.marks(head)),
        (own, lambda f: suffix in f.suffixes),
        (guests, lambda f: f.name == kind and f.marks(head)),
        (declared, lambda f: suffix in f.suffixes),
        ([(g, f) for g, f in declared if g == DEFAULT_GAME], lambda f: f.name == kind),
        (declared, lambda f: f.name == kind),
    )
    for pairs, fits in steps:
        for game, f in pairs:
            if fits(f):
                return game, f
    return None


def _read_zip(data: bytes, name: str) -> list[LoadedLog]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            unpack_zip(zf, keep=False)  # count first, keeping nothing: a bomb stops here
            members, problems = unpack_zip(zf)
    except ZipTooLarge as err:
        return [unreadable(name, "session-folder", data, f"the zip is too large to read: {err}")]
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as err:
        return [unreadable(name, "session-folder", data, f"not a readable zip file: {err}")]
    out: list[LoadedLog] = []
    markers = set(folder_markers())
    found: dict[str, set[str]] = {}  # folder -> the markers it holds
    for m in members:
        if PurePosixPath(m).name in markers and "__MACOSX" not in m:
            found.setdefault(str(PurePosixPath(m).parent), set()).add(PurePosixPath(m).name)
    folders = sorted(found)
    taken: set[str] = set()
    for folder in folders:
        prefix = "" if folder == "." else folder + "/"
        files = {m[len(prefix):]: b for m, b in members.items() if m.startswith(prefix)
                 and m not in taken and "__MACOSX" not in m}
        taken.update(prefix + k for k in files)
        source = f"{name}#{folder}" if prefix else name
        raw = data if len(folders) == 1 else session_zip_bytes(files)
        chosen = _folder_for(found[folder])
        if chosen is not None:
            out.append(_read_folder(chosen, files, source, raw))
    for member, body in sorted(members.items()):
        if member in taken or "__MACOSX" in member:
            continue
        suffix = PurePosixPath(member).suffix.lower()
        if suffix != ".zip" and suffix in suffixes():
            out.extend(read_bytes(body, f"{name}#{member}"))
    if not out:
        logs = "/".join(s for s in suffixes() if s != ".zip")
        why = "; ".join(problems) if problems else (f"it holds no {_markers_text()} and no "
                                                    f"{logs} log")
        out.append(unreadable(name, "session-folder", data, f"no game log in the zip: {why}"))
    elif problems:
        # the games read are kept; the zip itself is kept too (quarantined) with what was wrong
        # in it, so that a member left out or renamed is never lost without a word
        out.append(unreadable(name, "session-folder", data,
                              f"the zip's games were read, but not all of it: {'; '.join(problems)}"))
    return out


# control characters (C0, DEL, C1): printed raw, ESC [ 2 J clears a terminal
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def source_name(path: Path | str) -> str:
    """``path`` as text for messages and records: a file name that is not UTF-8 (Python hands
    its bytes over as lone surrogates) shows those bytes as ``\\xff`` escapes, and control
    characters (a terminal's escape codes) as ``\\x1b`` escapes, so the name can be stored
    and printed safely (it is a label; the bytes are read through ``path``)."""
    name = str(path)
    if not name.isascii():
        name = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    if _CONTROL.search(name):
        name = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", name)
    return name


def special_kind(mode: int) -> str | None:
    """What a file of ``mode`` (``st_mode``) is when it is not a regular file, else None."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a directory")):
        if test(mode):
            return kind
    return "not a regular file"


class NotReadable(Exception):
    """A file that is not read: a special file (FIFO, device, socket) or one too large."""


def read_file(path: Path | str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (a link is followed), at most ``limit`` of them.

    Raises :class:`NotReadable` for a FIFO, a device or a socket (never opened for reading in a
    way that could block or never end: ``/dev/zero`` or a FIFO with no writer) and for a file
    over ``limit`` bytes (counted on the bytes read, not only on the size the file system
    states); OSError when it cannot be read."""
    kind = special_kind(os.stat(path).st_mode)
    if kind is not None:
        raise NotReadable(f"not a regular file but {kind}; not read")
    # O_NONBLOCK: should the name be swapped for a FIFO after the check, opening it cannot hang
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        kind = special_kind(st.st_mode)
        if kind is not None:
            raise NotReadable(f"not a regular file but {kind}; not read")
        if st.st_size > limit:
            raise NotReadable(f"larger than {limit} bytes")
        parts: list[bytes] = []
        size = 0
        while chunk := os.read(fd, min(_CHUNK, limit + 1 - size)):
            parts.append(chunk)
            size += len(chunk)
            if size > limit:
                raise NotReadable(f"larger than {limit} bytes")
        return b"".join(parts)
    finally:
        os.close(fd)


def _inside(target: Path, folder: Path) -> bool:
    return target == folder or folder in target.parents


def read_folder_files(folder: Path, limit: int | None = None,
                      ) -> tuple[dict[str, bytes], list[tuple[str, str]]]:
    """The files of a session folder (``{relative name: bytes}``) and why others were left out.

    Links are not followed out of the folder (a link to a file inside it is read as that file);
    special files are not read; a file over :data:`MAX_BYTES` is left out; the files are taken
    up to ``limit`` bytes in all, the folder's log files (``.json``, ``.md``, ``.txt``) first and
    then the rest by name: what does not fit is left out. Each left-out file is one problem
    ``(name, why)``."""
    limit = MAX_SESSION_BYTES if limit is None else limit
    root = folder.resolve()
    entries: list[tuple[str, Path]] = []
    problems: list[tuple[str, str]] = []
    for here, dirs, names in os.walk(folder):  # does not follow linked folders
        base = Path(here)
        for d in list(dirs):
            if (base / d).is_symlink():
                rel = (base / d).relative_to(folder).as_posix()
                problems.append((source_name(rel), "a linked folder; not followed"))
        for name in names:
            p = base / name
            rel = p.relative_to(folder).as_posix()
            if p.is_symlink():
                target = p.resolve()
                if not _inside(target, root):
                    problems.append((source_name(rel), "a link out of the session folder "
                                     f"(to {source_name(target)}); not followed"))
                    continue
            entries.append((rel, p))
    entries.sort(key=lambda e: (PurePosixPath(e[0]).suffix.lower() not in (".json", ".md", ".txt"),
                                e[0]))
    files: dict[str, bytes] = {}
    total = 0
    for rel, p in entries:
        try:
            size = os.stat(p).st_size
            if total + size > limit:
                problems.append((source_name(rel), "left out: the session folder's files are "
                                 f"over {limit // 2**20} MB in all"))
                continue
            data = read_file(p, min(MAX_BYTES, limit - total))
        except NotReadable as err:
            problems.append((source_name(rel), str(err)))
            continue
        except OSError as err:
            problems.append((source_name(rel), f"cannot read the file: {err.strerror or err}"))
            continue
        total += len(data)
        files[rel] = data
    return files, problems


def read_path(path: Path) -> list[LoadedLog]:
    """Read a log file, a session folder (a directory with a game's marker file) or a zip of one.

    A directory without a marker is not handled here (callers walk folders): it yields an
    unreadable LoadedLog saying so. Never raises on bad content or unreadable files."""
    path = Path(path)
    name = source_name(path)
    if path.is_dir():
        chosen = _folder_for([m for m in folder_markers() if (path / m).is_file()])
        if chosen is None:
            return [unreadable(name, "session-folder", b"", f"a directory without "
                               f"{_markers_text()} is not a session folder")]
        files, problems = read_folder_files(path)
        loaded = _read_folder(chosen, files, name, session_zip_bytes(files))
        # the files left out are said on the game (each a finding naming the file)
        loaded.parsed.findings[:0] = [
            make_finding("log/parse-error", f"{name}#{rel}", None, None, why) for rel, why in problems]
        return [loaded]
    fmt = suffixes().get(path.suffix.lower(), "json")
    try:
        data = read_file(path)
    except NotReadable as err:
        return [unreadable(name, fmt, b"", str(err))]
    except OSError as err:
        return [unreadable(name, fmt, b"", f"cannot read the file: {err.strerror or err}")]
    return read_bytes(data, name)
