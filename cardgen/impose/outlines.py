"""Closed lines as values: the outlines pieces are clipped to, proofed and cut along.

The imposition stage decides them and a writer only traces them: ``trace`` calls
``rect`` or ``circle`` on any pen with ReportLab's argument order (a ReportLab path
to clip with, a canvas to stroke, or an adapter over a raster mask), so the writer
needs no branch per shape. Millimetres, origin top-left, y down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class Pen(Protocol):
    """What an outline is traced onto (ReportLab's PDFPathObject and Canvas are pens)."""

    def rect(self, x: float, y: float, width: float, height: float, /) -> Any: ...

    def circle(self, x_cen: float, y_cen: float, r: float, /) -> Any: ...


@dataclass(frozen=True)
class RectOutline:
    """An axis-aligned rectangle: top-left (x, y), size w × h."""

    x: float
    y: float
    w: float
    h: float

    @classmethod
    def spanning(cls, x0: float, y0: float, x1: float, y1: float) -> RectOutline:
        """The rectangle from corner (x0, y0) to corner (x1, y1)."""
        return cls(x0, y0, x1 - x0, y1 - y0)

    def trace(self, pen: Pen) -> None:
        pen.rect(self.x, self.y, self.w, self.h)


@dataclass(frozen=True)
class CircleOutline:
    """A circle about (cx, cy) of radius r."""

    cx: float
    cy: float
    r: float

    def trace(self, pen: Pen) -> None:
        pen.circle(self.cx, self.cy, self.r)


Outline = RectOutline | CircleOutline
