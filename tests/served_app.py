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

#: Debian's chromium, driven by Playwright in the browser tests
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: scroll every scrolling part of the page back to the top (a click scrolls its target into view)
TO_TOP = """() => { window.scrollTo(0, 0);
  for (const e of document.querySelectorAll('*')) { if (e.scrollTop) e.scrollTop = 0; } }"""


def require_browser() -> None:
    """Skip the calling test module, saying why, when Chromium or Playwright is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)",
                    allow_module_level=True)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as err:  # pragma: no cover
        pytest.skip(f"playwright is not installed: {err}", allow_module_level=True)


def settled(page: object, title: str, quiet_runs: int = 4) -> None:
    """Wait until the page titled ``title`` is drawn and Streamlit's running indicator stays
    away (it shows up a moment after a run starts, so one look is not enough); no exception
    box on it."""
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    expect(page.locator("h1").filter(has_text=title).first).to_be_visible(timeout=20_000)
    quiet, deadline = 0, time.monotonic() + 30
    while quiet < quiet_runs and time.monotonic() < deadline:
        page.wait_for_timeout(150)
        running = page.locator('[data-testid="stStatusWidgetRunningIcon"]').count() > 0
        quiet = 0 if running else quiet + 1
    assert page.locator('[data-testid="stException"]').count() == 0, f"{title}: an exception"


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
