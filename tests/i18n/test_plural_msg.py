"""A sentence of the service layer that counts (``PluralMsg``): its English is the
form for its count, a page shows the catalogue's form for it, and it survives being
kept (pickled) as a ``Msg`` does."""

from __future__ import annotations

import pickle

import pytest

from ledger.i18n import PluralMsg, translate

ENDED = (
    "This match was ended after its {played} hand. It takes more hands only once that "
    "end is taken back (play on).",
    "This match was ended after its {played} hands. It takes more hands only once that "
    "end is taken back (play on).",
)


@pytest.mark.parametrize(("count", "words"), [(1, "its 1 hand."), (2, "its 2 hands.")])
def test_the_english_is_the_form_for_the_count(count, words):
    message = PluralMsg(*ENDED, count, played=count)
    assert words in message
    kept = pickle.loads(pickle.dumps(message))
    assert (kept, kept.plural, kept.number) == (message, message.plural, count)


@pytest.mark.parametrize(("lang", "words"), [("en", "its 1 hand."), ("ne", "यो म्याच १ बाजीपछि")])
def test_a_page_shows_the_catalogues_form(app, lang, words):
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        assert words in translate(PluralMsg(*ENDED, 1, played=1))
