"""The season PDF of a family's table (tests/family_support.py), in English and Nepali:
on the page of the players' figures each player's form, their last five places, stays
on their row as one line: a place wrapped to the next line read as another row's."""

from __future__ import annotations

import family_support as family
import pytest
from pdf_support import pdf_reader

DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")


@pytest.mark.slow  # seconds: lays out a PDF
@pytest.mark.parametrize("lang", ["en", "ne"])
def test_each_players_form_stays_on_their_row(client, lang):
    table = family.build(*family.client_calls(client))
    season = table["seasons"][-1]
    stats = client.get(f"/api/v1/tables/{table['id']}/stats?season={season}").get_json()
    assert any(len(row["form"]) == 5 for row in stats["players"])
    client.get(f"/lang/{lang}?next=/")
    data = client.get(f"/tables/{table['id']}/season.pdf?season={season}").data
    lines = [line for page in pdf_reader(data).pages for line in page.extract_text().splitlines()]
    for row in stats["players"]:
        form = " ".join(map(str, row["form"]))
        # The figures' row: the name, then eleven figures and the form (the records'
        # lines and the standings' have fewer).
        (line,) = [
            line for line in lines if line.startswith(row["name"] + " ") and len(line.split()) > 12
        ]
        assert line.endswith(form if lang == "en" else form.translate(DEVANAGARI)), line
