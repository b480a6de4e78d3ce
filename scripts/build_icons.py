"""Make the home-screen icons in static/icons/ from static/favicon.svg, the one drawing of
the ledger's mark. Rerun it when the mark changes (tests/web/test_browser_home_screen.py
draws them again and compares):

    .venv/bin/python scripts/build_icons.py

Headless Chromium (/usr/bin/chromium, driven by Playwright) draws the SVG at each size:
the mark alone on a clear ground ("any"), and on a white square with the mark inside the
middle 60 % (a "maskable" icon, which Android crops to its own shape, and the icon iOS
puts on its home screen).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
MARK = ROOT / "static" / "favicon.svg"
FOLDER = ROOT / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
#: file name: (size in pixels, the mark's share of the side, the ground).
ICONS = {
    "icon-192.png": (192, 1.0, None),
    "icon-512.png": (512, 1.0, None),
    "icon-maskable-512.png": (512, 0.6, "#ffffff"),
    "apple-touch-icon.png": (180, 0.75, "#ffffff"),
}


def page_of(size: int, share: float, ground: str | None) -> str:
    """A page of one square: the mark, centred, ``share`` of its side."""
    mark = MARK.read_text(encoding="utf-8").replace("<svg ", '<svg width="100%" height="100%" ', 1)
    side = round(size * share)
    background = ground or "transparent"
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<div style='width:{size}px;height:{size}px;display:grid;place-items:center;"
        f"background:{background}'><div style='width:{side}px;height:{side}px'>"
        f"{mark}</div></div>"
        "</body></html>"
    )


def draw(page: Page, name: str) -> bytes:
    """The PNG of one icon of ``ICONS``, drawn on ``page``."""
    size, share, ground = ICONS[name]
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(page_of(size, share, ground))
    return page.screenshot(omit_background=ground is None)


def main() -> None:
    from playwright.sync_api import sync_playwright

    FOLDER.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless=new"])
        page = browser.new_page(device_scale_factor=1)
        for name in ICONS:
            (FOLDER / name).write_bytes(draw(page, name))
            print(FOLDER / name)
        browser.close()


if __name__ == "__main__":
    main()
