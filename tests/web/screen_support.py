"""Helpers of the big-screen tests (a match's screen and a table's) in headless
Chromium: a fresh browser of a screen's size in a language, the screen opened, and the
checks that everything on it is read from across the room without scrolling."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

from browser_support import ask_in, fresh_page

from ledger.http.pace import POLL_SECONDS

SIZES = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}

#: Every visible piece of text on the page: its size in px as laid out (an SVG text's
#: font size times the scale its viewBox draws it at) and its box.
TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const e = node.parentElement;
    if (!node.textContent.trim() || !e.checkVisibility() || e.closest('title, desc')) continue;
    if (e.closest('.visually-hidden')) continue;
    let size = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement) size *= e.getScreenCTM().a;
    const r = e.getBoundingClientRect();
    out.push({text: node.textContent.trim().slice(0, 30), size,
              top: r.top, bottom: r.bottom, left: r.left, right: r.right});
  }
  return out;
}"""


#: The parts whose least lines give way (screen.js: [data-fit]) fitted: in each, the line
#: saying how many of its lines are hidden shown exactly when some are, nothing spilling
#: over the part, and no part htmx is still swapping in or settling.
FITTED = """() => !document.querySelector('.htmx-swapping, .htmx-settling, .htmx-added')
  && [...document.querySelectorAll('[data-fit]')].every(area => {
    const more = area.querySelector('.fit-more');
    const hidden = area.querySelectorAll('[data-give-way][hidden]').length;
    return (more === null || (hidden > 0) === !more.hidden)
           && area.scrollHeight <= area.clientHeight + 1; })"""


def in_digits(number: int, lang: str) -> str:
    """``number`` as the screen writes it in ``lang`` (Nepali: Devanagari digits)."""
    digits = "०१२३४५६७८९" if lang == "ne" else "0123456789"
    return str(number).translate(str.maketrans("0123456789", digits))


def says_how_many(page, area: str, lang: str, words: dict[str, str], gone: int) -> None:
    """The line of ``area`` (a selector) saying how many of its lines gave way: hidden
    while none did, else ``words`` in ``lang`` ("{n}": how many, in the language's
    digits; "{s}": an English plural's s)."""
    more = page.locator(f"{area} .fit-more")
    if gone:
        plural = "" if gone == 1 else "s"
        assert more.inner_text() == words[lang].format(n=in_digits(gone, lang), s=plural)
    else:
        assert more.is_hidden()


def next_part(page, add: Callable[[], None]) -> None:
    """``add()`` a hand, and wait until the poll has brought the screen's new part and
    it is fitted."""
    version = page.get_attribute("#screen-live", "data-version")
    add()
    page.wait_for_function(  # the new part in, the old one gone
        """v => document.querySelectorAll('.screen-live').length === 1
               && document.getElementById('screen-live').dataset.version !== v""",
        arg=version,
        timeout=(4 * POLL_SECONDS + 10) * 1000,
    )
    page.wait_for_function(FITTED, timeout=5000)


@contextmanager
def screen_page(browser, base: str, size: str, lang: str = "en", **options):
    """A fresh browser of ``size`` in ``lang``, with its console errors collected."""
    with fresh_page(browser, SIZES[size], **options) as page:
        ask_in(page, base, lang)
        yield page


def load_screen(page, url: str) -> None:
    """The screen at ``url``, its script and fonts loaded, what gives way fitted."""
    page.goto(url)
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate("() => document.fonts.ready")
    page.wait_for_function(FITTED, timeout=5000)


def check_all_on_the_screen(page, areas: str, texts: list[dict]) -> None:
    """Nothing of ``texts`` (TEXTS' answer) off the screen, nothing scrolled to, and no
    area of the grid (``areas``: a script giving each one's box and overflow) spilling
    over its box or over another."""
    height, width = page.evaluate("() => [window.innerHeight, window.innerWidth]")
    assert [t for t in texts if t["bottom"] > height + 1 or t["right"] > width + 1] == []
    assert page.evaluate(
        """() => document.documentElement.scrollWidth <= window.innerWidth
              && document.documentElement.scrollHeight <= window.innerHeight"""
    )
    found = page.evaluate(areas)
    assert [a["name"] for a in found if a["over"]] == []
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            apart = (
                a["bottom"] <= b["top"] + 1
                or b["bottom"] <= a["top"] + 1
                or a["right"] <= b["left"] + 1
                or b["right"] <= a["left"] + 1
            )
            assert apart, (a, b)
