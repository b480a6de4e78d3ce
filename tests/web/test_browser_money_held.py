"""Money closed on phones whose connection comes and goes (docs/tables.md): a payment
tapped while the phone cannot reach the ledger stays on the page, with what was typed,
and the line says it was not sent, where it left for the browser's own error page (the
amount typed lost, and no sign whether it was recorded). Tapped again once the
connection is back, it is recorded once. On a player's own page ("I paid", Received)
and on the scorekeeper's table page ("Mark paid"), in English and Nepali, on a phone
360 px wide."""

from __future__ import annotations

import pytest
from api_hands import won_by
from browser_support import created, fresh_page

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
ROSTER = ["Asha", "Bikash", "Chandra", "Dipa"]
STAKE = {"per_point": "10.00", "currency": "NPR"}
NOT_SENT = {
    "en": "Not sent: this phone cannot reach the ledger just now.",
    "ne": "पठाइएन:",
}


def _held(page, lang: str, submit) -> None:
    """With the connection off, ``submit`` tapped: the page stays, saying it was not
    sent; the connection then comes back."""
    url = page.url
    page.context.set_offline(True)
    submit.tap()
    page.wait_for_function("() => document.documentElement.dataset.connection === 'held'")
    assert page.url == url
    assert NOT_SENT[lang] in page.locator("#connection").inner_text()
    page.context.set_offline(False)


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_payment_tapped_with_no_connection_stays_on_the_page(live_server, browser, lang):
    with (
        fresh_page(browser, PHONE, has_touch=True) as keeper,
        fresh_page(browser, PHONE, has_touch=True) as dipa,
        fresh_page(browser, PHONE, has_touch=True) as asha,
    ):
        for page in (keeper, dipa, asha):
            page.goto(f"{live_server}/lang/{lang}?next=/")
        table = created(
            keeper.request,
            f"{live_server}/api/v1/tables",
            {"name": "Friday table", "players": ROSTER, "rules": "sparkai", "stake": STAKE},
        )
        api = f"{live_server}/api/v1/tables/{table['id']}"
        night = created(
            keeper.request, f"{api}/matches", {"name": "N1", "players": ROSTER}, table["edit_key"]
        )
        for winner in ("Asha", "Bikash", "Asha"):
            created(
                keeper.request,
                f"{live_server}/api/v1/matches/{night['id']}/hands",
                won_by(winner, ROSTER),
                table["edit_key"],
            )
        for page, name in ((dipa, "Dipa"), (asha, "Asha")):
            link = created(keeper.request, f"{api}/players/{name}/link", key=table["edit_key"])
            page.goto(link["url"].replace("http://localhost", live_server))
            page.wait_for_url(f"{live_server}/me/{table['id']}")
        keeper.goto(f"{live_server}/tables/{table['id']}/join/{table['edit_key']}")

        def payments() -> list[tuple[str, str, str, str]]:
            found = keeper.request.get(f"{api}/payments").json()["payments"]
            return [(p["from"], p["to"], p["amount"], p["state"]) for p in found]

        # Dipa types what she paid Asha; the connection is gone as she taps "I paid".
        dipa.fill("#amount", "150")
        _held(dipa, lang, dipa.locator(".person-pay button[type=submit]").first)
        assert dipa.locator("#amount").input_value() == "150"
        assert payments() == []
        with dipa.expect_navigation():
            dipa.locator(".person-pay button[type=submit]").first.tap()
        assert payments() == [("Dipa", "Asha", "150.00", "pending")]

        # Asha says it reached her, with no connection first.
        asha.reload()
        received = asha.locator("li.payment form[action$='/confirm'] button")
        _held(asha, lang, received)
        assert payments() == [("Dipa", "Asha", "150.00", "pending")]
        with asha.expect_navigation():
            received.tap()
        assert payments() == [("Dipa", "Asha", "150.00", "confirmed")]

        # The scorekeeper marks Chandra's debt paid: cash, with no connection first.
        keeper.goto(f"{live_server}/tables/{table['id']}")
        mark = keeper.locator("li.transfer:has-text('Chandra') form button").first
        _held(keeper, lang, mark)
        assert len(payments()) == 1
        with keeper.expect_navigation():
            mark.tap()
        assert [p[0] for p in payments()] == ["Dipa", "Chandra"]
        # The probe's failed fetch, while offline, is the only error a console shows.
        for page in (keeper, dipa, asha):
            assert [e for e in page.console_errors if "Failed to load resource" not in e] == []
