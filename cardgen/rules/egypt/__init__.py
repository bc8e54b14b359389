"""Egypt: the rules as a small, fast engine (plain ints, bitmasks and lists).

Cards are numbered ``0..62``: ``type_index * 7 + copy - 1``, the nine types in the
rulebook's order (Hieroglyph 0, Slaves 1, The Nile 2, Temples 3, Chariots 4,
Pharaohs 5, Pyramid 6, The Gods 7, Ankh wild); a hand is a bitmask with one byte
per type (see :mod:`.bits`).

A turn (ten in a game) is four phases:

1. **Draw** (chance): seat by seat, each hand is filled to 7 with uniformly random
   cards of the deck; an empty deck takes the discard pile, shuffled (a uniform
   draw from the cards left *is* a shuffle, so the reshuffle needs no random step).
2. **Control**: a simultaneous reveal, modelled as one decision per seat in turn
   whose result stays hidden (see :class:`.state.EgyptObservation`) until every seat has
   chosen: reveal one meld (``MELD + 100 * type + 10 * naturals + ankhs``) or
   nothing (``PASS``). A meld is 2+ cards of one type, Ankhs wild. The most cards
   wins; equal sizes compare points; a tie at the top means nobody wins; nobody
   winning keeps the last controller; with no controller yet there is no Dynasty
   phase this turn.
3. **Dynasty**: the controller picks a player with cards (``VICTIM + seat``;
   automatic when only one has any) and takes one of their cards at random
   (chance), then plays melds (``MELD + …``, scoring the sum of the cards' values)
   and special melds (``COMBO + 10 * combo + the slots Ankhs fill, as bits``), one
   action each, until ``PASS``.
4. **End**: every meld on the table goes to the discard; each seat in turn
   discards 0–3 cards and must keep at most 5 (``DISCARD + code``, the code's
   decimal digits being the discarded types + 1, ascending; ``DISCARD`` alone
   discards nothing).

After ten turns the most tribute wins; equal tribute at the top is a tie.

Where the rulebook is silent or ambiguous, the choices are named options
(:class:`.spec.EgyptOptions`), read from ``data.house_rules`` in the game's YAML so a
user can change them in one place:

* ``ankh_value: meld`` (ASSUMED): an Ankh takes the type and the value of its
  meld (``zero``: an Ankh counts 0 points);
* ``all_ankh_meld: 0`` (ASSUMED): a meld of Ankhs only is allowed and worth 0 a
  card (``null``: not allowed);
* ``ankhs_in_combo: 1`` (ASSUMED): an Ankh may fill one slot of a special meld
  (0: none; up to 3);
* ``control_meld: discarded`` (our reading): the rulebook's examples say the
  players *play* their control melds, and "all melds played this turn go to the
  discard", while tribute is only earned in the Dynasty phase; so a revealed meld
  stays on the table, scores nothing, and is discarded in the End phase — the
  controller scores only with what is left (``returned``: revealed cards go back
  to the hand and may then be played for tribute);
* ``no_controller: end_phase`` (our reading of "the turn ends"): with no
  controller yet, the Dynasty phase is skipped and the End phase still clears the
  table and the hands (``next_turn``: the table is cleared and the next turn
  starts at once, with no discarding);
* the controller takes its random card from another player's hand (taking one
  from its own hand would change nothing).

The package, one module per job (each importing at run time only those listed before it):

* :mod:`.spec`: the constants, the options, the checks of the deck and the data;
* :mod:`.bits`: cards and hands as bits; :mod:`.codec`: actions as numbers and text;
* :mod:`.moves`: what an action takes from a hand, the legal discards (hot-path tables);
* :mod:`.state`: the game state and each seat's view; :mod:`.checker`: the checker;
* :mod:`.game`: the rules bound to a player count and the options (move lists, searches);
* :mod:`.agents`: the greedy player; :mod:`.figures`: the figures of seeded games;
* here: the rules registered for ``cardgen validate`` (:class:`EgyptRules`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...base.errors import CardgenError, Where
from .. import register
from ..api import AgentFactory, Problem, RandomAgent, StaticSpec
from .agents import GreedyAgent
from .game import EgyptGame
from .spec import GAME_ID, MAX_PLAYERS, SETUP, TURNS, EgyptOptions, build_static_spec, card_names_of, type_names_of


class EgyptRules:
    """The rules of Egypt, for the generic validator."""

    game_id = GAME_ID
    agents: Mapping[str, AgentFactory] = {"random": RandomAgent, "greedy": GreedyAgent}
    must_finish: Mapping[str, bool] = {"random": True, "greedy": True}  # ten turns, always
    house_rules = EgyptOptions  # the options of data.house_rules (what --sweep may vary)

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(range(max(2, lo), min(hi, MAX_PLAYERS) + 1))  # a wider range is refused by the deck check

    def setups(self, game) -> tuple[str, ...]:
        return (SETUP,)

    def options(self, game) -> EgyptOptions:
        return EgyptOptions.from_data(game.data.get("house_rules"))[0]

    def data_problems(self, game, locate: Callable[..., Where]) -> list[Problem]:
        """The house rules' mistakes, which ``cardgen build`` refuses too: the rules
        summary prints the options chosen."""
        return EgyptOptions.from_data(game.data.get("house_rules"), locate)[1]

    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec:
        """What the rules need from the deck and the data (see :func:`.spec.build_static_spec`)."""
        return build_static_spec(game, locate)

    def load(self, game, num_players: int, setup: str = SETUP, turns: int = TURNS,
             options: EgyptOptions | None = None) -> EgyptGame:
        """Bind the rules to a game whose data passed :meth:`static_spec`'s checks."""
        if setup != SETUP:
            raise CardgenError(f"Egypt has one setup, '{SETUP}', not '{setup}'")
        return EgyptGame(num_players, options or self.options(game), card_names_of(game), type_names_of(game), turns)


RULES = register(EgyptRules())
