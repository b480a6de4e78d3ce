"""The ledger kept on a phone's home screen (ledger/web/home_screen.py), as headless
Chromium reads its manifest, and its icons as scripts/build_icons.py draws them."""

import io
import sys
from pathlib import Path

import pytest
from browser_support import api_match
from PIL import Image, ImageChops

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def test_chromium_reads_the_manifest_without_a_problem(page, live_server):
    page.goto(f"{live_server}/lang/ne?next=/")
    session = page.context.new_cdp_session(page)
    found = session.send("Page.getAppManifest")
    assert found["errors"] == [], found["errors"]
    assert '"name": "म्यारिज खाता"' in found["data"]


def test_the_icons_are_the_favicon_drawn_again(browser):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_icons
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    page = browser.new_page()
    try:
        for name in build_icons.ICONS:
            drawn = Image.open(io.BytesIO(build_icons.draw(page, name))).convert("RGBA")
            kept = Image.open(build_icons.FOLDER / name).convert("RGBA")
            assert kept.size == drawn.size, name
            difference = ImageChops.difference(kept, drawn).getbbox()
            assert difference is None, f"{name}: run scripts/build_icons.py ({difference})"
    finally:
        page.close()


def test_a_match_page_makes_the_ledger_installable(page, live_server):
    """With the service worker the match page registers (static/js/offline-copy.js) and
    the manifest, Chromium finds nothing that keeps the ledger off the home screen."""
    match_url = api_match(page, live_server)
    page.goto(match_url)
    active = "async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)"
    for _ in range(100):  # wait_for_function takes a promise for a true value
        if page.evaluate(active):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("no service worker registered")
    session = page.context.new_cdp_session(page)
    found = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test's browser context is a private window, which installs nothing.
    assert [e["errorId"] for e in found if e["errorId"] != "in-incognito"] == [], found
