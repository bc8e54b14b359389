"""O, Farao!: the rules as a small, fast engine (plain ints and short lists).

Cards of one kind are alike for the rules, so a hand, the draw pile and the
discard pile are lists of counts indexed by a *kind*: ``1..9`` the building
cards of that value, ``THIEF`` (10), ``TAX`` (11, the tax collector),
``PHARAOH`` (12), ``END`` (13, the End card) and ``JOKER`` (14, the variant).
A pyramid is a tuple ``(base value, rows)``, its rows from the bottom up, each
row an int ``cards * 8 + jokers``. A draw from the pile is a uniform draw from
the cards left in it, which *is* a shuffle, so the draws are the only chance
steps a shuffle needs.

A turn is the rulebook's six steps, each as small decisions (``PASS`` first
where a step is optional; trading asks a question before each offer, ``YES``
to offer, so that a player choosing at random does not offer trades all turn
long; the same question ends the trading with the first build or with none, see
step 3). A turn
in which the player can do nothing at all is one decision, ``PASS`` (``IDLE``),
so that a stuck game shows up as a game that does not end:

1. **Cash** (``CASH + slot`` or ``PASS``): one own pyramid with enough rows is
   scored (the sum of its distinct values × its height) and goes to the discard;
   the figure moves one plateau. From ``board.tall_only_from`` only pyramids of
   ``board.tall_rows`` rows or more may be cashed. When the figure reaches the
   last plateau, the discard, the draw pile and the End card are shuffled into a
   new pile.
2. **Draw** (``PILE`` or ``TAKE + kind``): one card from the pile (chance) or
   from the display of three; a display card taken is replaced from the pile.
3. **Trade** (``YES``, then ``TRADE + 256 * partner + 16 * give + ask``, then the
   partner's ``ACCEPT``/``DECLINE``): the active player offers one of its cards for
   a kind of card from another player; the partner decides. The question before
   each offer also ends the trading: ``PASS`` (no trades, no building: on to step
   5) or a build (no (more) trades, and this is the turn's first build). Ending
   the trading and making the first build are one decision because nothing
   happens between them (the player knows no more at the build question than at
   the trade question); it saves a step in most turns, and a player choosing at
   random trades less often (it picks ``YES`` among all its builds) without any
   line of play becoming unreachable.
4. **Build** (``PASS`` or ``BUILD + ((16 * slot + value) * 16 + naturals) * 4 +
   jokers``, again until ``PASS``): cards of one value onto one own pyramid (slot
   0 or 1) or as a new pyramid (slot 2). When no trade offer is possible (nobody
   else holds a card, three offers made, ``trade: none``), the build question is
   asked at once. No trade is offered after a build.
5. **Thief or tax collector** (``PASS``, ``THIEF + 2 * seat + slot`` or ``TAX``):
   the target may block with a Pharaoh (``BLOCK``/``ALLOW``; every target is asked,
   with or without a Pharaoh, so that asking reveals nothing); a thief's die roll
   (chance) higher than the pyramid's height lets the active player take one card
   of it (``STEAL + 2 * row + joker``); a pyramid that no longer follows the rules
   collapses into its owner's hand, who discards down to the hand limit
   (``DISCARD + kind``). A tax collector takes one random card (chance) from the
   hand of every other player who does not block.
6. **Hand to seven**: the active player discards down to seven (``DISCARD +
   kind``) or draws up to seven (chance).

The game ends at once when the End card is drawn; every pyramid still standing
is then cashed (``final_cash``). The most points win; equal points at the top
share the victory.

Choices where the rulebook is silent are named options (:class:`FaraoOptions`),
read from ``data.house_rules``; the values the data sets are the ones played:

* ``cash_optional: true``: step 1 is a "may" (``false``: a player who can cash must);
* ``min_rows_to_cash: 1``: a single row is a pyramid and may be cashed;
* ``trade: one_for_one``: each trade swaps one card for one (``none``: no trading);
* ``thief_takes: any``: the thief's player picks the card (``random``: a chance step);
* ``steal: compulsory``: after a winning roll the Thief takes a card, although the
  Dutch text says it *may* (``optional``: ``PASS`` takes nothing; needs ``thief_takes: any``);
* ``tax_take: compulsory``: the Tax collector takes a card from every other player
  (the text says *may*; the only choice so far);
* ``one_attack_per_turn: true``: one Thief or one Tax collector a turn;
* ``pharaoh_blocks_each: true``: each target blocks for itself (``false``: one
  Pharaoh stops a whole tax collection);
* ``final_cash: all``: at the end every standing pyramid is cashed (``eligible``:
  only those that could be cashed on the last plateau);
* ``joker: wild_in_row``: a Joker stands for the card of its row, never alone.

Besides those, options of ours the data may set:

* ``trade_offers``: 3 (ours): at most three trade offers per turn (so two
  players cannot offer and decline forever);
* ``build``: ``upward`` (ours): a build adds cards of one value to one row of an
  own pyramid (the row must stay narrower than the row below it) or lays a new
  row on top (one value higher, fewer cards than the top row), or starts a new
  pyramid; a turn may make any number of builds, on any of its pyramids;
* ``jokers``: false (the variant, off by default; their number comes from
  ``data.variant_cards``).

And fixed choices of the engine (not options):

* a player has at most one pyramid standing, two once the figure stands on
  ``board.double_from`` or beyond (the data's reading of the first special
  plateau);
* step 2 is not optional when there is a card to take; the display is refilled
  from the pile at once; a display card that cannot be replaced (pile and discard
  both empty) is owed and drawn before the next step 2 once there are cards again,
  so the display goes back to three (the rulebook's Start);
* when the pile runs out before the last plateau, the discard pile is shuffled
  into a new pile; with both empty, nobody draws (hands stay short);
* cashed pyramids go to the discard pile; played Thieves, Tax collectors and
  Pharaohs too; the figure stays on the last plateau once there (later cashes
  still score);
* the End card ends the game whenever it leaves the pile, also when it would
  refill the display;
* a Thief may target any pyramid of another player, even one too tall to rob;
  a Tax collector takes a random card, as the taker cannot see the hand;
* discarded cards lie face up: what is discarded is public.

The package, one job a module: :mod:`.spec` (the constants, the house rules and the board
read from the data, the static spec), :mod:`.codec` (the action numbers and the trace
text), :mod:`.state` (the engine) and :mod:`.observation` (what a seat sees of it),
:mod:`.game` (the rules bound to a table, with its move tables), :mod:`.checker` (the
independent check of every step) and :mod:`.agents` (the greedy player); here only the
rules object the validator finds through the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...base.errors import CardgenError, Where
from .. import register
from ..api import AgentFactory, Problem, RandomAgent, StaticSpec
from .agents import GreedyAgent
from .game import FaraoGame
from .spec import GAME_ID, SETUP, FaraoOptions, deck_counts, options_of, read_board, static_spec_of


class FaraoRules:
    """The rules of O, Farao!, for the generic validator."""

    game_id = GAME_ID
    agents: Mapping[str, AgentFactory] = {"random": RandomAgent, "greedy": GreedyAgent}
    must_finish: Mapping[str, bool] = {"random": True, "greedy": True}
    house_rules = FaraoOptions  # the options of data.house_rules (what --sweep may vary)

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(range(max(3, lo), min(hi, 4) + 1))  # a wider range is refused by the deck check

    def setups(self, game) -> tuple[str, ...]:
        return (SETUP,)

    def options(self, game) -> FaraoOptions:
        """The house rules of the data, the Joker variant on when the game was loaded with it."""
        return options_of(game)

    def data_problems(self, game, locate: Callable[..., Where]) -> list[Problem]:
        """The house rules' mistakes, which ``cardgen build`` refuses too: the rules
        summary prints the options chosen."""
        return FaraoOptions.from_data(game.data.get("house_rules"), locate)[1]

    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec:
        return static_spec_of(game, locate)

    def load(self, game, num_players: int, setup: str = SETUP, options: FaraoOptions | None = None) -> FaraoGame:
        """Bind the rules to a game whose data passed :meth:`static_spec`'s checks."""
        if setup != SETUP:
            raise CardgenError(f"O, Farao! has one setup, '{SETUP}', not '{setup}'")
        options = options or self.options(game)
        return FaraoGame(num_players, options, read_board(game.data)[0], deck_counts(game, options))


RULES = register(FaraoRules())
