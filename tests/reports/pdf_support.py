"""Matches for the PDF tests, built through the service layer (ledger.matches) or the
JSON API, and their PDFs read."""

from __future__ import annotations

import io
import random
import re
import unicodedata
from pathlib import Path

from api_hands import play

from ledger import matches

FONTS = Path(__file__).resolve().parents[2] / "static" / "fonts"

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def random_hand(rng: random.Random, players: list[str]) -> dict:
    """A valid hand of these players: a tiplu, maal cards dealt from its family (within the
    copies a pack has), a mix of seen and unseen, and a finish (now and then void)."""
    rank = rng.randrange(13)
    suit = rng.choice("SHDC")
    tiplu = f"{RANKS[rank]}{suit}"
    kinds = {
        tiplu: "tiplu",
        f"{RANKS[(rank + 1) % 13]}{suit}": "poplu",
        f"{RANKS[(rank - 1) % 13]}{suit}": "jhiplu",
        f"{RANKS[rank]}{SAME_COLOUR[suit]}": "alter",
    }
    family = [code for code, kind in kinds.items() for _ in range(2 if kind == "tiplu" else 3)]
    rng.shuffle(family)
    seen = ["sequences"] + [rng.choice(["sequences", "sequences", "unseen"]) for _ in players[1:]]
    rng.shuffle(seen)
    void = rng.random() < 0.06
    winner = (
        None
        if void
        else rng.choice([p for p, s in zip(players, seen, strict=True) if s != "unseen"])
    )
    out = []
    for name, status in zip(players, seen, strict=True):
        take = rng.randint(0, 3)
        cards, family = family[:take], family[take:]
        entry = {"name": name, "seen": status}
        style = rng.random()
        if style < 0.7:
            entry["maal_cards"] = cards
        elif style < 0.85:
            entry["maal_counts"] = {kinds[c]: cards.count(c) for c in set(cards)}
        else:
            entry["maal"] = rng.randint(0, 12)
        out.append(entry)
    return {
        "tiplu": tiplu,
        "finish": "void" if void else "sequences",
        "winner": winner,
        "players": out,
    }


def make_match(
    hands: int,
    players: list[str] | None = None,
    rules: object = "amarnepal",
    name: str = "Tihar 2026",
    seed: int = 7,
    per_hand: int = 4,
):
    """A match with ``hands`` random hands; with more players than ``per_hand``, the others
    sit out in turn. Needs an app context. Returns the stored Match."""
    players = players or ["Asha", "Bikash", "Chandra", "Dipa"]
    match, _key = matches.create_match(name, players, rules, None, players[0])
    rng = random.Random(seed)
    for number in range(hands):
        start = number % len(players)
        seated = (players[start:] + players[:start])[: min(per_hand, len(players))]
        seated = [p for p in players if p in seated]  # seat order
        matches.add_hand(match, random_hand(rng, seated))
    return matches.get_match(match.public_id)


def api_created_match(client, body: dict, hands=()) -> dict:
    """A match made through the JSON API (``body``, as POSTed) and its ``hands`` added
    with its edit key, each answered 201; the new match's body (its id and edit key)."""
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 201, response.get_json()
    match = response.get_json()
    play(client, match["id"], match["edit_key"], hands)
    return match


# --- reading PDFs ------------------------------------------------------------------------


def inline_pdf(response, filename: str) -> bytes:
    """The PDF a response gives, which must be one a browser shows, named ``filename``."""
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"] == f'inline; filename="{filename}"'
    return response.data


def pdf_reader(data: bytes):
    from pypdf import PdfReader

    assert data.startswith(b"%PDF-"), data[:200]
    return PdfReader(io.BytesIO(data))


def pdf_text(data: bytes) -> str:
    """All the text of a PDF, as pypdf extracts it."""
    return "\n".join(page.extract_text() for page in pdf_reader(data).pages)


def squeezed(text: str) -> str:
    """Text without any whitespace: a name wrapped over two lines still matches."""
    return re.sub(r"\s+", "", text)


def letters(text: str) -> str:
    """Text without whitespace and vowel signs: pypdf reads a Devanagari vowel sign out
    of place (सारांश as सारिांश), the letters in order."""
    return "".join(c for c in squeezed(text) if not unicodedata.category(c).startswith("M"))


def font_names(data: bytes) -> set[str]:
    """The BaseFont names of every font the pages use (in form XObjects too), without the
    subset prefix: ``ABCDEF+Noto-Sans-Devanagari`` → ``Noto-Sans-Devanagari``."""
    names: set[str] = set()

    def walk(resources, seen: set[int]) -> None:
        resources = resources.get_object() if resources is not None else None
        if not resources:
            return
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            assert "/DescendantFonts" not in font or font["/DescendantFonts"]
            names.add(str(font["/BaseFont"]).lstrip("/").split("+", 1)[-1])
        for xobject in (resources.get("/XObject") or {}).values():
            ref = getattr(xobject, "idnum", None)
            if ref in seen:
                continue
            seen.add(ref)
            walk(xobject.get_object().get("/Resources"), seen)

    for page in pdf_reader(data).pages:
        walk(page.get("/Resources"), set())
    return names


def page_sizes(data: bytes) -> set[tuple[int, int]]:
    """The pages' sizes in points, rounded."""
    return {
        (round(float(p.mediabox.width)), round(float(p.mediabox.height)))
        for p in pdf_reader(data).pages
    }


def vendored_characters() -> set[int]:
    """Every character the vendored fonts (static/fonts/*.ttf) have a glyph for."""
    from fontTools.ttLib import TTFont

    covered: set[int] = set()
    for path in FONTS.glob("*.ttf"):
        with TTFont(path) as font:
            covered |= set(font.getBestCmap())
    return covered


def overflowing_boxes(document) -> list[str]:
    """Boxes of a laid-out WeasyPrint document that stick out of their page's content
    area (sideways): a long name that broke the layout."""
    out = []
    for number, page in enumerate(document.pages, 1):
        root = page._page_box
        content = root.children[0] if root.children else None
        if content is None:
            continue
        left = content.content_box_x()
        right = left + content.width + 0.5
        for box in content.descendants():
            x = getattr(box, "position_x", None)
            width = getattr(box, "width", None)
            if x is None or not isinstance(width, int | float):
                continue
            if x + box.margin_width() > right + 0.5 or x < left - 0.5:
                text = getattr(box, "text", "") or type(box).__name__
                out.append(
                    f"page {number}: {text[:40]!r} spans {x:.0f}-{x + box.margin_width():.0f}"
                    f" (the page's content: {left:.0f}-{right:.0f})"
                )
    return out


# --- the archive: PDF/A metadata, the structure tree, attached files --------------------

XMP = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "pdfaid": "http://www.aiim.org/pdfa/ns/id/",
    "dc": "http://purl.org/dc/elements/1.1/",
}


def xmp_facts(data: bytes) -> dict[str, str]:
    """What the XMP metadata stream says: PDF/A part and conformance, and the title."""
    from xml.etree import ElementTree

    root = pdf_reader(data).trailer["/Root"]
    packet = root["/Metadata"].get_object().get_data()
    tree = ElementTree.fromstring(packet.split(b"?>", 1)[1].rsplit(b"<?xpacket", 1)[0])
    facts = {}
    for description in tree.iter(f"{{{XMP['rdf']}}}Description"):
        for name in ("part", "conformance"):
            value = description.get(f"{{{XMP['pdfaid']}}}{name}")
            if value is not None:
                facts[name] = value
        for title in description.iter(f"{{{XMP['rdf']}}}li"):
            facts["title"] = title.text or ""
    return facts


def structure(data: bytes) -> list[dict]:
    """Every element of the structure tree, depth first: its type (``H1``, ``Table``...),
    its text alternative (``Alt``) and the types of its parents."""
    root = pdf_reader(data).trailer["/Root"]
    found: list[dict] = []

    def walk(node, parents: tuple[str, ...]) -> None:
        node = node.get_object()
        if not isinstance(node, dict):
            return
        kind = str(node.get("/S", "")).lstrip("/")
        if kind:
            found.append({"type": kind, "alt": node.get("/Alt"), "parents": parents})
        kids = node.get("/K")
        kids = kids if isinstance(kids, list) else [kids] if kids is not None else []
        for kid in kids:
            if hasattr(kid, "get_object"):
                walk(kid, (*parents, kind) if kind else parents)

    walk(root["/StructTreeRoot"], ())
    return found


def attached_files(data: bytes) -> dict[str, list[bytes]]:
    """The files a PDF carries, by name."""
    return dict(pdf_reader(data).attachments)
