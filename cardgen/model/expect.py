"""What a game says its decks must hold (game.yaml's ``expect``), as checked values.

The loader (:mod:`cardgen.load.expect`) reads and checks the YAML; the validator
(:mod:`cardgen.validation.expect`) compares the decks with it. Both read a card's
dotted fields the same way, through :func:`cardgen.model.fields.field_value`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.errors import Where
from .fields import field_value, has_field

__all__ = ["Expectation", "ValueSet", "field_value", "has_field"]

@dataclass(frozen=True)
class ValueSet:
    """The values one key field takes, in the order written, and how they were written
    (``1..10``, ``fuel, ore, ice``), for the messages."""

    values: tuple[Any, ...]
    text: str
    places: tuple[Where, ...] = ()  # where each value is written, when it is written out
    data: str | None = None  # the list under ``data`` they were read from
    where: Where | None = None  # where they are given (the list, the range, the mapping naming the data)

    def among(self) -> str:
        """What a value must be among, as messages say it."""
        return f"the values of data '{self.data}'" if self.data else self.text

    def listed(self) -> str:
        """The values as "value 1..10" continues."""
        return f"as in data '{self.data}'" if self.data else self.text

    def place(self, value: Any, default: Where) -> Where:
        """Where ``value`` is written (a list's item, a key of ``copies``), else where the
        values are given, else ``default``."""
        for v, where in zip(self.values, self.places):
            if v == value and isinstance(v, bool) == isinstance(value, bool):
                return where
        return self.where or default


@dataclass(frozen=True)
class Expectation:
    """One expectation of a deck: the cards that have every ``key`` field, the values
    those fields take, the copies of each combination, a total and fields that must be
    unique. Without a key it is about every card of the deck (of its variant)."""

    deck: str
    number: int  # its place in the deck's list, from 1
    where: Where  # its entry in game.yaml
    key: tuple[str, ...] = ()
    values: tuple[ValueSet, ...] | None = None  # one per key field; None: any value
    copies: int = 1  # of each combination
    copies_of: Mapping[Any, int] = field(default_factory=dict)  # a key of one field: value → copies
    total: int | None = None
    unique: tuple[str, ...] = ()
    variant: str | None = None  # the variant whose cards it is about; None: the cards of no variant
    values_where: Where = field(default_factory=Where)
    copies_where: Where = field(default_factory=Where)
    total_where: Where = field(default_factory=Where)
    unique_where: Where = field(default_factory=Where)

    def wanted(self, combination: tuple[Any, ...]) -> int:
        """The copies the deck should hold of one combination of the key's values."""
        if self.copies_of and len(combination) == 1:
            return self.copies_of.get(combination[0], self.copies)
        return self.copies

    def name(self) -> str:
        """How messages name it: "expectation 2 of deck 'cards'"."""
        return f"expectation {self.number} of deck '{self.deck}'"
