"""Loading the static content packs and observation protocols from ``data/``.

This is the one module in ``schemas/`` that reads files: the content packs
(``data/content/<game>/<rules_version>/pack.json``, each validated with the model its game
declares, ``content_pack`` in engine/core/game.py) and the observation protocols
(``data/protocols/<protocol_id>/v<N>.json``) are static, versioned data shipped with the
project, so reading them is not game I/O. Results are cached (``functools.lru_cache``); the
models are frozen, so a cached pack can be shared safely.

The data folder is ``<repository root>/data``, or the folder named by the environment variable
``PLAYTEST_DATA_DIR`` when set (read at each call and part of the cache key, so tests may
point it elsewhere; call :func:`clear_cache` after editing a file in place).

Errors are clear, never a bare traceback from deep inside pydantic:

* a missing pack or protocol raises :class:`FileNotFoundError` naming the path looked at;
* a file that is not valid JSON, or does not match its model, raises :class:`PackError` naming
  the file, the line (for JSON syntax errors) or the field path, and the reason.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from schemas.protocol import Protocol

DATA_ENV = "PLAYTEST_DATA_DIR"
_DEFAULT_DATA = Path(__file__).resolve().parents[1] / "data"
_VERSION_FILE = re.compile(r"^v(\d+)\.json$")
M = TypeVar("M", bound=BaseModel)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class PackError(ValueError):
    """A content pack or protocol file exists but cannot be read or does not validate."""


def data_dir() -> Path:
    """The data folder: ``$PLAYTEST_DATA_DIR`` when set, else ``<repo>/data``."""
    override = os.environ.get(DATA_ENV)
    return Path(override) if override else _DEFAULT_DATA


def pack_path(game: str, rules_version: str) -> Path:
    """Where the content pack of ``game`` at ``rules_version`` lives (it may not exist)."""
    return data_dir() / "content" / game / rules_version / "pack.json"


def available_packs(game: str) -> list[str]:
    """Rules versions of ``game`` that have a ``pack.json``, sorted; [] for an unknown game."""
    folder = data_dir() / "content" / game
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / "pack.json").is_file())


def load_pack(game: str, rules_version: str) -> Any:
    """The validated content pack of ``game`` at ``rules_version`` (cached): an instance of the
    pydantic model ``game`` declares (``content_pack``), e.g. Mandate 2038's ``ContentPack``.

    Raises FileNotFoundError (naming the path and the versions that do exist) when there is no
    such pack, and PackError when a name could leave the data folder, the file is unreadable
    or invalid, or no registered game of that id declares a content pack model.
    """
    _check_name("game", game)
    _check_name("rules version", rules_version)
    return _load_pack(str(data_dir()), game, rules_version)


def _check_name(what: str, name: str) -> None:
    # names become path parts: refuse separators and "..", which would leave data/
    if not isinstance(name, str) or not _NAME.match(name) or ".." in name:
        raise PackError(f"{name!r} is not a valid {what} (letters, digits, '.', '_', '-')")


@functools.lru_cache(maxsize=32)
def _load_pack(root: str, game: str, rules_version: str) -> Any:
    path = Path(root) / "content" / game / rules_version / "pack.json"
    if not path.is_file():
        known = available_packs(game)
        raise FileNotFoundError(
            f"no content pack for {game} rules {rules_version}: {path} does not exist"
            + (f" (available: {', '.join(known)})" if known else "")
        )
    pack = _validate(path, pack_model(game))
    said = (getattr(pack, "game", game), getattr(pack, "rules_version", rules_version))
    if said != (game, rules_version):
        raise PackError(
            f"{path}: declares game {said[0]!r} rules {said[1]!r}, "
            f"but its folder says {game!r} {rules_version!r}"
        )
    return pack


def pack_model(game: str) -> type[BaseModel]:
    """The pydantic model of ``game``'s content packs (its declaration's ``content_pack``).
    Raises PackError when no registered game of that id declares one."""
    from engine.core.game import resolve
    from engine.core.registry import get_ruleset

    rs = get_ruleset(game)
    # content_pack: filled in by registration (the Ruleset protocol does not list it)
    ref = rs.content_pack if rs is not None else None
    if ref is None:
        raise PackError(f"no content pack model for {game!r}: "
                        + ("its declaration has no content_pack" if rs is not None
                           else "no installed game has this id"))
    model: type[BaseModel] = resolve(ref)
    return model


def protocol_dir(protocol_id: str, root: Path | None = None) -> Path:
    """The folder holding the versions of observation protocol ``protocol_id`` (under ``root``,
    a folder of protocol folders: a game package's declared ``protocols_dir``; default
    ``data/protocols``)."""
    return (root if root is not None else data_dir() / "protocols") / protocol_id


def available_protocol_versions(protocol_id: str, root: Path | None = None) -> list[int]:
    """Version numbers of ``protocol_id`` that exist (``v<N>.json``), ascending."""
    folder = protocol_dir(protocol_id, root)
    if not folder.is_dir():
        return []
    out = []
    for p in folder.iterdir():
        m = _VERSION_FILE.match(p.name)
        if m and p.is_file():
            out.append(int(m.group(1)))
    return sorted(out)


def load_protocol(protocol_id: str, version: int | None = None, *,
                  root: Path | None = None) -> Protocol:
    """The validated observation protocol ``protocol_id`` at ``version`` (latest when None).

    ``protocol_id`` may also be written ``"<id>@<version>"`` (the form a log header's
    ``protocol`` field uses), e.g. ``"mandate2038-observation@1"``. ``root``: a folder of
    protocol folders other than ``data/protocols`` (a game package's ``protocols_dir``). Raises FileNotFoundError
    (naming the path and the versions that exist) or PackError (bad name or reference,
    unreadable or invalid file).
    """
    if "@" in protocol_id:
        protocol_id, _, v = protocol_id.partition("@")
        try:
            at = int(v.lstrip("v"))
        except ValueError:
            raise PackError(
                f"protocol reference {protocol_id}@{v}: version must be a number"
            ) from None
        if version is not None and version != at:
            raise PackError(f"protocol {protocol_id}: version given twice ({at} and {version})")
        version = at
    _check_name("protocol id", protocol_id)
    folders = root if root is not None else data_dir() / "protocols"
    if version is None:
        versions = available_protocol_versions(protocol_id, folders)
        if not versions:
            raise FileNotFoundError(
                f"no observation protocol {protocol_id!r}: "
                f"{protocol_dir(protocol_id, folders)} has no v<N>.json"
            )
        version = versions[-1]
    return _load_protocol(str(folders), protocol_id, version)


@functools.lru_cache(maxsize=32)
def _load_protocol(folders: str, protocol_id: str, version: int) -> Protocol:
    path = Path(folders) / protocol_id / f"v{version}.json"
    if not path.is_file():
        versions = available_protocol_versions(protocol_id, Path(folders))
        raise FileNotFoundError(
            f"no observation protocol {protocol_id} version {version}: {path} does not exist"
            + (f" (available: {', '.join(map(str, versions))})" if versions else "")
        )
    proto = _validate(path, Protocol)
    if proto.id != protocol_id or proto.version != version:
        raise PackError(
            f"{path}: declares protocol {proto.id!r} version {proto.version}, "
            f"but its path says {protocol_id!r} version {version}"
        )
    return proto


def clear_cache() -> None:
    """Forget cached packs and protocols (after editing files or changing the data folder)."""
    _load_pack.cache_clear()
    _load_protocol.cache_clear()


def _validate(path: Path, model: type[M]) -> M:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError(f"{path}: cannot be read: {exc}") from None
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PackError(f"{path}, line {exc.lineno}: not valid JSON: {exc.msg}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        lines = []
        for err in exc.errors()[:20]:
            where = ".".join(str(p) for p in err["loc"]) or "(top level)"
            lines.append(f"  {where}: {err['msg']}")
        more = exc.error_count() - 20
        if more > 0:
            lines.append(f"  ... and {more} more")
        raise PackError(
            f"{path}: does not match {model.__name__} ({exc.error_count()} problem(s)):\n"
            + "\n".join(lines)
        ) from None
