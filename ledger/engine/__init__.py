"""The rules of Marriage scoring: pure Python, no Flask, no database, no I/O.

Typical use: ``settle(parse_hand(data, rules), rules)`` with ``rules`` from
``resolve_rules``; at the end of a match, ``settle_up(totals, parse_stake(data))``.
"""

from .cards import Card, CardError, parse_card
from .errors import EngineError, FieldError, Invalid
from .hand import Hand, PlayerHand, Tunnela
from .maal import MaalCount, MaalGrouping, MaalItem, count_maal, hand_groupings, maal_groupings
from .match import HandRecord, MatchState, Standing, check_another_hand, run_match
from .reading import parse_hand
from .rules import PROFILES, HouseRules, MatchLength, resolve_rules, with_overrides
from .settle import Payment, PlayerResult, Settlement, settle, settlement_json
from .settle_up import Balance, SettleUp, Stake, Transfer, amount_text, parse_stake, settle_up

__all__ = [
    "PROFILES",
    "Balance",
    "Card",
    "CardError",
    "EngineError",
    "FieldError",
    "Hand",
    "HouseRules",
    "HandRecord",
    "Invalid",
    "MaalCount",
    "MaalGrouping",
    "MatchState",
    "Standing",
    "run_match",
    "MaalItem",
    "MatchLength",
    "Payment",
    "PlayerHand",
    "PlayerResult",
    "Settlement",
    "SettleUp",
    "Stake",
    "Transfer",
    "Tunnela",
    "amount_text",
    "check_another_hand",
    "count_maal",
    "hand_groupings",
    "maal_groupings",
    "parse_card",
    "parse_hand",
    "parse_stake",
    "resolve_rules",
    "settle",
    "settlement_json",
    "settle_up",
    "with_overrides",
]
