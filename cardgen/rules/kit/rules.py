"""The base of a kit game's rules: what a plug-in author subclasses.

The author names the deck, the piles (the first holds every card at the start), the
phases of a turn, and writes four methods: ``setup`` (the deal), ``moves`` (the legal
moves of the seat to play), ``play`` (what a move does) and ``judge`` (the rules said
a second time, for the checker). Everything else the validator needs (the static
spec, player counts, the engine, observations, re-deals, a random and a greedy
player) comes from here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ..api import Arrangement, RandomAgent, StaticSpec, most_points_win
from .engine import KitGame, Move
from .flows import read_flows
from .table import Pile, Table, View

SETUP = "standard"


class Kit:
    """Rules of a card game made of piles, turns and phases. Subclass it, set the class
    attributes, write ``setup``, ``moves``, ``play`` and ``judge``, and register an
    instance (``register(MyGame())``)."""

    game_id: ClassVar[str]
    deck: ClassVar[str] = "cards"  # the deck the game is played with
    piles: ClassVar[tuple[Pile, ...]]  # the first, one for the table, holds every card at the start
    phases: ClassVar[tuple[str, ...]] = ("play",)  # the phases of a turn; end_turn() goes back to the first
    # where the rules let a decision send cards ("market -> hand", "hand -> hand of other"):
    # the checker holds every move and draw to them (none named: not checked; see flows.py)
    flows: ClassVar[tuple[str, ...]] = ()
    players: ClassVar[tuple[int, int] | None] = None  # the player counts the rulebook allows
    must_finish: ClassVar[Mapping[str, bool]] = {"random": True, "greedy": True}

    def __init__(self) -> None:
        if not self.piles or self.piles[0].per_seat:
            raise TypeError(f"{type(self).__name__}: the first pile holds the deck: it must be one for the table")
        self.read_flows = read_flows(self.flows, {p.name: p for p in self.piles}, type(self).__name__)
        self.agents: dict[str, Callable[[KitGame, int], Any]] = {"random": RandomAgent}
        if type(self).value is not Kit.value:
            self.agents["greedy"] = GreedyPlayer

    # -- what the author writes ------------------------------------------------------
    def card(self, fields: Mapping[str, Any]) -> Any:
        """What the rules keep of a card (its fields, by default)."""
        return fields

    def setup(self, t: Table, game: KitGame) -> None:
        """The deal: ``t.draw(...)`` the cards each pile starts with."""

    def moves(self, t: Table, game: KitGame) -> list[Move]:
        """The legal moves of ``t.seat`` in ``t.phase``: tuples of plain values, never
        empty while the game goes on."""
        raise NotImplementedError

    def play(self, t: Table, move: Move, game: KitGame) -> None:
        """Make the move: move cards, ``t.draw``, score, ``t.phase = …``, ``t.end_turn()``,
        ``t.over = True``."""
        raise NotImplementedError

    def judge(self, t: Table, seat: int, move: Move, game: KitGame) -> None:
        """Raise RuleViolation when ``move`` breaks the rules: the checker's own reading
        of them, apart from ``moves``."""

    def judge_end(self, t: Table, game: KitGame) -> None:
        """Raise RuleViolation when the game ended against the rules."""

    def next_seat(self, t: Table, seat: int, move: Move, game: KitGame) -> int:
        """Who plays after ``seat``'s turn ended with ``move`` (``t`` as the move left it),
        as the rulebook says it: the checker holds ``end_turn`` to it. By default the next
        seat round the table; a game whose rules name another (the winner of a trick
        leads) says so here and passes the seat to ``t.end_turn(seat)``."""
        return (seat + 1) % t.num_players

    def result(self, t: Table, game: KitGame) -> Sequence[float]:
        """Each seat's result: by default the most points win."""
        return most_points_win(t.scores)

    def value(self, view: View, move: Move, game: KitGame) -> float:
        """How good a move looks from what the seat may know; defining it adds a greedy player."""
        return 0.0

    def words(self, move: Move, game: KitGame) -> str:
        """A move in words, for --trace: card numbers after the first word named by their cards."""
        verb, *rest = move
        return " ".join([str(verb), *(game.names[x] if isinstance(x, int) else str(x) for x in rest)])

    def max_steps(self, game: KitGame) -> int:
        """The generous limit of a game's length, in steps."""
        return 100 * len(game.cards) + 1000

    # -- the rules API, made from the above ------------------------------------------
    def static_spec(self, game, locate) -> StaticSpec:
        """Any deck plays: what it must hold is game.yaml's ``expect``, checked apart. The
        spec names the deck (the validator says when the game lacks it) and the
        rulebook's player counts."""
        deck = next((c for c in game.decks if c.id == self.deck), None)
        counts: dict[tuple, int] = {}
        for card in deck.cards if deck is not None else ():
            key = _key(card.fields)
            counts[key] = counts.get(key, 0) + card.quantity
        return StaticSpec(component=self.deck, key_fields=(), key_of=_key, expected=tuple(counts),
                          quantities=counts, name=lambda key: "a card", players=self.players,
                          expected_text="the cards of game.yaml (its expect says what they must be)",
                          arrangements=(Arrangement(SETUP, sum(counts.values()), detail="one shuffled deck"),))

    def player_counts(self, game) -> tuple[int, ...]:
        return tuple(range(game.players[0], game.players[1] + 1))

    def setups(self, game) -> tuple[str, ...]:
        return (SETUP,)

    def load(self, game, num_players: int, setup: str) -> KitGame:
        deck = game.component(self.deck)
        copies = [c for c in deck.cards for _ in range(c.quantity)]
        return KitGame(self, tuple(self.card(c.fields) for c in copies), tuple(c.id for c in copies),
                       num_players, setup)


def _key(fields: Mapping[str, Any]) -> tuple:
    """A card's fields as a key: the kit plays any card, and tells them apart by their fields."""
    return (repr(fields),)


class GreedyPlayer:
    """Plays the move the rules' ``value`` rates best from its seat's view (the first of
    equals, in the order of the legal moves)."""

    def __init__(self, game: KitGame, seat: int):
        self.game = game

    def act(self, obs: View, legal: Sequence[int], rng: random.Random) -> int:
        game = self.game
        return max(legal, key=lambda a: game.kit.value(obs, game.move(a), game))
