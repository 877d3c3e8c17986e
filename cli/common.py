"""What every ``playtest`` command shares: exit statuses, :class:`CliError`, reading game logs
from paths, replaying one game (under a ruling set) into the validate contract, and the storage
helpers (the database path, the pipeline, a summary's text).
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_UNREADABLE = 2
REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLES_DIR = REPO_ROOT / "data" / "samples"


class CliError(Exception):
    """A problem the user can fix; printed as ``playtest: <message>`` with ``status``."""

    def __init__(self, message: str, status: int = EXIT_UNREADABLE) -> None:
        super().__init__(message)
        self.status = status


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but tab and newline


def _err(msg: str) -> None:
    """Print an error; control characters (a file name's terminal escape codes) escaped."""
    msg = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", msg)
    print(f"playtest: {msg}", file=sys.stderr)


@dataclass(slots=True)
class Loaded:
    """One game read from a path: ``parsed`` is an ``engine.core.parse.ParsedLog`` (or None
    when the input could not be read at all, with ``reason``)."""

    source: str
    format: str | None
    parsed: Any = None
    reason: str | None = None
    raw: Any = None

    @property
    def readable(self) -> bool:
        return self.parsed is not None and bool(getattr(self.parsed, "readable", False))


#: objects allocated (net) between two young-generation collections during a batch
BATCH_GC_THRESHOLD = 20_000


#: whether :func:`batch_gc` has made its full collection in this process
_collected = False


@contextmanager
def batch_gc() -> Iterator[None]:
    """For a command that reads and replays game after game (``validate``, ``bench``): the
    modules' objects imported so far are moved out of the collector's sight (``gc.freeze``, as
    CPython's docs advise for long-lived start-up objects), and the young generation is
    collected every :data:`BATCH_GC_THRESHOLD` allocations instead of every 700, since a replay
    allocates tens of thousands of short-lived objects. Collection still runs (memory stays
    bounded: reference cycles are found as before, a little later). Restored on exit.
    Measured in docs/engine.md "Performance": about 4% fewer instructions for validate."""
    global _collected
    old = gc.get_threshold()
    if not _collected:
        # once per process: a command's process enters here once, at start-up, when the heap
        # is small; a process that runs command after command (the test suite) would otherwise
        # pay a full collection of its whole heap on every one (freezing garbage is harmless:
        # the exit below unfreezes it, and the next full collection frees it)
        gc.collect()
        _collected = True
    gc.freeze()
    gc.set_threshold(BATCH_GC_THRESHOLD, old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def _expand(path: Path) -> list[Path | Loaded]:
    """Files and session folders under ``path`` (the same walk as ``playtest ingest``), and
    what the walk would not read (a link out of the folder) with its reason."""
    from ingest.reading import walk_inputs

    found, missing = walk_inputs([path])
    return [*found, *(Loaded(r.file, None, reason=r.reason) for r in missing)]


def _read_one(path: Path) -> list[Loaded]:
    """Every game in one input through ``ingest.formats.read_path`` (never raises)."""
    from ingest import formats

    try:
        loaded = formats.read_path(path)
    except Exception as exc:  # noqa: BLE001 - a reader bug must not become a traceback
        return [Loaded(formats.source_name(path), None,
                       reason=f"could not be read ({type(exc).__name__}: {exc})")]
    return _as_loaded(loaded) or [Loaded(formats.source_name(path), None,
                                         reason="no game log found in it")]


def read_data(data: bytes, source: str) -> list[Loaded]:
    """Every game in one file's bytes, as :func:`_read_one` reads a file (``playtest bench``
    times validation this way, without the file system)."""
    from ingest import formats

    return _as_loaded(formats.read_bytes(data, source))


def _as_loaded(loaded: Any) -> list[Loaded]:
    return [Loaded(item.source, item.format, parsed=item.parsed, reason=item.unreadable,
                   raw=item.raw) for item in loaded]


def expand_inputs(path_text: str) -> list[Path | Loaded] | Loaded:
    """The inputs under ``path_text``, or a :class:`Loaded` saying why there are none."""
    from ingest.formats import source_name

    path = Path(path_text)
    if not path.exists():
        return Loaded(source_name(path_text), None, reason="no such file or folder")
    inputs = _expand(path)
    if not inputs:
        return Loaded(source_name(path_text), None, reason="no game logs found")
    return inputs


def select_inputs(paths: list[str]) -> tuple[list[str], list[str]]:
    """The paths to validate and the files left out: when several paths are given (a shell
    glob such as ``dir/*``), a file a folder walk would skip (not a log suffix, hidden, an
    archive sidecar) is left out the same way; a single path is always taken as given."""
    if len(paths) < 2:
        return list(paths), []
    from ingest.reading import archive_sidecar, is_session_folder, suffixes

    accepted = suffixes()
    keep: list[str] = []
    skipped: list[str] = []
    for text in paths:
        p = Path(text)
        if p.is_file() and is_session_folder(p.parent):
            folder = str(p.parent)  # a file of a session folder: the folder is the input
            if folder not in keep:
                keep.append(folder)
            continue
        log_file = (p.suffix.lower() in accepted and not p.name.startswith(".")
                    and not archive_sidecar(p))
        if p.is_file() and not log_file:
            skipped.append(text)
        else:
            keep.append(text)
    return keep, skipped


def read_logs(path_text: str) -> list[Loaded]:
    """Every game in a file or folder (folders recursively). Never raises for bad input."""
    inputs = expand_inputs(path_text)
    if isinstance(inputs, Loaded):
        return [inputs]
    out: list[Loaded] = []
    for p in inputs:
        out.extend([p] if isinstance(p, Loaded) else _read_one(p))
    return out


def _replay(parsed: Any, upto: int | None = None) -> Any:
    from engine.core.replay import replay
    from ingest.formats._common import unreadable_lines

    # the lines a reader could not read: what follows from them links to them (issue 21)
    return replay(parsed.header, parsed.events, lines=parsed.lines, indices=parsed.indices,
                  ruleset=parsed.ruleset, upto=upto, unreadable=unreadable_lines(parsed))


def _accepts(game: str, spec: str) -> str | None:
    """None when ``game``'s rulings accept ``spec``, else why not."""
    from engine.core.options import RulingsError, book_for

    try:
        book_for(game).resolve(spec)
    except RulingsError as exc:
        return str(exc)
    return None


def with_rulings(parsed: Any, rulings: str | None) -> Any:
    """``parsed`` replayed under the ruling set ``rulings`` (docs/engine.md "Rulings"): a copy
    whose header names it. A game whose rulings do not know the spec (another game's rulings)
    is kept as it is."""
    import dataclasses

    header = getattr(parsed, "header", None)
    if not rulings or header is None or _accepts(header.game, rulings) is not None:
        return parsed
    return dataclasses.replace(parsed, header=header.model_copy(update={"rulings": rulings}))


MAX_RULINGS_TEXT = 1000  # characters of a --rulings value (a set name and a few options)


def check_rulings_spec(spec: str | None) -> None:
    """A ``--rulings`` value the rulings of at least one installed game know (CliError
    otherwise, with each game's reason; the value is quoted cut short, never echoed whole)."""
    if spec is None:
        return
    from engine.core.registry import rulesets
    from ingest.formats._common import shown

    if not spec.strip():
        raise CliError("--rulings is empty: give a ruling set or options such as name=option "
                       "(see `playtest rulings`)")
    if any(not part.strip() for part in spec.split(",")):
        # "," would be read as no entry at all: the defaults, silently
        raise CliError(f"--rulings {shown(spec, 60)!r} has an empty entry: give a ruling set or "
                       "options such as name=option, separated by commas (see `playtest "
                       "rulings`)")
    if len(spec) > MAX_RULINGS_TEXT:
        raise CliError(f"--rulings is {len(spec):,} characters long, more than the "
                       f"{MAX_RULINGS_TEXT:,} a ruling set and its options take "
                       f"(see `playtest rulings`): {shown(spec, 60)}")
    why = {rs.title: _accepts(g, spec) for g, rs in rulesets().items()}
    if all(w is not None for w in why.values()):
        reasons = "; ".join(f"{t}: {w}" for t, w in why.items())
        raise CliError(f"--rulings {shown(spec)}: {shown(reasons, 400)}")


def _rests_on(parsed: Any, findings: list[Any]) -> list[Any]:
    """Findings under a log's rules variant, each naming the changes it rests on
    (docs/variants.md)."""
    if getattr(parsed.header, "variant", None) is None:
        return findings
    import dataclasses

    from engine.core.variants import rests_on

    return rests_on(parsed.header, findings, lambda h: list(
        _replay(dataclasses.replace(parsed, header=h)).findings))


def validate_one(item: Loaded, rulings: str | None = None, variant: Any = None
                 ) -> dict[str, Any]:
    """The validate contract's entry for one game (DESIGN.md §4); ``rulings`` replays it under
    that ruling set instead of the one its header names."""
    if not item.readable:
        findings = [f.to_contract() for f in getattr(item.parsed, "findings", [])] if item.parsed else []
        if item.reason and not findings:
            findings = [{
                "code": "log/unreadable", "severity": "error",
                "rule": "canonical log format (docs/formats.md)",
                "message": f"{item.source}: {item.reason}",
                "where": {"event": None, "line": None, "era": None, "cycle": None, "round": None,
                          "seat": None},
            }]
        header = getattr(item.parsed, "header", None)
        return {"path": item.source, "game_id": getattr(header, "game_id", None),
                "status": "unreadable", "findings": findings}
    parsed = with_rulings(item.parsed, rulings)
    from cli.commands.variant import with_variant

    parsed = with_variant(parsed, variant)
    result = _replay(parsed)
    findings = list(parsed.findings) + _rests_on(parsed, list(result.findings))
    return {
        "path": item.source,
        "game_id": parsed.header.game_id,
        "status": "findings" if findings else "clean",
        "findings": [f.to_contract() for f in findings],
    }


def _where_text(w: dict[str, Any]) -> str:
    parts = []
    for key, name in (("event", "event"), ("line", "line"), ("era", "Era"), ("cycle", "cycle"),
                      ("round", "round"), ("seat", "seat")):
        if w.get(key) is not None:
            parts.append(f"{name} {w[key]}")
    return ", ".join(parts) or "whole game"


def _player_counts(text: str, allowed: Sequence[int]) -> list[int]:
    """``--players`` as a list of counts, each one the game's simulator plays (``allowed``: its
    declaration's ``player_counts``)."""
    options = [str(c) for c in sorted(allowed)]
    words = options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
    example = ",".join(options[:3])
    problem = f"--players must be {words} (or a list like {example}), not {text!r}"
    try:
        counts = [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        raise CliError(problem) from None
    if not counts or any(c not in allowed for c in counts):
        raise CliError(problem)
    return counts


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _one_game(path: str) -> Loaded:
    items = read_logs(path)
    if len(items) != 1:
        raise CliError(f"{path}: expected one game, found {len(items)}")
    item = items[0]
    if not item.readable:
        msgs = [f.message for f in getattr(item.parsed, "findings", [])] if item.parsed else []
        raise CliError(f"{path}: unreadable: {item.reason or '; '.join(msgs) or 'not a game log'}")
    return item


def _db_path(args: argparse.Namespace) -> Path:
    from ingest.db import resolve_db

    return resolve_db(getattr(args, "db", None))


def _pipeline() -> Any:
    from ingest import pipeline

    return pipeline


def _summary_text(summary: Any) -> str:
    if hasattr(summary, "lines"):
        return "\n".join(summary.lines())
    if hasattr(summary, "__dataclass_fields__"):
        parts = []
        for k in summary.__dataclass_fields__:
            v = getattr(summary, k)
            parts.append(f"{k}: {len(v) if isinstance(v, list | tuple) else v}")
        return ", ".join(parts)
    return str(summary)


def _unreadable_count(summary: Any) -> int:
    n = 0
    for name in ("unreadable", "failed"):
        v = getattr(summary, name, None)
        if v is not None:
            n += len(v) if isinstance(v, list | tuple | dict | set) else int(v)
    return n



# --- the registered games (help texts and choices come from their declarations) -------------


def _counts_text(counts: Sequence[int]) -> str:
    c = [str(x) for x in sorted(counts)]
    if not c:
        return "none"
    if len(c) > 2 and [int(x) for x in c] == list(range(int(c[0]), int(c[-1]) + 1)):
        return f"{c[0]}-{c[-1]}"
    return c[0] if len(c) == 1 else ", ".join(c[:-1]) + " or " + c[-1]


def simulated_games() -> tuple[str, ...]:
    """The ids of the registered games that declare a simulator."""
    from engine.core.registry import rulesets

    return tuple(g for g, rs in rulesets().items() if rs.simulate_one is not None)


def games_help(ids: Sequence[str]) -> str:
    """``id (Title)`` of each game, the default game marked."""
    from engine.core.registry import DEFAULT_GAME, rulesets

    rs = rulesets()
    return ", ".join(f"{g} ({rs[g].title}{', the default' if g == DEFAULT_GAME else ''})"
                     for g in ids)


def player_counts_help() -> str:
    """Each simulated game's player counts, e.g. ``Mandate 2038: 3, 4 or 5; Vestige: 2-4``."""
    from engine.core.registry import rulesets

    return "; ".join(f"{rs.title}: {_counts_text(rs.player_counts)}"
                     for rs in rulesets().values() if rs.simulate_one is not None)


def location_help() -> str:
    """``era:N (Mandate 2038), round:N (Vestige)``: the first location part of each game."""
    from engine.core.registry import rulesets

    return ", ".join(f"{rs.location_parts[0]}:N ({rs.title})" for rs in rulesets().values())


def format_names() -> tuple[str, ...]:
    """``json`` and every format name a registered game declares a writer for."""
    from engine.core.registry import rulesets

    names = ["json"]
    for rs in rulesets().values():
        names.extend(f.name for f in rs.formats if f.writer is not None and f.name not in names)
    return tuple(names)


def bots_help() -> str:
    """Each simulated game's bot names, e.g. ``Mandate 2038: random, heuristic, mixed; ...``."""
    from engine.core.registry import rulesets

    return "; ".join(f"{rs.title}: {', '.join(rs.bot_names)}"
                     for rs in rulesets().values() if rs.simulate_one is not None)
