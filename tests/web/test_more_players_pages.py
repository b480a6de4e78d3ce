"""Up to 8 players in a hand with four packs on the pages (docs/rules.md §7): the new-match
form and its overrides, the match's hand form, the match page, the summary PDF and the
dispute checker; the limits refused on their fields, in English and in Nepali."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from match_pages_support import create_match, engine_nets, hand_form, page_totals
from test_checker import errors_of, nets
from test_checker import hand_form as check_form

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "reports")]
from pdf_support import pdf_text  # noqa: E402

NE = {"Accept-Language": "ne-NP,ne;q=0.9"}
TEN = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz", "Gita", "Hari", "Indra", "Janak"]
FOUR_PACKS = {"profile": "sparkai", "packs": 4}
EIGHT_HAND = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H"]},
        {"name": "Bikash", "seen": "sequences", "maal_cards": ["8D", "8D", "8D", "8D"]},
        {"name": "Chandra", "seen": "sequences", "maal_counts": {"tiplu": 2}},
        {"name": "Dipa", "seen": "sequences", "maal": 0},
        {"name": "Esha", "seen": "unseen", "maal_cards": ["9H"]},
        {"name": "Firoz", "seen": "unseen", "maal_counts": {"jhiplu": 2}},
        {"name": "Gita", "seen": "sequences", "maal_cards": ["7H"]},
        {"name": "Hari", "seen": "dublees", "maal": 0},
    ],
}


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_ten_player_match_with_four_packs_plays_a_hand_of_eight(client):
    page = client.get("/matches/new").get_data(as_text=True)
    assert 'name="rules-packs"' in page  # the overrides picker offers the new settings
    assert 'name="rules-dealt_tunnela_bonus_mode"' in page
    assert 'value="keep_not_between_unseen"' in page
    url = create_match(client, TEN, **{"rules-packs": "4", "first_dealer": "0"})
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    # Before the first hand the dealer and the next seven play; two sit out.
    assert len(re.findall(r'<input[^>]*checked[^>]*name="players-\d+-plays"', form)) == 8
    response = client.post(f"{url}/hands/new", data=hand_form(EIGHT_HAND, TEN))
    assert response.status_code == 303, response.get_data(as_text=True)
    expected = engine_nets(EIGHT_HAND, FOUR_PACKS)
    assert expected["Bikash"] == 222  # four alters: 25 and the last step, 35
    html = client.get(url).get_data(as_text=True)
    assert page_totals(html) == {**dict.fromkeys(TEN, 0), **expected}
    hand = client.get(f"{url}/hands/1").get_data(as_text=True)
    assert "past its last entry: 25, and 10 more for each further one" in " ".join(hand.split())
    text = pdf_text(client.get(f"{url}/summary.pdf").data)
    for name in TEN:
        assert name in text
    assert "+222" in text


def test_a_three_pack_match_refuses_six_in_a_hand_on_the_page(client):
    url = create_match(client, TEN[:6])
    six = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [{"name": n, "seen": "sequences", "maal": 0} for n in TEN[:6]],
    }
    response = client.post(f"{url}/hands/new", data=hand_form(six, TEN[:6]))
    assert response.status_code == 422
    body = " ".join(response.get_data(as_text=True).split())
    assert "A hand has 2 to 5 players with three packs; this one lists 6." in body
    # The packs are the match's, not this form's: the page says what can be done here.
    told = (
        "Switch those who sit out this hand to “Sits out”, or play on four packs (up to 8 "
        "a hand) with “Change the rules…” on the match page."
    )
    assert told in body and "the packs setting" not in body
    nepali = client.post(f"{url}/hands/new", data=hand_form(six, TEN[:6]), headers=NE)
    said = re.findall(r"<li>([^<]*यसमा ६ जना[^<]*)</li>", nepali.get_data(as_text=True))
    assert said, "the sentence is on the Nepali page"
    assert "“बाहिर बस्छ”" in said[0] and "“नियम बदल्नुहोस्…”" in said[0]
    assert not re.search(r"[A-Za-z0-9]", said[0])  # no setting's id, no Western figure
    # What it says works: four packs from the rules page, and the six play.
    changed = client.post(f"{url}/rules", data={"rules-profile": "sparkai", "rules-packs": "4"})
    assert changed.status_code == 303, changed.get_data(as_text=True)
    saved = client.post(f"{url}/hands/new", data=hand_form(six, TEN[:6]))
    assert saved.status_code == 303, saved.get_data(as_text=True)


def eight_rows():
    return [(f"P{i}", "sequences" if i != 5 else "unseen", 10 * i) for i in range(8)]


def test_the_checker_takes_eight_rows_with_four_packs(client):
    body = client.post("/check", data=check_form(eight_rows(), **{"rules-packs": "4"}))
    assert body.status_code == 200
    shown = nets(body.get_data(as_text=True))
    expected = engine_nets(
        {
            "finish": "sequences",
            "winner": "P0",
            "players": [{"name": n, "seen": s, "maal": m} for n, s, m in eight_rows()],
        },
        FOUR_PACKS,
    )
    assert len(shown) == 8
    assert sum(expected.values()) == 0
    assert shown["P7"] == f"+{expected['P7']}"
    # Three packs: the form keeps five rows and says why the rest cannot be.
    three = client.post("/check", data=check_form(eight_rows()[:5], action="add_player"))
    assert 'name="players-5-name"' not in three.get_data(as_text=True)
    four = client.post(
        "/check", data=check_form(eight_rows()[:7], action="add_player", **{"rules-packs": "4"})
    )
    html = four.get_data(as_text=True)
    assert 'name="players-7-name"' in html
    assert 'value="add_player"' not in html  # eight rows: no more to add


def limit_breakers():
    return [
        {
            "name": "Asha",
            "seen": "sequences",
            "maal_mode": "counts",
            "count_tiplu": "3",
        },
        {
            "name": "Bikash",
            "seen": "sequences",
            "maal_mode": "counts",
            "dealt_tunnelas": ", ".join(["ordinary"] * 8),
        },
    ]


def test_the_limits_are_refused_on_their_fields_in_english(client):
    response = client.post("/check", data=check_form(limit_breakers(), profile="amarnepal"))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert errors_of(body, "players-0-count_tiplu").strip() == (
        "Asha cannot hold 3 tiplus: at most 2 copies of the tiplu can be in hands (one is "
        "set aside as the indicator). Enter 0 to 2."
    )
    assert errors_of(body, "players-1-dealt_tunnelas").strip() == (
        "Bikash lists 8 dealt tunnelas, but a player holds 21 cards: at most 7 tunnelas of 3."
    )


def test_the_limits_are_refused_on_their_fields_in_nepali(client):
    response = client.post(
        "/check", data=check_form(limit_breakers(), profile="amarnepal"), headers=NE
    )
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert errors_of(body, "players-0-count_tiplu").strip() == (
        "Asha सँग ३ वटा टिप्लु हुन सक्दैन: हातमा बढीमा २ वटा टिप्लु हुन सक्छ (एउटा पल्टाइएको "
        "पत्ता भएर छुट्याइन्छ)। ० देखि २ लेख्नुहोस्।"
    )
    assert errors_of(body, "players-1-dealt_tunnelas").strip() == (
        "Bikash का ८ वटा बाँड्दा आएका टनेला लेखिएका छन्, तर एक खेलाडीसँग २१ पत्ता मात्र "
        "हुन्छन्: ३ पत्ताका बढीमा ७ वटा टनेला।"
    )


def test_the_explanation_names_each_step_of_the_new_settings(client):
    example = [
        ("A", "sequences", 20),
        ("B", "sequences", 10),
        ("C", "unseen", 5),
        ("D", "unseen", 0),
    ]
    body = client.post(
        "/check", data=check_form(example, **{"rules-unseen_maal": "keep_not_between_unseen"})
    ).get_data(as_text=True)
    assert nets(body) == {"A": "+68", "B": "+2", "C": "−30", "D": "−40"}
    text = " ".join(body.split())
    assert "Two unseen players exchange nothing" in text
    assert "with the seen players only: 2 × 5 − (20 + 10)" in text
    assert "unseen, keeps the own maal, but exchanges nothing with the other unseen players" in text
    added = [
        {
            "name": "A",
            "seen": "sequences",
            "maal_mode": "cards",
            "maal_cards": "8H 9H",
            "dealt_tunnelas": "7H",
        },
        ("B", "sequences", 0),
    ]
    body = client.post(
        "/check",
        data=check_form(
            added, profile="amarnepal", tiplu="8H", **{"rules-dealt_tunnela_bonus_mode": "added"}
        ),
    ).get_data(as_text=True)
    assert "The bonus is added on top of the tunnela" in " ".join(body.split())
    assert nets(body)["A"].startswith("+")
    nepali = client.post(
        "/check",
        data=check_form(example, **{"rules-unseen_maal": "keep_not_between_unseen"}),
        headers=NE,
    ).get_data(as_text=True)
    assert "सिन खेलाडीसँग मात्र: २ × ५ − (२० + १०)" in " ".join(nepali.split())


def test_a_shared_link_of_six_players_needs_four_packs(client):
    from ledger.matches.share_link import encode_hand_link

    six = {
        "finish": "sequences",
        "winner": "P0",
        "players": [{"name": f"P{i}", "seen": "sequences", "maal": i} for i in range(6)],
    }
    three = client.get("/check?h=" + encode_hand_link({"rules": "sparkai", **six}))
    text = " ".join(three.get_data(as_text=True).split())
    assert "A hand has at most 5 players; P5 was left out." in text
    four = client.get("/check?h=" + encode_hand_link({"rules": FOUR_PACKS, **six}))
    assert four.status_code == 200
    assert len(nets(four.get_data(as_text=True))) == 6


@pytest.mark.parametrize(("headers", "said"), [({}, "2 to 12 players"), (NE, "२ देखि १२ जना")])
def test_the_new_match_form_says_how_many_players_a_match_takes(client, headers, said):
    """The form takes 12 (docs/rules.md §5), and each hand 2 to 8 with four packs."""
    page = " ".join(client.get("/matches/new", headers=headers).get_data(as_text=True).split())
    assert said in page
    assert ("2 to 8 with four packs" if not headers else "४ गड्डी तासमा २ देखि ८") in page
