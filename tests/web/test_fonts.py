"""The pages' web fonts (static/fonts/web/*.woff2, static/css/fonts.css, built by
scripts/build_fonts.py): they hold every character the pages show, Devanagari keeps its
shaping, and the PDFs keep the full fonts. When a test here fails after a template or
catalogue change, `make fonts` rebuilds the subsets."""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from babel import Locale
from babel.numbers import get_currency_symbol, list_currencies
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
FACE = re.compile(r"@font-face\s*\{(?P<body>[^}]*)\}")
SPACES = {0x20, 0xA0}


def _descriptor(body: str, name: str) -> str | None:
    found = re.search(rf"{name}\s*:\s*([^;]+);", body)
    return found[1].strip() if found else None


def _codepoints(unicode_range: str) -> set[int]:
    points: set[int] = set()
    for part in unicode_range.split(","):
        first, _, last = part.strip().removeprefix("U+").partition("-")
        points.update(range(int(first, 16), int(last or first, 16) + 1))
    return points


@cache
def web_faces() -> list[dict]:
    """fonts.css's faces that load a file: family, weight, file, unicode-range, cmap."""
    faces = []
    for match in FACE.finditer((STATIC / "css" / "fonts.css").read_text(encoding="utf-8")):
        body = match["body"]
        url = re.search(r'url\("([^"]+)"\)', body)
        if url is None:
            continue  # a local fallback
        path = (STATIC / "css" / url[1]).resolve()
        faces.append(
            {
                "family": _descriptor(body, "font-family").strip('"'),
                "weight": int(_descriptor(body, "font-weight")),
                "path": path,
                "range": _codepoints(_descriptor(body, "unicode-range")),
                "cmap": set(TTFont(path)["cmap"].getBestCmap()),
            }
        )
    return faces


def in_web_fonts(cp: int, weight: int | None = None) -> bool:
    return any(
        cp in face["range"] and cp in face["cmap"]
        for face in web_faces()
        if weight is None or face["weight"] == weight
    )


def shown_text() -> str:
    """Every template and both catalogues, whole."""
    files = [
        *(ROOT / "templates").rglob("*.html"),
        *(ROOT / "ledger" / "translations").glob("*/LC_MESSAGES/messages.po"),
    ]
    assert len(files) > 20
    return "".join(path.read_text(encoding="utf-8") for path in files)


def missing(characters) -> list[str]:
    return [
        f"U+{ord(c):04X} {unicodedata.name(c, '?')}"
        for c in sorted(set(characters))
        if not in_web_fonts(ord(c))
    ]


def test_the_web_fonts_are_small_woff2_subsets():
    faces = web_faces()
    assert {f["family"] for f in faces} == {
        "Noto Sans",
        "Noto Sans Devanagari",
        "Noto Sans Symbols 2",
        "Noto Sans Math",
    }
    for face in faces:
        assert face["path"].parent == STATIC / "fonts" / "web"
        data = face["path"].read_bytes()
        assert data[:4] == b"wOF2", face["path"]
        assert len(data) < 45_000, face["path"]


def test_every_character_of_the_templates_and_catalogues_is_in_a_web_font():
    text = shown_text()
    needed = {c for c in text if unicodedata.category(c) != "Cc"}
    assert {"♠", "♥", "♦", "♣", "−", "←", "क्ष"[0], "।", "०"} <= needed
    assert not missing(needed), "run `make fonts`"


def test_money_symbols_are_in_the_web_fonts():
    """What Babel writes for any currency in English or Nepali, where the full fonts have it."""
    full = set()
    for ttf in (STATIC / "fonts").glob("*.ttf"):
        full |= set(TTFont(ttf)["cmap"].getBestCmap())
    symbols = set("₹£€¥$−")
    for language in ("en", "ne"):
        locale = Locale.parse(language)
        for code in list_currencies():
            symbols.update(get_currency_symbol(code, locale=locale))
    assert "रू" in get_currency_symbol("NPR", locale="ne")
    assert not missing(c for c in symbols if ord(c) in full)


def test_names_in_latin_or_devanagari_are_covered_whole():
    """What people type: Latin with its accents (Latin-1, Extended-A), any Devanagari letter."""
    for first, last in ((0x21, 0x7E), (0xC0, 0x17F), (0x905, 0x939), (0x93E, 0x94D)):
        for cp in range(first, last + 1):
            assert in_web_fonts(cp, 400) and in_web_fonts(cp, 700), f"U+{cp:04X}"


def test_the_bold_faces_hold_what_the_regular_ones_do():
    by_family: dict[str, dict[int, dict]] = {}
    for face in web_faces():
        by_family.setdefault(face["family"], {})[face["weight"]] = face
    for family, weights in by_family.items():
        if 700 in weights:
            assert weights[700]["cmap"] == weights[400]["cmap"], family
            assert weights[700]["range"] == weights[400]["range"], family


def test_each_unicode_range_is_what_its_file_holds():
    for face in web_faces():
        assert face["range"] <= face["cmap"], face["path"]
        assert face["cmap"] - face["range"] <= SPACES, face["path"]


@pytest.mark.parametrize("weight", ["Regular", "Bold"])
def test_the_devanagari_subset_keeps_every_shaping_feature(weight):
    full = TTFont(STATIC / "fonts" / f"NotoSansDevanagari-{weight}.ttf")
    web = TTFont(STATIC / "fonts" / "web" / f"NotoSansDevanagari-{weight}.woff2")
    for table in ("GSUB", "GPOS"):
        tags = [
            {r.FeatureTag for r in font[table].table.FeatureList.FeatureRecord}
            for font in (full, web)
        ]
        assert tags[0] == tags[1], table
    assert {"half", "rphf", "blwf", "pres", "abvs", "blws", "akhn", "cjct"} <= tags[0] | {
        r.FeatureTag for r in web["GSUB"].table.FeatureList.FeatureRecord
    }
    letters = {cp for cp in full["cmap"].getBestCmap() if 0x900 <= cp <= 0x97F}
    assert letters <= set(web["cmap"].getBestCmap())
    # The conjuncts and half forms stay: most of the font's glyphs are Devanagari.
    assert len(web.getGlyphOrder()) > 0.8 * len(full.getGlyphOrder())


def test_the_pdfs_keep_the_full_fonts_and_the_pages_get_the_subsets():
    def sources(name: str) -> list[str]:
        css = (STATIC / "css" / name).read_text(encoding="utf-8")
        return re.findall(r'src:\s*url\("([^"]+)"\)', css)

    assert sources("app.css") == []  # shared with the PDFs: no faces of its own
    assert sources("pdf.css") and all(s.endswith(".ttf") for s in sources("pdf.css"))
    assert sources("fonts.css") and all(
        s.startswith("../fonts/web/") and s.endswith(".woff2") for s in sources("fonts.css")
    )
    # WeasyPrint reads app.css, report.css and pdf.css; never the pages' subsets.
    from ledger.pdf.render import STYLESHEETS

    assert "css/fonts.css" not in STYLESHEETS and "css/pdf.css" in STYLESHEETS


def test_the_font_stack_falls_back_to_the_metric_matched_local_fonts():
    fonts_css = (STATIC / "css" / "fonts.css").read_text(encoding="utf-8")
    fallbacks = []
    for match in FACE.finditer(fonts_css):
        body = match["body"]
        if "local(" in body:
            family = _descriptor(body, "font-family").strip('"')
            assert _descriptor(body, "size-adjust").endswith("%")
            for override in ("ascent-override", "descent-override", "line-gap-override"):
                assert _descriptor(body, override).endswith("%"), (family, override)
            if family not in fallbacks:
                fallbacks.append(family)
    assert len(fallbacks) >= 3
    app_css = (STATIC / "css" / "app.css").read_text(encoding="utf-8")
    stack = [
        name.strip().strip('"') for name in re.search(r"--font:\s*([^;]+);", app_css)[1].split(",")
    ]
    assert stack[:4] == [
        "Noto Sans",
        "Noto Sans Devanagari",
        "Noto Sans Symbols 2",
        "Noto Sans Math",
    ]
    assert stack[4 : 4 + len(fallbacks)] == fallbacks  # before any generic family
