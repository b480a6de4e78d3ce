"""Reading a hand from plain data, checked as a whole.

Plain data is what ``json.loads`` gives: objects are dicts (checked with ``dict``, not the
slower ``Mapping``, since every hand passes through here).

``parse_hand`` takes the JSON shape of docs/api.md (without ``rules``) and returns a
``Hand``, or raises ``Invalid`` listing every problem with the path of its field.
"""

from __future__ import annotations

from .cards import SPELLINGS, SUIT_SPELLINGS, Card, CardError, kinds_for, parse_card
from .copies import check_copies, place_joker_tunnelas
from .errors import N_, FieldError, Invalid
from .game import (
    FINISHES,
    HAND_CARDS,
    MAAL_COUNT_KEYS,
    MAX_DEALT_TUNNELAS,
    MAX_MAAL,
    MAX_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEEN,
    TUNNELA_KINDS,
)
from .hand import Hand, PlayerHand, Tunnela, kind_counts
from .names import read_name, tidy_name
from .rules import HouseRules
from .values import is_int

NO_NAME = N_("Each player needs a name.")

#: A count of one kind past what the packs hold, naming the player and the count.
COUNT_RANGES = {
    "tiplu": N_(
        "{name} cannot hold {count} tiplus: at most {most} copies of the tiplu can be in "
        "hands (one is set aside as the indicator). Enter 0 to {most}."
    ),
    "tiplu_all": N_(
        "{name} cannot hold {count} tiplus: the packs hold {most} copies of the tiplu. "
        "Enter 0 to {most}."
    ),
    "poplu": N_(
        "{name} cannot hold {count} poplus: the packs hold {most} copies of each card. "
        "Enter 0 to {most}."
    ),
    "jhiplu": N_(
        "{name} cannot hold {count} jhiplus: the packs hold {most} copies of each card. "
        "Enter 0 to {most}."
    ),
    "alter": N_(
        "{name} cannot hold {count} alters: the packs hold {most} copies of each card. "
        "Enter 0 to {most}."
    ),
    "printed_joker": N_(
        "{name} cannot hold {count} printed jokers: the packs hold at most {most}. "
        "Enter 0 to {most}."
    ),
    "ordinary_joker": N_(
        "{name} cannot hold {count} ordinary jokers: the packs hold {most} (two cards, a "
        "copy of each in every pack). Enter 0 to {most}."
    ),
    "marriage": N_(
        "{name} cannot hold {count} marriages: each needs a tiplu, and at most {most} "
        "tiplus can be in hands. Enter 0 to {most}."
    ),
}


class _Reader:
    """Collects every problem while reading one hand."""

    def __init__(self, rules: HouseRules):
        self.rules = rules
        self.errors: list[FieldError] = []
        self.tiplu: Card | None = None
        self.names: dict[str, str] = {}  # each player's name by its casefold
        #: A dealt tunnela entered as ordinary_joker alone: its card is placed after reading.
        self.jokers_by_kind = False

    def fail(self, path: str, template: str, **values: object) -> None:
        self.errors.append(FieldError(path, template, **values))

    def card(self, value: object, path: str) -> Card | None:
        try:
            card = parse_card(value)
        except CardError as problem:
            self.fail(path, problem.template, **problem.values)
            return None
        if card.is_printed_joker and not self.rules.printed_jokers:
            self.fail(
                path, "These house rules play without printed jokers, so JK is not in the pack."
            )
            return None
        return card

    def read(self, data: object) -> Hand:
        if not isinstance(data, dict):
            self.fail("", "The hand must be a JSON object with finish, winner and players.")
            raise Invalid(self.errors)
        tiplu = None
        if data.get("tiplu") is not None:
            tiplu = self.card(data["tiplu"], "tiplu")
            if tiplu is not None and tiplu.is_printed_joker:
                self.fail("tiplu", "The tiplu is a card of a suit, not a printed joker.")
                tiplu = None
        self.tiplu = tiplu
        players = self.players(data.get("players"))
        winner = data.get("winner")
        finish = data.get("finish")
        if winner is not None and not isinstance(winner, str):
            self.fail("winner", "The winner must be a player's name, or null for a void hand.")
            winner = None
        if isinstance(winner, str):
            # The winner is written as a name is: spaces folded, case ignored.
            winner = tidy_name(winner)
            winner = self.names.get(winner.casefold(), winner)
        by_name = {p.name: p for p in players} if finish is None else {}
        if winner in by_name:
            # A finish always follows the route the winner saw by.
            finish = by_name[winner].seen if by_name[winner].seen != "unseen" else None
        if finish not in FINISHES:
            self.fail("finish", "The finish must be sequences, dublees or void.")
        read = tuple(players)
        if tiplu is not None and self.jokers_by_kind:
            read = place_joker_tunnelas(read, tiplu, self.rules)
        hand = Hand(finish or "void", winner, read, tiplu)
        if finish in FINISHES:
            self.check_finish(hand)
        self.check_cards_given(hand)
        self.check_routes(hand)
        self.errors += check_copies(hand, self.rules)
        if self.errors:
            raise Invalid(self.errors)
        return hand

    def players(self, value: object) -> list[PlayerHand]:
        most = self.rules.max_players
        if not isinstance(value, list):
            self.fail(
                "players",
                "players must be a list of the 2 to {most} players of this hand.",
                most=most,
            )
            return []
        if not MIN_PLAYERS <= len(value) <= most:
            if most < len(value) <= MAX_PLAYERS:
                self.fail(
                    "players",
                    "A hand has 2 to {most} players with three packs; this one lists {n}. "
                    "Four packs (the packs setting) deal to 2 to 8.",
                    most=most,
                    n=len(value),
                )
            else:
                self.fail(
                    "players",
                    "A hand has 2 to {most} players; this one lists {n}.",
                    most=most,
                    n=len(value),
                )
        players = []
        for index, item in enumerate(value):
            player = self.player(item, f"players.{index}")
            if player is None:
                continue
            key = player.name.casefold()
            if key in self.names:
                self.fail(
                    f"players.{index}.name",
                    "{name!r} is listed twice; each player needs their own name.",
                    name=player.name,
                )
            self.names[key] = player.name
            players.append(player)
        return players

    def player(self, item: object, path: str) -> PlayerHand | None:
        if not isinstance(item, dict):
            self.fail(path, "Each player must be an object with a name and seen.")
            return None
        get = item.get
        try:  # the field's path is made only for a problem (every hand reads several names)
            name = read_name(get("name"), "name", most=MAX_NAME, missing=NO_NAME)
        except FieldError as problem:
            self.fail(f"{path}.name", problem.template, **problem.values)
            name = f"player {path.rsplit('.', 1)[-1]}"
        seen = get("seen")
        if seen not in SEEN:
            self.fail(f"{path}.seen", "seen must be sequences, dublees or unseen.")
            seen = "unseen"
        maal, counts, cards = get("maal"), get("maal_counts"), get("maal_cards")
        if (maal is not None) + (counts is not None) + (cards is not None) > 1:
            forms = [k for k in ("maal", "maal_counts", "maal_cards") if get(k) is not None]
            self.fail(
                f"{path}.{forms[1]}",
                "Give the maal one way only: {forms}, not both.",
                forms=" or ".join(forms),
            )
        if maal is not None:
            maal = self.whole(maal, path, "maal")
        if counts is not None:
            counts = self.counts(counts, f"{path}.maal_counts", name)
        if cards is not None:
            cards = self.cards(cards, path)
        tunnelas = get("dealt_tunnelas")
        if tunnelas is not None:
            tunnelas = self.tunnelas(tunnelas, f"{path}.dealt_tunnelas")
        if tunnelas or counts or (cards is not None and len(cards) > HAND_CARDS):
            self.check_held(name, path, cards, counts, tunnelas)
        shown = get("marriages_shown")
        if shown is not None:
            shown = self.whole(shown, path, "marriages_shown", most=self.rules.packs)
        foul = get("foul")
        if foul is not None and not isinstance(foul, bool):
            self.fail(f"{path}.foul", "foul must be true or false.")
            foul = False
        return PlayerHand(name, seen, maal, counts, cards, tunnelas or (), shown or 0, bool(foul))

    def whole(self, value: object, path: str, key: str, *, most: int = MAX_MAAL) -> int:
        if is_int(value) and 0 <= value <= most:
            return value
        self.fail(f"{path}.{key}", "Enter a whole number from 0 to {most}.", most=most)
        return 0

    def counts(self, value: object, path: str, name: str) -> dict[str, int] | None:
        if not isinstance(value, dict):
            self.fail(path, 'maal_counts must be an object like {"tiplu": 1, "poplu": 2}.')
            return None
        counts = {}
        limits = self.rules.copies_limits
        for kind, count in value.items():
            if kind not in MAAL_COUNT_KEYS:
                self.fail(
                    f"{path}.{kind}",
                    "{kind!r} is not a kind of maal; the kinds are {kinds}.",
                    kind=kind,
                    kinds=", ".join(MAAL_COUNT_KEYS),
                )
                continue
            # A count of printed jokers where the pack has none is the copies check's.
            most = self.rules.packs if kind == "printed_joker" else limits[kind]
            if is_int(count) and most < count <= MAX_MAAL:
                template = COUNT_RANGES[kind]
                if kind == "tiplu" and most == self.rules.packs:
                    template = COUNT_RANGES["tiplu_all"]
                self.fail(f"{path}.{kind}", template, name=name, count=count, most=most)
                continue
            counts[kind] = self.whole(count, path, kind, most=most)
        return {k: counts.get(k, 0) for k in MAAL_COUNT_KEYS if counts.get(k)}

    def check_held(
        self,
        name: str,
        path: str,
        cards: tuple[Card, ...] | None,
        counts: dict[str, int] | None,
        tunnelas: tuple[Tunnela, ...] | None,
    ) -> None:
        """A player holds 21 cards: their maal cards (or counted copies, three a marriage)
        and three cards a dealt tunnela (docs/rules.md §7)."""
        laid = len(tunnelas) if tunnelas else 0
        if laid > MAX_DEALT_TUNNELAS:
            self.fail(
                f"{path}.dealt_tunnelas",
                "{name} lists {count} dealt tunnelas, but a player holds {cards} cards: at "
                "most {most} tunnelas of 3.",
                name=name,
                count=laid,
                cards=HAND_CARDS,
                most=MAX_DEALT_TUNNELAS,
            )
            return
        if cards is not None:
            held, where = len(cards), "maal_cards"
        elif counts is not None:
            held, where = sum(counts.values()) + 2 * counts.get("marriage", 0), "maal_counts"
        else:
            return
        if held + 3 * laid > HAND_CARDS:
            self.fail(
                f"{path}.{where}",
                "{name} holds {count} cards here ({held} maal cards and {laid} dealt "
                "tunnela(s) of 3), but a player holds {cards} cards.",
                name=name,
                count=held + 3 * laid,
                held=held,
                laid=laid,
                cards=HAND_CARDS,
            )

    def cards(self, value: object, player_path: str) -> tuple[Card, ...] | None:
        """A player's ``maal_cards`` (``player_path``: the player's own path)."""
        if not isinstance(value, list):
            self.fail(
                f"{player_path}.maal_cards",
                'maal_cards must be a list of card codes, like ["8H", "9H"].',
            )
            return None
        spellings = SPELLINGS if self.rules.printed_jokers else SUIT_SPELLINGS
        try:  # the usual spellings, looked up at once
            return tuple(map(spellings.__getitem__, value))
        except (KeyError, TypeError):  # anything else is read card by card, with its problems
            path = f"{player_path}.maal_cards"
            read = [self.card(code, f"{path}.{i}") for i, code in enumerate(value)]
            return tuple(card for card in read if card is not None)

    def tunnelas(self, value: object, path: str) -> tuple[Tunnela, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            self.fail(path, "dealt_tunnelas must be a list of card codes or kinds.")
            return ()
        out = []
        for i, entry in enumerate(value):
            kind = entry.strip().lower() if isinstance(entry, str) else None
            if kind in TUNNELA_KINDS:
                out.append(Tunnela(kind))
                if kind == "ordinary_joker":
                    self.jokers_by_kind = True
                continue
            try:
                card = parse_card(entry)
            except CardError:
                self.fail(
                    f"{path}.{i}",
                    "{entry!r} is neither a card like 5S nor a kind of tunnela ({kinds}).",
                    entry=entry,
                    kinds=", ".join(TUNNELA_KINDS),
                )
                continue
            if card.is_printed_joker:
                out.append(Tunnela("printed_joker"))
            else:
                # Without a tiplu the kind is unknown; check_cards_given reports that.
                kind = kinds_for(self.tiplu)[card] if self.tiplu else "ordinary"
                out.append(Tunnela(kind, card))
        return tuple(out)

    def check_finish(self, hand: Hand) -> None:
        names = [p.name for p in hand.players]
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
        if hand.winner not in names:
            self.fail(
                "winner", "The winner {name!r} is not one of this hand's players.", name=hand.winner
            )
            return
        finisher = hand.players[names.index(hand.winner)]
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
        if hand.tiplu is not None:
            return
        players = hand.players
        needs_tiplu = any(p.maal_cards for p in players) or any(
            t.card for p in players for t in p.dealt_tunnelas
        )
        if needs_tiplu and "tiplu" not in {e.field for e in self.errors}:
            self.fail("tiplu", "Enter the tiplu: without it the cards cannot be counted.")

    def check_routes(self, hand: Hand) -> None:
        n = len(hand.players)
        for i, p in enumerate(hand.players):
            if p.seen == "dublees" or p.foul or p.marriages_shown:
                self.check_route(p, f"players.{i}", n, hand.tiplu)

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
                "{name} holds the cards of {most} marriage(s) only (a tiplu, poplu and "
                "jhiplu each), so cannot have shown {shown}.",
                name=p.name,
                most=most,
                shown=p.marriages_shown,
            )


def parse_hand(data: object, rules: HouseRules) -> Hand:
    """Read and check a hand; raises Invalid with every problem found."""
    return _Reader(rules).read(data)
