"""The glossary (/glossary): each word of the game in English and in Nepali, with what
it means (in the page's language). The Nepali forms are the ones the pages use."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_babel import lazy_gettext as _l
from msgspec import Struct

bp = Blueprint("glossary", __name__)


class Word(Struct, frozen=True):
    key: str  # the anchor: /glossary#tiplu
    english: str
    nepali: str
    meaning: object  # a lazy string: read in the page's language


WORDS = (
    Word("tiplu", "tiplu", "टिप्लु", _l("The hand's main joker card: every copy of it is maal.")),
    Word("poplu", "poplu", "पप्लु", _l("The card one rank above the tiplu, in its suit: maal.")),
    Word("jhiplu", "jhiplu", "झिप्लु", _l("The card one rank below the tiplu, in its suit: maal.")),
    Word(
        "alter",
        "alter",
        "अल्टर",
        _l("The tiplu's rank in the other suit of its colour: maal under most house rules."),
    ),
    Word(
        "joker",
        "joker",
        "जोकर",
        _l(
            "A card that can stand for any other: the tiplu and its family, the tiplu's "
            "rank in the other colour (an ordinary joker) and, where the pack has them, "
            "printed jokers."
        ),
    ),
    Word(
        "maal",
        "maal",
        "माल",
        _l("The cards that score at the end of a hand, and the points they are worth."),
    ),
    Word(
        "marriage",
        "marriage",
        "म्यारिज",
        _l("A jhiplu, a tiplu and a poplu held together: worth more than the three apart."),
    ),
    Word(
        "sequence",
        "sequence",
        "सिक्वेन्स",
        _l("Three or more cards in a row in one suit; a pure sequence has no joker."),
    ),
    Word(
        "dublee",
        "dublee",
        "डब्ली",
        _l("Two identical cards; seven dublees are another way to be seen and to finish."),
    ),
    Word(
        "tunnela",
        "tunnela",
        "टनेला",
        _l("Three identical cards; one dealt to a player scores a bonus under some house rules."),
    ),
    Word(
        "seen",
        "seen",
        "सिन",
        _l(
            "A player who has shown three pure sequences or tunnelas (or seven dublees): "
            "their maal counts."
        ),
    ),
    Word(
        "unseen",
        "unseen",
        "अनसिन",
        _l("A player who has not shown yet: pays a bigger fee, and may lose the maal."),
    ),
    Word("murder", "murder", "मर्डर", _l("A house rule: an unseen player's maal counts 0.")),
    Word(
        "kidnap",
        "kidnap",
        "किड्न्याप",
        _l("A house rule: an unseen player's maal goes to the finisher."),
    ),
    Word(
        "finish",
        "finish",
        "गेम",
        _l("Ending the hand with every card in sets; the others pay the finisher a fee."),
    ),
    Word("void", "void hand", "गेम नभएको बाजी", _l("A hand that nobody finished.")),
    Word(
        "foul",
        "foul",
        "फाउल",
        _l("A false show or finish: a penalty under some house rules."),
    ),
)


@bp.get("/glossary")
def index() -> str:
    return render_template("glossary.html", words=WORDS)
