"""A form left open too long, kept to send again.

A CSRF token lasts ``WTF_CSRF_TIME_LIMIT`` (an hour): a table's page opened at the start
of a night and used at its end ("Mark paid", a new season) sends an expired one and is
refused, nothing stored. Its page then keeps what was typed (``kept_fields``) in a form
of hidden fields with a token of now, so one tap sends it again, where before every
field had to be typed again.

Only a token of this browser's own session is kept so: Flask-WTF says "expired" before
it compares the token with the session's, so the comparison is made here, and a form
posted from another site (no token, another session's token, a token of no session)
is refused as before, with nothing to send again in this browser's name.
"""

from __future__ import annotations

import hmac

from flask import current_app, request, session
from flask_wtf.csrf import CSRFError
from itsdangerous import BadData, URLSafeTimedSerializer

#: Flask-WTF's description of a token past its time limit (flask_wtf.csrf.validate_csrf).
EXPIRED = "The CSRF token has expired."
FIELD = "csrf_token"


def kept_fields(error: CSRFError) -> list[tuple[str, str]] | None:
    """The fields of the refused form, its token left out, when the token was this
    session's own and only its time was up; else None (nothing to send again). A form
    with a file is not kept (a page cannot put a file back into a form)."""
    if error.description != EXPIRED or request.files or not _own_token(request.form.get(FIELD)):
        return None
    return [(name, value) for name, value in request.form.items(multi=True) if name != FIELD]


def _own_token(token: str | None) -> bool:
    """Whether ``token`` is signed by this app and holds this session's CSRF secret."""
    secret = session.get(FIELD)
    if not token or not isinstance(secret, str):
        return False
    key: str | bytes = current_app.config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key or ""
    signer = URLSafeTimedSerializer(key, salt="wtf-csrf-token")
    try:
        raw = signer.loads(token)  # no max_age: its age is what was refused
    except BadData:
        return False
    return isinstance(raw, str) and hmac.compare_digest(secret, raw)


def sent_to() -> str:
    """Where the form was sent: the same path and query, to be sent again there."""
    query = request.query_string.decode("latin-1")
    return request.script_root + request.path + (f"?{query}" if query else "")
