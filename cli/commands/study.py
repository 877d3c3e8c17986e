"""``playtest study``: Play strategy-profile line-ups at scale (Ray) into Parquet tables."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
    _player_counts,
    _stderr_console,
)


def cmd_study(args: argparse.Namespace) -> int:
    from engine.mandate2038 import RULESET
    from engine.simulate import SimulationError
    from ingest.mandate2038.study import StudyError, StudySpec, run_study
    from schemas.mandate2038.profiles import ProfileError

    counts = _player_counts(args.players, RULESET.player_counts)
    policies = tuple(x.strip() for x in str(args.policy).split(",") if x.strip())
    if policies == ("designers",):
        from ingest.mandate2038.study import DESIGNERS_POLICIES

        policies = DESIGNERS_POLICIES
    lineup = tuple(x.strip() for x in str(args.lineup or "").split(",") if x.strip())
    from cli.commands.variant import study_variants
    from schemas.variants import VariantError

    try:
        variants = study_variants(args)
    except VariantError as exc:
        raise CliError("\n".join(str(p) for p in exc.problems)) from None
    spec = StudySpec(games=args.games, players=tuple(counts), profiles=args.profiles,
                     profile_ids=lineup, policies=policies or ("default",), seed=str(args.seed),
                     batch_size=args.batch, variants=variants)
    out = Path(args.out)
    from rich.progress import Progress

    from ingest.mandate2038.study import check_spec

    try:
        check_spec(spec)  # bounds first: the batches of --games 99999999999 are not listed
    except (StudyError, ProfileError) as exc:
        raise CliError(str(exc)) from None
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



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``study`` to the ``playtest`` subcommands."""
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
    from cli.commands.variant import add_study_options

    add_study_options(st)
