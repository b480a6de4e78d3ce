"""What the people who check a disputed hand need to follow it, on the dispute checker
and on a match's page for one stored hand: why the maal formed the marriages it did
(however it was entered), and the stored hand opened in the checker to try a change."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import pytest
from match_pages_support import add_hand, create_match, squash
from match_pages_support import hand_form as match_hand_form
from test_checker import errors_of, hand_form, nets, share_link, text_of

from ledger.matches.share_link import decode_hand_link

#: docs/rules.md §2's example: one tiplu, three poplus, three jhiplus; under classic no
#: marriage (3 + 10 + 10 = 23) beats one (10 + 5 + 5 = 20).
THREE_THREE_ONE = {"tiplu": 1, "poplu": 3, "jhiplu": 3}

GROUPING_HAND = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_counts": THREE_THREE_ONE},
        {"name": "Bikash", "seen": "sequences", "maal_cards": ["8H", "5C"]},
        {"name": "Chandra", "seen": "unseen", "maal_cards": []},
        {"name": "Dipa", "seen": "sequences", "maal_cards": []},
    ],
}


def test_a_maal_given_as_counts_says_why_its_grouping_won(client):
    counts = {f"count_{kind}": str(n) for kind, n in THREE_THREE_ONE.items()}
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "counts", **counts},
        {"name": "Bikash", "seen": "sequences", "maal_mode": "number", "maal": "0"},
    ]
    text = text_of(
        client.post("/check", data=hand_form(players, profile="classic")).get_data(as_text=True)
    ).replace(" .", ".")
    assert "Own maal 23" in text
    assert "one marriage: 20 · no marriage: 23 (chosen)" in text
    assert "form the number of marriages that scores most" in text


def test_a_stored_hand_says_why_its_grouping_won(client):
    url = create_match(client, **{"rules-profile": "classic"})
    add_hand(client, url, GROUPING_HAND)
    text = text_of(client.get(url + "/hands/1").get_data(as_text=True)).replace(" .", ".")
    assert "one marriage: 20 · no marriage: 23 (chosen)" in text
    assert text.count("could form other numbers") == 1  # Bikash's one tiplu: no choice


def test_the_grouping_sentence_ends_as_a_nepali_sentence(client):
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "cards", "maal_cards": "7H 8H 9H"},
        {"name": "Bikash", "seen": "sequences", "maal_mode": "number", "maal": "0"},
    ]
    data = hand_form(players, profile="classic", tiplu="8H")
    body = client.post("/check", data=data, headers={"Accept-Language": "ne"})
    grouped = re.search(r'<p class="groupings">(.*?)</p>', body.get_data(as_text=True), re.S)
    sentence = squash(text_of(grouped.group(1)))
    # Each sentence ends with the danda, never with a Latin full stop.
    assert "." not in sentence, sentence
    assert sentence.count("।") == 2, sentence


def test_a_stored_hand_opens_in_the_checker_with_the_match_rules(client):
    url = create_match(client, **{"rules-profile": "classic", "rules-unseen_maal": "kidnap"})
    add_hand(client, url, GROUPING_HAND)
    page = client.get(url + "/hands/1").get_data(as_text=True)
    found = re.search(r'<a[^>]*class="[^"]*check-in-checker[^"]*"[^>]*href="([^"]+)"', page)
    assert found, "no link to the dispute checker"
    link = urlsplit(found.group(1).replace("&amp;", "&"))
    assert link.path == "/check"
    carried = decode_hand_link(link.query.removeprefix("h="))
    assert carried["rules"] == {"profile": "classic", "unseen_maal": "kidnap"}
    assert [p["name"] for p in carried["players"]] == ["Asha", "Bikash", "Chandra", "Dipa"]
    # The checker settles it as the match did.
    opened = client.get(link.path + "?" + link.query).get_data(as_text=True)
    match_nets = nets(page)
    assert nets(opened) == match_nets


def test_a_tunnela_without_bonus_says_so_once_after_its_cards(client):
    """An unseen player's dealt tunnela: its cards, then why it earns no bonus, in one
    short row (not "no bonus (No bonus: …)" before the cards)."""
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "number", "maal": "10"},
        {
            "name": "Dipa",
            "seen": "unseen",
            "maal_mode": "counts",
            "dealt_tunnelas": "jhiplu",
        },
    ]
    body = client.post("/check", data=hand_form(players, profile="amarnepal", tiplu="8H"))
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</th>", body.get_data(as_text=True), re.S)
    row = next(squash(text_of(r)) for r in rows if "tunnela" in text_of(r).lower())
    assert row.lower().count("no bonus") == 1, row
    assert row.index("7♥") < row.index("No bonus:"), row


#: An unseen player's dealt tunnela of ordinary cards: it earns no bonus and its cards
#: are no maal (amarnepal murders the unseen maal; Bikash's own maal is his poplu, 2).
UNSEEN_TUNNELA_HAND = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["8H"]},
        {"name": "Bikash", "seen": "unseen", "maal_cards": ["9H", "4C"], "dealt_tunnelas": ["5S"]},
        {"name": "Chandra", "seen": "sequences", "maal_cards": []},
        {"name": "Dipa", "seen": "sequences", "maal_cards": []},
    ],
}


def _maal_rows(body: str, name: str) -> list[str]:
    """The rows of one player's maal table in the steps, as text."""
    article = re.search(
        rf'<article class="settle-player">\s*<h4>{name} .*?</article>', body, re.S
    ).group(0)
    table = re.search(r'<table class="maal-items">(.*?)</table>', article, re.S).group(1)
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]  # under the heading row
    return [squash(text_of(row)) for row in rows]


@pytest.mark.parametrize("language", ["en", "ne"])
def test_an_unseen_players_ordinary_tunnela_is_listed_once(client, language):
    """Its three cards are in the tunnela's row only (a "not maal" row repeated them at
    0), in the checker and on the stored hand's page, and the rows still add up."""
    url = create_match(client, **{"rules-profile": "amarnepal"})
    add_hand(client, url, UNSEEN_TUNNELA_HAND)
    stored = client.get(url + "/hands/1", headers={"Accept-Language": language})
    link = re.search(
        r'class="[^"]*check-in-checker[^"]*" href="([^"]+)"', stored.get_data(as_text=True)
    )
    checked = client.get(html.unescape(link.group(1)), headers={"Accept-Language": language})
    for body in (stored.get_data(as_text=True), checked.get_data(as_text=True)):
        rows = _maal_rows(body, "Bikash")
        assert sum(row.count("5♠") for row in rows) == 3, rows
        assert [row.rsplit(" ", 1)[1] for row in rows] == (
            ["0", "2", "0", "2"] if language == "en" else ["०", "२", "०", "२"]
        ), rows  # the tunnela, the poplu, the 4♣ that is no maal, and the own maal
        said = "no other row lists them" if language == "en" else "अरू कुनै हरफमा"
        assert said in rows[0], rows[0]  # why the 5♠ are in no other row


def test_an_override_that_is_no_number_says_what_is_allowed(client):
    """Each override's error names the setting, says what is wrong and what it takes,
    in both languages; the other overrides' problems are told at the same time."""
    players = [("Asha", "sequences", 10), ("Bikash", "sequences", 0)]
    data = hand_form(
        players,
        profile="amarnepal",
        **{"rules-fee_seen": "abc", "rules-packs": "x", "rules-tiplu": "3 / 2"},
    )
    body = client.post("/check", data=data).get_data(as_text=True)
    assert "whole number from 0 to 1000" in errors_of(body, "rules-fee_seen")
    assert "3 or 4" in errors_of(body, "rules-packs")
    assert "must not fall" in errors_of(body, "rules-tiplu")  # told now, not after a fix
    ne = client.post("/check", data=data, headers={"Accept-Language": "ne"})
    nepali = ne.get_data(as_text=True)
    assert "० देखि १००० सम्म" in errors_of(nepali, "rules-fee_seen")
    assert "३ वा ४" in errors_of(nepali, "rules-packs")


def test_a_sixth_player_is_never_dropped_without_a_word(client):
    """Six rows posted under three packs (four packs were chosen, then taken back): the
    sixth player stays on the form and the hand is refused with what to do, not
    settled among five as if the sixth had not played."""
    six = [(name, "sequences", i) for i, name in enumerate(["A", "B", "C", "D", "E", "F"])]
    response = client.post("/check", data=hand_form(six, profile="sparkai"))
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert 'name="players-5-name"' in body and 'value="F"' in body
    assert "this one lists 6. Four packs (the packs setting) deal to 2 to 8." in text_of(body)
    # With four packs the same rows settle, all six of them.
    four = client.post("/check", data=hand_form(six, profile="sparkai", **{"rules-packs": "4"}))
    assert four.status_code == 200
    assert set(nets(four.get_data(as_text=True))) == {"A", "B", "C", "D", "E", "F"}


def test_a_shared_hand_opens_at_its_settlement(client):
    """Whoever the link is sent to lands on the steps (as "Settle and explain" does),
    not three screens of form above them; the form is there to scroll up to."""
    players = [("Asha", "sequences", 10), ("Bikash", "sequences", 0)]
    body = client.post("/check", data=hand_form(players)).get_data(as_text=True)
    link = urlsplit(share_link(body))
    assert link.fragment == "hand-preview"
    assert decode_hand_link(link.query.removeprefix("h="))["players"][0]["name"] == "Asha"
    assert 'id="hand-preview"' in client.get(link.path + "?" + link.query).get_data(as_text=True)


def test_a_foul_penalty_says_who_pays_it_to_whom(client):
    """A foul settled in its own hand: the finisher's penalty line names who fouled, the
    foul player's names the finisher (not "for the others' fouls")."""
    players = [
        ("Asha", "dublees", 10),
        ("Bikash", "sequences", 6),
        {"name": "Esha", "seen": "sequences", "maal_mode": "number", "maal": "7", "foul": "y"},
    ]
    data = hand_form(players, profile="amarnepal", finish="dublees", **{"rules-foul": "same_hand"})
    text = squash(text_of(client.post("/check", data=data).get_data(as_text=True)))
    assert "Foul penalty +15 received for fouls: Esha 15" in text
    assert "Foul penalty −15 paid to Asha for the foul" in text


def test_the_maal_line_names_the_printed_joker_where_the_pack_has_them(client):
    """ "Which cards are maal": under rules with printed jokers, the line under the tiplu
    lists them with the tiplu's own maal cards; where the pack has none, it does not."""
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "cards", "maal_cards": "JK 8H"},
        ("Bikash", "sequences", 0),
    ]

    def maal_line(profile: str) -> str:
        data = hand_form(players, profile=profile, tiplu="8H")
        if profile == "sparkai":
            data["players-0-maal_cards"] = "8H"
        body = client.post("/check", data=data).get_data(as_text=True)
        return squash(text_of(re.search(r'<p class="settlement-tiplu">(.*?)</p>', body, re.S)[1]))

    assert maal_line("amarnepal") == "Tiplu 8♥ · poplu 9♥ · jhiplu 7♥ · alter 8♦ · printed joker"
    assert maal_line("sparkai") == "Tiplu 8♥ · poplu 9♥ · jhiplu 7♥ · alter 8♦"


def test_the_match_hand_form_preview_says_why_its_grouping_won(client):
    """The steps folded under a match's hand form are the checker's: with the grouping."""
    url = create_match(client, **{"rules-profile": "classic"})
    form = match_hand_form(GROUPING_HAND)
    text = text_of(client.post(url + "/hands/preview", data=form).get_data(as_text=True))
    assert "one marriage: 20 · no marriage: 23 (chosen)" in text.replace(" .", ".")


def test_the_rules_are_named_once(client):
    """The points race's title has "rules" in it already: "Game rules (points race)
    rules." said it twice."""
    players = [("A", "sequences", 5), ("B", "unseen", 4)]
    data = hand_form(players, profile="gamerules")
    facts = re.search(
        r'<p class="settlement-facts">(.*?)</p>',
        client.post("/check", data=data).get_data(as_text=True),
        re.S,
    )
    text = squash(text_of(facts[1]))
    assert text.startswith("House rules: Game rules (points race)."), text
    changed = hand_form(players, profile="sparkai", **{"rules-fee_seen": "5"})
    facts = re.search(
        r'<p class="settlement-facts">(.*?)</p>',
        client.post("/check", data=changed).get_data(as_text=True),
        re.S,
    )
    assert squash(text_of(facts[1])).startswith("House rules: Sparkai, changed: fee seen 5.")


def test_cards_typed_with_devanagari_digits_are_read(client):
    """A Nepali keyboard types ८H: the card boxes read Devanagari digits as the number
    boxes do (the same hand as 8H, settled the same)."""

    def settled(tiplu: str, cards: str, tunnela: str) -> dict[str, str]:
        players = [
            {
                "name": "आशा",
                "seen": "sequences",
                "maal_mode": "cards",
                "maal_cards": cards,
                "dealt_tunnelas": tunnela,
            },
            ("बिकाश", "sequences", 0),
        ]
        data = hand_form(players, profile="amarnepal", tiplu=tiplu)
        response = client.post("/check", data=data, headers={"Accept-Language": "ne"})
        assert response.status_code == 200, text_of(response.get_data(as_text=True))[-600:]
        return nets(response.get_data(as_text=True))

    assert settled("८H", "७H ८H ९H १०D", "५S") == settled("8H", "7H 8H 9H 10D", "5S")


def test_a_finisher_whose_name_is_refused_is_not_also_called_no_player(client):
    """Too long a name is the one problem: the finisher's box does not add that this
    player is "not one of this hand's players"."""
    long_name = "A" * 41
    data = hand_form([(long_name, "sequences", 5), ("Bikash", "sequences", 1)])
    body = client.post("/check", data=data).get_data(as_text=True)
    assert "at most 40 characters" in errors_of(body, "players-0-name")
    assert errors_of(body, "winner") == ""
    assert "is not one of this hand's players" not in text_of(body)


def test_a_maal_that_is_no_number_says_the_range_of_its_box(client):
    """ "2.5" and "x" get the range their box takes, as "50000" does (the engine's words
    for each box), not only "a whole number"."""
    players = [
        ("Asha", "sequences", 5),
        ("Bikash", "sequences", "2.5"),
        {"name": "Chandra", "seen": "sequences", "maal_mode": "counts", "count_tiplu": "x"},
    ]
    data = hand_form(players, profile="amarnepal")
    body = client.post("/check", data=data).get_data(as_text=True)
    assert errors_of(body, "players-1-maal").strip() == "Enter a whole number from 0 to 10000."
    assert errors_of(body, "players-2-count_tiplu").strip() == "Enter a whole number from 0 to 2."
    nepali = client.post("/check", data=data, headers={"Accept-Language": "ne"})
    said = errors_of(nepali.get_data(as_text=True), "players-2-count_tiplu")
    assert said.strip() == "० देखि २ सम्मको पूर्ण सङ्ख्या लेख्नुहोस्।"


def test_the_unseen_players_maal_points_say_what_is_summed(client):
    """keep_not_between_unseen with two unseen players: the sentence says, as the Nepali
    one does, that an unseen player's maal points sum (own E − each seen player's E);
    "E − E of each seen player" left a doubtful player to guess which E came first."""
    players = [
        ("Asha", "sequences", 20),
        ("Bikash", "sequences", 10),
        ("Chandra", "unseen", 5),
        ("Dipa", "unseen", 0),
    ]
    data = hand_form(
        players, profile="amarnepal", **{"rules-unseen_maal": "keep_not_between_unseen"}
    )
    text = squash(text_of(client.post("/check", data=data).get_data(as_text=True)))
    assert "the sum, over each seen player, of (their own E − that player's E)" in text
    # Chandra: (5 − 20) + (5 − 10) = −20, as the steps show it
    assert "Maal points −20 with the seen players only: 2 × 5 − (20 + 10)" in text


def test_a_points_race_bonus_is_not_said_to_come_from_the_others_in_nepali(client):
    """A points race: nobody pays, so the finisher's bonus is so much "for each other
    player" (अरू हरेक खेलाडीको), not "from each other player" (…खेलाडीबाट), as the English
    "per opponent" says."""
    players = [("Asha", "sequences", 10), ("Bikash", "unseen", 5), ("Chandra", "sequences", 7)]
    data = hand_form(players, profile="gamerules")
    body = client.post("/check", data=data, headers={"Accept-Language": "ne"})
    steps = re.search(
        r'<section class="settlement".*?</section>', body.get_data(as_text=True), re.S
    )
    text = squash(text_of(steps.group(0)))
    assert "गेम बोनस: अरू हरेक खेलाडीको १०" in text
    assert "खेलाडीबाट" not in text
