"""The stake and the settle-up on the pages: the new-match form's stake, the match page's
stake form (editors only, CSRF), who pays whom in points and money (English and Nepali,
the page's digits), and nothing of it for a points race."""

from __future__ import annotations

import html as html_lib
import re
from decimal import Decimal

import pytest
from babel.numbers import format_currency
from match_pages_support import add_hand, create_match, new_match_form, squash
from settle_up_support import GREEDY_HANDS, SIX, engine_totals, fewest_by_search, greedy_count
from sqlalchemy import select

from ledger.extensions import db
from ledger.matches.models import Match

DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")
TRANSFER_ROW = re.compile(
    r'<th scope="row" class="payer">([^<]*)</th>\s*<td class="payee">([^<]*)</td>\s*'
    r'<td class="num" data-points="(\d+)">([^<]*)</td>'
    r'(?:<td class="num money" data-amount="([-\d.]+)">([^<]*)</td>)?'
)


def stake_fields(per_point: str = "0.50", currency: str = "NPR") -> dict[str, str]:
    return {"stake-per_point": per_point, "stake-currency": currency}


def new_stake_match(client, per_point="0.50", currency="NPR", **extra) -> str:
    """A match of six made through the page, with this stake; its url."""
    return create_match(client, players=SIX, **stake_fields(per_point, currency), **extra)


#: Every row's hidden name, as a browser posts the hand form (without them, the rows of
#: players who sit out would be missing and WTForms would number the others anew).
ROW_NAMES = {f"players-{i}-name": name for i, name in enumerate(SIX)}


def play(client, url: str, hands=GREEDY_HANDS) -> None:
    for hand in hands:
        add_hand(client, url, hand, players=SIX, **ROW_NAMES)


def stored(app) -> tuple[Decimal | None, str | None]:
    with app.app_context():
        match = db.session.scalars(select(Match)).one()
        return match.stake_per_point, match.stake_currency


def settle_up_part(html: str) -> str:
    """The match page's own settle-up section (not the copy its print report holds)."""
    found = re.search(r'<section class="settle-up" id="settle-up".*?</section>', html, re.S)
    assert found, "no settle-up on the page"
    return found.group(0)


def transfers(part: str) -> list[tuple]:
    """(payer, payee, points, amount, points as shown, money as shown) per row."""
    return [
        (payer, payee, int(points), amount, shown, html_lib.unescape(money or ""))
        for payer, payee, points, shown, amount, money in TRANSFER_ROW.findall(part)
    ]


# --- a new match with a stake ------------------------------------------------------------


def test_a_new_match_with_a_stake_settles_with_the_fewest_payments(app, client):
    url = new_stake_match(client)
    assert stored(app) == (Decimal("0.50"), "NPR")
    play(client, url)
    part = settle_up_part(client.get(url).get_data(as_text=True))
    totals = engine_totals(GREEDY_HANDS)
    rows = transfers(part)
    assert len(rows) == fewest_by_search(list(totals.values())) == greedy_count(totals) - 1
    flow = dict.fromkeys(SIX, 0)
    for payer, payee, points, amount, shown, money in rows:
        flow[payer] -= points
        flow[payee] += points
        assert Decimal(amount) == points * Decimal("0.50")
        assert shown == str(points)
        # Babel's "NPR1.50", with the space CLDR's currency spacing asks for
        babel = format_currency(Decimal(amount), "NPR", locale="en")
        assert money == babel.replace("NPR", "NPR\N{NO-BREAK SPACE}")
    assert flow == totals
    assert "Stake: NPR 0.50 a point." in squash(part)
    assert "4 payments settle the table; no fewer can." in squash(part)
    assert "−NPR\N{NO-BREAK SPACE}2.50" in part  # Dipa's balance, with a true minus sign


def _facts(page: str) -> str:
    return squash(
        re.sub(r"<[^>]+>", "", re.search(r'<p class="match-facts">(.*?)</p>', page, re.S).group(1))
    )


def test_the_stake_is_said_at_the_top_before_the_first_hand(app, client):
    """Before a hand is played there is no settle-up yet: the match's facts say what a
    point is worth, to the scorekeeper and to whoever follows, in their language."""
    url = new_stake_match(client)
    assert "NPR 0.50 a point" in _facts(client.get(url).get_data(as_text=True))
    follower = app.test_client()
    follower.set_cookie("lang", "ne")
    assert "प्रति अङ्क रु ०.५०" in _facts(follower.get(url).get_data(as_text=True))
    points_only = new_stake_match(client, per_point="")
    assert "a point" not in _facts(client.get(points_only).get_data(as_text=True))


def test_a_new_match_without_a_stake_plays_for_points(app, client):
    url = new_stake_match(client, per_point="")
    assert stored(app) == (None, None)
    play(client, url)
    part = settle_up_part(client.get(url).get_data(as_text=True))
    assert "No stake: the payments are in points." in part
    assert "Money" not in part and "data-amount" not in part
    assert len(transfers(part)) == 4


def test_the_stake_may_be_typed_in_devanagari_digits(app, client):
    new_stake_match(client, per_point="०.७५", currency="GBP")
    assert stored(app) == (Decimal("0.75"), "GBP")


def test_the_new_match_form_offers_the_stake_empty_with_common_currencies_first(client):
    page = client.get("/matches/new").get_data(as_text=True)
    assert re.search(r'<input[^>]*id="stake-per_point"[^>]*value=""', page)
    assert '<optgroup label="Often used"><option selected value="NPR">NPR · Nepalese Rupee' in page
    assert '<option value="JPY">JPY · Japanese Yen</option>' in page


BAD_FORM_STAKES = [
    ("half", "NPR", "per_point", "Enter the stake per point in digits"),
    ("1,5", "NPR", "per_point", "Enter the stake per point in digits"),
    ("0.505", "NPR", "per_point", "at most 2 decimal places"),
    ("0", "NPR", "per_point", "must be more than 0"),
    ("-2", "NPR", "per_point", "must be more than 0"),
    ("0.50", "XYZ", "currency", "XYZ is not an ISO 4217 currency code"),
]


@pytest.mark.parametrize(("per_point", "currency", "field", "words"), BAD_FORM_STAKES)
def test_a_bad_stake_on_the_new_match_form(app, client, per_point, currency, field, words):
    data = new_match_form(SIX, **stake_fields(per_point, currency))
    response = client.post("/matches/new", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    errors = re.search(rf'id="stake-{field}-errors">\s*<li>([^<]*)</li>', page)
    assert errors and words in html_lib.unescape(errors.group(1))
    assert f'aria-describedby="stake-{field}-errors"' in page
    assert f'value="{per_point}"' in page  # what was typed stays
    with app.app_context():
        assert db.session.scalars(select(Match)).first() is None


# --- the match page's stake form ---------------------------------------------------------


def test_an_editor_sets_changes_and_drops_the_stake(app, client):
    url = new_stake_match(client, per_point="")
    play(client, url)
    page = client.get(url).get_data(as_text=True)
    assert f'action="{url}/stake"' in page
    assert "<summary>Play for a stake, or change it</summary>" in page
    response = client.post(f"{url}/stake", data=stake_fields("2", "GBP"), follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "Stake saved: £2.00 a point." in page
    # Played for money now: the fold no longer offers to "play for a stake".
    assert "<summary>Change or drop the stake</summary>" in page and "Play for a stake" not in page
    client.set_cookie("lang", "ne")
    assert "<summary>दाउ बदल्नुहोस् वा हटाउनुहोस्</summary>" in client.get(url).get_data(as_text=True)
    client.set_cookie("lang", "en")
    assert stored(app) == (Decimal("2.00"), "GBP")
    rows = transfers(settle_up_part(page))
    assert [money for *_, money in rows] == [
        format_currency(points * 2, "GBP", locale="en") for _, _, points, *_ in rows
    ]
    assert re.search(r'<input[^>]*id="stake-per_point"[^>]*value="2.00"', page)  # shown again
    assert '<option selected value="GBP">' in page
    response = client.post(f"{url}/stake", data=stake_fields(""), follow_redirects=True)
    assert "No stake: this match is played for points only." in response.get_data(as_text=True)
    assert stored(app) == (None, None)


def test_a_bad_stake_on_the_match_page_is_shown_on_its_field(app, client):
    url = new_stake_match(client)
    response = client.post(f"{url}/stake", data=stake_fields("0.001", "NPR"))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'<details class="stake-edit no-print" open>', page)
    assert re.search(
        r'id="stake-per_point-errors">\s*<li>The stake per point can have at most 2', page
    )
    assert 'value="0.001"' in page
    assert stored(app) == (Decimal("0.50"), "NPR")


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "The stake per point can be at most 9999999999.99."),
        ("ne", "प्रति अङ्क दाउ बढीमा ९९९९९९९९९९.९९ हुन सक्छ।"),
    ],
)
def test_a_stake_too_large_is_told_in_the_forms_words(app, client, lang, sentence):
    """Not the API's "per_point can be at most …"."""
    url = new_stake_match(client)
    client.set_cookie("lang", lang)
    response = client.post(f"{url}/stake", data=stake_fields("99999999999999", "NPR"))
    assert response.status_code == 422
    assert re.search(
        rf'id="stake-per_point-errors">\s*<li>{re.escape(sentence)}</li>',
        response.get_data(as_text=True),
    )
    assert stored(app) == (Decimal("0.50"), "NPR")


def test_a_reader_sees_the_settle_up_but_no_stake_form(app, client):
    url = new_stake_match(client)
    play(client, url)
    reader = app.test_client()
    page = reader.get(url).get_data(as_text=True)
    assert "/stake" not in page and "stake-per_point" not in page
    assert len(transfers(settle_up_part(page))) == 4
    assert reader.post(f"{url}/stake", data=stake_fields("9", "USD")).status_code == 403
    assert stored(app) == (Decimal("0.50"), "NPR")


def test_the_stake_form_needs_a_csrf_token(csrf_client):
    page = csrf_client.get("/matches/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {**new_match_form(SIX, **stake_fields()), "csrf_token": token}
    url = csrf_client.post("/matches/new", data=data).headers["Location"]
    assert csrf_client.post(f"{url}/stake", data=stake_fields("3", "USD")).status_code == 400
    saved = csrf_client.post(f"{url}/stake", data={**stake_fields("3", "USD"), "csrf_token": token})
    assert saved.status_code == 303


def test_the_live_part_follows_a_stake_change(client):
    url = new_stake_match(client)
    play(client, url)
    version = int(re.search(r'data-version="(\d+)"', client.get(url).get_data(as_text=True))[1])
    assert client.get(f"{url}/live?v={version}").status_code == 204
    client.post(f"{url}/stake", data=stake_fields("1.10", "USD"))
    live = client.get(f"{url}/live?v={version}")
    assert live.status_code == 200
    rows = transfers(settle_up_part(live.get_data(as_text=True)))
    assert [amount for *_, amount, _, _ in rows] == [
        str(points * Decimal("1.10")) for _, _, points, *_ in rows
    ]


def test_during_the_match_it_says_the_totals_stand_now(client):
    url = new_stake_match(client, length_count="8")
    play(client, url, GREEDY_HANDS[:1])
    part = settle_up_part(client.get(url).get_data(as_text=True))
    assert "As the totals stand now:" in part
    assert len(transfers(part)) == 1
    play(client, url, GREEDY_HANDS[1:] * 2 + GREEDY_HANDS[:1])  # hand 8: over
    part = settle_up_part(client.get(url).get_data(as_text=True))
    assert "As the totals stand now:" not in part
    assert "Settle-up slip (PDF)" in part


# --- Nepali ------------------------------------------------------------------------------


def nepali_money(amount: Decimal, sign: str = "") -> str:
    written = format_currency(abs(amount), "NPR", locale="ne").replace("नेरू", "रु")  # CLDR's
    return sign + written.translate(DEVANAGARI)


def test_the_settle_up_in_nepali_with_nepali_digits(client):
    url = new_stake_match(client)
    play(client, url)
    client.set_cookie("lang", "ne")
    part = settle_up_part(client.get(url).get_data(as_text=True))
    assert "कसले कसलाई तिर्ने" in part
    assert f"दाउ: प्रति अङ्क {nepali_money(Decimal('0.50'))}।" in part
    rows = transfers(part)
    assert len(rows) == 4
    for _, _, points, amount, shown, money in rows:
        assert shown == str(points).translate(DEVANAGARI)
        assert money == nepali_money(Decimal(amount))
    assert "रु\N{NO-BREAK SPACE}१.५०" in part  # Dipa pays Bikash 3 points at 0.50
    assert nepali_money(Decimal("2.50"), "\N{MINUS SIGN}") in part  # Dipa's balance
    client.set_cookie("digits", "latn")
    part = settle_up_part(client.get(url).get_data(as_text=True))
    assert "रु\N{NO-BREAK SPACE}1.50" in part


def test_the_stake_form_in_nepali(client):
    client.set_cookie("lang", "ne")
    url = new_stake_match(client)
    page = client.get(url).get_data(as_text=True)
    assert "दाउ बदल्नुहोस् वा हटाउनुहोस्" in page  # played for money: not "play for a stake"
    assert '<option selected value="NPR">NPR · नेपाली रूपैयाँ</option>' in page
    # India's rupee spelt as Nepal spells its own, not CLDR's रूपिँया
    assert '<option value="INR">INR · भारतीय रुपैयाँ</option>' in page
    response = client.post(f"{url}/stake", data=stake_fields("abc"))
    assert "प्रति अङ्कको दाउ सङ्ख्यामा लेख्नुहोस्" in response.get_data(as_text=True)


# --- a points race -----------------------------------------------------------------------


def test_a_points_race_shows_no_settle_up_and_no_stake_form(client):
    url = new_stake_match(client, **{"rules-profile": "gamerules"})
    play(client, url, [GREEDY_HANDS[0]])
    page = client.get(url).get_data(as_text=True)
    assert 'class="settle-up"' not in page and "Who pays whom" not in page
    assert "stake-per_point" not in page
