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
