"""A link shared in a chat shows as a card (templates/base.html): the page's title, a
line saying what it is, in the page's language, and the ledger's icon at the address
the links carry."""

import html
import re

import pytest

META = re.compile(r'<meta (?:name|property)="(description|og:[a-z_]+)" content="([^"]*)">')


def preview(page: str) -> dict[str, str]:
    return {name: html.unescape(content) for name, content in META.findall(page)}


def made(client, url: str, body: dict) -> dict:
    answer = client.post(url, json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


NAME = 'Dashain "big" <night>'


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "the scores of a Marriage match"), ("ne", "म्यारिज म्याचको अङ्क")],
)
def test_a_followed_match_shows_its_name_and_what_it_is(client, lang, line):
    match = made(
        client, "/api/v1/matches", {"name": NAME, "players": ["Asha", "Bikash"], "rules": "sparkai"}
    )
    client.set_cookie("lang", lang)
    page = client.get(f"/matches/{match['id']}").get_data(as_text=True)
    found = preview(page)
    assert found["og:title"].startswith(NAME)
    assert found["og:description"] == found["description"]
    assert found["description"].startswith(f"{NAME}: ") and line in found["description"]
    assert '"big" <night>' not in page  # escaped in the page itself


def test_a_table_says_what_it_is(client):
    table = made(
        client, "/api/v1/tables", {"name": NAME, "players": ["Asha", "Bikash"], "rules": "sparkai"}
    )
    found = preview(client.get(f"/tables/{table['id']}").get_data(as_text=True))
    assert found["og:title"].startswith(NAME)
    assert "nights, standings and money" in found["description"]


def test_the_icon_is_at_the_address_the_links_carry(make_app):
    app = make_app(PUBLIC_URL="https://ledger.example.org")
    client = app.test_client()
    found = preview(client.get("/").get_data(as_text=True))
    assert found["og:site_name"] == "Marriage ledger"
    image = found["og:image"]
    assert image.startswith("https://ledger.example.org/static/icons/icon-512.")
    answer = client.get(image.removeprefix("https://ledger.example.org"))
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    answer.close()
