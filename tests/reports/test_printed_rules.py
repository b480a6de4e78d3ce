"""The house rules a printed match and a printed season carry: every setting the
matches were played under (not only the ones changed from the profile), and the stake,
so that the PDF read a year later, when the profiles may have moved on, still says how
every hand was scored."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pdf_support import api_created_match, pdf_text, squeezed

from ledger.engine import resolve_rules
from ledger.web.filters import rule_value, setting_label

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from api_hands import hand, play  # noqa: E402
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match  # noqa: E402

OVERRIDES = {"unseen_maal": "kidnap", "fee_unseen": 12, "tiplu": [3, 7]}
NE = {"Accept-Language": "ne"}


def printed_settings(app, rules) -> list[tuple[str, str]]:
    """Each setting of ``rules`` (but the profile and its usual length, said apart) as
    the English PDF names it (marked when changed from the profile) and its value."""
    changed = rules.overrides()
    with app.test_request_context():
        return [
            (setting_label(name).lower() + (" (changed)" * (name in changed)), rule_value(value))
            for name, value in rules.to_json().items()
            if name not in ("profile", "match_length")
        ]


def difference(name: str, played: dict, other: dict) -> str:
    """A setting on which two sets of rules differ, as a What if…? PDF writes it."""
    return f"{setting_label(name).lower()} {rule_value(played[name])} → {rule_value(other[name])}"


@pytest.mark.slow  # seconds: lays out PDFs
def test_the_summary_prints_every_setting_used_and_marks_the_changed_ones(app, client):
    match = api_created_match(
        client,
        {"name": "Tihar", "players": ROSTER, "rules": {"profile": "amarnepal", **OVERRIDES}},
        [hand("Asha")],
    )
    text = squeezed(pdf_text(client.get(f"/matches/{match['id']}/summary.pdf").data))
    rules = resolve_rules({"profile": "amarnepal", **OVERRIDES})
    for label, value in printed_settings(app, rules):
        assert squeezed(label + value) in text, (label, value)
    # A changed setting is marked so and gives the profile's value beside the match's.
    assert squeezed("unseen maal (changed) kidnap murder") in text
    assert squeezed("fee seen (changed)") not in text


@pytest.mark.slow  # seconds: lays out PDFs
def test_the_season_pdf_says_the_stake_and_the_house_rules_of_its_nights(app, client):
    url = create_table(client)
    key = edit_key(client, url)
    play(client, start_match(client, url, ROSTER), key, FOUR)
    table = client.get(f"/api/v1{url}").get_json()
    stake = table["stake"]
    assert stake, "the table of table_pages_support plays for a stake"
    # A night under other rules and for points only: printed apart, with its name.
    other = client.post(
        f"/api/v1{url}/matches",
        json={
            "name": "Kidnap night",
            "players": ROSTER,
            "stake": None,
            "rules": {"profile": table["rules"]["profile"], **OVERRIDES},
        },
        headers={"Authorization": f"Bearer {key}"},
    )
    assert other.status_code == 201, other.get_json()
    play(client, other.get_json()["id"], key, [hand("Bikash")])
    text = squeezed(pdf_text(client.get(f"{url}/season.pdf").data))
    assert squeezed(f"Stake: {stake['currency']} {stake['per_point']} a point") in text
    assert squeezed("Kidnap night Played for points only.") in text
    assert squeezed("unseen maal (changed) kidnap murder") in text
    for rules in (
        resolve_rules(table["rules"]["profile"]),
        resolve_rules({"profile": table["rules"]["profile"], **OVERRIDES}),
    ):
        for label, value in printed_settings(app, rules):
            assert squeezed(label + value) in text, (label, value)
    # In Nepali the stake is in Devanagari digits (pypdf reads back the digits whole,
    # not every vowel sign of the words).
    nepali = squeezed(pdf_text(client.get(f"{url}/season.pdf", headers=NE).data))
    assert "१.५०" in nepali and "1.50" not in nepali


@pytest.mark.slow  # seconds: lays out PDFs
def test_the_what_if_pdf_names_the_rules_it_compares(app, client):
    """The page said "Amar Nepal with 3 settings changed" and "Under Everest Buzz": the
    paper alone now says which settings were changed and where the two sets differ."""
    match = api_created_match(
        client,
        {"name": "Tihar", "players": ROSTER, "rules": {"profile": "amarnepal", **OVERRIDES}},
        [hand("Asha")],
    )
    data = client.get(
        f"/matches/{match['id']}/what-if.pdf", query_string={"rules-profile": "everestbuzz"}
    ).data
    text = squeezed(pdf_text(data))
    assert squeezed("Settings changed from the profile: tiplu 3 / 7; unseen maal kidnap") in text
    played = resolve_rules({"profile": "amarnepal", **OVERRIDES}).to_json()
    other = resolve_rules("everestbuzz").to_json()
    differ = [n for n in played if n not in ("profile", "match_length") and played[n] != other[n]]
    assert "unseen_maal" in differ and "fee_unseen" in differ
    with app.test_request_context():
        for name in differ:
            assert squeezed(difference(name, played, other)) in text, name


@pytest.mark.slow  # seconds: lays out PDFs
def test_the_seasons_what_if_pdf_names_where_the_rules_differ(app, client):
    url = create_table(client)  # sparkai
    play(client, start_match(client, url, ROSTER), edit_key(client, url), FOUR)
    data = client.get(f"{url}/what-if.pdf", query_string={"rules-profile": "amarnepal"}).data
    text = squeezed(pdf_text(data))
    played, other = resolve_rules("sparkai").to_json(), resolve_rules("amarnepal").to_json()
    differ = [n for n in played if n not in ("profile", "match_length") and played[n] != other[n]]
    assert "printed_joker" in differ
    with app.test_request_context():
        for name in differ:
            assert squeezed(difference(name, played, other)) in text, name
