"""The web app manifest: what a phone needs to keep the ledger on its home screen as an
app of its own, opening full screen: its name in the page's language, icons, colours."""

from flask import Blueprint, Response, json, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, gettext

from ledger.i18n.language import DEFAULT_LANGUAGE, LANGUAGES

bp = Blueprint("home_screen", __name__)

#: The icons of static/icons/ (drawn from the favicon by scripts/build_icons.py): the
#: file, its side in pixels, and its purpose ("maskable": the mark inside the middle
#: 60 %, for a launcher that crops icons to its own shape).
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)
#: The page's ground and its header's (static/css/app.css: --bg, --surface): the splash
#: screen and the bar above the app match the page they open on.
BACKGROUND, THEME = "#fbfaf7", "#ffffff"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The manifest in the language ``?lang=`` names: a browser fetches a manifest
    without cookies, so the page that links it says its own language."""
    language = request.args.get("lang", DEFAULT_LANGUAGE)
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    with force_locale(language):
        body = {
            "name": gettext("Marriage ledger"),
            # TRANSLATORS: the app's name under its icon on a phone's home screen (a
            # dozen characters show).
            "short_name": gettext("Marriage"),
            "description": gettext(
                "Keep score at the table: enter each hand, see who pays whom, and print "
                "the match summary at the end."
            ),
            "lang": language,
            "dir": "ltr",
            "start_url": url_for("main.index"),
            "scope": url_for("main.index"),
            "display": "standalone",
            "background_color": BACKGROUND,
            "theme_color": THEME,
            "icons": [
                {
                    "src": url_for("static", filename=name),
                    "sizes": f"{side}x{side}",
                    "type": "image/png",
                    "purpose": purpose,
                }
                for name, side, purpose in ICONS
            ],
        }
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/favicon.ico")
def favicon() -> ResponseReturnValue:
    """The icon, where a browser asks for it unasked: on what is not a page of ours (a
    PDF opened on a phone shows in the browser's own viewer, which asks here). It was a
    404, an error in the console and the log for every PDF opened. Sent on to the PNG
    (a browser takes any image at this address), for a while only: its name changes
    with its content."""
    return redirect(url_for("static", filename=ICONS[0][0]))
