"""``playtest demo``: Load the sample games if the warehouse is empty, then serve."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.commands.dashboard import _serve, _serve_options, _serve_status
from cli.common import (
    EXIT_OK,
    SAMPLES_DIR,
    CliError,
    _db_path,
    _pipeline,
    _summary_text,
)


def _db_game_count(db: Path) -> int:
    """Games in the warehouse (0 when the file or the table does not exist yet)."""
    if not db.exists():
        return 0
    import duckdb

    from ingest.db import connect

    with connect(db, read_only=True) as con:
        try:
            row = con.execute("SELECT count(*) FROM games").fetchone()
        except duckdb.Error:
            return 0
    return int(row[0]) if row else 0


def _sample_folders() -> list[Path]:
    """The toolkit's sample folder, then each registered game's own (``Game.samples_dir``)."""
    from engine.core.registry import rulesets

    folders = [SAMPLES_DIR]
    for rs in rulesets().values():
        if rs.samples_dir is not None and Path(rs.samples_dir).is_dir():
            folders.append(Path(rs.samples_dir))
    return folders


def cmd_demo(args: argparse.Namespace) -> int:
    db = _db_path(args)
    n = _db_game_count(db)
    if n == 0:
        if not SAMPLES_DIR.is_dir():
            raise CliError(f"no bundled sample games at {SAMPLES_DIR}")
        pipeline = _pipeline()
        folders = _sample_folders()
        print(f"the database {db} is empty: ingesting the sample games from "
              f"{', '.join(map(str, folders))}")
        summary = pipeline.ingest_paths(folders, db, progress=True)
        print(_summary_text(summary))
        n = _db_game_count(db)
    print(f"database {db}: {n} game{'' if n == 1 else 's'}")
    if args.no_serve:
        return EXIT_OK
    return _serve_status(_serve(db, args.port, args.open, args.address))



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``demo`` to the ``playtest`` subcommands."""
    dm = sub.add_parser("demo", parents=[db_parent], help="load the sample games if empty, then serve")
    dm.add_argument("--no-serve", action="store_true", help="only prepare the database")
    _serve_options(dm)
    dm.set_defaults(func=cmd_demo)
