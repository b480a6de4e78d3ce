"""Build the pages' web fonts: WOFF2 subsets of the vendored Noto fonts, and their
``@font-face`` rules with metric-matched fallbacks (``static/css/fonts.css``).

    .venv/bin/python scripts/build_fonts.py        (or: make fonts)

The full TTFs in ``static/fonts/`` stay for the PDFs (WeasyPrint subsets them itself).
A phone gets only ``static/fonts/web/*.woff2``: each face keeps what the pages can show,

- every character of the templates, the catalogues, the app's code, its scripts and
  stylesheets, and the currency symbols Babel writes in English and Nepali;
- whole blocks for what people type: Latin (Basic, Latin-1, Extended-A) in names, and the
  whole Devanagari block (a Nepali name may use any letter; a conjunct needs every glyph
  its letters can form, so the Devanagari faces keep all their layout features);

each character in the first face of the stack (Noto Sans, Noto Sans Devanagari, Noto
Sans Symbols 2, Noto Sans Math) that has it, as a browser picks them. Hinting is
dropped (phones' renderers do not use it). The output is the same on every run.

While a Latin face loads, the text is set in a local font adjusted to its metrics (CSS
``size-adjust`` and the ascent, descent and line-gap overrides), so the swap moves
nothing: Arial (and its metric twins Liberation Sans and Arimo), Roboto (Android) and
DejaVu Sans (Linux). Their metrics are measured from the fonts of Debian's packages
``fonts-liberation2``, ``fonts-roboto-unhinted`` and ``fonts-dejavu-core``, fetched with
``apt-get download`` into a temporary folder (nothing is installed), or read from
``--fallback-fonts DIR``; the widths are averaged over the English catalogue's text.

The Devanagari faces are ``font-display: optional`` instead: the phones' own Devanagari
fonts (Kohinoor, Nirmala UI, Android's) cannot all be measured, so a page whose
Devanagari font is not there at once (a first visit on a slow line) keeps the phone's
own, and the next page has it from the cache.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import get_currency_symbol, list_currencies
from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "static" / "fonts"
OUT = FONTS / "web"
CSS = ROOT / "static" / "css" / "fonts.css"
CATALOGUES = ROOT / "ledger" / "translations"
LANGUAGES = ("en", "ne")

#: Files whose every character a page may show.
SOURCES = (
    ("templates", "**/*.html"),
    ("ledger/translations", "**/*.po"),
    ("ledger", "**/*.py"),
    ("static/js", "*.js"),
    ("static/css", "*.css"),
)
#: Whole blocks kept for what people type (names) and what Nepali needs.
BLOCKS = (
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x017F),  # Latin-1 Supplement, Latin Extended-A
    (0x0900, 0x097F),  # Devanagari
    (0x200B, 0x200D),  # zero-width space, non-joiner, joiner (conjunct control)
    (0x2010, 0x2027),  # dashes, quotes, bullets, ellipsis
    (0x2030, 0x203A),  # per mille, primes, angle quotes
    (0x20A0, 0x20C0),  # currency symbols
    (0x2190, 0x2199),  # arrows: ← ↑ → ↓ ↔ ↕ and the diagonals
    (0x25B2, 0x25BF),  # small triangles (disclosure marks)
    (0x25CC, 0x25CC),  # dotted circle (a mark shown alone)
)
#: Spaces every subset keeps: a renderer sets a space between two symbols in their font.
SPACES = (0x0020, 0x00A0)


@dataclass(frozen=True)
class Face:
    family: str
    source: str  # a file in static/fonts
    weight: int
    keep_all_features: bool = False  # Devanagari: every shaping feature, always
    only: tuple[tuple[int, int], ...] | None = None  # the blocks it may take, if not all
    display: str = "swap"

    @property
    def output(self) -> str:
        return self.source.replace(".subset", "").replace(".ttf", ".woff2")


#: What the Devanagari faces take: the script, its joiners and the dotted circle; not the
#: symbols it shares with Noto Sans Math (−), which would fetch it for a negative number.
DEVANAGARI = ((0x0900, 0x097F), (0x200C, 0x200D), (0x25CC, 0x25CC))

#: The stack, in the order app.css names the families.
FACES = (
    Face("Noto Sans", "NotoSans-Regular.ttf", 400),
    Face("Noto Sans", "NotoSans-Bold.ttf", 700),
    Face(
        "Noto Sans Devanagari", "NotoSansDevanagari-Regular.ttf", 400, True, DEVANAGARI, "optional"
    ),
    Face("Noto Sans Devanagari", "NotoSansDevanagari-Bold.ttf", 700, True, DEVANAGARI, "optional"),
    Face("Noto Sans Symbols 2", "NotoSansSymbols2-Regular.subset.ttf", 400),
    Face("Noto Sans Math", "NotoSansMath-Regular.subset.ttf", 400),
)


@dataclass(frozen=True)
class Fallback:
    """Local fonts standing in for Noto Sans while it loads, by the metrics of one file."""

    name: str
    local: dict[int, tuple[str, ...]]  # weight: local() names (full and PostScript)
    measured: dict[int, str]  # weight: the file (in a Debian package) measured
    package: str


FALLBACKS = (
    Fallback(
        "Arial",
        {
            400: (
                "Arial",
                "ArialMT",
                "Liberation Sans",
                "LiberationSans",
                "Arimo",
                "Arimo-Regular",
            ),
            700: (
                "Arial Bold",
                "Arial-BoldMT",
                "Liberation Sans Bold",
                "LiberationSans-Bold",
                "Arimo Bold",
                "Arimo-Bold",
            ),
        },
        {400: "LiberationSans-Regular.ttf", 700: "LiberationSans-Bold.ttf"},
        "fonts-liberation2",
    ),
    Fallback(
        "Roboto",
        {400: ("Roboto", "Roboto-Regular"), 700: ("Roboto Bold", "Roboto-Bold")},
        {400: "Roboto-Regular.ttf", 700: "Roboto-Bold.ttf"},
        "fonts-roboto-unhinted",
    ),
    Fallback(
        "DejaVu Sans",
        {400: ("DejaVu Sans", "DejaVuSans"), 700: ("DejaVu Sans Bold", "DejaVuSans-Bold")},
        {400: "DejaVuSans.ttf", 700: "DejaVuSans-Bold.ttf"},
        "fonts-dejavu-core",
    ),
)


def fallback_family(fallback: Fallback) -> str:
    return f"Noto Sans fallback {fallback.name}"


def shown_characters() -> set[int]:
    """Every character of the files a page may show, and Babel's currency symbols."""
    found: set[str] = set()
    for folder, pattern in SOURCES:
        for path in sorted((ROOT / folder).glob(pattern)):
            if path.name.endswith(".min.js"):  # vendored code: its text is never shown
                continue
            found.update(path.read_text(encoding="utf-8"))
    for language in LANGUAGES:
        locale = Locale.parse(language)
        for code in list_currencies():
            found.update(get_currency_symbol(code, locale=locale))
        for symbols in locale.number_symbols.values():
            for symbol in symbols.values():
                found.update(symbol)
    return {ord(c) for c in found if not unicodedata.category(c).startswith("C")}


def wanted_characters() -> set[int]:
    wanted = shown_characters()
    for first, last in BLOCKS:
        wanted.update(range(first, last + 1))
    return wanted


def assign(wanted: set[int]) -> dict[str, set[int]]:
    """Each wanted character to the first family of the stack that has it."""
    taken: set[int] = set()
    families: dict[str, set[int]] = {}
    for face in FACES:
        if face.family in families:
            continue
        cmap = set(TTFont(FONTS / face.source)["cmap"].getBestCmap())
        if face.only is None:
            families[face.family] = (wanted & cmap) - taken
        else:  # its whole blocks, even what a face before it has (the joiners)
            allowed = {cp for first, last in face.only for cp in range(first, last + 1)}
            families[face.family] = wanted & cmap & allowed
        taken |= families[face.family]
    return families


def build_face(face: Face, characters: set[int]) -> Path:
    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False
    options.desubroutinize = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]  # copyright, names, version (the OFL's terms)
    if face.keep_all_features:
        options.layout_features = ["*"]
    else:
        options.layout_features = [*options.layout_features, "tnum"]  # tabular figures
    font = subset.load_font(str(FONTS / face.source), options, dontLoadGlyphNames=True)
    font.recalcTimestamp = False  # the same bytes on every run
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(characters | set(SPACES)))
    subsetter.subset(font)
    OUT.mkdir(exist_ok=True)
    path = OUT / face.output
    subset.save_font(font, str(path), options)
    return path


def ranges(codepoints: Iterable[int]) -> str:
    """CSS unicode-range: U+20-7E, U+A0..."""
    parts: list[str] = []
    run: list[int] = []
    for cp in sorted(codepoints):
        if run and cp == run[-1] + 1:
            run.append(cp)
            continue
        if run:
            parts.append(_span(run[0], run[-1]))
        run = [cp]
    if run:
        parts.append(_span(run[0], run[-1]))
    return ", ".join(parts)


def _span(first: int, last: int) -> str:
    return f"U+{first:X}" if first == last else f"U+{first:X}-{last:X}"


def english_sample() -> Counter[str]:
    """How often each character appears in the English catalogue's sentences."""
    with (CATALOGUES / "messages.pot").open("rb") as f:
        catalog = read_po(f)
    counts: Counter[str] = Counter()
    for message in catalog:
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            counts.update(re.sub(r"\{[^}]*\}|%\([^)]*\)[sd]", "", text))
    return counts


def average_width(font: TTFont, sample: Counter[str]) -> float:
    """The sample's mean advance width, in ems."""
    cmap = font["cmap"].getBestCmap()
    metrics = font["hmtx"].metrics
    total = count = 0
    for char, n in sample.items():
        glyph = cmap.get(ord(char))
        if glyph is not None:
            total += metrics[glyph][0] * n
            count += n
    return total / count / font["head"].unitsPerEm


def fallback_rules(folder: Path) -> list[str]:
    sample = english_sample()
    rules = []
    for fallback in FALLBACKS:
        for weight, file in fallback.measured.items():
            noto = TTFont(
                FONTS
                / next(f.source for f in FACES if f.family == "Noto Sans" and f.weight == weight)
            )
            found = sorted(folder.rglob(file))
            if not found:
                sys.exit(f"{file} not found under {folder} (Debian package {fallback.package})")
            local = TTFont(found[0])
            adjust = average_width(noto, sample) / average_width(local, sample)
            upm = noto["head"].unitsPerEm
            hhea = noto["hhea"]
            sources = ", ".join(f'local("{name}")' for name in fallback.local[weight])
            rules.append(
                "@font-face {\n"
                f'  font-family: "{fallback_family(fallback)}";\n'
                f"  src: {sources};\n"
                f"  font-weight: {weight};\n"
                "  font-style: normal;\n"
                f"  size-adjust: {adjust * 100:.2f}%;\n"
                f"  ascent-override: {hhea.ascent / upm / adjust * 100:.2f}%;\n"
                f"  descent-override: {-hhea.descent / upm / adjust * 100:.2f}%;\n"
                f"  line-gap-override: {hhea.lineGap / upm / adjust * 100:.2f}%;\n"
                "}"
            )
    return rules


def face_rule(face: Face, characters: set[int]) -> str:
    return (
        "@font-face {\n"
        f'  font-family: "{face.family}";\n'
        f'  src: url("../fonts/web/{face.output}") format("woff2");\n'
        f"  font-weight: {face.weight};\n"
        "  font-style: normal;\n"
        f"  font-display: {face.display};\n"
        f"  unicode-range: {ranges(characters)};\n"
        "}"
    )


def fetch_fallback_fonts(folder: Path) -> None:
    """The fallbacks' Debian packages, unpacked into ``folder`` (nothing installed)."""
    packages = [fallback.package for fallback in FALLBACKS]
    subprocess.run(["apt-get", "download", *packages], cwd=folder, check=True)
    for deb in sorted(folder.glob("*.deb")):
        subprocess.run(["dpkg-deb", "-x", deb.name, "unpacked"], cwd=folder, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--fallback-fonts",
        type=Path,
        help="a folder holding the fallbacks' fonts (else apt-get download)",
    )
    args = parser.parse_args()

    families = assign(wanted_characters())
    rules = []
    for face in FACES:
        assigned = families[face.family]
        path = build_face(face, assigned)
        # All the file holds (what its layout features reach too), but the spaces it keeps
        # only for WeasyPrint's sake.
        held = set(TTFont(path)["cmap"].getBestCmap()) - (set(SPACES) - assigned)
        rules.append(face_rule(face, held))
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes, {len(held)} characters")
    if args.fallback_fonts:
        rules += fallback_rules(args.fallback_fonts)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            fetch_fallback_fonts(Path(tmp))
            rules += fallback_rules(Path(tmp))
    stack = ", ".join(f'"{fallback_family(f)}"' for f in FALLBACKS)
    CSS.write_text(
        "/* Generated by scripts/build_fonts.py: do not edit. The pages' fonts: WOFF2 subsets\n"
        "   of the vendored Noto fonts (static/fonts/README.md), and local fonts matched to\n"
        "   Noto Sans's metrics to set the text in while it loads, so nothing moves when it\n"
        f"   arrives. app.css names them after the Noto families: {stack}. */\n\n"
        + "\n".join(rules)
        + "\n",
        encoding="utf-8",
    )
    print(f"{CSS.relative_to(ROOT)}: {CSS.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
