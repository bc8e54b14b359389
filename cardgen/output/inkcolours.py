"""Screen colours as the inks a print-shop file is drawn with.

A print-shop file is drawn in CMYK from the start: the painter turns each screen
colour (``#rrggbb``) into the output profile's inks as it draws, and an SVG's
drawing is copied once with its fills, strokes and gradient stops in inks. Ink
colours (``cmyk(…)``) and spot colours stay as they are. What is still RGB after
drawing (raster images, a shading's colour space) is converted by
:class:`~cardgen.output.pdfx.Rewriter` without reading the content streams.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from reportlab.lib.colors import CMYKColor, Color

from .cmyk import OutputProfile

INK_DIGITS = 4
"""Inks are written to four decimals (a ten-thousandth of full ink): what the file
held when the CMYK rewrite wrote them."""


def ink_colour(colour: Color, profile: OutputProfile) -> Color:
    """``colour`` as inks through ``profile`` (its alpha kept); a CMYK or spot colour as it is."""
    if isinstance(colour, CMYKColor):
        return colour
    r, g, b = colour.red, colour.green, colour.blue
    inks = [round(v, INK_DIGITS) for v in profile.rgb(r, g, b)]
    alpha = getattr(colour, "alpha", 1)
    return CMYKColor(*inks, alpha=1 if alpha is None else alpha)


def ink_drawing(drawing: Any, profile: OutputProfile) -> Any:
    """A copy of an SVG's drawing (as svglib reads it) whose every fill, stroke and
    gradient stop is in inks; ``drawing`` itself is left as it is (the screen files
    draw it too)."""
    drawing = copy.deepcopy(drawing)
    todo = [drawing]
    while todo:
        node = todo.pop()
        for side in ("fillColor", "strokeColor"):
            colour = getattr(node, side, None)
            if isinstance(colour, Color):
                setattr(node, side, ink_colour(colour, profile))
        gradient = getattr(node, "gradient", None)
        if gradient is not None and dataclasses.is_dataclass(gradient) and hasattr(gradient, "colours"):
            node.gradient = dataclasses.replace(
                gradient, colours=tuple(ink_colour(c, profile) if isinstance(c, Color) else c
                                        for c in gradient.colours))
        shape = getattr(node, "shape", None)  # a gradient's shape is also drawn as itself
        if shape is not None and shape is not node:
            todo.append(shape)
        todo.extend(getattr(node, "contents", []))
    return drawing
