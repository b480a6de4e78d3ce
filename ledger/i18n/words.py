"""The game's and the house rules' words as the pages show them, marked for translation.

The engine names settings, choices and kinds of maal by their JSON ids
(``unseen_maal``, ``points_race``, ``printed_joker``); these tables give the words
people read, in the page's language (lazy strings: translated when shown). The
English words are the ones the pages have always shown.
"""

from __future__ import annotations

from collections.abc import Iterator, KeysView

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from ledger.engine.maal import ITEM_NOTES, NO_BONUS_REASONS
from ledger.engine.rules import MAAL_COUNT_HELP, PROFILE_NOTES, PROFILE_TITLES, SETTING_HELP

#: Every house-rules setting as a label (the rules chooser, the rules page).
SETTING_LABELS = {
    "profile": _l("House rules"),
    "scoring": _l("Scoring"),
    "packs": _l("Packs"),
    "printed_jokers": _l("Printed jokers"),
    "tiplu_copies_max": _l("Tiplu copies max"),
    "tiplu": _l("Tiplu"),
    "poplu": _l("Poplu"),
    "jhiplu": _l("Jhiplu"),
    "alter": _l("Alter"),
    "ordinary_jokers_wild": _l("Ordinary jokers wild"),
    "ordinary_joker": _l("Ordinary joker"),
    "printed_joker": _l("Printed joker"),
    "marriage": _l("Marriage"),
    "marriage_shown": _l("Marriage shown"),
    "marriage_grouping": _l("Marriage grouping"),
    "tunnela_ordinary": _l("Tunnela ordinary"),
    "tunnela_ordinary_joker": _l("Tunnela ordinary joker"),
    "tunnela_poplu_jhiplu": _l("Tunnela poplu jhiplu"),
    "tunnela_alter": _l("Tunnela alter"),
    "tunnela_printed_joker": _l("Tunnela printed joker"),
    "tunnela_tiplu": _l("Tunnela tiplu"),
    "dealt_tunnela_needs": _l("Dealt tunnela needs"),
    "dealt_tunnela_bonus_mode": _l("Dealt tunnela bonus mode"),
    "unseen_maal": _l("Unseen maal"),
    "fee_seen": _l("Fee seen"),
    "fee_seen_dublee": _l("Fee seen dublee"),
    "fee_unseen": _l("Fee unseen"),
    "dublee_finish_bonus": _l("Dublee finish bonus"),
    "dublee_finish_bonus_mode": _l("Dublee finish bonus mode"),
    "void_hand": _l("Void hand"),
    "dublees_allowed": _l("Dublees allowed"),
    "dublees_min_players": _l("Dublees min players"),
    "deal_passes": _l("Deal passes"),
    "match_length": _l("Match length"),
    "finisher_bonus_per_opponent": _l("Finisher bonus per opponent"),
    "foul": _l("Foul"),
    "foul_penalty": _l("Foul penalty"),
}

#: The values of the choice settings (``ledger.engine.rules.CHOICES``), and yes / no.
CHOICE_WORDS = {
    "zero_sum": _l("zero sum"),
    "points_race": _l("points race"),
    "best": _l("best"),
    "marriages_first": _l("marriages first"),
    "seen_by_sequences": _l("seen by sequences"),
    "nothing": _l("nothing"),
    "murder": _l("murder"),
    "kidnap": _l("kidnap"),
    "keep": _l("keep"),
    "keep_not_between_unseen": _l("keep, not between unseen"),
    "instead": _l("instead of its cards"),
    "added": _l("added to its cards"),
    "per_loser": _l("per loser"),
    "finisher_maal": _l("finisher maal"),
    "maal_only": _l("maal only"),
    "left": _l("left"),
    "right": _l("right"),
    "off": _l("off"),
    # Where a foul's penalty goes: "same hand" alone did not say to whom.
    "same_hand": _l("to this hand's finisher"),
    "next_hand": _l("to the next hand's finisher"),
    True: _l("yes"),
    False: _l("no"),
}

#: Kinds of maal and of dealt tunnela, as labels.
KIND_WORDS = {
    "tiplu": _l("Tiplu"),
    "poplu": _l("Poplu"),
    "jhiplu": _l("Jhiplu"),
    "alter": _l("Alter"),
    "printed_joker": _l("Printed joker"),
    "ordinary_joker": _l("Ordinary joker"),
    "marriages_shown": _l("Marriages shown"),
    "marriage": _l("Marriages"),
    "ordinary": _l("Ordinary"),
}

#: Kinds of maal and of dealt tunnela in lower case, as a sentence or a button names
#: them ("+ poplu", "a marriage uses a tiplu").
KIND_NAMES = {
    "ordinary": _l("ordinary"),
    "ordinary_joker": _l("ordinary joker"),
    "poplu": _l("poplu"),
    "jhiplu": _l("jhiplu"),
    "alter": _l("alter"),
    "printed_joker": _l("printed joker"),
    "tiplu": _l("tiplu"),
}

#: What a dealt tunnela is scored as (``engine.hand.tunnela_group``), in the plural.
TUNNELA_GROUP_NAMES = {
    "ordinary": _l("ordinary cards"),
    "ordinary_joker": _l("ordinary jokers"),
    "poplu_jhiplu": _l("poplus or jhiplus"),
    "alter": _l("alters"),
    "printed_joker": _l("printed jokers"),
    "tiplu": _l("tiplus"),
}


#: Maal items whose cards say nothing their name does not: a printed joker's card is
#: "Joker", so "Printed joker Joker" said the word twice (its count is said as "× 2").
CARDS_IN_THE_NAME = frozenset({"printed_joker"})


def shown_cards(item: dict[str, object]) -> list[object]:
    """The cards a breakdown item (``Settlement.to_json()``'s) shows after its name:
    none where the name already says them (``CARDS_IN_THE_NAME``)."""
    cards = item.get("cards") or ()
    if item.get("item") in CARDS_IN_THE_NAME or not isinstance(cards, list | tuple):
        return []
    return list(cards)


class Translated:
    """A read-only view of an engine table of English sentences (PROFILE_TITLES,
    SETTING_HELP) that gives each in the page's language: ``table.get(key, default)``,
    ``table[key]``, ``items()``, as templates use a dict."""

    def __init__(self, table: dict[str, str]):
        self._table = table

    def __getitem__(self, key: str) -> str:
        text: str = gettext(self._table[key])
        return text

    def __contains__(self, key: object) -> bool:
        return key in self._table

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def get(self, key: str, default: object = None) -> object:
        return self[key] if key in self._table else default

    def keys(self) -> KeysView[str]:
        return self._table.keys()

    def items(self) -> list[tuple[str, str]]:
        return [(key, self[key]) for key in self._table]


PROFILE_NAMES = Translated(PROFILE_TITLES)
PROFILE_READINGS = Translated(PROFILE_NOTES)
NO_BONUS_WHY = Translated(NO_BONUS_REASONS)
ITEM_NOTE_WORDS = Translated(ITEM_NOTES)
SETTING_MEANINGS = Translated(SETTING_HELP)
COUNT_MEANINGS = Translated(MAAL_COUNT_HELP)

#: The awards of a night or a season (``engine.player_figures.AWARDS``) as titles.
AWARD_TITLES = {
    "hands_won": _l("Most hands won"),
    "dublee_finishes": _l("Most dublee finishes"),
    "best_hand": _l("Biggest hand"),
    "best_night": _l("Best night"),
}
