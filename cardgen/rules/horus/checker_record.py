"""Horus: the checker's own record of whose turn it is, where every Horus card is, the
bag's tiles and the Kingdom Stones of each colour, and what every seat sees.

Written from the rulebook: turns go to the left (the next seat); a played Horus card and
the cards of a depleted stack are discarded, a hand draws from the draw pile, and the
discard becomes the draw pile only when that is used up; each turn begins with one tile
from the bag while it has any; every player has twenty stones of one colour; a hand is
secret, the card played is not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import RuleViolation
from . import rulebook
from .codec import CARD_BASE
from .spec import ANY

if TYPE_CHECKING:
    from .spec import HorusSpec
    from .state import HorusState


class CardRecord:
    """Each physical Horus card in the draw pile, the discard pile or a hand, as the moves put
    it: a card leaves a hand only for the discard (played, or naming a depleted stack), enters
    a hand only from the draw pile (or from the discard once the draw pile is used up)."""

    def __init__(self, g: HorusSpec, s: HorusState):
        self.g = g
        self.hands = [set(h) for h in s.hands]
        self.discard = set(s.discard)
        self.deck = set(s.deck)
        self.played: tuple[int, int] | None = None  # (seat, card kind) of the card played this step

    def play(self, seat: int, action: int) -> None:
        self.played = (seat, action - CARD_BASE)

    def compare(self, s: HorusState) -> None:
        g = self.g
        played, self.played = self.played, None
        deck_left: set[int] | None = None
        for p, hand in enumerate(s.hands):
            own = self.hands[p]
            if len(hand) == len(own) and own.issuperset(hand):
                continue
            now = set(hand)
            for c in own - now:  # out of the hand: to the discard, played or naming an empty stack
                k = g.card_of[c]
                if c not in s.discard:
                    raise RuleViolation(f"seat {p + 1}'s Horus card {g.card_name(k)} left the hand but is not on the"
                                        " discard pile (a card played or of an empty stack is discarded)")
                if played == (p, k):
                    played = None
                elif (stack := g.card_kinds[k][1]) == ANY or s.stacks[stack]:  # the card's stack has tiles
                    raise RuleViolation(f"seat {p + 1}'s Horus card {g.card_name(k)} was discarded, neither played"
                                        " nor naming an empty stack")
                self.discard.add(c)
            for c in now - own:  # into the hand: a draw
                if c in self.deck:
                    self.deck.discard(c)
                elif c in self.discard and (deck_left := self.deck.intersection(s.deck) if deck_left is None
                                            else deck_left):
                    raise RuleViolation(f"seat {p + 1} draws {g.card_name(g.card_of[c])} from the discard pile while"
                                        " the draw pile still has cards")
                elif c in self.discard:
                    self.discard.discard(c)
                else:
                    raise RuleViolation(f"seat {p + 1} holds {g.card_name(g.card_of[c])}, which was in no pile")
            self.hands[p] = now
        if played is not None:
            raise RuleViolation(f"seat {played[0] + 1} played {g.card_name(played[1])} but it is still in the hand")

    def compare_piles(self, s: HorusState) -> None:
        """The full check: the two piles hold each card the record puts there (a reshuffle, the
        discard made the draw pile once that was used up, is taken in here)."""
        deck, discard = set(s.deck), set(s.discard)
        g = self.g
        for c in self.deck - deck:  # drawn naming an empty stack: discarded at once (Game End's note)
            st = g.card_kinds[g.card_of[c]][1]
            if c in discard and st != ANY and not s.stacks[st]:
                self.deck.discard(c)
                self.discard.add(c)
        if deck != self.deck:
            if not (self.deck & deck) and deck <= self.discard:  # the used-up draw pile replaced
                self.discard -= deck
                self.deck = deck
            else:
                c = next(iter(deck ^ self.deck))
                raise RuleViolation(f"Horus card {self.g.card_name(self.g.card_of[c])} is"
                                    f" {'in' if c in deck else 'not in'} the draw pile; the moves put it"
                                    f" {'there' if c in self.deck else 'elsewhere'}")
        if discard != self.discard:
            c = next(iter(discard ^ self.discard))
            raise RuleViolation(f"Horus card {self.g.card_name(self.g.card_of[c])} is"
                                f" {'on' if c in discard else 'not on'} the discard pile; the moves put it"
                                f" {'there' if c in self.discard else 'elsewhere'}")


class TurnRecord:
    """Whose turn it is (to the left: the next seat), the bag's tiles at each turn's start
    (one drawn a turn while it has any), each seat's Kingdom Stones (twenty of its colour)."""

    def __init__(self, g: HorusSpec, s: HorusState):
        self.n = g.num_players
        self.seat = s.player
        self.turn = s.turn
        self.bag = len(s.bag)
        self.drawn_this_turn = False

    def new_turn(self, s: HorusState, player: int) -> None:
        """A decision in a turn the engine counts as new, or by another seat: the next seat's."""
        want = (self.seat + 1) % self.n
        if player != want or s.turn != self.turn + 1:
            raise RuleViolation(f"seat {player + 1} takes turn {s.turn + 1} after seat {self.seat + 1}'s turn"
                                f" {self.turn + 1}; play passes to the left, to seat {want + 1}")
        self.seat = player
        self.turn = s.turn
        self.drawn_this_turn = False

    def bag_drawn(self, s: HorusState) -> None:
        """At the turn's first decision: one tile left the bag (Action 1) while it had any."""
        if self.drawn_this_turn:
            return
        self.drawn_this_turn = True
        want = max(self.bag - 1, 0)
        if len(s.bag) != want:
            raise RuleViolation(f"the bag holds {len(s.bag)} tiles in seat {s.player + 1}'s turn {s.turn + 1};"
                                f" {want} after one drawn for Action 1")
        self.bag = want


def stones_in_supply(s: HorusState, placed: list[int]) -> None:
    """Each seat's stones on the table and in its supply are the box's twenty."""
    for p, left in enumerate(s.stones_left):
        if left + placed[p] != rulebook.STONES:
            raise RuleViolation(f"seat {p + 1} has {left} Kingdom Stones in supply and {placed[p]} on the table;"
                                f" the box holds {rulebook.STONES} of each colour")


def public_view(s: HorusState, seat: int, played: int) -> None:
    """What every seat sees: the board shows the card played this turn (``played``, -1: none
    yet), the stacks' and the bag's sizes; the view holds the seat's own hand and every hand's
    size."""
    view = s.observation(seat)
    board = view.board
    if board.card != played:
        raise RuleViolation(f"the public board shows Horus card {board.card} in seat {s.player + 1}'s turn; the card"
                            f" played is {played} (-1: none yet): a hand is secret")
    if tuple(board.stack_sizes) != tuple(map(len, s.stacks)) or board.bag_size != len(s.bag):
        raise RuleViolation("the public board's stack and bag sizes are not the table's")
    if tuple(view.hand) != tuple(s.hands[seat]) or tuple(view.hand_sizes) != tuple(map(len, s.hands)):
        raise RuleViolation(f"seat {seat + 1}'s view holds another hand than its own")


def public_outcome(g: HorusSpec, before: Before, after: HorusState, played: int) -> None:
    """The step's outcome text (the public record of ``--trace``) names no Horus card but the
    one played: the hands are secret."""
    said = after.outcome_text(before)
    if not said:
        return
    for k in range(len(g.card_kinds)):
        name = g.card_name(k)
        if k != played and name in said:
            raise RuleViolation(f"the outcome of seat {before.player + 1}'s step names Horus card {name}: '{said}'"
                                " is public, the hands are not")


class Before:
    """What the engine's outcome text reads of the state before a step (``stone_at``,
    ``removed``, ``phase``, ``player``, ``scores()``), copied out of it: the checker keeps this
    to read the step's outcome, not a clone of the whole table."""

    __slots__ = ("stone_at", "removed", "phase", "player", "_scores")

    def __init__(self, s: HorusState):
        self.stone_at = dict(s.stone_at)
        self.removed = tuple(s.removed)
        self.phase = s.phase
        self.player = s.player
        self._scores = s.scores()

    def scores(self) -> list[int]:
        return self._scores
