"""Hand pages of a match: every hand page by page, enter, preview, show (every step and
the history), edit, delete, undo.

Every route but ``index`` and ``show`` needs this browser's edit key for the match (403 otherwise,
for GET as for POST). Every read and write goes through ``ledger.matches`` with the
match loaded from its public id, so a hand is only ever looked up inside its match.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from ledger import matches
from ledger.engine import HouseRules, Invalid, hand_groupings, parse_hand
from ledger.forms.hand import MatchHandForm
from ledger.forms.hand_reading import HandCheck
from ledger.forms.numbers import read_whole
from ledger.http.no_store import OFFLINE_COPY
from ledger.http.security import BACKGROUND_HEADER
from ledger.i18n import tr, translate, trn
from ledger.matches.models import Match
from ledger.matches.share_link import stored_hand_link
from ledger.matches.view import HandView, MatchView, history_json
from ledger.web.edit_rights import MATCH_PAGES, can_edit
from ledger.web.hand_entry import (
    build_match_hand_form,
    check_match_hand,
    form_version,
    new_hand_form,
    nothing_entered,
    renew_hand_key,
    save_edited_hand,
    save_new_hand,
    stored_hand_form,
)
from ledger.web.score_table import RECENT_HANDS, score_rows
from ledger.web.undo import offer_put_back, offer_undo, seconds_left

bp = Blueprint("hands", __name__, url_prefix="/matches/<public_id>/hands")
HANDS_PER_PAGE = 50


def _editable(public_id: str, number: int | None = None) -> tuple[Match, MatchView]:
    match = MATCH_PAGES.editable(public_id)
    return match, _view(match, number)


def _view(match: Match, number: int | None = None) -> MatchView:
    """What a hand form needs: the newest hands (the last players and how each entered
    their maal) and hand ``number``, the one shown or edited."""
    return matches.match_view(match, newest=RECENT_HANDS, also=number)


def _to_match(public_id: str) -> Response:
    return redirect(url_for("matches.show", public_id=public_id), 303)


def _entry_page(
    view: MatchView,
    form: MatchHandForm,
    *,
    number: int | None = None,
    check: HandCheck | None = None,
    status: int = 200,
    **extra: object,
) -> tuple[str, int]:
    """The hand form of a match: a new hand (``number`` None) or an edit of hand ``number``."""
    body = render_template(
        "match/hand_entry.html", view=view, form=form, number=number, check=check, **extra
    )
    return body, status


@bp.get("")
def index(public_id: str) -> str:
    """Every hand of the match, a page of them at a time (the newest page first): the
    match page shows only the newest."""
    match = matches.get_match(public_id)
    view, page, pages = matches.hands_page(
        match, request.args.get("page", type=int), HANDS_PER_PAGE
    )
    return render_template(
        "match/hands.html", view=view, rows=score_rows(view), page=page, pages=pages
    )


@bp.route("/new", methods=["GET", "POST"])
def new(public_id: str) -> ResponseReturnValue:
    """The new-hand form, and its save: post/redirect/get, once per the form's key (the
    same form sent again, by Back, a double tap or a resend, goes to the hand it stored)."""
    match, view = _editable(public_id)
    if request.method == "GET":
        if view.finished:
            flash(_finished_words(view), "success")
            return redirect(play_on_url(view), 303)
        body, status = _entry_page(view, new_hand_form(view))
        # The match page's background copy (offline-entry.js) may be kept on the phone
        # for a match page opened with no connection; the form as a page is not.
        kept = {OFFLINE_COPY: "form"} if request.headers.get(BACKGROUND_HEADER) else {}
        return body, status, kept
    form = build_match_hand_form(view, request.form)
    check = check_match_hand(form, match, view)
    if check.ok and nothing_entered(check.data) and not request.form.get("empty_ok"):
        return _entry_page(view, form, check=check, status=422, empty=True)
    if check.ok:
        try:
            outcome = save_new_hand(form, match, check)
        except (matches.HandNumberTaken, matches.KeyReused) as refused:
            return _taken_page(public_id, refused)
        except (matches.MatchFinished, matches.MatchEnded):
            return _finished_page(public_id)
        if isinstance(outcome, matches.Receipt):
            if request.form.get("sent_later"):  # kept on the phone: saved on its way
                message = tr("Hand {n} was sent and saved.", n=outcome.number)
            elif outcome.replayed:
                message = tr(
                    "Hand {number} had already been saved from this form; it is stored once.",
                    number=outcome.number,
                )
            else:
                message = tr("Hand {number} saved.", number=outcome.number)
            flash(message, "success")
            offer_undo(public_id, outcome.number, outcome.version)
            return _to_match(public_id)
        check = outcome
    return _entry_page(view, form, check=check, status=422)


def _entered_again(
    public_id: str, number: int | None = None
) -> tuple[MatchView, MatchHandForm, HandCheck]:
    """After a refused save: the match as it is now (another write has landed) and the
    form as this user entered it, checked against it."""
    match = matches.get_match(public_id)
    view = _view(match, number)
    form = build_match_hand_form(view, request.form)
    return view, form, check_match_hand(form, match, view)


def _taken_page(
    public_id: str, refused: matches.HandNumberTaken | matches.KeyReused
) -> tuple[str, int]:
    """The hand this form adds is already there (another scorekeeper stored that number
    first, or this very form was saved before with other values): nothing was stored.
    Show that hand beside what this user typed, kept in the form, which now adds the
    match's next hand (with a new key when the old one is spent) or can be dropped."""
    view, form, check = _entered_again(public_id, refused.number)
    theirs = view.hand(refused.number)
    if isinstance(refused, matches.KeyReused):
        renew_hand_key(form, view)
        words = tr(
            "This form was already saved as hand {number}, with other values.",
            number=refused.number,
        )
    else:
        form.hand_number.data = str(view.next_hand_number)
        # With no hand of that number there, nobody saved it first: it was deleted since
        # (an undo on another phone), or it is a number ahead of the match (a hand kept
        # offline behind one that was dropped): the service's sentence says which.
        words = (
            tr("Hand {number} was saved by someone else first.", number=refused.number)
            if theirs is not None
            else translate(refused.description)
        )
    return _entry_page(
        view,
        form,
        check=check,
        status=409,
        taken=words,
        taken_number=refused.number,
        side_by_side=_side_by_side(view, theirs, check) if theirs else None,
    )


def _side_by_side(
    view: MatchView, theirs: HandView, check: HandCheck
) -> list[tuple[str, int | None, int | None]]:
    """Per player of the match: the stored hand's net and the typed hand's (None: sat out,
    or not settled yet)."""
    settled = check.settlement or {"players": []}
    mine = {p["name"]: p["net"] for p in settled["players"]}
    stored = theirs.nets
    return [(name, stored.get(name), mine.get(name)) for name in view.players]


def _finished_page(public_id: str) -> tuple[str, int]:
    """The match ended while this hand was being typed: nothing stored; say so, keep the
    hand on the page, and point to playing on."""
    view, form, check = _entered_again(public_id)
    return _entry_page(
        view,
        form,
        check=check,
        status=409,
        finished=_finished_words(view),
        play_on_url=play_on_url(view),
    )


def play_on_url(view: MatchView) -> str:
    """Where the table plays on after the end: the match page, whose "Undo" takes back
    "End the night"; else the length, to be made longer."""
    if view.ended_at is not None and not view.length_reached:
        return url_for("matches.show", public_id=view.public_id)
    return url_for("matches.change_length", public_id=view.public_id)


def _finished_words(view: MatchView) -> str:
    if view.ended_at is not None and not view.length_reached:
        return trn(
            "The night was ended after {played} hand. To enter more, take that end back "
            "(“Undo: the night goes on” on the match page).",
            "The night was ended after {played} hands. To enter more, take that end back "
            "(“Undo: the night goes on” on the match page).",
            view.state.hands_played,
            played=view.state.hands_played,
        )
    return trn(
        "The match is over: its {played} hand is played. To enter more, play on: "
        "give it a new length.",
        "The match is over: its {played} hands are played. To enter more, play on: "
        "give it a new length.",
        view.state.hands_played,
        played=view.state.hands_played,
    )


@bp.post("/<int:number>/undo")
def undo(public_id: str, number: int) -> ResponseReturnValue:
    """Take back a hand just saved, in one tap: a delete, its record kept in the history.
    Only while the hand is as it was saved and young (``ledger.web.undo``); else the
    delete page asks to confirm."""
    match, view = _editable(public_id)
    hand = view.hand(number)
    if hand is None:
        if matches.hand_history(match, number):
            return _already_deleted(public_id, number)
        matches.get_hand(match, number)  # 404
        assert hand is not None  # get_hand answered 404
    to_confirm = redirect(url_for("hands.delete", public_id=public_id, number=number), 303)
    if read_whole(request.form.get("version")) != hand.version or not (
        hand.created_at and seconds_left(hand.created_at)
    ):
        flash(
            tr(
                "Hand {number} can no longer be undone in one tap; delete it here if it is wrong.",
                number=number,
            ),
            "success",
        )
        return to_confirm
    try:
        matches.delete_hand(match, number, hand.version)
    except matches.HandConflict:
        flash(_conflict_words(number, False), "success")
        return to_confirm
    flash(tr("Hand {number} undone. Its record stays in its history.", number=number), "success")
    offer_put_back(public_id, number)
    return _to_match(public_id)


@bp.post("/<int:number>/put-back")
def put_back(public_id: str, number: int) -> ResponseReturnValue:
    """Put a deleted hand back as it was, in its place (``matches.restore_hand``); a hand
    that no longer fits the match (its players or rules changed since), one put back
    already and a match that is over say why on the hand's page."""
    match = MATCH_PAGES.editable(public_id)
    try:
        matches.restore_hand(match, number)
    except (matches.MatchConflict, Invalid) as refused:
        said = refused.errors if isinstance(refused, Invalid) else [refused.description]
        for words in said:
            flash(translate(words), "error")
        return redirect(url_for("hands.show", public_id=public_id, number=number), 303)
    flash(tr("Hand {number} is back; the totals changed.", number=number), "success")
    return _to_match(public_id)


@bp.post("/preview")
def preview(public_id: str) -> str:
    """The live preview of the hand form (htmx): the settlement or the problems."""
    match, view = _editable(public_id)
    form = build_match_hand_form(view, request.form)
    return render_template(
        "hand/_preview.html", check=check_match_hand(form, match, view), live=True
    )


@bp.get("/<int:number>")
def show(public_id: str, number: int) -> str:
    match = matches.get_match(public_id)
    view = matches.match_view(match, newest=0, also=number)
    hand = view.hand(number)
    history = [history_json(old) for old in matches.hand_history(match, number)]
    if hand is None and not history:
        matches.get_hand(match, number)  # 404: no such hand, ever
    return render_template(
        "match/hand.html",
        view=view,
        number=number,
        hand=hand,
        settlement=hand.settlement(view.rules) if hand else None,
        groupings=_groupings(hand.input, view.rules) if hand else {},
        checker_url=url_for("checker.check", h=stored_hand_link(hand.input, view.rules))
        if hand
        else None,
        history=list(reversed(history)),
        editor=can_edit(match),
    )


def _groupings(hand_json: dict[str, Any], rules: HouseRules) -> dict[str, list[dict[str, Any]]]:
    """Why each maal of a stored hand formed the marriages it did, as the checker shows
    it; none for a hand its match's rules no longer read (it keeps its stored result)."""
    try:
        hand = parse_hand(hand_json, rules)
    except Invalid:
        return {}
    return hand_groupings(hand.players, rules, hand.tiplu)


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit(public_id: str, number: int) -> ResponseReturnValue:
    match, view = _editable(public_id, number)
    hand = view.hand(number)
    if request.method == "GET":
        if hand is None:
            matches.get_hand(match, number)  # 404
            assert hand is not None  # get_hand answered 404
        form, notes = stored_hand_form(view, hand)
        return _entry_page(
            view, form, number=number, check=check_match_hand(form, match, view), notes=notes
        )
    if hand is None and not matches.hand_history(match, number):
        matches.get_hand(match, number)  # 404: there never was such a hand
    form = build_match_hand_form(view, request.form)
    check = check_match_hand(form, match, view)
    try:
        if hand is None or form_version(form) != hand.version:
            raise matches.HandConflict(number, hand.version if hand else None)
        if check.ok:
            outcome = save_edited_hand(form, match, number, check)
            if outcome is None:
                flash(
                    tr(
                        "Hand {number} changed; the earlier version is in its history.",
                        number=number,
                    ),
                    "success",
                )
                return _to_match(public_id)
            check = outcome
    except matches.HandConflict as conflict:
        return _conflict_page(public_id, number, conflict)
    return _entry_page(view, form, number=number, check=check, status=422)


def _conflict_page(public_id: str, number: int, conflict: matches.HandConflict) -> tuple[str, int]:
    """Someone else changed or deleted the hand: keep what this user entered on the page,
    show the other version, and let them save theirs knowingly (the other stays in the
    history) or, when the hand is gone, add theirs as a new hand."""
    view, form, check = _entered_again(public_id, number)
    theirs = view.hand(number)
    if theirs is not None:
        form.version.data = str(theirs.version)
    else:  # offered as a new hand: a new request of its own
        renew_hand_key(form, view)
    return _entry_page(
        view,
        form,
        number=number if theirs is not None else None,
        check=check,
        status=409,
        conflict=_conflict_words(number, theirs is None),
        theirs=theirs.settlement(view.rules) if theirs is not None else None,
    )


@bp.route("/<int:number>/delete", methods=["GET", "POST"])
def delete(public_id: str, number: int) -> ResponseReturnValue:
    match, view = _editable(public_id, number)
    hand = view.hand(number)
    if hand is None:
        if request.method == "POST" and matches.hand_history(match, number):
            return _already_deleted(public_id, number)
        matches.get_hand(match, number)  # 404
        assert hand is not None  # get_hand answered 404
    if request.method == "GET":
        return _delete_page(view, hand, hand.version)
    version = read_whole(request.form.get("version")) or 0
    try:
        matches.delete_hand(match, number, version)
    except matches.HandConflict:
        match = matches.get_match(public_id)
        view = matches.match_view(match, newest=0, also=number)
        hand = view.hand(number)
        if hand is None:
            return _already_deleted(public_id, number)
        return _delete_page(
            view, hand, hand.version, conflict=_conflict_words(number, False), status=409
        )
    flash(
        tr(
            "Hand {number} deleted; the totals changed. Its record stays in its history.",
            number=number,
        ),
        "success",
    )
    offer_put_back(public_id, number)
    return _to_match(public_id)


def _already_deleted(public_id: str, number: int) -> Response:
    flash(tr("Hand {number} had already been deleted by someone else.", number=number), "success")
    return _to_match(public_id)


def _conflict_words(number: int, deleted: bool) -> str:
    if deleted:
        return tr(
            "Hand {number} was deleted by someone else while you were editing it.", number=number
        )
    return tr("Hand {number} was changed by someone else since you opened it.", number=number)


def _delete_page(
    view: MatchView,
    hand: HandView,
    version: int,
    *,
    conflict: str | None = None,
    status: int = 200,
) -> tuple[str, int]:
    body = render_template(
        "match/hand_delete.html",
        view=view,
        hand=hand,
        version=version,
        conflict=conflict,
        settlement=hand.settlement(view.rules),
    )
    return body, status
