"""Browser test: a tablet at the table double-taps. In every recorder a game declares (Mandate
2038, Vestige, Pig), two taps 50 ms apart on one choice record one event, and a tap on a choice
followed in the same burst by a tap on another button of that (now past) decision records only
the first. Each decision carries the position it was drawn for and the server refuses a stale
one quietly (:func:`dashboards.record_nav.record_at`).

The taps are pointer clicks at the button's place on the screen, as a finger lands: the second
one hits whatever is there 50 ms later (the same button still drawn, or the next decision's).

Marker ``browser``. Skipped with the reason when Debian's chromium (/usr/bin/chromium) or the
Playwright package is missing. Screenshots go to the test's tmp output.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards import drafts
from tests.served_app import ARGS, CHROMIUM, TO_TOP, require_browser, served_app, settled

TITLE = "Record a game"
GAP_MS = 50
DB: list[Path] = []  # the served database
#: buttons of a recorder that are not choices of the decision
CONTROLS = ("Undo", "Put this draft aside", "Leave", "Finish", "Abandon", "Download",
            "Setup finished", "Break", "Resume", "Record this event", "Record answer")

pytestmark = [pytest.mark.browser, pytest.mark.needs_game("mandate2038", "vestige")]
require_browser()
from playwright.sync_api import Locator, Page, expect, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("taps") / "playtest.duckdb"
    DB[:] = [db]
    with served_app(db) as base:
        yield base, db


def _settled(page: Page) -> None:
    settled(page, TITLE, quiet_runs=5)


def _header(page: Page, draft_id: str) -> dict:
    return dict(drafts.load(DB[0].parent / "drafts", draft_id).header)


def _events(db: Path, draft_id: str) -> list[dict]:
    return drafts.load(db.parent / "drafts", draft_id).events


#: a field only the game's own new-session form has (the game chosen is the one drawn)
FORM_MARK = {"Mandate 2038": "First Initiative", "Vestige": "Map seed (blank: random)",
             "Pig": "Target score (§2.3)"}
GAME_ID = {"Mandate 2038": "mandate2038", "Vestige": "vestige", "Pig": "pig"}


def _start(page: Page, base: str, game: str) -> str:
    page.goto(f"{base}/record")
    _settled(page)
    # the Game choice (the list of drafts above it names games too)
    page.locator('[data-testid="stMain"] [role="radiogroup"]').get_by_text(
        game, exact=True).first.click()
    expect(page.get_by_label(FORM_MARK[game]).first).to_be_visible()
    _settled(page)
    page.get_by_role("button", name="Start recording").click()
    page.wait_for_timeout(300)
    _settled(page)
    assert "draft=" in page.url
    draft_id = page.url.split("draft=")[1].split("&")[0]
    assert _header(page, draft_id).get("game", "mandate2038") == GAME_ID[game]
    return draft_id


def _choices(page: Page) -> Locator:
    """The buttons of the decision on screen (not the recorder's controls)."""
    loc = page.locator('[data-testid="stMain"] [data-testid="stButton"] button').filter(
        visible=True)
    for word in CONTROLS:
        loc = loc.filter(has_not_text=word)
    return loc


def _centre(loc: Locator) -> tuple[float, float]:
    loc.scroll_into_view_if_needed()
    box = loc.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


#: two taps timed in the page itself (a round trip of the test's driver takes longer than the
#: gap on a busy machine): the second lands on whatever is drawn at its place by then
BURST = """([ax, ay, bx, by, gap]) => new Promise(done => {
  document.elementFromPoint(ax, ay).click();
  setTimeout(() => { const e = document.elementFromPoint(bx, by); if (e) e.click(); done(); },
             gap); })"""


def _burst(page: Page, first: Locator, second: Locator) -> None:
    """Tap ``first``, then 50 ms later tap where ``second`` was drawn, then let the page settle."""
    a, b = _centre(first), _centre(second)
    page.evaluate(BURST, [*a, *b, GAP_MS])
    page.wait_for_timeout(300)
    _settled(page)


def _two_choices(page: Page, db: Path, draft_id: str, steps: int = 40) -> None:
    """Record single choices (the first offered) until a decision offers at least two buttons."""
    for _ in range(steps):
        if _choices(page).count() >= 2:
            return
        n = len(_events(db, draft_id))
        forced = _choices(page)
        assert forced.count(), "the recorder offers no button to go on with"
        forced.first.click()
        page.wait_for_timeout(200)
        _settled(page)
        assert len(_events(db, draft_id)) == n + 1
    pytest.fail("no decision with two buttons was reached")


def _check(page: Page, db: Path, draft_id: str, shots: Path, name: str) -> None:
    """The double tap and the burst on the recorder of ``draft_id``, already open on ``page``."""
    # a double tap on one choice: one event
    _two_choices(page, db, draft_id)
    n = len(_events(db, draft_id))
    choice = _choices(page).first
    _burst(page, choice, choice)
    page.screenshot(path=str(shots / f"{name}-after-double-tap.png"))
    assert len(_events(db, draft_id)) == n + 1, [e.get("type") for e in _events(db, draft_id)]
    # a tap on a choice, then on another button of that decision in the same burst: the first
    _two_choices(page, db, draft_id)
    n = len(_events(db, draft_id))
    choices = _choices(page)
    first_label = choices.nth(0).inner_text()
    _burst(page, choices.nth(0), choices.nth(1))
    page.screenshot(path=str(shots / f"{name}-after-burst.png"))
    after = _events(db, draft_id)
    assert len(after) == n + 1, (first_label, [e.get("type") for e in after[n:]])


@pytest.mark.parametrize("game", ["Mandate 2038", "Vestige", "Pig"])
def test_a_double_tap_records_one_event(server: tuple[str, Path], game: str,
                                        tmp_path: Path) -> None:
    base, db = server
    expect.set_options(timeout=20_000)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.set_default_timeout(20_000)
        draft_id = _start(page, base, game)
        _check(page, db, draft_id, tmp_path, game.lower().replace(" ", "-"))
        browser.close()


TABLET = {"width": 768, "height": 1024}
#: a control whose text does not fit (cut off), or that lies outside the window's width
CLIPPED = """() => [...document.querySelectorAll('[data-testid="stMain"] button')]
  .filter(b => b.offsetParent !== null)
  .filter(b => { const r = b.getBoundingClientRect();
                 return r.left < -1 || r.right > window.innerWidth + 1
                        || [b, ...b.querySelectorAll('*')].some(
                             e => e.scrollWidth > e.clientWidth + 2); })
  .map(b => b.innerText.trim().slice(0, 60))"""


@pytest.mark.parametrize("game", ["Mandate 2038", "Vestige", "Pig"])
def test_a_recorder_on_a_tablet(server: tuple[str, Path], game: str, tmp_path: Path) -> None:
    """At 768x1024 (a tablet, portrait) the decision is in view with the page at the top and no
    control is cut off, for the first decisions of the game (screenshots in the test's tmp
    output)."""
    base, db = server
    expect.set_options(timeout=20_000)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport=TABLET)
        page.set_default_timeout(20_000)
        draft_id = _start(page, base, game)
        # Mandate's third decision is the secret selection (one picker per seat, then Reveal:
        # tests/test_browser.py records it); its first two are buttons
        for step in range(2 if game == "Mandate 2038" else 4):
            page.evaluate(TO_TOP)
            page.screenshot(path=str(tmp_path / f"tablet-{step}.png"))
            first = _choices(page).first
            box = first.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= \
                TABLET["height"], (game, step, box)
            clipped = page.evaluate(CLIPPED)
            assert not clipped, (game, step, clipped)
            n = len(_events(db, draft_id))
            first.click()
            page.wait_for_timeout(200)
            _settled(page)
            assert len(_events(db, draft_id)) == n + 1
        print(f"{game}: screenshots in {tmp_path}")
        browser.close()
