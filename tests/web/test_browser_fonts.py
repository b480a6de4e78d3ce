"""The web fonts in Chromium: Devanagari shaped by the subsets exactly as by the full
fonts, and the pages fetching only the subsets, kept for a year."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from browser_support import ask_in
from fontTools.ttLib import TTFont

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "static" / "fonts"
#: Conjuncts, half forms (the joiner), the reph and below-base forms.
HARD = [
    "क्ष",
    "त्र",
    "ज्ञ",
    "श्र",
    "द्ध",
    "द्य",
    "द्व",
    "ह्म",
    "र्क",
    "क्र",
    "ट्र",
    "ङ्क",
    "ड्ढ",
    "क्‍ष",
    "र्‍य",
    "स्त्र",
    "न्त्र",
    "र्त्य",
]

MEASURE = """async ([fonts, words]) => {
  const faces = {};
  for (const [name, b64] of Object.entries(fonts)) {
    const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
    const face = new FontFace(name, bytes.buffer);
    await face.load();
    document.fonts.add(face);
  }
  const ctx = document.createElement("canvas").getContext("2d");
  const out = {};
  for (const name of Object.keys(fonts)) {
    ctx.font = `48px "${name}"`;
    out[name] = words.map(w => Math.round(ctx.measureText(w).width * 100) / 100);
  }
  return out;
}"""


def nepali_words() -> list[str]:
    with (ROOT / "ledger/translations/ne/LC_MESSAGES/messages.po").open("rb") as f:
        catalog = read_po(f, locale="ne")
    words: set[str] = set()
    for message in catalog:
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            words.update(re.findall(r"[\u0900-\u097F\u200C\u200D]+", text or ""))
    return sorted(words | set(HARD))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def without_shaping(woff2: bytes) -> bytes:
    """The same subset with its substitutions taken out: what a careless subset would be."""
    font = TTFont(io.BytesIO(woff2))
    del font["GSUB"]
    font.flavor = None
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@pytest.mark.parametrize("weight", ["Regular", "Bold"])
def test_devanagari_is_shaped_by_the_subset_as_by_the_full_font(live_server, page, weight):
    page.goto(live_server + "/glossary")
    web = page.request.get(
        f"{live_server}/static/fonts/web/NotoSansDevanagari-{weight}.woff2"
    ).body()
    assert web[:4] == b"wOF2"
    full = (FONTS / f"NotoSansDevanagari-{weight}.ttf").read_bytes()
    words = nepali_words()
    assert len(words) > 300
    widths = page.evaluate(
        MEASURE,
        [{"Full": b64(full), "Web": b64(web), "Unshaped": b64(without_shaping(web))}, words],
    )
    differ = [w for w, a, b in zip(words, widths["Full"], widths["Web"], strict=True) if a != b]
    assert not differ, differ[:20]
    # The measure sees shaping: without its substitutions the same font sets conjuncts wider.
    conjuncts = [i for i, w in enumerate(words) if "्" in w]
    unshaped = [i for i in conjuncts if widths["Unshaped"][i] != widths["Full"][i]]
    assert len(unshaped) > 0.5 * len(conjuncts)
    assert page.console_errors == []


def test_pages_fetch_only_the_web_fonts_kept_for_a_year(live_server, page):
    fonts: list[tuple[str, str]] = []

    def seen(response):
        if "/fonts/" in response.url:
            fonts.append((response.url, response.headers.get("cache-control", "")))

    page.on("response", seen)
    ask_in(page, live_server, "ne")
    page.goto(live_server + "/rules")
    page.evaluate("() => document.fonts.ready")
    assert page.evaluate("""() => document.fonts.check('700 16px "Noto Sans Devanagari"', 'नियम')
                                  && document.fonts.check('16px "Noto Sans"', 'Rules')""")
    assert fonts
    for url, cache in fonts:
        assert re.search(r"/static/fonts/web/[\w-]+\.[0-9a-f]{12}\.woff2$", url), url
        assert "immutable" in cache and "max-age=31536000" in cache, (url, cache)
    assert page.console_errors == []
