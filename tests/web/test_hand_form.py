"""The hand form (ledger.forms: hand_setup, hand_reading, hand_filling) as the match
pages use it: fixed names, sit-outs, the settle format both ways, and the macros rendered
for a match's players."""

from flask import render_template_string
from werkzeug.datastructures import MultiDict

from ledger.engine import PROFILES
from ledger.forms.hand_filling import hand_formdata
from ledger.forms.hand_reading import check_hand, read_hand_form
from ledger.forms.hand_setup import build_hand_form

MATCH = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz"]

HAND = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "8D"]},
        {"name": "Chandra", "seen": "dublees", "maal_counts": {"tiplu": 1, "poplu": 2}},
        {"name": "Dipa", "seen": "unseen", "maal": 8},
        {"name": "Firoz", "seen": "sequences", "dealt_tunnelas": ["5S", "poplu"], "foul": True},
    ],
}


def test_settle_format_round_trips_through_the_form(app):
    rules = PROFILES["amarnepal"]
    formdata, notes = hand_formdata(HAND, players=MATCH)
    assert notes == []
    with app.test_request_context(method="POST"):
        form = build_hand_form(rules, players=MATCH, formdata=formdata)
        assert form.sit_outs  # six registered players
        read = read_hand_form(form)
    expected = {**HAND, "players": [dict(p) for p in HAND["players"]]}
    del expected["players"][3]["foul"]  # amarnepal does not penalise fouls: no foul field
    assert read.data == expected
    assert read.rows == [0, 2, 3, 5]


def rows():
    """What the page posts for every row whatever was entered (hidden name, the mode)."""
    return {
        **{f"players-{i}-name": name for i, name in enumerate(MATCH)},
        **{f"players-{i}-maal_mode": "counts" for i in range(len(MATCH))},
    }


def test_match_names_are_fixed_and_sit_outs_respected(app):
    rules = PROFILES["sparkai"]
    posted = MultiDict(
        {
            **rows(),
            "players-0-name": "Mallory",  # ignored: the match's names are fixed
            "players-0-plays": "y",
            "players-0-seen": "sequences",
            "players-0-maal_mode": "number",
            "players-0-maal": "10",
            "players-1-plays": "y",
            "players-1-seen": "unseen",
            "players-1-maal_mode": "counts",
            "players-4-seen": "sequences",  # sits out: no "plays"
            "finish": "sequences",
            "winner": "0",
        }
    )
    with app.test_request_context(method="POST"):
        form = build_hand_form(rules, players=MATCH, formdata=posted)
        check = check_hand(form, rules)
    assert check.ok, check.problems
    assert [p["name"] for p in check.data["players"]] == ["Asha", "Bikash"]
    assert {p["name"]: p["net"] for p in check.settlement["players"]} == {
        "Asha": 20,
        "Bikash": -20,
    }


def test_a_sitting_out_finisher_is_a_problem_on_the_winner(app):
    rules = PROFILES["sparkai"]
    posted = MultiDict(
        {
            **rows(),
            "players-0-plays": "y",
            "players-0-seen": "sequences",
            "players-1-plays": "y",
            "players-1-seen": "sequences",
            "finish": "sequences",
            "winner": "5",
        }
    )
    with app.test_request_context(method="POST"):
        form = build_hand_form(rules, players=MATCH, formdata=posted)
        check = check_hand(form, rules)
    assert not check.ok
    assert form.winner.errors == ["Firoz is not playing this hand; choose one of its players."]


def test_new_hand_form_for_a_match_renders(app):
    rules = PROFILES["gamerules"]
    with app.test_request_context():
        form = build_hand_form(rules, players=MATCH, playing=MATCH[:4])
        page = render_template_string(
            '{% from "hand/_form.html" import hand_form %}'
            '{{ hand_form(form, "/m/x/hands", "/m/x/hands/preview", submit_label="Save hand") }}',
            form=form,
        )
    assert page.count('class="player-title"') == 6
    # h2: the page's h1 is the hand, each player a section under it (headings in order)
    assert '<h2 class="player-title" id="player-0-title">Asha</h2>' in page
    assert 'class="player-name"' not in page  # names are not typed in a match
    assert '<input type="hidden" name="players-0-name" value="Asha">' in page
    assert page.count('name="players-4-plays" type="checkbox" value="y"') == 1
    assert 'checked id="players-0-plays"' in page
    assert 'checked id="players-4-plays"' not in page
    assert "players-0-count_marriages_shown" in page  # gamerules scores shown marriages
    assert "players-0-count_alter" not in page  # and has no alters
    assert 'value="dublees"' not in page.split('id="finish"')[0]  # no dublees there
    assert "Save hand" in page
    assert 'hx-post="/m/x/hands/preview"' in page


def test_dealt_tunnelas_are_read_in_the_game_words_of_either_language(app):
    """Issue 26: पप्लु, साधारण जोकर, "ordinary joker" and the ids all name their kind;
    card codes stay as typed."""
    from ledger.forms.hand_reading import tunnela_entries

    with app.test_request_context():
        assert tunnela_entries("5S, पप्लु; साधारण  जोकर, ordinary joker, Printed joker 8H") == [
            "5S",
            "poplu",
            "ordinary_joker",
            "ordinary_joker",
            "printed_joker",
            "8H",
        ]
        assert tunnela_entries("साधारण, टिप्लु झिप्लु अल्टर छापिएको जोकर") == [
            "ordinary",
            "tiplu",
            "jhiplu",
            "alter",
            "printed_joker",
        ]
        # A word inside another entry is not a kind.
        assert tunnela_entries("poplus") == ["poplus"]


def test_a_refused_tunnela_lists_the_kinds_in_the_page_language(app):
    rules = PROFILES["amarnepal"]
    hand = {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "dealt_tunnelas": ["पप्लु", "बादशाह"]},
            {"name": "Bikash", "seen": "sequences"},
        ],
    }
    formdata, _ = hand_formdata(hand, players=MATCH[:2])
    headers = {"Accept-Language": "ne"}
    with app.test_request_context(method="POST", headers=headers):
        form = build_hand_form(rules, players=MATCH[:2], formdata=formdata)
        check = check_hand(form, rules)
        (message,) = form.players[0].form.dealt_tunnelas.errors
    assert not check.ok
    assert "बादशाह" in message and "पप्लु" in message and "साधारण जोकर" in message
    assert "poplu" not in message and "ordinary" not in message
    assert check.data["players"][0]["dealt_tunnelas"] == ["poplu", "बादशाह"]


def test_a_row_with_nothing_entered_is_edited_as_a_total(app):
    """A player who typed no maal (the box left at its 0) opens the stored hand's form as
    the new hand's form opened: as a total, "More" folded. It opened by counts, the
    total box gone and a screen of steppers in its place, so adding the 3 that was
    forgotten took finding "Total" under "More" first. A row holding a dealt tunnela
    and no maal still opens by counts, where the tunnela is; a player who sat out, as a
    total once switched on."""
    hand = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 12},
            {"name": "Bikash", "seen": "sequences"},
            {"name": "Chandra", "seen": "unseen"},
            {"name": "Dipa", "seen": "sequences", "dealt_tunnelas": ["5S"]},
        ],
    }
    formdata, notes = hand_formdata(hand, players=MATCH)
    assert notes == []
    modes = [formdata[f"players-{row}-maal_mode"] for row in range(len(MATCH))]
    assert modes == ["number", "number", "number", "counts", "number", "number"]
    with app.test_request_context(method="POST"):
        form = build_hand_form(PROFILES["amarnepal"], players=MATCH, formdata=formdata)
        read = read_hand_form(form)
    assert read.data["players"] == hand["players"]  # the same hand, saved unchanged
