"""Studies of any game: many simulated games in batches, written as Parquet tables
(``playtest study``), and their variants compared with the baseline (``playtest compare``).

The machinery every game shares lives here (docs/variants.md "Paired studies"): a study is cut
into batches (an arm, a player count, a range of game indices); each batch is one task, run on
Ray (a local cluster by default; ``--address`` or ``RAY_ADDRESS`` for a real one) or in local
processes; the driver writes each batch's tables as ``DIR/<table>/<batch>.parquet`` and then its
marker ``DIR/_batches/<batch>.json`` naming every file with its size and sha256 (files are
written under a temporary name and renamed: whole or absent). A study that is stopped restarts
where it stopped; a folder holding another study (``study.json`` differs) is refused.

What a game plays is its declaration's :class:`engine.core.game.DesignerLoop`: either ``play``
(one game under a variant with a seed -> its rows: ``games``, ``seats`` and ``metrics``), which
:func:`loop_parts` turns into a study here, or ``study``: the game's own :class:`StudyParts`
(its spec, checks, batch runner, folder checks and comparison). A generic study's ``metrics``
table holds, per game, each metric's numerator and denominator (``num``, ``den``): the metric
of an arm is ``sum(num) / sum(den)`` over its games (a rate, a share or a mean), so that
:func:`compare_study` can pair the arms by game index and bootstrap their difference.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

STUDY_FORMAT = 1
DEFAULT_BATCH = 25
MAX_GAMES = 1_000_000  # games per player count (and arm)
MAX_BATCH = 10_000  # games per batch (one task holds its batch's tables in memory)
MAX_WORKERS = 1024  # processes or CPUs of a local cluster
BASELINE = "baseline"


class StudyError(ValueError):
    """A study cannot be run as asked (the message says why)."""


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


@dataclass(frozen=True)
class StudyParts:
    """What ``study``, ``compare`` and ``calibrate`` need of one game's studies:

    * ``spec(options, variants)``: the study's spec (``options``: the command's ``games``,
      ``players``, ``seed``, ``batch_size`` and the game's own, e.g. Mandate's ``profiles``);
    * ``check(spec)``: StudyError (or another ValueError) when it cannot be played;
    * ``run(spec, out, *, backend, workers, address, on_batch, say)``: play it, a summary;
    * ``problems(folder)``: why a folder cannot be read as one whole study;
    * ``compare(folder, against, players, replicates, seed)``: the comparison document, or
      None: the game has no comparison of its own (the generic one, :func:`compare_study`);
    * ``text(result)``: the comparison as text;
    * ``view``: ``"module:function"`` ``(study folder, result) -> simulated games per arm``, the
      Variants page's view of the game's own comparison (None: the page's generic view of
      :func:`compare_study`'s rows)."""

    spec: Callable[[Mapping[str, Any], tuple[tuple[str, str], ...]], Any]
    check: Callable[[Any], None]
    run: Callable[..., dict[str, Any]]
    problems: Callable[[Path], list[str]]
    compare: Callable[..., dict[str, Any]] | None = None
    text: Callable[[dict[str, Any]], str] | None = None
    view: str | None = None


# --- writing --------------------------------------------------------------------------------


def write_batch(out: Path, result: BatchResult) -> None:
    """Write a batch's tables, then its marker (each file whole or absent)."""
    bid = result.batch.id
    staged: list[tuple[Path, Path]] = []
    for name, table in result.tables.items():
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        final = d / f"{bid}.parquet"
        tmp = final.with_name(f".{final.name}.tmp")
        pq.write_table(table, tmp)
        staged.append((tmp, final))
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


def prepare(out: Path, spec: Any, say: Callable[[str], None] | None = None) -> list[Batch]:
    """Create or reopen the study folder; the batches still to play (``spec``: a study spec
    with ``to_json()`` and ``batches()``).

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
    batches: list[Batch] = spec.batches()
    return [b for b in batches if b.id not in done]


# --- running --------------------------------------------------------------------------------


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


PlayBatch = Callable[[Any, Batch], BatchResult]


def _run_local(play: PlayBatch, spec: Any, todo: list[Batch], workers: int
               ) -> Iterator[BatchResult]:
    if workers <= 1:
        for b in todo:
            yield play(spec, b)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futs = [pool.submit(play, spec, b) for b in todo]
        for f in as_completed(futs):
            yield f.result()


def _run_ray(play: PlayBatch, spec: Any, todo: list[Batch], workers: int | None,
             address: str | None, clock: dict[str, float]) -> Iterator[BatchResult]:
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
        remote = ray.remote(num_cpus=1, max_retries=2)(play)
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


def run_batches(play: PlayBatch, spec: Any, out: Path, *, backend: str = "auto",
                workers: int | None = None, address: str | None = None,
                on_batch: Callable[[BatchResult, int, int], None] | None = None,
                say: Callable[[str], None] = print,
                available: Callable[[], bool] = ray_available) -> dict[str, Any]:
    """Play every batch of ``spec`` not yet done in ``out`` with ``play(spec, batch)`` and
    write it; a summary (batches, games, CPU seconds, wall seconds, backend)."""
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise StudyError(f"--workers must be 1 to {MAX_WORKERS}, not {workers:,}")
    todo = prepare(out, spec, say)
    total = len(spec.batches())
    done_before = total - len(todo)
    address = address or os.environ.get("RAY_ADDRESS") or None
    if backend == "auto":
        backend = "ray" if available() else "local"
    if backend == "ray" and not available():
        raise StudyError("Ray is not installed (pip install 'playtest-toolkit[ray]'); "
                         "use --backend local")
    if done_before:
        say(f"resuming: {done_before} of {total} batches already done in {out}")
    n = workers or os.cpu_count() or 1
    clock: dict[str, float] = {}
    size = getattr(spec, "batch_size", DEFAULT_BATCH)
    results: Iterator[BatchResult]
    if backend == "ray":
        where = f"the Ray cluster at {address}" if address else f"a local Ray cluster ({n} CPUs)"
        say(f"playing {len(todo)} batches of up to {size} games on {where}")
        results = _run_ray(play, spec, todo, workers, address, clock)
    else:
        if not available():
            say("Ray is not installed: running the batches in local processes")
        say(f"playing {len(todo)} batches of up to {size} games in {n} local process(es)")
        results = _run_local(play, spec, todo, n)
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


def _marked_tables(mark: Path) -> set[str] | None:
    # the tables a batch's marker names (None: a marker written before files were recorded)
    try:
        files = json.loads(mark.read_text(encoding="utf-8")).get("files")
    except (OSError, ValueError, AttributeError):
        return set()
    return {str(t) for t in files} if isinstance(files, dict) and files else None


def folder_problems(out: Path, expected: Mapping[str, Batch] | None,
                    identity: Callable[[Batch], str | None] | None = None,
                    limit: int = 20) -> list[str]:
    """Why the study folder ``out`` cannot be read as one whole study: every batch of
    ``expected`` (None: no ``study.json``) finished, no marker or table file of another,
    and each batch's games its own (``identity(batch)``: why not, or None)."""
    problems: list[str] = []
    damaged: dict[str, str] = {}
    done = completed_batches(out, damaged)
    problems += [f"batch {bid} is damaged: {why}" for bid, why in sorted(damaged.items())]
    if expected is not None:
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
    if expected is not None and identity is not None and not problems:
        for bid in sorted(done):
            why = identity(expected[bid])
            if why:
                problems.append(f"batch {bid}: {why}")
            if len(problems) >= limit:
                break
    return problems[:limit]


def games_identity(out: Path, batch: Batch, want: Mapping[str, Any]) -> str | None:
    """Why the batch's games table is not the games of this study's batch (a column of
    ``want`` differs, a game index outside the batch), or None."""
    path = out / "games" / f"{batch.id}.parquet"
    try:
        rows = pq.read_table(path, columns=[*want, "game_index"]).to_pylist()
    except Exception as err:  # noqa: BLE001 - pyarrow raises several kinds on a foreign file
        return f"games/{path.name} is not a games table of a study ({str(err)[:200]})"
    for row in rows:
        for col, value in want.items():
            if row[col] != value:
                return (f"games/{path.name} holds games of another study or arm ({col} "
                        f"{row[col]!r}, this study's batch has {value!r})")
        if not batch.start <= int(row["game_index"]) < batch.start + batch.count:
            return f"games/{path.name} holds game index {row['game_index']}, not this batch's"
    return None


# --- which game a study folder holds, and its parts -----------------------------------------


def folder_game(folder: Path) -> str:
    """The game a study folder holds: its ``study.json``'s ``game`` (a study of the default
    game, written before studies named their game, has none)."""
    from engine.core.registry import DEFAULT_GAME

    try:
        meta = json.loads((folder / "study.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return DEFAULT_GAME
    game = meta.get("game") if isinstance(meta, dict) else None
    return game if isinstance(game, str) and game else DEFAULT_GAME


def study_parts(game: str) -> StudyParts:
    """The study parts of ``game`` (StudyError when it declares no designer loop)."""
    from engine.core.game import resolve
    from engine.core.registry import get_ruleset

    rs = get_ruleset(game)
    loop = rs.designer_loop if rs is not None else None
    if rs is None or loop is None or (loop.study is None and loop.play is None):
        raise StudyError(f"{game!r} declares no designer loop: it cannot be studied "
                         "(engine.core.game.DesignerLoop)")
    if loop.study is not None:
        parts = resolve(loop.study)
        assert isinstance(parts, StudyParts)
        return parts
    return loop_parts(game)


def study_problems(folder: Path) -> list[str]:
    """Why ``folder`` cannot be read as one whole study of its game (empty when it can)."""
    try:
        parts = study_parts(folder_game(folder))
    except StudyError as exc:
        return [str(exc)]
    return parts.problems(folder)


# --- a study of a game's designer loop (``DesignerLoop.play``) ------------------------------


@dataclass(frozen=True)
class LoopSpec:
    """A generic study: ``games`` per player count, on ``seed``, under the printed rules and
    every variant on common seeds (game ``i`` of every arm is the same deal)."""

    game: str
    games: int
    players: tuple[int, ...]
    seed: str = "0"
    batch_size: int = DEFAULT_BATCH
    variants: tuple[tuple[str, str], ...] = ()

    def arms(self) -> tuple[str, ...]:
        return (BASELINE, *(name for name, _ in self.variants))

    def batches(self) -> list[Batch]:
        out: list[Batch] = []
        for arm in self.arms():
            for n in self.players:
                for start in range(0, self.games, self.batch_size):
                    out.append(Batch(players=n, policy="default", start=start,
                                     count=min(self.batch_size, self.games - start),
                                     variant=arm))
        return out

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["format"] = STUDY_FORMAT
        return d


def _loop_spec(game: str) -> Callable[[Mapping[str, Any], tuple[tuple[str, str], ...]],
                                      LoopSpec]:
    def spec(options: Mapping[str, Any], variants: tuple[tuple[str, str], ...]) -> LoopSpec:
        from engine.core.registry import get_ruleset

        rs = get_ruleset(game)
        players = tuple(options.get("players") or ()) or tuple(
            getattr(rs, "player_counts", ())[:1])
        return LoopSpec(game=game, games=int(options.get("games", 100)), players=players,
                        seed=str(options.get("seed", "0")),
                        batch_size=int(options.get("batch_size", DEFAULT_BATCH)),
                        variants=tuple(variants))
    return spec


def _check_loop(spec: LoopSpec) -> None:
    from engine.core.registry import get_ruleset

    if not 1 <= spec.games <= MAX_GAMES:
        raise StudyError(f"--games must be 1 to {MAX_GAMES:,}, not {spec.games:,}")
    if not 1 <= spec.batch_size <= MAX_BATCH:
        raise StudyError(f"--batch must be 1 to {MAX_BATCH:,}, not {spec.batch_size:,}")
    rs = get_ruleset(spec.game)
    counts = tuple(getattr(rs, "player_counts", ()))
    for n in spec.players:
        if n not in counts:
            raise StudyError(f"--players: the {spec.game} study plays "
                             f"{', '.join(map(str, counts))} players, not {n}")
    names = [n for n, _ in spec.variants]
    if BASELINE in names or len(set(names)) != len(names):
        raise StudyError("two arms of the study share a name ('baseline' is the printed rules)")


#: the columns every generic study adds to each table's rows
_KEYS = (("variant", pa.large_string()), ("variant_hash", pa.large_string()),
         ("study_seed", pa.large_string()), ("player_count", pa.int64()),
         ("game_index", pa.int64()))


def run_loop_batch(spec: LoopSpec, batch: Batch) -> BatchResult:
    """Play and tabulate one batch of a generic study (deterministic from spec and batch):
    each game's rows from the game's ``DesignerLoop.play``, keyed by arm and game index."""
    from engine.core.game import resolve
    from engine.core.registry import get_ruleset
    from schemas.log import VariantStamp

    t0 = time.process_time()
    rs = get_ruleset(spec.game)
    loop = rs.designer_loop if rs is not None else None
    if loop is None or loop.play is None:
        raise StudyError(f"{spec.game!r} declares no designer loop that plays games")
    play = resolve(loop.play)
    stamp = None
    if batch.variant and batch.variant != BASELINE:
        stamp = VariantStamp.model_validate_json(dict(spec.variants)[batch.variant])
    rows: dict[str, list[dict[str, Any]]] = {}
    bad: dict[str, str] = {}
    for i in range(batch.start, batch.start + batch.count):
        key = {"variant": batch.variant or BASELINE, "variant_hash": stamp.hash if stamp else None,
               "study_seed": spec.seed, "player_count": batch.players, "game_index": i}
        try:
            got = play(spec.seed, i, batch.players, stamp)
        except Exception as exc:  # noqa: BLE001 - a game the simulator cannot finish
            from engine.simulate import SimulationError

            if not isinstance(exc, SimulationError):
                raise
            bad[f"{batch.variant}:{i}"] = str(exc)[:300]
            continue
        for table, trows in got.items():
            rows.setdefault(table, []).extend({**r, **key} for r in trows)
    tables = {name: _table(trs) for name, trs in rows.items()}
    return BatchResult(batch=batch, tables=tables, games=batch.count - len(bad),
                       cpu_seconds=time.process_time() - t0, excluded=bad)


def _table(rows: list[dict[str, Any]]) -> pa.Table:
    names: dict[str, None] = {}
    for r in rows:
        names.update(dict.fromkeys(r))
    keyed = dict(_KEYS)
    cols = {}
    for n in names:
        values = [r.get(n) for r in rows]
        cols[n] = pa.array(values, keyed[n]) if n in keyed else pa.array(values)
    return pa.table(cols)


def _run_loop(spec: LoopSpec, out: Path, **kw: Any) -> dict[str, Any]:
    _check_loop(spec)
    return run_batches(run_loop_batch, spec, out, **kw)


def _loop_problems(out: Path, limit: int = 20) -> list[str]:
    meta_path = out / "study.json"
    spec: LoopSpec | None = None
    if meta_path.is_file():
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            spec = LoopSpec(game=str(meta["game"]), games=int(meta["games"]),
                            players=tuple(int(n) for n in meta["players"]),
                            seed=str(meta["seed"]), batch_size=int(meta["batch_size"]),
                            variants=tuple((str(n), str(s)) for n, s in meta["variants"]))
            expected = {b.id: b for b in spec.batches()}
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as err:
            return [f"{meta_path}: unreadable study description ({str(err)[:200]})"]
    if spec is None:
        return folder_problems(out, None, limit=limit)
    hashes = {name: json.loads(stamp).get("hash") for name, stamp in spec.variants}

    def identity(batch: Batch) -> str | None:
        return games_identity(out, batch, {
            "study_seed": spec.seed, "player_count": batch.players, "variant": batch.variant,
            "variant_hash": hashes.get(batch.variant)})

    return folder_problems(out, expected, identity, limit)


def loop_parts(game: str) -> StudyParts:
    """The study parts of a game whose designer loop declares ``play``."""
    return StudyParts(spec=_loop_spec(game), check=_check_loop,
                      run=_run_loop, problems=_loop_problems, compare=compare_study,
                      text=compare_text)


# --- comparing a generic study's arms -------------------------------------------------------


def metric_rows(folder: Path) -> Any:
    """The ``metrics`` table of a generic study folder (polars): one row per game, arm and
    metric with ``num`` and ``den``."""
    import polars as pl

    if not (folder / "metrics").is_dir():
        raise StudyError(f"{folder}: not a study folder of a game's designer loop (no "
                         "metrics/ table); make one with playtest study --game GAME")
    frame = pl.read_parquet(sorted((folder / "metrics").glob("*.parquet")))
    return frame.select("variant", "player_count", "game_index", "metric",
                        pl.col("num").cast(pl.Float64), pl.col("den").cast(pl.Float64))


def compare_study(folder: Path, against: Path | None = None, players: int | None = None,
                  replicates: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Every variant of a generic study against its baseline, per declared metric: the
    paired difference on common seeds with its simultaneous interval
    (:func:`ingest.stats.paired_ratio_differences`). ``against``: DIR's baseline against
    DIR2's baseline, game index by game index."""
    import polars as pl

    from ingest import stats

    frame = metric_rows(folder)
    if against is not None:
        other = metric_rows(against).filter(pl.col("variant") == BASELINE)
        frame = pl.concat([frame.filter(pl.col("variant") == BASELINE),
                           other.with_columns(pl.lit(str(against)).alias("variant"))])
    if players is not None:
        frame = frame.filter(pl.col("player_count") == players)
    if frame.is_empty():
        raise StudyError(f"{folder}: no games to compare" + (
            f" at {players} players" if players is not None else ""))
    game = folder_game(folder)
    labels = _metric_labels(game)
    arms = [v for v in frame["variant"].unique(maintain_order=True).to_list() if v != BASELINE]
    metrics = sorted(frame["metric"].unique().to_list(),
                     key=lambda m: (list(labels).index(m) if m in labels else len(labels), m))
    rows: list[dict[str, Any]] = []
    for arm in arms:
        base = frame.filter(pl.col("variant") == BASELINE)
        var = frame.filter(pl.col("variant") == arm)
        keys = (base.select("player_count", "game_index").unique()
                .join(var.select("player_count", "game_index").unique(),
                      on=["player_count", "game_index"]).sort("player_count", "game_index"))
        if keys.is_empty():
            continue
        arrays = []
        for frm in (base, var):
            wide = keys.join(frm, on=["player_count", "game_index"], how="left")
            arrays.append({m: (_col(wide, keys, m, "num"), _col(wide, keys, m, "den"))
                           for m in metrics})
        found = stats.paired_ratio_differences(
            [(arrays[0][m][0], arrays[0][m][1], arrays[1][m][0], arrays[1][m][1])
             for m in metrics], replicates=replicates, seed=seed)
        for m, r in zip(metrics, found, strict=True):
            rows.append({"metric": m, "label": labels.get(m, m), "variant": arm, **r,
                         "games": keys.height})
    return {"study": str(folder), "game": game, "against": str(against) if against else None,
            "players": players, "replicates": replicates, "seed": seed,
            "level": "simultaneous 95% over each variant's metrics (Bonferroni)", "rows": rows}


def _col(wide: Any, keys: Any, metric: str, col: str) -> Any:
    import numpy as np
    import polars as pl

    sub = wide.filter(pl.col("metric") == metric).select("player_count", "game_index", col)
    joined = keys.join(sub, on=["player_count", "game_index"], how="left")
    return np.nan_to_num(joined[col].to_numpy().astype(float))


def _metric_labels(game: str) -> dict[str, str]:
    from engine.core.registry import get_ruleset

    loop = getattr(get_ruleset(game), "designer_loop", None)
    return dict(loop.metrics) if loop is not None else {}


def compare_text(result: dict[str, Any]) -> str:
    """A generic comparison as text: one line per metric and variant."""
    out = [f"{result['study']} ({result['game']}): each variant against the baseline on common "
           f"seeds; intervals {result['level']}"]

    def num(v: Any) -> str:
        return "-" if v is None else f"{v:.4g}"

    for r in result["rows"]:
        lo, hi = r["interval"]
        mark = "  *" if r["significant"] else ""
        out.append(f"  {r['variant']:<24} {r['label'][:48]:<48} {num(r['baseline']):>9} -> "
                   f"{num(r['value']):>9}  diff {num(r['difference']):>9} "
                   f"[{num(lo)}, {num(hi)}]{mark}")
    if not result["rows"]:
        out.append("  no variant to compare (the study has only its baseline)")
    return "\n".join(out)

