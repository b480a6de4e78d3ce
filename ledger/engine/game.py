"""The game's fixed words and limits: one definition for the engine and every layer above it."""

SEEN = ("sequences", "dublees", "unseen")
FINISHES = ("sequences", "dublees", "void")
COUNT_KINDS = ("tiplu", "poplu", "jhiplu", "alter", "printed_joker", "ordinary_joker")
MARRIAGE_KINDS = ("jhiplu", "tiplu", "poplu")  # the cards of one marriage, in its order
#: The keys of ``maal_counts``: copies of each kind, and marriages entered as such.
MAAL_COUNT_KEYS = (*COUNT_KINDS, "marriage")
TUNNELA_KINDS = (
    "ordinary",
    "ordinary_joker",
    "poplu",
    "jhiplu",
    "alter",
    "printed_joker",
    "tiplu",
)
MAX_NAME = 40  # a player's name, in a hand and in a match
MAX_MATCH_NAME = 80
MAX_MAAL = 10_000
PACKS = (3, 4)  # packs shuffled together: every card exists this many times
#: The most players one hand deals to, by packs (docs/rules.md §7: four packs, 2 to 8).
HAND_PLAYERS = {3: 5, 4: 8}
MIN_PLAYERS, MAX_PLAYERS = 2, max(HAND_PLAYERS.values())  # in one hand, with any packs
MAX_MATCH_PLAYERS = 12  # a match may seat more than one hand deals to: the rest sit out
HAND_CARDS = 21  # a player holds 21 cards
MAX_DEALT_TUNNELAS = HAND_CARDS // 3
