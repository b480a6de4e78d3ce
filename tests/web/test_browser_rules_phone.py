"""The house-rules page on a phone (issue 26): the comparison of the profiles does not
scroll sideways in either language; each value is read beside its profile's name; each
setting's name, a link to what it means, is a finger's target (44 px) as every link in a
table is (they were 24 px high); and axe-core finds nothing serious in the table drawn
as blocks."""

import pytest
from browser_support import ask_in, axe_problems, no_sideways_scroll, small_tap_targets

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", ["ne", "en"])
def test_the_rules_table_fits_a_phone(live_server, page, axe_source, language):
    ask_in(page, live_server, language)
    page.goto(live_server + "/rules")
    assert no_sideways_scroll(page)
    wraps = page.locator(".rules-table-wrap")  # the profiles' values, then the limits
    assert wraps.count() == 2
    assert wraps.evaluate_all("es => es.every(e => e.scrollWidth <= e.clientWidth)")
    cell = page.locator('tr:has(a[href="#setting-tiplu"]) td').first
    label = cell.evaluate("e => getComputedStyle(e, '::before').content")
    assert label.strip('"') == page.locator("thead th").nth(1).inner_text().splitlines()[0]
    assert small_tap_targets(page, ".rules-table") == []
    assert axe_problems(page, axe_source) == []
    assert page.console_errors == []
