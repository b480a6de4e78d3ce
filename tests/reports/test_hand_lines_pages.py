"""The summary's every hand in a few lines (templates/pdf/_hand_lines.html) across pages:
a hand's paragraph is not split by a page break, which left its last players' nets at the
top of the next page, cut from the hand they belong to."""

from __future__ import annotations

import pytest
from pdf_support import make_match, pdf_reader

#: Eight long names on four packs: each hand is three or four lines.
PLAYERS = [
    "Bishnu Prasad Koirala Sharma Adhikari",
    "Anjana Shrestha Pradhan Maharjan",
    "Chandrakala Bhattarai Wagle Pokhrel",
    "Dipendra Bahadur Shah Thakuri",
    "Esha Gurung",
    "Fulmaya Tamang Lama Gurung Magar",
    "Gobinda Prasad Acharya",
    "Hari Bahadur Karki",
]


@pytest.mark.slow  # seconds: lays out PDFs
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_hand_is_split_across_pages(app, client, paper):
    with app.app_context():
        match = make_match(
            40, players=PLAYERS, rules={"profile": "amarnepal", "packs": 4}, per_hand=8
        )
        public_id = match.public_id
    data = client.get(f"/matches/{public_id}/summary.pdf", query_string={"paper": paper}).data
    pages = [page.extract_text() for page in pdf_reader(data).pages]
    with_hands = [text for text in pages if "Hand 1" in text or "dealt by" in text]
    assert len(with_hands) >= 2
    for text in with_hands:
        first = next(line for line in text.splitlines() if line.strip())
        # A page of hands starts with a hand, or a heading: never with a hand's tail.
        assert first.startswith("Hand ") or "maal" not in first, first
