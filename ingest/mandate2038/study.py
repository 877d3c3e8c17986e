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

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import pyarrow as pa

from ingest.study import (
    DEFAULT_BATCH,
    MAX_BATCH,
    MAX_GAMES,
    MAX_WORKERS,
    STUDY_FORMAT,
    Batch,
    BatchResult,
    StudyError,
    StudyParts,
    completed_batches,
    folder_problems,
    games_identity,
    prepare,
    ray_available,
    run_batches,
    write_batch,
)

__all__ = [
    "DEFAULT_BATCH", "DESIGNERS_POLICIES", "MAX_BATCH", "MAX_GAMES", "MAX_WORKERS",
    "POLICY_CHOICES", "STUDY", "STUDY_FORMAT", "Batch", "BatchResult", "StudyError",
    "StudySpec", "check_spec", "completed_batches", "prepare", "ray_available", "run_batch",
    "run_study", "study_problems", "write_batch",
]
POLICY_CHOICES = ("default", "greedy", "weighted", "alternating-weighted-first",
                  "alternating-greedy-first")
#: ``--policy designers``: the designers' four backend regimes (engine/mandate2038/lineups.py)
DESIGNERS_POLICIES = ("weighted", "greedy", "alternating-weighted-first",
                      "alternating-greedy-first")


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


# --- running --------------------------------------------------------------------------------


def run_study(spec: StudySpec, out: Path, *, backend: str = "auto", workers: int | None = None,
              address: str | None = None,
              on_batch: Callable[[BatchResult, int, int], None] | None = None,
              say: Callable[[str], None] = print) -> dict[str, Any]:
    """Play every batch not yet done and write it; a summary (batches, games, CPU seconds)."""
    check_spec(spec)
    return run_batches(run_batch, spec, out, backend=backend, workers=workers,
                       address=address, on_batch=on_batch, say=say,
                       available=lambda: ray_available())


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


def _batch_identity(out: Path, spec: StudySpec, batch: Batch) -> str | None:
    """Why the batch's games table is not the games of this study's batch, or None."""
    hashes = {name: json.loads(stamp).get("hash") for name, stamp in spec.variants}
    return games_identity(out, batch, {
        "study": spec.profiles, "study_seed": spec.seed, "policy": batch.policy,
        "player_count": batch.players, "variant": batch.variant or "baseline",
        "variant_hash": hashes.get(batch.variant)})


def study_problems(out: Path, limit: int = 20) -> list[str]:
    """Why the study folder ``out`` cannot be read as one whole study (empty when it can), as
    ``playtest study`` trusts a folder: its ``study.json`` names the batches; each must be
    finished (marker and files as written) and hold that study's games (study, seed, policy,
    player count, variant name and hash, game indices); no table file may belong to no batch
    (another study's batch or a foreign Parquet file). A folder without ``study.json`` (a pool
    written batch by batch) is checked for its markers and files only. At most ``limit``
    reasons."""
    meta_path = out / "study.json"
    if not meta_path.is_file():
        return folder_problems(out, None, limit=limit)
    try:
        spec = _spec_of(json.loads(meta_path.read_text(encoding="utf-8")))
        expected = {b.id: b for b in spec.batches()}
    except (OSError, ValueError, TypeError, AttributeError) as err:
        return [f"{meta_path}: unreadable study description ({str(err)[:200]})"]
    return folder_problems(out, expected, lambda b: _batch_identity(out, spec, b), limit)


# --- the study parts of Mandate 2038's designer loop (engine.core.game.DesignerLoop) ---------


def spec_from_options(options: Mapping[str, Any], variants: tuple[tuple[str, str], ...]
                      ) -> StudySpec:
    """A study spec from ``playtest study``'s options (``games``, ``players``, ``seed``,
    ``batch_size``, ``profiles``, ``lineup``, ``policy``)."""
    policies = tuple(x.strip() for x in str(options.get("policy") or "default").split(",")
                     if x.strip())
    if policies == ("designers",):
        policies = DESIGNERS_POLICIES
    lineup = tuple(x.strip() for x in str(options.get("lineup") or "").split(",") if x.strip())
    return StudySpec(games=int(options.get("games", 100)),
                     players=tuple(options.get("players") or (4,)),
                     profiles=str(options.get("profiles") or "default"), profile_ids=lineup,
                     policies=policies or ("default",), seed=str(options.get("seed", "0")),
                     batch_size=int(options.get("batch_size", DEFAULT_BATCH)),
                     variants=variants)


def _check(spec: StudySpec) -> None:
    from schemas.mandate2038.profiles import ProfileError

    try:
        check_spec(spec)
    except ProfileError as exc:
        raise StudyError(str(exc)) from None


def _run(spec: StudySpec, out: Path, **kw: Any) -> dict[str, Any]:
    from schemas.mandate2038.profiles import ProfileError

    try:
        return run_study(spec, out, **kw)
    except ProfileError as exc:
        raise StudyError(str(exc)) from None


def _compare(folder: Path, against: Path | None, players: int | None, replicates: int,
             seed: int) -> dict[str, Any]:
    """Mandate's comparison on the Balance contract (:func:`ingest.mandate2038.compare.compare`,
    imported when called: numpy and duckdb stay out of ``study``'s start)."""
    from ingest.mandate2038.compare import compare

    return compare(folder, against=against, players=players, replicates=replicates, seed=seed)


def _text(result: dict[str, Any]) -> str:
    from ingest.mandate2038.compare import format_text

    return format_text(result)


#: Mandate 2038's study parts (its declaration's ``designer_loop.study``): line-ups of strategy
#: profiles under policies; compared on the Balance contract (ingest/mandate2038/compare.py)
STUDY = StudyParts(spec=spec_from_options, check=_check, run=_run, problems=study_problems,
                   compare=_compare, text=_text, view="dashboards.mandate2038.variants:show")
