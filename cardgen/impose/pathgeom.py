"""Die-cut path outlines as areas: flattened to polygons and offset by Shapely, so
that a custom outline's bleed follows it at the bleed's distance everywhere (round
joins at corners, as a blade's tolerance is round) and its safe zone lies that far
inside it. Millimetres, origin top-left, y down. Shapely (and NumPy under it) is
imported when an outline is first offset or checked, so that a game without one, and
every ``validate``, starts without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .outlines import PathOutline

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

CURVE_STEPS = 24
"""Straight pieces per cubic curve when flattened (a 20 mm arc is off by < 0.01 mm)."""


def rings(segments: Sequence[tuple[Any, ...]]) -> list[list[tuple[float, float]]]:
    """Each contour of the path as a list of points, curves flattened."""
    out: list[list[tuple[float, float]]] = []
    cur: list[tuple[float, float]] = []
    for seg in segments:
        if seg[0] == "M":
            if len(cur) > 1:
                out.append(cur)
            cur = [(seg[1], seg[2])]
        elif seg[0] == "L":
            cur.append((seg[1], seg[2]))
        elif seg[0] == "C":
            (x0, y0), (x1, y1, x2, y2, x3, y3) = cur[-1], seg[1:]
            for k in range(1, CURVE_STEPS + 1):
                t = k / CURVE_STEPS
                u = 1 - t
                cur.append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                            u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
        elif cur:  # Z: a new contour may follow without an M, from the same start
            out.append(cur)
            cur = [cur[0]]
    if len(cur) > 1:
        out.append(cur)
    return out


def area_of(segments: Sequence[tuple[Any, ...]]) -> BaseGeometry:
    """The region the path encloses, contours combined by the even-odd rule (a contour
    inside another is a hole), as the path op fills them."""
    import shapely
    from shapely.geometry import Polygon

    region: BaseGeometry = Polygon()
    for ring in rings(segments):
        if len(ring) >= 3:
            region = region.symmetric_difference(shapely.make_valid(Polygon(ring)))
    return region


def outline_of(region: BaseGeometry) -> PathOutline | None:
    """A region as an even-odd outline of straight segments (None if it is empty)."""
    from shapely.geometry import MultiPolygon, Polygon

    polys = [g for g in getattr(region, "geoms", [region]) if isinstance(g, Polygon) and not g.is_empty]
    if isinstance(region, MultiPolygon):
        polys = [g for g in region.geoms if not g.is_empty]
    segs: list[tuple[Any, ...]] = []
    for poly in polys:
        for ring in (poly.exterior, *poly.interiors):
            pts = list(ring.coords)[:-1]
            if len(pts) < 3:
                continue
            segs.append(("M", *pts[0]))
            segs.extend(("L", *p) for p in pts[1:])
            segs.append(("Z",))
    return PathOutline(tuple(segs)) if segs else None


def offset(segments: Sequence[tuple[Any, ...]], distance: float) -> PathOutline | None:
    """The outline ``distance`` mm outside the path's region (inside when negative); None
    when an inward offset leaves nothing."""
    region = area_of(segments)
    if abs(distance) > 1e-9:
        region = region.buffer(distance, quad_segs=8, join_style="round")
    return outline_of(region)


def bounds(segments: Sequence[tuple[Any, ...]]) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the path's region, curves flattened."""
    pts = [p for ring in rings(segments) for p in ring]
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))


def path_problem(segments: Sequence[tuple[Any, ...]]) -> str | None:
    """What is wrong with a die-cut outline, or None: it must enclose an area and not
    cross itself (a blade cannot follow a figure eight)."""
    from shapely.geometry import Polygon

    contours = rings(segments)
    if not contours:
        return "encloses no area (it needs at least three points)"
    for ring in contours:
        if len(ring) >= 3 and not Polygon(ring).is_valid:
            return "crosses itself"
    region = area_of(segments)
    if region.is_empty or region.area < 1e-6:
        return "encloses no area"
    return None
