"""``playtest convert``: Convert a game log between formats."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
    _one_game,
    format_names,
)


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



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``convert`` to the ``playtest`` subcommands."""
    c = sub.add_parser("convert", help="convert a game log between formats")
    c.add_argument("input", metavar="IN")
    c.add_argument("--to", choices=format_names(), required=True,
                   help="json, or a format of the log's game (" + ", ".join(format_names()[1:]) + ")")
    c.add_argument("-o", "--output", metavar="OUT")
    c.set_defaults(func=cmd_convert)
