"""Studies: many simulated games played by strategy-profile line-ups, written as Parquet tables
shaped like the warehouse's (``playtest study``).

A study is cut into batches (a player count, a policy, a range of game indices). Each batch is
one task: it plays its games through the engine (every event checked as it is applied), replays
each log to build the warehouse rows (``ingest.rows.game_columns``: the engine validates the game
again, as ingest would) and returns one Arrow table per warehouse table. The driver writes each
batch's tables as ``DIR/<table>/<batch>.parquet`` and then the batch's marker
``DIR/_batches/<batch>.json``; files are written under a temporary name and renamed, so a table
file is either whole or absent. A study that is stopped restarts where it stopped: a batch whose
marker exists is skipped (never played twice), a batch without one is played again and its files
are replaced (the same seed gives the same rows).

Tasks run on Ray when it is installed (a local cluster by default; ``--address`` or
``RAY_ADDRESS`` for a real one) and otherwise in local processes. Games are labelled
``session_type: "simulation"`` like every simulated game. The ``seats`` table carries, beside the
warehouse columns, ``turn_order`` (0 = the seat that held Initiative at the start: ``(seat -
first_initiative) mod n``), ``profile``, ``policy`` and ``policy_fallbacks``; ``games`` carries
``study``, ``study_seed``, ``policy``, ``variant`` (``baseline`` for the rules as printed),
``variant_hash`` and ``game_index``.

**Variants** (docs/variants.md): a study with rules variants plays the baseline and every
variant on common seeds: game ``i`` of every arm has the same line-up, factions, seats, map and
chance stream (only the rules differ), so that ``compare`` can pair them by ``game_index``.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

STUDY_FORMAT = 1
DEFAULT_BATCH = 25
MAX_GAMES = 1_000_000  # games per player count and policy (a study's batches are listed)
MAX_BATCH = 10_000  # games per batch (one task holds its batch's tables in memory)
MAX_WORKERS = 1024  # processes or CPUs of a local cluster
POLICY_CHOICES = ("default", "greedy", "weighted", "alternating-weighted-first",
                  "alternating-greedy-first")
#: ``--policy designers``: the designers' four backend regimes (engine/mandate2038/lineups.py)
DESIGNERS_POLICIES = ("weighted", "greedy", "alternating-weighted-first",
                      "alternating-greedy-first")


class StudyError(ValueError):
    """A study cannot be run as asked (the message says why)."""


@dataclass(frozen=True)
class StudySpec:
    """What a study plays. ``games`` is per player count and per policy."""

    games: int
    players: tuple[int, ...]
    profiles: str = "default"  # a profile set (data/profiles/<name>.json) or a file
    profile_ids: tuple[str, ...] = ()  # the line-up; empty = every profile of the set
    policies: tuple[str, ...] = ("default",)
    seed: str = "0"
    batch_size: int = DEFAULT_BATCH
    #: rules variants played beside the baseline: (name, the header's stamp as JSON)
    variants: tuple[tuple[str, str], ...] = ()

    def arms(self) -> tuple[str, ...]:
        """The rules each game index is played under: the baseline's name ("" without
        variants, else ``baseline``) and every variant's."""
        if not self.variants:
            return ("",)
        return ("baseline", *(name for name, _ in self.variants))

    def batches(self) -> list[Batch]:
        out: list[Batch] = []
        for arm in self.arms():
            out.extend(replace(b, variant=arm) for b in self._batches())
        return out

    def _batches(self) -> list[Batch]:
        out = []
        for policy in self.policies:
            for n in self.players:
                for start in range(0, self.games, self.batch_size):
                    out.append(Batch(players=n, policy=policy, start=start,
                                     count=min(self.batch_size, self.games - start)))
        return out

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        if not self.variants:  # a study without variants reads as it did before them
            d.pop("variants")
        d["format"] = STUDY_FORMAT
        return d


@dataclass(frozen=True)
class Batch:
    players: int
    policy: str
    start: int
    count: int
    variant: str = ""  # "" (a study without variants), "baseline" or a variant's name

    @property
    def id(self) -> str:
        arm = f"{self.variant}-" if self.variant else ""
        return f"{arm}{self.policy}-p{self.players}-{self.start:07d}"


@dataclass
class BatchResult:
    batch: Batch
    tables: dict[str, pa.Table]
    games: int
    cpu_seconds: float
    excluded: dict[str, str] = field(default_factory=dict)


# --- playing one batch (runs in a worker) ---------------------------------------------------


def _seat_extras(header: Any, plans: Sequence[Any], bots: dict[int, Any]) -> dict[int, dict[str, Any]]:
    n = len(header.seats)
    first = header.first_initiative
    out = {}
    for p in plans:
        b = bots.get(p.seat)
        out[p.seat] = {
            "turn_order": None if first is None else (p.seat - first) % n,
            "profile": p.profile, "policy": p.policy,
            "policy_fallbacks": int(getattr(b, "fallbacks", 0)),
            "policy_decisions": int(getattr(b, "decisions", 0)),
        }
    return out


def run_batch(spec: StudySpec, batch: Batch) -> BatchResult:
    """Play and tabulate one batch (deterministic from the spec and the batch)."""
    from engine.mandate2038.lineups import play_lineup_game
    from ingest.frames import FrameBuilder
    from ingest.gc_tuning import bulk_play
    from ingest.rows import game_columns
    from schemas.canonical import dumps_log
    from schemas.mandate2038.profiles import load_profiles
    from schemas.packs import load_pack

    t0 = time.process_time()
    profiles = load_profiles(spec.profiles)
    ids = list(spec.profile_ids) or list(profiles)
    pack = load_pack("mandate2038", "0.8.0-rc.17-test")
    stamp = None
    if batch.variant and batch.variant != "baseline":
        from schemas.log import VariantStamp

        stamp = VariantStamp.model_validate_json(dict(spec.variants)[batch.variant])
    fb = FrameBuilder()
    extras: dict[str, dict[int, dict[str, Any]]] = {}
    with bulk_play():
        for i in range(batch.start, batch.start + batch.count):
            log, plans, bots = play_lineup_game(spec.seed, i, batch.players, ids, batch.policy,
                                                profiles, pack, variant=stamp)
            text = dumps_log(log)
            gid = str(log.header.game_id)
            cols, _notes = game_columns(gid, text, log.header, log.events,
                                        {"source_format": "simulator", "source_name": f"study:{spec.seed}"})
            fb.add_columns(gid, cols)
            extras[gid] = _seat_extras(log.header, plans, bots)
    frames, bad = fb.build()
    tables: dict[str, pa.Table] = {}
    for name, frame in frames.items():
        t = frame.to_arrow()
        if name == "seats":
            t = _add_seat_columns(t, extras)
        elif name == "games":
            n = t.num_rows
            t = t.append_column("study", pa.array([spec.profiles] * n, pa.large_string()))
            t = t.append_column("study_seed", pa.array([spec.seed] * n, pa.large_string()))
            t = t.append_column("policy", pa.array([batch.policy] * n, pa.large_string()))
            t = t.append_column("variant", pa.array([batch.variant or "baseline"] * n,
                                                    pa.large_string()))
            t = t.append_column("variant_hash", pa.array(
                [stamp.hash if stamp else None] * n, pa.large_string()))
            # game_id ends in the game's index: the pairing key of common seeds
            t = t.append_column("game_index", pa.array(
                [int(g.rsplit("-", 1)[1]) for g in t.column("game_id").to_pylist()], pa.int64()))
        tables[name] = t
    return BatchResult(batch=batch, tables=tables, games=batch.count - len(bad),
                       cpu_seconds=time.process_time() - t0, excluded=bad)


def _add_seat_columns(t: pa.Table, extras: dict[str, dict[int, dict[str, Any]]]) -> pa.Table:
    gids = t.column("game_id").to_pylist()
    seats = t.column("seat").to_pylist()
    rows = [extras.get(g, {}).get(s, {}) for g, s in zip(gids, seats, strict=True)]
    types = {"turn_order": pa.int32(), "profile": pa.large_string(), "policy": pa.large_string(),
             "policy_fallbacks": pa.int32(), "policy_decisions": pa.int32()}
    for col, typ in types.items():
        values = pa.array([r.get(col) for r in rows], typ)
        if col in t.column_names:  # the warehouse row builder already gives it
            if col == "turn_order" and t.column(col).null_count < t.num_rows:
                continue
            t = t.set_column(t.column_names.index(col), col, values)
        else:
            t = t.append_column(col, values)
    return t


# --- writing --------------------------------------------------------------------------------


def _atomic_write_table(table: pa.Table, path: Path) -> Path:
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp)
    return tmp


def write_batch(out: Path, result: BatchResult) -> None:
    """Write a batch's tables, then its marker (each file whole or absent)."""
    bid = result.batch.id
    staged: list[tuple[Path, Path]] = []
    for name, table in result.tables.items():
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        final = d / f"{bid}.parquet"
        staged.append((_atomic_write_table(table, final), final))
    for tmp, final in staged:
        os.replace(tmp, final)
    # the marker names each table file with its size and sha256: a resumed study trusts a
    # batch only when its files are still the ones written (completed_batches)
    files = {final.parent.name: _file_record(final) for _, final in staged}
    marks = out / "_batches"
    marks.mkdir(parents=True, exist_ok=True)
    mark = marks / f"{bid}.json"
    tmp = marks / f".{bid}.json.tmp"
    tmp.write_text(json.dumps({"batch": asdict(result.batch), "games": result.games,
                               "cpu_seconds": round(result.cpu_seconds, 3),
                               "excluded": result.excluded, "files": files}, indent=1),
                   encoding="utf-8")
    os.replace(tmp, mark)


def _file_record(path: Path) -> dict[str, Any]:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return {"bytes": path.stat().st_size, "sha256": digest.hexdigest()}


def _batch_problem(out: Path, mark: Path) -> str | None:
    """Why the batch of marker ``mark`` cannot be trusted as done, or None."""
    try:
        meta = json.loads(mark.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        return f"its marker {mark.name} is unreadable ({err})"
    files = meta.get("files") if isinstance(meta, dict) else None
    if isinstance(files, dict) and files:
        for table, want in files.items():
            path = out / str(table) / f"{mark.stem}.parquet"
            try:
                have = _file_record(path)
            except OSError:
                return f"{table}/{path.name} is missing"
            if have != want:
                return (f"{table}/{path.name} is not the file written ({have['bytes']:,} bytes, "
                        f"{want.get('bytes', 0):,} written)")
        return None
    # a marker written before the files were recorded: each table file must at least be a
    # whole Parquet file (its footer readable)
    for path in sorted(out.glob(f"*/{mark.stem}.parquet")):
        try:
            pq.read_metadata(path)
        except Exception as err:  # noqa: BLE001 - pyarrow raises several kinds on a bad file
            return f"{path.parent.name}/{path.name} is not a whole Parquet file ({err})"
    return None


def completed_batches(out: Path, damaged: dict[str, str] | None = None) -> set[str]:
    """The batches finished in ``out``: a marker whose table files are the ones written.

    A batch whose marker or files are damaged (a truncated Parquet file) is not done: it is
    played again. ``damaged``, when given, receives each such batch with the reason."""
    marks = out / "_batches"
    if not marks.is_dir():
        return set()
    done: set[str] = set()
    for mark in sorted(marks.glob("*.json")):
        why = _batch_problem(out, mark)
        if why is None:
            done.add(mark.stem)
        elif damaged is not None:
            damaged[mark.stem] = why
    return done


def prepare(out: Path, spec: StudySpec, say: Callable[[str], None] | None = None) -> list[Batch]:
    """Create or reopen the study folder; the batches still to play.

    A folder that already holds a study must hold the same one (same spec), else StudyError."""
    out.mkdir(parents=True, exist_ok=True)
    meta = out / "study.json"
    want = json.loads(json.dumps(spec.to_json()))  # as it reads back (tuples are lists)
    if meta.exists():
        try:
            have = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise StudyError(f"{meta}: unreadable study description: {e}") from None
        diff = sorted(k for k in set(have) | set(want) if have.get(k) != want.get(k))
        if diff:
            raise StudyError(f"{out} holds a different study (differs in {', '.join(diff)}); "
                             "choose another --out folder")
    else:
        tmp = out / ".study.json.tmp"
        tmp.write_text(json.dumps(want, indent=1), encoding="utf-8")
        os.replace(tmp, meta)
    damaged: dict[str, str] = {}
    done = completed_batches(out, damaged)
    for bid, why in sorted(damaged.items()):
        if say is not None:
            say(f"batch {bid} was finished, but {why}: it is played again")
    return [b for b in spec.batches() if b.id not in done]


# --- running --------------------------------------------------------------------------------


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _run_local(spec: StudySpec, todo: list[Batch], workers: int) -> Iterator[BatchResult]:
    if workers <= 1:
        for b in todo:
            yield run_batch(spec, b)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futs = [pool.submit(run_batch, spec, b) for b in todo]
        for f in as_completed(futs):
            yield f.result()


def _run_ray(spec: StudySpec, todo: list[Batch], workers: int | None, address: str | None,
             clock: dict[str, float]) -> Iterator[BatchResult]:
    import ray

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "configure_logging": False}
        if address:
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = workers or os.cpu_count() or 1
            kwargs["address"] = "local"  # a local cluster, even when RAY_ADDRESS is set
        ray.init(**kwargs)
        started = True
    clock["ready"] = time.perf_counter()  # the cluster is up: start-up excluded from speed
    try:
        remote = ray.remote(num_cpus=1, max_retries=2)(run_batch)
        spec_ref = ray.put(spec)
        cpus: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        limit = max(2, 2 * int(cpus.get("CPU", 1)))
        pending: list[Any] = []
        queue = list(todo)
        while queue or pending:
            while queue and len(pending) < limit:
                pending.append(remote.remote(spec_ref, queue.pop(0)))
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def run_study(spec: StudySpec, out: Path, *, backend: str = "auto", workers: int | None = None,
              address: str | None = None,
              on_batch: Callable[[BatchResult, int, int], None] | None = None,
              say: Callable[[str], None] = print) -> dict[str, Any]:
    """Play every batch not yet done and write it; a summary (batches, games, CPU seconds)."""
    check_spec(spec)
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise StudyError(f"--workers must be 1 to {MAX_WORKERS}, not {workers:,}")
    todo = prepare(out, spec, say)
    total = len(spec.batches())
    done_before = total - len(todo)
    address = address or os.environ.get("RAY_ADDRESS") or None
    if backend == "auto":
        backend = "ray" if ray_available() else "local"
    if backend == "ray" and not ray_available():
        raise StudyError("Ray is not installed (pip install 'playtest-toolkit[ray]'); "
                         "use --backend local")
    if done_before:
        say(f"resuming: {done_before} of {total} batches already done in {out}")
    n = workers or os.cpu_count() or 1
    clock: dict[str, float] = {}
    if backend == "ray":
        where = f"the Ray cluster at {address}" if address else f"a local Ray cluster ({n} CPUs)"
        say(f"playing {len(todo)} batches of up to {spec.batch_size} games on {where}")
        results = _run_ray(spec, todo, workers, address, clock)
    else:
        if not ray_available():
            say("Ray is not installed: running the batches in local processes")
        say(f"playing {len(todo)} batches of up to {spec.batch_size} games in {n} local process(es)")
        results = _run_local(spec, todo, n)
    games = cpu = 0.0
    count = 0
    clock["ready"] = time.perf_counter()
    for r in results:
        write_batch(out, r)
        count += 1
        games += r.games
        cpu += r.cpu_seconds
        if on_batch is not None:
            on_batch(r, count, len(todo))
    return {"batches": count, "batches_total": total, "batches_skipped": done_before,
            "games": int(games), "worker_cpu_seconds": round(cpu, 3),
            "wall_seconds": round(time.perf_counter() - clock["ready"], 3), "backend": backend}


def check_spec(spec: StudySpec) -> None:
    """StudyError when the spec cannot be played: every number in bounds, known policies and
    profiles."""
    from schemas.mandate2038.profiles import load_profiles

    if not 1 <= spec.games <= MAX_GAMES:
        raise StudyError(f"--games must be 1 to {MAX_GAMES:,}, not {spec.games:,}")
    if not 1 <= spec.batch_size <= MAX_BATCH:
        raise StudyError(f"--batch must be 1 to {MAX_BATCH:,}, not {spec.batch_size:,}")
    for n in spec.players:
        if not 3 <= n <= 5:
            raise StudyError(f"--players must be 3, 4 or 5 (or a list like 3,4,5), not {n}")
    for p in spec.policies:
        if p not in POLICY_CHOICES:
            raise StudyError(f"unknown policy {p!r}; choose {', '.join(POLICY_CHOICES)}")
    profiles = load_profiles(spec.profiles)
    from engine.mandate2038.lineups import BUILTIN_BOTS

    for pid in spec.profile_ids:
        if pid not in profiles and pid not in BUILTIN_BOTS:
            raise StudyError(f"unknown profile {pid!r} in set {spec.profiles!r}; "
                             f"known: {', '.join([*profiles, *BUILTIN_BOTS])}")


# --- reading a study folder back (compare, calibrate) ---------------------------------------


def _spec_of(meta: dict[str, Any]) -> StudySpec:
    fields = {k: v for k, v in meta.items() if k in StudySpec.__dataclass_fields__}
    for key in ("players", "profile_ids", "policies"):
        fields[key] = tuple(fields.get(key, ()))
    fields["variants"] = tuple((str(n), str(s)) for n, s in fields.get("variants", ()))
    return StudySpec(**fields)


#: the games-table columns that say which study, arm and batch a row was played for
_IDENTITY = ("study", "study_seed", "policy", "player_count", "variant", "variant_hash",
             "game_index")


def _batch_identity(out: Path, spec: StudySpec, batch: Batch) -> str | None:
    """Why the batch's games table is not the games of this study's batch, or None."""
    path = out / "games" / f"{batch.id}.parquet"
    try:
        rows = pq.read_table(path, columns=list(_IDENTITY)).to_pylist()
    except Exception as err:  # noqa: BLE001 - pyarrow raises several kinds on a foreign file
        return f"games/{path.name} is not a games table of a study ({str(err)[:200]})"
    hashes = {name: json.loads(stamp).get("hash") for name, stamp in spec.variants}
    want = {"study": spec.profiles, "study_seed": spec.seed, "policy": batch.policy,
            "player_count": batch.players, "variant": batch.variant or "baseline",
            "variant_hash": hashes.get(batch.variant)}
    for row in rows:
        for col, value in want.items():
            if row[col] != value:
                return (f"games/{path.name} holds games of another study or arm ({col} "
                        f"{row[col]!r}, this study's batch has {value!r})")
        if not batch.start <= int(row["game_index"]) < batch.start + batch.count:
            return f"games/{path.name} holds game index {row['game_index']}, not this batch's"
    return None


def _marked_tables(mark: Path) -> set[str] | None:
    # the tables a batch's marker names (None: a marker written before files were recorded)
    try:
        files = json.loads(mark.read_text(encoding="utf-8")).get("files")
    except (OSError, ValueError, AttributeError):
        return set()
    return {str(t) for t in files} if isinstance(files, dict) and files else None


def study_problems(out: Path, limit: int = 20) -> list[str]:
    """Why the study folder ``out`` cannot be read as one whole study (empty when it can), as
    ``playtest study`` trusts a folder: its ``study.json`` names the batches; each must be
    finished (marker and files as written) and hold that study's games (study, seed, policy,
    player count, variant name and hash, game indices); no table file may belong to no batch
    (another study's batch or a foreign Parquet file). A folder without ``study.json`` (a pool
    written batch by batch) is checked for its markers and files only. At most ``limit``
    reasons."""
    problems: list[str] = []
    meta_path = out / "study.json"
    spec: StudySpec | None = None
    if meta_path.is_file():
        try:
            spec = _spec_of(json.loads(meta_path.read_text(encoding="utf-8")))
            expected = {b.id: b for b in spec.batches()}
        except (OSError, ValueError, TypeError, AttributeError) as err:
            return [f"{meta_path}: unreadable study description ({str(err)[:200]})"]
    damaged: dict[str, str] = {}
    done = completed_batches(out, damaged)
    problems += [f"batch {bid} is damaged: {why}" for bid, why in sorted(damaged.items())]
    if spec is not None:
        problems += [f"batch {bid} of the study is not finished (no marker)"
                     for bid in sorted(set(expected) - done - set(damaged))]
        problems += [f"_batches/{bid}.json is not a batch of this study"
                     for bid in sorted((done | set(damaged)) - set(expected))]
    listed: dict[str, set[str] | None] = {}
    for path in sorted(out.glob("*/*.parquet")):
        if path.parent.name == "_batches":
            continue
        if path.stem not in listed:
            listed[path.stem] = _marked_tables(out / "_batches" / f"{path.stem}.json")
        tables = listed[path.stem]
        if path.stem not in done | set(damaged) or (tables is not None
                                                    and path.parent.name not in tables):
            problems.append(f"{path.parent.name}/{path.name} belongs to no batch of this study "
                            "(no marker names it)")
    if spec is not None and not problems:
        for bid in sorted(done):
            why = _batch_identity(out, spec, expected[bid])
            if why:
                problems.append(f"batch {bid}: {why}")
            if len(problems) >= limit:
                break
    return problems[:limit]
