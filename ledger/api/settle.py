"""POST /settle, the dispute checker, and GET /rules, every profile's values."""

from __future__ import annotations

from typing import cast

from flask import Response, jsonify

from ledger.api import bp
from ledger.api.errors import ApiError, json_object
from ledger.api.operations import described
from ledger.engine import PROFILES, parse_hand, resolve_rules, settle, settlement_json
from ledger.engine.game import PACKS
from ledger.engine.rules import (
    DEFAULT_PROFILE,
    MAAL_COUNT_HELP,
    PROFILE_TITLES,
    SETTING_HELP,
    with_overrides,
)
from ledger.matches.answers import RulesList, Settlement


@bp.post("/settle")
@described(
    "rules",
    "400 413 422 429",
    "200 Settlement: The hand as read, then its settlement.",
    body="SettleRequest",
)
def settle_hand() -> Response:
    """Settle one hand and store nothing (the dispute checker)"""
    data = json_object()
    if "rules" not in data:
        raise ApiError.one(
            422,
            "Choose the house rules: a profile id such as amarnepal, "
            "or an object with a profile and overrides.",
            "rules",
        )
    rules = resolve_rules(data["rules"])
    hand = parse_hand(data, rules)
    # The engine is pure Python, without the answers' declarations: its JSON is a
    # ``dict[str, object]`` that mypy cannot hold to ``Settlement``.
    answer = cast(Settlement, settlement_json(hand, settle(hand, rules)))
    return jsonify(answer)


@bp.get("/rules")
@described("rules", "", "200 RulesList: The profiles and the settings.")
def list_rules() -> Response:
    """Every profile's values and what each setting means"""
    answer: RulesList = {
        "profiles": [
            {
                "id": pid,
                "title": PROFILE_TITLES[pid],
                "rules": rules.to_json(),
                "limits": rules.limits(),
            }
            for pid, rules in PROFILES.items()
        ],
        "settings": SETTING_HELP,
        "packs": {
            str(packs): with_overrides(PROFILES[DEFAULT_PROFILE], {"packs": packs}).limits()
            for packs in PACKS
        },
        "maal_counts": MAAL_COUNT_HELP,
    }
    return jsonify(answer)
