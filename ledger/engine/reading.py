"""Reading a hand from plain data, checked as a whole.

Plain data is what ``json.loads`` gives: objects are dicts (checked with ``dict``, not the
slower ``Mapping``, since every hand passes through here).

``parse_hand`` takes the JSON shape of docs/api.md (without ``rules``) and returns a
``Hand``, or raises ``Invalid`` listing every problem with the path of its field. The
shape is declared once (``hand_body.HAND``); here are the game's own checks.
"""

from __future__ import annotations

from typing import Any

from .cards import Card
from .copies import check_copies, place_joker_tunnelas
from .errors import Invalid
from .game import FINISHES
from .hand import Hand, PlayerHand, kind_counts
from .hand_body import FINISH_MESSAGE, HAND, HandReading, item_paths
from .rules import HouseRules
from .values import new


class _Reader(HandReading):
    """Reads a hand as ``HAND`` declares it, then checks what no declaration can say."""

    __slots__ = ()

    def read(self, data: object) -> Hand:
        read: dict[str, Any] | None = HAND.read(data, "", self)
        if read is None:
            raise Invalid(self.errors)
        tiplu = self.tiplu
        players: list[PlayerHand] = read["players"]
        winner, finish = read["winner"], read["finish"]
        if isinstance(winner, str):  # case is the hand's: the name as its player wrote it
            winner = self.names.get(winner.casefold(), winner)
        by_name = {p.name: p for p in players} if finish is None else {}
        if winner in by_name:
            # A finish always follows the route the winner saw by.
            finish = by_name[winner].seen if by_name[winner].seen != "unseen" else None
        if finish is None:
            self.fail("finish", FINISH_MESSAGE)
        listed = tuple(players)
        if tiplu is not None and self.jokers_by_kind:
            listed = place_joker_tunnelas(listed, tiplu, self.rules)
        winner = winner if isinstance(winner, str) else None
        hand = new(Hand, (finish or "void", winner, listed, tiplu))
        if finish in FINISHES:
            self.check_finish(hand)
        if tiplu is None:
            self.check_cards_given(hand)
        self.check_routes(hand)
        self.errors += check_copies(hand, self.rules)
        if self.errors:
            raise Invalid(self.errors)
        return hand

    def check_finish(self, hand: Hand) -> None:
        if hand.finish == "void":
            if hand.winner is not None:
                self.fail(
                    "winner",
                    "A void hand has no winner: nobody finished. "
                    "Leave the winner empty or choose how they finished.",
                )
            return
        if hand.winner is None:
            self.fail("winner", "Choose who finished, or mark the hand void.")
            return
        for finisher in hand.players:
            if finisher.name == hand.winner:
                break
        else:
            self.fail(
                "winner", "The winner {name!r} is not one of this hand's players.", name=hand.winner
            )
            return
        if finisher.seen == "unseen":
            self.fail("winner", "{name} never saw, so cannot have finished.", name=finisher.name)
        elif finisher.seen != hand.finish:
            self.fail(
                "finish",
                "{name} saw by {seen}, so finishes by {seen}, not by {finish}.",
                name=finisher.name,
                seen=finisher.seen,
                finish=hand.finish,
            )
        if finisher.foul:
            self.fail("winner", "{name} fouled, so cannot be the finisher.", name=finisher.name)

    def check_cards_given(self, hand: Hand) -> None:
        """Cards given need the tiplu (a hand without one)."""
        players = hand.players
        needs_tiplu = any(p.maal_cards for p in players) or any(
            t.card for p in players for t in p.dealt_tunnelas
        )
        if needs_tiplu and "tiplu" not in {e.field for e in self.errors}:
            self.fail("tiplu", "Enter the tiplu: without it the cards cannot be counted.")

    def check_routes(self, hand: Hand) -> None:
        n = len(hand.players)
        for i, p in enumerate(hand.players):
            _, seen, _, _, _, _, shown, foul = p
            if seen == "dublees" or foul or shown:
                self.check_route(p, item_paths("", "players", n)[i], n, hand.tiplu)

    def check_route(self, p: PlayerHand, path: str, n: int, tiplu: Card | None) -> None:
        """What a player's route and extras need of the house rules."""
        rules = self.rules
        if p.seen == "dublees" and not rules.dublees_allowed:
            self.fail(f"{path}.seen", "These house rules do not allow seeing by dublees.")
        elif p.seen == "dublees" and n < rules.dublees_min_players:
            self.fail(
                f"{path}.seen",
                "Dublees are allowed only with {n} or more players.",
                n=rules.dublees_min_players,
            )
        if p.foul and rules.foul == "off":
            self.fail(
                f"{path}.foul",
                "These house rules do not penalise fouls; set the "
                "foul rule (same_hand or next_hand) to use it.",
            )
        if p.marriages_shown and rules.marriage_shown is not None:
            self.check_shown(p, path, tiplu)

    def check_shown(self, p: PlayerHand, path: str, tiplu: Card | None) -> None:
        """Shown marriages, where they score apart, must be held (where they score like
        hidden ones they change nothing and are not checked: docs/rules.md §9)."""
        if p.maal is not None:
            self.fail(
                f"{path}.marriages_shown",
                "Give the maal as cards or counts to count shown marriages.",
            )
            return
        held = kind_counts(p, tiplu, self.rules)
        most = held.get("marriage") or min(
            held.get("tiplu", 0), held.get("poplu", 0), held.get("jhiplu", 0)
        )
        if p.marriages_shown > most:
            self.fail(
                f"{path}.marriages_shown",
                "{name} shows more marriages ({shown}) than their cards make ({most}: a "
                "tiplu, a poplu and a jhiplu each).",
                name=p.name,
                most=most,
                shown=p.marriages_shown,
            )


def parse_hand(data: object, rules: HouseRules) -> Hand:
    """Read and check a hand; raises Invalid with every problem found."""
    return _Reader(rules).read(data)
