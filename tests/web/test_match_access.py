"""Who may do what on the match pages: read-only visitors, edit links, other matches'
keys, CSRF, and names full of HTML."""

import json
import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from match_pages_support import (
    BY_COUNTS,
    PLAYERS,
    WORKED,
    add_hand,
    create_match,
    engine_nets,
    hand_form,
    new_match_form,
    page_totals,
)
from table_pages_support import ROSTER, create_table, start_match

from ledger.web.edit_rights import LEGACY_KEY, MAX_KEYS, SESSION_KEY, seal, unseal


def edit_link(client, url: str) -> str:
    html = client.get(url).get_data(as_text=True)
    return re.search(r'id="edit-link" type="url" readonly value="([^"]+)"', html).group(1)


def write_routes(url: str) -> list[tuple[str, str, dict]]:
    form = hand_form(WORKED, version="1")
    return [
        ("GET", f"{url}/hands/new", {}),
        ("POST", f"{url}/hands/new", form),
        ("POST", f"{url}/hands/preview", form),
        ("GET", f"{url}/hands/1/edit", {}),
        ("POST", f"{url}/hands/1/edit", form),
        ("GET", f"{url}/hands/1/delete", {}),
        ("POST", f"{url}/hands/1/delete", {"version": "1"}),
    ]


def test_a_read_only_visitor_sees_the_match(app, client, match_url):
    visitor = app.test_client()
    response = visitor.get(match_url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "read-only" in html
    assert page_totals(html) == page_totals(client.get(match_url).get_data(as_text=True))
    assert "Enter hand" not in html and "edit-link" not in html and "qr.svg" not in html
    # Nor the script that keeps a copy of the editor's form (the form needs edit rights).
    assert "js/offline-entry." not in html
    hand = visitor.get(f"{match_url}/hands/1").get_data(as_text=True)
    assert "/hands/1/edit" not in hand and "data-net" in hand


def test_a_read_only_visitor_may_not_write(app, client, match_url):
    visitor = app.test_client()
    for method, path, data in write_routes(match_url):
        response = visitor.open(path, method=method, data=data)
        assert response.status_code == 403, (method, path)
        assert "Ask the scorekeeper for the edit link" in response.get_data(as_text=True)
    assert page_totals(client.get(match_url).get_data(as_text=True))["Asha"] == 41


def test_the_edit_link_grants_edit_rights(app, client, match_url):
    link = edit_link(client, match_url)
    assert "/join/" in link
    friend = app.test_client()
    response = friend.get(link)
    assert response.status_code == 303
    assert response.headers["Location"] == match_url  # the key leaves the address bar
    assert response.headers["Referrer-Policy"] == "no-referrer"
    html = friend.get(match_url).get_data(as_text=True)
    assert "Enter hand 2" in html and "js/offline-entry." in html
    assert friend.post(f"{match_url}/hands/new", data=hand_form(BY_COUNTS)).status_code == 303
    assert 'aria-label="Hand 2"' in client.get(match_url).get_data(as_text=True)


def test_a_wrong_join_key_is_refused(app, client, match_url):
    stranger = app.test_client()
    link = edit_link(client, match_url)
    response = stranger.get(link[:-3] + "xyz")
    assert response.status_code == 403
    assert "not valid for this match" in response.get_data(as_text=True)
    assert stranger.get(f"{match_url}/hands/new").status_code == 403
    assert (
        stranger.get(match_url.replace("/matches/", "/matches/nope") + "/join/x").status_code == 404
    )


def test_another_matchs_key_does_not_work(app, client, match_url):
    other = app.test_client()
    other_url = create_match(other, name="Other table")
    other_link = edit_link(other, other_url)
    key = other_link.rsplit("/", 1)[1]
    # As a join link for the first match...
    assert other.get(f"{match_url}/join/{key}").status_code == 403
    # ...or planted in the session under the first match's id.
    public_id = match_url.rsplit("/", 1)[1]
    with other.session_transaction() as session, app.app_context():
        session[SESSION_KEY] = seal([*unseal(session[SESSION_KEY]), [public_id, key]])
    for method, path, data in write_routes(match_url):
        assert other.open(path, method=method, data=data).status_code == 403, (method, path)
    assert other.get(f"{other_url}/hands/new").status_code == 200


def test_the_home_page_lists_this_browsers_matches(app, client):
    first = create_match(client, name="First table")
    second = create_match(client, name="Second table")
    html = client.get("/").get_data(as_text=True)
    assert "Your matches" in html
    assert html.index(second) < html.index(first)  # newest first
    assert "Your matches" not in app.test_client().get("/").get_data(as_text=True)


def test_the_session_keeps_at_most_thirty_keys(app, client):
    urls = [create_match(client, name=f"Table {i}") for i in range(MAX_KEYS + 2)]
    with client.session_transaction() as session, app.app_context():
        kept = [public_id for public_id, _key in unseal(session[SESSION_KEY])]
    assert len(kept) == MAX_KEYS
    assert kept[-1] == urls[-1].rsplit("/", 1)[1]
    assert client.get(f"{urls[0]}/hands/new").status_code == 403  # the oldest was dropped
    assert client.get(f"{urls[-1]}/hands/new").status_code == 200


NASTY = '<script>alert("x")</script>'
NASTY_PLAYER = '"><img src=x onerror=alert(1)>'


def test_names_full_of_html_are_escaped_everywhere(app, client):
    players = [NASTY_PLAYER, "B<b>ob</b>", "Chandra", "Dipa"]
    url = create_match(client, players=players, name=NASTY)
    hand = {
        **WORKED,
        "winner": players[0],
        "players": [{**p, "name": players[i]} for i, p in enumerate(WORKED["players"])],
    }
    add_hand(client, url, hand, players=players)
    client.post(f"{url}/hands/1/edit", data=hand_form(hand, players=players, version="1"))
    pages = [
        client.get("/"),
        client.get(url),
        client.get(f"{url}/live?v=0"),
        client.get(f"{url}/hands/new"),
        client.get(f"{url}/hands/1"),
        client.get(f"{url}/hands/1/edit"),
        client.get(f"{url}/hands/1/delete"),
        client.post(f"{url}/hands/preview", data=hand_form(hand, players=players)),
        client.post("/matches/new", data=new_match_form(players, name="")),
        app.test_client().get(url),
    ]
    for response in pages:
        html = response.get_data(as_text=True)
        assert "<script>alert" not in html, response.request.path
        assert "<img src=x" not in html, response.request.path
        assert "<b>ob</b>" not in html, response.request.path
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in pages[1].get_data(as_text=True)
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in pages[4].get_data(as_text=True)


def test_the_forms_need_a_csrf_token(csrf_client):
    refused = csrf_client.post("/matches/new", data=new_match_form())
    assert refused.status_code == 400
    assert "This form has expired" in refused.get_data(as_text=True)
    page = csrf_client.get("/matches/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    created = csrf_client.post("/matches/new", data={**new_match_form(), "csrf_token": token})
    assert created.status_code == 303
    url = created.headers["Location"]
    # The hand form: without a token refused; htmx sends it as a header (base.html).
    assert csrf_client.post(f"{url}/hands/new", data=hand_form(WORKED)).status_code == 400
    preview = csrf_client.post(
        f"{url}/hands/preview", data=hand_form(WORKED), headers={"X-CSRFToken": token}
    )
    assert preview.status_code == 200 and "data-net" in preview.get_data(as_text=True)
    saved = csrf_client.post(f"{url}/hands/new", data={**hand_form(WORKED), "csrf_token": token})
    assert saved.status_code == 303
    delete = csrf_client.post(f"{url}/hands/1/delete", data={"version": "1"})
    assert delete.status_code == 400
    totals = page_totals(csrf_client.get(url).get_data(as_text=True))
    assert totals["Asha"] == 41 and set(totals) == set(PLAYERS)


def test_the_rules_used_are_the_matchs(client):
    # A hand is settled under the match's rules: kidnap gives the finisher Dipa's 8.
    url = create_match(client, **{"rules-unseen_maal": "kidnap"})
    add_hand(client, url, WORKED)
    kidnap = engine_nets(WORKED, {"profile": "sparkai", "unseen_maal": "kidnap"})
    assert kidnap != engine_nets(WORKED)
    assert page_totals(client.get(url).get_data(as_text=True)) == kidnap


def test_the_session_cookie_does_not_show_the_edit_keys(app, client, make_app):
    url = create_match(client)
    key = edit_link(client, url).rsplit("/", 1)[1]
    public_id = url.rsplit("/", 1)[1]
    cookie = client.get_cookie("edit_rights")  # the session's cookie of the edit keys
    # Whoever holds the cookie can undo its signature's encoding: the keys are not there.
    readable = app.session_interface.get_signing_serializer(app).loads(cookie.value)
    assert key not in json.dumps(readable) and public_id not in json.dumps(readable)
    assert key not in cookie.value
    assert key not in client.get_cookie("session").value
    with app.app_context():
        assert unseal(readable[SESSION_KEY]) == [[public_id, key]]
    # Sealed under another secret key, the list opens to nothing.
    other = make_app(SECRET_KEY="another-secret")
    with other.app_context():
        assert unseal(readable[SESSION_KEY]) == []
        assert unseal("not a token") == []


def test_the_session_cookie_flags(client):
    response = client.post("/matches/new", data=new_match_form())
    header = next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("session="))
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Path=/" in header
    expires = re.search(r"Expires=([^;]+)", header).group(1)
    left = parsedate_to_datetime(expires) - datetime.now(UTC)
    # A year and more (as docs/architecture.md says): a festival table meets once a year.
    assert timedelta(days=399) < left <= timedelta(days=400)


def test_edit_keys_kept_in_the_clear_by_an_older_version_are_sealed(app, client):
    url = create_match(client)
    key = edit_link(client, url).rsplit("/", 1)[1]
    public_id = url.rsplit("/", 1)[1]
    browser = app.test_client()
    with browser.session_transaction() as session:
        session[LEGACY_KEY] = [[public_id, key]]
    assert browser.get(f"{url}/hands/new").status_code == 200  # the rights are kept
    with browser.session_transaction() as session, app.app_context():
        assert LEGACY_KEY not in session
        assert unseal(session[SESSION_KEY]) == [[public_id, key]]


def test_a_table_s_nights_never_push_its_own_key_out(app, client):
    """A weekly table's scorekeeper starts a night from one phone for months: each night's
    key is kept, and the table's key must outlive them all (it was dropped after 29)."""
    table = create_table(client)
    nights = [start_match(client, table, ROSTER) for _ in range(MAX_KEYS + 3)]
    assert start_match(client, table, ROSTER)  # the table is still this browser's
    assert client.get(f"/matches/{nights[0]}/hands/new").status_code == 200  # by its table
