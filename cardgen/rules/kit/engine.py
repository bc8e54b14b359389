"""A kit game as the validator plays it: the rules' moves turned into the State API.

The plug-in author's :class:`~.rules.Kit` says which moves are legal and what each
does; this module makes the rest: actions as numbers (each move, a tuple of plain
values, gets the next number the first time it is seen, shared by every state of the
game), chance steps for the draws the rules ask for, observations and re-deals from
the piles' visibility, and a checker that holds the cards together and asks the
author's own judgement of each move.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..api import CHANCE, TERMINAL, RuleViolation
from .flows import check_flows
from .table import Table, View

if TYPE_CHECKING:
    from .rules import Kit

Move = tuple  # a move of the rules: plain values, such as ("take", 17) or ("pass",)


class KitGame:
    """The rules bound to one game and player count (the runner's GameDef)."""

    def __init__(self, kit: Kit, cards: tuple[Any, ...], names: tuple[str, ...], num_players: int, setup: str):
        self.kit = kit
        self.cards = cards  # the kit's value of each card, copies included, by card number
        self.names = names  # each card's id, for the words of a move
        self.num_players = num_players
        self.setup = setup
        self.moves: list[Move] = []  # action number -> move
        self.numbers: dict[Move, int] = {}

    def action(self, move: Move) -> int:
        number = self.numbers.get(move)
        if number is None:
            number = self.numbers[move] = len(self.moves)
            self.moves.append(move)
        return number

    def move(self, action: int) -> Move:
        return self.moves[action]

    def new_initial_state(self) -> KitState:
        table = Table(self.kit.piles, self.num_players, self.kit.phases[0])
        table.pile(self.kit.piles[0].name).extend(range(len(self.cards)))  # every card starts in the first pile
        self.kit.setup(table, self)
        return KitState(self, table)

    def max_game_length(self) -> int:
        return self.kit.max_steps(self)

    def checker(self) -> KitChecker:
        return KitChecker(self)


class KitState:
    def __init__(self, game: KitGame, table: Table):
        self.game = game
        self.table = table
        self._settle()

    def _settle(self) -> None:
        """Drop the draws whose pile is empty: a draw from nothing draws nothing."""
        t = self.table
        while t.pending and not t.pile(t.pending[0][0]):
            t.pending.pop(0)

    def current_player(self) -> int:
        if self.table.pending:
            return CHANCE
        return TERMINAL if self.table.over else self.table.seat

    def is_terminal(self) -> bool:
        return self.table.over and not self.table.pending

    def legal_actions(self) -> list[int]:
        if self.table.pending or self.table.over:
            return []
        return [self.game.action(m) for m in self.game.kit.moves(self.table, self.game)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self.table.pile(self.table.pending[0][0])
        return [(c, 1 / len(cards)) for c in sorted(cards)]

    def apply_action(self, action: int) -> None:
        t = self.table
        if t.pending:
            source, dest = t.pending.pop(0)
            t.move(action, source, dest)
        else:
            self.game.kit.play(t, self.game.move(action), self.game)
        self._settle()

    def clone(self) -> KitState:
        other = object.__new__(KitState)
        other.game, other.table = self.game, self.table.copy()
        return other

    def observation(self, player: int) -> View:
        return self.table.view(player)

    def scrambled(self, seat: int, rng: random.Random) -> KitState:
        other = object.__new__(KitState)
        other.game, other.table = self.game, self.table.redealt(seat, rng)
        return other

    def returns(self) -> list[float]:
        return list(self.game.kit.result(self.table, self.game))

    def length(self) -> int:
        return self.table.turn

    def card_holders(self) -> dict[str, tuple[int, ...]]:
        """The seats holding each card at the end in a pile of their own (a hand, a tableau),
        by card id, for the report's per-card figures; the table's piles are nobody's."""
        return self.table.holders(self.game.names)

    def action_to_string(self, action: int) -> str:
        if self.table.pending:
            dest = self.table.pending[0][1]
            return f"{self.game.names[action]} to {dest if isinstance(dest, str) else f'{dest[0]} of seat {dest[1] + 1}'}"
        return self.game.kit.words(self.game.move(action), self.game)


class KitChecker:
    """What the kit holds a game to, apart from the engine's own moves: every card in
    exactly one pile and no pile over its ``most``; each move judged by the kit's own
    ``judge`` (the rules said a second time, apart from ``moves``); the cards a decision
    moves going only where the kit's ``flows`` let them; and whose turn it is: the seat
    changes only when a turn ends, and then to the seat ``next_seat`` names."""

    def __init__(self, game: KitGame):
        self.game = game
        self.limited = [p for p in game.kit.piles if p.most is not None]
        self.watching: tuple[int, Move, int, int] | None = None  # the decision being made: seat, move, turn, seat to play

    def before(self, state: KitState, player: int, action: int) -> None:
        if player < 0:
            return
        move = self.game.move(action)
        t = state.table
        self.game.kit.judge(t, player, move, self.game)
        self.watching = (player, move, t.turn, t.seat)
        t.log = []

    def after(self, state: KitState, full: bool) -> None:
        t = state.table
        if self.watching is not None:
            self._after_decision(t, *self.watching)
            self.watching, t.log = None, None
        for spec in self.limited:
            for seat, pile in enumerate(t.piles[spec.name]):
                if len(pile) > spec.most:  # type: ignore[operator]  # limited: most is set
                    whose = f" of seat {seat + 1}" if spec.per_seat else ""
                    raise RuleViolation(f"pile '{spec.name}'{whose} holds {len(pile)} cards; the rules allow at most"
                                        f" {spec.most}")
        cards = t.cards_everywhere()
        if len(cards) != len(self.game.cards):
            raise RuleViolation(f"{len(cards)} cards in the piles; the deck has {len(self.game.cards)}")
        if full and sorted(cards) != list(range(len(self.game.cards))):
            raise RuleViolation("a card is in two piles at once, or in none")

    def _after_decision(self, t: Table, seat: int, move: Move, turn: int, playing: int) -> None:
        game = self.game
        words = game.kit.words(move, game)
        if game.kit.read_flows and t.log:
            check_flows(game.kit.read_flows, t.log, seat, words, lambda c: game.names[c])
        if t.turn == turn:
            if t.seat != playing and not t.over:
                raise RuleViolation(f"seat {seat + 1}'s {words} gave the play to seat {t.seat + 1} without ending"
                                    " the turn")
            return
        if t.turn != turn + 1:
            raise RuleViolation(f"seat {seat + 1}'s {words} ended {t.turn - turn} turns at once")
        if not t.over:
            wanted = game.kit.next_seat(t, seat, move, game)
            if t.seat != wanted:
                raise RuleViolation(f"after seat {seat + 1}'s {words}, seat {t.seat + 1} plays; the rules say seat"
                                    f" {wanted + 1}")

    def at_end(self, state: KitState) -> None:
        result = state.returns()
        if len(result) != self.game.num_players:
            raise RuleViolation(f"the game ended with {len(result)} results for {self.game.num_players} seats")
        self.game.kit.judge_end(state.table, self.game)
