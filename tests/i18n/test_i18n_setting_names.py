"""Settings are named, never shown by their ids (issue 26): an override that is refused
says the setting's name in the page's language, and its example is written as the field
takes it (``2 / 5 / 10``, not ``[2, 5, 10]``). The API keeps its English sentences."""

from __future__ import annotations

import re

import pytest

from ledger.engine.rules import SETTING_HELP

#: (override typed, the setting's name on the English page, on the Nepali page)
REFUSED = [
    ({"rules-fee_seen": "5000"}, "rules-fee_seen", "“Fee seen”", "“सिन शुल्क”"),
    ({"rules-tiplu_copies_max": "4"}, "rules-tiplu_copies_max", "“Tiplu copies max”", None),
    ({"rules-dublees_min_players": "7"}, "rules-dublees_min_players", None, None),
    ({"rules-tunnela_alter": "1 2 3 4 5 6 7 8"}, "rules-tunnela_alter", None, None),
    ({"rules-marriage": "5000"}, "rules-marriage", None, None),
    ({"rules-packs": "5"}, "rules-packs", "“Packs”", "“गड्डी”"),
]


def post_check(client, overrides: dict, nepali: bool) -> str:
    data = {
        "rules-profile": "sparkai",
        "finish": "sequences",
        "winner": "0",
        "players-0-name": "Asha",
        "players-0-seen": "sequences",
        "players-0-maal_mode": "number",
        "players-0-maal": "3",
        "players-1-name": "Bikash",
        "players-1-seen": "sequences",
        "players-1-maal_mode": "number",
        "players-1-maal": "2",
        **overrides,
    }
    client.set_cookie("lang", "ne" if nepali else "en")
    response = client.post("/check", data=data)
    assert response.status_code == 422
    return response.get_data(as_text=True)


def field_errors(body: str, field_id: str) -> str:
    found = re.search(rf'id="{field_id}-errors">(.*?)</ul>', body, re.S)
    assert found, field_id
    return re.sub(r"<[^>]+>", " ", found.group(1))


def setting_ids_in(text: str) -> list[str]:
    """The ids of more than one word (``fee_seen``); the others are English words too, and a
    Nepali message is checked to hold no Latin word at all."""
    ids = [name for name in SETTING_HELP if "_" in name]
    return [name for name in ids if re.search(rf"(?<![\w-]){name}(?![\w-])", text)]


@pytest.mark.parametrize("nepali", [False, True], ids=["en", "ne"])
@pytest.mark.parametrize("overrides, field, english, nepali_name", REFUSED)
def test_a_refused_override_names_its_setting(
    client, overrides, field, english, nepali_name, nepali
):
    message = field_errors(post_check(client, overrides, nepali), field)
    assert setting_ids_in(message) == [], message
    assert "[" not in message, message  # no JSON list
    name = nepali_name if nepali else english
    if name:
        assert name in message, message
    if nepali:
        assert not re.search(r"[A-Za-z]{3,}", message), message


def test_the_printed_joker_example_is_written_as_the_field_takes_it(client):
    body = post_check(client, {"rules-printed_jokers": "yes", "rules-printed_joker": "none"}, True)
    message = field_errors(body, "rules-printed_joker")
    assert "५ / १५ / २५" in message and "“छापिएको जोकर”" in message, message


def test_the_api_keeps_its_english_sentence(client):
    answer = client.post(
        "/api/v1/settle",
        json={
            "rules": {"profile": "sparkai", "fee_seen": 5000},
            "finish": "void",
            "players": [{"name": "A", "seen": "unseen"}, {"name": "B", "seen": "unseen"}],
        },
    ).get_json()
    assert "fee_seen must be a whole number from 0 to 1000." in str(answer)
