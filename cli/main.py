"""The ``playtest`` command line (DESIGN.md §4): validate, reaudit, rulings, simulate, study,
calibrate, replay, convert, ingest, rebuild, export, dashboard, demo and bench, one module each in
``cli/commands/`` (shared helpers in ``cli/common.py``).

``main(argv) -> int`` never lets a traceback reach the user: bad input or a busy database
becomes one clear message on stderr and an exit
status (0 ok, 1 rule errors found, 2 unreadable input or a usage/storage problem, 3 an
internal error, reported in one line).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from cli.commands import COMMANDS, register_all
from cli.common import (  # noqa: F401 - re-exported: the names other code imports from cli.main
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNREADABLE,
    CliError,
    Loaded,
    _err,
    _player_counts,
    _read_one,
    read_logs,
    validate_one,
    with_rulings,
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argparse parser of ``playtest``; ``only``: with that command alone (the others'
    modules are not imported)."""
    db_parent = argparse.ArgumentParser(add_help=False)
    db_parent.add_argument("--db", default=argparse.SUPPRESS,
                           help="the DuckDB database (default: $PLAYTEST_DB or data/warehouse/playtest.duckdb)")
    p = argparse.ArgumentParser(prog="playtest", description="Record, audit and analyse board-game playtests (Mandate 2038, Vestige).")
    p.add_argument("--db", default=None, help=argparse.SUPPRESS)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    register_all(sub, db_parent, only=only)
    return p


def _say_refused() -> None:
    """Name each game plugin the registry did not load (and each page it dropped), once per
    command, on stderr: the other games are served as usual."""
    from engine.core.registry import refused

    for refusal in refused():
        _err(refusal.text())


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``playtest`` with ``argv`` (default: the process arguments); return the exit status."""
    words = list(argv) if argv is not None else sys.argv[1:]
    # A command named first is parsed by a parser of that command alone, so only its module is
    # imported (all sixteen import ~0.5 s of rules and schemas); anything else (--help, an
    # option first, a mistyped name) by the whole parser.
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    try:
        args = parser.parse_args(words)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        _say_refused()
        return int(exc.code) if isinstance(exc.code, int) else EXIT_UNREADABLE
    if not getattr(args, "command", None):
        _say_refused()
        parser.print_help()
        return EXIT_UNREADABLE
    from ingest.db import StorageError

    try:
        # what a command starts before the game registry loads (ingest: its worker processes,
        # which then import beside this one); closed here whatever happens after (the command
        # may close it first: closing is idempotent)
        with contextlib.ExitStack() as started:
            try:
                start = getattr(args, "early_start", None)
                if start is not None and (resource := start(args)) is not None:
                    started.enter_context(resource)
            finally:
                _say_refused()
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
