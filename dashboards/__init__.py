"""The Streamlit dashboard of the playtest toolkit: one app for every registered game.

``serve(db_path)`` runs ``streamlit run dashboards/app.py`` with the database passed in the
environment variable ``PLAYTEST_DB`` and blocks until the server stops. The pages live in
``dashboards/views/`` (listed by ``dashboards/navigation.py``); what differs per game is
dispatched in one place, ``dashboards/gameapps/``, from each game's declaration; the shared SQL
lives in ``dashboards/queries.py`` (a game's own in ``<game>_queries.py``) and chart builders in
``dashboards/charts.py`` so that page code only arranges them (STYLE.md principle 9).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

APP_PATH = Path(__file__).with_name("app.py")
DB_ENV = "PLAYTEST_DB"


#: Streamlit's own default port, used when nothing else chooses one
DEFAULT_PORT = 8501
#: the default address: this computer only (``--address 0.0.0.0`` lets a tablet on the same
#: network reach the laptop at the table)
DEFAULT_ADDRESS = "127.0.0.1"
PORT_ENV = "STREAMLIT_SERVER_PORT"
ADDRESS_ENV = "STREAMLIT_SERVER_ADDRESS"


class ServeError(Exception):
    """The dashboard cannot be served as asked (bad port, port in use); the message says why."""


def free_port() -> int:
    """A TCP port that is free on localhost right now (tests; the CLI follows Streamlit)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _streamlit_option(name: str) -> object | None:
    """A Streamlit option set in a ``.streamlit/config.toml`` (None when left at its default)."""
    try:
        from streamlit import config

        if config.get_where_defined(name) == "<default>":
            return None
        value: object = config.get_option(name)
        return value
    except Exception:  # a broken config file: Streamlit itself will say so when it starts
        return None


def resolve_port(port: int | None = None) -> tuple[int, str]:
    """(port, where it came from), in Streamlit's order: the ``--port`` option, then
    ``STREAMLIT_SERVER_PORT``, then ``server.port`` in a Streamlit config file, else 8501."""
    if port is not None:
        chosen, origin = port, "--port"
    elif os.environ.get(PORT_ENV, "").strip():
        raw = os.environ[PORT_ENV].strip()
        if not raw.isascii() or not raw.isdigit():
            raise ServeError(f"{PORT_ENV}={raw[:20]!r} is not a port number")
        chosen, origin = int(raw), PORT_ENV
    elif (opt := _streamlit_option("server.port")) is not None:
        chosen, origin = int(str(opt)), "Streamlit config server.port"
    else:
        chosen, origin = DEFAULT_PORT, "Streamlit's default"
    if not 1 <= chosen <= 65535:
        raise ServeError(f"port {chosen} (from {origin}) is not between 1 and 65535")
    return chosen, origin


def resolve_address(address: str | None = None) -> str:
    """The address to listen on: ``--address``, ``STREAMLIT_SERVER_ADDRESS``, Streamlit config
    ``server.address``, else 127.0.0.1 (this computer only)."""
    for value in (address, os.environ.get(ADDRESS_ENV), _streamlit_option("server.address")):
        if value is not None and str(value).strip():
            return str(value).strip()
    return DEFAULT_ADDRESS


def _check_free(address: str, port: int, origin: str) -> None:
    """Refuse a port something listens on. A port a stopped dashboard left in TIME_WAIT is
    free: the server binds it with SO_REUSEADDR (as Tornado does), and so does this check, which
    then fails only when a socket listens there."""
    host = "" if address in ("0.0.0.0", "::") else address
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET,
                       socket.SOCK_STREAM) as s:
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
        except OSError as err:
            raise ServeError(
                f"port {port} (from {origin}) is not free on {address or 'all addresses'}: "
                f"{err.strerror or err}. Another dashboard may be running; choose another "
                f"with --port N or {PORT_ENV}=N") from None


def urls(address: str, port: int) -> list[str]:
    """Where a browser can open the app: localhost, and this computer's network address when
    it listens on every interface."""
    if address in ("0.0.0.0", "::", ""):
        out = [f"http://localhost:{port}"]
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect(("192.0.2.1", 9))  # no packet is sent: this picks the outgoing interface
                out.append(f"http://{s.getsockname()[0]}:{port}")
        except OSError:
            pass
        return out
    host = f"[{address}]" if ":" in address else address
    return [f"http://{host}:{port}"]


def streamlit_command(port: int, open_browser: bool = False,
                      address: str = DEFAULT_ADDRESS) -> list[str]:
    """The command line that serves the app on ``address:port`` (headless unless a browser is
    wanted)."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP_PATH),
        "--server.port", str(port),
        "--server.address", address,
        "--server.headless", "false" if open_browser else "true",
        "--server.maxUploadSize", "20",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]


def serve(db_path: str | os.PathLike[str], port: int | None = None, open_browser: bool = False,
          address: str | None = None) -> int:
    """Serve the dashboard on ``db_path``; print the URL and block. Returns the exit status.

    The port follows Streamlit's conventions (:func:`resolve_port`); raises :class:`ServeError`
    when it is not a port or is taken.
    """
    chosen, origin = resolve_port(port)
    where = resolve_address(address)
    _check_free(where, chosen, origin)
    env = dict(os.environ)
    env[DB_ENV] = str(Path(db_path).resolve())
    env.pop(PORT_ENV, None)  # the command line says it; one source of truth for the child
    env.pop(ADDRESS_ENV, None)
    shown = "  ".join(urls(where, chosen))
    print(f"Playtest dashboard: {shown}  (port from {origin}; database {env[DB_ENV]})",
          flush=True)
    proc = subprocess.Popen(streamlit_command(chosen, open_browser, where), env=env)

    def stop(signum: int, frame: object) -> None:  # SIGTERM: take the server down with us
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop) if _main_thread() else None
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        return 0
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


__all__ = ["APP_PATH", "DB_ENV", "DEFAULT_PORT", "ServeError", "free_port", "resolve_address",
           "resolve_port", "serve", "streamlit_command", "urls"]
