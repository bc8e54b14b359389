"""The loaded game: frozen dataclasses, no I/O.

Everything a build or a validation needs is read and checked by ``loader`` into
these objects first, so the later stages never meet a half-checked file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from ..errors import Where
from .marks import DataMarks


def freeze(value: Any) -> Any:
    """Read-only view of nested YAML data (dicts become mapping proxies, lists tuples)."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Card:
    """One distinct card (or token, tile, sticker) of a component."""

    id: str
    fields: Mapping[str, Any]
    quantity: int
    where: Where
    variant: str | None = None  # only printed when the build asks for this variant (``--variant``)


@dataclass(frozen=True)
class Component:
    """A deck of same-size pieces (imposed, with optional backs), a page sheet, or a
    board larger than the paper (drawn once at full size, tiled across pages)."""

    id: str
    kind: str  # "deck", "sheet" or "board"
    name_key: str | None
    where: Where
    name_where: Where | None = None    # deck only
    size: tuple[float, float] | None = None
    bleed: float = 3.0
    safe: float = 3.0
    front: str | None = None
    back: str | None = None
    cards: tuple[Card, ...] = ()
    printshop: bool = True
    shape: str = "rect"  # "rect" or "circle" (round tokens: size is the diameter)
    new_row_per: str | None = None  # "card": each card entry starts a new row on the sheets
    header: str | None = None  # one-sided decks: a template drawn on each of their sheets (title, instructions)
    # sheet and board
    template: str | None = None
    # board only: how far neighbouring pages overlap (the glue margin), mm
    overlap: float = 10.0

    @property
    def count(self) -> int:
        """How many pieces the component prints (quantities included)."""
        return sum(c.quantity for c in self.cards)


@dataclass(frozen=True)
class Game:
    """A whole game folder, loaded and checked."""

    id: str
    root: Path
    name_key: str
    languages: tuple[str, ...]
    players: tuple[int, int]
    fonts: Mapping[str, str]
    palette: Mapping[str, str]
    data: Mapping[str, Any]
    data_marks: DataMarks  # where each value of ``data`` stands: ``game.data_marks("families", 2)``
    components: tuple[Component, ...]
    strings: Mapping[str, Mapping[str, str]]  # lang -> key -> text
    template_dirs: tuple[Path, ...]
    where: Where = field(default_factory=Where)
    variants: tuple[str, ...] = ()        # the variants chosen for this build (their cards are in the decks)
    known_variants: tuple[str, ...] = ()  # every variant the game's cards name

    def name(self, lang: str) -> str:
        return self.strings[lang][self.name_key]

    def component(self, component_id: str) -> Component:
        for c in self.components:
            if c.id == component_id:
                return c
        raise KeyError(component_id)

    @property
    def decks(self) -> tuple[Component, ...]:
        return tuple(c for c in self.components if c.kind == "deck")

    @property
    def sheets(self) -> tuple[Component, ...]:
        """Components printed as whole pages in the sheets file: sheets and boards."""
        return tuple(c for c in self.components if c.kind in ("sheet", "board"))

    @property
    def boards(self) -> tuple[Component, ...]:
        return tuple(c for c in self.components if c.kind == "board")
