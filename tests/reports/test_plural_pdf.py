"""The season PDF's record of a player who played one night says "1 match", never
"1 matches"."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pdf_support import pdf_text, squeezed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from api_hands import play  # noqa: E402
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match  # noqa: E402


@pytest.mark.slow  # seconds: lays out a PDF
def test_a_record_of_one_night_says_1_match(client):
    url = create_table(client)
    play(client, start_match(client, url, ROSTER), edit_key(client, url), FOUR)
    text = squeezed(pdf_text(client.get(f"{url}/season.pdf").data))
    assert squeezed("1 match (") in text and squeezed("4 hands (") in text
    assert squeezed("1 matches") not in text
