"""The match page's stake form, for a match of a staked table: another currency is
refused beside the currency, in the page's language, and nothing is changed; the
amount a point may still change."""

from __future__ import annotations

import html

import pytest
from match_pages_support import field_errors
from table_pages_support import ROSTER, create_table, start_match


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "This table plays in NPR: a match of it is staked in NPR too"),
        ("ne", "यो टेबल NPR मा खेल्छ: यसको म्याचको दाउ पनि NPR मा हुन्छ"),
    ],
)
def test_another_currency_for_a_tables_match_is_refused_on_the_page(client, lang, words):
    url = create_table(client)
    match_id = start_match(client, url, ROSTER)
    client.set_cookie("lang", lang)
    form = {"stake-per_point": "1.00", "stake-currency": "USD"}
    refused = client.post(f"/matches/{match_id}/stake", data=form)
    assert refused.status_code == 422
    [error] = field_errors(refused.get_data(as_text=True), "stake-currency")
    assert words in html.unescape(error)
    stake = client.get(f"/api/v1/matches/{match_id}").get_json()["stake"]
    assert stake == {"per_point": "1.50", "currency": "NPR"}
    form["stake-currency"] = "NPR"
    assert client.post(f"/matches/{match_id}/stake", data=form).status_code == 303
