"""Fixtures of the page tests: a played match's page, and apps with the rate limits on."""

import pytest
from match_pages_support import WORKED, add_hand, create_match


@pytest.fixture
def match_url(client):
    """A match made through the pages with the worked example as its first hand; its url
    (the client has edit rights)."""
    url = create_match(client)
    add_hand(client, url, WORKED)
    return url


@pytest.fixture
def limited(make_app):
    """``limited(**limits)``: an app with the rate limits on (and these settings)."""

    def build(**limits):
        return make_app(RATELIMIT_ENABLED=True, **limits)

    return build
