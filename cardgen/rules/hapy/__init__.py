"""Hâpy Families: the rules as a small, fast engine (plain ints and lists).

Cards are numbered ``0..35``: ``family_index * 6 + number - 1``, the families in
the order of ``data.families``. Sets of cards are int bitmasks. The setup layout
(pyramid, Mastaba, Temple, Tomb, Giza) comes from ``data.layouts`` (see
``card_data/hapy/layouts.yaml``) with a precomputed cover graph.

A turn is up to three steps, each an action of the player whose turn it is:

1. take an available card from the layout (an action = its place index); the
   step is skipped when the layout is empty;
2. request a named card from one other player (``REQUEST_BASE + seat * 100 + card``)
   or pass (``PASS``); any card may be named, one's own included (it bluffs, and it
   becomes the card the next player may not name), but not a revealed card nor the
   banned one: the card the previous player requested (EN rulebook) or the last card
   another player requested, through passes (FR rulebook), as ``house_rules.request_ban``
   says;
3. reveal every set of three of a family, automatically; only when a player
   holds four of one family do they choose which card to keep
   (``KEEP_BASE + card``). Then the win is checked: a whole family (6) revealed, or
   5 / 4 / 3 sets of three with 2 / 3 / 4 players.

The setup deal is a run of chance steps: one card for each place in turn.

Information: a Mummy-up card's identity is known to nobody until taken, then to
its holder only. God-up cards in the layout are seen by all, so a card taken from
a God-up place is publicly known to be in the taker's hand; a requested card that
changes hands is public too, and so is a failed request (the asked player does not
hold it). Agents get a :class:`~.state.HapyObservation`: their own hand, the public faces
of the layout, hand sizes, revealed cards and the public event log — never the
state.

The package, by job: :mod:`.spec` (constants, what the rules need from the data),
:mod:`.masks` (card sets as bitmasks), :mod:`.codec` (action and event numbers,
trace text), :mod:`.state` (the engine and the observation), :mod:`.checker`
(the independent check of every step), :mod:`.agents` (the greedy player),
:mod:`.game` (the rules bound to a configuration); here, the registration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...base.errors import Where
from .. import register
from ..api import AgentFactory, Problem, RandomAgent, StaticSpec
from .agents import GreedyAgent
from .game import HapyGame, bind
from .spec import GAME_ID, MAX_TURNS, SETS_TO_WIN, HapyOptions, setup_names, static_spec_of


class HapyRules:
    """The rules of Hâpy Families, for the generic validator."""

    game_id = GAME_ID
    agents: Mapping[str, AgentFactory] = {"random": RandomAgent, "greedy": GreedyAgent}
    # Can a game never end? Cards in hands always form whole sets (a family has 0, 3 or
    # 6 cards outside the revealed sets), so someone can always still win; but nothing
    # forces a player to ask for the right card, and a player may pass forever once the
    # layout is empty. Random players may do exactly that: a random game that reaches
    # the turn limit is counted and listed with its seed, not failed. Greedy players
    # always ask for something useful, so a greedy game that never ends is a failure.
    must_finish: Mapping[str, bool] = {"random": False, "greedy": True}
    house_rules = HapyOptions  # the options of data.house_rules (what --sweep may vary)

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(n for n in sorted(SETS_TO_WIN) if lo <= n <= hi)

    def setups(self, game) -> tuple[str, ...]:
        return setup_names(game.data)

    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec:
        return static_spec_of(game, locate)

    def data_problems(self, game, locate: Callable[..., Where]) -> list[Problem]:
        """A wrong house rule, which the printed rules summary states: build refuses it too."""
        return HapyOptions.from_data(game.data.get("house_rules"), locate)[1]

    def load(self, game, num_players: int, setup: str, max_turns: int = MAX_TURNS) -> HapyGame:
        """Bind the rules to a game whose data passed :meth:`static_spec`'s checks."""
        return bind(game, num_players, setup, max_turns)


RULES = register(HapyRules())
