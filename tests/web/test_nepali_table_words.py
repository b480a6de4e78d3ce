"""The table's pages read in Nepali (issue 36): the payment amount takes Devanagari digits
as the stake box does, its refusals are Nepali sentences with the field's label and
Devanagari figures (no `amount`, no JSON word, no "150.00"), the roster's "Change" is a
verb and the what-if column's a noun, and the numbers the review found in Western form
(a season's bare number, a rating's minus, a night's place) follow the page."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from api_hands import play
from match_pages_support import WORKED, add_hand, create_match, field_errors, hand_form
from table_pages_support import FOUR, ROSTER, create_table, edit_key, finished_night, start_match

from ledger.extensions import db
from ledger.tables.models import TablePayment

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "i18n")]

from i18n_support import visible_text  # noqa: E402

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def nepali(client) -> None:
    client.set_cookie("lang", "ne")


def amount_errors(html: str) -> str:
    found = re.search(r'id="amount-errors">(.*?)</ul>', html, re.S)
    assert found, "no errors under the amount"
    return re.sub(r"<[^>]+>", " ", found.group(1)).strip()


def stored_amounts(client, url: str) -> list[str]:
    return [p["amount"] for p in client.get(f"/api/v1{url}/payments").get_json()["payments"]]


@pytest.mark.parametrize("lang", ["ne", "en"])
@pytest.mark.parametrize(
    ("typed", "stored"), [("१५०.५०", "150.50"), ("१०", "10.00"), ("०.५", "0.50")]
)
def test_the_payment_amount_takes_devanagari_digits(client, lang, typed, stored):
    url = create_table(client)
    client.set_cookie("lang", lang)
    answer = client.post(
        f"{url}/payments",
        # No night yet: nobody owes, so "Yes, record" records it (its value as the form has it).
        data={"payer": "Asha", "payee": "Bikash", "amount": typed, "confirmed": typed},
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    assert stored_amounts(client, url) == [stored]  # with its 2 places, as the API keeps money


@pytest.mark.parametrize(
    ("typed", "sentence"),
    [
        ("abc", "रकम अङ्कमा लेख्नुहोस्, दशमलवपछि बढीमा २ अङ्क, जस्तै १५०.००।"),
        ("१०.५५५", "रकम अङ्कमा लेख्नुहोस्, दशमलवपछि बढीमा २ अङ्क, जस्तै १५०.००।"),
        ("०", "रकम ० भन्दा बढी र बढीमा ९९९९९९९९९९.९९ हुनुपर्छ।"),
    ],
)
def test_a_refused_amount_is_a_nepali_sentence_with_its_label(app, client, typed, sentence):
    url = create_table(client)
    nepali(client)
    answer = client.post(
        f"{url}/payments", data={"payer": "Asha", "payee": "Bikash", "amount": typed}
    )
    assert answer.status_code == 422
    message = amount_errors(answer.get_data(as_text=True))
    assert message == sentence
    assert not LATIN_WORD.search(message) and not re.search("[0-9]", message), message
    with app.app_context():
        assert db.session.query(TablePayment).count() == 0


@pytest.mark.parametrize(
    ("typed", "sentence"),
    [
        ("", "Enter the amount in digits, with at most 2 decimal places, like 150.00."),
        ("-5", "Enter the amount in digits, with at most 2 decimal places, like 150.00."),
        ("0", "The amount must be more than 0 and at most 9999999999.99."),
    ],
)
def test_a_refused_amount_reads_as_the_forms_english(app, client, typed, sentence):
    """In English too the form's words, not the API's sentence ("amount must be …")."""
    url = create_table(client)
    answer = client.post(
        f"{url}/payments", data={"payer": "Asha", "payee": "Bikash", "amount": typed}
    )
    assert answer.status_code == 422
    assert amount_errors(answer.get_data(as_text=True)) == sentence


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "Choose a player of the table: one on its roster, or a guest of a night."),
        ("ne", "टेबलको खेलाडी छान्नुहोस्: नामावलीमा भएको, वा कुनै रातको पाहुना।"),
    ],
)
@pytest.mark.parametrize(
    ("payer", "payee", "field"), [("Zed", "Asha", "payer"), ("Asha", "Zed", "payee")]
)
def test_a_payer_or_payee_not_of_the_table_is_told_in_the_forms_words(
    app, client, lang, sentence, payer, payee, field
):
    """Not the API's "from must be …": a name taken off the roster on another phone since
    the form was shown is refused beside the field, with no JSON key in it."""
    url = create_table(client)
    client.set_cookie("lang", lang)
    answer = client.post(f"{url}/payments", data={"payer": payer, "payee": payee, "amount": "5"})
    assert answer.status_code == 422
    assert field_errors(answer.get_data(as_text=True), field) == [sentence]
    with app.app_context():
        assert db.session.query(TablePayment).count() == 0


def test_the_api_keeps_json_types_and_its_english(client):
    """The API's amount is a JSON string of Western digits, as before; a JSON number gets
    the sentence about JSON numbers, a mistyped string the one about digits."""
    url = create_table(client)
    key = edit_key(client, url)
    headers = {"Authorization": f"Bearer {key}"}
    path = f"/api/v1{url}/payments"

    def refused(amount) -> str:
        answer = client.post(
            path, json={"from": "Asha", "to": "Bikash", "amount": amount}, headers=headers
        )
        assert answer.status_code == 422
        return answer.get_json()["errors"][0]["message"]

    assert "not a JSON number" in refused(150.5)
    assert (
        refused("abc")
        == 'amount must be written in digits with at most 2 decimal places, like "150.00".'
    )
    assert refused("0") == "amount must be more than 0 and at most 9999999999.99."
    assert (
        client.post(
            path, json={"from": "Asha", "to": "Bikash", "amount": "150.50"}, headers=headers
        ).status_code
        == 201
    )
    assert stored_amounts(client, url) == ["150.50"]


def test_the_rosters_change_is_a_verb_and_the_what_if_column_a_noun(client):
    url = create_table(client)
    key = edit_key(client, url)
    play(client, start_match(client, url, ROSTER), key, FOUR[:1])
    nepali(client)
    page = client.get(url).get_data(as_text=True)
    toggles = re.findall(r'<summary>([^<]*)<span class="visually-hidden">: Asha', page)
    assert toggles == ["बदल्नुहोस्"]
    what_if = client.get(f"{url}/what-if", query_string={"rules-profile": "everestbuzz"})
    columns = re.findall(
        r'<th scope="col" class="num">([^<]*)</th>', what_if.get_data(as_text=True)
    )
    assert "फरक" in columns and "बदल्नुहोस्" not in columns


def test_the_first_seasons_number_and_a_negative_rating_follow_the_page(client):
    url = finished_night(client)
    nepali(client)
    text = visible_text(client.get(url).get_data(as_text=True))
    assert "अङ्कतालिका · सिजन: १" in text and "सिजन: 1" not in text
    assert "पुरस्कार · सिजन: १" in text
    ratings = re.findall(
        r'data-ordinal="(-?[0-9.]+)">([^<]*)</td>', client.get(url).get_data(as_text=True)
    )
    negative = [shown for value, shown in ratings if value.startswith("-")]
    assert negative, ratings  # four hands leave someone below zero
    assert all(shown.startswith("\N{MINUS SIGN}") and "-" not in shown for shown in negative)


def test_a_season_named_by_a_number_is_told_in_the_pages_digits(client):
    url = create_table(client)
    nepali(client)
    begun = client.post(f"{url}/seasons", data={"name": "2"}, follow_redirects=True)
    text = visible_text(begun.get_data(as_text=True))
    assert "सिजन “२” सुरु भयो।" in text, text


def test_a_night_is_placed_without_a_western_ordinal(client):
    url = finished_night(client)
    nepali(client)
    text = visible_text(client.get(f"{url}/players/Asha").get_data(as_text=True))
    assert re.search(r"स्थान [१-४]", text), text
    assert "औँ स्थान" not in text


def test_a_hands_history_ends_its_sentence_with_the_pages_full_stop(client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    changed = {**WORKED, "players": [{**WORKED["players"][0], "maal": 12}, *WORKED["players"][1:]]}
    assert (
        client.post(f"{url}/hands/1/edit", data=hand_form(changed, version="1")).status_code == 303
    )
    nepali(client)
    history = client.get(f"{url}/hands/1").get_data(as_text=True).split('id="history-title"')[1]
    line = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", history.split("</p>")[0]))
    assert re.search(r"संस्करण १, पछिको संस्करणले ठाउँ लियो \([^।]+\)। ", line), line
    assert ")." not in line


def placeholders(html: str) -> list[str]:
    return re.findall(r'placeholder="([^"]*)"', html)


@pytest.mark.parametrize("page", ["/check", "/matches/new"])
def test_number_placeholders_follow_the_pages_digits(client, page):
    """The boxes take both digit sets, so their examples are in the page's digits; card
    codes (5S, 8H) keep their Western ranks."""
    figure = re.compile(r"(?<![A-Za-z0-9])[0-9]+(?![0-9A-Za-z])")
    english = placeholders(client.get(page).get_data(as_text=True))
    assert any(figure.search(p) for p in english), english  # there are figures to show
    nepali(client)
    shown = placeholders(client.get(page).get_data(as_text=True))
    assert [p for p in shown if figure.search(p)] == []
    assert any(re.search("[०-९]", p) for p in shown), shown


def test_the_other_payment_is_another_only_beside_the_transfers(client):
    """A table with nothing to settle offers "Record a payment", not "another" (issue 36)."""
    url = create_table(client)
    nepali(client)
    summary = re.search(
        r'class="payment-other".*?<summary>([^<]*)</summary>',
        client.get(url).get_data(as_text=True),
        re.S,
    )
    assert summary.group(1) == "भुक्तानी लेख्नुहोस्"
    key = edit_key(client, url)
    play(client, start_match(client, url, ROSTER), key, FOUR)
    summary = re.search(
        r'class="payment-other".*?<summary>([^<]*)</summary>',
        client.get(url).get_data(as_text=True),
        re.S,
    )
    assert summary.group(1) == "अर्को भुक्तानी लेख्नुहोस्"
