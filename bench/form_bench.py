"""The new-hand form of a 4-player match on a phone (390 × 844, headless Chromium): how
tall it is, fresh and filled in, and how many taps a typical hand takes once its numbers
are typed (issue 10: at most 1,266 px, 1.5 screens, and eight taps). The hand is entered
by the browser tests' own driver (tests/browser_support.py), on a server (waitress) on
loopback: the first hand of the match, then the next one with the last hand's defaults.
"""

from __future__ import annotations

import os
import shutil

from bench.serving import served
from tests.browser_support import (
    MOST_HEIGHT,
    PHONE,
    api_match,
    fill_typical_hand,
    page_height,
    save_hand,
)

CHROMIUM = "/usr/bin/chromium"


def available() -> bool:
    return os.access(CHROMIUM, os.X_OK) or shutil.which("chromium") is not None


def run() -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with served() as port:
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
            )
            page = browser.new_context(viewport=PHONE).new_page()
            match_url = api_match(page, base)
            figures: dict[str, float] = {}
            for label in ("first hand", "next hand"):
                page.goto(match_url + "/hands/new")
                fresh = page_height(page)
                taps = fill_typical_hand(page)
                filled = page_height(page)
                taps += save_hand(page)
                page.locator(".flash").wait_for()
                if label == "first hand":
                    figures["height_px"] = fresh
                    figures["filled_px"] = filled
                    figures["screens"] = max(fresh, filled) / PHONE["height"]
                    figures["limit_px"] = MOST_HEIGHT
                figures[f"taps_{label.split()[0]}"] = taps
            browser.close()
    return figures
