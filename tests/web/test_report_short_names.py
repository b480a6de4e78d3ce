"""The printed report's table of hands cuts a long name where a letter ends
(ledger.matches.chart.short_name): a Devanagari name never ends in a half letter or a
letter without its vowel sign."""

from match_pages_support import BY_COUNTS, add_hand, create_match

#: 25 letters: cut at 23, as a cut by characters would, "क्षेत्री" ends in the half letter
#: "त्"; cut at 14, "खड्का" in the half letter "ड्".
LONG = "गणेशबहादुर खड्का क्षेत्री"
PLAYERS = [LONG, "Bikash", "Chandra", "Dipa"]


def test_the_report_cuts_a_long_devanagari_name_where_a_letter_ends(client):
    url = create_match(client, PLAYERS)  # the first player deals the first hand
    hand = {
        **BY_COUNTS,
        "winner": LONG,
        "players": [
            {**p, "name": LONG} if p["name"] == "Asha" else p for p in BY_COUNTS["players"]
        ],
    }
    add_hand(client, url, hand, PLAYERS)
    page = client.get(url).get_data(as_text=True)
    report = page[page.index('<div class="print-report">') :]
    hands = report[report.index('class="report-table hands-table') :]
    hands = hands[: hands.index("</table>")]
    # The dealer's and the finisher's cells (24 letters at most), and the column head
    # (15 and the seat number).
    assert hands.count("गणेशबहादुर खड्का क्षे…") == 2
    assert 'गणेशबहादुर ख… <span class="seat">(1)</span>' in hands
    assert "त्…" not in hands and "ड्…" not in hands
