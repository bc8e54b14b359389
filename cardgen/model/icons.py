"""Icons a game names in its texts (``:coin:``), as game.yaml's ``icons:`` defines them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import Where


@dataclass(frozen=True)
class Icon:
    """One icon: a character of a font (``char``, with ``font`` or the text's own font and
    the fallback fonts) or a PNG, JPEG or SVG file of the game's ``assets/`` (``src``),
    drawn ``scale`` times the size the layout documents for it."""

    name: str
    char: str | None = None
    font: str | None = None
    src: str | None = None
    colour: str | None = None
    scale: float = 1.0
    where: Where = field(default_factory=Where, compare=False)
