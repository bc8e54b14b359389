"""An image a layout draws, checked before anything is drawn: a PNG or JPEG that
Pillow reads whole, of a sane size, or an SVG that :mod:`.svgart` accepts.

A game folder is untrusted: a file of a few bytes may claim 100,000 × 100,000 pixels
(tens of gigabytes once decoded), and a broken or truncated file would otherwise fail
in the middle of drawing. The size is read from the header, before any pixel is
decoded; then the image is decoded once, so drawing it later cannot fail.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from ..errors import CardgenError, Where

MAX_IMAGE_PIXELS = 50_000_000  # an A1 poster at 300 dpi; decoded, some 200 MB
FORMATS = ("PNG", "JPEG")


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


def check_image(path: Path) -> tuple[int, int]:
    """The size of a raster image; raise CardgenError (without a place: the caller names
    the file and the face) when ``path`` is not a PNG or JPEG Pillow can read whole, or
    has too many pixels."""
    pillows_limit = Image.MAX_IMAGE_PIXELS
    try:
        Image.MAX_IMAGE_PIXELS = None  # the size is checked here, in words of cardgen's own limit
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
                _check_size(width, height)
                if image.format not in FORMATS:
                    raise CardgenError(f"the image is {image.format or 'of an unknown kind'}; an image must be a "
                                       f"PNG or a JPEG")
                image.load()
                return width, height
    except (OSError, SyntaxError, ValueError, EOFError) as exc:  # unreadable, broken, truncated
        raise CardgenError(f"the image cannot be read: {_reason(exc)}") from None
    finally:
        Image.MAX_IMAGE_PIXELS = pillows_limit


def _check_size(width: int, height: int) -> None:
    if width * height > MAX_IMAGE_PIXELS:
        raise CardgenError(f"the image is {width:,} × {height:,} pixels; an image may have at most "
                           f"{MAX_IMAGE_PIXELS:,} pixels")


def _reason(exc: BaseException) -> str:
    """Pillow's words, without the file's full path (the line names it already)."""
    if isinstance(exc, Image.UnidentifiedImageError):
        return "not a PNG or JPEG file"
    return (str(exc).strip() or type(exc).__name__).splitlines()[0][:200]
