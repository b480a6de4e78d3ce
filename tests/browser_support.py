"""Driving the hand form (and auditing pages) in headless Chromium, and the set-up the
browser tests share: a fresh page, its text size and language, what they make through
the API.

Also used by `make bench` (bench/form_bench.py): the form's height and the taps of a
typical hand are measured by the same code as the tests hold them to.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

PHONE = {"width": 390, "height": 844}
#: A 4-player hand with the maal as totals fits 1.5 phone screens (issue 10).
MOST_HEIGHT = int(1.5 * PHONE["height"])
MOST_TAPS = 8  # for a typical hand, after the numbers are typed
TOUCH = 44  # px: the smallest tap target

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
#: A typical hand at a table of four: one player unseen, the maal counted as totals.
TYPICAL_HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Bikash", "seen": "sequences", "maal": 3},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
        {"name": "Dipa", "seen": "sequences", "maal": 5},
    ],
}

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def fresh_page(browser, viewport=PHONE, **options) -> Iterator:
    """A new page in a browser context of its own (phone-sized unless ``viewport`` says
    otherwise), closed after. ``page.console_errors`` collects console errors, CSP
    violations included, and uncaught exceptions; tests assert it stays empty.
    ``options``: the context's (``has_touch``, ``java_script_enabled``, ``color_scheme``...)."""
    context = browser.new_context(viewport=viewport, **options)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.console_errors = errors
        yield page
    finally:
        context.close()


def set_text_size(page, px: int, fixed_px: int | None = None) -> None:
    """The browser's own text size, as a person sets it on a phone (Chromium's default
    is 16 px; 32 is 200 %), and the fixed-width font's (the same unless given)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": px, "fixed": fixed_px or px}})


def ask_in(page, base: str, lang: str) -> None:
    """The page's browser asks for the site's pages in ``lang`` from now on (the cookie
    the language switch sets), without a visit to the switch."""
    page.context.add_cookies([{"name": "lang", "value": lang, "url": base}])


def choose(page, field_id: str, value: str) -> None:
    """Tap the big radio button of ``field_id`` with ``value`` (its label is the button)."""
    page.locator(f'#{field_id} input[value="{value}"] + span').click()


def fill_checker(page, rows, profile: str = "sparkai") -> None:
    """Choose the profile, type each row's name, seen and maal as one number, and let
    the first row finish by sequences."""
    page.select_option("#rules-profile", profile)
    page.wait_for_selector(f"#rules-profile option[value={profile}][selected]", state="attached")
    for i, (name, seen, maal) in enumerate(rows):
        page.fill(f"#players-{i}-name", name)
        choose(page, f"players-{i}-seen", seen)
        use_maal_mode(page, i, "number")
        page.fill(f"#players-{i}-maal", str(maal))
    choose(page, "finish", "sequences")
    page.select_option("#winner", "0")


def use_maal_mode(page, row: int, mode: str) -> int:
    """Enter row ``row``'s maal as ``mode`` (counts, cards, number): the choice is under
    the row's "More", opened first if it is closed. Returns the taps it took."""
    if page.locator(f'#player-{row} .mode-input[value="{mode}"]').is_checked():
        return 0
    taps = 0
    more = page.locator(f"#player-{row} details.more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
        taps += 1
    page.locator(f'#player-{row} .mode-input[value="{mode}"] + span').click()
    return taps + 1


def created(request, url: str, data: dict | None = None, key: str | None = None) -> dict:
    """POST ``data`` to the JSON API at ``url`` with a browser's request context (with
    the edit rights of ``key``, if given): it must be made (201). The answer's body."""
    auth = {"Authorization": f"Bearer {key}"} if key else None
    answer = request.post(url, data=data, headers=auth)
    assert answer.status == 201, answer.text()
    return answer.json()


def api_match(
    page, base: str, hands=(), players=PLAYERS, rules="sparkai", length=None, name="Tihar at Asha's"
) -> str:
    """A match made through the JSON API (with ``hands``), joined by this browser with
    its edit link, as a scorekeeper's phone would; the match page's URL."""
    body = created(
        page.request,
        f"{base}/api/v1/matches",
        {
            "name": name,
            "players": list(players),
            "rules": rules,
            "length": length or {"hands": 8},
        },
    )
    match_id, key = body["id"], body["edit_key"]
    for hand in hands:
        created(page.request, f"{base}/api/v1/matches/{match_id}/hands", hand, key)
    page.goto(f"{base}/matches/{match_id}/join/{key}")
    page.wait_for_url(f"{base}/matches/{match_id}")
    return f"{base}/matches/{match_id}"


def open_hand_form(page, match_url: str) -> None:
    """The match's form for a new hand, its script loaded."""
    page.goto(match_url + "/hands/new")
    page.wait_for_function("() => window.htmx !== undefined")


def flash(page) -> str:
    """The page's messages, once the first one is there."""
    page.locator(".flash").first.wait_for()
    return page.locator(".flashes").inner_text()


def posts_only(answer):
    """A route handler: a POST is answered by ``answer(route)``; anything else goes on."""

    def handle(route):
        if route.request.method == "POST":
            answer(route)
        else:
            route.continue_()

    return handle


def page_height(page) -> int:
    return page.evaluate("() => document.documentElement.scrollHeight")


def no_sideways_scroll(page) -> bool:
    """The page is no wider than the screen. Measured against the viewport the test
    set, not ``window.innerWidth``: a phone's browser (``is_mobile``) widens its layout
    to whatever the page needs, so the page was always as wide as that."""
    return (
        page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]
    )


#: What a finger taps: buttons, fields, choices drawn as buttons (labels), links,
#: summaries. Radio buttons and checkboxes are drawn by their labels.
TAP_TARGETS = (
    "button, select, summary, a[href], .choice-label, .mode span, .plays-switch > span, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


def small_tap_targets(page, within: str = "body") -> list[tuple[str, float, float]]:
    """Every visible tap target under ``within`` smaller than 44 × 44 px: (what, w, h).
    Out of sight (display: none, the skip link until it has the focus, a form's
    default button for Enter) is not tapped; a link inside a sentence is text, but not
    a link back above a page (a breadcrumb, "← <table>") nor the footer's."""
    return page.eval_on_selector_all(
        f"{within} :is({TAP_TARGETS})",
        """(els, touch) => els.filter(e => {
              const r = e.getBoundingClientRect();
              if (e.closest('[aria-hidden=true]') || !e.checkVisibility()) return false;
              if (r.right <= 0 || r.bottom <= 0 || r.width <= 1) return false;
              return !(e.matches('a') && e.closest('p, li, td, dd, .hint'))
                  || e.matches('.button, .breadcrumb a, .back a, .footer-links a');
            })
            .map(e => [(e.textContent.trim() || e.id || e.className).slice(0, 30),
                       e.getBoundingClientRect().width, e.getBoundingClientRect().height])
            .filter(([, w, h]) => w < touch || h < touch)""",
        TOUCH,
    )


def fill_typical_hand(page, hand: dict = TYPICAL_HAND, players=PLAYERS) -> int:
    """Fill ``hand`` (settle format, the maal as totals) into a match's open hand form as
    a scorekeeper would: type each maal (typing is not counted: the numbers are typed
    whatever the form) and tap only what differs from what the form shows. Returns the
    taps; a list (the finisher) counts two (open it, pick). Waits for the one-line result."""
    page.wait_for_function("() => window.htmx !== undefined")
    taps = 0
    for row, name in enumerate(players):
        entry = next((p for p in hand["players"] if p["name"] == name), None)
        switch = page.locator(f"#players-{row}-plays")
        if switch.count() and switch.is_checked() != (entry is not None):
            page.locator(f"#player-{row} .plays-switch > span").click()
            taps += 1
        if entry is None:
            continue
        taps += use_maal_mode(page, row, "number")
        if entry.get("maal"):
            page.fill(f"#players-{row}-maal", str(entry["maal"]))
        if not page.locator(f'#players-{row}-seen input[value="{entry["seen"]}"]').is_checked():
            choose(page, f"players-{row}-seen", entry["seen"])
            taps += 1
    if not page.locator(f'#finish input[value="{hand["finish"]}"]').is_checked():
        choose(page, "finish", hand["finish"])
        taps += 1
    winner = str(players.index(hand["winner"])) if hand.get("winner") else ""
    if winner and page.input_value("#winner") != winner:
        page.select_option("#winner", winner)
        taps += 2
    page.wait_for_selector("#hand-status .status-net")  # the result, in one line
    return taps


def save_hand(page) -> int:
    """Tap the hand form's button (in the bar at the foot of the screen): one tap."""
    page.locator(".hand-form .form-actions button[type=submit]").click()
    return 1


def axe_problems(page, axe_source: str, rules=()) -> list[str]:
    """axe-core's findings on the page as it is: the serious and critical ones, and
    those of ``rules`` whatever their impact, as "rule: where" lines."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source)  # evaluated by the browser's devtools: the CSP holds
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
             .map(v => ({id: v.id, impact: v.impact,
                         nodes: v.nodes.map(n => n.target.join(' '))}))"""
    )
    return [
        f"{v['id']} ({v['impact']}): {', '.join(v['nodes'][:4])}"
        for v in found
        if v["impact"] in ("serious", "critical") or v["id"] in rules
    ]
