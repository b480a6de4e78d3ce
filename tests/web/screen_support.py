"""Helpers of the big-screen tests (a match's screen and a table's) in headless
Chromium: a fresh browser of a screen's size in a language, the screen opened, hands
for a crowded match, and the checks that everything on it is read from across the room
without scrolling, nothing covering anything else."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

from browser_support import ask_in, fresh_page

from ledger.http.pace import POLL_SECONDS

SIZES = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}
#: The screens' crowds, as (how many play, size, language): from four players to the
#: twelve a match seats, twelve in both languages at both sizes, the others in one at each.
CROWDS = [
    *(
        (count, size, lang)
        for count in (4, 6, 8, 10)
        for size, lang in (("1080p", "en"), ("720p", "ne"))
    ),
    *((12, size, lang) for size in SIZES for lang in ("en", "ne")),
]
CROWD_IDS = [f"{count} players-{size}-{lang}" for count, size, lang in CROWDS]

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


#: Every visible element (an SVG drawing counts as one, what only a screen reader reads
#: not at all): its box, and whether it is a block that holds no other (a cell, a line,
#: a paragraph, an image): those must not cover one another, nor run out of their box
#: sideways unless they cut their text short ("…"). (A glyph reaching a little above or
#: below its line is type, not a spill.)
BOXES = """() => {
  const seen = e => e.checkVisibility({visibilityProperty: true})
    && !e.closest('.visually-hidden') && e.getClientRects().length > 0;
  const blocky = e => e instanceof SVGSVGElement || e instanceof HTMLImageElement
    || getComputedStyle(e).display !== 'inline';
  const all = [...document.body.querySelectorAll('*')]
    .filter(e => !e.parentElement.closest('svg') && seen(e));
  const inner = new Set(all.filter(blocky));
  for (const e of inner) {
    for (let up = e.parentElement; up; up = up.parentElement) inner.delete(up);
  }
  return all.map(e => {
    const r = e.getBoundingClientRect(), style = getComputedStyle(e);
    const what = (e.className.baseVal ?? e.className) || e.tagName;
    return {what: `${what}: ${e.textContent.trim().slice(0, 30)}`, leaf: inner.has(e),
            top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            spills: style.overflow === 'visible' && !(e instanceof SVGSVGElement)
              && e.scrollWidth > e.clientWidth + 1};
  }).filter(b => b.bottom - b.top > 0 && b.right - b.left > 0);
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

#: The payments on the screen: each one's points, and whether it gave way.
PAYMENTS = """() => [...document.querySelectorAll('.screen-settle tbody tr:not(.fit-more)')]
  .map(r => ({points: +r.querySelector('[data-points]').dataset.points, hidden: r.hidden}))"""

#: What the line after the payments says when some gave way.
MORE_PAYMENTS = {"en": "and {n} more payment{s}", "ne": "र अरू {n} भुक्तानी"}


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


def check_payments(page, lang: str, transfers: list[dict]) -> None:
    """Every payment of ``transfers`` (the API's settle-up) on the screen, shown or given
    way, the largest always shown; those given way the smallest, and a line saying how
    many exactly when some did."""
    rows = page.evaluate(PAYMENTS)
    assert sorted(r["points"] for r in rows) == sorted(t["points"] for t in transfers)
    shown = [r["points"] for r in rows if not r["hidden"]]
    gone = [r["points"] for r in rows if r["hidden"]]
    assert max(t["points"] for t in transfers) in shown
    assert not gone or max(gone) <= min(shown), (shown, gone)
    says_how_many(page, ".screen-settle", lang, MORE_PAYMENTS, len(gone))


def check_tonight(page, base: str, lang: str, areas: str, players: list[str], match: str):
    """Tonight's standings (the board's) all there, each line 5 % of the height or more,
    no text under 2.5 % of it, nothing off the screen nor covering anything else
    (``areas``: as check_all_on_the_screen's), who deals next and the QR code shown, and
    the payments of ``match`` (its id) fitted."""
    height = page.evaluate("() => window.innerHeight")
    board = ".screen-board .standing-line"
    lines = page.eval_on_selector_all(
        board, "rows => rows.map(r => r.getBoundingClientRect().height)"
    )
    assert sorted(page.locator(f"{board} .name").all_inner_texts()) == sorted(players)
    assert min(lines) >= 0.05 * height, (min(lines) / height, lines)
    texts = page.evaluate(TEXTS)
    smallest = min(texts, key=lambda t: t["size"])
    assert smallest["size"] >= 0.025 * height, (smallest, smallest["size"] / height)
    check_all_on_the_screen(page, areas, texts)
    assert page.locator(".next-deal").is_visible() and page.locator(".screen-qr").is_visible()
    settle_up = page.request.get(f"{base}/api/v1/matches/{match}/settle-up").json()
    check_payments(page, lang, settle_up["transfers"])


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


def dealt_hand(match: dict, turn: int) -> dict:
    """The next hand of ``match`` (its JSON from the API) for everyone who does not sit
    it out in turn: the last of them unseen, the others seen with 0, 2, 4… points of
    maal, and the ``turn``-th of those (counted round) finishing by sequences."""
    out = set(match["next_sitting_out"])
    *seen, unseen = [p["name"] for p in match["players"] if p["name"] not in out]
    return {
        "finish": "sequences",
        "winner": seen[turn % len(seen)],
        "players": [
            *({"name": p, "seen": "sequences", "maal": 2 * i} for i, p in enumerate(seen)),
            {"name": unseen, "seen": "unseen"},
        ],
    }


@contextmanager
def screen_page(browser, base: str, size: str, lang: str = "en", **options):
    """A fresh browser of ``size`` in ``lang``, with its console errors collected, and
    the Devanagari fonts in its cache: they are ``font-display: optional``, so a screen
    whose font came late (a loaded machine) kept a stand-in's widths for good, as a
    phone's first page may; a real screen has them from the pages shown before it."""
    with fresh_page(browser, SIZES[size], **options) as page:
        ask_in(page, base, lang)
        page.goto(f"{base}/")
        page.evaluate(DEVANAGARI_LOADED)
        yield page


#: Both Devanagari faces fetched and ready (a page's layout asks for the regular one).
DEVANAGARI_LOADED = """async () => {
    await Promise.all(["400", "700"].map((w) => document.fonts.load(
        `${w} 16px "Noto Sans Devanagari"`, "\u0915")));
}"""


def load_screen(page, url: str) -> None:
    """The screen at ``url``, its script and fonts loaded, what gives way fitted."""
    page.goto(url)
    page.wait_for_function("() => window.htmx !== undefined")
    # A layout first: the fonts are fetched only as a layout asks for them, and before
    # one, fonts.ready has nothing to wait for (a loaded machine laid the page out late,
    # and the checks met the stand-in font's widths).
    page.evaluate(
        "async () => { document.body.getBoundingClientRect(); await document.fonts.ready; }"
    )
    page.wait_for_function(FITTED, timeout=5000)


def apart(a: dict, b: dict) -> bool:
    """Two boxes that do not cover each other (touching is not covering)."""
    return (
        a["bottom"] <= b["top"] + 1
        or b["bottom"] <= a["top"] + 1
        or a["right"] <= b["left"] + 1
        or b["right"] <= a["left"] + 1
    )


def check_all_on_the_screen(page, areas: str, texts: list[dict]) -> None:
    """Nothing of ``texts`` (TEXTS' answer) nor any other visible element off the
    screen, nothing scrolled to, what gave way out of sight, no area of the grid
    (``areas``: a script giving each one's box and overflow) spilling over its box or
    over another, and no block that holds no other (BOXES) covering another or spilling
    out of its box."""
    height, width = page.evaluate("() => [window.innerHeight, window.innerWidth]")
    off = [t for t in texts if t["bottom"] > height + 1 or t["right"] > width + 1]
    assert off == [], off
    boxes = page.evaluate(BOXES)
    off = [
        b["what"]
        for b in boxes
        if b["top"] < -1 or b["left"] < -1 or b["bottom"] > height + 1 or b["right"] > width + 1
    ]
    assert off == [], off
    leaves = [b for b in boxes if b["leaf"]]
    spilling = [b["what"] for b in leaves if b["spills"]]
    assert spilling == [], spilling
    covering = [
        (a["what"], b["what"])
        for i, a in enumerate(leaves)
        for b in leaves[i + 1 :]
        if not apart(a, b)
    ]
    assert covering == [], covering
    assert page.evaluate(
        """() => document.documentElement.scrollWidth <= window.innerWidth
              && document.documentElement.scrollHeight <= window.innerHeight"""
    )
    assert page.evaluate(  # what gave way out of sight, what says so in sight
        """() => [...document.querySelectorAll('[hidden]')].every(e => !e.checkVisibility())
              && [...document.querySelectorAll('.fit-more:not([hidden])')]
                   .every(e => e.checkVisibility())"""
    )
    found = page.evaluate(areas)
    over = [a["name"] for a in found if a["over"]]
    assert over == [], over
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            assert apart(a, b), (a, b)
