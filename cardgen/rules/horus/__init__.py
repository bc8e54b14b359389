"""Horus: the rules as a small, fast engine on a half-tile lattice, one module per job.

:mod:`.spec` the tile kinds, the rulebook's numbers and the data read for the rules;
:mod:`.static` the deck check of the data and the kit; :mod:`.geometry` the lattice;
:mod:`.codec` the action numbers and the text of traces; :mod:`.table` the tiles and
stones on the table, the legal places and the scores; :mod:`.state` the turn on top of
it and what a seat sees; :mod:`.game` the two bound to a player count;
:mod:`.scratch` and :mod:`.checker` the independent check of every step; :mod:`.agents`
and :mod:`.islands` the simulated players; :mod:`.draw` the debug picture. This module
only registers the rules (:func:`cardgen.rules.rules_for` imports it).

**Where the rulebook is silent, our choices** (each tested in
``tests/rules/test_rules_horus.py`` and stated in ``README.horus-rules.md``):

* Start (the picture is not in the text): Boat, Step Pyramid, Boat in a row, at
  places (−2, 0), (0, 0), (2, 0).
* *Water* is every River tile: plain River tiles, the Step Pyramid and the two Boats.
  "Next to the River" means touching a water tile.
* *Blocking the River*: a Boat must always have a *way on*: a chain of places, each
  touching the one before, each free table (never a tile, water included: a way
  through the River to its other end let tiles box a Boat in), from the Boat to
  an *open* place (a free place with no tile within a tile's width around it: no
  tile's place within three half-cells). No tile, not even a Boat or a River tile,
  may be placed so that a Boat loses its way on, and a Boat is only put down where
  it has one. (The weaker "a free place next to each Boat" lets the River be shut in
  small pockets, and then the game cannot go on.) See :meth:`.table.HorusTable.escape`.
* A River tile from the bag must replace a Boat that can then be put down
  (touching the new River tile, without blocking). If neither Boat can move, the
  River tile is placed like a stack River tile, on a free place next to the River
  (none at all: it is set aside).
* A River tile from the stack placed by replacing a Boat: the Boat goes next to any
  water tile.
* *Island*: a group of land tiles (terrain, Necropolis, Temple) touching each other
  whose every edge, all the way round, lies against water or against another tile
  of the group (no edge half faces empty table). Its regions score double.
* The value cap of 10 applies to every region (the scoring note), not only to the
  Temple's.
* A "?" Horus card may take from any stack that is not empty. When a stack runs out,
  every hand drops the cards naming it and draws back to five at once (a chance
  run); cards naming an empty stack that are drawn later are discarded and replaced.
  The draw pile runs out → the discard pile, without such cards, is reshuffled.
* The Nile card is played instead of a Horus card while the River / Necropolis
  stack has a tile; it places up to two tiles from it (each as River, as
  Necropolis, or replacing a Boat), then moves one own stone from a region touching
  the River to an empty tile of another region touching the River (of any size: the
  rulebook names this as a way to change a closed region); no stone move possible
  → none. No Horus card is used, so no stone is placed and no card drawn.
* First round: every seat's first turn; each Horus card counts as size 1 (a "?" as
  well). Action 4's stone *may* be placed: placing none (``NO_STONE``) is offered
  whenever one fits. No legal stone place → the stone is skipped. The bag empty → action 1
  is skipped. A turn in which nothing at all can be done (bag empty, no card left
  to play) ends the game, so a game always ends.
* The Temple drawn with no legal place is removed from the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...base.errors import CardgenError, Where
from .. import register
from ..api import AgentFactory, RandomAgent, StaticSpec
from .agents import GreedyAgent
from .game import HorusGame
from .spec import GAME_ID, SETUP
from .static import data_problems, horus_static_spec


class HorusRules:
    """The rules of Horus, for the generic validator."""

    game_id = GAME_ID
    agents: Mapping[str, AgentFactory] = {"random": RandomAgent, "greedy": GreedyAgent}
    must_finish: Mapping[str, bool] = {"random": True, "greedy": True}  # the stacks only ever shrink
    # the adaptive quick pass's budget per configuration (a Horus game takes ~25 ms, checked): its first
    # round of 20 only, so that the pass stays under 2 s on 2 cores; the catalogue's bugs fail by seed 16
    quick_games = 20

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(range(max(2, lo), min(hi, 4) + 1))  # a wider range is refused by the deck check

    def setups(self, game) -> tuple[str, ...]:
        return (SETUP,)

    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec:
        return horus_static_spec(game, locate)

    def load(self, game, num_players: int, setup: str = SETUP) -> HorusGame:
        """Bind the rules to a game whose data passed :meth:`static_spec`'s checks."""
        if setup != SETUP:
            raise CardgenError(f"Horus has one setup, '{SETUP}', not '{setup}'")
        problems = data_problems(game.data, lambda *a: Where())
        if problems:
            raise CardgenError(f"the data cannot be played: {problems[0].message}")
        try:
            return HorusGame(game.data, num_players)
        except (KeyError, ValueError, TypeError) as exc:
            raise CardgenError(f"the data cannot be played: {exc}") from None


RULES = register(HorusRules())
