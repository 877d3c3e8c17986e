"""``playtest dashboard``: Serve the dashboard."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import (
    EXIT_OK,
    CliError,
    _db_path,
)


def _serve(db: Path, port: int | None, open_browser: bool, address: str | None = None) -> Any:
    import dashboards

    try:
        return dashboards.serve(db, port=port, open_browser=open_browser, address=address)
    except dashboards.ServeError as err:
        raise CliError(str(err)) from None


def _serve_options(p: argparse.ArgumentParser) -> None:
    """--port, --address, --open of ``dashboard`` and ``demo`` (Streamlit's conventions)."""
    p.add_argument("--port", type=int, default=None,
                   help="port to serve on (default: STREAMLIT_SERVER_PORT, else server.port in "
                   ".streamlit/config.toml, else 8501)")
    p.add_argument("--address", default=None,
                   help="address to listen on (default: STREAMLIT_SERVER_ADDRESS, else "
                   "127.0.0.1, this computer only; 0.0.0.0 lets a tablet on the same network "
                   "connect)")
    p.add_argument("--open", action="store_true", help="open a browser")


def _serve_status(result: Any) -> int:
    """``dashboards.serve`` prints its URL and blocks; it returns the server's exit status."""
    if isinstance(result, int):
        return EXIT_OK if result in (0, -2, -15, 130) else result
    if result:
        print(f"dashboard: {result}")
    return EXIT_OK


def cmd_dashboard(args: argparse.Namespace) -> int:
    db = _db_path(args)
    return _serve_status(_serve(db, args.port, args.open, args.address))



def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``dashboard`` to the ``playtest`` subcommands."""
    d = sub.add_parser("dashboard", parents=[db_parent], help="serve the dashboard")
    _serve_options(d)
    d.set_defaults(func=cmd_dashboard)
