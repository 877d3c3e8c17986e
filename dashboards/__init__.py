"""The Streamlit dashboard of the playtest toolkit.

``serve(db_path)`` runs ``streamlit run dashboards/app.py`` with the database passed in the
environment variable ``PLAYTEST_DB`` and blocks until the server stops. The pages live in
``dashboards/views/``; SQL lives in ``dashboards/queries.py`` and chart builders in
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


def free_port() -> int:
    """A TCP port that is free on localhost right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def streamlit_command(port: int, open_browser: bool = False) -> list[str]:
    """The command line that serves the app on ``port`` (headless unless a browser is wanted)."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP_PATH),
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "false" if open_browser else "true",
        "--server.maxUploadSize", "20",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]


def serve(db_path: str | os.PathLike[str], port: int | None = None, open_browser: bool = False) -> int:
    """Serve the dashboard on ``db_path``; print the URL and block. Returns the exit status."""
    port = port or free_port()
    env = dict(os.environ)
    env[DB_ENV] = str(Path(db_path).resolve())
    url = f"http://127.0.0.1:{port}"
    print(f"Playtest dashboard: {url}  (database {env[DB_ENV]})", flush=True)
    proc = subprocess.Popen(streamlit_command(port, open_browser), env=env)

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


__all__ = ["APP_PATH", "DB_ENV", "free_port", "serve", "streamlit_command"]
