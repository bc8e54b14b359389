"""Where the rules let cards go: a kit's ``flows``, read once, and each move of a decision
held against them.

A flow is written ``"market -> hand"``: cards may go from the pile ``market`` to the pile
``hand``. For a pile per seat, a side means the pile of the seat that moves unless it
says whose: ``"hand -> hand of other"`` (another seat's), ``"… of any"`` (any seat's).
A kit that names no flows is not checked this way; one that names some is held to them:
a card sent to a pile the rules never send it to, or to the wrong seat's pile (a rule
applied to the wrong seat), fails the step that did it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..api import RuleViolation
from .table import Pile, Where

OWN, OTHER, ANY = "own", "other", "any"


@dataclass(frozen=True)
class Side:
    pile: str
    whose: str  # OWN, OTHER or ANY; OWN for a pile of the table (it has no seat)

    def fits(self, where: Where, mover: int) -> bool:
        name, seat = (where, None) if isinstance(where, str) else where
        if name != self.pile:
            return False
        if seat is None or self.whose == ANY:
            return True
        return (seat == mover) == (self.whose == OWN)

    def __str__(self) -> str:
        return self.pile if self.whose == OWN else f"{self.pile} of {self.whose}"


def read_flows(flows: Iterable[str], piles: Mapping[str, Pile], owner: str) -> tuple[tuple[Side, Side], ...]:
    """The kit's flows as pairs of sides; a mistake in one is the author's, said at once
    (``owner`` names the kit in the message)."""
    read = []
    for text in flows:
        parts = text.split("->") if isinstance(text, str) else []
        if len(parts) != 2:
            raise TypeError(f"{owner}: flow {text!r} must read 'FROM -> TO', e.g. 'market -> hand'")
        read.append((_side(parts[0], piles, text, owner), _side(parts[1], piles, text, owner)))
    return tuple(read)


def _side(text: str, piles: Mapping[str, Pile], flow: str, owner: str) -> Side:
    words = text.split()
    name = words[0] if words else ""
    if name not in piles:
        raise TypeError(f"{owner}: flow {flow!r} names no pile '{name}' (piles: {', '.join(piles)})")
    if len(words) == 1:
        return Side(name, OWN)
    if len(words) != 3 or words[1] != "of" or words[2] not in (OWN, OTHER, ANY):
        raise TypeError(f"{owner}: flow {flow!r}: say whose pile as '{name} of own', 'of other' or 'of any'")
    if not piles[name].per_seat:
        raise TypeError(f"{owner}: flow {flow!r}: '{name}' is one pile for the table, it belongs to no seat")
    return Side(name, words[2])


def check_flows(flows: tuple[tuple[Side, Side], ...], log: Iterable[tuple[int | None, Where, Where]],
                mover: int, move_words: str, card_name) -> None:
    """Every card the decision moved, and every draw it asked for, along one of ``flows``."""
    for card, source, dest in log:
        if any(a.fits(source, mover) and b.fits(dest, mover) for a, b in flows):
            continue
        what = "draws a card" if card is None else f"moves {card_name(card)}"
        allowed = ", ".join(f"{a} -> {b}" for a, b in flows)
        raise RuleViolation(f"seat {mover + 1}'s {move_words} {what} from {_where(source, mover)} to "
                            f"{_where(dest, mover)}, which the rules never do (flows: {allowed})")


def _where(where: Where, mover: int) -> str:
    if isinstance(where, str):
        return where
    name, seat = where
    return f"its own {name}" if seat == mover else f"the {name} of seat {seat + 1}"
