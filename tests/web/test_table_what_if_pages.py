"""The table's "What if…?" page (ledger/web/table_what_if.py): the season's standings
as played and under the rules picked, as the season rescore API gives them."""

from __future__ import annotations

import re

from table_pages_support import FOUR, ROSTER, create_table, edit_key, play, start_match


def rows(html: str) -> dict[str, tuple[str, int]]:
    found = re.findall(
        r'<tr><th scope="row">([^<]+)</th>\s*<td class="num">([^<]+)</td>\s*'
        r'<td class="num total" data-total="(-?\d+)">',
        html,
    )
    return {name: (played, int(total)) for name, played, total in found}


def test_the_page_shows_the_season_under_the_rules_picked(client):
    url = create_table(client)
    key = edit_key(client, url)
    for _ in range(2):
        play(client, start_match(client, url, ROSTER), key, FOUR)
    assert 'href="' + url + "/what-if?season=" in client.get(url).get_data(as_text=True)
    own = client.get(f"{url}/what-if")
    assert own.status_code == 200
    html = own.get_data(as_text=True)
    assert "the table&#39;s own rules" in html or "the table's own rules" in html
    page = client.get(f"{url}/what-if", query_string={"rules-profile": "everestbuzz"})
    assert page.status_code == 200
    api = client.post(f"/api/v1{url}/rescore", json={"rules": "everestbuzz"}).get_json()
    got = rows(page.get_data(as_text=True))
    assert {n: t for n, (_, t) in got.items()} == {p["name"]: p["total"] for p in api["players"]}
    assert any(p["total"] != p["total_as_played"] for p in api["players"])  # a real change


def test_a_bad_override_is_422_on_its_field_and_an_unknown_season_404(client):
    url = create_table(client)
    bad = client.get(
        f"{url}/what-if", query_string={"rules-profile": "sparkai", "rules-marriage": "lots"}
    )
    assert bad.status_code == 422
    assert 'id="rules-marriage-errors"' in bad.get_data(as_text=True)
    assert client.get(f"{url}/what-if", query_string={"season": "nope"}).status_code == 404


def test_the_page_in_nepali(client):
    url = create_table(client)
    client.get("/lang/ne")
    html = client.get(f"{url}/what-if", query_string={"rules-profile": "everestbuzz"}).get_data(
        as_text=True
    )
    assert "के भए…?" in html and "What if" not in html
