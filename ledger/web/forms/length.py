"""The match's length page: play on to a new length, or stop after the hands played.

Both change the match through ``ledger.matches.change_match``, as the API's PATCH does;
it refuses a length shorter than the hands played, and its sentence goes beside the field.
The new length keeps the match's unit (hands, or full dealer rotations).
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField

from ledger import matches
from ledger.engine import FieldError, Invalid
from ledger.i18n import tr
from ledger.matches.models import Match
from ledger.matches.reading import read_whole_number
from ledger.matches.view import MatchView
from ledger.web.forms.numbers import WholeNumberInput
from ledger.web.forms.problems import plain_message

MAX_COUNT = 1000


class LengthForm(FlaskForm):
    """How many hands (or rotations) the match has in all, from now on."""

    count = StringField(
        _l("How many"),
        widget=WholeNumberInput(min=1, max=MAX_COUNT),
    )


def length_unit(view: MatchView) -> str:
    return view.length.unit if view.length is not None else "hands"


def suggest_length(form: LengthForm, view: MatchView) -> None:
    """Offer one more round of deals than the length now asks for (or than played)."""
    if view.length is not None and view.length.unit == "rotations":
        count = view.length.count + 1
    else:
        count = max(view.hands_in_length or 0, view.state.hands_played) + len(view.players)
    form.count.data = str(min(count, MAX_COUNT))


def play_on(form: LengthForm, match: Match, view: MatchView) -> bool:
    """Set the length the form gives; False (the problem on the field) when it cannot be."""
    text = (form.count.data or "").strip()
    unit = length_unit(view)
    try:
        count = read_whole_number(text, "count", least=1, most=MAX_COUNT, text=True)
    except FieldError:
        if unit == "rotations":
            message = tr("Enter how many rotations: a whole number from 1 to 1000.")
        else:
            message = tr("Enter how many hands: a whole number from 1 to 1000.")
        form.count.errors = [message]
        return False
    try:
        matches.change_match(match, {"length": {unit: count}})
    except Invalid as invalid:
        form.count.errors = [plain_message(error) for error in invalid.errors]
        return False
    return True


def stop_here(match: Match, view: MatchView) -> None:
    """End the match after the hands played: its length becomes their number."""
    matches.change_match(match, {"length": {"hands": view.state.hands_played}})
