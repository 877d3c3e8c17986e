"""Browser test (issue 28): a Mandate 2038 and a Vestige playtest recorded in headless Chromium
under a rules variant (a known variant chosen in the setup), the recorder naming the variant
while recording, each finished early as a partial game; then both appear on the Variants page
beside a small simulated study, labelled partial.

Marker ``browser``. Skipped with the reason when Debian's chromium (/usr/bin/chromium) or the
Playwright package is missing. Screenshots go to test-output/screenshots/variants-*.png.
Bounded: a 12-game study (about 15 s), two short recordings, one page; about two minutes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards import drafts, record_nav
from tests.served_app import ARGS, CHROMIUM, require_browser, served_app, settled

require_browser()

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output" / "screenshots"
TITLE = "Record a game"
READ_MS = record_nav.SETTLE_MS + 300
MANDATE_VARIANT = "dossier-compute-2"
VESTIGE_VARIANT = "obelisk-other-pair"

pytestmark = [pytest.mark.browser, pytest.mark.needs_game("mandate2038", "vestige")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on an empty warehouse, with a small study of the Mandate variant as its study."""
    from cli.main import main

    root = tmp_path_factory.mktemp("variants-browser")
    study = root / "study"
    assert main(["study", "--variant", str(ROOT / "examples/variants/dossier-compute-2.toml"),
                 "--games", "6", "--players", "3", "--seed", "1", "--out", str(study),
                 "--backend", "local", "--workers", "1"]) == 0
    mp = pytest.MonkeyPatch()
    mp.setenv("PLAYTEST_STUDY", str(study))
    try:
        with served_app(root / "playtest.duckdb") as base:
            yield base, root / "playtest.duckdb"
    finally:
        mp.undo()


def _choose_variant(page: Page, label_start: str) -> None:
    box = page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').filter(
        has_text="Rules variant")
    for _ in range(3):  # a click during a rerun may find the list closed again
        box.first.click()
        option = page.get_by_role("option").filter(has_text=label_start)
        try:
            option.first.wait_for(timeout=5_000)
        except Exception:  # noqa: BLE001 - playwright's timeout: open the list again
            page.keyboard.press("Escape")
            settled(page, TITLE)
            continue
        option.first.click()
        break
    settled(page, TITLE)
    expect(page.get_by_text(f"Recording under the variant {label_start}",
                            exact=False).first).to_be_visible()


def _record_page(page: Page, base: str) -> Page:
    """``page`` on the Record page, with the tests' patience."""
    page.set_default_timeout(20_000)
    page.goto(f"{base}/record")
    settled(page, TITLE)
    return page


def _draft(page: Page) -> str:
    assert "draft=" in page.url, page.url
    return page.url.split("draft=")[1].split("&")[0]


def _finish(page: Page, button: str, db: Path, draft_id: str) -> str:
    page.get_by_role("button", name=button).first.click()
    settled(page, TITLE)
    page.get_by_role("button", name="Yes, finish and load").click()
    settled(page, TITLE)
    d = drafts.load(db.parent / "drafts", draft_id)
    assert d.status == "finished" and d.game_id, d
    return d.game_id


def _vestige_event(page: Page, rng: random.Random) -> None:
    """Record Vestige's next event by choosing among what the page offers."""
    main = page.locator('[data-testid="stMain"]')
    forced = main.get_by_role("button", name="Record: ", exact=False)
    if forced.count():
        forced.first.click()
        settled(page, TITLE)
        return
    segments = main.locator('[data-testid="stButtonGroup"] button').filter(visible=True)
    if segments.count():
        segments.nth(rng.randrange(segments.count())).click()
        settled(page, TITLE)
    picker = main.get_by_placeholder("Choose what happened")
    if picker.count():
        picker.first.click()
        opts = page.get_by_role("option")
        opts.nth(rng.randrange(opts.count())).click()
        main.get_by_role("button", name="Record", exact=True).click()
        settled(page, TITLE)
        return
    options = main.locator('[data-testid="stButton"] button').filter(visible=True).filter(
        has_not_text="Undo").filter(has_not_text="Put this draft aside").filter(
        has_not_text="Leave").filter(has_not_text="Finish")
    options.nth(rng.randrange(options.count())).click()
    settled(page, TITLE)


def test_variant_playtests_recorded_partial_appear_beside_the_study(
        server: tuple[str, Path]) -> None:
    import duckdb

    base, db = server
    expect.set_options(timeout=20_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = _record_page(browser.new_page(viewport={"width": 1366, "height": 900}), base)
        # Mandate 2038 under dossier-compute-2: three events, then finished early
        _choose_variant(page, MANDATE_VARIANT)
        page.get_by_role("button", name="Start recording").click()
        expect(page.get_by_text("1 event", exact=False).first).to_be_visible()
        main = page.locator('[data-testid="stMain"]')
        expect(main).to_contain_text(f"rules variant {MANDATE_VARIANT}")
        page.wait_for_timeout(READ_MS)
        page.get_by_role("button", name="Era I begins").first.click()
        expect(page.get_by_text("2 events", exact=False).first).to_be_visible()
        page.wait_for_timeout(READ_MS)
        page.get_by_role("button", name="Cycle 1: Headline").first.click()
        expect(page.get_by_text("3 events", exact=False).first).to_be_visible()
        settled(page, TITLE)
        expect(main).to_contain_text(f"rules variant {MANDATE_VARIANT}")
        page.screenshot(path=str(SHOTS / "variants-mandate-recording.png"))
        mandate_id = _finish(page, "Finish and load", db, _draft(page))

        # Vestige under obelisk-other-pair: six events, then "Finish early"
        _record_page(page, base)
        page.locator('[data-testid="stMain"] [role="radiogroup"]').get_by_text(
            "Vestige", exact=True).first.click()
        expect(page.get_by_label("Map seed (blank: random)").first).to_be_visible()
        settled(page, TITLE)
        _choose_variant(page, VESTIGE_VARIANT)
        page.get_by_role("button", name="Start recording").click()
        settled(page, TITLE)
        draft_id = _draft(page)
        expect(main).to_contain_text(f"rules variant {VESTIGE_VARIANT}")
        rng = random.Random(5)
        for n in range(1, 7):
            for _ in range(5):  # an option that records nothing asks again
                _vestige_event(page, rng)
                if len(drafts.load(db.parent / "drafts", draft_id).events) >= n:
                    break
        expect(main).to_contain_text(f"rules variant {VESTIGE_VARIANT}")
        page.screenshot(path=str(SHOTS / "variants-vestige-recording.png"))
        vestige_id = _finish(page, "Finish early (a partial game)", db, draft_id)

        con = duckdb.connect(str(db), read_only=True)
        rows = dict((r[0], r[1:]) for r in con.execute(
            "SELECT game_id, variant_name, complete, is_human FROM games").fetchall())
        con.close()
        assert rows[mandate_id] == (MANDATE_VARIANT, False, True), rows
        assert rows[vestige_id] == (VESTIGE_VARIANT, False, True), rows

        # the Variants page: the study's comparison, and both playtests beside it, partial
        page.locator('[data-testid="stSidebarNav"] a').filter(has_text="Variants").first.click()
        settled(page, "Variants")
        expect(main).to_contain_text("Common games")
        expect(main).to_contain_text(
            f"Mandate 2038 · {MANDATE_VARIANT}: physical playtests 1 partial; 6 simulated games")
        expect(main).to_contain_text(
            f"Vestige · {VESTIGE_VARIANT}: physical playtests 1 partial; 0 simulated games")
        page.locator('[data-testid="stMain"]').get_by_text(
            "Physical playtests beside the simulated evidence").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "variants-page-partial-playtests.png"), full_page=True)

        # the Audit page names the variant too
        page.goto(f"{base}/audit?game={vestige_id}")
        settled(page, "Audit")
        expect(main).to_contain_text(f"Audited under the rules variant {VESTIGE_VARIANT}")
        browser.close()
