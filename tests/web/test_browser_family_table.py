"""A family's table kept for three seasons (tests/family_support.py), read on a phone
(390 × 844) in English and Nepali: each player's page (this season and all time), the
table's page for each season and all time, What if…? under each published profile and
an override, and the season PDF. Nothing scrolls sideways, no text is cut off or lies
over other text, no page answers an error, and the figures the pages print are the ones
worked out again from the hands."""

from __future__ import annotations

import os

import family_support as family
import pytest
from browser_support import no_sideways_scroll

pytestmark = pytest.mark.browser

#: Text that is cut off (a box that hides what does not fit), leaf texts whose boxes lie
#: over each other (each line of a wrapped link a box of its own), and punctuation left
#: at the start of a line below what it follows: what a reader on a phone cannot read.
#: The charts' SVG text is left out: its places are the chart's geometry
#: (ledger/matches/chart.py), checked where the chart is.
UNREADABLE = r"""() => {
  const leaves = [...document.querySelectorAll('main *, header *')].filter(e =>
    e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}) && !e.closest('svg')
    && e.children.length === 0 && e.textContent.trim());
  const cut = leaves.filter(e => {
    const s = getComputedStyle(e);
    return s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1;
  }).map(e => 'cut: ' + e.textContent.trim());
  const boxes = leaves.flatMap(e => [...e.getClientRects()].filter(r => r.width && r.height)
    .map(r => [e, r]));
  const over = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, ra] = boxes[i], [b, rb] = boxes[j];
    if (a === b || a.contains(b) || b.contains(a)) continue;
    if (ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1
        && rb.top < ra.bottom - 1)
      over.push('over: ' + a.textContent.trim() + ' / ' + b.textContent.trim()
        + ' at y ' + Math.round(ra.top + scrollY));
  }
  // Punctuation that follows a box but starts the next line below it (the colon after a
  // match's name left alone at the start of a line).
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  const dangling = [];
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const before = t.previousSibling;
    if (!/^\s*[:;,.।]/.test(t.textContent) || !before || before.nodeType !== 1) continue;
    const range = document.createRange();
    range.setStart(t, t.textContent.search(/\S/));
    range.setEnd(t, t.textContent.search(/\S/) + 1);
    const mark = range.getClientRects()[0], box = before.getBoundingClientRect();
    if (mark && box.height && mark.top >= box.bottom - 1)
      dangling.push('dangling: ' + before.textContent.trim() + ' / ' + t.textContent.trim());
  }
  return cut.concat(over, dangling);
}"""
PROFILES = ["amarnepal", "sparkai", "classic", "everestbuzz", "gamerules"]
SHOTS = os.environ.get("FAMILY_SHOTS")  # a folder: each page's screenshot, to look at


def _calls(request, base: str):
    def call(method: str):
        def send(path: str, body: dict, key: str | None) -> tuple[int, dict | None]:
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            answer = getattr(request, method)(base + path, data=body, headers=headers)
            return answer.status, (answer.json() if answer.body() else None)

        return send

    return call("post"), call("patch"), call("delete")


def _readable(page, label: str) -> list[str]:
    """What a reader of the page on a phone cannot read, each problem named by the page."""
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{label}.png", full_page=True)
    problems = [] if no_sideways_scroll(page) else ["scrolls sideways"]
    return [f"{label}: {p}" for p in problems + page.evaluate(UNREADABLE)]


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_familys_three_seasons_read_on_a_phone(live_server, page, lang):
    table = family.build(*_calls(page.request, live_server))
    tid, seasons = table["id"], table["seasons"]
    page.goto(f"{live_server}/lang/{lang}?next=/")
    problems: list[str] = []
    for season in [*seasons, "all"]:
        answer = page.goto(f"{live_server}/tables/{tid}?season={season}")
        assert answer.status == 200
        problems += _readable(page, f"{lang}-table-{season}")
    for name in ["Sita", "Geeta", "Hari", "Former player 1", "Raju", "Suman"]:
        for season in ["all", seasons[-1]]:
            answer = page.goto(f"{live_server}/tables/{tid}/players/{name}?season={season}")
            assert answer.status == 200
            problems += _readable(page, f"{lang}-player-{name}-{season}")
    for season in [seasons[-1], "all"]:
        for profile in PROFILES:
            url = f"{live_server}/tables/{tid}/what-if?season={season}&rules-profile={profile}"
            assert page.goto(url).status == 200
            problems += _readable(page, f"{lang}-whatif-{season}-{profile}")
        url = f"{live_server}/tables/{tid}/what-if?season={season}"
        url += "&rules-profile=sparkai&rules-unseen_maal=kidnap"
        assert page.goto(url).status == 200
        problems += _readable(page, f"{lang}-whatif-{season}-kidnap")
    for season in seasons:
        pdf = page.request.get(f"{live_server}/tables/{tid}/season.pdf?season={season}")
        assert pdf.status == 200
        assert pdf.headers["content-type"] == "application/pdf"
    if SHOTS:
        with open(f"{SHOTS}/problems-{lang}.txt", "w") as f:
            f.write("\n".join(problems))
    assert problems == []
    assert page.console_errors == []
