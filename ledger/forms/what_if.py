"""The What if…? rules picker and the comparison it asks for, as the match's page
(``ledger.web.what_if``), the table's (``ledger.web.table_what_if``) and their PDFs
(``ledger.pdf.routes``) read and show them: one reading, so that a print says what its
page said."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import ngettext
from flask_wtf import FlaskForm
from msgspec import Struct
from werkzeug.datastructures import MultiDict
from wtforms import Form, FormField

from ledger import matches
from ledger.engine import FieldError, HouseRules, SettleUp
from ledger.forms.hand import OVERRIDABLE, RulesForm
from ledger.forms.problems import plain_message
from ledger.forms.rules import RulesChoice, prepare_rules_form, read_rules_form, rules_formdata
from ledger.i18n import num, tr, translate
from ledger.i18n.words import PROFILE_NAMES
from ledger.matches.models import Match
from ledger.matches.reading import rules_from_record
from ledger.matches.rescore import NO, Reason, Rescore, rescore_match

#: The changed hands a printed comparison lists (it is one page); the page lists all.
PRINTED_HANDS = 6
#: As many where each shows two figures a player (as played → under the other rules: a
#: points race beside a zero-sum match), and the page says why above them.
PRINTED_HANDS_TWO_FIGURES = 4


class WhatIfForm(Form):
    """The rules to compare with (a GET form: it changes nothing, so it needs no token)."""

    rules = FormField(RulesForm)


class MatchRulesForm(FlaskForm):
    """The match's new rules, for good (CSRFProtect checks the token)."""

    rules = FormField(RulesForm)


class TotalRow(Struct, frozen=True):
    name: str
    as_played: int
    rescored: int

    @property
    def change(self) -> int:
        return self.rescored - self.as_played


class PlayerChange(Struct, frozen=True):
    """What a changed hand adds to a player's total, as played and under the other rules."""

    name: str
    change: int
    as_played: int
    rescored: int


class HandNote(Struct, frozen=True):
    """A hand rescored in part or not at all, and why, in the page's language."""

    number: int
    rescored: str  # partly | no
    reasons: tuple[str, ...]


class Comparison(Struct, frozen=True):
    """What the page and the PDF show of a rescore (also what ``match/_settle_up.html``
    reads as its ``view``: ``settle_up()``, ``finished``, ``public_id``)."""

    rescore: Rescore
    public_id: str
    title: str  # the other rules, in words
    own: bool  # the other rules are the match's own
    finished: bool
    played_zero_sum: bool  # the match's own rules are zero-sum (not a points race)

    @property
    def comparable(self) -> bool:
        """Whether the totals as played and under the other rules count the same thing, so
        that their difference means something: both points won and lost (zero-sum), or
        both each player's own maal (a points race). Where one is a race and the other
        not, the page shows no change, and each hand that changes its two figures."""
        return self.played_zero_sum == self.rescore.rules.zero_sum

    @property
    def printed_hands(self) -> int:
        """How many changed hands, and hands not rescored in full, the PDF lists."""
        return PRINTED_HANDS if self.comparable else PRINTED_HANDS_TWO_FIGURES

    @property
    def totals(self) -> list[TotalRow]:
        r = self.rescore
        return [TotalRow(n, r.totals_as_played[n], r.totals[n]) for n in r.players]

    @property
    def changed(self) -> list[tuple[int, list[PlayerChange]]]:
        """(hand number, each player whose total it changes) for the hands that change,
        in order."""
        return [
            (
                h.number,
                [
                    PlayerChange(name, change, h.added_as_played(name), h.added(name))
                    for name, change in h.changes(self.rescore.players).items()
                ],
            )
            for h in self.rescore.changed
        ]

    @property
    def notes(self) -> list[HandNote]:
        return [
            HandNote(h.number, h.rescored, tuple(reason_text(r) for r in h.reasons))
            for h in self.rescore.not_in_full
        ]

    @property
    def unchanged(self) -> int:
        """The hands rescored (in full or in part) that come out as played."""
        changed = {h.number for h in self.rescore.changed}
        return sum(h.number not in changed and h.rescored != NO for h in self.rescore.hands)

    @property
    def refused(self) -> int:
        return sum(h.rescored == NO for h in self.rescore.hands)

    def settle_up(self) -> SettleUp | None:
        return self.rescore.settle_up()


def reason_text(reason: Reason) -> str:
    """A reason in the page's language and the table's words: whose, then what."""
    message = reason.message
    text = plain_message(message) if isinstance(message, FieldError) else translate(message)
    return tr("{player}: {reason}", player=reason.who, reason=text) if reason.who else text


def rules_title(rules: HouseRules) -> str:
    """The rules in words: the profile's title, and how many settings differ from it."""
    title = str(PROFILE_NAMES.get(rules.profile, rules.profile))
    changed = len(rules.overrides())
    if not changed:
        return title
    return str(
        ngettext(
            "%(profile)s with %(count)s setting changed",
            "%(profile)s with %(count)s settings changed",
            changed,
            profile=title,
            count=num(changed),
        )
    )


def own_formdata(rules: HouseRules) -> MultiDict[str, str]:
    """The picker's data showing ``rules`` (the settings it offers)."""
    spec = {"profile": rules.profile}
    spec.update({k: v for k, v in rules.overrides().items() if k in OVERRIDABLE})
    return rules_formdata(spec)[0]


#: The two forms holding the rules picker.
PickerForm = WhatIfForm | MatchRulesForm


def read_picker(form: PickerForm) -> RulesChoice:
    prepare_rules_form(form.rules.form)
    return read_rules_form(form.rules.form)


def comparison(match: Match, rules: HouseRules) -> Comparison:
    own = rules_from_record(match.rules)
    view = matches.match_view(match, newest=0)
    return Comparison(
        rescore_match(match, rules),
        match.public_id,
        rules_title(rules),
        own == rules,
        view.finished,
        own.zero_sum,
    )


def chosen(
    own: HouseRules,
    args: Mapping[str, Any],
    form_class: type[WhatIfForm] | type[MatchRulesForm],
) -> tuple[PickerForm, RulesChoice]:
    """The picker from the query (``rules-profile`` and the rest), else set to ``own``
    (the match's or the table's rules), and what it chose."""
    asked = "rules-profile" in args
    formdata = MultiDict(args) if asked else own_formdata(own)
    form = form_class(formdata=formdata)
    return form, read_picker(form)


def picked_query(form: PickerForm) -> dict[str, str]:
    """The picker's fields as a query (for the PDF's and the change page's links)."""
    out: dict[str, str] = {}
    for f in form.rules.form:
        if isinstance(f.data, str) and f.data.strip():
            out[f.name] = f.data.strip()
    return out
