"""Closed lines as values: the outlines pieces are clipped to, proofed and cut along.

The imposition stage decides them and a writer only traces them: ``trace`` calls
``rect`` or ``circle`` on any pen with ReportLab's argument order (a ReportLab path
to clip with, a canvas to stroke, or an adapter over a raster mask), and a
:class:`PathOutline` (hexes, rounded corners, die-cut paths) calls ``moveTo``,
``lineTo``, ``curveTo`` and ``close``, which a ReportLab path has and a canvas has
not (``output.canvas.stroke_outline`` strokes it through a path), so the writer
needs no branch per shape. Millimetres, origin top-left, y down.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Pen(Protocol):
    """What an outline is traced onto (ReportLab's PDFPathObject and Canvas are pens)."""

    def rect(self, x: float, y: float, width: float, height: float, /) -> Any: ...

    def circle(self, x_cen: float, y_cen: float, r: float, /) -> Any: ...


class PathPen(Protocol):
    """What a :class:`PathOutline` is traced onto (ReportLab's PDFPathObject)."""

    def moveTo(self, x: float, y: float, /) -> Any: ...

    def lineTo(self, x: float, y: float, /) -> Any: ...

    def curveTo(self, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float, /) -> Any: ...

    def close(self) -> Any: ...


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


PathSegment = tuple[float, ...]
"""("M", x, y) | ("L", x, y) | ("C", x1, y1, x2, y2, x, y) | ("Z",), as ``layout.svgpath`` reads them;
typed loosely because the first item is the command letter."""


@dataclass(frozen=True)
class PathOutline:
    """Closed contours of move/line/cubic segments: a hexagon, a rounded rectangle, a
    die-cut path or their bleed and safe-zone offsets. ``nonzero``: the contours are
    one region filled by the non-zero rule (overlapping contours are their union);
    otherwise even-odd (a contour inside another is a hole)."""

    segments: tuple[tuple[Any, ...], ...]
    nonzero: bool = False

    @classmethod
    def polygon(cls, points: Sequence[tuple[float, float]]) -> PathOutline:
        """A closed polygon through ``points``."""
        (x0, y0), rest = points[0], points[1:]
        return cls((("M", x0, y0), *(("L", x, y) for x, y in rest), ("Z",)))

    def trace(self, pen: PathPen) -> None:
        for seg in self.segments:
            if seg[0] == "M":
                pen.moveTo(seg[1], seg[2])
            elif seg[0] == "L":
                pen.lineTo(seg[1], seg[2])
            elif seg[0] == "C":
                pen.curveTo(*seg[1:])
            else:
                pen.close()

    def points(self) -> tuple[tuple[float, float], ...]:
        """Every end and control point (a curve lies inside its control points' hull)."""
        return tuple((seg[i], seg[i + 1]) for seg in self.segments for i in range(1, len(seg), 2))

    def bbox(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) around the outline (its control points')."""
        pts = self.points()
        return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))

    def mapped(self, fx: Any) -> PathOutline:
        """The outline with every point moved by ``fx((x, y)) -> (x, y)``."""
        out: list[tuple[Any, ...]] = []
        for seg in self.segments:
            pts = [fx((seg[i], seg[i + 1])) for i in range(1, len(seg), 2)]
            out.append((seg[0], *(v for p in pts for v in p)))
        return PathOutline(tuple(out), self.nonzero)

    def moved(self, dx: float, dy: float) -> PathOutline:
        return self.mapped(lambda p: (p[0] + dx, p[1] + dy))


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> PathOutline:
    """A rectangle with quarter-circle corners of radius ``r`` (cubic arcs, clockwise on
    the page from the top edge)."""
    r = max(0.0, min(r, w / 2, h / 2))
    if r <= 1e-9:
        return PathOutline.polygon(((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
    k = r * 4 * (math.sqrt(2) - 1) / 3  # the control distance of a quarter circle
    x1, y1 = x + w, y + h
    return PathOutline((
        ("M", x + r, y), ("L", x1 - r, y), ("C", x1 - r + k, y, x1, y + r - k, x1, y + r),
        ("L", x1, y1 - r), ("C", x1, y1 - r + k, x1 - r + k, y1, x1 - r, y1),
        ("L", x + r, y1), ("C", x + r - k, y1, x, y1 - r + k, x, y1 - r),
        ("L", x, y + r), ("C", x, y + r - k, x + r - k, y, x + r, y), ("Z",)))


Outline = RectOutline | CircleOutline | PathOutline
