"""Under a sub-path behind a proxy (``X-Forwarded-Prefix`` believed through the configured
ProxyFix, docs/deployment.md#the-proxy): every link of the main pages, the redirects and
the language and digits switches keep the prefix, and every page they lead to answers."""

import re
from collections import deque
from html import unescape
from urllib.parse import urlsplit

from served import HAND, PLAYERS

from ledger import matches

PREFIX = "/ledger"
HEADERS = {
    "X-Forwarded-Prefix": PREFIX,
    "X-Forwarded-Host": "ledger.example.org",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.7",
}
LINK = re.compile(r'\b(href|src|action|formaction|hx-get|hx-post|data-url)="([^"#][^"]*)"')
#: Where a form or a script posts: checked for the prefix, not fetched.
POSTED = {"action", "formaction", "hx-post"}
#: Followed for their prefix only: PDFs take seconds to lay out, and are tested elsewhere.
NOT_FETCHED = re.compile(r"\.pdf(\?|$)")


def app_path(url: str) -> str:
    """The path the proxy passes to the app for a link of the page (the prefix taken off);
    AssertionError when the link left the prefix."""
    parts = urlsplit(unescape(url))
    if parts.netloc:
        assert parts.netloc == "ledger.example.org", url
    assert parts.path == PREFIX or parts.path.startswith(PREFIX + "/"), url
    path = parts.path[len(PREFIX) :] or "/"
    return path + (f"?{parts.query}" if parts.query else "")


def crawl(client, starts: list[str], limit: int = 120) -> dict[str, int]:
    """Every same-site link from ``starts`` on, followed once: {app path: status}."""
    seen: dict[str, int] = {}
    queue = deque(starts)
    while queue and len(seen) < limit:
        path = queue.popleft()
        if path in seen:
            continue
        with client.get(path, headers=HEADERS) as answer:
            seen[path] = answer.status_code
            text = answer.get_data(as_text=True) if answer.mimetype == "text/html" else ""
        if answer.status_code in (301, 302, 303, 307, 308):
            queue.append(app_path(answer.headers["Location"]))
            continue
        for attribute, url in LINK.findall(text):
            if url.startswith(("mailto:", "data:", "javascript:")):
                continue
            target = app_path(url)
            if attribute in POSTED:
                continue
            if not NOT_FETCHED.search(target) and "/static/" not in target:
                queue.append(target)
            elif "/static/" in target and target not in seen:
                with client.get(target, headers=HEADERS) as static:  # a file: closed
                    seen[target] = static.status_code
    return seen


def test_every_link_of_the_main_pages_keeps_the_prefix(make_app):
    app = make_app(PROXY_COUNT=1)
    with app.app_context():
        match, key = matches.create_match("Under a path", PLAYERS, "sparkai", None)
        matches.submit_hand(match, HAND)
        public_id = match.public_id
    client = app.test_client()
    # the scorekeeper's browser: joined through the edit link, so the edit pages show too
    joined = client.get(f"/matches/{public_id}/join/{key}", headers=HEADERS)
    assert app_path(joined.headers["Location"]) == f"/matches/{public_id}"
    statuses = crawl(
        client,
        ["/", f"/matches/{public_id}", f"/matches/{public_id}/hands", "/glossary"],
    )
    wrong = {path: status for path, status in statuses.items() if status >= 400}
    assert not wrong, wrong
    for page in ("/matches/new", "/check", "/rules", f"/matches/{public_id}/hands/new"):
        assert page in statuses, sorted(statuses)
    assert any(p.startswith("/lang/ne?next=") for p in statuses)
    assert any(p.startswith("/digits/") for p in statuses)
    assert any("/static/" in p for p in statuses)


def test_the_switches_go_back_to_the_page_under_the_prefix(make_app):
    client = make_app(PROXY_COUNT=1).test_client()
    page = client.get("/rules", headers=HEADERS).get_data(as_text=True)
    assert f'href="{PREFIX}/lang/ne?next=/rules"' in page
    for switch in ("/lang/ne?next=/rules", "/digits/deva?next=/rules"):
        answer = client.get(switch, headers=HEADERS)
        assert answer.status_code == 303
        assert urlsplit(answer.headers["Location"]).path == f"{PREFIX}/rules"


def test_without_the_proxy_count_the_prefix_is_not_believed(make_app):
    client = make_app().test_client()
    page = client.get("/", headers=HEADERS).get_data(as_text=True)
    assert f'href="{PREFIX}/' not in page
    assert 'href="/check"' in page
