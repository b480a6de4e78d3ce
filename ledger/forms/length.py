"""The match's length form: play on to a new length (the route,
``ledger.web.matches.play_on``, changes it as the API's PATCH does), in the match's unit
(hands, or full dealer rotations)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField

from ledger.forms.numbers import WholeNumberInput
from ledger.matches.view import MatchView

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
