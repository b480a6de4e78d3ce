"""A disputed hand on phones (390 × 844, touch): a reader of the match opens the stored
hand's steps, tries a change in the dispute checker without retyping the hand, and
sends the result to another phone, which opens at the settlement. axe-core on each state;
nothing scrolls sideways and every tap target is large enough."""

import pytest
from browser_support import (
    PHONE,
    api_match,
    axe_problems,
    fresh_page,
    no_sideways_scroll,
    small_tap_targets,
)

from ledger.engine import parse_hand, resolve_rules, settle

pytestmark = pytest.mark.browser

MINUS = "\u2212"
PHONE_OPTIONS = {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}
RULES = {"profile": "amarnepal", "unseen_maal": "kidnap"}
HAND = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "8D"]},
        {
            "name": "Bikash",
            "seen": "sequences",
            "maal_counts": {"tiplu": 1, "poplu": 2, "jhiplu": 2},
        },
        {"name": "Chandra", "seen": "sequences", "maal_cards": ["8S", "8C", "JK"]},
        {"name": "Dipa", "seen": "unseen", "maal_cards": ["8D", "8D"]},
    ],
}


DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")


def expected_nets(hand: dict, lang: str) -> dict[str, str]:
    """The nets the engine gives ``hand`` under RULES, as the page writes them."""
    rules = resolve_rules(RULES)
    result = settle(parse_hand(hand, rules), rules)
    shown = {
        p.name: f"+{p.net}" if p.net > 0 else str(p.net).replace("-", MINUS) for p in result.players
    }
    return {k: v.translate(DEVANAGARI) for k, v in shown.items()} if lang == "ne" else shown


def page_nets(page) -> dict[str, str]:
    preview = page.locator(".settlement .nets")
    names = [n.split()[0] for n in preview.locator("tbody th").all_inner_texts()]
    return dict(zip(names, preview.locator("td.net").all_inner_texts(), strict=True))


def looks_right(page, axe_source: str) -> None:
    assert no_sideways_scroll(page)
    assert small_tap_targets(page, "main") == []
    assert axe_problems(page, axe_source) == []


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_disputed_hand_from_its_page_to_another_phone(live_server, browser, axe_source, lang):
    with fresh_page(browser, PHONE, **PHONE_OPTIONS) as keeper:
        match_url = api_match(keeper, live_server, hands=[HAND], rules=RULES)
    with fresh_page(browser, PHONE, **PHONE_OPTIONS) as reader:
        reader.context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
        reader.goto(match_url + "/hands/1")
        grouped = reader.locator(".groupings").all_inner_texts()
        assert len(grouped) == 2  # Asha's cards and Bikash's counts could group two ways
        chosen = "(चुनिएको)" if lang == "ne" else "(chosen)"
        assert all(chosen in text for text in grouped)
        looks_right(reader, axe_source)

        reader.locator("a.check-in-checker").click()
        reader.wait_for_function("() => window.htmx !== undefined")
        assert page_nets(reader) == expected_nets(HAND, lang)
        looks_right(reader, axe_source)

        # "Dipa held one alter, not two": one field, and the hand settles again.
        reader.fill("#players-3-maal_cards", "8D")
        changed = {**HAND, "players": [*HAND["players"][:3], {**HAND["players"][3]}]}
        changed["players"][3]["maal_cards"] = ["8D"]
        want = expected_nets(changed, lang)
        reader.wait_for_function(
            "want => document.querySelector('.settlement .nets tbody tr:last-child td.net')"
            "?.textContent.trim() === want",
            arg=want["Dipa"],
        )
        assert page_nets(reader) == want
        looks_right(reader, axe_source)
        link = reader.locator("#share-link").input_value()
        assert reader.console_errors == []

    with fresh_page(browser, PHONE, **PHONE_OPTIONS) as other:
        other.goto(link)
        other.locator(".settlement").wait_for()
        assert other.evaluate("() => window.scrollY") > 0  # at the steps, not the form
        title = other.locator(".settlement-title").bounding_box()
        assert 0 <= title["y"] < PHONE["height"]
        assert page_nets(other) == expected_nets(changed, "en")
        looks_right(other, axe_source)
        assert other.console_errors == []
