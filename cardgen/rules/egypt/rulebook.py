"""Egypt as the rulebook states it, written from the rulebook alone.

The checker and the deck check read their numbers here; the engine never imports this
module. Each value names the section of the rulebook it comes from, in our words."""

from __future__ import annotations

# Card list: nine types of seven cards
TYPES = 9
COPIES = 7
CARDS = TYPES * COPIES
# Draw Phase: every hand is filled to seven cards
HAND = 7
# The rulebook names no player count; with 7 cards a hand and the deck to draw from
# between turns, more than six players would empty it in the first deal (our choice,
# also in game.yaml's comment)
PLAYERS = (2, 6)
PLAYERS_TEXT = "the rulebook names no count; 2 to 6 is our choice, so that seven-card hands leave a deck to draw"
# End Phase: each player may discard up to three cards and must come down to five
MAX_DISCARD = 3
KEEP = 5
# Turn sequence and the end: ten turns (3000 years of rule)
TURNS = 10
# Special melds: Pyramid Builders (Pharaoh, Slaves, Pyramid) and Priests (Temple,
# Hieroglyph, God), with their tribute
COMBOS = {"builders": (("pharaohs", "slaves", "pyramid"), 12), "priests": (("temples", "hieroglyph", "gods"), 10)}
# Card list: each type's point value (Ankhs are wild and have none)
VALUES = {"hieroglyph": 0, "slaves": 1, "nile": 2, "temples": 3, "chariots": 4, "pharaohs": 5, "pyramid": 6,
          "gods": 7, "ankh": None}
