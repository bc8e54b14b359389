"""The loaded game: frozen dataclasses, no I/O.

Everything a build or a validation needs is read and checked by :mod:`cardgen.load`
into these objects first, so the later stages never meet a half-checked file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import Where
from .components import Board, Component, Deck, Sheet
from .expect import Expectation
from .icons import Icon
from .marks import DataMarks
from .printing import PrintSettings
from .pseudo import PSEUDO


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
    players_where: Where = field(default_factory=Where)  # the line of 'players', for the rules' check of it
    # lang -> the keys that language took from the first language (loaded with fallback)
    fallbacks: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # lang -> the strings an unfinished language lacks (its table holds the first language's text)
    unfinished: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # --ink-saver: a palette name or #rrggbb → the colour drawn instead (game.yaml's ink_saver)
    ink_palette: Mapping[str, str] = field(default_factory=dict)
    icons: Mapping[str, Icon] = field(default_factory=dict)  # game.yaml's icons: name -> glyph or image
    # game.yaml's expect: deck id -> what the deck must hold (checked by the validator)
    expect: Mapping[str, tuple[Expectation, ...]] = field(default_factory=dict)
    printing: PrintSettings = field(default_factory=PrintSettings)  # game.yaml's print: (profile, ink limit, shop)

    def has_language(self, lang: str) -> bool:
        """One of the game's languages, or the pseudo-language derived from the first."""
        return lang in self.languages or (lang == PSEUDO and PSEUDO in self.strings)

    def name(self, lang: str) -> str:
        return self.strings[lang][self.name_key]

    def component(self, component_id: str) -> Component:
        for c in self.components:
            if c.id == component_id:
                return c
        raise KeyError(component_id)

    @property
    def decks(self) -> tuple[Deck, ...]:
        return tuple(c for c in self.components if isinstance(c, Deck))

    @property
    def sheets(self) -> tuple[Sheet, ...]:
        return tuple(c for c in self.components if isinstance(c, Sheet))

    @property
    def boards(self) -> tuple[Board, ...]:
        return tuple(c for c in self.components if isinstance(c, Board))
