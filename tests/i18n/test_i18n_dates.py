"""Dates and times as the pages show them (issue 26): on the table's clock (the setting
``TIMEZONE``, else the server's zone), the zone named, and in Nepali by Bikram Sambat
(nepali-datetime) with the Gregorian date beside it on printed pages.

The calendar facts are written out, not computed: Baisakh 1, 2083 BS is 14 April 2026."""

from __future__ import annotations

import html
import json
import re
import sys
from datetime import UTC, date, datetime
from pathlib import Path

import nepali_datetime
import pytest

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "web")]

from match_pages_support import THREE_PLAY, add_hand, create_match, hand_form  # noqa: E402

from ledger import create_app  # noqa: E402
from ledger.i18n.numbers import format_day, format_moment, zone_name  # noqa: E402

NE = {"Accept-Language": "ne"}
#: 18:30 UTC on 13 April 2026: already the Nepali new year in Kathmandu (00:15 on the
#: 14th), still the last day of Chaitra in London (19:30 British Summer Time).
EVE = datetime(2026, 4, 13, 18, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "day, english, nepali",
    [
        (date(2026, 4, 14), "14 Apr 2026", "१ वैशाख २०८३"),
        (date(2026, 4, 13), "13 Apr 2026", "३० चैत २०८२"),
        (date(2026, 11, 8), "8 Nov 2026", "२२ कात्तिक २०८३"),
    ],
)
def test_a_day_in_both_calendars(app, day, english, nepali):
    with app.test_request_context():
        assert format_day(day) == english
        assert format_day(day, both=True) == english  # English pages: one calendar
    with app.test_request_context(headers=NE):
        assert format_day(day) == nepali
        gregorian = format_day(day, both=True).split(" (")[1]
        assert format_day(day, both=True) == f"{nepali} ({gregorian}"
        assert re.fullmatch(r"[०-९]+ \S+ [०-९]{4}\)", gregorian)


#: The months of the year, as wall calendars and players name them.
MONTHS = ("वैशाख", "जेठ", "असार", "साउन", "भदौ", "असोज", "कात्तिक", "मंसिर", "पुस", "माघ", "फागुन", "चैत")


@pytest.mark.parametrize("month, name", list(enumerate(MONTHS, start=1)))
def test_months_are_named_as_wall_calendars_name_them(app, month, name):
    """One register (साउन, not the library's श्रावण beside its असार)."""
    day = nepali_datetime.date(2083, month, 15).to_datetime_date()
    with app.test_request_context(headers=NE):
        assert format_day(day) == f"१५ {name} २०८३"


def test_western_digits_chosen_on_a_nepali_page(app):
    with app.test_request_context(headers={**NE, "Cookie": "digits=latn"}):
        assert format_day(date(2026, 4, 14)) == "1 वैशाख 2083"


@pytest.mark.parametrize(
    "zone, english, nepali",
    [
        ("Asia/Kathmandu", "14 Apr 2026, 00:15 (Nepal Time)", "१ वैशाख २०८३, ००:१५ (नेपाली समय)"),
        (
            "Europe/London",
            "13 Apr 2026, 19:30 (British Summer Time)",
            "३० चैत २०८२, १९:३० (बेलायती ग्रीष्मकालीन समय)",
        ),
        ("UTC", "13 Apr 2026, 18:30 (UTC)", "३० चैत २०८२, १८:३० (UTC)"),
    ],
)
def test_a_moment_on_the_tables_clock(make_app, zone, english, nepali):
    app = make_app(TIMEZONE=zone)
    with app.test_request_context():
        assert format_moment(EVE) == english
        assert format_moment("2026-04-13T18:30:00Z") == english  # as the views keep it
    with app.test_request_context(headers=NE):
        assert format_moment(EVE) == nepali


def test_a_zone_named_in_winter_and_summer(make_app):
    app = make_app(TIMEZONE="Europe/London")
    with app.test_request_context():
        assert zone_name(datetime(2026, 1, 10, tzinfo=UTC)) == "Greenwich Mean Time"
        assert zone_name(datetime(2026, 7, 10, tzinfo=UTC)) == "British Summer Time"


def test_the_default_is_the_servers_zone(make_app, monkeypatch):
    from zoneinfo import ZoneInfo

    import tzlocal

    monkeypatch.setattr(tzlocal, "get_localzone", lambda: ZoneInfo("Asia/Kathmandu"))
    app = make_app()
    assert app.config["TIMEZONE"] is None
    with app.test_request_context():
        assert format_moment(EVE) == "14 Apr 2026, 00:15 (Nepal Time)"


def test_a_zone_the_machine_does_not_know_stops_the_start(tmp_path):
    with pytest.raises(ValueError, match="LEDGER_TIMEZONE must be a time zone name"):
        create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "x",
                "INSTANCE_PATH": str(tmp_path),
                "SQLALCHEMY_DATABASE_URI": "sqlite://",
                "TIMEZONE": "Mars/Olympus",
            }
        )


def test_the_hand_history_names_the_tables_zone(make_app):
    app = make_app(TIMEZONE="Asia/Kathmandu")
    client = app.test_client()
    url = create_match(client)
    add_hand(client, url, THREE_PLAY)
    changed = {**THREE_PLAY, "players": [dict(p) for p in THREE_PLAY["players"]]}
    changed["players"][0]["maal"] = changed["players"][0].get("maal", 0) + 1
    assert client.post(f"{url}/hands/1/edit", data=hand_form(changed, version="1")).status_code
    api = client.get(url.replace("/matches/", "/api/v1/matches/") + "/hands/1").get_json()
    replaced = datetime.fromisoformat(api["history"][0]["replaced_at"])
    with app.test_request_context():
        shown = format_moment(replaced)
    # The match's random id may hold the letters "UTC": it is left out of the check.
    public_id = url.rsplit("/", 1)[-1]
    page = client.get(f"{url}/hands/1").get_data(as_text=True).replace(public_id, "")
    assert f"({shown})" in page and "(Nepal Time)" in shown
    assert "UTC" not in page
    nepali = client.get(f"{url}/hands/1", headers=NE).get_data(as_text=True)
    nepali = nepali.replace(public_id, "")
    assert "(नेपाली समय)" in nepali and "UTC" not in nepali


def test_a_copys_date_is_written_by_the_pages_own_months(app, client, monkeypatch):
    """The line that says since when a page's copy was kept (static/js/connection.js)
    has its Nepali months from the page (data-calendar), not from the browser, whose
    Nepali wrote the month in English under Debian's Chromium: the Bikram Sambat months
    from the one before today's, each with its first day and year, Mangsir 2083 starting
    on 17 November 2026. An English page has none: the browser writes its date."""
    monkeypatch.setattr("ledger.i18n.numbers.today", lambda: date(2026, 12, 7))
    english = client.get("/").get_data(as_text=True)
    assert 'id="connection"' in english and "data-calendar" not in english
    nepali = client.get("/", headers=NE).get_data(as_text=True)
    found = re.search(r"data-calendar='([^']*)'", nepali)
    assert found is not None
    months = json.loads(html.unescape(found[1]))
    assert months[:2] == [["2026-10-18", 2083, "कात्तिक"], ["2026-11-17", 2083, "मंसिर"]]
    assert [name for _, _, name in months[1:13]] == list(MONTHS[7:] + MONTHS[:7])
    firsts = [date.fromisoformat(first) for first, _, _ in months]
    assert firsts == sorted(firsts) and firsts[-1] > date(2027, 12, 7)  # a year on is held
