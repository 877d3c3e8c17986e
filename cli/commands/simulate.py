"""``playtest simulate``: Write games played by bots through the engine."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
    _player_counts,
    _stderr_console,
    bots_help,
    games_help,
    player_counts_help,
    simulated_games,
)
from engine.core.registry import DEFAULT_GAME


def _simulation_ruleset(game: str) -> Any:
    from engine.simulate import ruleset_for

    try:
        return ruleset_for(game)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.simulate import SimulationError, simulate_one
    from schemas.canonical import dumps_log

    if args.games < 1:
        raise CliError("--games must be at least 1")
    rs = _simulation_ruleset(args.game)
    counts = _player_counts(args.players, rs.player_counts)
    bots = rs.bot_names
    if bots and args.bot not in bots:
        raise CliError(f"--bot {args.bot}: the {rs.title} simulator has bots {', '.join(bots)}")
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

    variant = _variant(args, rs)
    if rs.prepare_simulation is not None:  # start-up (imports, content) before the clock
        rs.prepare_simulation()
    written = 0
    play_cpu = 0.0  # CPU seconds of playing the games (start-up and writing excluded)
    t_all = time.process_time()
    from ingest.gc_tuning import bulk_play

    with Progress(transient=True, console=_stderr_console()) as bar, bulk_play():
        task = bar.add_task("simulating", total=args.games)
        for i in range(args.games):
            t0 = time.thread_time()  # this thread's CPU: the progress bar draws on its own thread
            try:
                if variant is None:
                    log = simulate_one(args.seed, i, counts[i % len(counts)], args.bot,
                                       game=args.game)
                else:
                    log = rs.simulate_one(args.seed, i, counts[i % len(counts)], args.bot,
                                          variant=variant)
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
    under = f" under the rules variant {variant.name} ({variant.hash})" if variant else ""
    print(f"wrote {written} simulated {rs.title} game(s){under} to {out}")
    print(f"speed: {written / max(play_cpu, 1e-9):.1f} games per CPU-second playing "
          f"({play_cpu:.2f} CPU s), {written / max(all_cpu, 1e-9):.1f} with writing the logs "
          f"({all_cpu:.2f} CPU s); start-up excluded")
    return EXIT_OK



def _variant(args: argparse.Namespace, rs: Any) -> Any:
    """The stamp of ``--variant FILE`` (a variant of ``--game``), or None."""
    if not getattr(args, "variant", None):
        return None
    import inspect

    from ingest.variants import load_variant
    from schemas.variants import VariantError, printable

    try:
        lv = load_variant(args.variant)
    except VariantError as exc:
        raise CliError("\n".join(str(p) for p in exc.problems)) from None
    if lv.file.game != args.game:
        raise CliError(f"--variant {printable(str(args.variant))}: a variant of "
                       f"{lv.file.game!r}, not of {args.game!r} (name its game with --game)")
    if "variant" not in inspect.signature(rs.simulate_one).parameters:
        raise CliError(f"the {rs.title} simulator cannot play rules variants")
    return lv.stamp


def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``simulate`` to the ``playtest`` subcommands."""
    s = sub.add_parser("simulate", help="write games played by bots through the engine")
    games = simulated_games()  # the registry's order: the default game first when installed
    s.add_argument("--game", default=games[0] if games else DEFAULT_GAME, choices=games,
                   metavar="GAME", help="the game to simulate: " + games_help(games))
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--players", default="4",
                   help="a player count the game allows (" + player_counts_help()
                        + "), or a list such as 3,4,5 used in turn")
    s.add_argument("--seed", default="0")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="where to write the games (default: simulated/GAME-seed-SEED)")
    s.add_argument("--bot", default="mixed", help="the game's bots: " + bots_help())
    s.add_argument("--variant", default=None, metavar="FILE",
                   help="play under this rules variant (its stamp in every log's header; "
                        "docs/variants.md)")
    s.set_defaults(func=cmd_simulate)
