""" "What if…?" (/matches/<id>/what-if, its PDF) and changing a match's rules for good on
its page (/matches/<id>/rules): docs/rules.md §8."""

import io
import re

import pytest
from pypdf import PdfReader
from rescore_support import HANDS, OWN_RULES, PLAYERS, independent_rescore

from ledger.engine import resolve_rules

OTHER = {"profile": "everestbuzz", "foul": "next_hand", "unseen_maal": "kidnap"}


def new_match(client, rules=OWN_RULES, hands=HANDS) -> tuple[str, str]:
    response = client.post(
        "/api/v1/matches", json={"name": "Tihar", "players": PLAYERS, "rules": rules}
    )
    body = response.get_json()
    for hand in hands:
        headers = {"Authorization": f"Bearer {body['edit_key']}"}
        stored = client.post(f"/api/v1/matches/{body['id']}/hands", json=hand, headers=headers)
        assert stored.status_code == 201, stored.get_json()
    return body["id"], body["edit_key"]


def become_editor(client, public_id: str, key: str) -> None:
    assert client.get(f"/matches/{public_id}/join/{key}").status_code == 303


def picker_query(spec: dict) -> dict[str, str]:
    """The what-if form's query for rules given as the API's spec."""
    query = {"rules-profile": spec["profile"]}
    for name, value in spec.items():
        if name != "profile":
            query[f"rules-{name}"] = value if isinstance(value, str) else str(value)
    return query


def totals_shown(html: str) -> dict[str, tuple[int, int]]:
    """Each player's (as played, rescored) total as the comparison's table shows them."""
    table = html.split('class="report-table what-if-totals"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r'<th scope="row">([^<]+)</th>\s*<td class="num" data-total="(-?\d+)">.*?</td>\s*'
        r'<td class="num" data-total="(-?\d+)">',
        table,
        re.S,
    )
    return {name: (int(a), int(b)) for name, a, b in rows}


def moved(rescored: dict, kept: dict) -> bool:
    """Whether a hand adds other points to some total under the other rules."""
    was = kept["carried_penalties"]
    names = {*rescored["nets"], *rescored["carried"], *was}
    return any(
        rescored["nets"].get(n, 0) + rescored["carried"].get(n, 0)
        != rescored["played"].get(n, 0) + was.get(n, 0)
        for n in names
    )


def test_anyone_with_the_link_sees_the_comparison(client):
    public_id, _ = new_match(client)
    stored = client.get(f"/api/v1/matches/{public_id}").get_json()
    spec = {"profile": "gamerules", "foul": "next_hand"}
    response = client.get(f"/matches/{public_id}/what-if", query_string=picker_query(spec))
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    expected, totals = independent_rescore(stored["hands"], spec)
    as_played = {p["name"]: p["total"] for p in stored["players"]}
    assert totals_shown(html) == {n: (as_played[n], totals[n]) for n in PLAYERS}
    changed = [
        h["number"] for h, kept in zip(expected, stored["hands"], strict=True) if moved(h, kept)
    ]
    listed = html.split('id="what-if-changed"', 1)[1].split("</ul>", 1)[0]
    assert [int(n) for n in re.findall(r'data-hand="(\d+)"', listed)] == changed
    notes = html.split('id="what-if-notes"', 1)[1].split("</ul>", 1)[0]
    assert 'data-hand="3" data-rescored="no"' in notes
    assert "Dipa: These house rules do not allow seeing by dublees." in notes
    assert 'data-hand="2" data-rescored="partly"' in notes
    assert html.index('id="what-if-changed"') < html.index('id="what-if-notes"')
    assert "Who pays whom" not in html  # a points race
    assert "Make these the match" not in html  # not an editor


def test_the_page_starts_at_the_matchs_own_rules_where_nothing_changes(client):
    public_id, _ = new_match(client)
    html = client.get(f"/matches/{public_id}/what-if").get_data(as_text=True)
    assert "own rules: every hand comes out as played." in html
    assert "No hand changes." in html
    assert all(a == b for a, b in totals_shown(html).values())
    assert 'id="what-if-settle-up"' in html


def test_the_match_page_leads_to_it(client):
    public_id, _ = new_match(client)
    html = client.get(f"/matches/{public_id}").get_data(as_text=True)
    assert f'href="/matches/{public_id}/what-if"' in html


def test_a_setting_that_is_no_setting_is_shown_on_its_field(client):
    public_id, _ = new_match(client)
    query = {"rules-profile": "sparkai", "rules-fee_seen": "lots"}
    response = client.get(f"/matches/{public_id}/what-if", query_string=query)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Enter a whole number from 0 to 1000." in html
    assert "what-if-totals" not in html


def test_in_nepali(client):
    public_id, _ = new_match(client)
    client.set_cookie("lang", "ne")
    response = client.get(
        f"/matches/{public_id}/what-if", query_string=picker_query({"profile": "gamerules"})
    )
    html = response.get_data(as_text=True)
    assert "के भए…?" in html
    assert "खेलिएअनुसार" in html
    assert "पूरा नगनिएका बाजी" in html
    assert "These house rules" not in html  # the engine's reasons, translated


def test_a_table_of_totals_in_its_box_is_in_the_pages_digits(client):
    """The override boxes of a table of totals held "2 / 5 / 10" in Western digits on a
    Devanagari page (the placeholders, the examples and every other number were the
    page's digits); Western digits stay Western, and what is no number stays as typed."""
    public_id, key = new_match(client, rules={**OWN_RULES, "tiplu": [2, 5, 10]})
    become_editor(client, public_id, key)
    box = re.compile(r'<input[^>]*id="rules-tiplu"[^>]*>')
    for lang, digits, shown in [
        ("ne", None, "२ / ५ / १०"),
        ("en", "deva", "२ / ५ / १०"),
        ("ne", "latn", "2 / 5 / 10"),
        ("en", None, "2 / 5 / 10"),
    ]:
        client.set_cookie("lang", lang)
        if digits:
            client.set_cookie("digits", digits)
        else:
            client.delete_cookie("digits")
        for path in ("rules", "what-if"):
            page = client.get(f"/matches/{public_id}/{path}").get_data(as_text=True)
            assert f'value="{shown}"' in box.search(page).group(0), (lang, digits, path)
    client.set_cookie("lang", "ne")
    client.delete_cookie("digits")
    query = {**picker_query(OWN_RULES), "rules-tiplu": "2 / x"}
    refused = client.get(f"/matches/{public_id}/what-if", query_string=query).get_data(as_text=True)
    assert 'value="2 / x"' in box.search(refused).group(0)


def test_totals_typed_in_devanagari_digits_are_read(client):
    """What a box sends back in the page's digits is read as the Western ones are."""
    public_id, key = new_match(client)
    become_editor(client, public_id, key)
    client.set_cookie("lang", "ne")
    typed = {**OWN_RULES, "tiplu": "२ / ५ / १०", "tunnela_tiplu": "५"}
    compared = client.get(f"/matches/{public_id}/what-if", query_string=picker_query(typed))
    assert compared.status_code == 200 and "what-if-totals" in compared.get_data(as_text=True)
    assert client.post(f"/matches/{public_id}/rules", data=rules_form(typed)).status_code == 303
    rules = client.get(f"/api/v1/matches/{public_id}").get_json()["rules"]
    assert rules["tiplu"] == [2, 5, 10] and rules["tunnela_tiplu"] == 5


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_pdf_is_one_page_and_kept_per_version(client):
    public_id, _ = new_match(client, hands=HANDS * 6)
    query = picker_query(OTHER)
    url = f"/matches/{public_id}/what-if.pdf"
    response = client.get(url, query_string=query)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    pdf = PdfReader(io.BytesIO(response.data))
    assert len(pdf.pages) == 1
    text = pdf.pages[0].extract_text()
    assert "Under Everest Buzz" in text
    assert "more hands change" in text
    again = client.get(url, query_string=query)
    assert again.data == response.data
    other = client.get(url, query_string=picker_query({"profile": "classic"}))
    assert other.data != response.data
    bad = client.get(url, query_string={"rules-profile": "nope"})
    assert bad.status_code == 404


# --- changing the rules for good -----------------------------------------------------------


def rules_form(spec: dict) -> dict[str, str]:
    return picker_query(spec)


def test_an_editor_changes_the_rules_and_back(client):
    public_id, key = new_match(client)
    reader = client.application.test_client()
    kept_page = reader.get(f"/matches/{public_id}").get_data(as_text=True)  # kept per version
    kept_slip = reader.get(f"/matches/{public_id}/settle-up.pdf").data
    become_editor(client, public_id, key)
    assert f'href="/matches/{public_id}/rules"' in client.get(f"/matches/{public_id}").get_data(
        as_text=True
    )
    before = client.get(f"/api/v1/matches/{public_id}").get_json()
    page = client.get(f"/matches/{public_id}/rules", query_string=picker_query(OTHER))
    assert page.status_code == 200
    assert "Under Everest Buzz" in page.get_data(as_text=True)  # what changes, before saving
    response = client.post(f"/matches/{public_id}/rules", data=rules_form(OTHER))
    assert response.status_code == 303
    after = client.get(f"/api/v1/matches/{public_id}").get_json()
    assert resolve_rules({"profile": after["rules"]["profile"], **after["rules"]["overrides"]}) == (
        resolve_rules(OTHER)
    )
    _, totals = independent_rescore(before["hands"], OTHER)
    assert {p["name"]: p["total"] for p in after["players"]} == totals
    shown = client.get(f"/matches/{public_id}").get_data(as_text=True)
    assert "The match now plays by Everest Buzz" in shown
    followed = reader.get(f"/matches/{public_id}").get_data(as_text=True)
    assert "Sparkai rules" in kept_page and "Everest Buzz rules" in followed
    assert reader.get(f"/matches/{public_id}/settle-up.pdf").data != kept_slip
    client.post(f"/matches/{public_id}/rules", data=rules_form(OWN_RULES))
    back = client.get(f"/api/v1/matches/{public_id}").get_json()
    assert back["players"] == before["players"]
    assert [h["players"] for h in back["hands"]] == [h["players"] for h in before["hands"]]


def test_rules_that_refuse_hands_are_refused_with_the_hands_named(client):
    public_id, key = new_match(client)
    become_editor(client, public_id, key)
    before = client.get(f"/api/v1/matches/{public_id}").get_json()
    response = client.post(f"/matches/{public_id}/rules", data=rules_form({"profile": "gamerules"}))
    assert response.status_code == 422
    refused = response.get_data(as_text=True).split('id="rules-refused"', 1)[1].split("</div>")[0]
    assert 'data-hand="3"' in refused and 'data-hand="4"' in refused
    assert "Dipa: These house rules do not allow seeing by dublees." in refused
    assert client.get(f"/api/v1/matches/{public_id}").get_json() == before


def test_a_reader_cannot_change_the_rules(client):
    public_id, _ = new_match(client)
    assert client.get(f"/matches/{public_id}/rules").status_code == 403
    assert client.post(f"/matches/{public_id}/rules", data=rules_form(OTHER)).status_code == 403


def test_changing_the_rules_needs_a_csrf_token(csrf_client):
    public_id, key = new_match(csrf_client)
    become_editor(csrf_client, public_id, key)
    page = csrf_client.get(f"/matches/{public_id}/rules").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    url = f"/matches/{public_id}/rules"
    assert csrf_client.post(url, data=rules_form(OTHER)).status_code == 400
    assert csrf_client.post(url, data={**rules_form(OTHER), "csrf_token": token}).status_code == 303


@pytest.mark.parametrize("path", ["what-if", "what-if.pdf", "rules"])
def test_an_unknown_match_is_404(client, path):
    assert client.get(f"/matches/nope/{path}").status_code == 404


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_ten_players_and_many_refused_hands_still_print_on_one_page(client):
    players = [f"Player {i} of a long name" for i in range(10)]
    made = client.post(
        "/api/v1/matches", json={"name": "Ten", "players": players, "rules": "sparkai"}
    )
    body = made.get_json()
    headers = {"Authorization": f"Bearer {body['edit_key']}"}
    for i in range(30):
        five = [players[(i + k) % 10] for k in range(5)]
        seen = "dublees" if i % 2 else "sequences"
        hand = {
            "finish": seen,
            "winner": five[0],
            "players": [{"name": n, "seen": seen, "maal": 3 + k} for k, n in enumerate(five)],
        }
        stored = client.post(f"/api/v1/matches/{body['id']}/hands", json=hand, headers=headers)
        assert stored.status_code == 201, stored.get_json()
    response = client.get(f"/matches/{body['id']}/what-if.pdf?rules-profile=gamerules")
    pdf = PdfReader(io.BytesIO(response.data))
    assert len(pdf.pages) == 1
    assert "more hands" in pdf.pages[0].extract_text()
