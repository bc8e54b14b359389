"""Horus as the rulebook states it, written from the rulebook alone.

The checker and the deck check read their numbers here; the engine never imports this
module. Each value names the section of the rulebook it comes from, in our words."""

from __future__ import annotations

# Components: Kingdom Stones in four colours, one colour and one Nile card per player
COLOURS = 4
NILE_CARDS = 4
PLAYERS = (2, COLOURS)
PLAYERS_TEXT = "four colours of Kingdom Stones and four Nile cards, one each"
# Components and setup: twenty Kingdom Stones of one colour for each player
STONES = 20
# Setup and Action 5: a hand of five Horus cards, refilled to five at the end of a turn
HAND = 5
# Action 4: a region of six tiles or more takes no further stone; '?' cards choose 1 to 5
CLOSED = 6
ANY_SIZES = (1, 2, 3, 4, 5)
# The Temple of Horus and Scoring: no region scores more than ten
REGION_CAP = 10
# Game End: the game ends when two of the five stacks are empty
EMPTY_STACKS_TO_END = 2
