"""Browser test: record a short Vestige game in headless Chromium, reload mid-game, find the draft
intact (on screen and on disk), undo once.

Marker ``browser``. Skipped with the reason when Debian's chromium (/usr/bin/chromium) or the
Playwright package is missing. Bounded: the server must answer within 30 s.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards import drafts
from tests.served_app import served_app

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output" / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TITLE = "Record a Vestige game"

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
try:
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError as err:  # pragma: no cover
    pytest.skip(f"playwright is not installed: {err}", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("vbrowser") / "playtest.duckdb"
    with served_app(db) as base:
        yield base, db


def _settled(page: Page) -> None:
    expect(page.locator("h1").filter(has_text=TITLE).first).to_be_visible(timeout=20_000)
    quiet, deadline = 0, time.monotonic() + 30
    while quiet < 4 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        running = page.locator('[data-testid="stStatusWidgetRunningIcon"]').count() > 0
        quiet = 0 if running else quiet + 1
    assert page.locator('[data-testid="stException"]').count() == 0, "an exception on the page"


def _events_recorded(page: Page) -> str:
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Events recorded")
    return metric.locator('[data-testid="stMetricValue"]').inner_text().strip()


def test_record_reload_and_find_the_draft_intact(server: tuple[str, Path]) -> None:
    base, db = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    expect.set_options(timeout=20_000)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        page.set_default_timeout(20_000)
        page.goto(f"{base}/vestige-record")
        _settled(page)
        page.get_by_role("button", name="Start recording").click()
        _settled(page)
        expect(page.get_by_text("Events recorded")).to_be_visible()
        for n in range(1, 5):
            page.get_by_role("button", name="Record", exact=True).click()
            _settled(page)
            expect(page.locator('[data-testid="stMetric"]').filter(has_text="Events recorded")
                   .locator('[data-testid="stMetricValue"]')).to_have_text(str(n))
        assert "vdraft=" in page.url
        draft_id = page.url.split("vdraft=")[1].split("&")[0]
        # reload mid-game: the draft is intact, on screen and on disk
        page.reload()
        _settled(page)
        assert _events_recorded(page) == "4"
        d = drafts.load(db.parent / "drafts", draft_id)
        assert d.status == "open" and len(d.events) == 4 and d.header["game"] == "vestige"
        assert all("t" in e for e in d.events), "every event is stamped when recorded"
        page.get_by_role("button", name="Undo last event").click()
        _settled(page)
        assert _events_recorded(page) == "3"
        assert len(drafts.load(db.parent / "drafts", draft_id).events) == 3
        page.screenshot(path=str(SHOTS / "vestige-record-after-reload.png"), full_page=True)
        browser.close()
