"""The Nepali catalogue says each word of the game one way: the glossary's (/glossary and
docs/translating.md's "Words:" list), in every entry that uses the word; renderings found wrong
by a second reader (reviews/nepali-catalogue.md) stay out; one orthography throughout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from i18n_support import NE

from ledger.web.glossary import WORDS

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "ledger" / "translations" / "ne" / "LC_MESSAGES" / "messages.po"
#: Placeholders and JSON examples ({"tiplu": 1}) are not words of a sentence.
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([A-Za-z_]+\)[sd]")

#: Each glossary word (by its key) as an English message id says it.
GLOSSARY_ENGLISH = {
    "tiplu": r"\btiplus?\b",
    "poplu": r"\bpoplus?\b",
    "jhiplu": r"\bjhiplus?\b",
    "alter": r"\balters?\b",
    "joker": r"\bjokers?\b",
    "maal": r"\bmaal\b",
    "marriage": r"\bmarriages?\b",
    "sequence": r"\bsequences?\b",
    "dublee": r"\bdublees?\b",
    "tunnela": r"\btunnelas?\b",
    "seen": r"\b(seen|saw)\b",
    "unseen": r"\bunseen\b",
    "murder": r"\bmurder(ed)?\b",
    "kidnap": r"\bkidnap(ped)?\b",
    "finish": r"\bfinish(es|ed|er|ers|ing)?\b",
    "void": r"\bvoid\b",
    "foul": r"\bfoul(s|ed)?\b",
}
#: Where a glossary word may take another form than its glossary entry: void as a
#: verdict ("गेम भएन") rather than a noun ("गेम नभएको बाजी").
ALSO = {"void": ("गेम भएन",)}

#: The other terms of the review's consistency table: English, and the Nepali an entry
#: using it must hold.
TERMS = {
    "hand": (r"\bhands?\b", r"बाजी|हात"),  # हात: a hand of cards
    "sit out": (r"\b(sat|sits?)\b.*\bout\b|^out$|“out”", r"बाहिर|नखेलेका"),
    "false show": (r"\bfalse show\b", r"गलत शो"),
    "points race": (r"\bpoints[ _]race\b", r"अङ्कको होड"),
    "zero sum": (r"\bzero[ _-]sum\b", r"आपसी हिसाब"),
    "suit": (r"\bsuits?\b", r"रङ"),
    "colour": (r"\bcolou?r\b", r"रातो"),
    "indicator": (r"\bindicator\b", r"पल्टाइएको"),
    "opponent": (r"\bopponents?\b", r"अरू हरेक खेलाडी"),
    "version": (r"\bversions?\b", r"संस्करण"),
    "rotation": (r"\brotations?\b", r"फन्को"),
    "slip": (r"\bslip\b", r"पुर्जी"),
    "profile": (r"\bprofiles?\b", r"नियम-सेट"),
    "fee": (r"\bfees?\b", r"शुल्क"),
    "penalty": (r"\bpenal(ty|ties|ised)\b", r"जरिवाना"),
    "net": (r"\bnets?\b", r"हारजित"),
    "match": (r"\bmatch(es)?\b", r"म्याच"),
    "ledger": (r"\bledger\b", r"खाता"),
    "connection": (r"\bconnection\b", r"कनेक्सन"),
    "settle-up": (r"\bsettle-up\b|\bto be settled\b", r"हिसाब मिलाउ"),
}

#: Entries that use an English word in another sense than the game's term.
OTHER_SENSE = {
    ("finish", "Finished: %(played)s of %(of)s hands played."),  # the match is over: सकियो
    ("finish", "Finished: %(num)s hand played."),  # an ended open match, likewise
    ("hand", "finished the hand"),  # गेम गर्‍यो: "the hand" goes without saying
    ("hand", "Choose who finished, or mark the hand void."),  # likewise
}

#: Renderings a table trips over, and what is said instead.
BANNED = {
    "गलत सो": "सो means “that”: a false show is गलत शो",
    "दौड": "a footrace: a points race is अङ्कको होड",
    "बसेका": "“the seated ones”: players who sat out are नखेलेका",
    "बस्यो": "“sat down”: a player out of a hand is बाहिर",
    "खाली बाजी": "“an empty hand”: a void hand is गेम नभएको बाजी",
    "खैरो": "brown: a greyed value is फुस्रो",
    "रंग": "colour is said as रातो / कालो, and रङ is the suit",
    "देखाउने पत्ता": "the indicator is the पल्टाइएको पत्ता",
    "विपक्षी": "formal: an opponent is अरू हरेक खेलाडी",
    "डब्लीबाट": "by dublees is डब्लीले, as the options say",
    "सिक्वेन्सबाट": "by sequences is सिक्वेन्सले, as the options say",
    "तपाईङ्": "not a word: the nasal vowel of तपाईं is written with the anusvara",
    "भूल": "Hindi spelling: a mistake is गल्ती (Nepali भुल)",
    "हटिन्छ": "not standard: हट्छ (it goes away) or हटाइन्छ (it is taken away)",
    "लेजर": "the ledger is खाता, as in the app's name",
    "साटिन्छ": "साट्नु is to swap: maal is paid, मालको लेनदेन हुन्छ",
    "साटिँदैन": "साट्नु is to swap: nothing is paid, कसैले कसैलाई केही तिर्दैन",
    "पाना": "a page on screen is पेज",
    "इन्टरनेट": "the phones reach the ledger over Wi-Fi, with no internet: कनेक्सन",
    "हिसाब चुक्ता": "the settle-up is हिसाब मिलाउने, as everywhere else",
    "पाइला": "a footstep: a table's step is its फरक",
    "गाढा": "deep (of a colour): the dark theme is अँध्यारो",
    "रातैपिच्छेको": "night by night: money across nights is सबै रातको हिसाब",
    "औँ स्थान": "a place is स्थान १ (पहिलो, दोस्रो ... never १ औँ)",
    "तीन तास": "“three cards”: a pack counted is a गड्डी (तीन गड्डी)",
    "चार तास": "“four cards”: a pack counted is a गड्डी (चार गड्डी)",
    "तासको नियम": "the setting is named by its label, (“गड्डी” सेटिङ)",
    "तासको सङ्ख्याको नियम": "the setting is named by its label, (“गड्डी” सेटिङ)",
    "कट्टर शत्रु": "newspaper-heavy for friends at a table: a nemesis is बैरी",
    "प्रिन्ट गरिएको": "a printed page says छापिएको, one verb on every PDF",
    "डाटाबेस भेट्न": "भेट्नु is to meet a person: जोडिन सकेन",
}
#: A postposition written apart from the Nepali word before it (टनेला सहित): the
#: catalogue writes them joined (टनेलासहित, बाजीअनुसार, टिप्लुबिना, छुट्टाछुट्टैभन्दा).
APART_POSTPOSITION = re.compile("[\u0900-\u0963\u0971-\u097f] (सहित|अनुसार|बिना|भन्दा)")

#: An anusvara before a stop consonant (the pañcham letter is written instead); not the
#: nasal vowel after an independent vowel (तपाईंको).
ANUSVARA_BEFORE_STOP = re.compile("(?<![\u0904-\u0914])\u0902[क-बभ]")


def _entries():
    with PO.open("rb") as f:
        catalog = read_po(f, locale="ne")
    out = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out.append((ids[0], " ".join(PLACEHOLDER.sub(" ", i) for i in ids), strings))
    return out


ENTRIES = _entries()


def _using(term: str, english: str):
    """(message id, translation) of every entry whose English uses the term as a word of
    the game. An entry whose translation keeps the English word itself names a JSON key
    or value (`seen must be sequences, dublees or unseen.`): it is not a use."""
    found = re.compile(english, re.I)
    for msgid, text, strings in ENTRIES:
        if not found.search(text) or (term, msgid) in OTHER_SENSE:
            continue
        for translated in strings:
            if not found.search(PLACEHOLDER.sub(" ", translated)):
                yield msgid, translated


def test_every_glossary_word_has_its_english():
    assert set(GLOSSARY_ENGLISH) == {word.key for word in WORDS}


@pytest.mark.parametrize("word", WORDS, ids=lambda w: w.key)
def test_the_catalogue_says_each_glossary_word_as_the_glossary_does(word):
    forms = (word.nepali, *ALSO.get(word.key, ()))
    uses = list(_using(word.key, GLOSSARY_ENGLISH[word.key]))
    assert uses, f"no entry uses {word.english!r}: is its English pattern right?"
    other = [(msgid, ne) for msgid, ne in uses if not any(form in ne for form in forms)]
    assert not other, f"{word.english} is {forms} in the glossary, not in: {other}"
    # where the catalogue has the word on its own, it is the glossary's form
    alone = {word.english.casefold(), word.english.casefold() + "s"}
    for msgid, _text, strings in ENTRIES:
        if msgid.casefold() in alone:
            assert strings == (word.nepali,), (msgid, strings)


@pytest.mark.parametrize("term", TERMS)
def test_the_other_terms_keep_one_rendering(term):
    english, nepali = TERMS[term]
    uses = list(_using(term, english))
    assert uses, f"no entry uses {term!r}"
    other = [(msgid, ne) for msgid, ne in uses if not re.search(nepali, ne)]
    assert not other, f"{term} is {nepali}, not in: {other}"


def test_no_rendering_a_table_trips_over():
    found = [
        (wrong, why, msgid)
        for msgid, _text, strings in ENTRIES
        for translated in strings
        for wrong, why in BANNED.items()
        if wrong in translated
    ]
    assert not found, found
    # खाली keeps its one meaning, "empty" (a field left empty, a space): never void
    empty = re.compile(r"\b(empty|spaces?)\b", re.I)
    other = [
        (msgid, translated)
        for msgid, text, strings in ENTRIES
        for translated in strings
        if "खाली" in translated and not empty.search(text)
    ]
    assert not other, other


def test_one_orthography_the_panchham_letter_before_a_stop():
    mixed = [
        (msgid, translated)
        for msgid, _text, strings in ENTRIES
        for translated in strings
        if ANUSVARA_BEFORE_STOP.search(translated)
    ]
    assert not mixed, mixed


def test_the_translators_word_list_and_the_glossary_page_agree_with_the_glossary(client):
    readme = (ROOT / "docs" / "translating.md").read_text()
    bullet = re.search(r"^- Words:(.*?)(?=^- |^#|\Z)", readme, re.S | re.M)
    assert bullet, "docs/translating.md has no “Words:” bullet"
    words = " ".join(bullet.group(1).split())
    html = client.get("/glossary", headers=NE).get_data(as_text=True)
    for word in WORDS:
        assert word.nepali in words, f"docs/translating.md “Words:” does not give {word.nepali}"
        row = re.search(rf'<tr id="{word.key}">(.*?)</tr>', html, re.S)
        assert row and f'<td lang="ne">{word.nepali}</td>' in row.group(1), word.key


def test_postpositions_are_joined_to_their_nepali_word():
    apart = [
        (msgid, translated)
        for msgid, _text, strings in ENTRIES
        for translated in strings
        if APART_POSTPOSITION.search(translated)
    ]
    assert not apart, apart
