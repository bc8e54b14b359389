"""Piece outlines, one class per shape: everything that differs between a rectangular
card and a round token, so that no other module asks which shape a piece has and a
new shape is one more class here.

A shape answers for its pieces: whether each needs its own bleed (cannot share cut
lines with a neighbour), the outline a placed piece is clipped to, the outline of its
trim (proof lines, image masks), its cut guides, and how ``cardgen list`` states its
size. Millimetres, origin top-left, y down; values only, the writers draw them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .marks import CutGuide, Mark, TrimCorner, bleed_ticks, circle_guides
from .outlines import CircleOutline, Outline, RectOutline

Sides = tuple[float, float, float, float]
"""Bleed a placed piece may show on its left, top, right and bottom (mm)."""


@dataclass(frozen=True)
class CutGuides:
    """How the pieces on a page are shown where to cut, besides the margin's crop marks."""

    ticks: tuple[Mark, ...] = ()  # short marks on the cut lines, in the pieces' outer bleed
    traced: tuple[CutGuide, ...] = ()  # trim lines drawn over the art, with their ticks


@dataclass(frozen=True)
class ProofLines:
    """A designer's proof overlay of one piece: its trim, bleed and safe-zone outlines."""

    trim: Outline
    bleed: Outline
    safe: Outline


class Shape(ABC):
    """The outline of a component's pieces (its ``shape`` in the game's YAML)."""

    name: ClassVar[str]
    own_bleed: ClassVar[bool] = False
    """Pieces cannot share cut lines, so each keeps its own bleed (a gutter layout)."""
    fills_trim_box: ClassVar[bool] = False
    """The cut piece is its whole trim box (no paper to mask around it in an image)."""

    @abstractmethod
    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        """The trim outline of a piece whose trim box is (x, y, w, h), moved ``inset`` mm
        inward (outward when negative: ``-bleed`` is the bleed's outer edge)."""

    @abstractmethod
    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        """What a placed piece shows of its face: its trim plus the bleed ``sides`` allow
        (none across a cut line shared with a neighbour); ``apart`` is whether the pieces
        stand apart on the sheet (a gutter layout) rather than touching."""

    @abstractmethod
    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """The cut guides of pieces of size ``item`` placed at ``slots``."""

    @abstractmethod
    def size_text(self, w: float, h: float) -> str:
        """The pieces' size as ``cardgen list`` prints it."""

    def proof_lines(self, x: float, y: float, w: float, h: float, bleed: float, safe: float) -> ProofLines:
        """Trim, bleed and safe-zone outlines of a piece whose trim box is (x, y, w, h)."""
        return ProofLines(self.outline(x, y, w, h, 0), self.outline(x, y, w, h, -bleed),
                          self.outline(x, y, w, h, safe))


class Rect(Shape):
    """Cards, tiles and stickers: cut along straight lines, which neighbours may share."""

    name = "rect"
    fills_trim_box = True

    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        return RectOutline(x + inset, y + inset, w - 2 * inset, h - 2 * inset)

    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        left, top, right, bottom = sides
        return RectOutline.spanning(x - left, y - top, x + w + right, y + h + bottom)

    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """Ticks in the outer bleed on each cut line, printable where the margin's crop
        marks may not be."""
        return CutGuides(ticks=bleed_ticks(slots, item, bleed))

    def size_text(self, w: float, h: float) -> str:
        return f"{w:g}×{h:g} mm"


class Circle(Shape):
    """Round tokens (the size is the diameter): no straight cut line follows them, so
    they stand apart and are cut along their traced trim circle."""

    name = "circle"
    own_bleed = True

    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        return CircleOutline(x + w / 2, y + h / 2, w / 2 - inset)

    def _ring(self, bleed: float, apart: bool) -> float:
        """The bleed a round piece shows around its trim circle: its own when pieces
        stand apart, none when they touch (a butted grid), where a ring of bleed would
        paint over the neighbour."""
        return bleed if apart else 0.0

    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        return CircleOutline(x + w / 2, y + h / 2, w / 2 + self._ring(min(sides), apart))

    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """The trim circles, with diagonal ticks outside the bleed ring."""
        return CutGuides(traced=circle_guides(slots, item, self._ring(bleed, apart)))

    def size_text(self, w: float, h: float) -> str:
        return f"{w:g} mm round"


SHAPES: dict[str, Shape] = {shape.name: shape for shape in (Rect(), Circle())}


def shape_of(name: str) -> Shape:
    """The shape a component names (``rect`` or ``circle``; the loader checks the name)."""
    try:
        return SHAPES[name]
    except KeyError:
        raise ValueError(f"unknown piece shape {name!r} (known: {', '.join(SHAPES)})") from None
