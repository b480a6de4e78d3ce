"""Numbers typed in Devanagari digits, in headless Chromium (issue 26): every kind of
number box (a maal total, a count and its steppers, an override, a length, a stake, the
dispute checker's boxes) takes १२ as 12 and stores it; a box holding no number gets an
error beside it and nothing is stored. The digits are typed key by key, as a Nepali
keyboard does (``press_sequentially``): an ``<input type=number>`` drops them."""

from decimal import Decimal

import pytest
from browser_support import (
    PLAYERS,
    TYPICAL_HAND,
    api_match,
    ask_in,
    choose,
    open_hand_form,
    save_hand,
    use_maal_mode,
)
from match_pages_support import engine_nets

pytestmark = pytest.mark.browser

DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")


def deva(n: int) -> str:
    return str(n).translate(DEVANAGARI)


def nepali_hand_form(page, base: str, **match) -> str:
    """A new match's hand form, the pages in Nepali; the match's url."""
    ask_in(page, base, "ne")
    match_url = api_match(page, base, **match)
    open_hand_form(page, match_url)
    return match_url


def save_with_asha_finishing(page) -> None:
    """Everyone seen by sequences and Asha finishing: saved once the result shows."""
    for row in range(4):
        choose(page, f"players-{row}-seen", "sequences")
    choose(page, "finish", "sequences")
    page.select_option("#winner", "0")
    page.wait_for_selector("#hand-status .status-net")
    save_hand(page)
    page.locator(".flash").wait_for()


def type_into(page, selector: str, text: str) -> None:
    box = page.locator(selector)
    box.fill("")
    box.press_sequentially(text)
    assert box.input_value() == text  # nothing dropped on the way


def api(page, match_url: str, path: str = "") -> dict:
    return page.request.get(match_url.replace("/matches/", "/api/v1/matches/") + path).json()


@pytest.mark.parametrize("nepali", [True, False], ids=["ne", "en"])
def test_maal_totals_typed_in_devanagari_are_stored(live_server, page, nepali):
    if nepali:
        ask_in(page, live_server, "ne")
    match_url = api_match(page, live_server)
    open_hand_form(page, match_url)
    for row, name in enumerate(PLAYERS):
        entry = next(p for p in TYPICAL_HAND["players"] if p["name"] == name)
        use_maal_mode(page, row, "number")
        type_into(page, f"#players-{row}-maal", deva(entry["maal"]))
        if not page.locator(f'#players-{row}-seen input[value="{entry["seen"]}"]').is_checked():
            choose(page, f"players-{row}-seen", entry["seen"])
    choose(page, "finish", "sequences")
    page.select_option("#winner", "0")
    # The live result is the typed hand's, not a hand of zeros.
    nets = engine_nets(TYPICAL_HAND)
    page.wait_for_selector("#hand-status .status-net")
    asha = nets["Asha"]
    expected = ("+" + deva(asha)) if nepali else f"+{asha}"
    page.wait_for_function(
        "t => document.getElementById('hand-status').textContent.includes(t)", arg=expected
    )
    save_hand(page)
    page.locator(".flash").wait_for()
    stored = api(page, match_url, "/hands/1")
    assert {p["name"]: p.get("maal") for p in stored["hand"]["players"]} == {
        p["name"]: p["maal"] for p in TYPICAL_HAND["players"]
    }
    assert {p["name"]: p["total"] for p in api(page, match_url)["players"]} == nets
    assert page.console_errors == []


def test_counts_and_steppers_read_devanagari(live_server, page):
    match_url = nepali_hand_form(page, live_server)
    use_maal_mode(page, 0, "counts")
    type_into(page, "#players-0-count_poplu", "२")
    page.locator('#player-0 [data-step="1"][aria-controls="players-0-count_poplu"]').click()
    # The stepper counts on from ३ (not from 0) and writes in the digits typed.
    assert page.input_value("#players-0-count_poplu") == "३"
    # An empty box is stepped in the page's digits, as the server writes a number it holds.
    page.locator('#player-0 [data-step="1"][aria-controls="players-0-count_alter"]').click()
    assert page.input_value("#players-0-count_alter") == "१"
    save_with_asha_finishing(page)
    stored = api(page, match_url, "/hands/1")
    assert stored["hand"]["players"][0]["maal_counts"] == {"poplu": 3, "alter": 1}
    assert page.console_errors == []


def test_a_box_that_is_no_number_is_an_error_and_nothing_is_stored(live_server, page):
    match_url = nepali_hand_form(page, live_server)
    for row in range(4):
        use_maal_mode(page, row, "number")
        choose(page, f"players-{row}-seen", "sequences")
    type_into(page, "#players-1-maal", "१२क")
    choose(page, "finish", "sequences")
    page.select_option("#winner", "0")
    save_hand(page)
    errors = page.locator("#players-1-maal-errors")
    errors.wait_for()
    assert "पूर्ण सङ्ख्या" in errors.inner_text()
    assert page.locator("#players-1-maal").input_value() == "१२क"  # kept, not emptied
    assert api(page, match_url)["hands_played"] == 0


def test_new_match_length_stake_and_override_in_devanagari(live_server, page):
    ask_in(page, live_server, "ne")
    page.goto(live_server + "/matches/new")
    for row, name in enumerate(PLAYERS):
        page.fill(f"#players-{row}", name)
    page.locator('#length_kind input[value="hands"] + span').click()
    type_into(page, "#length_count", "१२")
    page.locator("details.overrides > summary").click()
    type_into(page, "#rules-fee_seen", "४")
    type_into(page, "#rules-marriage", "१० / २५")
    type_into(page, "#stake-per_point", "०.५०")
    page.locator(".match-form .form-actions .button-primary").click()
    page.wait_for_url("**/matches/*")
    match = api(page, page.url)
    assert match["length"] == {"hands": 12}
    assert match["rules"]["fee_seen"] == 4
    assert match["rules"]["marriage"] == [10, 25]
    stake = page.request.get(
        page.url.replace("/matches/", "/api/v1/matches/") + "/settle-up"
    ).json()["stake"]
    assert Decimal(stake["per_point"]) == Decimal("0.50")

    # The length page: play on to a length typed in Devanagari.
    page.goto(page.url.split("?")[0] + "/length")
    type_into(page, "#count", "२०")
    page.locator("form button[type=submit]").first.click()
    page.wait_for_load_state()
    assert api(page, page.url.split("/length")[0])["length"] == {"hands": 20}
    assert page.console_errors == []


def test_the_checker_reads_devanagari_overrides_and_maal(live_server, page):
    ask_in(page, live_server, "ne")
    page.goto(live_server + "/check")
    page.wait_for_function("() => window.htmx !== undefined")
    rows = [("Asha", "sequences", 10), ("Bikash", "sequences", 5), ("Dipa", "unseen", 8)]
    page.select_option("#rules-profile", "sparkai")
    page.wait_for_selector("#rules-profile option[value=sparkai][selected]", state="attached")
    for i, (name, seen, maal) in enumerate(rows):
        page.fill(f"#players-{i}-name", name)
        choose(page, f"players-{i}-seen", seen)
        use_maal_mode(page, i, "number")
        type_into(page, f"#players-{i}-maal", deva(maal))
    choose(page, "finish", "sequences")
    page.select_option("#winner", "0")
    # Last: an override redraws the whole form for the new rules, keeping what is typed.
    page.locator("details.overrides > summary").click()
    type_into(page, "#rules-fee_seen", "७")
    hand = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [{"name": n, "seen": s, "maal": m} for n, s, m in rows],
    }
    nets = engine_nets(hand, {"profile": "sparkai", "fee_seen": 7})
    assert nets != engine_nets(hand, "sparkai")  # the override matters to this hand
    want = "+" + deva(nets["Asha"])
    page.wait_for_function(
        "t => document.getElementById('hand-status').textContent.includes(t)", arg=want
    )
    assert page.console_errors == []


def test_the_tunnela_chips_write_nepali_words_the_box_reads(live_server, page):
    match_url = nepali_hand_form(page, live_server, rules="amarnepal")
    page.fill("#tiplu", "8H")
    use_maal_mode(page, 0, "counts")
    box = page.locator("#players-0-dealt_tunnelas")
    assert box.get_attribute("placeholder") == "जस्तै 5S, पप्लु"
    page.locator("#player-0 .quick-add .chip", has_text="पप्लु").click()
    assert box.input_value() == "पप्लु"
    box.press("End")
    box.press_sequentially(", साधारण जोकर, 5S")
    save_with_asha_finishing(page)
    stored = api(page, match_url, "/hands/1")
    assert stored["hand"]["players"][0]["dealt_tunnelas"] == ["poplu", "ordinary_joker", "5S"]
    # Edited again, the box shows the kinds in the page's words.
    page.goto(match_url + "/hands/1/edit")
    assert page.input_value("#players-0-dealt_tunnelas") == "पप्लु, साधारण जोकर, 5S"
    assert page.console_errors == []


def test_a_payment_amount_typed_in_devanagari_is_stored(live_server, page):
    """The other payment's amount on a Nepali table page: "१५०.५०" is 150.50 (issue 36)."""
    ask_in(page, live_server, "ne")
    page.goto(f"{live_server}/tables/new")
    page.fill("#name", "शुक्रबारको टेबल")
    page.fill("#players", "Asha\nBikash\nChandra")
    type_into(page, "#stake-per_point", "०.५०")
    page.locator("form[action$='/tables/new'] .form-actions button[type=submit]").click()
    page.wait_for_url("**/tables/*")
    table_url = page.url
    page.locator(".payment-other summary").click()
    page.select_option("#payer", "Chandra")
    page.select_option("#payee", "Bikash")
    type_into(page, "#amount", "१५०.५०")
    page.locator(".payment-other button[type=submit]").first.click()
    # No night yet: Chandra owes Bikash nothing, so the form asks before it records.
    page.locator(".payment-other button[name=confirmed]", has_text="१५०.५०").click()
    page.locator(".flash-success", has_text="तिर्‍यो").wait_for()
    assert page.locator(".payment").count() == 1
    assert "१५०.५०" in page.locator(".payment").inner_text()
    path = table_url.removeprefix(live_server)
    payments = page.request.get(f"{live_server}/api/v1{path}/payments").json()["payments"]
    assert [(p["from"], p["to"], Decimal(p["amount"])) for p in payments] == [
        ("Chandra", "Bikash", Decimal("150.50"))
    ]
    assert page.console_errors == []
