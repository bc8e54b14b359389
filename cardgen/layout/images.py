"""An image a layout draws, checked before anything is drawn: a PNG or JPEG that
:mod:`.raster` accepts, or an SVG that :mod:`.svgart` accepts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.errors import CardgenError, Where
from .raster import check_image


class MissingImage(CardgenError):
    """An image a face names (``src``, as the template wrote it) that the game's assets
    folder does not hold: the message may then name the spreadsheet cell it came from."""

    def __init__(self, message: str, src: str, where: Where | None = None):
        super().__init__(message, where)
        self.src = src


@dataclass(frozen=True)
class Picture:
    """A checked image: its size (pixels for a raster image, points for an SVG) and, for
    an SVG, the drawing the painter places."""

    width: float
    height: float
    drawing: Any = None  # a reportlab Drawing for an SVG
    elements: int = 0  # what drawing it costs: an SVG's elements, <use> expanded

    @property
    def aspect(self) -> float:
        return self.width / self.height


def is_svg(path: Path) -> bool:
    return path.suffix.lower() == ".svg"


def open_picture(path: Path) -> Picture:
    """The image at ``path``, checked whole (CardgenError without a place otherwise)."""
    if is_svg(path):
        from .svgart import load_svg

        drawing, elements = load_svg(path)
        return Picture(float(drawing.width), float(drawing.height), drawing, elements)
    return Picture(*check_image(path))
