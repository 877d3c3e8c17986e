"""``playtest study``: play a game's designer-loop study at scale (Ray) into Parquet tables:
every game that declares a designer loop (engine.core.game.DesignerLoop; ingest/study.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
    _player_counts,
    _stderr_console,
    games_help,
)
from engine.core.registry import DEFAULT_GAME


def _studied_games() -> list[str]:
    from engine.core.registry import rulesets

    games = [g for g, rs in rulesets().items() if rs.designer_loop is not None]
    return games or [DEFAULT_GAME]


def cmd_study(args: argparse.Namespace) -> int:
    from engine.core.registry import get_ruleset
    from engine.simulate import SimulationError
    from ingest.study import StudyError, study_parts

    rs = get_ruleset(args.game)
    if rs is None:
        raise CliError(f"--game {args.game}: no installed game has this id")
    try:
        parts = study_parts(args.game)
    except StudyError as exc:
        raise CliError(str(exc)) from None
    counts = _player_counts(args.players, rs.player_counts)
    variants = _variants(args)
    options = {"games": args.games, "players": tuple(counts), "seed": str(args.seed),
               "batch_size": args.batch, "profiles": args.profiles, "lineup": args.lineup,
               "policy": args.policy}
    out = Path(args.out)
    from rich.progress import Progress

    try:
        spec = parts.spec(options, variants)
        parts.check(spec)  # bounds first: the batches of --games 99999999999 are not listed
    except ValueError as exc:
        raise CliError(str(exc)) from None
    total = len(spec.batches())
    try:
        with Progress(transient=True, console=_stderr_console()) as bar:
            task = bar.add_task("study batches", total=total)

            def progress(r: Any, done: int, todo: int) -> None:
                bar.update(task, completed=total - todo + done)

            def say(msg: str) -> None:
                bar.console.print(msg)

            summary = parts.run(spec, out, backend=args.backend, workers=args.workers,
                                address=args.address, on_batch=progress, say=say)
    except SimulationError as exc:
        raise CliError(f"a study game could not be simulated: {exc}", 1) from None
    except ValueError as exc:
        raise CliError(str(exc)) from None
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


def _variants(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """The study's arms: ``--variant FILE`` (each a variant of ``--game``) and ``--sweep``
    over a knob of ``--game``."""
    import copy

    from cli.commands.variant import study_variants
    from ingest.variants import read_variant, sweep_variants
    from schemas.variants import VariantError, printable

    try:
        for path in args.variant or []:
            game = read_variant(path).game
            if game != args.game:
                raise CliError(f"--variant {printable(str(path))}: a variant of {game!r}, not "
                               f"of {args.game!r} (name its game with --game)")
        files = copy.copy(args)
        files.sweep = None
        variants = study_variants(files)
        swept = [lv for spec in args.sweep or [] for lv in sweep_variants(None, spec,
                                                                          game=args.game)]
    except VariantError as exc:
        raise CliError("\n".join(str(p) for p in exc.problems)) from None
    out = (*variants, *((lv.name, lv.stamp.model_dump_json()) for lv in swept))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise CliError("--variant/--sweep: two arms of the study share a name")
    return out


def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``study`` to the ``playtest`` subcommands."""
    st = sub.add_parser("study", help="play a game's study (strategy-profile line-ups, bots) "
                        "at scale (Ray) into Parquet tables")
    games = _studied_games()
    st.add_argument("--game", default=DEFAULT_GAME if DEFAULT_GAME in games else games[0],
                    metavar="GAME", choices=games,
                    help="the game to study (a game declaring a designer loop): "
                         + games_help(games))
    st.add_argument("--games", type=int, default=100, help="games per player count (and per policy)")
    st.add_argument("--players", default="4", help="a player count of the game, or a list "
                    "such as 3,4,5")
    st.add_argument("--profiles", default="default",
                    help="a profile set (data/profiles/<name>.json) or a profile file "
                         "(games with strategy profiles)")
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
