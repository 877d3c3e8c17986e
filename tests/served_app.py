"""Serve the dashboard on a free local port for a browser test (one helper for every such test)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from dashboards import free_port, streamlit_command


@contextmanager
def served_app(db: Path) -> Iterator[str]:
    """Run the app on ``db`` (no write password) and yield its base URL; stop it afterwards."""
    port = free_port()
    env = {**os.environ, "PLAYTEST_DB": str(db)}
    env.pop("PLAYTEST_WRITE_PASSWORD", None)
    proc = subprocess.Popen(streamlit_command(port), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err = proc.stderr.read().decode(errors="replace")[-2000:] if proc.stderr else ""
            pytest.fail(f"the dashboard did not start: {err}")
        time.sleep(0.3)
    try:
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
