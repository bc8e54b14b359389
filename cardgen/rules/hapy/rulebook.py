"""Hâpy Families as the rulebook states it, written from the rulebook alone.

The checker and the deck check read their numbers here; the engine never imports this
module, so a wrong constant in the engine cannot also make its check agree. Each value
names the section of the rulebook (EN, and the French edition where it differs) it
comes from, in our words."""

from __future__ import annotations

# End of the Game: the sets of three needed to win are given for 2, 3 and 4 players
SETS_TO_WIN = {2: 5, 3: 4, 4: 3}
PLAYERS = (min(SETS_TO_WIN), max(SETS_TO_WIN))
PLAYERS_TEXT = "the end of the game is given for 2, 3 and 4 players"
# End of the Game: a whole family revealed wins as well
FAMILY_SIZE = 6
# Revealing Gods: a group is three cards of one family
GROUP = 3
# Setup: six families of Gods numbered 1 to 6 (the Gods of Ancient Egypt)
FAMILIES = 6
NUMBERS = 6
CARDS = FAMILIES * NUMBERS
# The Gods of Ancient Egypt: each family's animal and its god
GODS = {"jackal": "anubis", "cat": "bastet", "crocodile": "sobek", "falcon": "horus", "hippopotamus": "taweret",
        "bull": "apis"}
# French edition, the accessibility stickers: one symbol per god
STICKERS = {"taweret": "drop", "bastet": "round", "anubis": "cross", "apis": "heart", "horus": "moon",
            "sobek": "clover"}
# Setup: the pyramid's rows of 1 to 8 cards, each card of a row partly covering two of
# the row above it (the apex lies God side up, then the rows alternate)
PYRAMID_ROWS = tuple(range(1, 9))
# Exploration Variants, Mastaba: first the six number-1 Gods in a line, God side up
MASTABA_FIRST = 6
# Exploration Variants, Temple: two designs, one all Mummy side up, one all God side up
