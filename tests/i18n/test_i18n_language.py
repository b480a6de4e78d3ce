"""Which language a page speaks: Accept-Language, the switch and its cookie, the API in
English whatever is asked, and the digits setting."""

from __future__ import annotations

import html as html_module
import re

import pytest
from i18n_support import DEVANAGARI_DIGITS, NE, english_words, visible_text
from worked_example import WORKED_HAND

WORKED = {"rules": "sparkai", **WORKED_HAND}  # docs/rules.md §3: murder, four players


def lang_of(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def test_english_without_a_preference(client):
    html = client.get("/rules").get_data(as_text=True)
    assert lang_of(html) == "en"
    assert "House rules" in html


@pytest.mark.parametrize(
    "header", ["ne", "ne-NP", "ne-NP,ne;q=0.9,en;q=0.8", "fr;q=0.9, ne;q=0.8, en;q=0.1"]
)
def test_accept_language_nepali_gives_nepali_pages(client, header):
    html = client.get("/rules", headers={"Accept-Language": header}).get_data(as_text=True)
    assert lang_of(html) == "ne"
    assert "खेलका नियम" in html  # House rules


@pytest.mark.parametrize("header", ["en-GB", "fr, de", "hi", "en;q=0.9, ne;q=0.5", ""])
def test_other_browsers_get_english(client, header):
    html = client.get("/rules", headers={"Accept-Language": header}).get_data(as_text=True)
    assert lang_of(html) == "en"


def test_pages_vary_by_language(client):
    vary = client.get("/check").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


@pytest.mark.parametrize("path", ["/", "/check", "/rules", "/glossary", "/no-such-page"])
def test_every_page_has_the_switch_back_to_itself(client, path):
    html = client.get(path).get_data(as_text=True)
    assert f'href="/lang/ne?next={path}"' in html
    assert '<span class="lang-current" lang="en" aria-current="true">English</span>' in html
    html = client.get(path, headers=NE).get_data(as_text=True)
    assert f'href="/lang/en?next={path}"' in html
    assert 'aria-current="true">नेपाली</span>' in html


def test_the_switch_keeps_the_query(client):
    html = client.get("/check?h=abc").get_data(as_text=True)
    assert 'href="/lang/ne?next=/check?h%3Dabc"' in html


def test_switch_sets_a_long_lived_cookie_and_goes_back(client):
    response = client.get("/lang/ne?next=/rules%3Fx%3D1")
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules?x=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=ne;")
    assert "SameSite=Lax" in cookie and "Path=/" in cookie and "HttpOnly" in cookie
    assert int(re.search(r"Max-Age=(\d+)", cookie).group(1)) >= 365 * 24 * 3600
    # the choice wins over the browser's language from now on
    html = client.get("/rules").get_data(as_text=True)
    assert lang_of(html) == "ne"
    client.get("/lang/en?next=/rules")
    html = client.get("/rules", headers=NE).get_data(as_text=True)
    assert lang_of(html) == "en"


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/x",
        "//evil.example/x",
        "/\\evil.example",
        "\\\\evil.example",
        "javascript:alert(1)",
        "http:/evil.example",
        "/%0d%0aSet-Cookie:x=1",
        "evil.example",
        "",
    ],
)
def test_switch_never_redirects_off_the_site(client, target):
    response = client.get("/lang/ne", query_string={"next": target})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\"))
    assert "evil" not in location or location.startswith("/%")
    assert "\r" not in location and "\n" not in location


def test_switch_without_next_and_an_unknown_language(client):
    response = client.get("/lang/xx")
    assert response.headers["Location"] == "/"
    assert response.headers["Set-Cookie"].startswith("lang=en;")
    assert client.get("/lang/ne").headers["Location"] == "/"


def test_a_bad_cookie_is_ignored(client):
    client.set_cookie("lang", "xx")
    assert lang_of(client.get("/rules", headers=NE).get_data(as_text=True)) == "ne"
    assert lang_of(client.get("/rules").get_data(as_text=True)) == "en"


def test_api_answers_in_english_whatever_the_language(client):
    client.set_cookie("lang", "ne")
    bad = {**WORKED, "players": [{"name": "Asha", "seen": "sometimes", "maal_cards": ["1X"]}]}
    response = client.post("/api/v1/settle", json=bad, headers=NE)
    assert response.status_code == 422
    messages = [e["message"] for e in response.get_json()["errors"]]
    assert "seen must be sequences, dublees or unseen." in messages
    assert any(m.startswith("'1X' is not a card") for m in messages)
    assert not re.search("[\u0900-\u097f]", response.get_data(as_text=True))
    ok = client.post("/api/v1/settle", json=WORKED, headers=NE).get_json()
    assert {p["name"]: p["net"] for p in ok["players"]}["Asha"] == 41
    missing = client.get("/api/v1/matches/nothing-here", headers=NE).get_json()
    assert missing["errors"][0]["message"].startswith("There is no match at this address.")
    rules = client.get("/api/v1/rules", headers=NE).get_json()
    assert rules["profiles"][0]["title"] == "Amar Nepal"
    assert rules["settings"]["fee_unseen"] == "Fee each unseen player pays the finisher."


def test_engine_errors_on_a_nepali_page_are_nepali(client):
    """The same problems as the API's, on the checker page: in Nepali."""
    form = {
        "rules-profile": "sparkai",
        "finish": "sequences",
        "winner": "0",
        "players-0-name": "Asha",
        "players-0-seen": "sequences",
        "players-0-maal_mode": "cards",
        "players-0-maal_cards": "8H 1X",
        "players-1-name": "Bikash",
        "players-1-seen": "sequences",
        "players-1-maal_mode": "counts",
        "players-1-count_poplu": "9",
    }
    response = client.post("/check", data=form, headers=NE)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    errors = html_module.unescape(
        " ".join(re.findall(r'<ul class="field-errors"[^>]*>(.*?)</ul>', html, re.S))
    )
    assert "'1X' पत्ता होइन" in errors  # the engine's CardError
    assert "टिप्लु हाल्नुहोस्" in errors  # "Enter the tiplu": the engine's FieldError
    # the poplu's own range, naming the player, with its values in Devanagari
    assert "Bikash सँग ९ वटा पप्लु हुन सक्दैन" in errors
    assert "० देखि ३ लेख्नुहोस्" in errors
    assert not english_words(re.sub(r"<[^>]+>", " ", errors), ["JK", "Bikash"])  # a name
    # and the API says the same in English
    api = client.post(
        "/api/v1/settle",
        json={
            **WORKED,
            "tiplu": None,
            "players": [
                {"name": "Asha", "seen": "sequences", "maal_cards": ["8H", "1X"]},
                {"name": "Bikash", "seen": "sequences", "maal_counts": {"poplu": 9}},
            ],
        },
        headers=NE,
    ).get_json()
    messages = {e["field"]: e["message"] for e in api["errors"]}
    assert messages["players.1.maal_counts.poplu"] == (
        "Bikash cannot hold 9 poplus: the packs hold 3 copies of each card. Enter 0 to 3."
    )
    assert messages["tiplu"] == "Enter the tiplu: without it the cards cannot be counted."
    assert messages["players.0.maal_cards.1"].startswith("'1X' is not a card")


def test_service_errors_on_pages_are_translated(client):
    html = client.get("/no-such-page", headers=NE).get_data(as_text=True)
    assert "पेज भेटिएन" in html and "यो ठेगानामा कुनै पेज छैन" in html
    assert "Not Found" not in html


# --- digits ------------------------------------------------------------------------------


def test_nepali_pages_use_devanagari_digits_by_default(client):
    html = client.get("/rules", headers=NE).get_data(as_text=True)
    assert re.search(r"<td[^>]*>३ / ८</td>", html)
    assert not re.search(r"<td[^>]*>3 / 8</td>", html)


def test_the_digits_setting_switches_them(client):
    response = client.get("/digits/latn?next=/rules")
    assert response.status_code == 303 and response.headers["Location"] == "/rules"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("digits=latn;") and "SameSite=Lax" in cookie
    html = client.get("/rules", headers=NE).get_data(as_text=True)
    assert lang_of(html) == "ne"
    assert re.search(r"<td[^>]*>3 / 8</td>", html) and not re.search(r"<td[^>]*>३ / ८</td>", html)
    client.get("/digits/deva?next=/rules")
    html = client.get("/rules").get_data(as_text=True)  # English, Devanagari digits
    assert lang_of(html) == "en"
    assert re.search(r"<td[^>]*>३ / ८</td>", html)


def test_english_pages_use_western_digits_by_default(client):
    html = client.get("/rules").get_data(as_text=True)
    assert re.search(r"<td[^>]*>3 / 8</td>", html)
    assert not any(d in visible_text(html) for d in DEVANAGARI_DIGITS.replace("०", "")[:3])


def test_every_page_offers_the_digits_switch(client):
    html = client.get("/check", headers=NE).get_data(as_text=True)
    assert 'href="/digits/latn?next=/check"' in html
    html = client.get("/check").get_data(as_text=True)
    assert 'href="/digits/deva?next=/check"' in html


def test_digits_in_a_settlement_only_change_on_the_page(client):
    """Signed points and sums in the page's digits, the engine's numbers untouched
    (data-net stays Western: it is data, not text)."""
    form = {
        "rules-profile": "sparkai",
        "finish": "sequences",
        "winner": "0",
        **{
            f"players-{i}-{key}": value
            for i, p in enumerate(WORKED["players"])
            for key, value in (
                ("name", p["name"]),
                ("seen", p["seen"]),
                ("maal_mode", "number"),
                ("maal", str(p["maal"])),
            )
        },
    }
    html = client.post("/check", data=form, headers=NE).get_data(as_text=True)
    assert 'data-net="41">+४१</td>' in html
    assert 'data-net="-18">\u2212१८</td>' in html
    assert "१० + ५ + ० + ० = <strong>१५</strong>" in html
    client.set_cookie("digits", "latn")
    html = client.post("/check", data=form, headers=NE).get_data(as_text=True)
    assert 'data-net="41">+41</td>' in html
    assert 'data-net="-18">\u221218</td>' in html


def test_num_filter(app):
    from ledger.i18n import num, signed

    with app.test_request_context(headers=NE):
        assert num(1234567890) == "१२३४५६७८९०"
        assert num(-18) == "\u2212१८"
        assert num(7, sign=True) == "+७"
        assert num(0, sign=True) == "०"
        assert signed(-3) == "\u2212३"
        assert num("3 / 8") == "३ / ८"
        assert num(None) == ""
    with app.test_request_context():
        assert num(-18) == "\u221218" and signed(41) == "+41" and num(0) == "0"
    with app.test_request_context(headers=NE, environ_base={"HTTP_COOKIE": "digits=latn"}):
        assert num(-18) == "\u221218"


def test_card_ranks_stay_western(client):
    """Players read a card's rank off the card: 8♥ stays 8♥ on a Nepali page."""
    html = client.get(
        "/check", query_string={"h": _link({**WORKED, "tiplu": "8H"})}, headers=NE
    ).get_data(as_text=True)
    assert '<span class="card card-red">8♥</span>' in html
    assert '<span class="card card-red">9♥</span>' in html


def _link(request_json: dict) -> str:
    from ledger.matches.share_link import encode_hand_link

    return encode_hand_link(request_json)


def test_glossary_lists_the_game_words_in_both_languages(client):
    html = client.get("/glossary", headers=NE).get_data(as_text=True)
    assert lang_of(html) == "ne"
    for english, nepali in [
        ("tiplu", "टिप्लु"),
        ("poplu", "पप्लु"),
        ("jhiplu", "झिप्लु"),
        ("alter", "अल्टर"),
        ("maal", "माल"),
        ("dublee", "डब्ली"),
        ("tunnela", "टनेला"),
        ("marriage", "म्यारिज"),
        ("joker", "जोकर"),
        ("seen", "सिन"),
        ("unseen", "अनसिन"),
        ("murder", "मर्डर"),
        ("kidnap", "किड्न्याप"),
    ]:
        row = re.search(
            rf'<tr id="\w+">\s*<th scope="row" lang="en">{english}</th>(.*?)</tr>', html, re.S
        )
        assert row, english
        assert f'<td lang="ne">{nepali}</td>' in row.group(1)
    text = visible_text(html)
    assert not english_words(text), english_words(text)
    english = client.get("/glossary").get_data(as_text=True)
    assert "The card one rank above the tiplu" in english
    assert 'href="/glossary"' in client.get("/").get_data(as_text=True)


def test_a_switch_on_a_form_sent_back_opens_the_page_of_the_form(client):
    """A refused form's page has the address the form posts to (a POST only); the
    language or digits switch tapped there led to "Not this way" (405). It opens the
    nearest page above instead: the table's, where the form is; a page that a GET opens
    is opened as it is."""
    made = client.post(
        "/tables/new",
        data={"name": "Friday table", "players": "Asha\nBikash", "rules-profile": "sparkai"},
    )
    url = made.headers["Location"]
    refused = client.post(f"{url}/seasons", data={"name": ""})
    assert refused.status_code == 422
    link = re.search(r'href="(/lang/ne\?next=[^"]+)"', refused.text).group(1)
    assert link == f"/lang/ne?next={url}/seasons"
    switched = client.get(link)
    assert switched.status_code == 303 and switched.headers["Location"] == url
    assert "सिजन" in client.get(url).text
    digits = client.get(f"/digits/deva?next={url}/payments")
    assert digits.headers["Location"] == url
    assert client.get(f"/lang/en?next={url}/change").headers["Location"] == f"{url}/change"
    assert client.get("/lang/en?next=/nothing/here").headers["Location"] == "/nothing/here"
