"""The components of a game, one frozen class per kind, and their cards.

A deck is imposed piece by piece (with optional backs); a sheet is a template drawn
as whole pages; a board is drawn once at full size and tiled across pages. Each kind
holds only its own fields, so code that needs a deck's size or cards narrows by type
(``isinstance(comp, Deck)``) and a type checker can follow it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..base.errors import Where


@dataclass(frozen=True)
class SourceRow:
    """A spreadsheet row a card was made from: the ``for_each`` name it is read under
    (``card.row.cost``), where the row is, where each of its filled cells is, and every
    column of its sheet, so that a message about the card names the row's cells and a
    misspelt column is told which columns there are."""

    name: str
    where: Where  # the row: file, sheet and row, no column
    cells: tuple[tuple[str, Where], ...]  # (column name, its cell) for each cell the row fills
    columns: tuple[str | None, ...]  # the sheet's column names, column by column (None: a column with no name)

    def cell(self, column: str) -> Where | None:
        """Where the row's cell of ``column`` is, or None when the row leaves it empty."""
        return next((where for name, where in self.cells if name == column), None)


@dataclass(frozen=True)
class Card:
    """One distinct card (or token, tile, sticker) of a deck."""

    id: str
    fields: Mapping[str, Any]
    quantity: int
    where: Where  # its game.yaml entry's id, or for a card made from a spreadsheet row, the cell of its id
    variant: str | None = None  # only printed when the build asks for this variant (``--variant``)
    front: str | None = None  # its own front template, instead of its deck's
    back: str | None = None  # its own back template, instead of its deck's (a two-sided deck only)
    # the spreadsheet cells its for_each values were read from: ("row.cost", the cell), to
    # name the cell when a template fails on one of them
    cells: tuple[tuple[str, Where], ...] = ()
    rows: tuple[SourceRow, ...] = ()  # the spreadsheet rows it was made from (one per for_each name over a sheet)


@dataclass(frozen=True, kw_only=True)
class ComponentBase:
    """What every kind has: an id, the string key of its name, where it is defined."""

    kind: ClassVar[str]
    id: str
    name_key: str | None
    where: Where
    name_where: Where | None = None  # where its ``name`` key stands (for a missing translation)


@dataclass(frozen=True, kw_only=True)
class Deck(ComponentBase):
    """Same-size pieces imposed on sheets: two-sided (with a back) on the cards file,
    one-sided on the sheets file."""

    kind: ClassVar[str] = "deck"
    size: tuple[float, float]
    bleed: float = 3.0
    safe: float = 3.0
    front: str
    back: str | None = None
    cards: tuple[Card, ...] = ()
    printshop: bool = True
    shape: str = "rect"  # rect, circle (size: the diameter), hex, rounded or path (see impose.shapes)
    hex_top: str = "pointy"  # hex: "pointy" or "flat" top
    corner_radius: float = 0.0  # rounded: the corners' radius (mm)
    outline: str | None = None  # path: SVG path data of the die-cut outline (mm)
    new_row_per: str | None = None  # "card": each card entry starts a new row on the sheets
    header: str | None = None  # one-sided decks: a template drawn on each of their sheets (title, instructions)

    @property
    def count(self) -> int:
        """How many pieces the deck prints (quantities included)."""
        return sum(c.quantity for c in self.cards)

    def front_of(self, card: Card) -> str:
        """The template of ``card``'s front: its own, or the deck's."""
        return card.front or self.front

    def back_of(self, card: Card) -> str | None:
        """The template of ``card``'s back (None for a one-sided deck)."""
        return (card.back or self.back) if self.back else None

    @property
    def templates(self) -> tuple[str, ...]:
        own = dict.fromkeys(t for c in self.cards for t in (c.front, c.back) if t)
        return tuple(dict.fromkeys(t for t in (self.front, self.back, self.header, *own) if t))


@dataclass(frozen=True, kw_only=True)
class Sheet(ComponentBase):
    """A template printed as whole pages of the sheets file (rules, setup, score pad…)."""

    kind: ClassVar[str] = "sheet"
    template: str

    @property
    def templates(self) -> tuple[str, ...]:
        return (self.template,)


@dataclass(frozen=True, kw_only=True)
class Board(ComponentBase):
    """A drawing larger than the paper: drawn once at full size, tiled across pages."""

    kind: ClassVar[str] = "board"
    size: tuple[float, float]
    bleed: float = 3.0
    overlap: float = 10.0  # how far neighbouring pages overlap (the glue margin), mm
    template: str

    @property
    def templates(self) -> tuple[str, ...]:
        return (self.template,)


Component = Deck | Sheet | Board
