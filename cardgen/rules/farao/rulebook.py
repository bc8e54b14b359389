"""O, Farao! as the (Dutch) rulebook states it, written from the rulebook alone.

The checker and the deck check read their numbers here; the engine never imports this
module. Each value names the part of the rulebook it comes from, in our words."""

from __future__ import annotations

# Game information at the end of the rulebook: three to four players
PLAYERS = (3, 4)
PLAYERS_TEXT = "the rulebook's game information says 3 to 4 players"
# Start: every player takes seven cards; step 6: the turn ends with seven in hand
HAND = 7
# Start: the top three cards lie face up as the display
DISPLAY = 3
