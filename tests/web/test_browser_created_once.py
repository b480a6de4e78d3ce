"""A form that makes something sends once: a double tap on a slow connection, in a
phone-sized Chromium, makes one table, one match, one tonight's match, not two. The
first tap's request reaches the server and its answer is held (the connection is slow);
the second tap comes while it is on its way, as a thumb's second tap does."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

ROSTER = ["Asha", "Bikash", "Chandra"]


def slow_posts(page, path: str) -> list:
    """POSTs to ``path`` reach the server at once; their answers are held until the test
    lets them go (``let_go``)."""
    held: list = []

    def hold(route):
        if route.request.method == "POST":
            held.append((route, route.fetch(max_redirects=0)))
        else:
            route.continue_()

    page.route(f"**{path}", hold)
    return held


def double_tap(page, button: str, held: list) -> None:
    """Tap the ``button`` (a selector) twice, 200 ms apart, as the page sees taps
    (Playwright's own click would wait for the first navigation); then let every answer
    go (the browser gave up the first navigation if it sent a second)."""
    page.evaluate(
        """selector => {
            const button = document.querySelector(selector);
            button.click();
            setTimeout(() => button.click(), 200);
        }""",
        button,
    )
    page.wait_for_timeout(600)
    assert held  # the first tap was sent
    for route, answer in held:
        try:
            route.fulfill(response=answer)
        except Exception:  # noqa: BLE001, S110  a navigation the browser gave up
            pass


def new_table(page, base: str) -> dict:
    made = page.request.post(
        f"{base}/api/v1/tables", data={"name": "Friday", "players": ROSTER, "rules": "sparkai"}
    )
    assert made.status == 201, made.text()
    return made.json()


def test_a_double_tap_on_tonights_match_starts_one_match(live_server, page):
    table = new_table(page, live_server)
    page.goto(f"{live_server}/tables/{table['id']}/join/{table['edit_key']}")
    page.wait_for_url(f"**/tables/{table['id']}")
    held = slow_posts(page, f"/tables/{table['id']}/matches")
    double_tap(page, ".table-new-match button[type=submit]", held)
    answer = page.request.get(f"{live_server}/api/v1/tables/{table['id']}").json()
    assert len(answer["matches"]) == 1
    assert page.console_errors == []


def test_a_double_tap_on_new_table_makes_one_table(live_server, page):
    page.goto(f"{live_server}/tables/new")
    page.fill("#name", "Saturday table")
    page.fill("#players", "\n".join(ROSTER))
    held = slow_posts(page, "/tables/new")
    double_tap(page, ".form-actions button[type=submit]", held)
    assert len([route for route, answer in held if answer.status == 303]) == 1
    assert page.console_errors == []


def test_a_double_tap_on_new_match_makes_one_match(live_server, page):
    page.goto(f"{live_server}/matches/new")
    page.fill("#name", "Sunday")
    for row, name in enumerate(ROSTER):
        page.fill(f"#players-{row}", name)
    held = slow_posts(page, "/matches/new")
    double_tap(page, ".match-form .form-actions .button-primary", held)
    assert len([route for route, answer in held if answer.status == 303]) == 1
    assert page.console_errors == []


def test_a_form_shown_again_from_the_back_forward_cache_sends_again(live_server, page):
    """A page shown again from the back-forward cache (its ``pageshow``, persisted) frees
    its form: a tap sends, though the form was sent before the page was left."""
    table = new_table(page, live_server)
    page.goto(f"{live_server}/tables/{table['id']}/join/{table['edit_key']}")
    page.wait_for_url(f"**/tables/{table['id']}")
    held: list = []
    page.route(f"**/tables/{table['id']}/matches", lambda route: held.append(route))
    page.evaluate(
        """() => {
            const button = document.querySelector(".table-new-match button[type=submit]");
            button.click();
            setTimeout(() => {
                window.dispatchEvent(new PageTransitionEvent("pageshow", {persisted: true}));
                button.click();
            }, 200);
        }"""
    )
    page.wait_for_timeout(600)
    assert len(held) == 2
