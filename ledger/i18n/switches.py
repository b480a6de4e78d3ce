"""The language and digits switches (``/lang/<code>``, ``/digits/<style>``), remembered
in cookies, and Flask-Babel set up to read them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, redirect, request
from flask.typing import ResponseReturnValue
from jinja2 import pass_context, pass_eval_context
from jinja2.nodes import EvalContext
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.wrappers import Response

from ledger.i18n import numbers
from ledger.i18n.language import (
    DEFAULT_LANGUAGE,
    DIGIT_STYLES,
    DIGITS_COOKIE,
    LANG_COOKIE,
    LANGUAGES,
    babel,
    current_language,
    digit_style,
    is_api_request,
    select_language,
    translations,
)
from ledger.i18n.messages import tr, translate
from ledger.i18n.numbers import digits, format_day, format_moment, money, num, signed

COOKIE_MAX_AGE = 2 * 365 * 24 * 3600  # two years: a preference, not a session
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"

bp = Blueprint("i18n", __name__)


def safe_next(target: object) -> str:
    """``target`` if it is a path on this site (``/check?h=...``), else ``/``: the
    switches never redirect elsewhere."""
    if not isinstance(target, str):
        return "/"
    target = target.strip()
    if (
        not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or any(ord(c) < 32 or ord(c) == 127 for c in target)
    ):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def here() -> str:
    """The path (and query) of this page within the app, for a switch's ``next`` (the
    switch puts the script root back: the app may be served under a sub-path)."""
    path = request.full_path if request.query_string else request.path
    return path.rstrip("?") or "/"


def openable(target: str) -> str:
    """``target`` (a path on this site), or the nearest page above it when it is the
    address of a form that was sent back (a refused payment, a season's new name: they
    only take a POST), which a switch tapped there led to "Not this way": the table's
    page, say, where the form is. Anything else is left as it is (a 404 stays one)."""
    adapter = current_app.url_map.bind_to_environ(request.environ)
    path = urlsplit(target).path
    while True:
        try:
            adapter.match(path, method="GET")
        except MethodNotAllowed:
            path = path.rsplit("/", 1)[0] or "/"
            continue
        except HTTPException:  # not found, a redirect (a slash): as it was
            return target
        return target if path == urlsplit(target).path else path


def sent_back_to() -> str | None:
    """On a page answering a form sent back (a POST refused), the path (with the script
    root) of the page a switch tapped here comes back to, where that form is shown again
    empty: ``static/js/form-draft.js`` keeps the whole form for it. None on any other."""
    if request.method != "POST":
        return None
    return request.script_root + urlsplit(openable(here())).path


def _remember(cookie: str, value: str) -> Response:
    target = openable(safe_next(request.args.get("next")))
    response = redirect(request.script_root + target, code=303)
    response.set_cookie(
        cookie,
        value,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
        path="/",
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/lang/<code>")
def set_language(code: str) -> ResponseReturnValue:
    """Remember a language and go back to the page (``next``, a path on this site)."""
    if code not in LANGUAGES:
        code = DEFAULT_LANGUAGE
    return _remember(LANG_COOKIE, code)


@bp.get("/digits/<style>")
def set_digits(style: str) -> ResponseReturnValue:
    """Remember the digits (``deva`` or ``latn``) and go back to the page."""
    if style not in DIGIT_STYLES:
        style = "latn"
    return _remember(DIGITS_COOKIE, style)


def _vary(response: Response) -> Response:
    """Pages depend on the language and digits chosen: caches must keep them apart."""
    if not is_api_request():
        response.vary.update(("Accept-Language", "Cookie"))
    return response


@pass_eval_context
def template_gettext(eval_ctx: EvalContext, message: str, /, **variables: object) -> str:
    """``_(...)`` and ``{% trans %}`` in a template, as jinja2.ext.i18n's new-style
    gettext: the translation, marked safe where the template escapes, always filled in
    with ``%`` (so the values are escaped and a lone ``%%`` is one ``%``)."""
    found: str = translations().ugettext(message)
    return (Markup(found) if eval_ctx.autoescape else found) % variables


@pass_eval_context
def template_ngettext(
    eval_ctx: EvalContext, singular: str, plural: str, count: int, /, **variables: object
) -> str:
    """``ngettext(...)`` and a plural ``{% trans %}``, as jinja2.ext.i18n's new-style one
    (``num`` is the count unless given)."""
    variables.setdefault("num", count)
    found: str = translations().ungettext(singular, plural, count)
    return (Markup(found) if eval_ctx.autoescape else found) % variables


def filters_at_render(app: Flask) -> None:
    """Every filter of the ledger's run as a page renders, never as its template compiles.

    Jinja calls a filter whose arguments are constants (``{{ 0|num }}``) while it compiles
    the template, and keeps what it gave: the language and digits of whichever page was
    rendered first, then shown to every reader. A filter that takes Jinja's context is
    never called then, so each of the ledger's is wrapped in one. Call it after the
    blueprints are registered: they add filters of their own."""
    for name, shown in list(app.jinja_env.filters.items()):
        if shown.__module__.startswith("ledger."):
            app.jinja_env.filters[name] = _at_render(shown)


def _at_render(shown: Callable[..., object]) -> Callable[..., object]:
    @pass_context
    def at_render(context: Context, *args: object, **kwargs: object) -> object:
        return shown(*args, **kwargs)

    return at_render


def init_i18n(app: Flask) -> None:
    """Flask-Babel on the app, the templates' words, numbers and switches in the reader's
    language, and the ``Vary`` that keeps pages apart by language."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_language)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # jinja2.ext.i18n's
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )
    # The same two as jinja2.ext.i18n's new-style ones, called in one step instead of
    # three (``_`` → ``gettext`` → the callable): a page translates some 150 words.
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext)
    app.jinja_env.globals["ngettext"] = template_ngettext
    # {% trans %} blocks are read with their whitespace folded: one-line message ids.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.filters.update(
        {
            "num": num,
            "signed": signed,
            "when": format_moment,
            "money": money,
            "digits": digits,
            "day": format_day,
            "tr": translate,
        }
    )
    app.jinja_env.globals.update(
        {
            "tr": tr,
            "current_language": current_language,
            "copy_calendar": numbers.copy_calendar,
            "digit_style": digit_style,
            "here": here,
            "sent_back_to": sent_back_to,
            "languages": LANGUAGES,
        }
    )
    app.after_request(_vary)
