"""Count the clicks it takes to record the first events of a Mandate 2038 game in the browser,
the way ``tests/test_vestige_browser.py`` counts Vestige's (a click: a button, opening a list, an
item of it), for the side-by-side in docs/vestige-app.md. Not collected by pytest; run by hand:

    PYTHONPATH=. python tests/measure_mandate_clicks.py 30

Choices: the first card of each secret-selection list; a turn keeps the preselected move half of
the time (seeded), else opens the move list and picks one; then one action button at random.
Prints clicks per recorded event, overall and by kind of decision.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Locator, Page, sync_playwright

from dashboards import drafts
from tests.served_app import served_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: buttons that are not a choice of the decision
CONTROLS = ("Undo", "Setup finished", "Break", "Resume", "Leave", "Finish", "Download",
            "Abandon", "Add observation", "Immediate trade", "Record this event",
            "Record answer", "Yes,", "Cancel", "Reveal selections", "Record trade", "Add")


def settled(page: Page) -> None:
    """Wait until the page's script run is over."""
    page.wait_for_timeout(250)
    quiet, deadline = 0, time.monotonic() + 30
    while quiet < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(150)
        running = page.locator('[data-testid="stStatusWidgetRunningIcon"]').count()
        quiet = 0 if running else quiet + 1


def offered(main: Locator) -> list[Locator]:
    buttons = main.locator('[data-testid="stButton"] button')
    return [buttons.nth(i) for i in range(buttons.count()) if buttons.nth(i).is_visible()
            and not any(c in buttons.nth(i).inner_text() for c in CONTROLS)]


def measure(events: int) -> dict[str, object]:
    rng = random.Random(7)
    db = Path(tempfile.mkdtemp()) / "playtest.duckdb"
    with served_app(db) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.set_default_timeout(20_000)
        page.goto(f"{base}/record")
        settled(page)
        page.get_by_role("button", name="Start recording").click()
        settled(page)
        draft_id = page.url.split("draft=")[1].split("&")[0]

        def recorded() -> int:
            return len(drafts.load(db.parent / "drafts", draft_id).events)

        start, clicks = recorded(), 0
        per_kind: dict[str, list[int]] = {}
        main = page.locator('[data-testid="stMain"]')
        while recorded() - start < events:
            before, had = clicks, recorded()
            pickers = main.get_by_placeholder("Choose the revealed card")
            move = main.locator('[data-testid="stSelectbox"]').filter(
                has_text="Acting piece and move")
            if pickers.count():
                kind = "secret selection"
                for i in range(pickers.count()):
                    pickers.nth(i).click()
                    page.get_by_role("option").first.click()
                    clicks += 2
                    settled(page)
                main.get_by_role("button", name="Reveal selections").click()
                clicks += 1
            else:
                kind = "turn" if move.count() else "other"
                if move.count() and rng.random() < 0.5:
                    move.first.click()
                    options = page.get_by_role("option")
                    options.nth(rng.randrange(options.count())).click()
                    clicks += 2
                    settled(page)
                choices = offered(main)
                if not choices:
                    break
                rng.choice(choices).click()
                clicks += 1
            settled(page)
            if recorded() > had:
                tally = per_kind.setdefault(kind, [0, 0])
                tally[0] += 1
                tally[1] += clicks - before
        browser.close()
        n = recorded() - start
        return {"events": n, "clicks": clicks, "clicks_per_event": round(clicks / max(n, 1), 2),
                "by_kind": {k: [v[0], round(v[1] / v[0], 2)] for k, v in per_kind.items()}}


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 30)))
