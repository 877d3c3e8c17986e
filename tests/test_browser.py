"""Browser test: serve the dashboard, open every page in headless Chromium, record a short game.

Marker ``browser``. Skipped with the reason when Debian's chromium (/usr/bin/chromium) or the
Playwright package is missing. Screenshots of every page go to test-output/screenshots/.
Bounded: the server must answer within 30 s and the whole test stays around 90 s.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards import drafts, sample_warehouse
from tests.served_app import served_app

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output" / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGES = {  # url path -> title ("" is the default page, Games)
    "": "Games", "audit": "Audit", "replay": "Replay viewer", "duration": "Duration",
    "scoring": "Scoring sources", "endings": "World Endings",
    "observations": "Observation protocols", "balance": "Balance", "import": "Import",
    "record": "Record a game", "variants": "Variants",
}

ANALYTICS = {"", "audit", "duration", "scoring", "endings", "observations", "balance"}

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
try:
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError as err:  # pragma: no cover
    pytest.skip(f"playwright is not installed: {err}", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app served on a free local port over a small sample warehouse."""
    db = tmp_path_factory.mktemp("browser") / "playtest.duckdb"
    try:
        sample_warehouse.build_with_pipeline(db, simulated=3, human=2)
    except Exception:
        for p in db.parent.iterdir():
            if p.is_file():
                p.unlink()
            elif p.is_dir():
                shutil.rmtree(p)
        sample_warehouse.build(db)
    with served_app(db) as base:
        yield base, db


def _settled(page: Page, title: str) -> None:
    expect(page.locator("h1").filter(has_text=title).first).to_be_visible(timeout=20_000)
    # the script has finished when Streamlit's running indicator stays away for ~1 s (it shows
    # up a moment after a run starts, so one look is not enough)
    quiet, deadline = 0, time.monotonic() + 30
    while quiet < 4 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        running = page.locator('[data-testid="stStatusWidgetRunningIcon"]').count() > 0
        quiet = 0 if running else quiet + 1
    assert page.locator('[data-testid="stException"]').count() == 0, f"{title}: an exception"


def test_every_page_and_a_recorded_game(server: tuple[str, Path]) -> None:
    base, db = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    expect.set_options(timeout=20_000)
    started = time.monotonic()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        page.set_default_timeout(20_000)
        for url, title in PAGES.items():
            page.goto(f"{base}/{url}")
            _settled(page, title)
            if url == "duration":  # the sample's human games are illustrative: include them
                page.get_by_text("Include other sessions (").click()
                _settled(page, title)
            if url in ("duration", "scoring", "endings", "balance", "audit"):
                expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
            if url == "replay":
                expect(page.locator('[data-testid="stImage"]').first).to_be_visible()
            assert page.get_by_text("Page not found").count() == 0, url
            page.screenshot(path=str(SHOTS / f"{url or 'games'}.png"), full_page=True)

        # "Evidence only" switched on once stays on through every analytics page, reached by
        # the sidebar's navigation in one session (a page without filters in between)
        page.goto(f"{base}/")
        _settled(page, "Games")
        switch = page.get_by_role("switch", name="Evidence only")
        assert not switch.is_checked()
        page.locator('[data-testid="stSidebar"]').get_by_text("Evidence only").click()
        _settled(page, "Games")
        expect(switch).to_be_checked()
        for url in ("duration", "record", "scoring", "endings", "import", "observations",
                    "balance", "audit", "", "duration"):
            title = PAGES[url]
            page.locator('[data-testid="stSidebarNav"] a').filter(has_text=title).first.click()
            _settled(page, title)
            if url in ANALYTICS:
                expect(page.get_by_role("switch", name="Evidence only")).to_be_checked()
                expect(page.get_by_text("Excluded from", exact=False).first).to_be_visible()
        page.screenshot(path=str(SHOTS / "evidence-still-on.png"), full_page=True)

        # a finding's link on the Audit page opens the Replay viewer at its event
        page.goto(f"{base}/audit")
        _settled(page, "Audit")
        links = page.locator('[data-testid="stPageLink"] a').filter(has_text="event ")
        if links.count():
            href = links.first.get_attribute("href") or ""
            links.first.click()
            _settled(page, "Replay viewer")
            assert "game=" in page.url and "event=" in page.url, page.url
            event = href.split("event=")[1].split("&")[0]
            expect(page.get_by_text(f"Event {event}", exact=False).first).to_be_visible()

        # record a short game: start, Era I Mandate, Headline, secret selection
        page.goto(f"{base}/record")
        _settled(page, "Record a game")
        page.get_by_role("button", name="Start recording").click()
        expect(page.get_by_text("1 event", exact=True)).to_be_visible()
        page.get_by_role("button", name="Era I begins").first.click()
        expect(page.get_by_text("2 events")).to_be_visible()
        page.get_by_role("button", name="Cycle 1: Headline").first.click()
        expect(page.get_by_text("3 events")).to_be_visible()
        # nothing is preselected: Reveal with no choice records nothing
        page.get_by_role("button", name="Reveal selections").click()
        expect(page.get_by_text("nothing was recorded", exact=False)).to_be_visible()
        expect(page.get_by_text("3 events")).to_be_visible()
        pickers = page.get_by_placeholder("Choose the revealed card")
        expect(pickers).to_have_count(4)
        for i in range(4):  # choose each seat's revealed card
            pickers.nth(i).click()
            page.get_by_role("option").first.click()
            _settled(page, "Record a game")
        page.get_by_role("button", name="Reveal selections").click()
        try:
            expect(page.get_by_text("4 events")).to_be_visible()
        except AssertionError:
            page.screenshot(path=str(SHOTS / "record-failed.png"), full_page=True)
            raise
        assert "draft=" in page.url
        page.screenshot(path=str(SHOTS / "record-in-progress.png"), full_page=True)

        # reload mid-game: the draft is intact, on screen and on disk
        page.reload()
        _settled(page, "Record a game")
        expect(page.get_by_text("4 events")).to_be_visible()
        draft_id = page.url.split("draft=")[1].split("&")[0]
        d = drafts.load(db.parent / "drafts", draft_id)
        assert [e["type"] for e in d.events] == ["phase", "era_start", "headline", "reveal"]
        page.screenshot(path=str(SHOTS / "record-after-reload.png"), full_page=True)
        browser.close()
    assert time.monotonic() - started < 240  # wall time on a shared machine: a bound, not a benchmark
