"""The game's fixed words and limits: one definition for the engine and every layer above it."""

SEEN = ("sequences", "dublees", "unseen")
FINISHES = ("sequences", "dublees", "void")
COUNT_KINDS = ("tiplu", "poplu", "jhiplu", "alter", "printed_joker", "ordinary_joker")
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
MIN_PLAYERS, MAX_PLAYERS = 2, 5  # in one hand
MAX_MATCH_PLAYERS = 10  # a match may seat more than one hand deals to: the rest sit out
