"""The table of a kit game: its piles of cards, who sees each, whose turn and phase it
is, the scores, and the draws waiting for chance.

A pile is named once with what it shows (:class:`Pile`): to every seat, to its owner
only (a hand), or to nobody (a draw pile, whose order does not exist: each draw from
it is a chance step among its cards). From that alone the table makes each seat's
observation and re-deals what a seat cannot see, so a plug-in author writes neither.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..api import FrozenDict

PUBLIC, OWNER, HIDDEN = "public", "owner", "hidden"


@dataclass(frozen=True)
class Pile:
    """A pile of cards: ``seen`` by every seat (``public``), by its owner only
    (``owner``: one pile per seat, such as a hand) or by nobody (``hidden``); ``each``:
    one pile per seat (always so for ``owner``); ``most``: the most cards it may hold
    (each, for a pile per seat), as the box or the rulebook limits it (None: no limit),
    which the kit's checker holds after every step."""

    name: str
    seen: str = PUBLIC
    each: bool = False
    most: int | None = None

    def __post_init__(self) -> None:
        if self.seen not in (PUBLIC, OWNER, HIDDEN):
            raise ValueError(f"pile '{self.name}': seen must be public, owner or hidden, not {self.seen!r}")
        if self.most is not None and (type(self.most) is not int or self.most < 0):
            raise ValueError(f"pile '{self.name}': most must be a whole number of cards, 0 or more, not {self.most!r}")

    @property
    def per_seat(self) -> bool:
        return self.each or self.seen == OWNER


def public(name: str, each: bool = False, most: int | None = None) -> Pile:
    return Pile(name, PUBLIC, each, most)


def own(name: str, most: int | None = None) -> Pile:
    """A pile per seat that only its owner sees: a hand."""
    return Pile(name, OWNER, True, most)


def hidden(name: str, most: int | None = None) -> Pile:
    """A face-down pile: its cards are drawn at random (chance steps)."""
    return Pile(name, HIDDEN, False, most)


Where = str | tuple[str, int]  # a pile: its name, or (name, seat) for a pile per seat


class View(NamedTuple):
    """What one seat may know: the turn, the scores and every pile as it sees it (a
    public pile's cards, its own hand's cards, of any other pile how many cards)."""

    player: int
    seat: int  # whose turn it is
    phase: str
    turn: int
    scores: tuple[float, ...]
    piles: FrozenDict  # name -> cards (a tuple), a count, or per seat a tuple of either


class Table:
    """The mutable part of a game: piles of card numbers (indices into the game's cards)."""

    def __init__(self, piles: tuple[Pile, ...], num_players: int, first_phase: str):
        self.specs = {p.name: p for p in piles}
        self.num_players = num_players
        self.piles: dict[str, list[list[int]]] = {
            p.name: [[] for _ in range(num_players if p.per_seat else 1)] for p in piles}
        self.seat = 0
        self.phase = self.first_phase = first_phase
        self.turn = 0
        self.scores = [0.0] * num_players
        self.pending: list[tuple[Where, Where]] = []  # draws waiting for chance: (from, to)
        self.over = False
        # while the checker watches a decision: every card moved and draw asked for, as
        # (card or None for a draw, from, to), for the checker to hold against the kit's flows
        self.log: list[tuple[int | None, Where, Where]] | None = None

    def pile(self, where: Where) -> list[int]:
        """The cards of a pile (a list the rules may read and change)."""
        name, seat = (where, 0) if isinstance(where, str) else where
        if name not in self.specs:
            raise KeyError(f"no pile '{name}' (piles: {', '.join(self.specs)})")
        if self.specs[name].per_seat != (not isinstance(where, str)):
            raise KeyError(f"pile '{name}' is {'one per seat: name it (name, seat)' if self.specs[name].per_seat else 'one for the table: name it alone'}")
        return self.piles[name][seat]

    def move(self, card: int, source: Where, dest: Where) -> None:
        self.pile(source).remove(card)
        self.pile(dest).append(card)
        if self.log is not None:
            self.log.append((card, source, dest))

    def draw(self, source: Where, dest: Where, count: int = 1) -> None:
        """Draw ``count`` cards at random from ``source`` to ``dest``, as chance steps
        taken before the next decision (fewer when ``source`` runs out)."""
        for where in (source, dest):  # both named as declared: said now, not at the draw
            self.pile(where)
        self.pending += [(source, dest)] * count
        if self.log is not None and count > 0:
            self.log.append((None, source, dest))

    def end_turn(self, to: int | None = None) -> None:
        """The next seat's turn, at the first phase: the seat after this one, or seat
        ``to`` where the rules name another (the winner of a trick leads)."""
        self.seat = (self.seat + 1) % self.num_players if to is None else to
        self.phase = self.first_phase
        self.turn += 1

    def cards_everywhere(self) -> list[int]:
        return [c for seats in self.piles.values() for pile in seats for c in pile]

    def holders(self, names: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
        """The seats whose own piles hold each card, by the card's name."""
        seats: dict[str, set[int]] = {}
        for name, spec in self.specs.items():
            if spec.per_seat:
                for s, pile in enumerate(self.piles[name]):
                    for c in pile:
                        seats.setdefault(names[c], set()).add(s)
        return {name: tuple(sorted(held)) for name, held in seats.items()}

    def copy(self) -> Table:
        other = object.__new__(Table)
        other.__dict__.update(self.__dict__)
        other.piles = {name: [list(p) for p in seats] for name, seats in self.piles.items()}
        other.scores = list(self.scores)
        other.pending = list(self.pending)
        other.log = None
        return other

    def view(self, player: int) -> View:
        piles: dict[str, Any] = {}
        for name, spec in self.specs.items():
            shown = [tuple(p) if spec.seen == PUBLIC or (spec.seen == OWNER and s == player) else len(p)
                     for s, p in enumerate(self.piles[name])]
            piles[name] = tuple(shown) if spec.per_seat else shown[0]
        return View(player, self.seat, self.phase, self.turn, tuple(self.scores), FrozenDict(piles))

    def unseen_by(self, player: int) -> list[list[int]]:
        """The piles whose cards ``player`` cannot see."""
        return [p for name, spec in self.specs.items() for s, p in enumerate(self.piles[name])
                if spec.seen == HIDDEN or (spec.seen == OWNER and s != player)]

    def redealt(self, player: int, rng: random.Random) -> Table:
        """A copy in which the cards ``player`` cannot see are shuffled together and dealt
        back, each pile keeping its size."""
        other = self.copy()
        piles = other.unseen_by(player)
        pool = sorted(c for p in piles for c in p)  # in an order that does not tell where they lay
        rng.shuffle(pool)
        for p in piles:
            p[:], pool = pool[:len(p)], pool[len(p):]
        return other
