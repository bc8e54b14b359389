"""``cardgen validate``: deck completeness (static), seeded plays through a game's rules
engine (simulate), and the built kit against the deck (kit), gathered into one report
(runner, report) behind one command (command). Nothing here knows any game: the rules
module registered for the game id says what to check and how to play."""
