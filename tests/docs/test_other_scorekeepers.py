"""docs/other-scorekeepers.md: every block of rules it gives is accepted by the engine, and
the settings it names do what the page says of each peer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.engine import parse_hand, resolve_rules, settle

DOC = Path(__file__).resolve().parents[2] / "docs" / "other-scorekeepers.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", TEXT, re.S)]
PEERS = re.findall(r"^## (.+)$", TEXT, re.M)


def test_each_peer_has_its_rules():
    assert len(PEERS) == 5
    assert len(BLOCKS) == 5


@pytest.mark.parametrize("block", BLOCKS, ids=PEERS)
def test_each_block_is_valid_rules(block):
    rules = resolve_rules(block)
    assert rules.overrides()  # each peer differs from the profile it starts from
    resolve_rules({**block, "packs": 4})  # and takes four packs


def nets(block: dict, maal: list[int], seen: list[str], finish: str = "sequences") -> list[int]:
    rules = resolve_rules(block)
    data = {
        "finish": finish,
        "winner": "P0",
        "players": [
            {"name": f"P{i}", "seen": s, "maal": m}
            for i, (m, s) in enumerate(zip(maal, seen, strict=True))
        ],
    }
    return [p.net for p in settle(parse_hand(data, rules), rules).players]


def test_sanjeebkos_normal_mode_is_keep_not_between_unseen():
    normal = {
        **BLOCKS[PEERS.index("sanjeebko/MarriageCalculator")],
        "unseen_maal": "keep_not_between_unseen",
    }
    # docs/rules.md §7's example: finisher 20, seen 10, unseen 5 and 0.
    assert nets(normal, [20, 10, 5, 0], ["sequences", "sequences", "unseen", "unseen"]) == [
        68,
        2,
        -30,
        -40,
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 80), min_size=2, max_size=5),
    st.data(),
)
def test_thekojueffects_formula_is_kidnap_with_the_bonus_in_the_finishers_maal(maal, data):
    """Its rule as the page says it: T is every player's maal, plus 5 for a dublee finish;
    an unseen loser pays T and 10, a seen loser gets n × maal − T and pays 3, the finisher
    takes the rest."""
    n = len(maal)
    seen = ["dublees" if data.draw(st.booleans()) else "sequences"]
    seen += [data.draw(st.sampled_from(["sequences", "dublees", "unseen"])) for _ in range(n - 1)]
    finish = seen[0]
    total = sum(maal) + (5 if finish == "dublees" else 0)
    losers = [
        -total - 10 if s == "unseen" else n * m - total - 3
        for m, s in zip(maal[1:], seen[1:], strict=True)
    ]
    expected = [-sum(losers), *losers]
    block = BLOCKS[PEERS.index("TheKojuEffect/marriage-game-points-calculator")]
    assert nets(block, maal, seen, finish) == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 80), min_size=2, max_size=5), st.data())
def test_kyaakpas_formula_is_murder_without_a_dublee_bonus(maal, data):
    n = len(maal)
    seen = [data.draw(st.sampled_from(["sequences", "dublees"]))]
    seen += [data.draw(st.sampled_from(["sequences", "dublees", "unseen"])) for _ in range(n - 1)]
    total = sum(m for m, s in zip(maal, seen, strict=True) if s != "unseen")
    losers = [
        -total - 10 if s == "unseen" else n * m - total - 3
        for m, s in zip(maal[1:], seen[1:], strict=True)
    ]
    block = BLOCKS[PEERS.index("kyaakpa/marriage-calc")]
    assert nets(block, maal, seen, seen[0]) == [-sum(losers), *losers]
