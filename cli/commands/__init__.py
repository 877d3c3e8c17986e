"""The ``playtest`` commands, one module each.

A command module defines ``register(sub, db_parent)``, which adds its subparser to ``sub``
(an ``argparse`` subparsers action) and sets ``func`` to the function that runs it; ``db_parent``
is the parent parser that carries ``--db``. Adding a command is adding its module here and its
name to :data:`COMMANDS` (the order is the order of ``playtest --help``).
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

COMMANDS: tuple[str, ...] = (
    "validate",
    "reaudit",
    "rulings",
    "simulate",
    "study",
    "calibrate",
    "variant",
    "compare",
    "replay",
    "convert",
    "ingest",
    "rebuild",
    "export",
    "dashboard",
    "demo",
    "bench",
)


def register_all(sub: Any, db_parent: argparse.ArgumentParser, only: str | None = None) -> None:
    """Add every command of :data:`COMMANDS` to ``sub``, in order (``only``: that one alone).

    A command may also set ``early_start`` (a function of the parsed arguments) among its defaults:
    ``cli.main`` calls it before the game registry loads, and before ``func``; what it returns
    (a context manager, or None) is closed once the command ends, however it ends."""
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"cli.commands.{name}").register(sub, db_parent)
