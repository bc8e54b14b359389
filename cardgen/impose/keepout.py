"""What a sheet label must keep clear of on a page: the pieces (their trim, and the art
they show around it) and the guides (crop marks, ticks, fold marks), as polygons; and
the stretches along a straight band across the page where a line of text has room.

Pure arithmetic in page millimetres (origin top-left, y down), no Shapely: a piece's
outline is flattened to a polygon (a circle to one drawn round it), and "within ``gap``
of a polygon" is tested on the polygon's extent in a slab widened by ``gap``, which may
keep a label a little further off near a slanted edge, never nearer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .marks import Mark
from .outlines import CircleOutline, Outline, PathOutline, RectOutline
from .pathgeom import rings

Points = tuple[tuple[float, float], ...]
Box = tuple[float, float, float, float]
"""(left, top, right, bottom), mm."""

_CIRCLE_SIDES = 72
_EPS = 1e-9


def polygons(outline: Outline) -> tuple[Points, ...]:
    """The outline as closed polygons that contain it (a circle's circumscribed 72-gon)."""
    if isinstance(outline, RectOutline):
        x0, y0, x1, y1 = outline.x, outline.y, outline.x + outline.w, outline.y + outline.h
        return (((x0, y0), (x1, y0), (x1, y1), (x0, y1)),)
    if isinstance(outline, CircleOutline):
        r = outline.r / math.cos(math.pi / _CIRCLE_SIDES)
        return (tuple((outline.cx + r * math.cos(2 * math.pi * k / _CIRCLE_SIDES),
                       outline.cy + r * math.sin(2 * math.pi * k / _CIRCLE_SIDES)) for k in range(_CIRCLE_SIDES)),)
    assert isinstance(outline, PathOutline)
    return tuple(tuple(ring) for ring in rings(outline.segments) if len(ring) >= 2)


def _extent(points: Points, lo: float, hi: float, across: int) -> tuple[float, float] | None:
    """Where (along the other axis) the closed polygon ``points`` reaches inside the slab
    ``lo ≤ p[across] ≤ hi``: the span of its edges clipped to the slab, or None."""
    along = 1 - across
    found: list[float] = []
    for (p, q) in zip(points, points[1:] + points[:1]):
        a, b = p[across], q[across]
        if max(a, b) < lo - _EPS or min(a, b) > hi + _EPS:
            continue
        if abs(b - a) < _EPS:
            found += [p[along], q[along]]
            continue
        for t in (max(0.0, min(1.0, (lo - a) / (b - a))), max(0.0, min(1.0, (hi - a) / (b - a)))):
            found.append(p[along] + t * (q[along] - p[along]))
    return (min(found), max(found)) if found else None


@dataclass(frozen=True)
class Obstacle:
    """Polygons a label keeps ``gap`` mm away from."""

    shapes: tuple[Points, ...]
    gap: float
    bounds: Box

    @classmethod
    def of(cls, shapes: Iterable[Points], gap: float) -> Obstacle:
        shapes = tuple(shapes)
        xs = [p[0] for s in shapes for p in s]
        ys = [p[1] for s in shapes for p in s]
        return cls(shapes, gap, (min(xs) - gap, min(ys) - gap, max(xs) + gap, max(ys) + gap))

    def blocks(self, lo: float, hi: float, across: int) -> tuple[float, float] | None:
        """The stretch (along the other axis) this obstacle, grown by its gap, takes of the
        slab ``lo ≤ p[across] ≤ hi``; None when it misses the slab."""
        if self.bounds[2 + across] < lo or self.bounds[across] > hi:
            return None
        spans = [s for s in (_extent(p, lo - self.gap, hi + self.gap, across) for p in self.shapes) if s]
        if not spans:
            return None
        return min(s[0] for s in spans) - self.gap, max(s[1] for s in spans) + self.gap


@dataclass(frozen=True)
class KeepOut:
    """A page's pieces and guides, as a sheet label sees them: it must come no nearer a
    piece's trim than ``trim_gap`` nor a guide than ``guide_gap``, and a line over the art
    a piece shows around its trim (its bleed) is drawn on a white band (``LabelLine.backed``)."""

    trims: tuple[Obstacle, ...]
    art: tuple[Obstacle, ...]  # what each piece shows: trim and bleed (gap 0)
    guides: tuple[Obstacle, ...]

    @classmethod
    def of(cls, trims: Sequence[Outline], art: Sequence[Outline], guides: Iterable[Mark], *,
           trim_gap: float, guide_gap: float) -> KeepOut:
        return cls(tuple(Obstacle.of(polygons(o), trim_gap) for o in trims),
                   tuple(Obstacle.of(polygons(o), 0.0) for o in art),
                   tuple(Obstacle.of((((m.x1, m.y1), (m.x2, m.y2)),), guide_gap) for m in guides))

    def clear(self, box: Box) -> bool:
        """Whether a line's box keeps its distance from every trim and guide."""
        return not any(_hits(o, box) for o in self.trims + self.guides)

    def on_art(self, box: Box) -> bool:
        """Whether a line's box lies partly over a piece's art (bleed, as ``clear`` allows)."""
        return any(_hits(o, box) for o in self.art)

    def free(self, lo: float, hi: float, across: int, start: float, end: float, *,
             over_art: bool = True) -> list[tuple[float, float]]:
        """The stretches of ``start``–``end`` (along the other axis) where nothing the label
        keeps clear of (nor, unless ``over_art``, a piece's bleed) reaches into the slab
        ``lo ≤ p[across] ≤ hi``, in order."""
        obstacles = self.trims + self.guides + (() if over_art else self.art)
        taken = sorted(s for s in (o.blocks(lo, hi, across) for o in obstacles) if s)
        out, at = [], start
        for a, b in taken:
            if a > at:
                out.append((at, min(a, end)))
            at = max(at, b)
            if at >= end:
                break
        if at < end:
            out.append((at, end))
        return [(a, b) for a, b in out if b > a]


def _hits(o: Obstacle, box: Box) -> bool:
    span = o.blocks(box[1], box[3], 1)
    return span is not None and span[0] < box[2] and span[1] > box[0]
