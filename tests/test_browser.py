"""Browser test: serve the dashboard over a warehouse of both games, discover every page from the
sidebar's navigation and open each one with each value of the Game filter (all games, then each
game), then record a short Mandate 2038 game.

Marker ``browser``. Skipped with the reason when Debian's chromium (/usr/bin/chromium) or the
Playwright package is missing. Screenshots of every page go to test-output/screenshots/.
Bounded: the server must answer within 30 s and the whole test stays around two minutes.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards import drafts, record_nav
from tests import sample_warehouse
from tests.served_app import served_app

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output" / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: the values of the Game filter: all games (nothing chosen), then each game by its title
GAME_FILTER = (None, "Mandate 2038", "Vestige")
#: how long a person takes to read a decision before answering it
READ_MS = record_nav.SETTLE_MS + 300

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
try:
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError as err:  # pragma: no cover
    pytest.skip(f"playwright is not installed: {err}", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app served on a free local port over a small warehouse of both games."""
    db = tmp_path_factory.mktemp("browser") / "playtest.duckdb"
    sample_warehouse.build(db, simulated=2, human=1, vestige=1)
    with served_app(db) as base:
        yield base, db


def _settled(page: Page, title: str) -> None:
    expect(page.locator("h1").filter(has_text=title).first).to_be_visible(timeout=20_000)
    # the script has finished when Streamlit's running indicator stays away for ~1 s (it shows
    # up a moment after a run starts, so one look is not enough)
    quiet, deadline = 0, time.monotonic() + 30
    while quiet < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(150)
        running = page.locator('[data-testid="stStatusWidgetRunningIcon"]').count() > 0
        quiet = 0 if running else quiet + 1
    assert page.locator('[data-testid="stException"]').count() == 0, f"{title}: an exception"
    assert page.get_by_text("Traceback", exact=False).count() == 0, f"{title}: a traceback"


def _nav(page: Page) -> list[tuple[str, str]]:
    """(title, address) of every page in the sidebar's navigation, as a visitor sees it."""
    more = page.locator('[data-testid="stSidebarNavViewButton"]')
    if more.count() and "more" in more.first.inner_text().lower():
        more.first.click()
    links = page.locator('[data-testid="stSidebarNav"] a')
    out = []
    for i in range(links.count()):
        a = links.nth(i)
        # the link's text is the icon's ligature name, then the title
        out.append((a.inner_text().strip().splitlines()[-1].strip(), a.get_attribute("href") or ""))
    return out


def _choose_game(page: Page, game: str, replace: bool) -> None:
    """Choose ``game`` in the sidebar's Game filter (``replace``: instead of the one chosen)."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]').filter(
        has_text="Game")
    box.first.click()
    if replace:
        page.keyboard.press("Backspace")
    page.keyboard.type(game)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")


def test_every_page_with_each_game_filter_value(server: tuple[str, Path]) -> None:
    """Pages are discovered from the sidebar (not a list kept here); each is opened with each
    value of the Game filter, reached through the sidebar so the filter is the one kept for the
    session: no exception box and no traceback on any of them."""
    base, _ = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    expect.set_options(timeout=20_000)
    started = time.monotonic()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(20_000)
        page.goto(f"{base}/")
        _settled(page, "Games")
        pages = _nav(page)
        titles = [t for t, _ in pages]
        assert {"Record a game", "Games", "Audit", "Replay viewer", "Duration",
                "Scoring sources", "End conditions", "Observation protocols",
                "Balance"} <= set(titles), titles
        for k, game in enumerate(GAME_FILTER):
            if game is not None:  # on the Games page, which draws the filters
                page.locator('[data-testid="stSidebarNav"] a').filter(
                    has_text="Games").first.click()
                _settled(page, "Games")
                _choose_game(page, game, replace=k > 1)
                _settled(page, "Games")
                expect(page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]'
                                    ).filter(has_text="Game").first).to_contain_text(game)
            if game == GAME_FILTER[-1]:  # "Evidence only" on too: it must hold on every page
                page.locator('[data-testid="stSidebar"]').get_by_text("Evidence only").click()
                _settled(page, "Games")
            for title, _href in pages:
                page.locator('[data-testid="stSidebarNav"] a').filter(
                    has_text=title).first.click()
                _settled(page, title)
                assert page.get_by_text("Page not found").count() == 0, title
                if game is not None and title == "Games":  # the choice is kept for the session
                    expect(page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]'
                                        ).filter(has_text="Game").first).to_contain_text(game)
                switch = page.get_by_role("switch", name="Evidence only")
                if game == GAME_FILTER[-1] and switch.count():
                    expect(switch.first).to_be_checked()
                    expect(page.get_by_text("Excluded from", exact=False).first).to_be_visible()
                if game is None:
                    slug = title.lower().replace(" ", "-").replace(":", "")
                    page.screenshot(path=str(SHOTS / f"{slug}.png"))
                print(f"{game or 'all games'} · {title}: {time.monotonic() - started:.0f} s")
        browser.close()
    # wall time is measured (printed per page above), never asserted


def test_audit_link_and_a_recorded_game(server: tuple[str, Path]) -> None:
    base, db = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    expect.set_options(timeout=20_000)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        page.set_default_timeout(20_000)
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
        # a decision answered faster than a person reads it is the rest of a double tap
        # (dashboards.record_nav.SETTLE_MS): read each decision first
        page.wait_for_timeout(READ_MS)
        page.get_by_role("button", name="Era I begins").first.click()
        expect(page.get_by_text("2 events")).to_be_visible()
        page.wait_for_timeout(READ_MS)
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
    # wall time is not asserted (a busy machine is not a failure)


def test_every_page_is_one_click_away(server: tuple[str, Path]) -> None:
    """The sidebar lists every page of the app at once, grouped by section: none is folded
    behind "View more"."""
    from dashboards.navigation import all_pages

    base, _ = server
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.set_default_timeout(20_000)
        page.goto(f"{base}/")
        _settled(page, "Games")
        more = page.locator('[data-testid="stSidebarNavViewButton"]')
        assert not (more.count() and "more" in more.first.inner_text().lower()), "View more"
        links = page.locator('[data-testid="stSidebarNav"] a')
        shown = {links.nth(i).inner_text().strip().splitlines()[-1].strip()
                 for i in range(links.count())}
        assert {p.title for p in all_pages()} <= shown, shown
        browser.close()
