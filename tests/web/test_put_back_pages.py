"""A hand deleted (or undone) by mistake is put back in one tap: the match page offers it
once, right after; the deleted hand's page offers it to an editor at any time; the
totals are as before the delete; a match that is over says why it takes no hand back."""

from __future__ import annotations

from match_pages_support import (
    BY_COUNTS,
    WORKED,
    add_hand,
    create_match,
    engine_nets,
    hidden,
    page_totals,
)
from row_counts import rows

from ledger.matches.models import Hand


def delete(client, url: str, number: int) -> None:
    confirm = client.get(f"{url}/hands/{number}/delete").get_data(as_text=True)
    response = client.post(
        f"{url}/hands/{number}/delete", data={"version": hidden(confirm, "version")}
    )
    assert response.status_code == 303


def put_back_form(html: str, url: str, number: int) -> bool:
    return f'action="{url}/hands/{number}/put-back"' in html


def test_a_delete_offers_the_hand_back_once_and_puts_it_back(client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    add_hand(client, url, BY_COUNTS)
    before = page_totals(client.get(url).get_data(as_text=True))
    delete(client, url, 1)
    page = client.get(url).get_data(as_text=True)
    assert put_back_form(page, url, 1) and "Put hand 1 back" in page
    assert not put_back_form(client.get(url).get_data(as_text=True), url, 1)  # once
    response = client.post(f"{url}/hands/1/put-back")
    assert response.status_code == 303 and response.headers["Location"] == url
    page = client.get(url).get_data(as_text=True)
    assert "Hand 1 is back; the totals changed." in page
    assert page_totals(page) == before
    assert 'aria-label="Hand 1"' in page


def test_an_undo_offers_the_hand_back_too(client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    add_hand(client, url, BY_COUNTS)
    client.post(f"{url}/hands/2/undo", data={"version": "1"})
    page = client.get(url).get_data(as_text=True)
    assert put_back_form(page, url, 2)
    # said of an undo as of a delete (it said "Deleted the wrong hand?" after an undo)
    assert "Took out the wrong hand? Put it back as it was, in its place." in page
    assert page_totals(page) == engine_nets(WORKED)


def test_the_deleted_hands_page_puts_it_back_for_an_editor_only(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    delete(client, url, 1)
    client.get(url)  # the offer is spent
    gone = client.get(f"{url}/hands/1").get_data(as_text=True)
    assert "This hand was deleted" in gone and put_back_form(gone, url, 1)
    reader = app.test_client()
    assert not put_back_form(reader.get(f"{url}/hands/1").get_data(as_text=True), url, 1)
    assert reader.post(f"{url}/hands/1/put-back").status_code == 403
    client.post(f"{url}/hands/1/put-back")
    assert "This hand was deleted" not in client.get(f"{url}/hands/1").get_data(as_text=True)


def test_a_match_that_is_over_says_why_it_takes_no_hand_back(app, client):
    url = create_match(client, length_count="1")
    add_hand(client, url, WORKED)
    delete(client, url, 1)
    add_hand(client, url, BY_COUNTS)
    answer = client.post(f"{url}/hands/1/put-back", follow_redirects=True)
    html = answer.get_data(as_text=True)
    assert "flash-error" in html and "This match is over" in html
    assert "This hand was deleted" in html  # its page, and it stays deleted
    assert rows(app, Hand) == 1
