"""Horus as the rulebook states it, written from the rulebook alone.

The checker and the deck check read their numbers here; the engine never imports this
module. Each value names the section of the rulebook it comes from, in our words."""

from __future__ import annotations

# Components: Kingdom Stones in four colours, one colour and one Nile card per player
COLOURS = 4
NILE_CARDS = 4
PLAYERS = (2, COLOURS)
PLAYERS_TEXT = "four colours of Kingdom Stones and four Nile cards, one each"
