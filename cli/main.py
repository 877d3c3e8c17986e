"""The ``playtest`` command line (DESIGN.md §4): validate, simulate, replay, convert, ingest,
rebuild, export, dashboard, demo and bench.

``main(argv) -> int`` never lets a traceback reach the user: bad input or a busy database
becomes one clear message on stderr and an exit
status (0 ok, 1 rule errors found, 2 unreadable input or a usage/storage problem, 3 an
internal error, reported in one line).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Sequence
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


def _err(msg: str) -> None:
    print(f"playtest: {msg}", file=sys.stderr)


# --- reading logs ---------------------------------------------------------------------------


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


def _expand(path: Path) -> list[Path]:
    """Files and session folders under ``path`` (the same walk as ``playtest ingest``)."""
    from ingest.reading import walk_inputs

    found, _missing = walk_inputs([path])
    return found


def _read_one(path: Path) -> list[Loaded]:
    """Every game in one input through ``ingest.formats.read_path`` (never raises)."""
    from ingest import formats

    try:
        loaded = formats.read_path(path)
    except Exception as exc:  # noqa: BLE001 - a reader bug must not become a traceback
        return [Loaded(str(path), None, reason=f"could not be read ({type(exc).__name__}: {exc})")]
    out = [Loaded(item.source, item.format, parsed=item.parsed, reason=item.unreadable,
                  raw=item.raw) for item in loaded]
    return out or [Loaded(str(path), None, reason="no game log found in it")]


def expand_inputs(path_text: str) -> list[Path] | Loaded:
    """The inputs under ``path_text``, or a :class:`Loaded` saying why there are none."""
    path = Path(path_text)
    if not path.exists():
        return Loaded(path_text, None, reason="no such file or folder")
    inputs = _expand(path)
    if not inputs:
        return Loaded(path_text, None, reason="no game logs found")
    return inputs


def select_inputs(paths: list[str]) -> tuple[list[str], list[str]]:
    """The paths to validate and the files left out: when several paths are given (a shell
    glob such as ``dir/*``), a file a folder walk would skip (not a log suffix, hidden, an
    archive sidecar) is left out the same way; a single path is always taken as given."""
    if len(paths) < 2:
        return list(paths), []
    from ingest.reading import _ARCHIVE_SIDECARS, SESSION_MARKER, suffixes

    accepted = suffixes()
    keep: list[str] = []
    skipped: list[str] = []
    for text in paths:
        p = Path(text)
        if p.is_file() and (p.parent / SESSION_MARKER).is_file():
            folder = str(p.parent)  # a file of a session folder: the folder is the input
            if folder not in keep:
                keep.append(folder)
            continue
        log_file = (p.suffix.lower() in accepted and not p.name.startswith(".")
                    and not p.name.endswith(_ARCHIVE_SIDECARS))
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
        out.extend(_read_one(p))
    return out


# --- validate -------------------------------------------------------------------------------


def _replay(parsed: Any, upto: int | None = None) -> Any:
    from engine.core.replay import replay

    return replay(parsed.header, parsed.events, lines=parsed.lines, indices=parsed.indices,
                  ruleset=parsed.ruleset, upto=upto)


def with_rulings(parsed: Any, rulings: str | None) -> Any:
    """``parsed`` replayed under the ruling set ``rulings`` (docs/engine.md "Rulings"): a copy
    whose header names it. Games whose header has no ruling field (another game) are kept."""
    import dataclasses

    header = getattr(parsed, "header", None)
    if not rulings or header is None or "rulings" not in type(header).model_fields:
        return parsed
    return dataclasses.replace(parsed, header=header.model_copy(update={"rulings": rulings}))


def check_rulings_spec(spec: str | None) -> None:
    """A ``--rulings`` value the Mandate 2038 ruling book knows (CliError otherwise)."""
    if not spec:
        return
    from engine.mandate2038.rulings import RulingsError, load_rulings

    try:
        load_rulings().resolve(spec)
    except RulingsError as exc:
        raise CliError(f"--rulings {spec}: {exc}") from None


def validate_one(item: Loaded, rulings: str | None = None) -> dict[str, Any]:
    """The validate contract's entry for one game (DESIGN.md §4); ``rulings`` replays it under
    that ruling set instead of the one its header names."""
    if not item.readable:
        findings = [f.to_contract() for f in getattr(item.parsed, "findings", [])] if item.parsed else []
        if item.reason and not findings:
            findings = [{
                "code": "log/unreadable", "severity": "error",
                "rule": "canonical log format (DESIGN.md §4)",
                "message": f"{item.source}: {item.reason}",
                "where": {"event": None, "line": None, "era": None, "cycle": None, "round": None,
                          "seat": None},
            }]
        header = getattr(item.parsed, "header", None)
        return {"path": item.source, "game_id": getattr(header, "game_id", None),
                "status": "unreadable", "findings": findings}
    parsed = with_rulings(item.parsed, rulings)
    result = _replay(parsed)
    findings = list(parsed.findings) + list(result.findings)
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


def format_validate_text(files: list[dict[str, Any]], *, quiet: bool = False) -> str:
    """Readable report, grouped per file (``quiet``: clean games are only counted)."""
    lines = []
    for f in files:
        title = f["path"] + (f" ({f['game_id']})" if f.get("game_id") else "")
        n = len(f["findings"])
        if f["status"] == "clean":
            if not quiet:
                lines.append(f"{title}: clean")
            continue
        label = "UNREADABLE" if f["status"] == "unreadable" else f"{n} finding{'s' if n != 1 else ''}"
        lines.append(f"{title}: {label}")
        for x in f["findings"]:
            lines.append(f"  [{x['severity']}] {x['code']} at {_where_text(x['where'])}")
            lines.append(f"      {x['message']}")
            lines.append(f"      rule: {x['rule']}")
            if x.get("rulings"):
                lines.append(f"      rests on rulings: {', '.join(x['rulings'])}")
            if "expected" in x or "recorded" in x:
                lines.append(f"      expected: {x.get('expected')!r}   recorded: {x.get('recorded')!r}")
    errors = sum(1 for f in files for x in f["findings"] if x["severity"] == "error")
    unreadable = sum(1 for f in files if f["status"] == "unreadable")
    clean = sum(1 for f in files if f["status"] == "clean")
    lines.append(f"{len(files)} game(s): {clean} clean, {errors} error finding(s), {unreadable} unreadable")
    return "\n".join(lines)


def _validate_input(item: Path | Loaded, rulings: str | None = None) -> list[dict[str, Any]]:
    """The contract entries of every game in one input (worker function; never raises)."""
    loaded = [item] if isinstance(item, Loaded) else _read_one(item)
    return [validate_one(one, rulings) for one in loaded]


def cmd_validate(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    if args.jobs < 1:
        raise CliError("--jobs must be at least 1")
    rulings = getattr(args, "rulings", None)
    check_rulings_spec(rulings)
    files: list[dict[str, Any]] = []
    work: list[Path | Loaded] = []
    paths, skipped = select_inputs(args.paths)
    for p in paths:
        found = expand_inputs(p)
        work.extend([found] if isinstance(found, Loaded) else found)
    if skipped and not args.quiet:
        print(f"skipped {len(skipped)} file(s) that are not game logs, as a folder walk does: "
              + ", ".join(skipped[:5]) + (" ..." if len(skipped) > 5 else ""), file=sys.stderr)
    quiet_bar = args.quiet or len(work) < 20
    with Progress(transient=True, console=_stderr_console(), disable=quiet_bar) as bar:
        task = bar.add_task("validating", total=len(work))
        if args.jobs > 1 and len(work) > 1:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            methods = mp.get_all_start_methods()
            ctx = mp.get_context("fork" if "fork" in methods else methods[0])
            with ProcessPoolExecutor(max_workers=args.jobs, mp_context=ctx) as pool:
                for entries in pool.map(_validate_input, work, [rulings] * len(work), chunksize=8):
                    files.extend(entries)
                    bar.advance(task)
        else:
            for item in work:
                files.extend(_validate_input(item, rulings))
                bar.advance(task)
    if args.format == "json":
        print(json.dumps({"files": files}, ensure_ascii=False, indent=2, default=str))
    else:
        print(format_validate_text(files, quiet=args.quiet))
    if any(f["status"] == "unreadable" for f in files):
        return EXIT_UNREADABLE
    bad = {"error", "warning"} if args.strict else {"error"}
    if any(x["severity"] in bad for f in files for x in f["findings"]):
        return EXIT_FINDINGS
    return EXIT_OK


# --- rulings -------------------------------------------------------------------------------


def cmd_rulings(args: argparse.Namespace) -> int:
    """Print the ruling book: each ruling, its options (default marked) and the named sets."""
    from engine.mandate2038.rulings import load_rulings

    book = load_rulings()
    print(f"Mandate 2038 rulings (rules {book.rules_version}, rulings version {book.version})")
    for r in book.rulings.values():
        print(f"\n{r.id}: {r.topic}")
        for opt, text in r.options.items():
            print(f"  {'*' if opt == r.default else ' '} {opt}: {text}")
    print("\nsets: " + "; ".join(
        f"{name} ({', '.join(f'{k}={v}' for k, v in sorted(m.items())) or 'the defaults'})"
        for name, m in book.sets.items()))
    return EXIT_OK


def _finding_key(x: dict[str, Any]) -> tuple[Any, ...]:
    w = x.get("where") or {}
    return (x["code"], w.get("event"), w.get("seat"), x.get("expected"), x.get("recorded"))


def reaudit_entries(paths: list[Path], rulings: str) -> list[dict[str, Any]]:
    """For each game in ``paths``: the findings that appear and disappear when it is replayed
    under ``rulings`` instead of its own ruling set (the header's, else the defaults)."""
    out: list[dict[str, Any]] = []
    for path in paths:
        for item in _read_one(path):
            if not item.readable:
                continue
            before = validate_one(item)
            after = validate_one(item, rulings)
            keys_b = {_finding_key(x): x for x in before["findings"]}
            keys_a = {_finding_key(x): x for x in after["findings"]}
            header = getattr(item.parsed, "header", None)
            out.append({"path": item.source, "game_id": before["game_id"],
                        "own_rulings": getattr(header, "rulings", None) or "default",
                        "added": [x for k, x in keys_a.items() if k not in keys_b],
                        "removed": [x for k, x in keys_b.items() if k not in keys_a]})
    return out


def cmd_reaudit(args: argparse.Namespace) -> int:
    """Re-audit the archive under ``--rulings`` and print what changes, game by game."""
    from ingest.db import archive_root

    check_rulings_spec(args.rulings)
    root = archive_root(_db_path(args)) / "games"
    files = sorted(p for p in root.rglob("*.json") if not p.name.endswith(".meta.json")) \
        if root.is_dir() else []
    entries = reaudit_entries(files, args.rulings)
    changed = [e for e in entries if e["added"] or e["removed"]]
    if args.format == "json":
        print(json.dumps({"rulings": args.rulings, "games": len(entries), "changed": changed},
                         ensure_ascii=False, indent=2, default=str))
        return EXIT_OK
    for e in changed:
        print(f"{e['path']} ({e['game_id']}, own rulings: {e['own_rulings']})")
        for sign, xs in (("+", e["added"]), ("-", e["removed"])):
            for x in xs:
                print(f"  {sign} [{x['severity']}] {x['code']} at {_where_text(x['where'])}: "
                      f"{x['message']}")
    print(f"{len(entries)} archived game(s) re-audited under --rulings {args.rulings}: "
          f"{len(changed)} change(s) their findings")
    return EXIT_OK


# --- simulate -------------------------------------------------------------------------------


def _simulation_ruleset(game: str) -> Any:
    from engine.simulate import ruleset_for

    try:
        return ruleset_for(game)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _player_counts(text: str, allowed: Sequence[int] = (3, 4, 5)) -> list[int]:
    """``--players`` as a list of counts, each one the game's simulator plays."""
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


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.simulate import SimulationError, simulate_one
    from schemas.canonical import dumps_log

    if args.games < 1:
        raise CliError("--games must be at least 1")
    rs = _simulation_ruleset(args.game)
    counts = _player_counts(args.players, tuple(getattr(rs, "player_counts", ())) or (3, 4, 5))
    bots = tuple(getattr(rs, "bot_names", ()))
    if bots and args.bot not in bots:
        raise CliError(f"--bot {args.bot}: the {args.game} simulator has bots {', '.join(bots)}")
    if args.out is None:  # a folder per game and seed under the current one
        seed = re.sub(r"[^A-Za-z0-9._-]+", "_", str(args.seed))
        out = Path("simulated") / f"{args.game}-seed-{seed}"
    else:
        out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"cannot create output folder {out}: {exc}") from None
    import time

    from rich.progress import Progress

    prepare = getattr(rs, "prepare_simulation", None)
    if callable(prepare):  # start-up (the simulator's imports, the content pack) before the clock
        prepare()
    written = 0
    play_cpu = 0.0  # CPU seconds of playing the games (start-up and writing excluded)
    t_all = time.process_time()
    from ingest.gc_tuning import bulk_play

    with Progress(transient=True, console=_stderr_console()) as bar, bulk_play():
        task = bar.add_task("simulating", total=args.games)
        for i in range(args.games):
            t0 = time.thread_time()  # this thread's CPU: the progress bar draws on its own thread
            try:
                log = simulate_one(args.seed, i, counts[i % len(counts)], args.bot, game=args.game)
            except SimulationError as exc:
                raise CliError(f"game {i} of seed {args.seed} could not be simulated: {exc}", 1) from None
            except ValueError as exc:
                raise CliError(str(exc)) from None
            play_cpu += time.thread_time() - t0
            safe = re.sub(r"[^A-Za-z0-9._-]+", "_", str(log.header.game_id))
            path = out / f"{safe}.json"
            path.write_text(dumps_log(log), encoding="utf-8")
            written += 1
            bar.advance(task)
    all_cpu = time.process_time() - t_all
    print(f"wrote {written} simulated {args.game} game(s) to {out}")
    print(f"speed: {written / max(play_cpu, 1e-9):.1f} games per CPU-second playing "
          f"({play_cpu:.2f} CPU s), {written / max(all_cpu, 1e-9):.1f} with writing the logs "
          f"({all_cpu:.2f} CPU s); start-up excluded")
    return EXIT_OK


# --- study ----------------------------------------------------------------------------------


def cmd_study(args: argparse.Namespace) -> int:
    from engine.simulate import SimulationError
    from ingest.study import StudyError, StudySpec, run_study
    from schemas.profiles import ProfileError

    counts = _player_counts(args.players)
    policies = tuple(x.strip() for x in str(args.policy).split(",") if x.strip())
    if policies == ("designers",):
        from ingest.study import DESIGNERS_POLICIES

        policies = DESIGNERS_POLICIES
    lineup = tuple(x.strip() for x in str(args.lineup or "").split(",") if x.strip())
    spec = StudySpec(games=args.games, players=tuple(counts), profiles=args.profiles,
                     profile_ids=lineup, policies=policies or ("default",), seed=str(args.seed),
                     batch_size=args.batch)
    out = Path(args.out)
    from rich.progress import Progress

    total = len(spec.batches())
    try:
        with Progress(transient=True, console=_stderr_console()) as bar:
            task = bar.add_task("study batches", total=total)

            def progress(r: Any, done: int, todo: int) -> None:
                bar.update(task, completed=total - todo + done)

            def say(msg: str) -> None:
                bar.console.print(msg)

            summary = run_study(spec, out, backend=args.backend, workers=args.workers,
                                address=args.address, on_batch=progress, say=say)
    except (StudyError, ProfileError) as exc:
        raise CliError(str(exc)) from None
    except SimulationError as exc:
        raise CliError(f"a study game could not be simulated: {exc}", 1) from None
    games = summary["games"]
    cpu = summary["worker_cpu_seconds"]
    print(f"study in {out}: {summary['batches']} batch(es) played, {summary['batches_skipped']} "
          f"already done, {games} game(s) written as Parquet tables (simulation) on "
          f"{summary['backend']}")
    if games:
        print(f"speed: {games / max(cpu, 1e-9):.1f} games per worker CPU-second (play, replay and "
              f"rows), {games / max(summary['wall_seconds'], 1e-9):.1f} games per wall second "
              f"({summary['wall_seconds']:.1f} s after start-up)")
    return EXIT_OK


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from cli.calibrate import command

    try:
        print(command(args))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return EXIT_OK


# --- replay ---------------------------------------------------------------------------------


def _one_game(path: str) -> Loaded:
    items = read_logs(path)
    if len(items) != 1:
        raise CliError(f"{path}: expected one game, found {len(items)}")
    item = items[0]
    if not item.readable:
        msgs = [f.message for f in getattr(item.parsed, "findings", [])] if item.parsed else []
        raise CliError(f"{path}: unreadable: {item.reason or '; '.join(msgs) or 'not a game log'}")
    return item


def _position(parsed: Any, text: str) -> int:
    """The index (into ``parsed.events``) of the last event to apply for POSITION: an event
    index, ``end``, or ``PART:N`` for a part of the game's locations (``era:N`` for Mandate
    2038, ``round:N`` for Vestige): the last event of Era (round) N."""
    events = parsed.events
    if not events:
        raise CliError("the log has no events")
    t = text.strip().lower()
    if t == "end":
        return len(events) - 1
    parts = tuple(getattr(parsed.ruleset, "location_parts", ("era", "cycle")))
    name, sep, value = t.partition(":")
    if sep:
        if name not in parts:
            raise CliError(f"--at {text!r}: a {parsed.header.game} game is located by "
                           f"{', '.join(parts)}; write {parts[0]}:N, an event index or end")
        try:
            n = int(value)
        except ValueError:
            raise CliError(f"--at {text!r}: write {name}:N with N a number") from None
        if name == "era" and not 1 <= n <= 4:
            raise CliError(f"--at {text!r}: write era:N with N in 1..4")
        k = parts.index(name)
        here = [loc[k] if isinstance(loc, tuple | list) and k < len(loc) else None
                for loc in _replay(parsed).locations]
        label = "Era" if name == "era" else name
        if n not in here:
            raise CliError(f"--at {text!r}: the log has no {label} {n}")
        later = [i for i, v in enumerate(here) if isinstance(v, int) and v > n]
        return later[0] - 1 if later else len(events) - 1
    try:
        raw = int(t)
    except ValueError:
        raise CliError(f"--at {text!r}: give an event index, {parts[0]}:N or end") from None
    n_raw = max(parsed.raw_event_count, len(events))
    if not 0 <= raw < n_raw:
        raise CliError(f"--at {raw}: the log has events 0..{n_raw - 1}")
    pos = -1
    for i, idx in enumerate(parsed.indices):
        if idx <= raw:
            pos = i
    if pos < 0:
        raise CliError(f"--at {raw}: no readable event at or before that index")
    return pos


def _jsonable(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        items = [_jsonable(v) for v in obj]
        return sorted(items, key=str) if isinstance(obj, set | frozenset) else items
    if hasattr(obj, "__dataclass_fields__"):
        return {k: _jsonable(getattr(obj, k)) for k in obj.__dataclass_fields__}
    return obj


def _render_value(v: Any) -> str:
    if isinstance(v, list | tuple):
        return ", ".join(_render_value(x) for x in v) or "-"
    if isinstance(v, dict):
        return "; ".join(f"{k}={_render_value(x)}" for k, x in v.items()) or "-"
    return "-" if v is None else str(v)


def format_snapshot_text(snap: dict[str, Any], ledger: list[dict[str, Any]], at: dict[str, Any]) -> str:
    """The state snapshot and score ledger as readable text."""
    lines = [f"state after event {at['event']} ({at['type']})"]
    seats = None
    for k, v in snap.items():
        if k in ("seats", "players") and isinstance(v, list):
            seats = v
            continue
        lines.append(f"  {k}: {_render_value(v)}")
    if seats:
        lines.append("")
        lines.append("seats:")
        for s in seats:
            if isinstance(s, dict):
                head = f"  seat {s.get('seat')}" + (f" {s.get('faction')}" if s.get("faction") else "")
                lines.append(head)
                for k, v in s.items():
                    if k in ("seat", "faction"):
                        continue
                    lines.append(f"      {k}: {_render_value(v)}")
            else:
                lines.append(f"  {s}")
    lines.append("")
    lines.append("score ledger:")
    if not ledger:
        lines.append("  (no score changes yet)")
    for e in ledger:
        if e.get("round") is not None:
            place = f"round {e['round']}"
        else:
            place = f"Era {e['era'] or '-'} cycle {e['cycle'] or '-'}"
        where = f"{place} event {e['event'] if e['event'] is not None else '-'}"
        lines.append(f"  seat {e['seat']}: {e['amount']:+d} -> {e['total']}  {e['source']}"
                     + (f" ({e['detail']})" if e.get("detail") else "") + f"  [{where}]")
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    item = _one_game(args.file)
    parsed = item.parsed
    pos = _position(parsed, args.at)
    result = _replay(parsed, upto=pos)
    rs = parsed.ruleset
    snap = _jsonable(rs.snapshot(result.state))
    ledger = [_jsonable(e) for e in result.ledger]
    ev = parsed.events[pos]
    at = {"event": parsed.indices[pos], "type": getattr(ev, "type", None),
          "line": parsed.lines[pos] if pos < len(parsed.lines) else None}
    if args.format == "json":
        print(json.dumps({"path": item.source, "game_id": parsed.header.game_id, "at": at,
                          "snapshot": snap, "ledger": ledger,
                          "findings": [f.to_contract() for f in result.findings]},
                         ensure_ascii=False, indent=2, default=str))
    else:
        print(format_snapshot_text(snap, ledger, at))
        if result.findings:
            print(f"\n{len(result.findings)} finding(s) up to this event (run `playtest validate` for details)")
    return EXIT_OK


# --- convert --------------------------------------------------------------------------------


def cmd_convert(args: argparse.Namespace) -> int:
    from ingest import formats

    item = _one_game(args.input)
    parsed = item.parsed
    lost = [f for f in parsed.findings if f.code in ("log/invalid-event", "log/unknown-event", "log/parse-error")]
    if lost:
        raise CliError(
            f"{args.input}: {len(lost)} event(s) could not be read (first: {lost[0].message}); "
            "converting would lose them. Fix the input first (see `playtest validate`)."
        )
    log = parsed.ruleset.log_model(header=parsed.header, events=parsed.events)
    if args.to == "json":
        from schemas.canonical import dumps_log

        text: str | bytes = dumps_log(log)
    else:
        try:
            text = formats.write_log(log, args.to)
        except (ValueError, KeyError) as exc:
            raise CliError(f"cannot write {args.to}: {exc}") from None
    if args.output:
        data = text.encode("utf-8") if isinstance(text, str) else text
        try:
            Path(args.output).write_bytes(data)
        except OSError as exc:
            raise CliError(f"cannot write {args.output}: {exc}") from None
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text if isinstance(text, str) else text.decode("utf-8"))
    return EXIT_OK


# --- storage commands -----------------------------------------------------------------------


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


def cmd_ingest(args: argparse.Namespace) -> int:
    pipeline = _pipeline()
    db = _db_path(args)
    # ingest_paths reports a path that does not exist as an unreadable input itself
    summary = pipeline.ingest_paths([Path(p) for p in args.paths], db,
                                    progress=args.format != "json")
    if args.format == "json" and hasattr(summary, "to_dict"):
        print(json.dumps(summary.to_dict(), ensure_ascii=False, indent=2, default=str))
    else:
        print(_summary_text(summary))
    return EXIT_UNREADABLE if _unreadable_count(summary) else EXIT_OK


def cmd_rebuild(args: argparse.Namespace) -> int:
    pipeline = _pipeline()
    kwargs = {"allow_drop": True} if args.force else {}
    summary = pipeline.rebuild(_db_path(args), **kwargs)
    if summary is not None:
        print(_summary_text(summary))
        if summary.failed:  # games in the archive that did not load: not a clean rebuild
            return EXIT_UNREADABLE
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    pipeline = _pipeline()
    fmt, out = ("parquet", args.parquet) if args.parquet else ("csv", args.csv)
    result = pipeline.export(_db_path(args), Path(out), fmt)
    n = len(result) if isinstance(result, list) else 0
    print(f"exported the warehouse as {fmt} to {out}" + (f" ({n} files)" if n else ""))
    return EXIT_OK


def _serve(db: Path, port: int | None, open_browser: bool, address: str | None = None) -> Any:
    import dashboards

    try:
        return dashboards.serve(db, port=port, open_browser=open_browser, address=address)
    except dashboards.ServeError as err:
        raise CliError(str(err)) from None


def _serve_options(p: argparse.ArgumentParser) -> None:
    """--port, --address, --open of ``dashboard`` and ``demo`` (Streamlit's conventions)."""
    p.add_argument("--port", type=int, default=None,
                   help="port to serve on (default: STREAMLIT_SERVER_PORT, else server.port in "
                   ".streamlit/config.toml, else 8501)")
    p.add_argument("--address", default=None,
                   help="address to listen on (default: STREAMLIT_SERVER_ADDRESS, else "
                   "127.0.0.1, this computer only; 0.0.0.0 lets a tablet on the same network "
                   "connect)")
    p.add_argument("--open", action="store_true", help="open a browser")


def cmd_dashboard(args: argparse.Namespace) -> int:
    db = _db_path(args)
    return _serve_status(_serve(db, args.port, args.open, args.address))


def _serve_status(result: Any) -> int:
    """``dashboards.serve`` prints its URL and blocks; it returns the server's exit status."""
    if isinstance(result, int):
        return EXIT_OK if result in (0, -2, -15, 130) else result
    if result:
        print(f"dashboard: {result}")
    return EXIT_OK


def _db_game_count(db: Path) -> int:
    """Games in the warehouse (0 when the file or the table does not exist yet)."""
    if not db.exists():
        return 0
    import duckdb

    from ingest.db import connect

    with connect(db, read_only=True) as con:
        try:
            row = con.execute("SELECT count(*) FROM games").fetchone()
        except duckdb.Error:
            return 0
    return int(row[0]) if row else 0


def cmd_demo(args: argparse.Namespace) -> int:
    db = _db_path(args)
    n = _db_game_count(db)
    if n == 0:
        if not SAMPLES_DIR.is_dir():
            raise CliError(f"no bundled sample games at {SAMPLES_DIR}")
        pipeline = _pipeline()
        print(f"the database {db} is empty: ingesting the sample games from {SAMPLES_DIR}")
        summary = pipeline.ingest_paths([SAMPLES_DIR], db, progress=True)
        print(_summary_text(summary))
        n = _db_game_count(db)
    print(f"database {db}: {n} game{'' if n == 1 else 's'}")
    if args.no_serve:
        return EXIT_OK
    return _serve_status(_serve(db, args.port, args.open, args.address))


def cmd_bench(args: argparse.Namespace) -> int:
    from cli.bench import run_bench

    return run_bench(args)


# --- argument parsing -----------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``playtest``."""
    db_parent = argparse.ArgumentParser(add_help=False)
    db_parent.add_argument("--db", default=argparse.SUPPRESS,
                           help="the DuckDB database (default: $PLAYTEST_DB or data/warehouse/playtest.duckdb)")
    p = argparse.ArgumentParser(prog="playtest", description="Record, audit and analyse board-game playtests (Mandate 2038, Vestige).")
    p.add_argument("--db", default=None, help=argparse.SUPPRESS)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", help="replay games and report rule findings")
    v.add_argument("paths", nargs="+", metavar="PATH")
    v.add_argument("--format", choices=("text", "json"), default="text")
    v.add_argument("--strict", action="store_true", help="warnings also make the exit status 1")
    v.add_argument("--jobs", type=int, default=1, help="validate in this many processes")
    v.add_argument("--quiet", "-q", action="store_true",
                   help="for large runs: no progress bar, and the text report lists only games "
                        "with findings or unreadable input, then the totals")
    v.add_argument("--rulings", metavar="NAME",
                   help="replay under this ruling set (a set name, ID=OPTION pairs, or both, "
                        "comma-separated) instead of the one each log names; docs/engine.md")
    v.set_defaults(func=cmd_validate)

    ra = sub.add_parser("reaudit", help="re-audit every archived game under another ruling set "
                        "and show which findings change")
    ra.add_argument("--rulings", required=True, metavar="NAME",
                    help="the ruling set to compare with each game's own (see `rulings`)")
    ra.add_argument("--db", help="the DuckDB database whose archive to read (default: "
                    "$PLAYTEST_DB or data/warehouse/playtest.duckdb)")
    ra.add_argument("--format", choices=("text", "json"), default="text")
    ra.set_defaults(func=cmd_reaudit)

    rl = sub.add_parser("rulings", help="list the rulings, their options, defaults and sets")
    rl.set_defaults(func=cmd_rulings)

    s = sub.add_parser("simulate", help="write games played by bots through the engine")
    s.add_argument("--game", default="mandate2038", metavar="GAME",
                   help="the ruleset to simulate: mandate2038 (default) or vestige")
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--players", default="4",
                   help="a player count the game allows (Mandate 2038: 3, 4 or 5; Vestige: 1-4), "
                        "or a list such as 3,4,5 used in turn")
    s.add_argument("--seed", default="0")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="where to write the games (default: simulated/GAME-seed-SEED)")
    s.add_argument("--bot", default="mixed", help="random, heuristic or mixed (the game's bots)")
    s.set_defaults(func=cmd_simulate)

    st = sub.add_parser("study", help="play strategy-profile line-ups at scale (Ray) into Parquet tables")
    st.add_argument("--games", type=int, default=100, help="games per player count (and per policy)")
    st.add_argument("--players", default="4", help="3, 4 or 5, or a list such as 3,4,5")
    st.add_argument("--profiles", default="default",
                    help="a profile set (data/profiles/<name>.json) or a profile file")
    st.add_argument("--lineup", default=None, metavar="ID,ID,...",
                    help="the profiles to rotate (default: every profile of the set; "
                         "'heuristic' and 'random' name the built-in bots)")
    st.add_argument("--policy", default="default",
                    help="greedy, weighted, default (each profile's own), "
                         "alternating-weighted-first or alternating-greedy-first (seats "
                         "alternate); a list plays each; 'designers' = their four regimes")
    st.add_argument("--seed", default="0")
    st.add_argument("--out", required=True, metavar="DIR")
    st.add_argument("--address", default=None,
                    help="a Ray cluster to use (default: $RAY_ADDRESS, else a local cluster)")
    st.add_argument("--workers", type=int, default=None,
                    help="CPUs of the local Ray cluster, or local processes (default: all)")
    st.add_argument("--backend", choices=("auto", "ray", "local"), default="auto",
                    help="auto: Ray when installed, else local processes")
    st.add_argument("--batch", type=int, default=25, help="games per task (and per Parquet file)")
    st.set_defaults(func=cmd_study)

    ca = sub.add_parser("calibrate", help="a study's balance figures beside the designers' "
                        "published ones; --null-check: how sure each verdict is")
    from cli.calibrate import add_arguments as calibrate_arguments

    calibrate_arguments(ca)
    ca.set_defaults(func=cmd_calibrate)

    r = sub.add_parser("replay", help="the state and score ledger at a position of a game")
    r.add_argument("file", metavar="FILE")
    r.add_argument("--at", default="end", metavar="POSITION",
                   help="event index, end, or the last event of a part of the game: era:N "
                        "(Mandate 2038), round:N (Vestige)")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.set_defaults(func=cmd_replay)

    c = sub.add_parser("convert", help="convert a game log between formats")
    c.add_argument("input", metavar="IN")
    c.add_argument("--to", choices=("json", "notation", "csv"), required=True)
    c.add_argument("-o", "--output", metavar="OUT")
    c.set_defaults(func=cmd_convert)

    i = sub.add_parser("ingest", parents=[db_parent], help="archive and load games (files or folders)")
    i.add_argument("paths", nargs="+", metavar="PATH")
    i.add_argument("--format", choices=("text", "json"), default="text")
    i.set_defaults(func=cmd_ingest)

    rb = sub.add_parser("rebuild", parents=[db_parent], help="recreate the warehouse from the archive")
    rb.add_argument("--force", action="store_true",
                    help="rebuild even when the warehouse holds games the archive lacks (they are dropped)")
    rb.set_defaults(func=cmd_rebuild)

    e = sub.add_parser("export", parents=[db_parent], help="export the warehouse tables")
    g = e.add_mutually_exclusive_group(required=True)
    g.add_argument("--parquet", metavar="DIR")
    g.add_argument("--csv", metavar="DIR")
    e.set_defaults(func=cmd_export)

    d = sub.add_parser("dashboard", parents=[db_parent], help="serve the dashboard")
    _serve_options(d)
    d.set_defaults(func=cmd_dashboard)

    dm = sub.add_parser("demo", parents=[db_parent], help="load the sample games if empty, then serve")
    dm.add_argument("--no-serve", action="store_true", help="only prepare the database")
    _serve_options(dm)
    dm.set_defaults(func=cmd_demo)

    b = sub.add_parser("bench", parents=[db_parent], help="measure replay-validate throughput")
    b.add_argument("--games", type=int, default=200)
    b.add_argument("--players", default="3,4,5")
    b.add_argument("--seed", default="bench")
    b.add_argument("--corpus", metavar="DIR", help="use the games in DIR instead of simulating")
    b.add_argument("--bot", choices=("random", "heuristic", "mixed"), default="mixed")
    b.add_argument("--ingest", action="store_true", help="also time ingest into a temporary database")
    b.add_argument("--pages", action="store_true",
                   help="time every dashboard page: alone, on synthetic warehouses of "
                        "--page-games games; with --ingest, on the ingested corpus")
    b.add_argument("--page-games", default="10000,100000",
                   help="warehouse sizes for --pages (multiples of 125)")
    b.add_argument("--page-dir", default=None,
                   help="where the synthetic warehouses are built and kept "
                        "(default /tmp/playtest-bench-pages or PLAYTEST_BENCH_DIR)")
    b.add_argument("--profile", action="store_true", help="print the top cProfile entries")
    b.add_argument("--jobs", type=int, default=1,
                   help="also time validation split over this many processes (row d)")
    b.set_defaults(func=cmd_bench)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``playtest`` with ``argv`` (default: the process arguments); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code) if isinstance(exc.code, int) else EXIT_UNREADABLE
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_UNREADABLE
    from ingest.db import StorageError

    try:
        return int(args.func(args))
    except CliError as exc:
        _err(str(exc))
        return exc.status
    except StorageError as exc:
        _err(str(exc))
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return EXIT_OK
    except OSError as exc:
        _err(f"{exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "))
        return EXIT_UNREADABLE
    except Exception as exc:  # noqa: BLE001 - last resort: a message, never a traceback
        _err(f"internal error ({type(exc).__name__}: {exc}); please report it with the command you ran")
        return 3


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
