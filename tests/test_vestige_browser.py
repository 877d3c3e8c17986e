"""Browser test: record a Vestige game in headless Chromium on a 1366x768 laptop screen, counting
the clicks; reload mid-game, find the draft intact (on screen and on disk), undo once (it asks first), put the
draft aside (it asks first) and reopen it from the Record page's list.

The measure (printed, and kept in ``test-output/vestige-clicks.json``): clicks per recorded
event and the share of forced events (one legal option) recorded in one click. A click is one
pointer action of the facilitator: a button, a segment of the "what does the seat do?" choice,
opening a list or choosing in it. The choices are made by a seeded random pick among the legal
options, so the game moves on as a table's would.

Marker ``browser``. Skipped with the reason when Debian's chromium (/usr/bin/chromium) or the
Playwright package is missing. Bounded: the server must answer within 30 s; about a minute.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards import drafts
from tests.served_app import served_app, settled

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "test-output"
SHOTS = OUT / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TITLE = "Record a game"
LAPTOP = {"width": 1366, "height": 768}
#: events recorded for the measure (setup and the first turns of a 2-player game)
EVENTS = 30

pytestmark = [pytest.mark.browser, pytest.mark.needs_game("vestige")]

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError as err:  # pragma: no cover
    pytest.skip(f"playwright is not installed: {err}", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("vbrowser") / "playtest.duckdb"
    with served_app(db) as base:
        yield base, db


def _settled(page: Page) -> None:
    settled(page, TITLE)


def _vestige_form(browser: Browser, base: str) -> Page:
    """A laptop-sized page on the Record page with Vestige chosen in its Game choice (the list
    of drafts above it names games too)."""
    page = browser.new_page(viewport=LAPTOP)
    page.set_default_timeout(20_000)
    page.goto(f"{base}/record")
    _settled(page)
    page.locator('[data-testid="stMain"] [role="radiogroup"]').get_by_text(
        "Vestige", exact=True).first.click()
    expect(page.get_by_label("Map seed (blank: random)").first).to_be_visible()
    _settled(page)
    return page


def _n_events(db: Path, draft_id: str) -> int:
    return len(drafts.load(db.parent / "drafts", draft_id).events)


class Clicks:
    """Clicks made on the page, counted."""

    def __init__(self, page: Page) -> None:
        self.page, self.n = page, 0

    def click(self, locator: object) -> None:
        locator.click()  # type: ignore[attr-defined]
        self.n += 1
        self.page.wait_for_timeout(200)  # the rerun starts a moment after the click
        _settled(self.page)


#: scroll every scrolling part of the page back to the top (a click scrolls its target into view)
TO_TOP = """() => { window.scrollTo(0, 0);
  for (const e of document.querySelectorAll('*')) { if (e.scrollTop) e.scrollTop = 0; } }"""


def _visible_in_window(page: Page, locator: object) -> bool:
    """True when ``locator`` is inside the laptop's window with the page scrolled to the top."""
    page.evaluate(TO_TOP)
    box = locator.bounding_box()  # type: ignore[attr-defined]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"]


def _record_one(page: Page, clicks: Clicks, rng: random.Random) -> tuple[bool, bool]:
    """Record the next event by choosing among what the page offers; (forced, in view)."""
    main = page.locator('[data-testid="stMain"]')
    forced = main.get_by_role("button", name="Record: ", exact=False)
    if forced.count():
        in_view = _visible_in_window(page, forced.first)
        clicks.click(forced.first)
        return True, in_view
    segments = main.locator('[data-testid="stButtonGroup"] button').filter(visible=True)
    options = main.locator('[data-testid="stButton"] button').filter(visible=True).filter(
        has_not_text="Undo").filter(has_not_text="Put this draft aside").filter(
        has_not_text="Leave").filter(has_not_text="Finish")
    first = segments.first if segments.count() else options.first
    in_view = _visible_in_window(page, first)
    if segments.count():
        clicks.click(segments.nth(rng.randrange(segments.count())))
    picker = main.get_by_placeholder("Choose what happened")
    if picker.count():
        clicks.click(picker.first)
        opts = page.get_by_role("option")
        clicks.click(opts.nth(rng.randrange(opts.count())))
        clicks.click(main.get_by_role("button", name="Record", exact=True))
        return False, in_view
    options = main.locator('[data-testid="stButton"] button').filter(visible=True).filter(
        has_not_text="Undo").filter(has_not_text="Put this draft aside").filter(
        has_not_text="Leave").filter(has_not_text="Finish")
    clicks.click(options.nth(rng.randrange(options.count())))
    return False, in_view


def test_record_measure_reload_and_find_the_draft_intact(server: tuple[str, Path]) -> None:
    base, db = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    expect.set_options(timeout=20_000)
    rng = random.Random(7)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = _vestige_form(browser, base)
        page.get_by_role("button", name="Start recording").click()
        _settled(page)
        assert "draft=" in page.url
        draft_id = page.url.split("draft=")[1].split("&")[0]
        page.evaluate(TO_TOP)
        page.screenshot(path=str(SHOTS / "vestige-record-first-decision.png"))
        clicks = Clicks(page)
        forced = forced_one = out_of_view = 0
        by_kind: dict[str, list[int]] = {}  # player / table decision -> [events, clicks]
        for n in range(1, EVENTS + 1):
            before = clicks.n
            page.evaluate(TO_TOP)
            kind = ("player" if page.locator('[data-testid="stMain"]').get_by_text(
                " decides", exact=False).count() else "table")
            passes = 0
            while True:  # an option that records nothing (a "not met") asks again
                was_forced, in_view = _record_one(page, clicks, rng)
                out_of_view += not in_view
                if _n_events(db, draft_id) == n:
                    break
                passes += 1
                assert passes < 5, f"event {n} was not recorded"
            if was_forced and not passes:
                forced += 1
                forced_one += clicks.n - before == 1
            tally = by_kind.setdefault(kind, [0, 0])
            tally[0] += 1
            tally[1] += clicks.n - before
        page.evaluate(TO_TOP)
        page.screenshot(path=str(SHOTS / "vestige-record-laptop.png"))
        measure = {"events": EVENTS, "clicks": clicks.n,
                   "clicks_per_event": round(clicks.n / EVENTS, 2),
                   "forced_events": forced, "forced_in_one_click": forced_one,
                   "forced_share_one_click": round(forced_one / forced, 3) if forced else None,
                   "decisions_out_of_view_1366x768": out_of_view,
                   "clicks_per_event_by_decision": {k: [v[0], round(v[1] / v[0], 2)]
                                                    for k, v in by_kind.items()}}
        (OUT / "vestige-clicks.json").write_text(json.dumps(measure, indent=1) + "\n",
                                                 encoding="utf-8")
        print("Vestige recording measure:", measure)
        assert forced and forced_one == forced, measure
        assert out_of_view == 0, measure
        assert clicks.n / EVENTS <= 3.0, measure

        # reload mid-game: the draft is intact, on screen and on disk
        page.reload()
        _settled(page)
        expect(page.get_by_text(f"{EVENTS} events", exact=False).first).to_be_visible()
        d = drafts.load(db.parent / "drafts", draft_id)
        assert d.status == "open" and len(d.events) == EVENTS and d.header["game"] == "vestige"
        assert all("t" in e for e in d.events), "every event is stamped when recorded"
        page.get_by_role("button", name="Undo last event").click()
        _settled(page)
        assert _n_events(db, draft_id) == EVENTS, "undo asks first"
        page.get_by_role("button", name="Yes, undo it").click()
        _settled(page)
        assert _n_events(db, draft_id) == EVENTS - 1
        # putting the draft aside asks first, then the list reopens it
        page.get_by_role("button", name="Put this draft aside").click()
        _settled(page)
        assert drafts.load(db.parent / "drafts", draft_id).status == "open"
        page.get_by_role("button", name="Yes, put it aside").click()
        _settled(page)
        assert drafts.load(db.parent / "drafts", draft_id).status == "abandoned"
        page.get_by_text("Show finished and abandoned drafts too").click()
        _settled(page)
        page.locator('[data-testid="stMain"]').get_by_role("button", name="Open").first.click()
        _settled(page)
        page.get_by_role("button", name="Reopen this draft").click()
        _settled(page)
        assert drafts.load(db.parent / "drafts", draft_id).status == "open"
        browser.close()


#: the pages that count games (each says how many of them are partial)
COUNTING = ("Games", "Audit", "Duration", "Scoring sources", "End conditions",
            "Observation protocols", "Balance")


def test_a_short_session_is_finished_early_as_a_partial_game(server: tuple[str, Path]) -> None:
    """Ten events recorded in the browser, then "Finish early": the game is archived, loaded and
    audited as partial, and every page that counts games says it is partial."""
    import duckdb

    base, db = server
    expect.set_options(timeout=20_000)
    rng = random.Random(11)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = _vestige_form(browser, base)
        page.get_by_role("button", name="Start recording").click()
        _settled(page)
        draft_id = page.url.split("draft=")[1].split("&")[0]
        clicks = Clicks(page)
        for n in range(1, 11):
            for _ in range(5):  # an option that records nothing asks again
                _record_one(page, clicks, rng)
                if _n_events(db, draft_id) == n:
                    break
            assert _n_events(db, draft_id) == n, f"event {n} was not recorded"
        page.get_by_role("button", name="Finish early (a partial game)").click()
        _settled(page)
        assert drafts.load(db.parent / "drafts", draft_id).status == "open", "it asks first"
        page.get_by_role("button", name="Yes, finish and load").click()
        _settled(page)
        d = drafts.load(db.parent / "drafts", draft_id)
        assert d.status == "finished" and d.game_id, d
        con = duckdb.connect(str(db), read_only=True)
        row = con.execute("SELECT detail, complete, n_events FROM games WHERE game_id = ?",
                          [d.game_id]).fetchone()
        con.close()
        assert row == ("partial", False, 10), row
        for title in COUNTING:
            page.locator('[data-testid="stSidebarNav"] a').filter(has_text=title).first.click()
            settled(page, title)
            expect(page.get_by_text("1 partial game", exact=False).first).to_be_visible()
            page.screenshot(path=str(SHOTS / f"partial-{title.lower().replace(' ', '-')}.png"))
        browser.close()


