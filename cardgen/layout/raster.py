"""A raster image checked before anything is drawn: a PNG or JPEG that Pillow reads
whole, of a sane size. Every raster cardgen draws comes through here: an image file,
an image icon, and a PNG or JPEG embedded in an SVG.

A game folder is untrusted: a file of a few bytes may claim 100,000 × 100,000 pixels
(tens of gigabytes once decoded), and a broken or truncated file would otherwise fail
in the middle of drawing. The size is read from the header, before any pixel is
decoded; then the image is decoded once, so drawing it later cannot fail.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import IO

from PIL import Image

from ..base.errors import CardgenError

MAX_IMAGE_PIXELS = 50_000_000  # an A1 poster at 300 dpi; decoded, some 200 MB
FORMATS = ("PNG", "JPEG")


def check_image(path: Path | IO[bytes]) -> tuple[int, int]:
    """The size of a raster image, a file or the bytes of one (a PNG embedded in an SVG);
    raise CardgenError (without a place: the caller names the file and the face) when it
    is not a PNG or JPEG Pillow can read whole, or has too many pixels. Every raster
    cardgen draws is checked here, before Pillow decodes a pixel."""
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
