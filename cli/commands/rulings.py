"""``playtest rulings``: List the rulings, their options, defaults and named sets."""

from __future__ import annotations

import argparse
from typing import Any

from cli.common import (
    EXIT_OK,
)


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



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``rulings`` to the ``playtest`` subcommands."""
    rl = sub.add_parser("rulings", help="list the rulings, their options, defaults and sets")
    rl.set_defaults(func=cmd_rulings)
