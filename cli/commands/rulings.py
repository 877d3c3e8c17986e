"""``playtest rulings``: List the rulings, their options, defaults and named sets."""

from __future__ import annotations

import argparse
from typing import Any

from cli.common import (
    EXIT_OK,
)
from engine.core.registry import game_ids


def cmd_rulings(args: argparse.Namespace) -> int:
    """Print each game's rulings: each ruling, its options (default marked, with the value the
    rules code reads) and the named sets."""
    from engine.core.options import book_for
    from engine.core.registry import rulesets

    games = rulesets()
    if args.game is not None:
        games = {args.game: games[args.game]}
    first = True
    for rs in games.values():
        book = book_for(rs)
        if not book.rulings:
            continue
        if not first:
            print()
        first = False
        print(f"{rs.title} rulings (rules {book.rules_version}, rulings version {book.version})")
        for r in book.rulings.values():
            print(f"\n{r.id}: {r.topic}")
            for opt, text in r.options.items():
                value = f" [value: {_short(r.values[opt])}]" if opt in r.values else ""
                print(f"  {'*' if opt == r.default else ' '} {opt}: {text}{value}")
        print("\nsets: " + "; ".join(
            f"{name} ({', '.join(f'{k}={v}' for k, v in sorted(m.items())) or 'the defaults'})"
            for name, m in book.sets.items()))
    if first:
        print("no installed game declares rulings")
    return EXIT_OK


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``rulings`` to the ``playtest`` subcommands."""
    rl = sub.add_parser("rulings", help="list each game's rulings (the points its rules leave "
                        "open), their options, defaults and sets")
    rl.add_argument("--game", choices=game_ids(), default=None,
                    help="only this game's rulings (default: every game's)")
    rl.set_defaults(func=cmd_rulings)
