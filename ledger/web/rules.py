"""The house-rules page: every profile's values side by side, and what each setting means."""

from __future__ import annotations

from flask import Blueprint, render_template

from ledger.engine import PROFILES, with_overrides
from ledger.engine.game import PACKS
from ledger.i18n.words import (
    COUNT_MEANINGS,
    PROFILE_NAMES,
    PROFILE_READINGS,
)

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def index() -> str:
    profiles = [(pid, PROFILE_NAMES[pid], rules.to_json()) for pid, rules in PROFILES.items()]
    settings = [name for name in profiles[0][2] if name != "profile"]
    # What a hand may hold under each profile, with three and with four packs.
    limits = {
        pid: [with_overrides(rules, {"packs": packs}).limits() for packs in PACKS]
        for pid, rules in PROFILES.items()
    }
    return render_template(
        "rules/page.html",
        profiles=profiles,
        settings=settings,
        notes=PROFILE_READINGS,
        limits=limits,
        counts=COUNT_MEANINGS,
    )
