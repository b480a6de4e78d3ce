"""The new-match form: name, players in seat order, house rules, length, first dealer,
and an optional stake.

``rules_spec``, ``read_length`` and ``error_field`` read the posted form for
``ledger.matches.create_match`` and place its problems on their fields; the route
(``ledger.web.matches.submit_new_match``) creates the match (nothing is stored on a
problem). The house rules use the
shared rules chooser (``ledger.forms.rules``); the deal's direction is offered here
too, since it matters to a match and not to one hand.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, time, timedelta
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from msgspec import Struct, field
from wtforms import (
    Field,
    FieldList,
    FormField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)

from ledger.engine import FieldError, HouseRules
from ledger.engine.game import MAX_MATCH_PLAYERS, MIN_PLAYERS
from ledger.forms import stripped, text_field
from ledger.forms.hand import RulesForm
from ledger.forms.numbers import WholeNumberInput, read_whole
from ledger.forms.problems import Problem
from ledger.forms.rules import RulesChoice, prepare_rules_form, read_rules_form
from ledger.forms.stake import (
    StakeFields,
    prepare_stake_fields,
    stake_field,
)
from ledger.i18n import format_day, tr
from ledger.i18n import today as local_today
from ledger.i18n.numbers import length_words, time_zone
from ledger.i18n.words import CHOICE_WORDS
from ledger.matches import matches_started_between
from ledger.matches.reading import PROFILE_LENGTH

DEFAULT_ROWS = 4
LENGTH_KINDS = ("profile", "hands", "rotations", "open")


class NewMatchForm(FlaskForm):
    """What the new-match page posts (CSRFProtect checks the token before any view)."""

    # No maxlength: a pasted name would be cut with no word; the check says how long.
    name = text_field(_l("Name of the match"), placeholder=_l("e.g. Tihar 2026"))
    players = FieldList(
        text_field(_l("Name"), autocapitalize="words"),
        min_entries=DEFAULT_ROWS,
        max_entries=MAX_MATCH_PLAYERS,
    )
    #: The row (as text) of the player who deals the first hand.
    first_dealer = RadioField(_l("Deals first"), choices=[], default="0", validate_choice=False)
    rules = FormField(RulesForm)
    deal_passes = SelectField(_l("The deal passes"), choices=[], validate_choice=False)
    #: Four packs in one choice (up to 8 a hand), not only under "Change the rules…".
    packs = SelectField(_l("Packs"), choices=[], validate_choice=False)
    length_kind = RadioField(
        _l("Length of the match"), choices=[], default="profile", validate_choice=False
    )
    length_count = StringField(
        _l("How many"),
        filters=[stripped],
        widget=WholeNumberInput(min=1, max=1000),
    )
    #: Money per point (empty: points only) and its currency.
    stake = FormField(StakeFields)


class NewMatchCheck(Struct):
    """The form read: the rules chosen, and the problems not shown beside a field."""

    choice: RulesChoice
    problems: list[Problem] = field(default_factory=list)

    @property
    def players_problems(self) -> list[Problem]:
        """Problems of the list of players as a whole (shown above it)."""
        return [p for p in self.problems if p.field is None and p.label.startswith("players")]

    @property
    def top_problems(self) -> list[Problem]:
        return [p for p in self.problems if p.field is None and p not in self.players_problems]


def match_length_words(length: Any) -> str:
    """A match's length (a ``MatchLength``, or None: open) in words."""
    if length is None:
        return tr("open")
    return length_words(length.unit, length.count)


def prepare_new_match_form(form: NewMatchForm, *, add_row: bool = False) -> RulesChoice:
    """Ready the form (rows, choices showing the profile's values); returns the rules."""
    if add_row and len(form.players) < MAX_MATCH_PLAYERS:
        form.players.append_entry()
    while len(form.players) < MIN_PLAYERS:
        form.players.append_entry()
    prepare_rules_form(form.rules.form)
    choice = read_rules_form(form.rules.form)
    base: HouseRules = choice.base
    form.first_dealer.choices = [
        SelectChoice(str(i), tr("Deals first")) for i in range(len(form.players))
    ]
    if form.first_dealer.data is None:
        form.first_dealer.data = "0"
    form.deal_passes.choices = [
        SelectChoice("", tr("{value} (profile)", value=str(CHOICE_WORDS[base.deal_passes]))),
        SelectChoice("left", tr("left: to the next seat")),
        SelectChoice("right", tr("right: to the previous seat")),
    ]
    form.packs.choices = [
        SelectChoice("", tr("{value} (profile)", value=tr("{n} packs", n=base.packs))),
        SelectChoice("3", tr("Three packs: up to 5 a hand")),
        SelectChoice("4", tr("Four packs: up to 8 a hand")),
    ]
    form.length_kind.choices = [
        SelectChoice(
            "profile",
            tr(
                "The profile's usual length ({length})",
                length=match_length_words(base.match_length),
            ),
        ),
        SelectChoice("hands", tr("A number of hands")),
        SelectChoice("rotations", tr("Full dealer rotations")),
        SelectChoice("open", tr("Open: no set length")),
    ]
    if form.length_kind.data not in LENGTH_KINDS:
        form.length_kind.data = "profile"
    prepare_stake_fields(form.stake.form)
    return choice


def rules_spec(form: NewMatchForm, choice: RulesChoice) -> object:
    spec = choice.spec if choice.spec is not None else form.rules.form.profile.data
    passes = form.deal_passes.data
    if passes:
        spec = {**(spec if isinstance(spec, dict) else {"profile": spec}), "deal_passes": passes}
    if form.packs.data in ("3", "4"):
        spec = {
            **(spec if isinstance(spec, dict) else {"profile": spec}),
            "packs": int(form.packs.data),
        }
    return spec


def read_length(form: NewMatchForm, problems: list[Problem]) -> object:
    kind = form.length_kind.data
    if kind == "profile":
        return PROFILE_LENGTH
    if kind == "open":
        return None
    count = read_whole(form.length_count.data)
    if count is None or not 1 <= count <= 1000:
        if kind == "rotations":
            message = tr("Enter how many rotations: a whole number from 1 to 1000.")
        else:
            message = tr("Enter how many hands: a whole number from 1 to 1000.")
        problems.append(Problem(message, form.length_count, tr("Length")))
        return None
    return {kind: count}


def error_field(form: NewMatchForm, error: FieldError, rows: list[int]) -> Field | None:
    """The form field an error of ``read_match`` concerns (None: shown above the players)."""
    parts = error.field.split(".")
    if parts[0] == "name":
        return form.name
    if parts[0] == "players" and len(parts) == 2 and parts[1].isdigit():
        index = int(parts[1])
        return form.players[rows[index]] if index < len(rows) else None
    if parts[0] == "length":
        return (
            form.length_count
            if form.length_kind.data in ("hands", "rotations")
            else form.length_kind
        )
    if parts[0] == "first_dealer":
        return form.first_dealer
    if parts[0] == "stake":
        return stake_field(form.stake.form, error)
    if parts[0] == "rules" and len(parts) == 2:
        if parts[1] == "deal_passes":
            return form.deal_passes
        if parts[1] == "packs":
            return form.packs
        return getattr(form.rules.form, parts[1], form.rules.form.profile)
    return None


def default_name(
    day: date | None = None, table_id: int | None = None, among: Collection[str] = ()
) -> str:
    """The name of a match left unnamed: its day (on the table's clock), in the page's
    language and calendar, and after the day's first match its number that day
    ("Match of 1 Dec 2026 (2)"), so that the evening's matches are told apart. A table's
    night (``table_id``) counts that table's matches only: another table's evening is
    not this one's. A lone match counts the lone matches ``among`` (the ids this browser
    holds keys for): on a ledger hosting many tables, strangers' matches made the first
    match of someone's evening "(57)"."""
    day = day or local_today()
    start = datetime.combine(day, time(), tzinfo=time_zone())
    earlier = matches_started_between(start, start + timedelta(days=1), table_id, among)
    if not earlier:
        return tr("Match of {day}", day=format_day(day))
    return tr("Match of {day} ({n})", day=format_day(day), n=earlier + 1)
